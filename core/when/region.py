"""Where the person writes from: the language and country whose conventions read a date.

Which of 05/06 is the day follows the region's own short date pattern (Babel's CLDR data: en_US
"M/d/yy", pt_PT "dd/MM/yy", de_DE "dd.MM.yy"); a date only one reading makes whole (22/04, 4/22)
is read that way in every region. Its own day and month without a year ("Md": es_CL "dd-MM", en_CH
"dd.MM") say which dash or dot makes "22-04" a date there. The country names the public holidays
read by name.

The region in force: `NEURONS_DATE_REGION` ("pt_PT", "en-US", "de"), else the one the data dir
keeps (config.json's "date_region": `neurons config set date-region`, the desktop's Preferences ▸
Numeric dates; Settings.from_env chooses it, core.config.choose_date_region), else the process locale (LC_ALL,
LC_TIME, LANG); a locale that names none ("C", "POSIX") reads day first, as most of the world
writes dates, in English.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache

from core import config

REGION_ENV = "NEURONS_DATE_REGION"
LANGUAGE_CODES = ("en", "pt", "es", "de", "fr")


@dataclass(frozen=True)
class Region:
    language: str = "en"  # one of LANGUAGE_CODES: the one whose number words are read first
    country: str | None = None  # ISO 3166 alpha-2 ("PT"); None: not known
    day_first: bool = True  # 05/06 is the 5th of June
    year_first: bool = False  # 06/05/04 (only the ISO-like locales)
    clock_24h: bool = False  # the locale writes the 24-hour clock: "7:45" is 07:45, evening is 19:45
    clock_dot: bool = False  # the locale writes its clock with a dot (en_DK, en_FI: "15.30")
    # the figure between a day and month it writes without a year, when not "/" (es_CL "22-04",
    # en_CH "22.04", fr_CA "04-22"); None: "/" or with a final dot (de "22.4.")
    day_month_sep: str | None = None
    # the day its weeks begin on (0 Monday .. 6 Sunday: CLDR's, en_US and pt_BR Sunday, en_GB
    # Monday): "next Friday" said while this week's is still ahead is next week's
    first_week_day: int = 0

    @property
    def tag(self) -> str:
        return f"{self.language}_{self.country}" if self.country else self.language


@cache
def region_of(tag: str | None) -> Region:
    """The Region a locale tag names ("pt_PT.UTF-8", "en-US", "de"); an unknown one: the default."""
    m = re.match(r"^([A-Za-z]{2,3})(?:[-_]([A-Za-z]{2}))?", (tag or "").strip())
    if not m or m.group(1).lower() in ("c", "posix"):
        return Region()
    language, country = m.group(1).lower(), (m.group(2) or "").upper() or None
    day_first, year_first, clock_24h, clock_dot, day_month_sep = _order(language, country)
    return Region(
        language=language if language in LANGUAGE_CODES else "en",
        country=country,
        day_first=day_first,
        year_first=year_first,
        # English is typed on the 12-hour clock even where forms print 24 hours (en_GB): "call mum
        # at 4:30" is the afternoon
        clock_24h=clock_24h and language != "en",
        clock_dot=clock_dot,
        day_month_sep=day_month_sep,
        first_week_day=_first_week_day(language, country),
    )


def _order(language: str, country: str | None) -> tuple[bool, bool, bool, bool, str | None]:
    """(day first, year first) of the locale's short date pattern (a year-first one: the day first
    as its day and month without a year are written, en_CA "d/M", fr_CA "MM-dd"); whether its short
    time pattern is on the 24-hour clock (CLDR's "H" or "k", not "h" with "a"), whether it parts the
    hour from the minutes with a dot ("HH.mm"), and the figure its day and month are parted with
    when it is no "/" and no final dot follows ("dd-MM", "dd.MM", "MM-dd")."""
    try:
        from babel import Locale, UnknownLocaleError  # noqa: PLC0415 - only when a region is read

        try:
            locale = Locale.parse(f"{language}_{country}" if country else language)
        except (UnknownLocaleError, ValueError):
            locale = Locale.parse(language)
        pattern = locale.date_formats["short"].pattern
        time_letters = re.sub(r"'[^']*'", "", locale.time_formats["short"].pattern)
        skeleton = locale.datetime_skeletons.get("Md")
        day_month = re.sub(r"'[^']*'", "", skeleton.pattern) if skeleton is not None else ""
    except Exception:  # noqa: BLE001 - no Babel, or a locale it does not know: the default order
        return True, False, False, False, None
    letters = [c for c in re.sub(r"'[^']*'", "", pattern) if c in "dMy"]
    first = letters[0] if letters else "d"
    clock_dot = re.search(r"[hHkK]\.m", time_letters) is not None
    apart = re.fullmatch(r"d{1,2}([.-])M{1,2}|M{1,2}([.-])d{1,2}", day_month)
    day_first = first == "d" or (first == "y" and day_month.lstrip().startswith("d"))
    clock_24h = "H" in time_letters or "k" in time_letters
    day_month_sep = (apart.group(1) or apart.group(2)) if apart else None
    return day_first, first == "y", clock_24h, clock_dot, day_month_sep


def _first_week_day(language: str, country: str | None) -> int:
    """The day the locale's weeks begin on (Babel's CLDR week data; Monday when none is known)."""
    try:
        from babel import Locale, UnknownLocaleError  # noqa: PLC0415 - only when a region is read

        try:
            return Locale.parse(f"{language}_{country}" if country else language).first_week_day
        except (UnknownLocaleError, ValueError):
            return Locale.parse(language).first_week_day
    except Exception:  # noqa: BLE001 - no Babel, or a locale it does not know: Monday
        return 0


def known_tag(tag: str) -> bool:
    """A region Babel knows, written as a locale tag ("en_US", "pt-PT", "de")."""
    if not config.REGION_TAG.match(tag.strip()):
        return False
    try:
        from babel import Locale  # noqa: PLC0415 - only when a region is chosen

        Locale.parse(tag.strip().replace("-", "_"))
    except Exception:  # noqa: BLE001 - UnknownLocaleError, ValueError: not one it knows
        return False
    return True


def current_region() -> Region:
    """The region in force (see the module's docstring)."""
    if os.environ.get(REGION_ENV):
        return region_of(os.environ[REGION_ENV])
    chosen = config.chosen_date_region()
    if chosen:
        return region_of(chosen)
    for name in ("LC_ALL", "LC_TIME", "LANG"):
        value = os.environ.get(name)
        if value:
            return region_of(value)
    return Region()


__all__ = [
    "LANGUAGE_CODES",
    "REGION_ENV",
    "Region",
    "current_region",
    "known_tag",
    "region_of",
]
