"""Dates and times in what a person types -- capture text and the due field -- in five languages.

`find_when(text, now)` -> When (due, rrule, the words that said it) or None. The rules, each in
the table test (tests/core/test_when.py):

- "in 1 minute", "in an hour", "em 10 minutos", "in 2 Stunden": now plus that, to the minute.
- "next Tuesday" is the first Tuesday after today (said on a Tuesday: a week later); a plain
  "Tuesday" is today if the time is still ahead, else next week's.
- A zero-padded "06:31", an hour past 12, "15h", "9 Uhr", fr "7 heures": that hour on a 24-hour
  clock, also with minutes after it ("4 Uhr 15", "4h et quart": 04:15).
- A bare hour ("at 9", "3:30") without a day is its next occurrence on a 12-hour clock (at 20:30,
  "at 9" is 21:00), but 1-6 is never the small hours ("at half past 4" is 16:30); with a day,
  or in a repeat ("every day at 11" is 11:00 whenever it is said), 1-7 are the afternoon
  ("tomorrow at 3" is 15:00), 8-12 the morning (the hour said: "quarter to 8" with a day is
  07:45); "pm", "da tarde", "abends", "every evening", "tomorrow morning" say which. Where the
  region writes the 24-hour clock (Babel's short time pattern; not English), a clock in figures
  is as written ("7:45" 07:45).
- Clock phrases: "half past 4", "quarter to 6", "4 e meia", "6 menos cuarto", "halb 6" (5:30),
  "Viertel vor 6", "6h moins le quart".
- "every morning at 8", "todas as noites", "jeden Abend": daily, at that part of the day.
- "the last day of the month", "the last Friday of the month" (of every month: monthly); "every
  other Wednesday", "jeden zweiten Mittwoch", "un mercredi sur deux": every second week.
- An hour without minutes is on the hour ("9am" is 09:00, never 09:26).
- A day without a time is due at DEFAULT_HOUR (09:00); "tonight" at TONIGHT_HOUR; "in the
  morning"/"à tarde"/"am Abend" at that part's hour.
- A date without a year is the next such date (today included).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, timezone
from functools import cache
from itertools import islice

from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta

from core.model import InvalidInput
from core.when.habits import habits
from core.when.holidays import DAYS, FEAST_DAY, country_days
from core.when.language import fold
from core.when.patterns import GRAMMAR, Grammar, any_of, group
from core.when.region import LANGUAGE_CODES, Region, current_region, region_of
from core.when.spoken import MONTH_NAMES

DEFAULT_HOUR = 9  # a day without a time is due at 09:00
TONIGHT_HOUR = 20  # "tonight" without a time
AFTERNOON_UNTIL = 7  # with a day named, a bare hour 1..7 is the afternoon ("tomorrow at 3": 15:00)
NIGHT_FROM = 20  # a part of the day from this hour is the night ("in der Nacht", "at night")
END_HOUR = 18
NOW_WORDS = 4  # "end of the day", "fim do mês": that last day at 18:00, when work ends
SMALL_HOURS_UNTIL = 6  # without one, a bare 1..6 is too: nobody means 04:30 without saying "am"
TONIGHT_SMALL_HOURS_UNTIL = 5  # "tonight at 1..4" are the night's small hours; "tonight at 5" 17:00

WEEKDAY_OF = (MO, TU, WE, TH, FR, SA, SU)
RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
_FREQ = {
    "day": "DAILY",
    "week": "WEEKLY",
    "month": "MONTHLY",
    "year": "YEARLY",
    "quarter": "MONTHLY;INTERVAL=3",
    "half-year": "MONTHLY;INTERVAL=6",
    "clock-hour": "HOURLY",
    "clock-minute": "MINUTELY",
    "clock-half-hour": "MINUTELY;INTERVAL=30",
    "clock-quarter-hour": "MINUTELY;INTERVAL=15",
    "two-weeks": "WEEKLY;INTERVAL=2",
    "weekend": "WEEKLY;BYDAY=SA,SU",  # every weekend: its Saturday and its Sunday
}
# a repeat by the clock ("every 15 minutes", "stündlich") without a time said starts one step from now
LISTED_DAYS = 3  # so many weekdays listed ("Monday, Wednesday and Friday") are a habit, not days
_CLOCK_STEP = {"HOURLY": timedelta(hours=1), "MINUTELY": timedelta(minutes=1)}
# "N times a week": spread over the week; "a month": over the month; a year: every 12/N months
_TIMES_A_WEEK = {2: "MO,TH", 3: "MO,WE,FR", 4: "MO,TU,TH,FR", 5: "MO,TU,WE,TH,FR", 6: "MO,TU,WE,TH,FR,SA"}
_TIMES_A_MONTH = {2: (1, 15), 3: (1, 10, 20), 4: (1, 8, 15, 22)}


def _rule_parts(rule: str) -> dict[str, str]:
    """An RRULE's parts by name ("FREQ=WEEKLY;BYDAY=SA": FREQ WEEKLY, BYDAY SA)."""
    return dict(piece.partition("=")[::2] for piece in rule.split(";") if piece)


def _every(unit: str, n: int = 1) -> str:
    """The RRULE of "every n <unit>s" ("every 2 quarters": every 6 months, "every other weekend":
    every 2 weeks on Saturday)."""
    freq, _, rest = _FREQ[unit].partition(";")
    parts = _rule_parts(rest)
    step = int(parts.pop("INTERVAL", "1")) * n
    by = "".join(f";{key}={value}" for key, value in parts.items())
    return f"FREQ={freq}" + (f";INTERVAL={step}" if step > 1 else "") + by


def _first_of_days(rule: str, today: date) -> date | None:
    """The first day from today of a weekly rule's days ("BYDAY=SA": the next Saturday); None
    for a rule without days of the week."""
    parts = _rule_parts(rule)
    days = [RRULE_DAYS.index(d) for d in parts.get("BYDAY", "").split(",") if d in RRULE_DAYS]
    return min((_next_weekday(today, d, strictly_after=False) for d in days), default=None)


def _spaced(words: str) -> str:
    return re.sub(r"\s+", " ", words)


@dataclass
class When:
    due: datetime
    rrule: str | None
    spans: list[tuple[int, int]] = field(default_factory=list)  # where the text said it
    explicit_day: bool = False
    explicit_time: bool = False
    text: str = ""
    # a doubt about the reading, said to the person beside it ("05/06 read day first: it could be
    # the other way round"; a weekday that is not the date's)
    ambiguous: str | None = None
    # only a month was said ("in July"): a date when asked for one, too loose to make a note a
    # reminder by itself ("Ana moved to Porto in May")
    loose: bool = False

    @property
    def words(self) -> str:
        return " ".join(self.text[s:e] for s, e in sorted(self.spans))


@dataclass
class _Rec:
    rule: str
    first: date | None  # the first day it falls on, when the words say one
    part: str | None = None  # "every morning": the part of the day (a word of the parts table)


@dataclass
class _Clock:
    h: int
    m: int
    exact: bool  # read on a 24-hour clock as written
    ampm: str | None  # "am" | "pm" from the words around it
    padded: bool = False  # "09:00", "09h": written on a 24-hour clock for sure
    s: int = 0  # seconds ("10:30:15")
    part: str | None = None  # no clock said, only this part of the day (its hour is h)
    midnight: bool = False  # said as a word ("midnight", "meia-noite")
    # minutes before the hour said ("oito menos um quarto", "quarter to 8": h is 7): the hour said
    # says which half of the day, as it does alone ("amanhã às oito" 08:00, so 07:45)
    before_said: bool = False

    def wake(self) -> None:
        """An alarm or a waking said with a repeat ("alarm every weekday at 7:30", "Wecker jeden
        Tag um 6"): its bare hour is the morning's, not the afternoon a repeat's 1-7 is."""
        if self.ampm is None and 1 <= self.h <= 11 and not self.padded and self.part is None:
            self.ampm = "am"

    def hint(self, part: str, g: Grammar) -> None:
        """A part of the day said beside it ("tomorrow morning at 8", "tous les soirs à 9h")
        says which half of the day an hour up to 12 means (not "09h", not 15:00)."""
        if self.ampm is None and 1 <= self.h <= 12 and not self.padded:
            self.ampm = _ampm(g, None, part, self.h)


_ISO_TIME = re.compile(r"(?<=\d{4}-\d\d-\d\d)[^\W\d_](?=\d\d:\d\d)")  # the T of 2027-04-22T10:30:00


def _stamps(folded: str, g: Grammar) -> str:
    """The folded text with its timestamps' T and basic form as the grammar reads them, each at
    its own length: "20270422T103000Z" is "2027042210:30   z" (read to the minute)."""

    def basic(m: re.Match) -> str:
        return f"{m.group('day')}{m.group('h')}:{m.group('mi')}".ljust(len(m.group(0)))

    return g.basic_stamp.sub(basic, _ISO_TIME.sub(" ", folded))


class _Text:
    """The folded text with the parts already read blanked out, so no word is read twice; numbers
    and ordinals in words the tables do not know are in figures ("am dritten Juni": "am 3. Juni")."""

    def __init__(self, text: str, grammar: Grammar, region: Region, said: str | None = None):
        self.original = text
        # `said`: the text with its numbers in figures; an ISO date's "T" before its time a space
        self.folded = _stamps(fold(said or text), grammar)
        # where `said` pads a number in figures to the length of its words
        self.padding = frozenset(
            i for i, (a, b) in enumerate(zip(said or "", text, strict=False)) if a == " " and not b.isspace()
        )
        self.spans: list[tuple[int, int]] = []
        self.g = grammar
        self.region = region
        self.ambiguous: str | None = None
        self.month_said = True  # the date read named its month (not "sexta dia 20")
        self.date_weekday: int | None = None  # a weekday read within the date's words
        self.glued_part: str | None = None  # the part of the day a weekday is written with ("Montagabend")
        self.no_day: str | None = None  # a date no calendar has, in the app's words ("30 February")
        self.offset_end: int | None = None  # where "two weeks from" ends: the day it counts from follows
        self.offset_from_now = False  # "5 minutes before now": the offset counts from this moment
        self.offset_base = 0  # "two weeks after yesterday": the days from today the offset counts from
        self.offset_one = False  # "the day after": counts only from a day named after it
        self.offset_weekday: int | None = None  # "after last Thursday": the weekday gone it counts from
        self.relative_days: int | None = None  # where "in 2 weeks", a step of whole days, starts
        self.month_alone = False  # the date read is a month alone ("in July")
        self.today_part: str | None = None  # the part of the day "this morning" names (a parts key)

    def search(self, pattern: re.Pattern, accept=None):
        for m in pattern.finditer(self.folded):
            if accept is None or accept(m):
                return m
        return None

    def take(self, m: re.Match) -> None:
        self.take_span(*m.span())

    def take_span(self, s: int, e: int) -> None:
        while s < e and self.folded[s].isspace():
            s += 1
        padding = self.padding  # the words a number in figures stands for ("ten thirty am": "   10 30 am")
        while s > 0 and ((s - 1) in padding or ((s - 2) in padding and self.original[s - 1].isspace())):
            s -= 1
        self.spans.append((s, e))
        self.folded = self.folded[:s] + " " * (e - s) + self.folded[e:]

    def blank(self, m: re.Match) -> None:
        """Words that name no time (a day no calendar has): read by nothing else, and kept."""
        s, e = m.span()
        self.folded = self.folded[:s] + " " * (e - s) + self.folded[e:]

    def capital(self, i: int) -> bool:
        return self.original[i : i + 1].isupper()

    def accented(self, i: int) -> bool:
        """The person wrote the letter at i with its accent ("à", not "a")."""
        c = self.original[i : i + 1]
        return bool(c) and fold(c) != c.lower()


_TOKEN = re.compile(r"\S+")
_SPACES = re.compile(r"\s*")


def _past_spaces(text: str, i: int) -> int:
    """Where the next word after i starts."""
    spaces = _SPACES.match(text, i)
    return spaces.end() if spaces else i


def in_figures(text: str, grammar: Grammar, region: Region) -> str:
    """The text with numbers and ordinals in words written in figures by text2num ("twenty-four",
    "dritten", "vinte e dois"), each in the place of its words and no longer (padded with spaces),
    so a span of the result is the span of the text. The region's language first, then the others.
    A single word is left as it is when a table of the grammar reads it otherwise ("quarto" is a
    quarter of an hour in "um quarto para as 6", never the 4th; "sexta" is Friday; not "vingt-cinq",
    25 minutes to its table as to text2num), or, for another language than the region's, when it is
    a word of the region's language ("once" in English)."""
    return _in_figures(text, grammar, region)[0]


def _in_figures(text: str, grammar: Grammar, region: Region) -> tuple[str, list[tuple[int, int]]]:
    """in_figures' text, and the spans of the words it wrote in figures."""
    try:
        from text_to_num import alpha2digit  # noqa: PLC0415 - only where a text is read
    except ImportError:
        return text, []
    if not re.search(r"[^\W\d_]{3}", text):
        return text, []
    tables = grammar.table_words
    written: list[tuple[int, int]] = []
    other_meaning = frozenset().union(*tables.not_numbers.values())
    languages = (region.language, *(code for code in LANGUAGE_CODES if code != region.language))
    current = text
    for language in languages:
        said = alpha2digit(current, language)
        if said == current:
            continue
        kept = other_meaning
        if language != region.language:
            kept |= tables.every.get(region.language, frozenset())
        before = [(m.group(0), m.start(), m.end()) for m in _TOKEN.finditer(current)]
        after = [m.group(0) for m in _TOKEN.finditer(said)]
        for i1, i2, j1, j2 in reversed(_replaced([w for w, _, _ in before], after)):
            figures = " ".join(after[j1:j2])
            start, end = before[i1][1], before[i2 - 1][2]
            word = fold(before[i1][0]).strip(".,;:!?")
            same = figures.isdigit() and tables.values.get(word) == frozenset({int(figures)})
            single = i2 - i1 == 1 and word in kept and not same
            if single or not grammar.figures.fullmatch(fold(figures)) or len(figures) > end - start:
                continue
            current = current[:start] + figures.rjust(end - start) + current[end:]
            written.append((start, end))
    return current, written


REPLACED_REACH = 24  # the most words one number in words takes ("two million eight hundred and…": 13)


def _replaced(before: list[str], after: list[str]) -> list[tuple[int, int, int, int]]:
    """The runs of `before`'s words that `after` (the same words, some numbers in words written
    in figures) replaced: (i1, i2, j1, j2) as difflib's "replace" opcodes, in one pass. difflib
    finds them in quadratic time or worse on a long text with many such words (a Portuguese
    note naming weekdays: "segunda", "terça" are ordinals too); each run here ends at the nearest
    word the two agree on again (or where both end), within REPLACED_REACH words."""
    runs = []
    i = j = 0
    while i < len(before) and j < len(after):
        if before[i] == after[j]:
            i, j = i + 1, j + 1
            continue
        resync = None
        for reach in range(2, 2 * REPLACED_REACH + 1):  # the nearest first
            for bi in range(i + 1, min(i + reach, i + REPLACED_REACH) + 1):
                ai = j + reach - (bi - i)
                if ai <= j or ai > j + REPLACED_REACH:
                    continue
                both_end = bi == len(before) and ai == len(after)
                if both_end or (bi < len(before) and ai < len(after) and before[bi] == after[ai]):
                    resync = (bi, ai)
                    break
            if resync:
                break
        if resync is None:
            break  # nothing agrees again nearby: no more is read as written in figures
        runs.append((i, resync[0], j, resync[1]))
        i, j = resync
    return runs


def _num(g: Grammar, word: str) -> float:
    w = fold(word).strip()
    if re.fullmatch(r"\d+(?:[.,]\d+)?", w):
        return float(w.replace(",", "."))
    if re.fullmatch(r"\d+/\d+", w):  # "in 1/4 h"
        top, bottom = (int(x) for x in w.split("/"))
        return top / bottom if bottom else 0.0
    return float(g.words.numbers.get(_spaced(w), 1))


def _at(day: date, h: int, m: int, tz, s: int = 0) -> datetime:
    return datetime.combine(day, time(h % 24, m, s), tzinfo=tz)


def _next_weekday(today: date, wd: int, *, strictly_after: bool) -> date:
    delta = (wd - today.weekday()) % 7
    if delta == 0 and strictly_after:
        delta = 7
    return today + timedelta(days=delta)


def _ahead_this_week(today: date, wd: int, region: Region) -> bool:
    """The weekday is still to come in today's week, as the region counts its weeks (en_US from
    Sunday, en_GB from Monday)."""
    start = region.first_week_day
    return (wd - start) % 7 > (today.weekday() - start) % 7


def _next_monthday(today: date, day: int) -> date:
    y, m = today.year, today.month
    for _ in range(14):
        if day <= calendar.monthrange(y, m)[1] and date(y, m, day) >= today:
            return date(y, m, day)
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return today


def _month_ok(t: _Text, m: re.Match, *, with_day: bool) -> bool:
    """A month word beside a day number is a month; alone, an ambiguous one ("may", "march",
    "Marco") only when capitalised and not "May" opening a sentence, or written with its accent
    ("em março": "marco" is a landmark, "Marco" a name). Before a day number, a short weekday of
    the text's language is that weekday (fr "mar. 22": mardi 22, not 22 March), and another
    language's month word a month only with a year, a capital or the end of its clause after the
    day (es "el mar 22 grados" is the sea)."""
    word = m.group("mon")
    if group(m, "d") and m.start("mon") < m.start("d"):
        language = _text_language(fold(t.original), t.g, t.region)
        if language in t.g.abbreviation_of.get(word, {}):
            return False
        if not (
            word in t.g.months_of.get(language, ())
            or t.capital(m.start("mon"))
            or group(m, "y")
            or t.g.day_number_end.match(t.folded, m.end())
        ):
            return False
    if with_day or word not in t.g.words.ambiguous_months:
        return True
    start = m.start("mon")
    if not t.original[start : m.end("mon")].isascii():
        return True
    if word in t.g.words.verb_months and not re.search(r"\w\W*$", t.original[max(0, start - 20) : start]):
        return False
    return t.capital(start)


