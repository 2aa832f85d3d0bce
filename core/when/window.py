"""A question's time words as a date window: "next week", "since Monday", "so far this month",
"the first half of March", "Monday to Sunday", "over Christmas", "Labor Day weekend last year",
"amanhã", "la semana pasada", "bis Ende des Monats", "samedi dernier" ...

`find_window(question, now)` -> (TimeWindow | None, the question without its time words). The
window says which dates it is about: due dates ("what's on", anything ahead), capture dates
("what did I note down"), done dates ("what did I get done"), or any of them. A window around an
event ("the week Mãe moved in", "while we were in Toronto") carries the
event's words in `anchor`; recall finds the event and places the window (`TimeWindow.around`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from functools import cache, cached_property
from typing import Any

from dateutil.relativedelta import relativedelta

from core.model import Kind, Neuron
from core.remind import due_between
from core.when.holidays import weekend_of
from core.when.language import fold
from core.when.languages import en
from core.when.patterns import GRAMMAR, Grammar, group, group_start
from core.when.spoken import say_window

# An event's window: the week around it (3 days before, 4 after), its day, its weekend, the days
# it lasted, from its day until now ("since we moved"). ("after X" is not one: measured, the
# event's words find the wrong X too often.)
ANCHOR_BEFORE_DAYS = {"week": 3, "day": 0, "weekend": 1, "while": 1, "since": 0}
ANCHOR_AFTER_DAYS = {"week": 4, "day": 1, "weekend": 2, "while": 3, "since": 1}


@dataclass(frozen=True)
class TimeWindow:
    start: datetime
    end: datetime  # exclusive
    label: str  # the words that made it
    dates: str  # "due" | "created" | "done" | "any"
    overdue: bool = False
    anchor: str | None = None  # the event's words, when the window is around an event
    anchor_kind: str | None = None  # "week" | "day" | "weekend" | "while" | "since"
    named: str | None = None  # a holiday's or season's name: a topic word too

    def holds(self, when: datetime | None) -> bool:
        return when is not None and self.start <= when < self.end

    def due_of(self, neuron: Neuron) -> datetime | None:
        """When a reminder is due inside the window ("next week": Monday's occurrence of a daily
        reminder, not today's); None for anything else, and for an event's window (recall places it)."""
        if self.anchor or self.overdue or self.dates not in ("due", "any"):
            return None
        if neuron.kind is not Kind.REMINDER:
            return None
        return due_between(neuron, self.start, self.end)

    def around(self, first: datetime, last: datetime | None = None) -> TimeWindow:
        """The window of an event found at `first` (to `last`, for an event of several days)."""
        kind = self.anchor_kind or "week"
        day = datetime.combine(first.date(), time(0), tzinfo=first.tzinfo)
        end_day = datetime.combine((last or first).date(), time(0), tzinfo=first.tzinfo)
        if kind == "since":  # from the event's day to the moment asked (the window's end)
            return replace(self, start=day, end=max(self.end, day + timedelta(days=1)))
        return replace(
            self,
            start=day - timedelta(days=ANCHOR_BEFORE_DAYS[kind]),
            end=end_day + timedelta(days=ANCHOR_AFTER_DAYS[kind]),
        )


@dataclass
class _Found:
    start: datetime
    end: datetime
    tense: str  # "past" | "future" | "any" | "overdue"
    span: tuple[int, int]
    named: str | None = None


class _Reader:
    def __init__(self, question: str, now: datetime, grammar: Grammar):
        self.g = g = grammar
        self.original = question
        self.text = fold(question)
        self.now = now
        self.tz = now.tzinfo
        self.today = self._day(now.date())
        self.monday = self.today - timedelta(days=self.today.weekday())
        self.future = bool(
            g.future_cues.search(self.text)
            or (g.due_cues.search(self.text) and not g.past_cues.search(self.text))
        )
        self.past = bool(g.past_cues.search(self.text)) and not self.future
        self.cued = False  # reading right after "since", "before", "after": "desde quinta" is a day

    def _day(self, d: date) -> datetime:
        return datetime.combine(d, time(0), tzinfo=self.tz)

    def _month(self, year: int, month: int) -> datetime:
        year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
        return self._day(date(year, month, 1))

    def capital(self, i: int) -> bool:
        return self.original[i : i + 1].isupper()

    # each reader returns a _Found for a match of its pattern (or None: not a time after all)

    def overdue(self, m):
        return _Found(datetime.min.replace(tzinfo=self.tz) + timedelta(days=1), self.now, "overdue", m.span())

    def _unit_start_end(self, word: str) -> tuple[datetime, datetime]:
        unit = self.g.period_unit.get(re.sub(r"\s+", " ", word), "week")
        if unit == "week":
            return self.monday, self.monday + timedelta(days=7)
        if unit == "month":
            return self._month(self.now.year, self.now.month), self._month(self.now.year, self.now.month + 1)
        return self._day(date(self.now.year, 1, 1)), self._day(date(self.now.year + 1, 1, 1))

    def so_far(self, m):
        start, _ = self._unit_start_end(group(m, "unit") or "")
        return _Found(start, self.now, "past", m.span())

    def until_end(self, m):
        _, end = self._unit_start_end(group(m, "unit") or "")
        return _Found(self.now, end, "future", m.span())

    def _month_year(self, month: int, year: str | None, which: str | None) -> int:
        if year:
            return int(re.sub(r"\D", "", year))
        now = self.now
        if which == "next":
            return now.year if month > now.month else now.year + 1
        if which == "last":
            return now.year if month < now.month else now.year - 1
        if which == "this" or month == now.month:
            return now.year
        if self.future:
            return now.year if month > now.month else now.year + 1
        return now.year if month < now.month else now.year - 1

    def half(self, m):
        mon = self.g.words.months[m.group("mon")]
        year = self._month_year(mon, m.group("y"), None)
        first = self._month(year, mon)
        end = self._month(year, mon + 1)
        a, b = self.g.words.month_parts[re.sub(r"\s+", " ", m.group("part"))]
        return _Found(
            first + timedelta(days=a), end if b is None else first + timedelta(days=b), "any", m.span()
        )

    def _weekday(self, name: str, which: str | None) -> datetime:
        wd = self.g.words.weekdays[name]
        if which == "last" or (which is None and self.past):
            return self.today - timedelta(days=(self.today.weekday() - wd) % 7 or 7)
        if which == "next":
            return self.today + timedelta(days=(wd - self.today.weekday()) % 7 or 7)
        return self.today + timedelta(days=(wd - self.today.weekday()) % 7)

    def _which(self, pre: str | None, post: str | None) -> str | None:
        return self.g.which(pre, post)

    def weekday(self, m):
        day = m.group("day")
        if day in self.g.words.ambiguous_weekdays and not (
            self.cued
            or m.group("pre")
            or m.group("post")
            or m.group("suffix")
            or (len(day) == 3 and self.capital(m.start("day")))
        ):
            return None
        start = self._weekday(day, self._which(m.group("pre"), m.group("post")))
        return _Found(start, start + timedelta(days=1), "any", m.span())

    def range(self, m):
        a, b = self.g.words.weekdays[m.group("a")], self.g.words.weekdays[m.group("b")]
        rest = self.text[m.end() :]
        week = None
        for which, pattern in zip(("next", "last", "this"), self.g.week_periods, strict=True):
            found = pattern.match(rest.lstrip(" ,"))
            if found:
                week = which
                end = m.end() + (len(rest) - len(rest.lstrip(" ,"))) + found.end()
                break
        else:
            end = m.end()
        if week == "next":
            start = self.monday + timedelta(days=7 + a)
        elif week == "last":
            start = self.monday - timedelta(days=7 - a)
        elif week == "this":
            start = self.monday + timedelta(days=a)
        else:
            start = self._weekday(m.group("a"), None)
        stop = start + timedelta(days=(b - a) % 7 + 1)
        return _Found(start, stop, "any", (m.start(), end))

    def month_range(self, m):
        a, b = self.g.words.months[m.group("a")], self.g.words.months[m.group("b")]
        if {m.group("a"), m.group("b")} & set(self.g.words.ambiguous_months) and not (
            self.capital(m.start("a")) and self.capital(m.start("b"))
        ):
            return None
        ya = self._month_year(a, m.group("y"), None)
        yb = ya if b >= a else ya + 1
        return _Found(self._month(ya, a), self._month(yb, b + 1), "any", m.span())

    def _date(self, y: int | None, mon: int, d: int, span) -> _Found | None:
        try:
            start = self._day(date(y or self.now.year, mon, d))
        except ValueError:
            return None
        if y is None and self.future and start < self.today:
            start = start.replace(year=start.year + 1)
        elif y is None and not self.future and start > self.now:
            start = start.replace(year=start.year - 1)
        return _Found(start, start + timedelta(days=1), "any", span)

    def day_month(self, m):
        if self.purpose(m):
            return None
        words = m.group("dw")  # "premier janvier"
        return self._date(
            int(m.group("y")) if m.group("y") else None,
            self.g.words.months[m.group("mon")],
            self.g.words.day_numbers[re.sub(r"\s+", " ", words)] if words else int(m.group("d")),
            m.span(),
        )

    def iso(self, m):
        return self._date(int(m.group("y")), int(m.group("m")), int(m.group("d")), m.span())

    def month(self, m):
        if self.purpose(m) or re.search(r"\d\s*$", self.text[max(0, m.start() - 8) : m.start()]):
            return None
        word, pre = m.group("mon"), m.group("pre") or ""
        if (
            word in self.g.words.ambiguous_months
            and not (pre or m.group("post"))
            and not self.capital(m.start("mon"))
        ):
            return None
        if word in self.g.words.verb_months and not (pre or m.group("post")):
            return None  # "may I ..." -- a month only as "in May", "last May"
        post = m.group("post") or ""
        year = post if re.search(r"\d", post) else None
        mon = self.g.words.months[word]
        which = self._which(pre, None if year else post)
        y = self._month_year(mon, year, which)
        tense = "past" if which == "last" else "future" if which == "next" else "any"
        return _Found(self._month(y, mon), self._month(y, mon + 1), tense, m.span())

    def _occurrence(self, at, which: str | None, year: str | None) -> tuple[date, int]:
        """The occurrence of a yearly named day meant: the year given, last/next/this, or
        the nearest one in the question's tense (ongoing counts)."""
        y = self.now.year
        if year:
            return at(int(re.sub(r"\D", "", year)))
        today = self.now.date()
        if which == "this":  # "this winter" in February: the one we are in
            for yy in (y - 1, y):
                first, days = at(yy)
                if first <= today < first + timedelta(days=days):
                    return first, days
            return at(y)
        if which == "next" or (which is None and self.future):
            for yy in (y - 1, y, y + 1):
                first, days = at(yy)
                if first + timedelta(days=days) > today:
                    return first, days
        for yy in (y + 1, y, y - 1, y - 2):
            first, days = at(yy)
            if (first + timedelta(days=days) <= today) if which == "last" else (first <= today):
                return first, days
        return at(y)

    def holiday(self, m):
        name = re.sub(r"\s+", " ", m.group("name"))
        if (
            name in self.g.words.everyday_holiday_names
            and not self.capital(m.start("name"))
            or self.purpose(m)
        ):
            return None
        q1, q2 = m.group("q1") or "", m.group("q2") or ""
        year = None
        if re.search(r"\d{4}", q2):
            year = q2
        else:
            shift = self.g.year_said(q1, q2)
            year = None if shift is None else str(self.now.year + shift)
        which = None if year else self._which(q1, None)
        first, days = self._occurrence(self.g.holidays[name], which, year)
        if m.group("wk"):
            first, days = weekend_of(first, days)
        start = self._day(first)
        return _Found(
            start,
            start + timedelta(days=days),
            "any",
            m.span(),
            named=self.original[m.start("name") : m.end("name")],
        )

    def season(self, m):
        if self.purpose(m):
            return None
        q, q2 = m.group("q") or "", m.group("q2") or ""
        at = self.g.seasons[re.sub(r"\s+", " ", m.group("name"))]
        which = self._which(q, q2 if not re.search(r"\d", q2) else None)
        year = q2 if re.search(r"\d{4}", q2) else None
        if self.g.year_said("", q2) == -1:
            year = str(self.now.year - 1)
        first, days = self._occurrence(at, which, year)
        start = self._day(first)
        return _Found(start, start + timedelta(days=days), "any", m.span())

    def _step(self, unit: str, n: int) -> relativedelta:
        kind, amount = self.g.words.units[unit]
        step: dict[str, Any] = {kind: n * amount}
        return relativedelta(**step)

    def next_n(self, m):
        n = int(_count(self.g, m.group("n") or m.group("n2") or m.group("n3") or m.group("n4")))
        unit = m.group("u") or m.group("u2") or m.group("u3") or m.group("u4")
        direction = m.group("dir") or m.group("dir2") or m.group("dir3") or m.group("dir4")
        if (
            self.g.is_last_before(direction)
            or self.g.counted_last.fullmatch(direction)
            or self.g.is_last_after(direction)
        ):
            return _Found(self.today - self._step(unit, n), self.now, "past", m.span())
        return _Found(self.now, self.now + self._step(unit, n), "future", m.span())

    def ago(self, m):
        n = int(_count(self.g, m.group("n") or m.group("n2")))
        unit = m.group("u") or m.group("u2")
        kind, amount = self.g.words.units[unit]
        n *= amount if kind != "days" else 1  # a decade ago: 10 years
        if kind == "days" and amount == 1:
            start = self.today - timedelta(days=n)
            return _Found(start, start + timedelta(days=1), "past", m.span())
        if kind == "days":  # weeks ("a fortnight ago": two)
            start = self.monday - timedelta(days=7 * n * amount // 7)
            return _Found(start, start + timedelta(days=7), "past", m.span())
        if kind == "months":
            start = self._month(self.now.year, self.now.month - n)
            return _Found(start, self._month(start.year, start.month + 1), "past", m.span())
        start = self._day(date(self.now.year - n, 1, 1))
        return _Found(start, self._day(date(self.now.year - n + 1, 1, 1)), "past", m.span())

    def dayword(self, m):
        t = self.today
        if m.group("after"):
            return _Found(t + timedelta(days=2), t + timedelta(days=3), "future", m.span())
        if m.group("before"):
            return _Found(t - timedelta(days=2), t - timedelta(days=1), "past", m.span())
        if m.group("today"):
            return _Found(t, t + timedelta(days=1), "any", m.span())
        if m.group("tomorrow"):
            return _Found(t + timedelta(days=1), t + timedelta(days=2), "future", m.span())
        confirming = self.g.yesterday_only_with.get(m.group("yesterday"))
        if confirming is not None and not confirming.search(self.text):
            return None  # German "hier" is "here"; French "hier" comes with French words
        return _Found(t - timedelta(days=1), t, "past", m.span())

    def weekend(self, m):
        which = self._which(m.group("pre"), m.group("post"))
        sat = self.monday + timedelta(days=5)
        if which == "next":
            sat += timedelta(days=7)
        elif which == "last" or (which is None and self.past and self.today < sat):
            sat -= timedelta(days=7)
        return _Found(sat, sat + timedelta(days=2), "any", m.span())

    @cached_property
    def periods(self):
        """(pattern, reader) of every simple period, in order of precedence (made once a reader:
        `first` reads them again after each cue)."""

        def unit_rules(rules, starts, purposeful=False):
            """`purposeful`: "goals for this year" is about the year, not in it."""
            out = []
            for pattern, (start, end, tense) in zip(rules, starts, strict=True):
                out.append(
                    (
                        pattern,
                        lambda m, s=start, e=end, t=tense: (
                            None if purposeful and self.purpose(m) else _Found(s, e, t, m.span())
                        ),
                    )
                )
            return out

        month0 = self._month(self.now.year, self.now.month)
        year0 = self._day(date(self.now.year, 1, 1))
        return [
            (self.g.holiday, self.holiday),
            (self.g.season, self.season),
            (self.g.next_n, self.next_n),
            (self.g.ago, self.ago),
            (self.g.dayword, self.dayword),
            (self.g.question_weekend, self.weekend),
            *unit_rules(
                self.g.week_periods,
                [
                    (self.monday + timedelta(days=7), self.monday + timedelta(days=14), "future"),
                    (self.monday - timedelta(days=7), self.monday, "past"),
                    (self.monday, self.monday + timedelta(days=7), "any"),
                ],
            ),
            *unit_rules(
                self.g.month_periods,
                [
                    (
                        self._month(self.now.year, self.now.month + 1),
                        self._month(self.now.year, self.now.month + 2),
                        "future",
                    ),
                    (self._month(self.now.year, self.now.month - 1), month0, "past"),
                    (month0, self._month(self.now.year, self.now.month + 1), "any"),
                ],
            ),
            *unit_rules(
                self.g.year_periods,
                [
                    (
                        self._day(date(self.now.year + 1, 1, 1)),
                        self._day(date(self.now.year + 2, 1, 1)),
                        "future",
                    ),
                    (self._day(date(self.now.year - 1, 1, 1)), year0, "past"),
                    (year0, self._day(date(self.now.year + 1, 1, 1)), "any"),
                ],
                purposeful=True,
            ),
            (self.g.iso_date, self.iso),
            (self.g.day_month, self.day_month),
            (self.g.month_day, self.day_month),
            (self.g.question_month, self.month),
            (self.g.question_weekday, self.weekday),
        ]

    def purpose(self, m) -> bool:
        """ "goals for this year", "food for Christmas", "prenda para o Natal": the period is what
        the question is about, not when it happened. So is "rent from July" in a question not
        in the past: the day a fact takes effect."""
        before = self.text[max(0, m.start() - 40) : m.start()]  # the words just before: linear
        if self.g.purpose.search(before):
            return True
        return (
            bool(self.g.takes_effect.search(before))
            and not self.past
            and not self.g.range_after.match(self.text[m.end() :])
        )

    def first(self, at: int | None = None, *, past: bool | None = None) -> _Found | None:
        """The first simple period of the text (or the one starting right at `at`; `past`: read
        it as a time gone by, as after "since")."""
        if past is not None:
            saved = (self.past, self.future)
            self.past, self.future = past, not past
            try:
                return self.first(at)
            finally:
                self.past, self.future = saved
        for pattern, read in self.periods:
            if at is not None:
                m = pattern.match(self.text, at)
                self.cued = True
                try:
                    found = read(m) if m else None
                finally:
                    self.cued = False
                if found:
                    return found
                continue
            for m in pattern.finditer(self.text):
                found = read(m)
                if found:
                    return found
        return None


def _count(g: Grammar, word: str) -> float:
    w = re.sub(r"\s+", " ", word)
    return float(w) if w.isdigit() else float(g.words.numbers.get(w, 1))


def _read(r: _Reader) -> tuple[_Found, str | None] | tuple[None, None]:
    """The question's window: compound forms first (since, before, after, ranges), then one
    simple period."""
    for pattern, read in (
        (r.g.overdue, r.overdue),
        (r.g.so_far, r.so_far),
        (r.g.until_end, r.until_end),
        (r.g.month_half, r.half),
        (r.g.weekday_range, r.range),
        (r.g.month_range, r.month_range),
    ):
        for m in pattern.finditer(r.text):
            found = read(m)
            if found:
                return found, None
    for cue, kind in ((r.g.since, "since"), (r.g.before, "before"), (r.g.after, "after")):
        for m in cue.finditer(r.text):
            if kind == "before":
                found = _before(r, m)
                if found is not None:
                    return found, None
                continue
            inner = r.first(at=m.end(), past=True if kind == "since" else None)
            if inner is None:
                continue
            span = (m.start(), inner.span[1])
            if kind == "since":
                return _Found(inner.start, r.now, "past", span, inner.named), None
            if kind == "after":
                return _Found(inner.end, inner.end + timedelta(days=14), "any", span, inner.named), None
    found = r.first()
    if found:
        return found, None
    around = r.g.anchor.search(r.text)
    event = group(around, "event") if around else None
    if around and group(around, "while") and not r.g.finite.search(event or ""):
        around = None  # "while surfing", "while camping": an activity, not a stretch of time
    if around and group(around, "since") is not None and len(re.findall(r"\w+", event or "")) < 2:
        around = None  # "since then", "since when": no event to find
    if around and event and len(re.findall(r"\w{3,}", event)) >= 1:
        unit = group(around, "anchor")
        kind = (
            "since"
            if group(around, "since") is not None
            else "while"
            if unit is None
            else r.g.words.anchor_units.get(re.sub(r"\s+", " ", unit), "day")
        )
        return _Found(r.now, r.now, "any", around.span()), kind + ":" + str(group_start(around, "event"))
    return None, None


def _before(r: _Reader, m: re.Match[str]) -> _Found | None:
    """ "before X": to the end of X when it "is out" ("before September is out"); the few days
    before X when said "just before", "the week before" (the last X when the question is in the
    past: "what did I do just before Easter"); else from now to X, when X is still to come."""
    near = r.g.just_before.search(r.text, 0, m.start())
    past = bool(r.g.past_cues.search(r.text)) if near else None
    inner = r.first(at=m.end(), past=past or None)
    if inner is None:
        return None
    out = r.g.period_out.match(r.text, inner.span[1])
    if out and inner.end > r.now:
        return _Found(r.now, inner.end, "future", (m.start(), out.end()), inner.named)
    if near:
        days = r.g.words.just_before[re.sub(r"\s+", " ", near.group("near"))]
        start = inner.start - timedelta(days=days)
        tense = "past" if inner.start <= r.now else "future"
        return _Found(start, inner.start, tense, (near.start(), inner.span[1]), inner.named)
    if inner.start > r.now:
        return _Found(r.now, inner.start, "future", (m.start(), inner.span[1]), inner.named)
    return None


def _dates_of(g: Grammar, text: str, found: _Found, now: datetime) -> str:
    if found.tense == "overdue" or found.start >= now:
        return "due"
    if g.done_cues.search(text):
        return "done"
    if g.created_cues.search(text):
        return "created"
    if g.due_cues.search(text) and found.end > now and not g.past_cues.search(text):
        return "due"
    return "any"


def _found(r: _Reader) -> tuple[_Found, str | None] | tuple[None, None]:
    try:
        return _read(r)
    except (OverflowError, ValueError):  # "since 9999-12-31": a time past the calendar's end
        return None, None


def find_window(question: str, now: datetime, grammar: Grammar = GRAMMAR) -> tuple[TimeWindow | None, str]:
    """The question's time words as a window, and the question without them."""
    r = _Reader(question, now, grammar)
    found, anchor = _found(r)
    if found is None:
        return None, question
    s, e = found.span
    label = question[s:e].strip(" ?.!,")
    dates = _dates_of(grammar, r.text, found, now)
    rest = question[:s] + " " + question[e:]
    if dates in ("created", "done"):  # "what did I note down": the act, not a topic
        cues = grammar.created_cues if dates == "created" else grammar.done_cues
        folded = fold(rest)
        chars = list(rest)
        for m in cues.finditer(folded):
            chars[m.start() : m.end()] = " " * (m.end() - m.start())
        for m in grammar.cue_particles.finditer(fold("".join(chars))):  # "down", "off"
            chars[m.start() : m.end()] = " " * (m.end() - m.start())
        rest = "".join(chars)
    rest = re.sub(r"\s{2,}", " ", rest).strip(" ?.,!")
    previous = None
    while previous != rest:
        previous = rest
        rest = _cut_dangling(grammar, rest)
    if anchor is not None:
        kind, at = anchor.split(":")
        event = question[int(at) :].strip(" ?.!")
        return TimeWindow(now, now, label, "any", anchor=event, anchor_kind=kind), rest
    if found.named:  # "before Easter": Easter is what the answer is about, too
        rest = f"{rest} {found.named}".strip()
    overdue = found.tense == "overdue"
    if grammar is GRAMMAR and not _said_in_english(question, now, found):
        label = say_window(found.start, found.end, now, overdue=overdue)
    return TimeWindow(found.start, found.end, label, dates, overdue=overdue, named=found.named), rest


def said_window(text: str, written: datetime) -> tuple[datetime, datetime] | None:
    """The time a text says it is about, read as a question's window (`find_window`'s start and
    end) against when it was written; None for no time, an event's window and "overdue". Without
    what only a question needs (its label, said again in English, and the rest of its words):
    a store's every note is read with it."""
    found, anchor = _found(_Reader(text, written, GRAMMAR))
    if found is None or anchor is not None or found.tense == "overdue":
        return None
    return found.start, found.end


@cache
def _english() -> Grammar:
    return Grammar((en.LANGUAGE,))  # the language the app speaks


def compile_questions() -> None:
    """Every pattern a question's time words are read with, compiled now: the languages' and
    English's, which says a window's words again (`_said_in_english`; ~0.05 s of CPU of its own)."""
    GRAMMAR.compile_questions()
    _english().compile_questions()


def _said_in_english(question: str, now: datetime, found: _Found) -> bool:
    """Whether English reads the same time in the question: its words can then head the answer
    in an English window; other languages' words are said again in English (`say_window`)."""
    english = _Reader(question, now, _english())
    try:
        again, _ = _read(english)
    except (OverflowError, ValueError):
        return False
    return again is not None and (again.start, again.end, again.span) == (found.start, found.end, found.span)


def _cut_dangling(g: Grammar, rest: str) -> str:
    """The question without a connective left at its end ("what did we do over"), in its own case."""
    m = g.question_dangling.search(fold(rest))
    return (rest[: m.start()] if m else rest).strip(" ?.,!")
