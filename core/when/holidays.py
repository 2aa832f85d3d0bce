"""Named days and periods -- holidays, seasons -- in five languages, computed for any year.

A calendar of our own for the names people say in any country ("Easter", "Pentecost",
"Fronleichnam", "dia de Reis", "la Toussaint", "Thanksgiving", "Carnaval") and for questions'
periods: fixed dates, Easter-based feasts (dateutil's Easter), and "the nth weekday of a month"
rules. `DAYS` maps a day's id to a function year -> (first day, number of days); each language's
table (core/when/languages) names the days in that language; `NAMED` maps every folded name to
its day. `FEAST_DAY`: the one day a reminder on a feast that spans days means.

Beside it, the public holidays of the person's country by the names the `holidays` package gives
them in each language it has (`country_days`; "Dia de Todos os Santos", "Tag der Deutschen
Einheit"), loaded the first time a capture asks (~0.2 s), once.
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from datetime import date, timedelta
from functools import cache

from dateutil.easter import easter

from core.when.language import fold
from core.when.languages import LANGUAGES

Span = tuple[date, int]


def _fixed(month: int, day: int, days: int = 1) -> Callable[[int], Span]:
    return lambda y: (date(y, month, day), days)


def _easter(offset: int, days: int = 1) -> Callable[[int], Span]:
    return lambda y: (easter(y) + timedelta(days=offset), days)


def _nth(month: int, weekday: int, n: int, days: int = 1, shift: int = 0) -> Callable[[int], Span]:
    """The nth `weekday` of `month` (n = -1: the last), plus `shift` days."""

    def at(y: int) -> Span:
        if n > 0:
            first = date(y, month, 1)
            d = first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
        else:
            last = date(y, month, calendar.monthrange(y, month)[1])
            d = last - timedelta(days=(last.weekday() - weekday) % 7)
        return d + timedelta(days=shift), days

    return at


def _of_calendar(country: str, name: str) -> Callable[[int], Span]:
    """A feast of another calendar (lunar, lunisolar), on the day the `holidays` package gives it
    in the country that keeps it ("Chinese New Year" in China, "Diwali" in India)."""
    return lambda y: (_calendar_day(country, name, y), 1)


@cache
def _calendar_day(country: str, name: str, year: int) -> date:
    import holidays  # noqa: PLC0415 - ~0.2 s: only when a capture names such a feast

    found = holidays.country_holidays(country, years=year, language="en_US")
    return min(day for day, names in found.items() if any(n.startswith(name) for n in names.split("; ")))


MO, TH, SU = 0, 3, 6

# Each named day, by the id the languages' tables (core/when/languages) give its names.
DAYS: dict[str, Callable[[int], Span]] = {
    "christmas-eve": _fixed(12, 24),
    "christmas-day": _fixed(12, 25),
    "st-nicholas": _fixed(12, 6),
    "boxing-day": _fixed(12, 26),
    "christmas": _fixed(12, 24, 3),
    "new-years-eve": _fixed(12, 31),
    "new-years-day": _fixed(1, 1),
    "new-year": lambda y: (date(y - 1, 12, 31), 2),
    "the-holidays": lambda y: (date(y - 1, 12, 24), 9),
    "epiphany": _fixed(1, 6),
    "valentines": _fixed(2, 14),
    "carnival": _easter(-50, 4),
    "st-patricks": _fixed(3, 17),
    "fallas": _fixed(3, 15, 5),
    "holy-week": _easter(-7, 8),
    "good-friday": _easter(-2),
    "easter-monday": _easter(1),
    "easter-sunday": _easter(0),
    "easter": _easter(-2, 4),
    "liberty-day": _fixed(4, 25),
    "may-day": _fixed(5, 1),
    "ascension": _easter(39),
    "pentecost": _easter(49, 2),
    "corpus-christi": _easter(60),
    "memorial-day": _nth(5, MO, -1),
    "mothers-day": _nth(5, SU, 2),
    "mothers-day-first-sunday": _nth(5, SU, 1),
    "mothers-day-last-sunday": _nth(5, SU, -1),
    "fathers-day": _nth(6, SU, 3),
    "st-josephs": _fixed(3, 19),
    "portugal-day": _fixed(6, 10),
    "santo-antonio": _fixed(6, 12, 2),
    "juneteenth": _fixed(6, 19),
    "st-johns": _fixed(6, 23, 2),
    "fourth-of-july": _fixed(7, 4),
    "bastille-day": _fixed(7, 14),
    "assumption": _fixed(8, 15),
    "labor-day": _nth(9, MO, 1),
    "german-unity": _fixed(10, 3),
    "valencian-day": _fixed(10, 9),
    "hispanidad": _fixed(10, 12),
    "halloween": _fixed(10, 31),
    "all-saints": _fixed(11, 1),
    "all-souls": _fixed(11, 2),
    "armistice": _fixed(11, 11),
    "thanksgiving": _nth(11, TH, 4, days=4),
    "black-friday": _nth(11, TH, 4, shift=1),
    "mlk-day": _nth(1, MO, 3),
    "presidents-day": _nth(2, MO, 3),
    "early-may-bank-holiday": _nth(5, MO, 1),
    "spring-bank-holiday": _nth(5, MO, -1),
    "summer-bank-holiday": _nth(8, MO, -1),
    "ash-wednesday": _easter(-46),
    "palm-sunday": _easter(-7),
    "maundy-thursday": _easter(-3),
    "whit-monday": _easter(50),
    "cyber-monday": _nth(11, TH, 4, shift=4),
    "groundhog-day": _fixed(2, 2),
    "april-fools": _fixed(4, 1),
    "earth-day": _fixed(4, 22),
    "canada-day": _fixed(7, 1),
    "australia-day": _fixed(1, 26),
    "us-election-day": _nth(11, MO, 1, shift=1),  # the Tuesday after the first Monday of November
    "columbus-day": _nth(10, MO, 2),
    "canadian-thanksgiving": _nth(10, MO, 2),
    "victoria-day": lambda y: (
        date(y, 5, 24) - timedelta(days=date(y, 5, 24).weekday()),
        1,
    ),  # Monday by 24 May
    "us-tax-day": _fixed(4, 15),
    "kwanzaa": _fixed(12, 26, 7),
    "holy-saturday": _easter(-1),
    "lunar-new-year": _of_calendar("CN", "Chinese New Year (Spring Festival)"),
    "diwali": _of_calendar("IN", "Diwali"),
    "holi": _of_calendar("IN", "Holi"),
    "rosh-hashanah": _of_calendar("IL", "Rosh Hashanah"),
    "yom-kippur": _of_calendar("IL", "Yom Kippur"),
    "passover": _of_calendar("IL", "Pesach"),
    "eid-al-fitr": _of_calendar("AE", "Eid al-Fitr"),
    "eid-al-adha": _of_calendar("AE", "Eid al-Adha"),
}

# A reminder "on" a feast that spans days is due on its day: Easter Sunday, Christmas Day, New
# Year's Day, Carnival's Tuesday (the others: their first day)
FEAST_DAY: dict[str, Callable[[int], Span]] = {
    "easter": DAYS["easter-sunday"],
    "christmas": DAYS["christmas-day"],
    "the-holidays": DAYS["christmas-day"],
    "new-year": DAYS["new-years-day"],
    "carnival": _easter(-47),
}

# Seasons of the northern hemisphere (meteorological), named only after in/this/last/next/over...
SEASON_DAYS: dict[str, Callable[[int], Span]] = {
    "spring": lambda y: (date(y, 3, 1), 92),
    "summer": lambda y: (date(y, 6, 1), 92),
    "autumn": lambda y: (date(y, 9, 1), 91),
    "winter": lambda y: (date(y, 12, 1), 90),
}

# a folded name in any of the languages -> its day (season)
NAMED: dict[str, Callable[[int], Span]] = {
    fold(name): DAYS[day] for lang in LANGUAGES for name, day in lang.holidays.items()
}
SEASONS: dict[str, Callable[[int], Span]] = {
    fold(name): SEASON_DAYS[season] for lang in LANGUAGES for name, season in lang.seasons.items()
}


def weekend_of(first: date, days: int) -> Span:
    """The long weekend a holiday makes ("Labor Day weekend"): the Saturday to Monday of a
    Monday holiday, Friday to Sunday of a Friday one, and so on."""
    wd = first.weekday()
    if wd == 0:
        return first - timedelta(days=2), 3
    if wd in (3, 4):
        return first, 7 - wd
    if wd == 5:
        return first, 2
    if wd == 6:
        return first - timedelta(days=1), 2
    return first - timedelta(days=wd + 2), wd + 3  # Tuesday, Wednesday: from the Saturday before


COUNTRY_LANGUAGES = ("en", "pt", "es", "de", "fr")  # the `holidays` package's names read in these


@cache
def country_days(country: str, year: int) -> dict[str, tuple[date, ...]]:
    """The country's public holidays of `year` and the next, by each folded name the `holidays`
    package gives them in the languages Neurons reads (each name's days in order), its regions'
    too. Nothing for a country the package does not know."""
    try:
        import holidays  # noqa: PLC0415 - ~0.2 s: only when a capture asks for a country's days
    except ImportError:
        return {}
    try:
        supported = holidays.country_holidays(country).supported_languages
    except (NotImplementedError, KeyError, AttributeError):
        return {}
    out: dict[str, list[date]] = {}
    regional: dict[str, set[date]] = {}
    subdivisions = holidays.country_holidays(country).subdivisions
    for language in supported or (None,):
        if language is not None and not language.startswith(COUNTRY_LANGUAGES):
            continue
        for subdivision in (None, *subdivisions):
            found = holidays.country_holidays(
                country, subdiv=subdivision, years=(year, year + 1), language=language
            )
            for day, names in sorted(found.items()):
                for name in str(names).split("; "):
                    if "(" in name:  # "Christmas Day (observed)": the day itself is named too
                        continue
                    folded = fold(name).strip()
                    if subdivision is not None:
                        regional.setdefault(folded, set()).add(day)
                    elif day not in (days := out.setdefault(folded, [])):
                        days.append(day)
    # a region's holiday ("Reformationstag", "Heilige Drei Könige") by its name, when it is one
    # day a year wherever it is kept (not "Data Magna", each state's own)
    for name, kept in regional.items():
        if name not in out and len({d.year for d in kept}) == len(kept):
            out[name] = sorted(kept)
    return {name: tuple(sorted(days)) for name, days in out.items()}