_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def _text_language(folded: str, g: Grammar, region: Region) -> str:
    """The language a text is in: the one most of its words only that language's tables hold are
    of (short forms that are other languages' words not counted); the region's when there are
    none, or in a tie."""
    counts = dict.fromkeys(g.own_words, 0)
    for word in _WORD.findall(folded):
        if word not in g.short_forms:
            owner = next((lang for lang, own in g.own_words.items() if word in own), None)
            if owner is not None:
                counts[owner] += 1
    best = max(counts.values(), default=0)
    leaders = [code for code, n in counts.items() if n == best]
    return leaders[0] if best and len(leaders) == 1 else region.language


def _after_next(m: re.Match) -> bool:
    """ "Friday after next", "the week after next", de "übernächsten Freitag": the one after next."""
    return bool(m.groupdict().get("after_next") or m.groupdict().get("after_next_pre"))


def _weekday_ok(t: _Text, m: re.Match) -> bool:
    """An ambiguous weekday word ("sat", pt "segunda" = second) is a day with next/last/on, its
    suffix, a capital (the three-letter ones), a time of day right after ("segunda de manhã",
    "quarta às onze", "tue 3pm"), or said alone ("wed")."""
    if t.g.which(m.group("pre"), m.group("post")) == "last":
        return False  # "last Friday" is gone: questions read it, a due time never is the next one
    day = m.group("day")
    if day not in t.g.words.ambiguous_weekdays:
        return True
    if (
        m.group("pre")
        or m.group("post")
        or m.group("suffix")
        or _after_next(m)
        or m.groupdict().get("weeks_later")
    ):
        return True
    if len(day) == 3 and t.capital(m.start("day")):
        return True
    if t.offset_end is not None and not t.folded[t.offset_end : m.start()].strip():
        return True  # "três semanas a partir de sexta": the day an offset counts from
    after = t.folded[m.end() :].lstrip(" ,")  # a comma before the clock, as calendars print it
    g = t.g
    clocks = (g.part_of_day, g.clock_at, g.clock_hm, g.clock_h_suffix, g.clock_h_letter)
    if any(p.match(after) for p in clocks):
        return True  # "tue 3pm", "sat 9:30", "quarta às onze", "sexta, 08:15"
    if g.of_this_week.match(after):
        return True  # "sexta desta semana"
    ranged = g.clock_range.match(after)
    if ranged and ranged.group("from"):
        return True  # "segunda das 16h às 17h15", "tue from 3 to 5"
    return not t.folded[: m.start()].strip() and not after.strip(" ,.;:!?")  # "wed" said alone


# -- the pieces ------------------------------------------------------------------------------------


def _month_position(g: Grammar, m: re.Match, today: date) -> tuple[str, date]:
    """(the RRULE part, the next such day from today) of "the last Friday of the month"; of a named
    month ("the first Tuesday of October (2014)"), that month's (this year's, else next year's)."""
    n = g.words.month_ordinals[_spaced(m.group("ord"))]
    if m.group("period"):
        return "", _period_position(g, m, n, today)
    if m.group("mon"):
        month = g.words.months[m.group("mon")]
        years = [int(m.group("y"))] if m.group("y") else [today.year, today.year + 1]
        for year in years:
            wd = g.words.weekdays[m.group("day")] if m.group("day") else None
            start = date(year, month, 1)
            if wd is not None:
                found = start + relativedelta(day=31 if n < 0 else 1, weekday=WEEKDAY_OF[wd](n))
            else:
                found = start + (relativedelta(day=31, days=n + 1) if n < 0 else relativedelta(day=n))
            if found.month == month and (m.group("y") or found >= today):
                return "", found
        return "", found
    if m.group("day"):
        wd = g.words.weekdays[m.group("day")]
        step = relativedelta(day=31 if n < 0 else 1, weekday=WEEKDAY_OF[wd](n))
        rule = f"BYDAY={n}{RRULE_DAYS[wd]}"
    else:
        # -2: the day before the last one
        step = relativedelta(day=31, days=n + 1) if n < 0 else relativedelta(day=n)
        rule = f"BYMONTHDAY={n}"
    first = today + step
    if first < today:
        first = today + relativedelta(months=1) + step
    return rule, first


def _period_position(g: Grammar, m: re.Match, n: int, today: date) -> date:
    """ "the second Tuesday of next month", "the last day of the year": the n-th (from the end
    when n < 0) weekday or day of this month or year (of the next one when said, or when this
    one's is gone)."""
    wd = g.words.weekdays[m.group("day")] if m.group("day") else None
    yearly = _spaced(m.group("period")) in g.words.year
    step = relativedelta(years=1) if yearly else relativedelta(months=1)
    said_next = bool(m.group("next") or m.group("next_after"))
    first = today.replace(month=1, day=1) if yearly else today.replace(day=1)
    for start in (first + step,) if said_next else (first, first + step):
        last = start + step - timedelta(days=1)
        if wd is not None:
            found = (last if n < 0 else start) + relativedelta(weekday=WEEKDAY_OF[wd](n))
        else:
            found = (last + timedelta(days=n + 1)) if n < 0 else start + timedelta(days=n - 1)
        if found >= today:
            break
    return found


def _recurrence(t: _Text, now: datetime) -> _Rec | None:
    excepted = t.search(habits(t.g).except_days)
    if excepted:  # read apart, so "daily except on weekends" is not read as every weekend
        t.blank(excepted)
    rec = _repeat_said(t, now)
    if excepted:
        rec = _except(t, excepted, rec, now.date())
    if rec and "BYMONTH" not in _rule_parts(rec.rule) and habits(t.g).joined.search(t.folded):
        rec = _in_months(t, rec, now.date())
    if rec and rec.rule.startswith("FREQ=WEEKLY;BYDAY="):  # "quinzenal às segundas": every 2 weeks
        g = t.g
        step = t.search(g.freq_word, accept=lambda m: _weekly_step(g.words.freq_words[_spaced(m.group("w"))]))
        step = step or t.search(
            habits(g).idiom, accept=lambda m: _weekly_step(g.words.repeat_idioms[_spaced(m.group("w"))])
        )
        if step:
            rule = (g.words.freq_words | g.words.repeat_idioms)[_spaced(step.group("w"))]
            t.take(step)
            rec.rule = "FREQ=" + rule + ";" + rec.rule.partition(";")[2]
        elif habits(g).by_the_clock.search(t.folded) and (
            clock := _clock_step_said(t)
        ):  # "hourly on weekdays"
            rec.rule = clock + ";" + rec.rule.partition(";")[2]
    return rec


def _in_months(t: _Text, rec: _Rec, today: date) -> _Rec:
    """A repeat kept to the months said after it ("yearly in June and July", "täglich im Januar und
    April", "todos los lunes en enero y febrero"): those months, from the first of them to come."""
    h = habits(t.g)
    m = t.search(h.in_months)
    if m is None or not rec.rule.startswith(("FREQ=DAILY", "FREQ=WEEKLY", "FREQ=MONTHLY", "FREQ=YEARLY")):
        return rec
    months = sorted({t.g.words.months[name] for name in h.month_word.findall(m.group("mons"))})
    if len(months) < 2:
        return rec
    t.take(m)
    first = rec.first or today
    if first.month not in months or rec.rule.startswith("FREQ=YEARLY"):
        first = min(
            date(first.year + (mon < first.month or (mon == first.month and first.day > 1)), mon, 1)
            for mon in months
        )
    return _Rec(f"{rec.rule};BYMONTH=" + ",".join(map(str, months)), first, rec.part)


def _except(t: _Text, m: re.Match, rec: _Rec | None, today: date) -> _Rec | None:
    """Every day (or some weekdays) but the days `m` says: "every day except Sundays" is every day
    but Sunday, "weekdays except Wednesday" Monday, Tuesday, Thursday and Friday. Not about such a
    repeat ("open except Sundays"), its words are put back for the rest to read."""
    g = t.g
    out = (
        {5, 6} if m.group("weekend") else {g.words.weekdays[d] for d in g.day_words.findall(m.group("days"))}
    )
    if g.words.weekday_adverbs and m.group("days"):
        out |= {g.words.weekday_adverbs[d] for d in g.adverb_words.findall(m.group("days"))}
    days: list[int] = []
    if rec is not None and rec.rule == "FREQ=DAILY":
        days = list(range(7))
    elif rec is not None and rec.rule.startswith("FREQ=WEEKLY;BYDAY=") and rec.rule.count(";") == 1:
        days = [RRULE_DAYS.index(d) for d in rec.rule.rpartition("=")[2].split(",") if d in RRULE_DAYS]
    kept = [d for d in days if d not in out]
    if rec is None or not kept or len(kept) == len(days):
        t.folded = t.folded[: m.start()] + m.group(0) + t.folded[m.end() :]
        return rec
    t.spans.append(m.span())
    first = min(_next_weekday(today, d, strictly_after=False) for d in kept) if rec.first else None
    freq = "FREQ=DAILY" if len(days) == 7 else "FREQ=WEEKLY"
    return _Rec(f"{freq};BYDAY=" + ",".join(RRULE_DAYS[d] for d in kept), first, rec.part)


def _clock_step_said(t: _Text) -> str | None:
    """The rule of a step of the clock said in `t` ("every hour", "hourly", "alle 30 Minuten"),
    taken; None when none is."""
    g = t.g
    clock = ("clock-hour", "clock-minute", "clock-half-hour", "clock-quarter-hour")
    m = t.search(
        g.every_n_units,
        accept=lambda m: (
            g.words.calendar_units[m.group("unit")] in clock
            and (bool(m.group("other")) or m.group("n").isdigit() or _num(g, m.group("n")) != 1)
        ),
    )
    if m:
        t.take(m)
        n = 2 if m.group("other") else int(_num(g, m.group("n")))
        return _every(g.words.calendar_units[m.group("unit")], n)
    m = t.search(g.every_unit, accept=lambda m: g.words.calendar_units[m.group("unit")] in clock)
    if m:
        t.take(m)
        return _every(g.words.calendar_units[m.group("unit")])
    words = g.words.freq_words | g.words.repeat_idioms
    for pattern in (g.freq_word, habits(g).idiom):
        m = t.search(
            pattern, accept=lambda m: words[_spaced(m.group("w"))].startswith(("HOURLY", "MINUTELY"))
        )
        if m:
            t.take(m)
            return "FREQ=" + words[_spaced(m.group("w"))]
    return None


def _a_weekday_of_a_month(m: re.Match) -> bool:
    """ "the fourth Thursday in November": a weekday of a named month, no year."""
    return bool(m.group("mon") and m.group("day") and not m.group("y"))


def _yearly_on(g: Grammar, m: re.Match, rule: str) -> str:
    """A yearly rule on the weekday of a month `m` says ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"): the
    fourth Thursday of November is not on the same date each year."""
    n = g.words.month_ordinals[_spaced(m.group("ord"))]
    wd = g.words.weekdays[m.group("day")]
    return f"{rule};BYMONTH={g.words.months[m.group('mon')]};BYDAY={n}{RRULE_DAYS[wd]}"


def _yearly_said(t: _Text, text: str, rule: str | None, written: bool) -> str | None:
    """The yearly rule a text says beside its date: "every year on the fourth Thursday in
    November" on that weekday of the month; "every July 4th", "every Christmas" every year."""
    folded = fold(text)
    if rule is None:
        every_before = habits(t.g).every_before
        said = written and any(every_before.search(folded, 0, s) for s, _ in t.spans)
        return "FREQ=YEARLY" if said else None
    if not rule.startswith("FREQ=YEARLY") or "BY" in rule:
        return rule
    m = next((m for m in t.g.month_position.finditer(folded) if _a_weekday_of_a_month(m)), None)
    return _yearly_on(t.g, m, rule) if m and any(s <= m.start("ord") < e for s, e in t.spans) else rule


def _months_listed(t: _Text, text: str) -> list[int] | None:
    """The months listed after the month of the date read ("el 15 de enero y julio", "the second
    Tuesday of January, July"), their words taken; None when no more are said."""
    g = t.g
    for m in habits(g).month_run.finditer(fold(text)):
        first_read = any(s <= m.start() < e for s, e in t.spans)
        if first_read and not any(s < m.end() and m.start("more") < e for s, e in t.spans):
            t.spans.append(m.span("more"))
            return sorted({g.words.months[name] for name in habits(g).month_word.findall(m.group(0))})
    return None


def _in_listed_months(rule: str, months: list[int], day: int) -> str:
    """A yearly rule in each of `months`: on its weekday of the month when it has one, else on `day`."""
    parts = [p for p in rule.split(";") if not p.startswith("BYMONTH=")]
    listed = "BYMONTH=" + ",".join(map(str, months))
    if any(p.startswith("BYDAY=") for p in parts):
        return ";".join([parts[0], listed, *parts[1:]])
    return ";".join([*parts, listed, f"BYMONTHDAY={day}"])


def _said_alone(t: _Text, m: re.Match) -> bool:
    """Nothing but `m` in the text (a lead word before it: "les mardis", "on Tuesdays")."""
    return bool(habits(t.g).lead_only.match(t.folded[: m.start()])) and not t.folded[m.end() :].strip(
        " ,.;:!"
    )


def _weekly_step(rule: str) -> bool:
    """ "WEEKLY;INTERVAL=2": a step of weeks without days of its own."""
    return rule.startswith("WEEKLY;INTERVAL=") and "BY" not in rule


