"""Dates and times in what a person types -- capture text and the due field -- in five languages.

`find_when(text, now)` -> When (due, rrule, the words that said it) or None. The rules, each in
the table test (tests/core/test_when.py):

- "in 1 minute", "in an hour", "em 10 minutos", "in 2 Stunden": now plus that, to the minute.
- "next Tuesday" is the first Tuesday after today (said on a Tuesday: a week later); a plain
  "Tuesday" is today if the time is still ahead, else next week's.
- A zero-padded "06:31", an hour past 12, "15h", "9 Uhr": that hour on a 24-hour clock.
- A bare hour ("at 9", "3:30") without a day is its next occurrence on a 12-hour clock (at 20:30,
  "at 9" is 21:00), but 1-6 is never the small hours ("at half past 4" is 16:30); with a day,
  1-7 are the afternoon ("tomorrow at 3" is 15:00), 8-12 the morning; "pm", "da tarde",
  "abends", "every evening", "tomorrow morning" say which.
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
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta

from core.model import InvalidInput
from core.when import words as W

DEFAULT_HOUR = 9  # a day without a time is due at 09:00
TONIGHT_HOUR = 20  # "tonight" without a time
AFTERNOON_UNTIL = 7  # with a day named, a bare hour 1..7 is the afternoon ("tomorrow at 3": 15:00)
SMALL_HOURS_UNTIL = 6  # without one, a bare 1..6 is too: nobody means 04:30 without saying "am"

_B = r"(?<![\w])"  # word edges on the folded text
_E = r"(?![\w])"

_NUM = rf"(?:\d+(?:[.,]\d+)?|{W.alt(W.NUMBERS)})"
_MONTH = W.alt(W.MONTHS)
_DAY = W.alt(W.WEEKDAYS)
_ORD = r"(?:st|nd|rd|th|º|ª|o|a|er|ème|eme|\.)?"


def _re(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.I)


RELATIVE = _re(
    rf"{_B}(?:{W.alt(W.IN_WORDS)})\s+(?:(?P<half>{W.alt(W.HALF_HOUR)})|"
    rf"(?P<n>{_NUM})\s*(?P<unit>{W.alt(W.UNITS)})){_E}"
)
ISO_DATE = _re(r"(?<![\d-])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?![\d-])")
DOTTED_DATE = _re(r"(?<![\w.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4}|\d{2})?(?![\d])")
DAY_MONTH = _re(
    rf"{_B}(?:(?:on|the|el|le|am|o|no|dia|day)\s+)*(?P<d>\d{{1,2}}){_ORD}\s*(?:de\s+|of\s+|-\s*)?"
    rf"(?P<mon>{_MONTH})\.?(?:,?\s*(?:de\s+)?(?P<y>\d{{4}}))?{_E}"
)
MONTH_DAY = _re(
    rf"{_B}(?:on\s+)?(?P<mon>{_MONTH})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?(?![\d:])"
    rf"(?:,?\s*(?P<y>\d{{4}}))?{_E}"
)
MONTHDAY = _re(
    rf"{_B}(?:(?:on\s+)?the\s+(?P<a>\d{{1,2}})(?:st|nd|rd|th)|(?:no\s+|el\s+)?dia\s+(?P<b>\d{{1,2}})"
    rf"|am\s+(?P<c>\d{{1,2}})\.|le\s+(?P<d>\d{{1,2}})(?:er)?(?!\s*(?:h|:|\d))){_E}"
)
NEXT_PRE, LAST_PRE, THIS_PRE = (W.alt(W.NEXT_PRE), W.alt(W.LAST_PRE), W.alt(W.THIS_PRE))
ON = r"on|na|no|a|as|el|los|am|le|ce|de|do|da"
WEEKDAY = _re(
    rf"{_B}(?:(?P<pre>{NEXT_PRE}|{LAST_PRE}|{THIS_PRE}|{ON})\s+)?(?P<day>{_DAY})(?P<feira>-feira)?"
    rf"(?:\s+(?P<post>{W.alt(W.NEXT_POST)}|{W.alt(W.LAST_POST)}))?{_E}"
)
AFTER_TOMORROW = _re(rf"{_B}(?:{W.alt(W.AFTER_TOMORROW)}){_E}")
TOMORROW = _re(rf"{_B}(?<!la\s)(?<!am\s)(?<!heute\s)(?<!guten\s)(?:{W.alt(W.TOMORROW)}){_E}")
TONIGHT = _re(rf"{_B}(?:{W.alt(W.TONIGHT)}){_E}")
TODAY = _re(rf"{_B}(?:{W.alt(W.TODAY)}){_E}")
NEXT_WEEK = _re(
    rf"{_B}(?:(?:{NEXT_PRE})\s+(?:{W.alt(W.WEEK)})|(?:a\s+|la\s+)?(?:{W.alt(W.WEEK)})\s+(?:{W.alt(W.NEXT_POST)})){_E}"
)
WEEKEND = _re(
    rf"{_B}(?:(?P<pre>{NEXT_PRE}|{THIS_PRE}|at the|on the|over the|this|no|el|este|am|ce|le)\s+)?"
    rf"(?:{W.alt(W.WEEKEND)})(?:\s+(?P<post>{W.alt(W.NEXT_POST)}))?{_E}"
)
NEXT_MONTH = _re(
    rf"{_B}(?:(?:{NEXT_PRE})\s+(?:{W.alt(W.MONTH)})|(?:o\s+|el\s+|le\s+)?(?:{W.alt(W.MONTH)})\s+(?:{W.alt(W.NEXT_POST)})){_E}"
)

WEEKDAY_OF = (MO, TU, WE, TH, FR, SA, SU)
_PARTS = W.alt(W.PARTS)
_AMPM = r"(?P<ap>a\.?m\.?|p\.?m\.?)"
CLOCK_HM = _re(
    rf"{_B}(?:(?:{W.alt(W.AT)})\s+)?(?P<h>\d{{1,2}})\s*(?P<sep>[:.h])\s*(?P<m>\d{{2}})(?!\d)\s*"
    rf"(?:{_AMPM}(?!\w)|(?P<uhr>uhr){_E}|(?:\s*(?P<part>{_PARTS}){_E}))?"
)
CLOCK_H_SUFFIX = _re(
    rf"{_B}(?:(?:{W.alt(W.AT)})\s+)?(?P<h>\d{{1,2}})\s*(?:(?P<hh>h){_E}|(?P<uhr>uhr){_E}|{_AMPM}(?!\w))"
    rf"(?:\s*(?P<part>{_PARTS}){_E})?"
)
CLOCK_AT = _re(
    rf"{_B}(?P<at>{W.alt(W.AT)})\s+(?P<h>\d{{1,2}})(?![\d:.,/])(?!\s*(?:%|st|nd|rd|th|kg|km|"
    rf"{W.alt(W.UNITS)}|people|persons|pessoas|personas|of|de\s+(?:{_MONTH})){_E})"
    rf"(?:\s*(?:o'?clock|horas)?)(?:\s*(?P<part>{_PARTS}){_E})?"
)
# "half past 4", "quarter to 6", "20 past 3", "4 e meia", "6 menos cuarto", "halb 6", "6h moins
# le quart", "viertel nach 4": a time of day in words (read on the 12-hour clock like "at 4")
_HOUR_WORD = rf"(?:\d{{1,2}}|{W.alt(W.HOUR_WORDS)})"
_MINUTE_WORD = rf"(?:{W.alt(W.MINUTE_WORDS)}|\d{{1,2}})"
_MARK = rf"(?:\s*(?:{W.alt(W.HOUR_MARKS)}))?"
CLOCK_PHRASE = _re(
    rf"{_B}(?:(?P<at>{W.alt(W.AT)})\s+)?(?:"
    rf"(?P<m1>{_MINUTE_WORD})\s+(?:minutes?\s+|minutos?\s+|minuten\s+)?"
    rf"(?P<dir>{W.alt(W.MINUTES_PAST)}|{W.alt(W.MINUTES_TO)})\s+(?:(?:as|a|las|la)\s+)?(?P<h1>{_HOUR_WORD}){_MARK}"
    rf"|(?P<h2>{_HOUR_WORD}){_MARK}\s+(?P<join>{W.alt(W.HOUR_AND)}|{W.alt(W.HOUR_LESS)})\s+"
    rf"(?P<m2>{_MINUTE_WORD})(?:\s+minutos?)?"
    rf"|(?P<before>{W.alt(W.BEFORE_HOUR)})\s+(?P<h3>{_HOUR_WORD})(?:\s*uhr)?"
    rf"){_E}(?:\s*(?:(?P<part>{_PARTS}){_E}|{_AMPM}(?!\w)))?"  # "am Nachmittag" before "am"
)
CLOCK_WORD = _re(
    rf"{_B}(?:(?:at|ao|a|al|a la|um|vers|a\s+la)\s+)?(?P<w>{W.alt(W.NOON)}|{W.alt(W.MIDNIGHT)}){_E}"
)
_PART_ADVERBS = frozenset({"morgens", "fruh", "nachmittags", "abends"})  # a part of day on its own
PART_OF_DAY = _re(rf"{_B}(?:(?:at|in the|this|de|pela|por la|am|le|ce|du)\s+)?(?P<part>{_PARTS}){_E}")

# "every morning at 8", "todas as noites", "jeden Abend": every day, at that part of it
REC_PART = _re(rf"{_B}(?P<w>{W.alt(W.EVERY_PART)}){_E}")
# "the last day of the month", "o último dia de cada mês", "am letzten Freitag des Monats",
# "le premier lundi du mois": a day counted in its month
_ORDINAL = W.alt(W.MONTH_ORDINALS)
MONTH_POSITION = _re(
    rf"{_B}(?:(?P<every>{W.alt(W.EVERY_MONTH)}),?\s+|(?P<each>{W.alt(W.EVERY)})\s+)?"
    rf"(?:(?:on|the|o|a|no|na|el|la|am|der|die|le|au)\s+)*"
    rf"(?P<ord>{_ORDINAL})\s+(?:(?P<day>{_DAY})(?:-feira)?|(?P<dayword>{W.alt(W.MONTH_DAY_WORDS)}))"
    rf"(?:\s+(?P<of>{W.alt(W.OF_THE_MONTH)}))?{_E}"
)
# "every other Wednesday", "jeden zweiten Mittwoch", "tous les deux mercredis", "un mercredi sur
# deux", "quarta sim, quarta não": every second week on that day
REC_OTHER_WEEKDAY = _re(
    rf"{_B}(?:(?:{W.alt(W.EVERY_OTHER_DAY)})\s+(?P<a>{_DAY})(?:-feira)?s?"
    rf"|un\s+(?P<b>{_DAY})\s+sur\s+deux|(?P<c>{_DAY})(?:-feira)?\s+sim,?\s+(?:{_DAY})(?:-feira)?\s+nao){_E}"
)
EVERY, EVERY_OTHER = W.alt(W.EVERY), W.alt(W.EVERY_OTHER)
_UNIT_NAMES = {
    "day": ("day", "days", "dia", "dias", "tag", "tage", "jour", "jours"),
    "week": ("week", "weeks", "semana", "semanas", "woche", "wochen", "semaine", "semaines"),
    "month": ("month", "months", "mes", "meses", "monat", "monate", "mois"),
    "year": ("year", "years", "ano", "anos", "jahr", "jahre", "an", "ans", "annee", "annees"),
}
_FREQ = {"day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"}
_UNIT_RE = W.alt([w for ws in _UNIT_NAMES.values() for w in ws])
REC_INTERVAL = _re(
    rf"{_B}(?:(?P<other>{EVERY_OTHER})|(?:{EVERY})\s+(?P<n>\d+|{W.alt(W.NUMBERS)}))\s+"
    rf"(?P<unit>{_UNIT_RE}){_E}"
)
_DAYS_PLURAL = rf"(?:{_DAY})(?:-feiras?)?s?"
REC_WEEKDAYS = _re(
    rf"{_B}(?:(?:{EVERY})|as|aos|los|on)\s+(?P<days>{_DAYS_PLURAL}(?:\s*(?:,|and|e|y|und|et)\s*{_DAYS_PLURAL})*){_E}"
)
REC_ADVERB = _re(
    rf"{_B}(?P<days>(?:{W.alt(W.WEEKDAY_ADVERBS)})(?:\s*(?:,|und)\s*(?:{W.alt(W.WEEKDAY_ADVERBS)}))*){_E}"
)
REC_MONTHDAY = _re(
    rf"{_B}(?:(?:{EVERY})\s+(?:month\s+on\s+the\s+)?(?P<a>\d{{1,2}})(?:st|nd|rd|th)(?:\s+of\s+(?:the|every|each)\s+month)?"
    rf"|(?:on\s+)?the\s+(?P<b>\d{{1,2}})(?:st|nd|rd|th)\s+of\s+(?:every|each)\s+month"
    rf"|(?:todos\s+os\s+meses|todo\s+mes|cada\s+mes|jeden\s+monat|tous\s+les\s+mois|every\s+month|monthly),?\s+"
    rf"(?:(?:no|el|am|le|on\s+the)\s+)?(?:dia\s+|day\s+)?(?P<c>\d{{1,2}})(?:st|nd|rd|th|er|\.)?"
    rf"|(?:(?:no|el|o)\s+)?dia\s+(?P<d>\d{{1,2}})\s+de\s+(?:cada|todos\s+os)\s+(?:mes|meses)"
    rf"|(?:todo\s+)?dia\s+(?P<e>\d{{1,2}})\s+(?:de\s+)?(?:cada\s+mes|todos\s+os\s+meses)"
    rf"|am\s+(?P<f>\d{{1,2}})\.\s+(?:jedes|jeden)\s+monats"
    rf"|le\s+(?P<g>\d{{1,2}})(?:er)?\s+(?:de\s+)?chaque\s+mois"
    rf"){_E}"
)
REC_EVERY_UNIT = _re(rf"{_B}(?:{EVERY})\s+(?P<unit>{_UNIT_RE}){_E}")
REC_WORD = _re(rf"{_B}(?P<w>{W.alt(W.FREQ_WORDS)}){_E}")
REC_WEEKDAYS_ONLY = _re(rf"{_B}(?:{W.alt(W.WEEKDAYS_EVERY)}){_E}")


@dataclass
class When:
    due: datetime
    rrule: str | None
    spans: list[tuple[int, int]] = field(default_factory=list)  # where the text said it
    explicit_day: bool = False
    explicit_time: bool = False
    text: str = ""

    @property
    def words(self) -> str:
        return " ".join(self.text[s:e] for s, e in sorted(self.spans))


@dataclass
class _Rec:
    rule: str
    first: date | None  # the first day it falls on, when the words say one
    part: str | None = None  # "every morning": the part of the day (a PARTS word)


@dataclass
class _Clock:
    h: int
    m: int
    exact: bool  # read on a 24-hour clock as written
    ampm: str | None  # "am" | "pm" from the words around it
    padded: bool = False  # "09:00", "09h": written on a 24-hour clock for sure

    def hint(self, part: str) -> None:
        """A part of the day said beside it ("tomorrow morning at 8", "tous les soirs à 9h")
        says which half of the day an hour up to 12 means (not "09h", not 15:00)."""
        if self.ampm is None and 1 <= self.h <= 12 and not self.padded:
            self.ampm = _ampm(None, part)


class _Text:
    """The folded text with the parts already read blanked out, so no word is read twice."""

    def __init__(self, text: str):
        self.original = text
        self.folded = W.fold(text)
        self.spans: list[tuple[int, int]] = []

    def search(self, pattern: re.Pattern, accept=None):
        for m in pattern.finditer(self.folded):
            if accept is None or accept(m):
                return m
        return None

    def take(self, m: re.Match) -> None:
        s, e = m.span()
        while s < e and self.folded[s].isspace():
            s += 1
        self.spans.append((s, e))
        self.folded = self.folded[:s] + " " * (e - s) + self.folded[e:]

    def capital(self, i: int) -> bool:
        return self.original[i : i + 1].isupper()


def _num(word: str) -> float:
    w = W.fold(word).strip()
    if re.fullmatch(r"\d+(?:[.,]\d+)?", w):
        return float(w.replace(",", "."))
    return float(W.NUMBERS.get(re.sub(r"\s+", " ", w), 1))


def _at(day: date, h: int, m: int, tz) -> datetime:
    return datetime.combine(day, time(h % 24, m), tzinfo=tz)


def _next_weekday(today: date, wd: int, *, strictly_after: bool) -> date:
    delta = (wd - today.weekday()) % 7
    if delta == 0 and strictly_after:
        delta = 7
    return today + timedelta(days=delta)


def _next_monthday(today: date, day: int) -> date:
    y, m = today.year, today.month
    for _ in range(14):
        if day <= calendar.monthrange(y, m)[1] and date(y, m, day) >= today:
            return date(y, m, day)
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return today


def _month_ok(t: _Text, m: re.Match, group: str = "mon", *, with_day: bool) -> bool:
    """A month word beside a day number is a month; alone, an ambiguous one ("may", "march",
    "Marco") only when capitalised and not "May" opening a sentence."""
    word = m.group(group)
    if with_day or word not in W.AMBIGUOUS_MONTHS:
        return True
    if word == "may" and not re.search(r"\w\W*$", t.original[max(0, m.start(group) - 20) : m.start(group)]):
        return False
    return t.capital(m.start(group))


def _weekday_ok(t: _Text, m: re.Match) -> bool:
    day = m.group("day")
    if day not in W.AMBIGUOUS_WEEKDAYS:
        return True
    return bool(m.group("pre") or m.group("post") or m.group("feira")) or (
        len(day) == 3 and t.capital(m.start("day"))
    )


# -- the pieces ------------------------------------------------------------------------------------


def _month_position(m: re.Match, today: date) -> tuple[str, date]:
    """(the RRULE part, the next such day from today) of "the last Friday of the month"."""
    n = W.MONTH_ORDINALS[m.group("ord")]
    if m.group("day"):
        wd = W.WEEKDAYS[m.group("day").removesuffix("-feira")]
        step = relativedelta(day=31 if n < 0 else 1, weekday=WEEKDAY_OF[wd](n))
        rule = f"BYDAY={n}{W.RRULE_DAYS[wd]}"
    else:
        step = relativedelta(day=31) if n < 0 else relativedelta(day=n)
        rule = f"BYMONTHDAY={n}"
    first = today + step
    if first < today:
        first = today + relativedelta(months=1) + step
    return rule, first


def _recurrence(t: _Text, now: datetime) -> _Rec | None:
    today = now.date()
    m = t.search(REC_PART)
    if m:
        t.take(m)
        return _Rec("FREQ=DAILY", None, W.EVERY_PART[re.sub(r"\s+", " ", m.group("w"))])
    m = t.search(
        MONTH_POSITION,
        accept=lambda m: bool(
            m.group("every") or (m.group("of") and (m.group("each") or m.group("of") in W.OF_EVERY_MONTH))
        ),
    )
    if m:
        t.take(m)
        rule, first = _month_position(m, today)
        return _Rec(f"FREQ=MONTHLY;{rule}", first)
    m = t.search(REC_OTHER_WEEKDAY)
    if m:
        t.take(m)
        wd = W.WEEKDAYS[m.group("a") or m.group("b") or m.group("c")]
        first = _next_weekday(today, wd, strictly_after=False)
        return _Rec(f"FREQ=WEEKLY;INTERVAL=2;BYDAY={W.RRULE_DAYS[wd]}", first)
    m = t.search(REC_MONTHDAY)
    if m:
        day = int(next(g for g in m.groups() if g))
        if 1 <= day <= 31:
            t.take(m)
            return _Rec(f"FREQ=MONTHLY;BYMONTHDAY={day}", _next_monthday(today, day))
    m = t.search(REC_WEEKDAYS_ONLY)
    if m:
        t.take(m)
        wd = today.weekday()
        first = today if wd < 5 else _next_weekday(today, 0, strictly_after=True)
        return _Rec("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", first)
    m = t.search(REC_INTERVAL)
    if m:
        unit = next(u for u, ws in _UNIT_NAMES.items() if m.group("unit") in ws)
        n = 2 if m.group("other") else int(_num(m.group("n")))
        t.take(m)
        return _Rec(f"FREQ={_FREQ[unit]}" + (f";INTERVAL={n}" if n > 1 else ""), None)
    m = t.search(
        REC_WEEKDAYS,
        accept=lambda m: (
            not m.group(0).startswith(("as ", "aos ", "los ", "on ")) or re.search(r"s\b", m.group("days"))
        ),
    )
    if m:
        found = re.findall(_DAY, m.group("days"))
        days = sorted({W.WEEKDAYS[d] for d in found})
        t.take(m)
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec("FREQ=WEEKLY;BYDAY=" + ",".join(W.RRULE_DAYS[d] for d in days), first)
    m = t.search(REC_ADVERB)
    if m:
        days = sorted({W.WEEKDAY_ADVERBS[d] for d in re.findall(W.alt(W.WEEKDAY_ADVERBS), m.group("days"))})
        t.take(m)
        first = min(_next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec("FREQ=WEEKLY;BYDAY=" + ",".join(W.RRULE_DAYS[d] for d in days), first)
    m = t.search(REC_EVERY_UNIT)
    if m:
        unit = next(u for u, ws in _UNIT_NAMES.items() if m.group("unit") in ws)
        t.take(m)
        return _Rec(f"FREQ={_FREQ[unit]}", None)
    m = t.search(REC_WORD)
    if m:
        t.take(m)
        return _Rec("FREQ=" + W.FREQ_WORDS[re.sub(r"\s+", " ", m.group("w"))], None)
    return None


def _relative(t: _Text, now: datetime) -> tuple[datetime, bool] | None:
    """(the moment, whether it is to the minute) of "in 10 minutes", "in 3 days"..."""
    m = t.search(RELATIVE)
    if not m:
        return None
    t.take(m)
    if m.group("half"):
        return now + timedelta(minutes=30), True
    n = _num(m.group("n"))
    kind, amount = W.UNITS[m.group("unit")]
    if kind in ("seconds", "minutes"):
        return now + timedelta(**{kind: n * amount}), True
    whole = int(n)
    step = {
        "days": relativedelta(days=whole * amount),
        "months": relativedelta(months=whole),
        "years": relativedelta(years=whole),
    }[kind]
    return datetime.combine(now.date() + step, time(0), tzinfo=now.tzinfo), False


def _date(t: _Text, now: datetime) -> tuple[date, bool] | None:
    """(a calendar date, whether a year was given) written in the text."""
    today = now.date()
    numeric, named = (lambda m: int(m.group("m"))), (lambda m: W.MONTHS[m.group("mon")])
    with_month = lambda m: _month_ok(t, m, with_day=True)  # noqa: E731
    for pattern, month_of, accept in (
        (ISO_DATE, numeric, None),
        (DOTTED_DATE, numeric, None),
        (DAY_MONTH, named, with_month),
        (MONTH_DAY, named, with_month),
    ):
        m = t.search(pattern, accept=accept)
        if m:
            y = m.group("y")
            year = int(y) + (2000 if len(y) == 2 else 0) if y else today.year
            try:
                d = date(year, month_of(m), int(m.group("d")))
            except ValueError:
                continue
            t.take(m)
            if not y and d < today:
                d = d.replace(year=d.year + 1)
            return d, bool(y)
    m = t.search(MONTH_POSITION, accept=lambda m: bool(m.group("of")))
    if m:
        t.take(m)
        return _month_position(m, today)[1], False
    m = t.search(MONTHDAY)
    if m:
        day = int(next(g for g in m.groups() if g))
        if 1 <= day <= 31:
            t.take(m)
            return _next_monthday(today, day), False
    return None


def _day_word(t: _Text, now: datetime) -> tuple[date, str] | None:
    today = now.date()
    for pattern, delta, what in (
        (AFTER_TOMORROW, 2, "day"),
        (TONIGHT, 0, "tonight"),
        (TOMORROW, 1, "day"),
        (TODAY, 0, "day"),
    ):
        m = t.search(pattern)
        if m:
            t.take(m)
            return today + timedelta(days=delta), what
    m = t.search(WEEKDAY, accept=lambda m: _weekday_ok(t, m))
    if m:
        t.take(m)
        wd = W.WEEKDAYS[m.group("day")]
        pre, post = (m.group("pre") or ""), (m.group("post") or "")
        nxt = bool(re.fullmatch(NEXT_PRE, pre) or re.fullmatch(W.alt(W.NEXT_POST), post))
        return _next_weekday(today, wd, strictly_after=nxt), "next-weekday" if nxt else "weekday"
    m = t.search(NEXT_WEEK)
    if m:
        t.take(m)
        return _next_weekday(today, 0, strictly_after=True), "day"
    m = t.search(WEEKEND)
    if m:
        nxt = bool(re.fullmatch(NEXT_PRE, m.group("pre") or "") or m.group("post"))
        t.take(m)
        sat = _next_weekday(today, 5, strictly_after=False)
        if today.weekday() == 6:
            sat = today  # said on a Sunday: the weekend is today
        return (sat + timedelta(days=7) if nxt else sat), "day"
    m = t.search(NEXT_MONTH)
    if m:
        t.take(m)
        return (today.replace(day=1) + relativedelta(months=1)), "day"
    return None


def _phrase_ok(m: re.Match) -> bool:
    """A clock phrase with a number for the minutes ("20 past 3") is a time only with "at", am/pm,
    a part of the day or an hour mark ("5 to 6 people" is not; "dia 5 e 10" is not)."""
    minutes = m.group("m1") or m.group("m2")
    hour = m.group("h1") or m.group("h2") or m.group("h3")
    if hour.isdigit() and not 0 < int(hour) < 24:
        return False
    if minutes and minutes.isdigit():
        marked = bool(re.search(rf"\d\s*(?:{W.alt(W.HOUR_MARKS)})\s", m.group(0)))
        counted = bool(re.search(r"\bminut", m.group(0)))  # "15 minuten vor 12"
        return int(minutes) < 60 and bool(
            m.group("at") or m.group("ap") or m.group("part") or marked or counted
        )
    return True


def _phrase_clock(m: re.Match) -> _Clock:
    """ "half past 4" -> 4:30, "quarter to 6" -> 5:45, "halb 6" -> 5:30 (on the 12-hour clock
    unless the hour is past 12)."""

    def number(word: str, table: dict[str, int]) -> int:
        return int(word) if word.isdigit() else table[re.sub(r"\s+", " ", word)]

    if m.group("h3"):
        h, mi = number(m.group("h3"), W.HOUR_WORDS) - 1, W.BEFORE_HOUR[re.sub(r"\s+", " ", m.group("before"))]
    elif m.group("h1"):
        h, mi = number(m.group("h1"), W.HOUR_WORDS), number(m.group("m1"), W.MINUTE_WORDS)
        if re.fullmatch(W.alt(W.MINUTES_TO), m.group("dir")):
            h, mi = h - 1, 60 - mi
    else:
        h, mi = number(m.group("h2"), W.HOUR_WORDS), number(m.group("m2"), W.MINUTE_WORDS)
        if re.fullmatch(W.alt(W.HOUR_LESS), m.group("join")):
            h, mi = h - 1, 60 - mi
    h = 12 if h == 0 else h
    ap = _ampm(m.group("ap"), m.group("part"))
    return _Clock(h, mi % 60, h > 12 and ap is None, ap)


def _clock(t: _Text) -> _Clock | None:
    """The time of day: a clock ("14:30", "at 9", "half past 4", noon) or a part of the day ("in
    the morning", "tomorrow evening"), the part saying which half of the day a clock means."""
    taken = len(t.spans)
    clock = _numeric_clock(t)
    part = _part_of_day(t, t.spans[taken][0] if clock is not None and len(t.spans) > taken else None)
    if clock is None:
        return _Clock(W.PARTS[part], 0, True, None) if part else None
    if part:
        clock.hint(part)
    return clock


def _part_of_day(t: _Text, clock_at: int | None) -> str | None:
    """A part of the day said with its preposition ("in the morning"), as an adverb ("abends"), or
    beside other time words ("tomorrow morning", "morning at 8")."""

    def beside_time_words(m: re.Match) -> bool:
        s, e = m.span("part")
        if m.group("part") not in W.BARE_PARTS:
            return False
        after_time = any(not t.folded[end:s].strip() for _, end in t.spans)
        before_clock = clock_at is not None and not t.folded[e:clock_at].strip()
        return after_time or before_clock

    m = t.search(
        PART_OF_DAY,
        accept=lambda m: (
            " " in m.group(0).strip() or m.group("part") in _PART_ADVERBS or beside_time_words(m)
        ),
    )
    if not m:
        return None
    t.take(m)
    return re.sub(r"\s+", " ", m.group("part"))


def _numeric_clock(t: _Text) -> _Clock | None:
    m = t.search(CLOCK_PHRASE, accept=_phrase_ok)
    if m:
        t.take(m)
        return _phrase_clock(m)
    m = t.search(
        CLOCK_HM,
        accept=lambda m: (
            int(m.group("h")) < 24
            and int(m.group("m")) < 60
            and not (
                m.group("sep") == "."
                and not (m.group("uhr") or m.group("ap") or m.group(0).strip().startswith(tuple(W.AT)))
            )
        ),
    )
    if m:
        t.take(m)
        h, mi = int(m.group("h")), int(m.group("m"))
        ap = _ampm(m.group("ap"), m.group("part"))
        exact = (
            m.group("h").startswith("0") or h >= 13 or h == 0 or m.group("sep") == "h" or bool(m.group("uhr"))
        ) and ap is None
        return _Clock(h, mi, exact, ap, padded=m.group("h").startswith("0"))
    m = t.search(CLOCK_H_SUFFIX, accept=lambda m: int(m.group("h")) < 24)
    if m:
        t.take(m)
        h = int(m.group("h"))
        ap = _ampm(m.group("ap"), m.group("part"))
        if m.group("ap") and not 1 <= h <= 12:
            return None
        return _Clock(h, 0, ap is None, ap, padded=m.group("h").startswith("0"))
    m = t.search(
        CLOCK_AT,
        accept=lambda m: (
            int(m.group("h")) < 24 and (m.group("at") not in ("a", "as") or t.original[m.start("at")] in "àÀ")
        ),
    )
    if m:
        h = int(m.group("h"))
        t.take(m)
        ap = _ampm(None, m.group("part"))
        return _Clock(h, 0, h >= 13 or h == 0, ap)
    m = t.search(CLOCK_WORD)
    if m:
        t.take(m)
        return _Clock(12 if m.group("w") in W.NOON else 0, 0, True, None)
    return None


def _ampm(ap: str | None, part: str | None) -> str | None:
    if ap:
        return "pm" if ap.lower().startswith("p") else "am"
    if part:
        part = re.sub(r"\s+", " ", part)
        return "pm" if part in W.PM_PARTS else "am" if part in W.AM_PARTS else None
    return None


def _hour(c: _Clock, *, with_day: bool, evening: bool) -> int:
    """The 24-hour hour of a clock read with a day (`with_day`) or tonight (`evening`)."""
    if c.ampm == "pm":
        return c.h % 12 + 12
    if c.ampm == "am":
        return c.h % 12
    if c.exact:
        return c.h
    if evening and c.h < 12:
        return c.h + 12
    if with_day and 1 <= c.h <= AFTERNOON_UNTIL:
        return c.h + 12
    return c.h


def find_when(text: str, now: datetime) -> When | None:
    """The due time (and recurrence) the text asks for, or None."""
    t = _Text(text)
    tz = now.tzinfo
    rec = _recurrence(t, now)
    rel = _relative(t, now)
    written = _date(t, now)
    word = _day_word(t, now) if written is None else None
    clock = _clock(t)
    if not (rec or rel or written or word or clock):
        return None
    out = When(
        due=now,
        rrule=rec.rule if rec else None,
        spans=t.spans,
        text=text,
        explicit_day=bool(rel or written or word or (rec and rec.first)),
        explicit_time=clock is not None or bool(rel and rel[1]),
    )
    if rel and rel[1]:  # to the minute: "in 10 minutes"
        out.due = rel[0]
        return out
    day = rel[0].date() if rel else written[0] if written else word[0] if word else rec.first if rec else None
    evening = bool(word and word[1] == "tonight")
    if rec and rec.part:  # "every evening": that part's hour, and the half of the day a clock means
        if clock is None:
            clock = _Clock(W.PARTS[rec.part], 0, True, None)
        else:
            clock.hint(rec.part)
    if clock is None:
        hour, minute = (TONIGHT_HOUR if evening else DEFAULT_HOUR), 0
        due = _at(day or now.date(), hour, minute, tz)
        if day is None and due <= now:
            due += timedelta(days=1)
    elif day is None:
        due = _next_occurrence(clock, now, evening)
    else:
        due = _at(day, _hour(clock, with_day=True, evening=evening), clock.m, tz)
    if word and word[1] == "weekday" and due <= now:
        due += timedelta(days=7)  # "Thu 9:30" said on Thursday at 10: next Thursday
    if rec and due <= now:  # the first occurrence still to come
        due = _next_of(rec.rule, due, now)
    if out.rrule is None and written and W.YEARLY_WORDS.search(W.fold(text)):
        out.rrule = "FREQ=YEARLY"
    out.due = due
    return out


def _next_of(rule: str, start: datetime, now: datetime) -> datetime:
    from core.remind.series import Series, local_zone, next_occurrence  # noqa: PLC0415 (the one engine)

    text = rule if rule.upper().startswith(("RRULE:", "FREQ")) else f"FREQ={rule}"
    found = next_occurrence(Series(text, start.tzinfo or local_zone()), start, now)
    return found or start


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
            cand = _at(day, h, c.m, now.tzinfo)
            if cand > now:
                return cand
    return _at(now.date() + timedelta(days=1), hours[0], c.m, now.tzinfo)


# -- the due field ---------------------------------------------------------------------------------

# words that may stand beside a time in a due field without saying anything more
_FILLER = re.compile(r"^(?:on|at|the|of|o|a|as|de|do|da|el|la|las|um|am|le|a|,|-|\s)*$", re.I)


def parse_due(text: str, now: datetime) -> datetime | None:
    """What a person typed in a due field: '' -> None; "in 10 min", "8 Dec 9am", "14:30",
    "amanhã às 15h", "2025-06-13 10:00", an ISO time with its offset. All of the text must say
    the time; anything else raises InvalidInput with a sentence to show."""
    text = text.strip()
    if not text:
        return None
    try:
        iso = datetime.fromisoformat(text)
    except ValueError:
        iso = None
    if iso is not None:
        return iso if iso.tzinfo else iso.replace(tzinfo=now.tzinfo)
    when = find_when(text, now)
    if when is not None:
        rest = list(W.fold(text))
        for s, e in when.spans:
            rest[s:e] = " " * (e - s)
        if _FILLER.match("".join(rest)):
            return when.due
    raise InvalidInput(
        f"“{text}” is not a time I can read: try 2025-06-13 10:00, 14:30, tomorrow 9am or in 10 min"
    )


# -- a title without the time words ----------------------------------------------------------------

_LEAD = re.compile(r"^\s*(?:to|de|para|que|a|zu|dass|de\s+|d')\s+", re.I)
_DANGLING_WORDS = re.compile(
    r"at|on|in|by|for|the|this|next|às|as|à|a|ao|em|no|na|de|do|da|para|"
    r"el|la|las|los|en|um|am|im|zu|le|dans|pour|ce|cette|and|e|y|und|et|"
    r"before|by|until|till|from|after|antes|ate|até|desde|hasta|del|bis|vor|ab|zum|dem|avant|au|"
    r"jusqu'au|jusqu’au|depuis|dès",
    re.I,
)


def title_without(text: str, when: When | None, cue: re.Match | None) -> str:
    """The text without the reminder cue and the time words: "remind me to stretch in 1 minute"
    -> "Stretch". Empty when nothing else is left."""
    rest = text_without(text, when, cue)
    return rest[:1].upper() + rest[1:] if rest else ""


def text_without(text: str, when: When | None, cue: re.Match | None = None) -> str:
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
    rest = _LEAD.sub("", rest, count=1) if cue is not None else rest
    words = rest.split(" ")
    while words and (_DANGLING_WORDS.fullmatch(words[-1]) or not words[-1].strip(" ,;:-–—")):
        words.pop()  # the connectives the time words leave behind ("call Ana at", "ligar à")
    return " ".join(words).strip(" ,;:-–—")
