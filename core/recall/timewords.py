"""Time words in a question ("next week", "in March", "yesterday", "overdue") -> a date window.

`find_window(question, now)` returns the window (or None) and the question with the time words
taken out, so they do not also count as topic words. The window says which dates it is about:
due dates ("what's due", anything in the future), capture dates ("what did I note down"), or both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from core.capture.when import MONTHS, WEEKDAYS  # one table of month and day names

# Words that say the question is about what is due (or scheduled), or about what was written down.
DUE_CUES = re.compile(r"\b(due|on|to do|todo|need to|have to|got to|remind|deadline|coming up|"
                      r"upcoming|scheduled|planned|appointments?|happening|agenda)\b", re.I)
CREATED_CUES = re.compile(r"\b(note|noted|wrote|write|written|saved|save|captured|capture|added|"
                          r"jotted|jot|logged)\b", re.I)
PAST_CUES = re.compile(r"\b(did|was|were|had|happened|went|got|ago|back|last|noted|wrote|said)\b", re.I)

_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY_RE = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_NUM_WORDS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
              "eight": 8, "nine": 9, "ten": 10, "couple of": 2, "few": 3}
_NUM = r"(\d{1,3}|a|one|two|three|four|five|six|seven|eight|nine|ten|couple of|few)"


@dataclass(frozen=True)
class TimeWindow:
    start: datetime
    end: datetime        # exclusive
    label: str           # the words that made it
    dates: str           # "due" | "created" | "any"
    overdue: bool = False

    def holds(self, when: datetime | None) -> bool:
        return when is not None and self.start <= when < self.end


def _day(d: datetime) -> datetime:
    return datetime.combine(d.date(), time(0), tzinfo=d.tzinfo)


def _month_start(year: int, month: int, tz) -> datetime:
    while month > 12:
        year, month = year + 1, month - 12
    while month < 1:
        year, month = year - 1, month + 12
    return datetime(year, month, 1, tzinfo=tz)


def _count(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUM_WORDS.get(word, 1)


def _rules(now: datetime):
    """(pattern, function(match) -> (start, end, tense)) in order of precedence."""
    today = _day(now)
    tz = now.tzinfo
    monday = today - timedelta(days=today.weekday())
    month = _month_start(now.year, now.month, tz)

    def month_window(name: str, which: str | None, year: str | None, future: bool):
        m = MONTHS[name.lower()]
        if year:
            y = int(year)
        elif which == "next":
            y = now.year if m > now.month else now.year + 1
        elif which == "last":
            y = now.year if m < now.month else now.year - 1
        elif which == "this" or m == now.month:
            y = now.year
        elif future:
            y = now.year if m > now.month else now.year + 1
        else:
            y = now.year if m < now.month else now.year - 1
        start = _month_start(y, m, tz)
        return start, _month_start(y, m + 1, tz)

    def date_window(month: str, day: str, year: str | None, future: bool):
        m, d = MONTHS[month.lower()], int(day)
        y = int(year) if year else now.year
        try:
            start = datetime(y, m, d, tzinfo=tz)
        except ValueError:
            start = _month_start(y, m, tz)
            return start, _month_start(y, m + 1, tz)
        if not year and future and start < today:
            start = start.replace(year=y + 1)
        elif not year and not future and start > now:
            start = start.replace(year=y - 1)
        return start, start + timedelta(days=1)

    def weekday_window(name: str, which: str | None, past: bool):
        wd = WEEKDAYS[name.lower()]
        if which == "last" or (which is None and past):
            start = today - timedelta(days=(today.weekday() - wd) % 7 or 7)
        else:  # "Friday", "on Friday", "next Friday": the coming one
            start = today + timedelta(days=(wd - today.weekday()) % 7)
        return start, start + timedelta(days=1)

    end_of = {"week": monday + timedelta(days=7), "month": _month_start(now.year, now.month + 1, tz)}
    return [
        (r"\boverdue\b|\bpast due\b|\blate\b(?= (?:reminders|things|tasks))",
         lambda m, f: (datetime.min.replace(tzinfo=tz) + timedelta(days=1), now, "overdue")),
        (r"\b(?:between )?(?:now|today) (?:and|until|till|to) (?:the )?end of (?:the |this )?(week|month)\b"
         r"|\b(?:by|before|until|till) (?:the )?end of (?:the |this )?(week|month)\b"
         r"|\b(?:the )?rest of (?:the |this )?(week|month)\b",
         lambda m, f: (now, end_of[(m.group(1) or m.group(2) or m.group(3)).lower()], "future")),
        (rf"\b(?:(?:in|within|over|during|for) )?(?:the )?next {_NUM} (day|week|month)s?\b",
         lambda m, f: (now, now + _span(m.group(2), _count(m.group(1))), "future")),
        (rf"\b(?:in|within|over|during)? ?(?:the )?(?:last|past) {_NUM} (day|week|month)s?\b",
         lambda m, f: (today - _span(m.group(2), _count(m.group(1))), now, "past")),
        (rf"\b{_NUM} (day|week|month)s? ago\b",
         lambda m, f: _ago(today, monday, month, m.group(2), _count(m.group(1)))),
        (r"\btoday\b|\btonight\b|\bthis (?:morning|afternoon|evening)\b",
         lambda m, f: (today, today + timedelta(days=1), "any")),
        (r"\btomorrow\b", lambda m, f: (today + timedelta(days=1), today + timedelta(days=2), "future")),
        (r"\byesterday\b", lambda m, f: (today - timedelta(days=1), today, "past")),
        (r"\bthis weekend\b|\b(?:at|on|over) the weekend\b",
         lambda m, f: (monday + timedelta(days=5), monday + timedelta(days=7), "any")),
        (r"\bnext weekend\b", lambda m, f: (monday + timedelta(days=12), monday + timedelta(days=14), "future")),
        (r"\blast weekend\b", lambda m, f: (monday - timedelta(days=2), monday, "past")),
        (r"\bthis week\b", lambda m, f: (monday, monday + timedelta(days=7), "any")),
        (r"\bnext week\b", lambda m, f: (monday + timedelta(days=7), monday + timedelta(days=14), "future")),
        (r"\b(?:last|past|previous) week\b", lambda m, f: (monday - timedelta(days=7), monday, "past")),
        (r"\bthis month\b", lambda m, f: (month, _month_start(now.year, now.month + 1, tz), "any")),
        (r"\bnext month\b", lambda m, f: (_month_start(now.year, now.month + 1, tz),
                                          _month_start(now.year, now.month + 2, tz), "future")),
        (r"\b(?:last|past|previous) month\b",
         lambda m, f: (_month_start(now.year, now.month - 1, tz), month, "past")),
        (rf"\b(?:on |of )?(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? ({_MONTH_RE})\b\.?,?(?: (\d{{4}}))?",
         lambda m, f: (*date_window(m.group(2), m.group(1), m.group(3), f), "any")),
        (rf"\b(?:on )?({_MONTH_RE})\.? (\d{{1,2}})(?:st|nd|rd|th)?\b,?(?: ?(\d{{4}}))?",
         lambda m, f: (*date_window(m.group(1), m.group(2), m.group(3), f), "any")),
        (rf"\b(?:(?:back |earlier |early |late |mid[- ]?)?(?:in|during|since|of) |(last|next|this) )?"
         rf"({_MONTH_RE})\b\.?(?: (\d{{4}}))?",
         lambda m, f: (*month_window(m.group(2), (m.group(1) or "").lower() or None, m.group(3), f),
                       "past" if (m.group(1) or "").lower() == "last" else
                       "future" if (m.group(1) or "").lower() == "next" else "any")),
        (rf"\b(?:on |this |(last|next) )?({_DAY_RE})\b\.?",
         lambda m, f: (*weekday_window(m.group(2), (m.group(1) or "").lower() or None,
                                       bool(PAST_CUES.search(m.string))),
                       "any")),
    ]


def _span(unit: str, n: int) -> timedelta:
    unit = unit.lower()
    return timedelta(days=n * {"day": 1, "week": 7, "month": 30}[unit])


def _ago(today, monday, month, unit, n):
    unit = unit.lower()
    if unit == "day":
        start = today - timedelta(days=n)
        return start, start + timedelta(days=1), "past"
    if unit == "week":
        start = monday - timedelta(days=7 * n)
        return start, start + timedelta(days=7), "past"
    start = _month_start(month.year, month.month - n, month.tzinfo)
    return start, _month_start(start.year, start.month + 1, month.tzinfo), "past"


# "may" is a month only where a month fits: after in/of/last/next/this/since or before a day/year.
_MAY_VERB = re.compile(r"\bmay\b(?! \d)", re.I)
_MAY_MONTH = re.compile(r"\b(?:in|of|last|next|this|since|during|early|late|mid)[- ]may\b", re.I)


def find_window(question: str, now: datetime) -> tuple[TimeWindow | None, str]:
    """The first time expression of the question as a window, and the question without it."""
    text = question
    future_hint = bool(DUE_CUES.search(text)) and not PAST_CUES.search(text)
    # Facts about the whole question, looked up once (per match they made long questions quadratic).
    may_is_month = bool(_MAY_MONTH.search(text))
    month_cued: dict[str, bool] = {}
    for pattern, make in _rules(now):
        for m in re.finditer(pattern, text, re.I):
            words = m.group(0)
            if re.search(r"\bmay\b", words, re.I) and not may_is_month and _MAY_VERB.search(words):
                continue
            if re.fullmatch(r"(?:on )?(?:sun|sat|mon|wed|thu|fri|tue)\.?", words.strip(), re.I) \
                    and not words[:1].isupper() and not words.lower().startswith("on "):
                continue  # "sun", "sat", "wed" as words rather than days
            word = words.strip().lower()
            if word in ("march", "august") and not words[:1].isupper():
                if word not in month_cued:
                    month_cued[word] = bool(re.search(r"\b(in|of|last|next|this|back)\s+" + word, text, re.I))
                if not month_cued[word]:
                    continue
            start, end, tense = make(m, future_hint)
            dates = _dates_of(text, start, end, now, tense)
            rest = (text[:m.start()] + " " + text[m.end():])
            if dates == "created":  # "what did I note down": the act of noting, not a topic
                rest = CREATED_CUES.sub(" ", rest)
                rest = re.sub(r"\b(down|up)\b", " ", rest, flags=re.I)
            rest = re.sub(r"\b(between|from|until|till|and)\s*$", "", rest.strip(" ?.,"), flags=re.I)
            rest = re.sub(r"\s{2,}", " ", rest).strip()
            return TimeWindow(start, end, words.strip(), dates,
                              overdue=tense == "overdue"), rest
    return None, question


def _dates_of(text: str, start: datetime, end: datetime, now: datetime, tense: str) -> str:
    if tense == "overdue" or start >= now:
        return "due"
    if CREATED_CUES.search(text):
        return "created"
    if DUE_CUES.search(text) and end > now:
        return "due"
    return "any"