def _on_its_days(t: _Text, today: date, rec: _Rec) -> _Rec:
    """A weekly repeat with the days said after it: "every 2 weeks on Monday and Thursday", "each
    week from Tuesday to Saturday", "toutes les deux semaines le mardi et le jeudi"."""
    if rec.rule.startswith("FREQ=YEARLY") and "BY" not in rec.rule:
        return _yearly_in_months(t, today, rec)
    if rec.rule.startswith("FREQ=MONTHLY") and "BY" not in rec.rule:  # "first Friday of every other month"
        m = t.search(t.g.month_position, accept=lambda m: bool(m.group("day") and not m.group("mon")))
        if m:
            t.take(m)
            rule, first = _month_position(t.g, m, today)
            return _Rec(f"{rec.rule};{rule}", first)
        return rec
    if rec.rule.startswith(("FREQ=HOURLY", "FREQ=MINUTELY")) and "BY" not in rec.rule:
        return _clock_on_days(t, today, rec)
    if rec.rule == "FREQ=DAILY":  # "todos los días de lunes a viernes": every day of that range
        ranged = _days_of_the_weeks(t, today)
        return ranged if ranged and not ranged.rule.startswith("FREQ=WEEKLY;INTERVAL") else rec
    if not rec.rule.startswith("FREQ=WEEKLY") or "BYDAY" in rec.rule:
        return rec
    ranged = _days_of_the_weeks(t, today)
    if ranged:
        return _Rec(rec.rule + ";" + ranged.rule.rpartition(";")[2], ranged.first)
    g = t.g
    # "every 4 weeks on weekends", "wöchentlich am Wochenende": their Saturday and Sunday
    weekend = t.search(g.every_weekend) or t.search(
        g.weekend,
        accept=lambda m: not m.group("post") and _spaced(m.group("pre") or "") in ("", *g.words.weekend_lead),
    )
    if weekend:
        t.take(weekend)
        return _Rec(rec.rule + ";BYDAY=SA,SU", _first_of_days("BYDAY=SA,SU", today))
    listed = _short_weekdays(t)
    if listed:  # "Wöchentlich am Di., Do.", "Hebdomadaire (le mar., jeu.)"
        t.take(listed[0])
        first = min(_next_weekday(today, d, strictly_after=False) for d in listed[1])
        return _Rec(rec.rule + ";BYDAY=" + ",".join(RRULE_DAYS[d] for d in listed[1]), first)
    on = t.search(g.on_days)
    if not on:
        return rec
    said = [on]
    while more := habits(g).and_then.match(t.folded, said[-1].end()):  # "le mardi et le jeudi"
        then = g.on_days.match(t.folded, more.end())
        if not then:
            break
        said.append(then)
    days = sorted({g.words.weekdays[d] for m in said for d in g.day_words.findall(m.group("days"))})
    if not days:
        return rec
    for m in said:
        t.take(m)
    first = min(_next_weekday(today, d, strictly_after=False) for d in days)
    return _Rec(rec.rule + ";BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first)


def _short_weekdays(t: _Text, *, every: bool = False) -> tuple[re.Match, list[int]] | None:
    """Weekdays listed by their short forms, a dot after each or none ("Di., Do.", "mar, jue",
    "ter., qui."), each a day in the text's language: two or more, or one with its dot after a
    lead ("am Di."). `every`: only after an "every" word ("a cada ter., qui.")."""
    g = t.g
    language = cache(lambda: _text_language(fold(t.original), g, t.region))
    shorts = (g.abbreviation_of, g.dotted_of, g.listed_of)

    def days_of(m: re.Match) -> list[int] | None:
        days = []
        for said in g.short_day_words.finditer(m.group("days")):
            word = said.group(0).rstrip(".")
            day = g.words.weekdays.get(word)
            if day is None:
                said_as = [forms[word] for forms in shorts if word in forms]
                day = next((f[language()] for f in said_as if language() in f), None)
            if day is None:
                return None
            days.append(day)
        if all(said.group(0) in g.words.weekdays for said in g.short_day_words.finditer(m.group("days"))):
            return None  # whole names: read by the lists of weekdays
        dotted = len(days) == 1 and m.group("days").endswith(".") and m.start("days") > m.start()
        return sorted(set(days)) if len(days) >= 2 or dotted else None

    m = t.search(g.short_days, accept=lambda m: (not every or bool(m.group("every"))) and bool(days_of(m)))
    return (m, days_of(m) or []) if m else None


def _yearly_in_months(t: _Text, today: date, rec: _Rec) -> _Rec:
    """A yearly repeat on a weekday of the month, its months said apart: "yearly in May on the
    second Sunday", "jährlich im Mai am zweiten Sonntag", "tous les ans en mai, le premier lundi",
    "yearly on the second Tuesday of the month in March and June": that weekday of those months."""
    g = t.g
    m = t.search(
        g.month_position,
        accept=lambda m: bool(m.group("day") and not m.group("mon") and not m.group("period")),
    )
    said = m and t.search(habits(g).in_a_month)
    if not m or not said:
        return rec
    paired = habits(g).paired_positions.search(t.folded)
    if paired and paired.start() <= m.start() < paired.end():  # "the first Tuesday and the last Thursday"
        return rec  # two positions: not one weekday of those months
    n, wd = g.words.month_ordinals[_spaced(m.group("ord"))], g.words.weekdays[m.group("day")]
    months = sorted({g.words.months[name] for name in habits(g).month_word.findall(said.group("mons"))})
    t.take(m)
    t.take(said)
    month_list = ",".join(map(str, months))
    # from today: the engine puts the first occurrence on the rule (_on_the_rule)
    return _Rec(f"{rec.rule};BYMONTH={month_list};BYDAY={n}{RRULE_DAYS[wd]}", today, rec.part)


def _clock_on_days(t: _Text, today: date, rec: _Rec) -> _Rec:
    """A step of the clock on the days said beside it ("every hour, Monday through Saturday",
    "alle 30 Minuten montags", "toutes les heures en semaine"): those days, from the first of them.
    A weekday alone ("every hour until Friday") is no such day."""
    g = t.g
    ranged = _days_of_the_weeks(t, today)
    if ranged:
        return _Rec(rec.rule + ";" + ranged.rule.rpartition(";")[2], ranged.first)
    m = t.search(g.every_weekday)
    if m:
        t.take(m)
        return _Rec(rec.rule + ";BYDAY=MO,TU,WE,TH,FR", _next_weekday(today, 0, strictly_after=False))
    m = t.search(g.plural_weekdays) or t.search(g.every_weekdays)
    if m:
        days = sorted({g.words.weekdays[d] for d in g.day_words.findall(m.group("days"))})
        t.take(m)
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec(rec.rule + ";BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first)
    m = t.search(g.weekday_adverbs)
    if m:
        days = sorted({g.words.weekday_adverbs[d] for d in g.adverb_words.findall(m.group("days"))})
        t.take(m)
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec(rec.rule + ";BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first)
    return rec


def _weekday_at_part(t: _Text, m: re.Match, today: date, part: str | None) -> _Rec:
    """Every weekday of `m`'s group day, in that part of the day, from the next one (today's too)."""
    t.take(m)
    wd = t.g.words.weekdays[m.group("day")]
    return _Rec(f"FREQ=WEEKLY;BYDAY={RRULE_DAYS[wd]}", _next_weekday(today, wd, strictly_after=False), part)


def _repeat_said(t: _Text, now: datetime) -> _Rec | None:
    g, today = t.g, now.date()
    found = _habit(t, today)
    if found:
        return found
    found = _each_position_of_months(t, today) if habits(g).every_word.search(t.folded) else None
    if found:
        return found
    m = t.search(g.every_part)
    if m:
        t.take(m)
        part = g.words.every_part[_spaced(m.group("w"))]
        ranged = _days_of_the_weeks(t, today)  # "todas as manhãs de segunda a sexta": those days
        return _Rec(ranged.rule, ranged.first, part) if ranged else _Rec("FREQ=DAILY", None, part)
    m = (
        t.search(g.month_position, accept=_a_weekday_of_a_month)
        if habits(g).every_word.search(t.folded)
        else None
    )
    if m and m.group("each"):  # "every fourth Thursday in November": every year
        t.take(m)
        return _Rec(_yearly_on(g, m, "FREQ=YEARLY"), _month_position(g, m, today)[1])
    m = t.search(
        g.month_position,
        accept=lambda m: (
            not m.group("mon")
            and bool(
                m.group("every")
                or (m.group("of") and (m.group("each") or _spaced(m.group("of")) in g.words.of_every_month))
            )
        ),
    )
    if m:
        t.take(m)
        rule, first = _month_position(g, m, today)
        return _Rec(f"FREQ=MONTHLY;{rule}", first)
    m = t.search(g.every_other_weekday)
    if m:
        t.take(m)
        wd = g.words.weekdays[group(m, "weekday") or ""]
        first = _next_weekday(today, wd, strictly_after=False)
        return _Rec(f"FREQ=WEEKLY;INTERVAL=2;BYDAY={RRULE_DAYS[wd]}", first)
    m = t.search(g.monthly_day)
    if m:
        day = int(group(m, "day") or 0)
        if 1 <= day <= 31:
            t.take(m)
            return _Rec(f"FREQ=MONTHLY;BYMONTHDAY={day}", _next_monthday(today, day))
    m = t.search(g.every_weekday)
    if m:
        t.take(m)
        wd = today.weekday()
        first = today if wd < 5 else _next_weekday(today, 0, strictly_after=True)
        return _Rec("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", first)
    # "every 2 weeks"; not "every a week": pt "toda a semana" is the whole week (an article, not one)
    m = t.search(
        g.every_n_units,
        accept=lambda m: bool(m.group("other")) or m.group("n").isdigit() or _num(g, m.group("n")) != 1,
    )
    if m:
        unit = g.words.calendar_units[m.group("unit")]
        n = 2 if m.group("other") else int(_num(g, m.group("n")))
        unit, n = _in_weeks(g, m.group("unit"), m.group("n"), unit, n)
        t.take(m)
        rule = _every(unit, n)
        return _on_its_days(t, today, _Rec(rule, _first_of_days(rule, today)))
    m = t.search(g.times_per)
    if m:
        t.take(m)
        return _on_its_days(t, today, _times_per(g, m, today))  # "once a week on Sundays"
    m = t.search(
        g.every_weekend,
        accept=lambda m: not m.group("timed") or _time_follows(t, m.end()) or _said_alone(t, m),
    )
    if m:  # every weekend: its Saturday and its Sunday
        t.take(m)
        return _Rec("FREQ=WEEKLY;BYDAY=SA,SU", _first_of_days("BYDAY=SA,SU", today))
    m = t.search(g.weekday_part_plural)
    if m:  # "Monday evenings": every Monday, in the evening
        return _weekday_at_part(t, m, today, g.words.part_plurals[_spaced(m.group("pp"))])
    m = t.search(g.weekday_part_habit)
    if m:  # fr "le samedi matin": every Saturday, in the morning
        return _weekday_at_part(t, m, today, m.group("part"))
    m = t.search(
        g.plural_weekdays,
        accept=lambda m: (
            _time_follows(t, m.end()) or _said_alone(t, m) or bool(habits(g).bounded.match(t.folded, m.end()))
        ),
    )
    if m:  # "Tuesdays at 7pm", "les mardis" alone, "Fridays from May" (not "I hate Mondays")
        # the list the plural day ends ("los miércoles y sábados a las 10": "miércoles" says no plural)
        found = m
        m = t.search(g.on_days, accept=lambda o: o.start() < found.start() and o.end() == found.end()) or m
        days = sorted({g.words.weekdays[d] for d in g.day_words.findall(m.group("days"))})
        t.take(m)
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec("FREQ=WEEKLY;BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first)
    m = habits(g).joined.search(t.folded) and t.search(
        g.on_days, accept=lambda m: len(set(g.day_words.findall(m.group("days")))) >= LISTED_DAYS
    )
    if m:  # "gym Monday, Wednesday and Friday": days listed so are a habit
        days = sorted({g.words.weekdays[d] for d in g.day_words.findall(m.group("days"))})
        t.take(m)
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec("FREQ=WEEKLY;BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first)
    listed = _short_weekdays(t, every=True) if habits(g).every_word.search(t.folded) else None
    if listed:  # "a cada ter., qui.", "every Tue., Thu."
        t.take(listed[0])
        first = min(_next_weekday(today, d, strictly_after=False) for d in listed[1])
        return _Rec("FREQ=WEEKLY;BYDAY=" + ",".join(RRULE_DAYS[d] for d in listed[1]), first)
    m = t.search(
        g.every_weekdays,
        accept=lambda m: (
            not m.group("plural_lead")
            or (bool(g.plural_day.search(m.group("days"))) and not _felt(t, m.start()))
        ),
    )
    if m:
        days = sorted({g.words.weekdays[d] for d in g.day_words.findall(m.group("days"))})
        t.take(m)
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec("FREQ=WEEKLY;BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first)
    m = t.search(g.weekday_adverbs)
    if m:
        days = sorted({g.words.weekday_adverbs[d] for d in g.adverb_words.findall(m.group("days"))})
        t.take(m)
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec("FREQ=WEEKLY;BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first)
    m = t.search(g.every_unit)
    if m:
        unit = g.words.calendar_units[m.group("unit")]
        t.take(m)
        return _on_its_days(t, today, _Rec(_every(unit), None))
    m = t.search(g.freq_word)
    if m:
        t.take(m)
        return _on_its_days(t, today, _Rec("FREQ=" + g.words.freq_words[_spaced(m.group("w"))], None))
    return _of_the_month(t, today) if habits(g).of_month.search(t.folded) else None


def _each_position_of_months(t: _Text, today: date) -> _Rec | None:
    """ "Monthly (on every second Sunday)", "Mensalmente (em cada segunda segunda-feira)": beside a
    monthly rule, "every" before a position and a weekday is that weekday of each month (alone,
    "every second Sunday" is every other Sunday)."""
    g = t.g
    monthly = _unit_rule_said(t, "month")
    if monthly is None:
        return None
    unit = monthly[0]

    def apart(m: re.Match) -> bool:
        return bool(m.group("each") and m.group("day") and not m.group("mon")) and (
            m.end() <= unit.start() or unit.end() <= m.start()
        )

    m = t.search(g.month_position, accept=apart)
    if m is None:
        return None
    t.take(m)
    t.take(unit)
    rule, first = _month_position(g, m, today)
    return _Rec(f"{monthly[1]};{rule}", first)


def _of_the_month(t: _Text, today: date) -> _Rec | None:
    """ "The month" with its article and no particular month is each month, when no other repeat
    is said: "on the second Tuesday of the month", "pay rent on the 1st of the month", "am zweiten
    Dienstag im Monat" (a day of a list, "the 5th and the 7th of the month", is the list's)."""
    g = t.g

    def alone(m: re.Match) -> bool:
        return not habits(g).joined.search(t.folded, max(0, m.start() - 12), m.start())

    m = t.search(g.month_position, accept=lambda m: bool(not m.group("mon") and m.group("of") and alone(m)))
    if m:
        t.take(m)
        rule, first = _month_position(g, m, today)
        return _Rec(f"FREQ=MONTHLY;{rule}", first)
    m = t.search(habits(g).monthday_of_month, accept=alone)
    if m and 1 <= (day := int(_DAY_FIGURES.findall(m.group("day"))[0])) <= 31:
        t.take(m)  # "pay rent on the 1st of the month": monthly on the 1st
        return _Rec(f"FREQ=MONTHLY;BYMONTHDAY={day}", _next_monthday(today, day))
    return _monthday_in_words(t, today, accept=lambda m: not m.group("each") and alone(m))


def _monthday_in_words(t: _Text, today: date, accept: Callable[[re.Match], bool]) -> _Rec | None:
    """A day of the month in words before "of every month" or "of the month": "the first of every
    month", "le premier de chaque mois", "am Ersten jedes Monats", "el día uno de cada mes"."""
    m = t.search(habits(t.g).monthday_word, accept=accept)
    if m and 1 <= (day := t.g.words.day_numbers.get(_spaced(m.group("word")), 0)) <= 31:
        t.take(m)
        return _Rec(f"FREQ=MONTHLY;BYMONTHDAY={day}", _next_monthday(today, day))
    return None


def _habit(t: _Text, today: date) -> _Rec | None:
    """A repeat said as a habit (core/when/habits.py): one idiom ("tous les quinze jours"), a step
    said twice ("de 3 em 3 meses"), a range of weekdays ("from Monday to Friday at 8")."""
    g, h = t.g, habits(t.g)
    m = t.search(h.idiom)
    if m:
        t.take(m)
        rule = "FREQ=" + g.words.repeat_idioms[_spaced(m.group("w"))]
        first = _first_monthday(rule, today) or _first_of_days(rule, today)
        return _on_its_days(t, today, _Rec(rule, first))
    listed = h.joined.search(t.folded)  # a list ("first and third", "20 et 30") needs its "and"
    every = h.every_word.search(t.folded)
    m = listed and every and t.search(h.yearly_days)
    if m:  # "every 20th and 30th of August": every year on those days of it
        month = g.words.months[m.group("mon")]
        days = sorted({int(d) for d in _DAY_FIGURES.findall(m.group("days"))})
        dates = [
            date(today.year + (date(today.year, month, d) < today), month, d)
            for d in days
            if 1 <= d <= _MONTH_DAYS[month - 1]
        ]
        if dates and len(dates) == len(days):
            t.take(m)
            rule = f"FREQ=YEARLY;BYMONTH={month};BYMONTHDAY=" + ",".join(map(str, days))
            return _Rec(rule, min(dates))
    m = t.search(h.monthdays, accept=lambda m: bool(m.group("every") or m.group("each")))
    if m:  # "on the 1st and 15th of every month"
        days = sorted({int(d) for d in _DAY_FIGURES.findall(m.group("days"))})
        if days and all(1 <= d <= 31 for d in days):
            t.take(m)
            first = min(_next_monthday(today, d) for d in days)
            return _Rec("FREQ=MONTHLY;BYMONTHDAY=" + ",".join(map(str, days)), first)
    found = _monthday_in_words(t, today, accept=lambda m: bool(m.group("each")))
    if found:
        return found
    m = listed and t.search(
        h.positions,
        # "every second and fourth Thursday", "the 1st and 3rd Monday of the month" ("the month" and
        # no particular one is each month, as with days of the month)
        accept=lambda m: bool(m.group("every") or m.group("each") or m.group("of")),
    )
    if m:  # "the first and third Friday of each month"
        wd = g.words.weekdays[m.group("day")]
        ords = h.ordinal_words.findall(m.group("ords"))
        ns = sorted({g.words.month_ordinals[_spaced(o)] for o in ords}, key=lambda n: (n < 0, n))
        t.take(m)
        steps = [relativedelta(day=31 if n < 0 else 1, weekday=WEEKDAY_OF[wd](n)) for n in ns]
        first = min(today + s if today + s >= today else today + relativedelta(months=1) + s for s in steps)
        return _Rec("FREQ=MONTHLY;BYDAY=" + ",".join(f"{n}{RRULE_DAYS[wd]}" for n in ns), first)
    found = _paired_positions(t, today) if listed else None
    if found:
        return found
    m = (listed or every or h.day_figure.search(t.folded)) and t.search(
        h.monthly_days, accept=_days_of_a_month
    )
    monthly = m and _unit_rule_said(t, "month")
    if m and monthly and (m.end() <= monthly[0].start() or monthly[0].end() <= m.start()):
        days = sorted({int(d) for d in _DAY_FIGURES.findall(m.group("days") or m.group("single"))})
        if days and all(1 <= d <= 31 for d in days):  # "monthly on the 1st, 15th, and 30th"
            t.take(m)
            t.take(monthly[0])
            first = min(_next_monthday(today, d) for d in days)
            return _Rec(f"{monthly[1]};BYMONTHDAY=" + ",".join(map(str, days)), first)
    found = _year_weeks(t, today)
    if found:
        return found
    found = _set_position(t, today) if h.set_word.search(t.folded) else None
    if found:
        return found
    m = h.of_year.search(t.folded) and t.search(h.year_days)
    yearly = m and ((m, "FREQ=YEARLY") if m.group("each") else _unit_rule_said(t, "year"))
    if m and yearly and (yearly[0] is m or m.end() <= yearly[0].start() or yearly[0].end() <= m.start()):
        days = sorted(_year_day_numbers(g, m.group("days")))
        if days and all(1 <= d <= 365 for d in days):  # "yearly on the 30th day of the year"
            t.take(m)
            t.take(yearly[0])
            starts = (date(today.year, 1, 1), date(today.year + 1, 1, 1))
            first = min(d for y in starts for n in days if (d := y + timedelta(days=n - 1)) >= today)
            return _Rec(f"{yearly[1]};BYYEARDAY=" + ",".join(map(str, days)), first)
    m = every and t.search(
        h.every_month_name, accept=lambda m: bool(m.group("of")) or _month_ok(t, m, with_day=False)
    )
    if m:  # "every January", "todo mês de março": every year, from the first of that month
        t.take(m)
        month = g.words.months[m.group("mon")]
        return _Rec("FREQ=YEARLY", date(today.year + (month <= today.month), month, 1))
    m = t.search(h.every_glued)
    if m:  # "jeden Sonntagabend": every Sunday, in the evening
        return _weekday_at_part(t, m, today, m.group("part"))
    m = "-" in t.folded and t.search(
        h.shared_ending, accept=lambda m: bool(m.group("every") or m.group("adverb"))
    )
    if m:  # "jeden Dienstag- und Donnerstagabend", "montags- und mittwochsabends": each, that part
        words = re.findall(r"[^\W\d_]+", m.group("heads"))
        heads = [g.words.weekdays.get(w, g.words.weekday_adverbs.get(w, -1)) for w in words]
        if -1 not in heads:
            days = sorted({*heads, g.words.weekdays[m.group("day")]})
            t.take(m)
            first = min(_next_weekday(today, d, strictly_after=False) for d in days)
            return _Rec("FREQ=WEEKLY;BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first, m.group("part"))
    said_twice = t.search(
        h.step_pair, accept=lambda m: (group(m, "n") or "").isdigit() or group(m, "n") in g.words.numbers
    )
    m = said_twice or t.search(h.nth_step)
    if m:  # "de 3 em 3 meses", "every 3rd month"
        n = int(_num(g, group(m, "n") or "1"))
        unit, n = _in_weeks(g, m.group("unit"), group(m, "n"), g.words.calendar_units[m.group("unit")], n)
        t.take(m)
        rule = _every(unit, n) if n >= 1 else ""
        return _on_its_days(t, today, _Rec(rule, _first_of_days(rule, today))) if n >= 1 else None
    return _days_of_the_weeks(t, today, any_range=False)


def _set_position(t: _Text, today: date) -> _Rec | None:
    """A position among a set of weekdays each month: "monthly on the last weekday", "the first
    working day of every month", "am ersten Werktag jedes Monats", "le dernier jour ouvré du mois"
    (BYSETPOS), every month or every N months said beside it."""
    g = t.g
    m = t.search(habits(g).set_position)
    if m is None:
        return None

    def beside(unit: str) -> tuple[re.Match, str] | None:  # a rule said apart from the position
        found = _unit_rule_said(t, unit)
        return found if found and (found[0].end() <= m.start() or m.end() <= found[0].start()) else None

    # "of the month" and no particular month is each month, "of the year" each year
    if m.group("each"):
        said: tuple[re.Match, str] | None = (m, "FREQ=MONTHLY")
    elif m.group("of"):  # "every 3 months on the last weekday of the month": its step
        said = beside("month") or (m, "FREQ=MONTHLY")
    elif m.group("year"):
        said = beside("year") or (m, "FREQ=YEARLY")
    elif m.group("mon"):  # "jährlich am letzten Werktag im Dezember": in that month each year
        said = _unit_rule_said(t, "year")
    else:
        said = _unit_rule_said(t, "month") or _unit_rule_said(t, "year")
    if said is None or (said[0] is not m and m.start() < said[0].end() and said[0].start() < m.end()):
        return None
    n = g.words.month_ordinals[_spaced(m.group("ord"))]
    days = g.words.weekday_sets[_spaced(m.group("set"))]
    t.take(m)
    if said[0] is not m:
        t.take(said[0])
    month = f";BYMONTH={g.words.months[m.group('mon')]}" if m.group("mon") else ""
    apart = t.search(habits(g).in_a_month) if said[1] == "FREQ=YEARLY" and not month else None
    if apart:  # "yearly in December on the last weekday": the months said apart
        t.take(apart)
        names = habits(g).month_word.findall(apart.group("mons"))
        month = ";BYMONTH=" + ",".join(map(str, sorted({g.words.months[name] for name in names})))
    # from today: the engine puts the first occurrence on the rule (_on_the_rule)
    return _Rec(f"{said[1]}{month};BYDAY={days};BYSETPOS={n}", today)


def _year_day_numbers(g: Grammar, said: str) -> set[int]:
    """The days of the year a list says, in figures or ordinals in words: "the first, the 100th
    and the 200th" -> {1, 100, 200}."""
    words = {g.words.month_ordinals[_spaced(o)] for o in habits(g).ordinal_words.findall(said)}
    return {int(d) for d in _YEAR_DAY_FIGURES.findall(said)} | {n for n in words if n > 0}


def _year_weeks(t: _Text, today: date) -> _Rec | None:
    """Weeks of the year by their numbers beside a yearly rule or "of every year": "yearly in week
    20", "in weeks 1 and 20 of each year", "jährlich in Kalenderwoche 20", "tous les ans la
    semaine 20": every year on the Monday of each (ISO weeks), the first still to come."""
    m = t.search(habits(t.g).year_weeks) if _ANY_FIGURE.search(t.folded) else None
    if m is None:
        return None
    yearly = (m, "FREQ=YEARLY") if m.group("each") else _unit_rule_said(t, "year")
    if yearly is None or (yearly[0] is not m and m.start() < yearly[0].end() and yearly[0].start() < m.end()):
        return None
    weeks = sorted({int(n) for n in _DAY_FIGURES.findall(m.group("weeks") or m.group("nth"))})
    if not weeks or not all(1 <= n <= 53 for n in weeks):
        return None
    t.take(m)
    if yearly[0] is not m:
        t.take(yearly[0])
    # from today: the engine puts the first occurrence on the rule (_on_the_rule)
    return _Rec(f"{yearly[1]};BYWEEKNO=" + ",".join(map(str, weeks)) + ";BYDAY=MO", today)


def _paired_positions(t: _Text, today: date) -> _Rec | None:
    """ "the first Tuesday and the last Thursday of each month", "monthly on the first Sunday and
    the last Sunday", "am ersten Dienstag und letzten Donnerstag jedes Monats": each position
    with its own weekday, every month (or every N months said beside it)."""
    g, h = t.g, habits(t.g)
    m = t.search(h.paired_positions)
    if m is None:
        return None
    monthly = (
        (m, "FREQ=MONTHLY")
        if m.group("every") or _spaced(m.group("of") or "") in g.words.of_every_month
        else _unit_rule_said(t, "month")
    )
    if monthly is None:
        return None
    if monthly[0] is not m and m.start() < monthly[0].end() and monthly[0].start() < m.end():
        return None  # "monthly" inside the positions' words
    pairs = [
        (g.words.month_ordinals[_spaced(p.group("ord"))], g.words.weekdays[p.group("day")])
        for p in h.position_pair.finditer(m.group("pairs"))
    ]
    t.take(m)
    if monthly[0] is not m:
        t.take(monthly[0])
    steps = [relativedelta(day=31 if n < 0 else 1, weekday=WEEKDAY_OF[wd](n)) for n, wd in pairs]
    first = min(today + s if today + s >= today else today + relativedelta(months=1) + s for s in steps)
    days = ",".join(dict.fromkeys(f"{n}{RRULE_DAYS[wd]}" for n, wd in pairs))
    return _Rec(f"{monthly[1]};BYDAY={days}", first)


def _days_of_a_month(m: re.Match) -> bool:
    """Figures said as days: after a lead or a word for a day, with an ordinal's mark, or before
    "days" or "of the month" ("on the 5th and 20th", "dias 5 e 20"; not "buy 2 and 3 apples");
    one day after its word, with a lead before it ("on day 5") or "of the month" after it."""
    said = "days" if m.group("days") else "single"
    if said == "single" and not m.group("of"):  # "on day 5", "am Tag 15": a lead before its word
        return len(m.group(0)[: m.start("single") - m.start()].split()) >= 2
    first = m.group(said).split()[0].rstrip(",")
    return not m.group(0)[0].isdigit() or not first.isdigit() or m.end() > m.end(said)


def _unit_rule_said(t: _Text, unit: str) -> tuple[re.Match, str] | None:
    """A rule of `unit` ("month", "year") said in `t` without days of its own ("monthly",
    "mensalmente", "every 3 months", "jährlich", "every 2 years"): its match and its rule, not
    taken."""
    g = t.g
    freq = _FREQ[unit]
    m = t.search(g.freq_word, accept=lambda m: g.words.freq_words[_spaced(m.group("w"))] == freq)
    if m:
        return m, f"FREQ={freq}"
    m = t.search(
        g.every_n_units,
        accept=lambda m: (
            g.words.calendar_units[m.group("unit")] == unit
            and (bool(m.group("other")) or m.group("n").isdigit() or _num(g, m.group("n")) != 1)
        ),
    )
    if m:
        return m, _every(unit, 2 if m.group("other") else int(_num(g, m.group("n"))))
    m = t.search(g.every_unit, accept=lambda m: g.words.calendar_units[m.group("unit")] == unit)
    return (m, f"FREQ={freq}") if m else None


_DAY_FIGURES = re.compile(r"\d{1,2}")
_ANY_FIGURE = re.compile(r"\d")
_YEAR_DAY_FIGURES = re.compile(r"\d{1,3}")
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # a day every year has (not 29 February)


def _first_monthday(rule: str, today: date) -> date | None:
    """The first day of a rule on a day of the month ("BYMONTHDAY=-1": the month's last day)."""
    parts = _rule_parts(rule)
    day = parts.get("BYMONTHDAY", "")
    if day == "-1":
        return today + relativedelta(day=31)
    return _next_monthday(today, int(day)) if day.isdigit() else None


def _days_of_the_weeks(t: _Text, today: date, *, any_range: bool = True) -> _Rec | None:
    """ "from Monday to Friday", "montags bis freitags", "Mon-Wed": every week on those days (a
    Saturday to a Tuesday goes round the weekend). `any_range`: after "every week" any such range; else
    only with "every", in the plural or with a time after it, or said alone (a stay "from Monday
    to Friday" in a sentence is no habit)."""
    g = t.g

    def habit(m: re.Match) -> bool:
        plural = any(m.group(f"{kind}{i}") for kind in ("plural", "adverb") for i in (1, 2))
        rest = (t.folded[: m.start()] + t.folded[m.end() :]).strip(" ,.;:!")
        timed = _time_follows(t, m.end()) or _time_before(t, m.start())
        return any_range or bool(m.group("every") or m.group("other") or plural or timed or not rest)

    m = t.search(habits(g).day_range, accept=habit)
    if m is None:
        return None
    first, last = (
        g.words.weekdays[m.group(f"day{i}")]
        if m.group(f"day{i}")
        else g.words.weekday_adverbs[m.group(f"adverb{i}")]
        for i in (1, 2)
    )
    if first == last:
        return None
    t.take(m)
    days = [(first + i) % 7 for i in range((last - first) % 7 + 1)]
    start = min(_next_weekday(today, d, strictly_after=False) for d in days)
    timed = _time_follows(t, m.end()) or _time_before(t, m.start())
    if not (any_range or m.group("every") or m.group("other") or timed):
        start = _next_weekday(today, first, strictly_after=False)  # said alone: from its first day on
    every = "FREQ=WEEKLY;INTERVAL=2" if m.group("other") else "FREQ=WEEKLY"  # "every other Sat-Tue"
    return _Rec(every + ";BYDAY=" + ",".join(RRULE_DAYS[d] for d in sorted(days)), start)


def _times_per(g: Grammar, m: re.Match, today: date) -> _Rec:
    """ "once a week", "twice a month", "3 times a week", "twice a year": the repeat spread evenly."""
    n = g.words.times_words[_spaced(m.group("tw"))] if m.group("tw") else int(_num(g, m.group("n")))
    unit = g.words.calendar_units[m.group("unit")]
    if n <= 1 or unit == "day":
        return _Rec(_every(unit), None)
    if unit == "week" and n in _TIMES_A_WEEK:
        days = [RRULE_DAYS.index(d) for d in _TIMES_A_WEEK[n].split(",")]
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec(f"FREQ=WEEKLY;BYDAY={_TIMES_A_WEEK[n]}", first)
    if unit == "month" and n in _TIMES_A_MONTH:
        monthdays = _TIMES_A_MONTH[n]
        first = min(_next_monthday(today, d) for d in monthdays)
        return _Rec("FREQ=MONTHLY;BYMONTHDAY=" + ",".join(map(str, monthdays)), first)
    months = {"year": 12, "half-year": 6, "quarter": 3}.get(unit)
    if months and months % n == 0:
        return _Rec(f"FREQ=MONTHLY;INTERVAL={months // n}" if months // n > 1 else "FREQ=MONTHLY", None)
    return _Rec(_every(unit), None)


def _time_follows(t: _Text, end: int) -> bool:
    """A time of day or a part of the day right after ("Tuesdays at 7pm", "samedis à 10h")."""
    after = t.folded[end:].lstrip(" ,")
    g = t.g
    return any(
        p.match(after) for p in (g.clock_at, g.clock_hm, g.clock_h_suffix, g.clock_h_letter, g.part_of_day)
    )


def _felt(t: _Text, start: int) -> bool:
    """A feeling right before ("odio los lunes", "adoro as sextas"): the days are its object."""
    return bool(habits(t.g).felt.search(t.folded[max(0, start - 24) : start]))


def _time_before(t: _Text, start: int) -> bool:
    """A time of day right before ("at 11:30 AM, Monday through Friday", "um 8 Uhr Montag bis
    Freitag"), as `_time_follows` reads one right after."""
    before = t.folded[:start].rstrip(" ,")
    g, reach = t.g, max(0, len(before) - 24)
    return any(
        m.end() == len(before)
        for p in (g.clock_at, g.clock_hm, g.clock_h_suffix, g.clock_h_letter)
        for m in p.finditer(before, reach)
    )


def _relative(t: _Text, now: datetime) -> tuple[datetime, bool] | None:
    """(the moment, whether it is to the minute) of "in 10 minutes", "in 3 days"..."""
    hours = ("minutes", 60)
    m = t.search(
        t.g.relative,
        # not "in three weeks from tomorrow": an offset from the day after it
        accept=lambda m: (
            (not m.group("glued_minutes") or t.g.words.units[m.group("unit")] == hours)
            and not _offset_follows(t, m)
        ),
    )
    if not m and t.g.from_now.search(t.folded):  # not "2 dias depois de amanhã" (an offset)
        m = t.search(t.g.relative_ahead, accept=lambda m: not _offset_beyond(t, m))
    if not m:
        m = t.search(t.g.duration_alone, accept=lambda m: not _clock_alone(t))
    if not m:
        return None
    ahead_more = _amounts_within(t, m) if m.re is not t.g.relative else (relativedelta(), 0.0)
    t.take(m)
    if m.re is t.g.relative_ahead and m.group("fraction_ahead"):  # "a half hour from now"
        return now + timedelta(minutes=t.g.words.hour_fractions[_spaced(m.group("fraction_ahead"))]), True
    if m.re is t.g.duration_alone and m.group("fraction_alone"):  # "half an hour", "meia hora"
        more, extra = ahead_more
        fraction = t.g.words.hour_fractions[_spaced(m.group("fraction_alone"))]
        return now + more + timedelta(minutes=fraction, seconds=extra), True
    if m.re is t.g.duration_alone:  # "5 minutes", "1 week": from now
        said, unit, half = m.group("n"), m.group("unit"), m.group("half") or m.group("unit_half")
    elif m.re is t.g.relative_ahead:  # "2 minutes from now"
        said, unit = m.group("n_ahead"), m.group("unit_ahead")
        half = m.group("half_ahead") or m.group("unit_half_ahead")
    elif m.group("fraction"):  # "in half an hour", "in a quarter of an hour"
        return now + timedelta(minutes=t.g.words.hour_fractions[_spaced(m.group("fraction"))]), True
    else:
        said, unit, half = m.group("n"), m.group("unit"), m.group("half") or m.group("unit_half")
    n = _num(t.g, said) + (0.5 if half else 0)  # "in 2 and a half hours", "em 2 horas e meia"
    kind, amount = t.g.words.units[unit]
    if kind in ("seconds", "minutes"):
        seconds = n * amount * (60 if kind == "minutes" else 1)
        if m.re is t.g.relative:
            seconds += int(m.group("glued_minutes") or 0) * 60  # "in 1h30"
            more_step, more_seconds = _more_of_the_step(t, m.end())  # "in 1 hour and 30 minutes"
            if not more_seconds and not more_step:  # "dans 1 heure et quart", then "et 10 secondes"
                minutes, end = _minutes_after_hours(t, m, kind, amount)
                more_seconds = minutes + (_more_of_the_step(t, end)[1] if end else 0.0)
            seconds += more_seconds
        more, extra = ahead_more
        return now + more + timedelta(seconds=seconds + extra), True
    step = _calendar_step(kind, int(_days_counted(t.g, unit, said, n)) * amount)  # a decade is 10 years
    t.relative_days = m.start() if kind == "days" else None
    more, seconds = _more_of_the_step(t, m.end()) if m.re is t.g.relative else ahead_more
    step += more  # "in 2 weeks and 3 days", "in 1 day and 2 hours", "2 days and 3 hours from now"
    if seconds:
        return now + step + timedelta(seconds=seconds), True
    return datetime.combine(now.date() + step, time(0), tzinfo=now.tzinfo), False


def _minutes_after_hours(t: _Text, m: re.Match, kind: str, amount: int) -> tuple[float, int]:
    """(the seconds of the minutes said after a whole number of hours: "dans 1 heure et quart",
    "dans 2 heures moins 12", "in 1 Stunde 30", "in an hour and a quarter", or of the seconds after
    minutes: "dans 1 min 30"; where they end), taken; (0, 0) when none are."""
    if kind != "minutes" or amount not in (1, 60) or m.group("half") or m.group("unit_half"):
        return 0.0, 0
    if m.group("glued_minutes"):  # "in 1h30"
        return 0.0, 0
    after = t.g.minutes_after_hours.match(t.folded, m.end())
    if after is None:
        return 0.0, 0
    said = after.group("m") or after.group("m_figures") or after.group("m_alone")
    minutes = int(said) if said.isdigit() else t.g.words.minute_amounts[_spaced(said)]
    t.take(after)
    less = after.group("join") and t.g.hour_less.fullmatch(_spaced(after.group("join")))
    scale = 60.0 if amount == 60 else 1.0  # minutes after hours, seconds after minutes
    return (-scale if less else scale) * minutes, after.end()


def _amounts_within(t: _Text, m: re.Match) -> tuple[relativedelta, float]:
    """(the days, months and years; the seconds) of the amounts after the first one of "2 hours
    and 30 minutes from now", "3 years, 2 weeks and 5 days" (the match's `more_ahead`)."""
    step, seconds = relativedelta(), 0.0
    if not m.group("more_ahead"):
        return step, seconds
    at, end = m.span("more_ahead")
    while at < end and (more := t.g.more_amount.match(t.folded, at)):
        kind, amount = t.g.words.units[more.group("unit")]
        n = _num(t.g, more.group("n"))
        if kind in ("seconds", "minutes"):
            seconds += n * amount * (60 if kind == "minutes" else 1)
        else:
            step += _calendar_step(kind, int(n) * amount)
        at = more.end()
    return step, seconds


def _days_counted(g: Grammar, unit: str, written: str | None, n: float) -> float:
    """n of a unit as people mean it: where eight days said in words are a week and fifteen two
    ("dans huit jours", "daqui a quinze dias", "in acht Tagen"), whole weeks; otherwise n. In
    figures ("em 15 dias") the days are counted."""
    if written is None or written.strip().isdigit():
        return n
    return n // 7 * 7 if n in g.words.weeks_of_days.get(_spaced(unit), ()) else n


def _in_weeks(g: Grammar, word: str, written: str | None, unit: str, n: int) -> tuple[str, int]:
    """(unit, n) of a repeat's step, in weeks where `_days_counted` reads its days as weeks ("tous
    les huit jours", "cada quince días": every week, every two weeks)."""
    days = _days_counted(g, word, written, n)
    return ("week", int(days) // 7) if unit == "day" and days != n else (unit, n)


def _calendar_step(kind: str, n: int) -> relativedelta:
    """n days, months or years."""
    if kind == "days":
        return relativedelta(days=n)
    return relativedelta(months=n) if kind == "months" else relativedelta(years=n)


def _more_of_the_step(t: _Text, at: int) -> tuple[relativedelta, float]:
    """(the days, months and years; the seconds) of the amounts said after the first one of a step
    ("1 hour and 30 minutes", "2 Stunden 15 Minuten", "1 day 2 hours", "2 semanas e 3 dias"),
    taken."""
    step, seconds = relativedelta(), 0.0
    while more := t.g.more_amount.match(t.folded, at):
        if more.group("fraction"):  # "and half a minute", "y medio minuto"
            seconds += 60 * t.g.words.hour_fractions[_spaced(more.group("fraction"))]
            t.take(more)
            at = more.end()
            continue
        kind, amount = t.g.words.units[more.group("unit")]
        n = _num(t.g, more.group("n")) + (0.5 if more.group("unit_half") else 0)  # "30 minutos y medio"
        if kind in ("seconds", "minutes"):
            seconds += n * amount * (60 if kind == "minutes" else 1)
        elif n == int(n):
            step += _calendar_step(kind, int(n) * amount)
        else:
            break
        t.take(more)
        at = more.end()
    return step, seconds


def _offset_beyond(t: _Text, m: re.Match) -> bool:
    """An offset's words run on past "2 dias depois" ("2 dias depois de amanhã"): not from now."""
    offset = t.g.offset.search(t.folded, m.start(), m.end() + _LEAD_REACH)  # after amounts it adds to
    return offset is not None and offset.start() < m.end() < offset.end()


def _offset_follows(t: _Text, m: re.Match) -> bool:
    """ "in three weeks from tomorrow": the amount after "in" is an offset from the day named after
    it (not "in 3 weeks from Monday to Friday", a range)."""
    offset = t.g.offset.search(t.folded, m.start(), m.end() + _LEAD_REACH)
    return offset is not None and offset.start() < m.end() < offset.end() and _offset_ok(t, offset)


def _clock_alone(t: _Text) -> bool:
    """The whole text is a time of day ("15h", "5pm"), not a duration."""
    text = t.folded.strip()
    g = t.g
    return any(p.fullmatch(text) for p in (g.clock_h_suffix, g.clock_h_letter, g.clock_hm))


_LEAD_REACH = 60  # how far before an offset the amounts that add to it are looked for


def _offset(t: _Text) -> relativedelta | None:
    """ "two weeks from", "3 days after", "2 months before": the step from the day named after it;
    "5 hours before noon", "10 minutes after 3pm", "5 minutes before now": from the time named
    after it (hours and minutes only from a time of day or now)."""
    m = t.search(t.g.offset, accept=lambda m: _offset_ok(t, m))
    if not m:
        return None
    if m.group("word") is not None:  # "la veille de Noël": its days, from the day named after it
        t.take(m)
        t.offset_end, t.offset_one = m.end(), True
        return relativedelta(days=t.g.words.offset_words[_spaced(m.group("word"))])
    kind, amount = t.g.words.units[m.group("unit")]
    steps = []
    lead = (
        t.g.offset_lead.search(t.folded, max(0, m.start() - _LEAD_REACH), m.start()) if m.group("n") else None
    )
    at = lead.start() if lead else m.start()
    while lead and (more := t.g.more_amount.match(t.folded, at)) and more.end() <= m.start():
        more_kind, more_amount = t.g.words.units[more.group("unit")]  # "2 weeks and" 6 days from
        steps.append((more_kind, _num(t.g, more.group("n")) * more_amount))
        at = more.end()
    if lead:
        t.take(lead)
    t.take(m)
    before = t.g.in_before.search(t.folded, 0, lead.start() if lead else m.start())
    if before:  # "in three weeks from tomorrow": the "in" is the offset's
        t.take(before)
    t.offset_end = m.end()
    now_after = t.g.now_word.match(t.folded, _past_spaces(t.folded, m.end()))
    if now_after and kind in ("seconds", "minutes"):  # "5 minutos antes de agora"
        t.take(now_after)
        t.offset_from_now = True
    sign = -1 if t.g.is_offset_before(_spaced(m.group("dir"))) else 1
    said = 1 if _one_step(m) else _num(t.g, m.group("n"))  # "the day after Christmas": one
    t.offset_one = _one_step(m)
    steps.append((kind, _days_counted(t.g, m.group("unit"), m.group("n"), said) * amount))
    seconds = sum(n * (60 if k == "minutes" else 1) for k, n in steps if k in ("seconds", "minutes"))
    if all(k in ("seconds", "minutes") for k, _ in steps):
        return relativedelta(seconds=round(seconds * sign))
    past = t.g.past_day.match(t.folded, _past_spaces(t.folded, m.end()))
    if past:  # "two weeks after yesterday": from the day before today
        t.take(past)
        t.offset_base = -2 if _spaced(past.group(0).strip()) in t.g.words.before_yesterday else -1
    last = None if past else t.g.weekday.match(t.folded, _past_spaces(t.folded, m.end()))
    if last and t.g.which(last.group("pre"), last.group("post")) == "last":
        t.take(last)  # "two weeks after last Thursday": from that Thursday
        t.offset_weekday = t.g.words.weekdays[last.group("day")]
    step = relativedelta(seconds=round(seconds * sign))  # "2 Tage und 3 Stunden nach": both
    for k, n in steps:
        if k not in ("seconds", "minutes"):
            step += _calendar_step(k, int(n) * sign)
    return step


def _one_step(m: re.Match) -> bool:
    """ "the day after", "day after", "le lendemain de": one step, said with an article, with none
    or in one word."""
    return bool(m.group("one")) or m.group("bare") is not None or m.group("word") is not None


def _names_a_day(t: _Text, at: int) -> bool:
    """A day is named at `at`: "tomorrow", a weekday, a holiday, a date."""
    g = t.g
    days = (g.today, g.tomorrow, g.after_tomorrow, g.weekday, g.holiday, g.month_day, g.day_month)
    return any(p.match(t.folded, at) for p in (*days, g.numeric_date, g.iso_date, g.day_of_month))


def _offset_ok(t: _Text, m: re.Match) -> bool:
    """A step of hours or minutes counts from a time of day or now said right after it; one said
    with an article ("the day after") from a day named after it, one without ("day after") only
    from a day named right after it ("day after day" is none), as one said in a word."""
    if m.group("word") is not None:
        return _names_a_day(t, _past_spaces(t.folded, m.end()))
    if m.group("bare") is not None and not _names_a_day(t, _past_spaces(t.folded, m.end())):
        return False
    if _one_step(m) and not t.folded[m.end() :].strip():
        return False  # "I saw her the day after": no day it counts from
    if t.g.is_range_from(_spaced(m.group("dir"))) and t.g.word_then_range_to.match(t.folded, m.end()):
        return False  # "3 Wochen von Montag bis Freitag": a range
    if _one_step(m) and any(
        p.match(t.folded, m.start()) for p in (t.g.next_week, t.g.next_month, t.g.after_tomorrow)
    ):
        return False  # "the week after next": a week; "the day after next": the day after tomorrow
    if _one_step(m) and t.g.of_before.search(t.folded, 0, m.start()):
        return False  # "every fifth of the month from January": the month is the day's, no step
    if t.g.words.units[m.group("unit")][0] not in ("seconds", "minutes"):
        return True
    g, text = t.g, t.folded
    at = _past_spaces(text, m.end())  # matched where it stands: no copy of the rest
    article = g.hour_articles.match(text, at)  # "10 minutos después de las 15h"
    if article and text[article.end() : article.end() + 1].isspace():
        at = _past_spaces(text, article.end())
    return bool(
        g.now_word.match(text, at)
        or g.noon_or_midnight.match(text, at)
        or any(p.match(text, at) for p in (g.clock_hm, g.clock_h_suffix, g.clock_h_letter))
    )


def _within_a_day(step: relativedelta) -> bool:
    return bool(step.hours or step.minutes or step.seconds)


def _now_word(t: _Text) -> bool:
    """ "now", "agora", "jetzt": this moment, said in a short text (at most NOW_WORDS words: "remind
    me now", "the deadline is now"); in a longer one it is a word of the sentence ("Ana lives in
    Porto now"), but for words that say nothing else ending it ("call the bank right now"; not
    "right now I am reading Dune")."""
    m = t.search(t.g.now_predicate)  # "the deadline is now, ok": the moment in any sentence
    if m:
        t.take(m)
        return True
    m = t.search(t.g.now_word)
    if not m:
        return False
    last = " " in m.group(0).strip() and _LAST_WORDS.match(t.folded, m.end()) is not None
    if len(t.original.split()) > NOW_WORDS and not last:
        return False
    t.take(m)
    return True


def _end_of(t: _Text, today: date) -> tuple[date | None] | None:
    """ "end of the day" (today), "of the week" (its Friday, at the weekend its Sunday), "of the
    month" (its last day), "of the year" (31 December), "of next week/month/year" (the next one's),
    "of April" (the next April's last day);
    "end of tomorrow": (None,), the day is the words after it. Due at END_HOUR."""
    m = t.search(t.g.end_of, accept=lambda m: not t.g.part_here.match(t.folded, m.start()))
    if not m:
        return None
    t.take(m)
    if m.group("mon"):  # "end of April": its last day, the next April's
        month = t.g.words.months[m.group("mon")]
        year = int(m.group("y")) if m.group("y") else today.year + (month < today.month)
        return (date(year, month, 1) + relativedelta(day=31),)
    what = t.g.end_words.get(_spaced(m.group("what") or "")) or t.g.end_of_words.get(m.group("abbr") or "")
    if what and (m.group("next") or m.group("next_after")):  # "end of next week": the next one's
        if what == "week":
            return (today + timedelta(days=11 - today.weekday()),)  # its Friday
        step = {"day": relativedelta(days=1), "month": relativedelta(months=1)}
        today += step.get(what, relativedelta(years=1))
    if what == "day":
        return (today,)
    if what == "week":
        friday = today + timedelta(days=4 - today.weekday())
        return (friday if friday >= today else today + timedelta(days=6 - today.weekday()),)
    if what == "month":
        return (today + relativedelta(day=31),)
    if what == "year":
        return (date(today.year, 12, 31),)
    return (None,)


def _weekend_of_month(t: _Text, today: date) -> tuple[date, bool] | None:
    """ "le premier week-end de septembre", "the last weekend of May (2027)": that Saturday of the
    month, as a weekend is its Saturday (this year's, else next year's)."""
    m = t.search(t.g.weekend_of_month)
    if not m:
        return None
    t.take(m)
    n, month = t.g.words.month_ordinals[_spaced(m.group("ord"))], t.g.words.months[m.group("mon")]
    years = [int(m.group("y"))] if m.group("y") else [today.year, today.year + 1]
    for year in years:
        found = date(year, month, 1) + relativedelta(day=31 if n < 0 else 1, weekday=SA(n))
        if found.month == month and (m.group("y") or found >= today):
            break
    return found, bool(m.group("y"))


def _date(t: _Text, now: datetime) -> tuple[date, bool] | None:
    """(a calendar date, whether a year was given) written in the text."""
    g, today = t.g, now.date()
    numeric, named = (lambda m: int(m.group("m"))), (lambda m: g.words.months[m.group("mon")])
    # beside a day in figures a month word is a month; beside one in words only joined to it ("the
    # first of march") or as a month alone would be ("second march": capitalised)
    with_month = lambda m: _month_ok(
        t, m, with_day=not m.group("dw") or bool(m.groupdict().get("joined") or m.groupdict().get("lead"))
    )
    found = _numeric_date(t, today) or _weekend_of_month(t, today) or _month_part(t, today)
    if found:
        return found
    for pattern, month_of, accept in (
        (g.iso_date, numeric, None),
        (g.basic_date, numeric, None),
        (g.year_first_date, numeric, None),
        (g.spaced_year_first, numeric, None),
        (g.year_month_day, named, with_month),
        (g.day_month, named, with_month),
        (g.month_day, named, with_month),
    ):
        m = t.search(pattern, accept=accept)
        if m:
            y = m.group("y") or _year_of_the_end(t, m, take=True)
            year = _full_year(y, today) if y else today.year
            next_year = None if y else g.next_year_after.match(t.folded, m.end())
            if next_year:  # "November 10th next year"
                year, y = today.year + 1, str(today.year + 1)
            words = m.groupdict().get("dw")
            day = g.words.day_numbers[_spaced(words)] if words else int(m.group("d"))
            try:
                d = date(year, month_of(m), day)
            except ValueError:
                if y or (month_of(m), day) != (2, 29):
                    t.blank(m)  # "30. Februar" is no day: not "the 30th" either, and its words stay
                    t.no_day = t.no_day or _said_day(day, month_of(m), y, m)
                    continue
                d = _next_feb_29(today)  # 29 February in a common year: the next leap year's
            t.take(m)
            if next_year:
                t.take(next_year)
            if not y and d < today:
                d = _next_date(d, today)
            return _range_start(t, m, d), bool(y)
    m = t.search(
        g.month_position, accept=lambda m: bool(m.group("of") or m.group("mon") or m.group("period"))
    )
    if m:
        t.take(m)
        return _month_position(g, m, today)[1], bool(m.group("y"))
    # "June 2027": its first day; a month begun or gone by ("the March 2025 invoice") names, it is
    # not due
    m = t.search(
        g.month_year,
        accept=lambda m: (
            # "march 2028": a month's whole name, or a year in figures, makes it a month ("I may 2027"
            # still needs its capital)
            _month_ok(
                t,
                m,
                with_day=(len(m.group("mon")) > 3 or len(m.group("y")) == 4)
                and m.group("mon") not in g.words.verb_months,
            )
            and date(int(m.group("y")), g.words.months[m.group("mon")], 1) >= today
        ),
    )
    if m:
        t.take(m)
        return date(int(m.group("y")), g.words.months[m.group("mon")], 1), True

    def month_said(m: re.Match) -> bool:  # "the next may be": no month
        name = next(n for n in ("nm1", "nm2", "nm3") if m.group(n))
        return m.group(name) not in g.words.ambiguous_months or t.capital(m.start(name))

    m = t.search(g.month_next, accept=month_said)
    if m:  # "next July": the coming one, its first day (said in July: next year's)
        t.take(m)
        t.month_alone = True
        month = g.words.months[m.group("nm1") or m.group("nm2") or m.group("nm3")]
        return date(today.year + (month <= today.month) + _after_next(m), month, 1), False
    # "in July", "até julho", "im Juli": its first day, the next one; the month we are in names, it
    # is not due ("in December" said in December)
    # beside its lead word, a month's whole name is one ("en mars", "in march"; "by jan" is no date)
    m = t.search(g.month_alone, accept=lambda m: _month_ok(t, m, with_day=len(m.group("mon")) > 3))
    if m:
        month = g.words.months[m.group("mon")]
        if month != today.month:
            t.take(m)
            t.month_alone = True
            return date(today.year + (month < today.month), month, 1), False
    m = t.search(g.day_of_this_month, accept=_day_of_a_month_said)
    if m:  # "the 10th of next month": that day of it (its last, when it has fewer days)
        t.take(m)
        first = today.replace(day=1) + relativedelta(
            months=1 if m.group("next") or m.group("next_after") or m.group("next3") else 0
        )
        return first + relativedelta(day=int(m.group("d1") or m.group("d2") or m.group("d3"))), False
    m = t.search(g.short_weekday_day, accept=lambda m: _short_weekday_day_ok(t, m))
    if m:  # "jue 22", "Do., 22.": the next 22nd that is a Thursday (_on_its_weekday)
        t.take(m)
        t.month_said = False
        t.date_weekday = _short_weekday(t, m)
        return _next_monthday(today, int(m.group("d"))), False
    language = cache(lambda: _text_language(fold(t.original), g, t.region))  # read once, if asked
    m = t.search(g.day_of_month, accept=lambda m: _weekday_word_ok(t, m) and _day_word_ok(g, m, language))
    if m:
        word = group(m, "day_word")  # "dia primeiro", "el primero", "le premier"
        day = g.words.day_numbers[_spaced(word)] if word else int(group(m, "day") or 0)
        if 1 <= day <= 31:
            t.take(m)
            t.month_said = False
            inside = g.weekday.search(m.group(0))  # "Tuesday 21st", "viernes 20"
            t.date_weekday = g.words.weekdays[inside.group("day")] if inside else None
            return _next_monthday(today, day), False
    return _holiday(t, today)


_DAY_OF_A_MONTH = (("d1", "of1", "suf1", "lead1"), ("d2", "of2", "suf2", "lead2"))  # the day, its marks


def _short_weekday(t: _Text, m: re.Match) -> int | None:
    """The weekday a short form ("jue", "qui.", "Do.") names in the text's language: None when it
    is no short form of that language's ("mar" in a Spanish text, "do" in an English one), or one
    read only with its dot or a comma written without (de "So")."""
    g, form = t.g, m.group("day")
    language = _text_language(fold(t.original), g, t.region)
    own = g.abbreviation_of.get(form, {})
    if language in own:
        return own[language]
    dotted = g.dotted_of.get(form, {})
    return dotted[language] if language in dotted and m.group("mark").strip() else None


def _short_weekday_day_ok(t: _Text, m: re.Match) -> bool:
    """A short weekday before a day number is that day when the number ends its clause or a time
    follows ("jue 22", "ven. 11 à 15h"), in a text of the short form's language; among other words
    it stays a word ("ter 22 anos", "la mer 22 degrés", "I do 22 pushups")."""
    return (
        1 <= int(m.group("d")) <= 31
        and bool(t.g.day_number_end.match(t.folded, m.end()))
        and _short_weekday(t, m) is not None
    )


def _day_word_ok(g: Grammar, m: re.Match, language: Callable[[], str]) -> bool:
    """A day of the month in words is one of the text's language ("el día dos" is the 2nd; pt "dia
    dos anos", a birthday, is no day)."""
    word = group(m, "day_word")
    return not word or _spaced(word) in g.day_numbers_of.get(language(), frozenset())


def _weekday_word_ok(t: _Text, m: re.Match) -> bool:
    """A weekday that is another word too ("sat", "sun", pt "quinta") before a day number is a day
    with its capital (the three-letter ones), its lead or suffix, or when the number ends its clause
    or a time follows ("sat 22", "quinta 22 às 10"; not "we sat 22 people")."""
    inside = t.g.weekday.search(m.group(0))
    if inside is None or inside.group("day") not in t.g.words.ambiguous_weekdays:
        return True
    day = inside.group("day")
    if (
        inside.group("pre")
        or inside.group("suffix")
        or (len(day) == 3 and t.capital(m.start() + inside.start("day")))
    ):
        return True
    return bool(t.g.day_number_end.match(t.folded, m.end()))


def _day_of_a_month_said(m: re.Match) -> bool:
    """A day of the month before "next month" is one with "of", its ordinal or its article ("the 28th
    next month", "le 28 du mois prochain"), not a number alone ("room 12 next month")."""
    if m.group("d3"):  # "next month on the 28th"
        return 1 <= int(m.group("d3")) <= 31
    day, *marks = next(names for names in _DAY_OF_A_MONTH if m.group(names[0]))
    return 1 <= int(m.group(day)) <= 31 and any(m.group(mark) for mark in marks)


def _month_part(t: _Text, today: date) -> tuple[date, bool] | None:
    """ "Ende Januar", "mi-janvier", "a mediados de enero", "no início de março": the part of the
    month questions read (core/when/window.py), due on its first day (a range is due at its start),
    today when it has begun; the coming one when this year's is over."""
    m = t.search(t.g.month_half)
    if not m:
        return None
    month = t.g.words.months[m.group("mon")]
    a, b = t.g.words.month_parts[_spaced(m.group("part"))]
    y = m.group("y")

    def part(year: int) -> tuple[date, date]:
        first = date(year, month, 1)
        return first + timedelta(days=a), (
            first + relativedelta(day=31) if b is None else first + timedelta(days=b - 1)
        )

    start, end = part(int(y) if y else today.year)
    if not y and end < today:
        start, end = part(today.year + 1)
    t.take(m)
    return max(start, today) if end >= today else start, bool(y)


def _holiday(t: _Text, today: date) -> tuple[date, bool] | None:
    """A feast by name, the next one (today included): "on Easter" (its Sunday), "Fronleichnam",
    "dia de Reis", "Thanksgiving 2027"; else a public holiday of the region's country by a name the
    `holidays` package gives it ("Dia de Todos os Santos")."""
    g = t.g

    def said(m: re.Match) -> bool:
        name = _spaced(m.group("name"))
        return name not in g.words.everyday_holiday_names or t.capital(m.start("name"))

    m = t.search(g.holiday, accept=said)
    if m:
        t.take(m)
        day_id = g.words.holidays[_spaced(m.group("name"))]
        at = FEAST_DAY.get(day_id, DAYS[day_id])
        q1, q2 = m.group("q1") or "", m.group("q2") or ""
        if re.search(r"\d{4}", q2):
            return at(int(re.sub(r"\D", "", q2)))[0], True
        shift = g.year_said(q1, q2)
        if shift is not None:
            return at(today.year + shift)[0], True
        first = at(today.year)[0]
        return (first if first >= today else at(today.year + 1)[0]), False
    if t.region.country is None:
        return None
    days = country_days(t.region.country, today.year)
    if not days:
        return None
    m = t.search(_names_pattern(tuple(days)))
    if not m:
        return None
    t.take(m)
    coming = [d for d in days[_spaced(m.group(0))] if d >= today]
    return (coming[0] if coming else days[_spaced(m.group(0))][-1]), False


@cache
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{any_of(names)})(?!\w)")


def _on_its_weekday(t: _Text, written: tuple[date, bool]) -> tuple[date, bool]:
    """A weekday said with a date ("Monday the 21st", "sexta-feira dia 20", "Friday 12-30-16") is
    taken with it; with a day of the month alone, the date is the next such day that falls on that
    weekday. A weekday that disagrees with a whole date leaves the date, said as doubtful."""
    wd = t.date_weekday
    if wd is None:
        leads = t.g.words.weekday_lead
        m = t.search(t.g.weekday, accept=lambda m: not m.group("pre") or m.group("pre") in leads)
        if m:
            t.take(m)
            wd = t.g.words.weekdays[m.group("day")]
        else:  # "jue., 22 abr.": a short form just before the date's words
            found = (t.g.short_weekday_before.search(t.folded[:s]) for s, _ in sorted(t.spans, reverse=True))
            m = next((m for m in found if m and _short_weekday(t, m) is not None), None)
            if m is None:
                return written
            t.take(m)
            wd = _short_weekday(t, m)
    d, year_given = written
    if d.weekday() == wd:
        return written
    if year_given or t.month_said:  # "Tuesday, 10 January" on a Thursday: the date, said doubtful
        t.ambiguous = t.ambiguous or "the weekday said is not that date's"
        return written
    for step in range(1, 12 * 28):  # the 20th that is a Friday: within 14 months (28 years at most)
        nxt = d + relativedelta(months=step)
        if nxt.day == d.day and nxt.weekday() == wd:
            return nxt, False
    return written


def _numeric_date(t: _Text, today: date) -> tuple[date, bool] | None:
    """22/04, 4/22, 22.04., 22-04-2027, 22/4/27: the day is the figure only it can be (over 12),
    else the region's (05/06 is 5 June in Portugal, May 6 in the US: said as ambiguous)."""

    def read(m: re.Match) -> tuple[date, bool] | None:
        own = m.group("y")
        a, b = int(m.group("a")), int(m.group("b"))
        if own and len(own) == 2 == len(m.group("a")) == len(m.group("b")) and (a > 31 or a == 0):
            try:  # "87-01-11", "00-01-10": a first figure no day or month is, the year (yy-MM-dd)
                return date(_full_year(m.group("a"), today), b, int(own)), True
            except ValueError:
                return None
        y = own or _numeric_year_of_the_end(t, m, b if t.region.day_first else a)  # "5.8. - 16.8.2017"
        year = _full_year(y, today) if y else today.year
        orders = [(a, b), (b, a)] if t.region.day_first else [(b, a), (a, b)]
        readings = []
        for day, month in orders:
            try:
                readings.append(date(year, month, day))
            except ValueError:
                if y is None and month == 2 and day == 29:  # 29/02 in a common year: the next leap one
                    readings.append(_next_feb_29(today))
        if not readings:
            return None
        d = readings[0]
        if not y and d < today:
            d = _next_date(d, today)
        if len(readings) == 2 and readings[0] != readings[1]:
            first = "day" if t.region.day_first else "month"
            written = t.folded[m.start("a") : m.end("y") if own else m.end("b")]  # not "am 05.08"
            t.ambiguous = f"{written} read {first} first: it could be the other way round"
        return d, bool(y)

    m = t.search(t.g.numeric_date, accept=lambda m: read(m) is not None)
    if not m:
        m = t.search(t.g.lead_dotted_date, accept=lambda m: read(m) is not None)
    if not m and t.region.day_month_sep:  # es_CL "22-04", en_CH "22.04", fr_CA "04-22"
        m = t.search(
            t.g.own_day_month,
            accept=lambda m: m.group("sep") == t.region.day_month_sep and read(m) is not None,
        )
    if not m:  # "20 02 2027", "25 09 27"; "le 20 2 27", "le 17 02" at a clause's end
        m = t.search(
            t.g.spaced_date,
            accept=lambda m: bool(
                (
                    len(m.group("y") or "") == 4
                    or (m.group("lead") and m.group("end") is not None)
                    or _padded_figures(m)
                )
                and read(m) is not None
            ),
        )
    if not m:
        # 31/04, 30.02.2027: a day and month either way round, but no day of a calendar
        bad = t.search(
            t.g.numeric_date, accept=lambda m: _day_and_month(int(m.group("a")), int(m.group("b")))
        )
        if bad:
            t.blank(bad)
            t.no_day = t.no_day or bad.group(0)
        return None
    found = read(m)
    assert found is not None
    t.take(m)
    return _range_start(t, m, found[0]), found[1]


def _padded_figures(m: re.Match) -> bool:
    """ "25 09 27", "10 09 03": a day, a month and a year apart, two figures each, one of the day
    and month with its leading zero, as forms print them (a score or a clock is written "11 9",
    "17 02" has no year: neither is a date)."""
    a, b, y = m.group("a"), m.group("b"), m.group("y") or ""
    return len(a) == len(b) == len(y) == 2 and "0" in (a[0], b[0])


def _year_of_the_end(t: _Text, m: re.Match, *, take: bool = False) -> str | None:
    """The year written once at a range's end is its start's too ("10 August - 12 September 2013",
    "du 10 août au 12 septembre 2013"); None when the date is no range's start. `take`: the range's
    end is read with it (a reading of the start alone accounts for less of the text)."""
    to = t.g.range_to_end.match(t.folded, m.end())
    if not to:
        return None
    at = to.end()
    weekday = t.g.weekday.match(t.folded, at)  # "Samstag 5.8. - Mittwoch 16.8.2017"
    if weekday and not weekday.group("pre"):
        at = _past_spaces(t.folded, weekday.end() + (t.folded[weekday.end() : weekday.end() + 1] == ","))
    for pattern in (t.g.day_month, t.g.month_day, t.g.numeric_date):
        end = pattern.match(t.folded, at)
        if end and end.group("y"):
            if take:
                t.take_span(to.start(), end.end())
            return end.group("y")
    return None


def _numeric_year_of_the_end(t: _Text, m: re.Match, month: int) -> str | None:
    """The year of a numeric range's end for its start of `month` ("5.8. - 16.8.2017"); the year
    before when the range runs into the next ("22.12. bis 3.1.2019")."""
    y = _year_of_the_end(t, m)
    to = t.g.range_to_end.match(t.folded, m.end())
    end = to and t.g.numeric_date.search(t.folded, to.end())
    if y is None or not end:
        return y
    end_month = int(end.group("b") if t.region.day_first else end.group("a"))
    return str(int(y) - 1).zfill(len(y)) if end_month < month else y


def _full_year(y: str, today: date) -> int:
    """A year as written: two figures are the year of that number nearest today, 50 years either
    side ("1/1/95" is 1995, "22/4/27" is 2027)."""
    if len(y) != 2:
        return int(y)
    year = today.year // 100 * 100 + int(y)
    if year > today.year + 50:
        return year - 100
    return year + 100 if year < today.year - 50 else year


def _day_and_month(a: int, b: int) -> bool:
    """Figures that could name a day and a month, one way round or the other (31/04)."""
    return (1 <= a <= 31 and 1 <= b <= 12) or (1 <= b <= 31 and 1 <= a <= 12)


def _said_day(day: int, month: int, year: str | None, m: re.Match) -> str:
    """A date no calendar has in the app's words ("30 February", "30 February 2027"); one whose
    month is no month either as written ("2027-13-01")."""
    if not 1 <= month <= 12:
        return m.group(0).strip()
    said = f"{day} {MONTH_NAMES[month - 1]}"
    return f"{said} {_full_year(year, date.today())}" if year else said


def _range_start(t: _Text, m: re.Match, d: date) -> date:
    """The day a range ends on at `m` starts on, when the day number before it says one ("from 5
    to 16 Aug", "15-18 Nov", "5. bis zum 16.8."): what is due is due at its start. "and" ("dia 5
    e 10") joins a range only after its "from" ("entre 5 e 10 de junho")."""
    r = t.g.range_start_day.search(t.folded, 0, m.start())
    if not r or (t.g.range_and(_spaced(r.group("to"))) and not r.group("from")):
        return d
    day = int(r.group("d"))
    if not 1 <= day < d.day:
        return d
    t.take(r)
    return d.replace(day=day)


def _next_feb_29(today: date) -> date:
    year = today.year
    while not calendar.isleap(year) or date(year, 2, 29) < today:
        year += 1
    return date(year, 2, 29)


def _next_date(d: date, today: date) -> date:
    """The next such day and month from today (29 February: the next leap year's)."""
    if d.month == 2 and d.day == 29:
        return _next_feb_29(today)
    return d.replace(year=d.year + 1)


def _day_word(t: _Text, now: datetime) -> tuple[date, str] | None:
    g, today = t.g, now.date()
    m = t.search(g.today_part, accept=lambda m: g.today_part_of.get(_spaced(m.group("w"))) is not None)
    if m:  # "this morning": today's, even once its hour has gone by
        t.take(m)
        t.today_part = g.today_part_of[_spaced(m.group("w"))]
        other = _day_word(t, now)  # "tomorrow this afternoon": that part of the day named
        return other if other is not None and other[1] != "tonight" else (today, "day")
    for pattern, delta, what in (
        (g.after_tomorrow, 2, "day"),
        (g.tonight, 0, "tonight"),
        (g.tomorrow, 1, "day"),
        (g.today, 0, "day"),
    ):
        m = t.search(pattern)
        if m:
            t.take(m)
            return today + timedelta(days=delta), what
    # "Wednesday of next week", "next week Wednesday": that week's Wednesday
    m = t.search(g.weekday_next_week) or t.search(g.next_week_weekday)
    if m:
        t.take(m)
        start = _next_weekday(today, t.region.first_week_day, strictly_after=True)  # the region's week
        return start + timedelta(days=(g.words.weekdays[m.group("day")] - start.weekday()) % 7), "day"
    m = t.search(g.weekday, accept=lambda m: _weekday_ok(t, m))
    if m:
        shared = habits(g).shared_ending.match(t.folded, m.start("day")) if "-" in t.folded else None
        t.take(m)
        t.glued_part = m.group("glued")
        if shared and not t.glued_part:  # "Dienstag- und Freitagvormittag": the part both days share
            t.glued_part = shared.group("part")
            t.spans.append((m.end(), m.end() + 1))  # its hyphen (the rest of the list stays)
        wd = g.words.weekdays[m.group("day")]
        nxt = g.which(m.group("pre"), m.group("post")) == "next" or _after_next(m)
        found = _next_weekday(today, wd, strictly_after=nxt)
        if _after_next(m):  # "Friday after next", "übernächsten Freitag": a week after next Friday
            return found + timedelta(days=7), "day"
        if m.group("weeks_later"):  # "mardi en huit": a week after the coming Tuesday, today's on one
            weeks = g.words.weeks_later[_spaced(m.group("weeks_later"))]
            return _next_weekday(today, wd, strictly_after=False) + timedelta(days=7 * weeks), "day"
        if g.is_next_weeks_before(m.group("pre") or "") and _ahead_this_week(today, wd, t.region):
            found += timedelta(days=7)  # "next Friday" said on a Monday: next week's, not this one
        return found, "next-weekday" if nxt else "weekday"
    short = g.abbreviation_of
    language = cache(lambda: _text_language(fold(t.original), g, t.region))  # only if one is found
    m = t.search(g.weekday_abbreviation, accept=lambda m: language() in short[m.group("day")])
    if m:  # "Jeu 15:12", "mer. à 15h" in a French text, "sex 15h" in a Portuguese one
        t.take(m)
        return _next_weekday(today, short[m.group("day")][language()], strictly_after=False), "weekday"
    m = t.search(
        g.weekday_dotted,
        accept=lambda m: (
            bool(
                m.group("lead")
                or m.group("before") is not None
                or not (t.folded[: m.start()] + t.folded[m.end() :]).strip()
            )
            and language() in g.dotted_of[m.group("day")]
        ),
    )
    if m:  # "Mo.", "am Fr.", "Fr. 14 Uhr" in a German text
        t.take(m)
        return _next_weekday(today, g.dotted_of[m.group("day")][language()], strictly_after=False), "weekday"
    m = t.search(g.next_week)
    if m:  # its Monday ("the week after next": the one after)
        t.take(m)
        return _next_weekday(today, 0, strictly_after=True) + timedelta(days=7 * _after_next(m)), "day"
    m = t.search(g.weekend)
    if m:
        nxt = bool(g.is_next_before(m.group("pre") or "") or m.group("post"))
        t.take(m)
        sat = _next_weekday(today, 5, strictly_after=False)
        if today.weekday() == 6:
            sat = today  # said on a Sunday: the weekend is today
        return (sat + timedelta(days=7) if nxt else sat), "day"
    m = t.search(g.next_month)
    if m:  # its first day ("the month after next": the one after)
        t.take(m)
        return (today.replace(day=1) + relativedelta(months=2 if _after_next(m) else 1)), "day"
    m = t.search(g.next_year)  # "next year": its first day; "em maio do próximo ano": that month's
    if m:
        t.take(m)
        month = t.search(g.question_month)
        if month:
            t.take(month)
        return date(today.year + 1, g.words.months[month.group("mon")] if month else 1, 1), "day"
    return None


def _phrase_ok(g: Grammar, m: re.Match) -> bool:
    """A clock phrase with a number for the minutes ("20 past 3") is a time only with "at", am/pm,
    a part of the day or an hour mark ("5 to 6 people" is not; "dia 5 e 10" is not)."""
    minutes = m.group("m1") or m.group("m2") or m.group("m4")
    hour = m.group("h1") or m.group("h2") or m.group("h3") or _hour_word_of(g, m.group("h4")) or ""
    if hour.isdigit() and not 0 < int(hour) < 24:
        return False
    if m.group("before") and _spaced(m.group("before")) in g.words.after_hour and hour.isdigit():
        return bool(m.group("at"))  # "at half 8"; "half 2 cups" is no time
    if minutes and minutes.isdigit():
        marked = bool(g.marked_hour.search(m.group(0)))
        counted = bool(g.counted_minutes.search(m.group(0)))  # "15 minuten vor 12"
        named = _spaced(hour) in g.noon_words | g.midnight_words  # "5 para meio dia"
        return int(minutes) < 60 and bool(
            m.group("at")
            or m.group("ap")
            or m.group("ap2")
            or m.group("ap3")
            or m.group("part")
            or marked
            or counted
            or named
        )
    return True


_FIGURES = re.compile(r"\d{1,2}")


def _phrase_clock(g: Grammar, m: re.Match) -> _Clock:
    """ "half past 4" -> 4:30, "quarter to 6" -> 5:45, "halb 6" -> 5:30 (on the 12-hour clock
    unless the hour is past 12)."""

    def number(word: str, table: dict[str, int]) -> int:
        if word.isdigit():
            return int(word)
        word = _spaced(word)
        return 12 if word in g.noon_words else 24 if word in g.midnight_words else table[word]

    w = g.words
    hours = {**w.hour_words, **w.hour_words_24}
    hour = _spaced(m.group("h1") or m.group("h2") or m.group("h3") or _hour_word_of(g, m.group("h4")) or "")
    named = hour in g.noon_words | g.midnight_words  # "a quarter to noon": on the 24-hour clock
    before = False  # minutes before the hour said
    if m.group("h3") and _spaced(m.group("before")) in w.after_hour:  # "half eight": 8:30
        h, mi = number(m.group("h3"), hours), w.after_hour[_spaced(m.group("before"))]
    elif m.group("h3"):
        h, mi, before = number(m.group("h3"), hours) - 1, w.before_hour[_spaced(m.group("before"))], True
    elif m.group("h1"):
        h, mi = number(m.group("h1"), hours), number(m.group("m1"), w.minute_amounts)
        if g.minutes_to.fullmatch(m.group("dir")):
            h, mi, before = h - 1, 60 - mi, True
    elif m.group("h2"):
        h, mi = number(m.group("h2"), hours), number(m.group("m2"), w.minute_amounts)
        if g.hour_less.fullmatch(m.group("join")):
            h, mi, before = h - 1, 60 - mi, True
    else:  # "quinze heures trente": as written, on the 24-hour clock past 12
        h, mi = number(hour, hours), number(m.group("m4"), w.minute_amounts)
    if named:
        return _Clock(h % 24, mi % 60, True, None)
    # the hour in figures with its 24-hour mark ("4 Uhr 15", "4h et quart") is read as written,
    # as "4 Uhr" and "4h" are
    said = next((k for k in ("h1", "h2", "h4") if m.group(k) and m.group(k)[:1].isdigit()), None)
    figures = _FIGURES.match(m.string, m.start(said)) if said else None
    marked = figures is not None and g.mark_24.match(m.string, figures.end()) is not None
    h = 12 if h == 0 and not marked else h
    ap = _ampm(g, m.group("ap") or m.group("ap2") or m.group("ap3"), m.group("part"), h)
    return _Clock(h, mi % 60, (h > 12 or marked) and ap is None, ap, before_said=before)


def _clock(t: _Text) -> _Clock | None:
    """The time of day: a clock ("14:30", "at 9", "half past 4", noon) or a part of the day ("in
    the morning", "tomorrow evening"), the part saying which half of the day a clock means."""
    taken = len(t.spans)
    clock = _numeric_clock(t)
    part = _part_of_day(t, t.spans[taken][0] if clock is not None and len(t.spans) > taken else None)
    part = part or t.glued_part
    if clock is None:
        return _Clock(t.g.words.parts[part], 0, True, None, part=part) if part else None
    if part:
        clock.hint(part, t.g)
    return clock


def _part_of_day(t: _Text, clock_at: int | None) -> str | None:
    """A part of the day said with its preposition ("in the morning"), as an adverb ("abends"), or
    beside other time words ("tomorrow morning", "morning at 8")."""
    w = t.g.words

    def beside_time_words(m: re.Match) -> bool:
        s, e = m.span("part")
        if m.group("part") not in w.bare_parts:
            return False
        after_time = any(end <= s and _adjacent(t.g, t.folded[end:s]) for _, end in t.spans)
        before_time = any(start >= e and _adjacent(t.g, t.folded[e:start]) for start, _ in t.spans)
        before_clock = clock_at is not None and e <= clock_at and _adjacent(t.g, t.folded[e:clock_at])
        return after_time or before_time or before_clock

    m = t.search(
        t.g.part_of_day,
        accept=lambda m: (
            " " in m.group(0).strip()
            or "'" in m.group("part")  # with its elided article, as "le soir" ("l'après-midi")
            or m.group("part") in w.part_adverbs
            or beside_time_words(m)
        ),
    )
    if not m:
        return None
    t.take(m)
    return _spaced(m.group("part"))


def _adjacent(g: Grammar, between: str) -> bool:
    """Nothing between a part of the day and other time words, or just "of" ("the evening of 7 July")."""
    between = between.strip()
    return not between or between in g.words.of_a_month


def _after_at(g: Grammar, m: re.Match) -> bool:
    """The match is said after "at" ("at 10 to 3", "@ 15 to 7pm")."""
    before = m.string[: m.start()].rstrip().rsplit(" ", 1)[-1]
    return m.group(0).lstrip().startswith(g.words.at) or before in g.words.at


def _range_ends(t: _Text) -> None:
    """The end of a range whose start was read ("from Monday to Wednesday", "das 15h às 17h", "Feb
    12 to the 15th", "from midnight to noon") is taken with the word that opens it: the start is when
    it is due, and the whole range leaves the text (a reminder's title keeps no "to Wednesday")."""
    for s, e in sorted(t.spans):
        m = t.g.range_end.match(t.folded, e)
        if m is None or not m.group(0).strip():
            continue
        t.take_span(e, m.end())
        lead = t.g.range_lead.search(t.folded, 0, s)
        if lead:
            t.take_span(*lead.span())


def _clock_range(t: _Text) -> _Clock | None:
    """The first clock of a range ("between 6 and 8 AM", "zwischen 6 und 8h", "9:30 - 10:45"),
    in the half of the day the second says ("11 - 1pm": 11am). Without "from"/"between" only
    with a mark of hours or minutes, or as bare hours right after their day ("today 3-5"; "5-6"
    alone is not a time; "5 and 6" never is)."""
    g = t.g

    def ok(m: re.Match) -> bool:
        h1, h2 = int(m.group("h1") or 12), int(m.group("h2"))
        if m.group("noon1"):  # "from noon to 2pm", "entre midi et 2": said, and a later hour
            return h2 < 24 and int(m.group("m2") or 0) < 60 and bool(m.group("from"))
        if h1 >= 24 or h2 >= 24 or int(m.group("m1") or 0) >= 60 or int(m.group("m2") or 0) >= 60:
            return False
        said = bool(m.group("from"))
        if not said and g.minutes_to.fullmatch(_spaced(m.group("to"))) and _after_at(g, m):
            return False  # "at 10 to 3 pm": ten minutes to three, not a range
        marked = bool(
            m.group("ap")
            or m.group("ap1")
            or m.group("uhr")
            or m.group("hh")
            or m.group("letter2")
            or m.group("part")
            or _lettered(m)
        )
        glued = [bool(m.group(mm) and not m.group(sep)) for mm, sep in (("m1", "sep1"), ("m2", "sep2"))]
        if all(glued) and 19 <= h1 <= 20 and 19 <= h2 <= 20 and not marked:
            return False  # "from 2010 to 2015": years
        if any(glued) and not (said or marked):  # "0930 - 1045"
            return all(glued)
        if g.range_and(_spaced(m.group("to"))):  # "5 and 6" is two numbers
            return said
        if "." in m.group(0):  # "05.08 - 16.08" may be dates: a range of clocks only said so
            return said or marked
        if said or marked or bool(m.group("m1") and m.group("m2")):
            return True
        # "today 3-5", "Friday 9-11", "tomorrow 10-11:30": the first a bare hour, the earlier, right
        # after their day
        bare = not m.group("m1") and 0 < h1 < h2 <= 12
        return bare and g.day_before_hours.search(fold(t.original), 0, m.start()) is not None

    m = t.search(g.clock_range, accept=ok)
    if not m:
        return None
    t.take(m)
    if m.group("noon1"):
        return _Clock(12, 0, True, None)
    h1, h2 = int(m.group("h1")), int(m.group("h2"))
    ap = _ampm(g, m.group("ap1"), None) or _ampm(g, m.group("ap") or m.group("letter2"), m.group("part"), h2)
    if ap and not m.group("ap1") and h1 % 12 > h2 % 12:
        ap = "am" if ap == "pm" else "pm"  # "11 - 1pm": 11am
    exact = ap is None and (
        h1 >= 13 or h1 == 0 or bool(m.group("uhr") or m.group("hh")) or h2 >= 13 or _lettered(m)
    )
    padded = m.group("h1").startswith("0")
    return _Clock(h1, int(m.group("m1") or 0), exact or padded, ap, padded=padded)


def _lettered(m: re.Match) -> bool:
    """Whether a range's clock carries its hour letter ("10h", "11h30"): a clock on the 24 hours."""
    return bool(m.group("hh1") or any(m.group(sep) and m.group(sep) not in ":." for sep in ("sep1", "sep2")))


def _dotted_clock(t: _Text, m: re.Match) -> bool:
    """Whether "15.30" is a clock: with its mark ("Uhr", "pm", "in the afternoon") or "at", in a
    region that writes its clock so (en_DK, en_FI), or right after the date it is on ("22/04/2027,
    15.30": a second date cannot follow the first)."""
    if m.group("uhr") or m.group("ap") or m.group("part") or m.group(0).strip().startswith(t.g.words.at):
        return True
    return t.region.clock_dot or any(
        end <= m.start() and not t.original[end : m.start()].strip(" ,") for _, end in t.spans
    )


def _numeric_clock(t: _Text) -> _Clock | None:
    g = t.g
    ranged = _clock_range(t)
    if ranged is not None:
        return ranged
    m = t.search(g.clock_phrase, accept=lambda m: _phrase_ok(g, m))
    if m:
        t.take(m)
        return _phrase_clock(g, m)
    m = t.search(
        g.clock_hm,
        accept=lambda m: (
            int(m.group("h")) < 24
            and int(m.group("m")) < 60
            and not (m.group("sep") == "." and not _dotted_clock(t, m))
            # "at 17-59", "5-59 pm": minutes no hour can be (not "10-12", a range; not "12-31")
            and not (
                m.group("sep") == "-"
                and not (
                    int(m.group("m")) >= 24
                    and (m.group("ap") or m.group("letter") or m.group(0).strip().startswith(g.words.at))
                )
            )
        ),
    )
    if m:
        t.take(m)
        h, mi = int(m.group("h")), int(m.group("m"))
        ap = _ampm(g, m.group("ap") or m.group("letter"), m.group("part"), h)  # "3:15p", "12:30 nachts"
        exact = (
            m.group("h").startswith("0")
            or h >= 13
            or h == 0
            or m.group("sep") not in ":."
            or bool(m.group("uhr"))
            or t.region.clock_24h  # "Flug um 7:45": where the 24-hour clock is written, as written
        ) and ap is None
        return _Clock(
            h,
            mi,
            exact,
            ap,
            padded=m.group("h").startswith("0"),
            s=int(m.group("sec") or m.group("dsec") or 0),
        )
    m = t.search(g.clock_hhmm, accept=lambda m: _hhmm_ok(t, m))
    if m:
        t.take(m)
        h, mi = int(m.group("h")), int(m.group("m"))
        ap = _ampm(g, m.group("ap"), m.group("part"), h)
        padded = m.group("h").startswith("0")
        exact = ap is None and (h >= 13 or h == 0 or padded or bool(m.group("uhr")))
        return _Clock(h, mi, exact, ap, padded=padded)
    m = t.search(g.clock_h_suffix, accept=lambda m: _hour_of(g, m.group("h") or m.group("hw")) < 24)
    if m:
        t.take(m)
        if m.group("spaced"):  # "6 de la mañana", "3 in the afternoon"
            h = _hour_of(g, m.group("hw"))
            return _Clock(h, 0, h >= 13, _ampm(g, None, m.group("spaced"), h))
        h = int(m.group("h"))
        ap = _ampm(g, m.group("ap") or m.group("ap2") or m.group("ap3"), m.group("part"), h)
        if (m.group("ap") or m.group("ap3")) and not 1 <= h <= 12:
            return None
        if m.group("oclock"):  # "3 o'clock": on the 12-hour clock, as "at 3"
            return _Clock(h, 0, h >= 13 or h == 0, ap)
        return _Clock(h, 0, ap is None, ap, padded=m.group("h").startswith("0"))
    m = t.search(g.clock_h_letter, accept=lambda m: 1 <= int(m.group("h")) <= 12)
    if m:
        t.take(m)
        return _Clock(int(m.group("h")), 0, False, _ampm(g, m.group("letter"), None))
    m = t.search(g.clock_at, accept=lambda m: _at_ok(t, m))
    if m:
        h = _hour_of(g, m.group("h") or m.group("hw") or m.group("hw24"))
        t.take(m)
        ap = _ampm(g, m.group("ap"), m.group("part"), h)
        return _Clock(h, 0, (h >= 13 or h == 0) and ap is None, ap)
    m = t.search(g.clock_word)
    if m:
        t.take(m)
        noon = _spaced(m.group("w")) in g.words.noon
        return _Clock(12 if noon else 0, 0, True, None, midnight=not noon)
    return None


_BARE_HOUR = re.compile(r"(?<![\w:.,/+-])(?P<h>\d{1,2})(?=\s+\Z)")
PART_HOUR_REACH = 3  # a bare hour before a part of the day is that part's within these hours


def _hour_before_part(t: _Text, part: _Clock | None) -> _Clock | None:
    """A bare hour right before the day and the part of the day read ("call mum 11 tonight", "7
    demain matin", "9 heute Abend"), in that part's half of the day; only an hour that part has
    ("table for 4 tonight" is no 16:00)."""
    part_hour = part.h if part is not None else TONIGHT_HOUR
    for start, _ in sorted(t.spans):
        m = _BARE_HOUR.search(t.folded, 0, start)
        if m is None or not 1 <= int(m.group("h")) <= 12:
            continue
        said = _Clock(int(m.group("h")), 0, False, None)
        if part is not None and part.part is not None:
            said.hint(part.part, t.g)
        hour = _hour(said, with_day=True, evening=part is None or part_hour >= NIGHT_FROM)
        if min(abs(hour - part_hour), 24 - abs(hour - part_hour)) > PART_HOUR_REACH:
            continue
        t.take(m)
        return _Clock(hour, 0, True, None)
    return None


def _hhmm_ok(t: _Text, m: re.Match) -> bool:
    """ "330 p.m." (on the 12-hour clock), "1430 Uhr", "at 730 in the evening", "at 1030", "at 3 15"
    and "ten thirty am" (in figures, the hour and minutes apart): figures without a colon; after
    "at" alone not what reads as a year ("at 2026") nor a number of a street ("at 1030 Main
    Street": a capital after it)."""
    h, mi = int(m.group("h")), int(m.group("m"))
    if mi >= 60:
        return False
    if m.group("ap"):
        return 1 <= h <= 12
    if h >= 24:
        return False
    if m.group("uhr") or m.group("part"):
        return True
    if m.group("gap"):  # "at 3 15": the hour and its minutes apart
        return bool(m.group("at")) and 0 < h
    named_after = re.match(r"\s+[^\W\d_]", t.original[m.end() :]) and t.capital(m.end() + 1)
    return bool(m.group("at")) and not 19 <= h <= 20 and not named_after


def _hour_word_of(g: Grammar, said: str | None) -> str | None:
    """The hour of "quinze heures", "9 Uhr" (the words before the mark)."""
    if said is None:
        return None
    found = g.hour_in_words.match(said)
    return found.group(0) if found else said


def _hour_of(g: Grammar, word: str) -> int:
    """An hour in figures or words ("three", "quinze")."""
    if word.isdigit():
        return int(word)
    word = _spaced(word)
    return g.words.hour_words.get(word) or g.words.hour_words_24[word]


_LAST_WORDS = re.compile(r"\s*[.!?]?\s*\Z")


def _at_ok(t: _Text, m: re.Match) -> bool:
    """ "at 3", "às 15h": an hour. In words ("at three") only with what says it is one: o'clock,
    am/pm or a part of the day after it, an article of hours before it ("às três", "a las
    tres"), or a day read before it and nothing after it ("tomorrow at ten"; not "at two
    options", "dîner à deux demain"); pt "a",
    "as" are "at" only written "à", "às" (or with that after them)."""
    said = bool(m.group("mark") or m.group("part") or m.group("ap"))
    if _hour_of(t.g, m.group("h") or m.group("hw") or m.group("hw24")) >= 24:
        return False
    at = _spaced(m.group("at"))
    if at in t.g.words.at_needs_accent and not (t.accented(m.start("at")) or said):
        return False
    if m.group("hw") and not said:
        # or as the text's last words after the day ("tomorrow at ten", "5 June at eleven")
        after_day = any(end <= m.start() for _, end in t.spans)
        last = after_day and _LAST_WORDS.match(t.original, m.end()) is not None
        return bool(t.g.hour_articles.fullmatch(at.split(" ")[-1])) or last
    return True


def _ampm(g: Grammar, ap: str | None, part: str | None, h: int | None = None) -> str | None:
    """ "am"/"pm" as the mark or the part of the day says; at night (a part from NIGHT_FROM) 12
    and the small hours are the morning's ("12 Uhr in der Nacht" is midnight, "1 at night" 01:00)."""
    if ap:
        return "pm" if g.after_noon_words.fullmatch(_spaced(fold(ap))) else "am"
    if part:
        part = _spaced(part)
        night = g.clock_parts.get(part, 0) >= NIGHT_FROM
        if night and h is not None and (h == 12 or h < SMALL_HOURS_UNTIL):
            return "am"
        return "pm" if part in g.pm_parts else "am" if part in g.am_parts else None
    return None


def _hour(c: _Clock, *, with_day: bool, evening: bool) -> int:
    """The 24-hour hour of a clock read with a day (`with_day`) or tonight (`evening`)."""
    if c.ampm == "pm":
        return c.h % 12 + 12
    if c.ampm == "am":
        return c.h % 12
    if evening and c.h < 12 and not c.padded and not c.midnight:
        if 1 <= c.h < TONIGHT_SMALL_HOURS_UNTIL:
            return c.h  # "tonight at 2": the night's small hours (14:00 is no night)
        return c.h + 12  # "heute Abend um 8 Uhr", "ce soir à 8h": 20:00 (not "08h")
    if c.exact:
        return c.h
    said = c.h % 12 + 1 if c.before_said else c.h
    if with_day and 1 <= said <= AFTERNOON_UNTIL:
        return c.h % 12 + 12
    return c.h


def find_when(
    text: str, now: datetime, grammar: Grammar = GRAMMAR, region: Region | str | None = None
) -> When | None:
    """The due time (and recurrence) the text asks for, or None (also for a time past the
    calendar's end: "in 9999999999 minutes"). `region` (a Region or a locale tag, "en_US"): whose
    conventions read an ambiguous date; None: the one in force (core/when/region.py)."""
    if region is None:
        region = current_region()
    elif isinstance(region, str):
        region = region_of(region)
    grammar = _text_grammar(text, grammar, region)
    return _first_of_a_list(text, now, grammar, region, _find_when(text, now, grammar, region))


LIST_ITEMS = 3  # the "and"s a list is looked for at: each costs a reading, and a reading is linear


def _first_of_a_list(
    text: str, now: datetime, grammar: Grammar, region: Region, when: When | None
) -> When | None:
    """A list of days or times ("today and tomorrow", "today at noon and tomorrow at 5:45 am"): due at
    its first, each side read on its own; the rest of the list stays in the text. A time said once
    for the list ("Monday and Wednesday at 4pm") and a repeat ("every Monday and Wednesday") are read
    whole."""
    if when is None or when.rrule:
        return when
    folded = fold(text)
    for m in islice(grammar.list_and.finditer(folded), LIST_ITEMS):  # each a reading of the text
        s, e = m.span()
        if any(a < e and b > s for a, b in when.spans):
            continue  # inside one reading ("10 e meia", "between 2 and 4pm")
        shared = habits(grammar).shared_ending.search(folded) if "-" in folded else None
        if shared and shared.start() < s < shared.end():
            continue  # "Dienstag- und Freitagabend": the part of the day both share, read whole
        if not grammar.list_day.search(folded, 0, s) or not (
            _ANY_FIGURE.search(folded, e) or grammar.list_day.search(folded, e)
        ):
            continue  # "dinner with Sam and Ana on 8 Dec": no day or time of its own before "and"
        first = _find_when(text[:s] + " " * (len(text) - s), now, grammar, region)
        if first is None or not first.explicit_day or first.rrule:
            continue  # "call Ana and Rui tomorrow": no day before "and"
        second = _find_when(" " * e + text[e:], now, grammar, region)
        if second is None or second.rrule:
            continue
        if not second.explicit_day and second.due.date() == first.due.date():
            continue  # "today and Rui at 5": one day, its time said after "and"
        if first.due == when.due or (second.explicit_time and not first.explicit_time):
            return when
        return first
    return when


def _find_when(text: str, now: datetime, grammar: Grammar, region: Region) -> When | None:
    try:
        plain = _read(text, now, grammar, region)
        figures, written = _in_figures(text, grammar, region)
        if figures == text:
            return plain
        # numbers in words in figures ("am dritten Juni"): that reading when it accounts for more
        # of the text than the tables' own ("onze heures trois quarts" stays the tables'), or when
        # the tables' own reads a part of a number ("cinq avril" of "le vingt-cinq avril")
        other = _read(text, now, grammar, region, figures)
        if other and plain and _splits(plain, written):
            return other
        return other if other and _covered(other) > (_covered(plain) if plain else 0) else plain
    except (OverflowError, ValueError):
        return None


_OWN_MONTH_NAMES = sorted({fold(k) for lang in GRAMMAR.languages for k in lang.own_text_months})
_OWN_MONTHS = re.compile(rf"(?<![^\W\d_])(?:{'|'.join(_OWN_MONTH_NAMES)})(?![^\W\d_])")


def _text_grammar(text: str, grammar: Grammar, region: Region) -> Grammar:
    """The grammar that reads a text with a short month name another language has as a word ("1 set",
    "11 ago", "5 out"): with it as a month in a text of that month's language."""
    if grammar is not GRAMMAR:
        return grammar
    folded = fold(text)
    if not _OWN_MONTHS.search(folded):
        return grammar
    code = _text_language(folded, grammar, region)
    if not any(lang.code == code and lang.own_text_months for lang in grammar.languages):
        return grammar
    return _grammar_in(code)


@cache
def _grammar_in(code: str) -> Grammar:
    return Grammar(GRAMMAR.languages, next(lang for lang in GRAMMAR.languages if lang.code == code))


def no_day(
    text: str, now: datetime, grammar: Grammar = GRAMMAR, region: Region | str | None = None
) -> str | None:
    """What to tell a person whose text names a date no calendar has ("30 February is no day",
    "31/04 is no day"), in the app's words whatever the text's language; None when it names none.
    find_when reads no time from such a text rather than guess another day."""
    if region is None:
        region = current_region()
    elif isinstance(region, str):
        region = region_of(region)
    for said in (None, in_figures(text, grammar, region)):
        t = _Text(text, grammar, region, said if said != text else None)
        if _date(t, now) is None and t.no_day:
            return f"{t.no_day} is no day"
    return None


def _splits(when: When, written: list[tuple[int, int]]) -> bool:
    """A span of the reading begins or ends inside words written in figures."""
    return any(a < i < b for s, e in when.spans for a, b in written for i in (s, e))


def _covered(when: When) -> int:
    """How many characters the reading accounts for, each once (its spans may overlap)."""
    return len({i for s, e in when.spans for i in range(s, e)})


def _signed_step(t: _Text) -> relativedelta | None:
    """ "+ 3 days", "-10days", "+40minutes" after a time: the step it moves that time by."""
    m = t.search(t.g.signed_step, accept=lambda m: bool(t.folded[: m.start()].strip()))
    if not m:
        return None
    t.take(m)
    kind, amount = t.g.words.units[m.group("unit")]
    n = int(m.group("n")) * amount * (1 if m.group("plus") else -1)
    if kind in ("seconds", "minutes"):
        return relativedelta(seconds=n * (60 if kind == "minutes" else 1))
    return _calendar_step(kind, n)


def _zone(t: _Text) -> timezone | None:
    """The zone a time is written in after it ("13:00+01:00", "17:00 UTC"); an offset is taken (no
    other reading sees it); None when none."""
    m = t.g.time_zone.search(t.folded)
    if m is None:
        return None
    if m.group("utc"):  # left in the text: it joins nothing ("3:23 UTC july 5th")
        return UTC
    offset = m.group("offset") or m.group("west_said") or m.group("west")
    sign, digits = offset[0], offset[1:].replace(":", "")
    minutes = int(digits[:2]) * 60 + int(digits[2:])
    if m.group("west") and minutes > int(m.group("ch")) * 60 + int(m.group("cm")):
        return None  # "11:30-13:30": a range of clocks, to a later one ("08:00-04:00" is a zone)
    t.take(m)
    return timezone(timedelta(minutes=minutes if sign == "+" else -minutes))


def _read(text: str, now: datetime, grammar: Grammar, region: Region, said: str | None = None) -> When | None:
    t = _Text(text, grammar, region, said)
    tz = now.tzinfo
    zone = _zone(t)
    signed = _signed_step(t)
    rec = _recurrence(t, now)
    rel = _relative(t, now)
    offset = _offset(t) if rel is None else None
    end_at = len(t.spans)
    end = _end_of(t, now.date())
    end_spans = t.spans[end_at:]
    if offset is not None and t.offset_from_now or (rel is None and offset is None and _now_word(t)):
        due = now + offset if offset is not None else now  # "5 minutes before now"
        return When(
            due=due + (signed or relativedelta()),  # "now + 40minutes"
            rrule=None,
            spans=t.spans,
            text=text,
            explicit_day=True,
            explicit_time=True,
        )
    within = offset if offset is not None and _within_a_day(offset) else None
    if within is not None:
        offset = None
    written = _date(t, now)
    if t.no_day and written is None:  # "dentist 30 February at 10": no guess at another day
        return None
    if written is not None:
        written = _on_its_weekday(t, written)
    taken = len(t.spans)
    word = _day_word(t, now) if written is None else None
    word_spans = t.spans[taken:]
    clock = _clock(t)
    if end == (None,) and not (written or word):  # "the end of it", "am Ende des Films": no day after it
        end = None
        t.spans = [span for span in t.spans if span not in end_spans]
    if end and end[0] is not None and not (written or word):
        written = end[0], False
    if not (rec or rel or written or word or clock or offset or end):
        return None
    if t.search(grammar.past_day) and not (rec or rel or written or word or offset or end):
        return None  # "yesterday evening", "ontem à noite": the past, not this evening
    _range_ends(t)
    out = When(
        due=now,
        rrule=rec.rule if rec else None,
        spans=t.spans,
        text=text,
        explicit_day=bool(rel or written or word or (rec and rec.first) or offset or end),
        explicit_time=clock is not None or bool(rel and rel[1]),
        ambiguous=t.ambiguous,
        loose=t.month_alone and clock is None and not (rec or rel or offset or end),
    )
    if rel and rel[1]:  # to the minute: "in 10 minutes"
        out.due = rel[0]
        return out
    day = rel[0].date() if rel else written[0] if written else word[0] if word else rec.first if rec else None
    if rel and word and _counts_from(t, word, word_spans, now.date()):  # "Friday in two weeks": from it
        day = word[0] + (rel[0].date() - now.date())
    if offset is not None:  # "two weeks from tomorrow": from the day named, else today
        # (a day's span may start before the step: "le" of "le lendemain du 13" leads the date)
        if t.offset_one and (day is None or not any(e > (t.offset_end or 0) for _, e in t.spans)):
            return None  # "the day before the meeting", "2/19 - day after": no day said after it
        base = now.date() + timedelta(days=t.offset_base)
        if t.offset_weekday is not None:  # "after last Thursday": the last one before today
            base = now.date() - timedelta(days=(now.weekday() - t.offset_weekday - 1) % 7 + 1)
        day = (day or base) + offset
        if word and word[1] == "weekday" and word[0] == now.date():
            day += timedelta(days=7)  # "3 weeks from Friday" said on a Friday: from the next one
        word = None
    if end and clock is None:  # "end of the day": that day at END_HOUR
        clock = _Clock(END_HOUR, 0, True, None)
    evening = bool(word and word[1] == "tonight")
    if t.today_part:  # "this afternoon (at 2)": that part's hour, or the half of the day it says
        if clock is None:
            clock = _Clock(grammar.words.parts[t.today_part], 0, True, None, part=t.today_part)
        else:
            clock.hint(t.today_part, grammar)
    if (clock is None and evening) or (clock is not None and clock.part is not None):
        clock = _hour_before_part(t, clock) or clock  # "call mum 11 tonight", "7 demain matin"
    if rec and rec.part:  # "every evening": that part's hour, and the half of the day a clock means
        if clock is None:
            clock = _Clock(grammar.words.parts[rec.part], 0, True, None)
        else:
            clock.hint(rec.part, grammar)
    elif rec and clock is not None and t.today_part is None and grammar.wake.search(fold(text)):
        clock.wake()  # "alarm every weekday at 7:30": the morning
    if clock is None:
        hour, minute = (TONIGHT_HOUR if evening else DEFAULT_HOUR), 0
        due = _at(day or now.date(), hour, minute, tz)
        if day is None and due <= now:
            due += timedelta(days=1)
    elif day is None and (rec is None or _clock_step(rec.rule)):  # "every 2 hours from 9": its start
        due = _next_occurrence(clock, now, evening)
    else:  # a day named, or a repeat's days: its hour is the same whenever it was said
        due = _at(day or now.date(), _hour(clock, with_day=True, evening=evening), clock.m, tz, clock.s)
    night = evening or (t.today_part is not None and grammar.words.parts[t.today_part] >= NIGHT_FROM)
    if night and day == now.date() and due <= now and due.hour < SMALL_HOURS_UNTIL:
        due += timedelta(days=1)  # "tonight at 2am", "4h cette nuit" said by day: the night ahead
    # "midnight today", "hoje à meia-noite e três": the midnight today ends at (not at 00:00 itself:
    # "today at 12:00 am" said then is now)
    if word and word[1] in ("day", "tonight") and day == now.date() and due < now and due.hour == 0:
        due += timedelta(days=1)
    if word and word[1] == "weekday" and due <= now:
        due += timedelta(days=7)  # "Thu 9:30" said on Thursday at 10: next Thursday
    if within is not None:  # "5 hours before noon": from the time of day named
        due += within
    if rec and due <= now:  # the first occurrence still to come
        due = _next_of(rec.rule, due, now)
    if rec and clock is None and day is None and _clock_step(rec.rule):  # "every 15 minutes"
        due = now.replace(second=0, microsecond=0) + _clock_step(rec.rule)
        out.explicit_time = True
    if rec and "BY" in rec.rule:  # "every Monday from Thursday 10 December": first on Monday 14
        due = _on_the_rule(rec.rule, due)
    if out.rrule is None and written and not t.month_alone and grammar.yearly.search(fold(text)):
        out.rrule = "FREQ=YEARLY"
    out.rrule = _yearly_said(t, text, out.rrule, bool(written and not t.month_alone))
    months = _months_listed(t, text) if out.rrule and out.rrule.startswith("FREQ=YEARLY") else None
    if out.rrule and months and written and not t.month_alone:  # "every year on 15 January and July"
        out.rrule = _in_listed_months(out.rrule, months, due.day)
        due = _on_the_rule(out.rrule, _at(now.date(), due.hour, due.minute, tz))
    out.due = due + signed if signed else due  # "4pm + 3 days"
    if zone is not None and out.explicit_time:  # "17:00 PDT": that time there, here
        out.due = out.due.replace(tzinfo=zone).astimezone(tz)
    return out


def _counts_from(t: _Text, word: tuple[date, str], spans: list[tuple[int, int]], today: date) -> bool:
    """A weekday, today or tomorrow named before "in 2 weeks" or "in 3 days": the step counts from
    it (not one in months or years: "Friday in a month" would be no Friday; nor a day after it: "in
    3 weeks from Monday to Friday")."""
    day, what = word
    if t.relative_days is None or not spans or any(end > t.relative_days for _, end in spans):
        return False
    return what in ("weekday", "next-weekday") or what == "day" and (day - today).days in (0, 1, 2)


def _clock_step(rule: str) -> timedelta:
    """One step of a repeat by the clock ("FREQ=MINUTELY;INTERVAL=15": 15 minutes); zero for others."""
    parts = _rule_parts(rule)
    interval = parts.get("INTERVAL", "1")
    return _CLOCK_STEP.get(parts.get("FREQ", ""), timedelta(0)) * (int(interval) if interval.isdigit() else 1)


def _next_of(rule: str, start: datetime, now: datetime) -> datetime:
    from core.remind.series import Series, local_zone, next_occurrence  # noqa: PLC0415 - the one engine

    text = rule if rule.upper().startswith(("RRULE:", "FREQ")) else f"FREQ={rule}"
    found = next_occurrence(Series(text, start.tzinfo or local_zone()), start, now)
    return found or start


def _on_the_rule(rule: str, due: datetime) -> datetime:
    """The first occurrence of `rule` at or after `due` (`due` when it has none)."""
    parts = _rule_parts(rule)
    days, monthdays = parts.pop("BYDAY", None), parts.pop("BYMONTHDAY", None)
    if not set(parts) - {"FREQ", "INTERVAL"} and (days is None) != (monthdays is None):
        if days is not None and RRULE_DAYS[due.weekday()] in days.split(","):
            return due  # a day of the rule's own: nothing to ask the engine (its parse costs ~0.3 ms)
        if monthdays is not None and str(due.day) in monthdays.split(","):
            return due
    from core.remind.series import first_on_rule  # noqa: PLC0415 - the one engine

    return first_on_rule(rule if rule.upper().startswith(("RRULE:", "FREQ")) else f"FREQ={rule}", due) or due


def _next_occurrence(c: _Clock, now: datetime, evening: bool) -> datetime:
    """A time of day without a day: the next time the clock shows it."""
    if c.exact or c.ampm or evening:
        hours = [_hour(c, with_day=False, evening=evening)]
    elif 1 <= c.h <= SMALL_HOURS_UNTIL:  # "at half past 4" said at night: the afternoon, not 04:30
        hours = [c.h + 12]
    else:  # a bare 12-hour reading: either half of the day
        hours = sorted({c.h % 12, c.h % 12 + 12})
    for offset in (0, 1):
        day = now.date() + timedelta(days=offset)
        for h in hours:
            cand = _at(day, h, c.m, now.tzinfo, c.s)
            if cand > now:
                return cand
    return _at(now.date() + timedelta(days=1), hours[0], c.m, now.tzinfo)


# -- the due field ---------------------------------------------------------------------------------


def parse_due(text: str, now: datetime, grammar: Grammar = GRAMMAR) -> datetime | None:
    """What a person typed in a due field: '' -> None; "in 10 min", "8 Dec 9am", "14:30",
    "amanhã às 15h", "2025-06-13 10:00", an ISO time with its offset. All of the text must say
    the time (words like "on", "the" may stand beside it); anything else raises InvalidInput with a
    sentence to show."""
    text = text.strip()
    if not text:
        return None
    try:
        iso = datetime.fromisoformat(text)
    except ValueError:
        iso = None
    if iso is not None:
        return iso if iso.tzinfo else iso.replace(tzinfo=now.tzinfo)
    when = find_when(text, now, grammar)
    if when is not None:
        rest = list(fold(text))
        for s, e in when.spans:
            rest[s:e] = " " * (e - s)
        if grammar.due_filler.match("".join(rest)):
            return when.due
    wrong = no_day(text, now, grammar)
    if wrong:
        raise InvalidInput(f"{wrong}: give a date the calendar has")
    raise InvalidInput(
        f"“{text}” is not a time I can read: try 2025-06-13 10:00, 14:30, tomorrow 9am or in 10 min"
    )


def parse_repeat(text: str, now: datetime, grammar: Grammar = GRAMMAR) -> str | None:
    """What a person typed for a repeat: "every 2 days", "todos os meses no dia 1", an RFC 5545
    rule as calendars write it, or "none" (None). Anything else raises InvalidInput."""
    if fold(text).strip() in grammar.words.none_words:
        return None
    if text.strip().upper().startswith(("FREQ=", "RRULE:")):
        return text.strip()
    when = find_when(text, now, grammar)
    if when is None or not when.rrule:
        raise InvalidInput(
            f"“{text}” is not a repeat I can read: try every day, every 2 weeks, every Monday, "
            "every month on the 1st, or none"
        )
    return when.rrule


# -- a title without the time words ----------------------------------------------------------------


def title_without(text: str, when: When | None, cue: re.Match | None, grammar: Grammar = GRAMMAR) -> str:
    """The text without the reminder cue and the time words: "remind me to stretch in 1 minute"
    -> "Stretch". Empty when nothing else is left."""
    rest = text_without(text, when, cue, grammar)
    return rest[:1].upper() + rest[1:] if rest else ""


def retimed(body: str, written_at: datetime | None, grammar: Grammar = GRAMMAR) -> str:
    """The body without the time words its old due time was written in, for a reminder whose due
    time is edited ("call Ana tomorrow at 3" -> "call Ana"): "" when nothing would change. The
    command line's edit and the window's save both ask this."""
    if written_at is None:
        return ""
    when = find_when(body, written_at, grammar)
    if when is None:
        return ""
    rest = text_without(body, when, grammar=grammar)
    return rest if rest and rest != body.strip() else ""


def text_without(
    text: str, when: When | None, cue: re.Match | None = None, grammar: Grammar = GRAMMAR
) -> str:
    """The text without its time words (and the cue, when given), the connectives they leave
    behind tidied away, in the person's own case: a reminder's body once its time is edited."""
    cut = sorted(list(when.spans) if when else [])
    if cue is not None:
        cut.append(cue.span())
    chars = list(text)
    for s, e in cut:
        for i in range(s, min(e, len(chars))):
            chars[i] = " "
    rest = "".join(chars)
    rest = re.sub(r"\s+([,.;:!?])", r"\1", re.sub(r"\s{2,}", " ", rest)).strip(" ,;:-–—")
    lead = grammar.title_lead.match(fold(rest)) if cue is not None else None
    rest = rest[lead.end() :] if lead else rest  # "remind me to call Ana": "call Ana"
    words = rest.split(" ")
    while words and (
        grammar.dangling.fullmatch(fold(words[-1].rstrip(".!?…"))) or not words[-1].strip(" ,;:-–—")
    ):
        words.pop()  # the connectives the time words leave behind ("call Ana at", "ligar à", "Christmas is.")
    return " ".join(words).strip(" ,;:-–—")
