"""Dates in captured text: "tomorrow at 3", "Thu 9:30", "every 1st", "12 June" -> due_at and rrule.

Read against the local time zone (tzlocal) and `now`. Only what a person types in a quick capture
is understood; anything else stays a note, and the person can always set the date.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import datetime, time, timedelta, tzinfo

from dateutil import rrule as dr

DEFAULT_HOUR = 9            # a day without a time is due at 09:00
PART_OF_DAY = {"morning": 9, "noon": 12, "midday": 12, "lunchtime": 12, "lunch": 12,
               "afternoon": 15, "evening": 19, "tonight": 20, "night": 20, "midnight": 0}

MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS.update({name.lower(): i for i, name in enumerate(calendar.month_abbr) if name})
MONTHS["sept"] = 9
WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
WEEKDAYS.update({name.lower(): i for i, name in enumerate(calendar.day_abbr)})
WEEKDAYS.update({"tues": 1, "weds": 2, "thur": 3, "thurs": 3})
RRULE_DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_DAY_RE = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_ORD = r"(\d{1,2})(?:st|nd|rd|th)"

REMINDER_CUES = re.compile(
    r"^\s*(remind me|reminder|remember to|don'?t forget|do not forget|todo|to do|to-do)\b", re.I)
YEARLY_WORDS = re.compile(r"\b(birthday|bday|anniversary)\b", re.I)


def local_tz() -> tzinfo:
    try:
        import tzlocal  # noqa: PLC0415

        return tzlocal.get_localzone()
    except Exception:  # no zone configured: the offset of the moment
        return datetime.now().astimezone().tzinfo  # type: ignore[return-value]


def local_now() -> datetime:
    return datetime.now(local_tz())


def occurrences(rule: str, dtstart: datetime, start: datetime, end: datetime,
                limit: int = 10) -> list[datetime]:
    """Occurrences of an RRULE (from dtstart) in [start, end)."""
    r = dr.rrulestr(rule if rule.upper().startswith(("RRULE:", "FREQ")) else f"FREQ={rule}",
                    dtstart=dtstart)
    found = []
    for occ in r.xafter(start - timedelta(microseconds=1), count=limit, inc=True):
        if occ >= end:
            break
        found.append(occ)
    return found


@dataclass
class When:
    due: datetime
    rrule: str | None
    words: str            # the words that said it
    explicit_day: bool    # a day was named (not only a clock time)
    explicit_time: bool


def _clock(text: str) -> tuple[int, int, str] | None:
    m = re.search(r"\b(?:at |@ ?)?(\d{1,2})[:.](\d{2})\s*(am|pm|a\.m\.|p\.m\.)?(?!\d)", text, re.I)
    if m and int(m.group(1)) < 24 and int(m.group(2)) < 60:
        h, mi = int(m.group(1)), int(m.group(2))
        ap = (m.group(3) or "").lower().replace(".", "")
        if ap == "pm" and h < 12:
            h += 12
        elif ap == "am" and h == 12:
            h = 0
        elif not ap and 1 <= h <= 6:
            h += 12  # "at 3:30" in a reminder is the afternoon
        return h, mi, m.group(0)
    m = re.search(r"\b(?:at )?(\d{1,2})\s*(am|pm|a\.m\.|p\.m\.)(?!\w)", text, re.I)
    if m and 1 <= int(m.group(1)) <= 12:
        h = int(m.group(1)) % 12 + (12 if m.group(2).lower().startswith("p") else 0)
        return h, 0, m.group(0)
    m = re.search(r"\bat (\d{1,2})(?![\d:./])(?!\s*(?:%|st|nd|rd|th|kg|km|min|mins|minutes|hours|"
                  r"days|weeks|months|years|people|of)\b)", text, re.I)
    if m and 1 <= int(m.group(1)) <= 23:
        h = int(m.group(1))
        if 1 <= h <= 7:
            h += 12
        return h, 0, m.group(0)
    m = re.search(r"\b(?:at |in the |this )?(" + "|".join(PART_OF_DAY) + r")\b", text, re.I)
    if m:
        return PART_OF_DAY[m.group(1).lower()], 0, m.group(0)
    return None


def _recurrence(text: str, now: datetime) -> tuple[str, datetime | None, str] | None:
    """(RRULE, first day or None, words) of "every ..."/"daily"/"monthly"... phrases."""
    t = text
    m = re.search(rf"\bevery (?:month on the )?{_ORD}(?: of (?:the|every) month)?\b", t, re.I) or \
        re.search(rf"\bon the {_ORD} of (?:every|each) month\b", t, re.I)
    if m:
        day = int(m.group(1))
        if 1 <= day <= 31:
            return f"FREQ=MONTHLY;BYMONTHDAY={day}", _next_monthday(now, day), m.group(0)
    m = re.search(rf"\bevery ({_DAY_RE})s?\b", t, re.I)
    if m:
        wd = WEEKDAYS[m.group(1).lower()]
        return f"FREQ=WEEKLY;BYDAY={RRULE_DAYS[wd]}", _next_weekday(now, wd, today_ok=True), m.group(0)
    m = re.search(r"\bevery (other |second |(\d+) )?(day|week|month|year)s?\b", t, re.I)
    if m:
        freq = {"day": "DAILY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY"}[m.group(3).lower()]
        n = 2 if (m.group(1) or "").strip().lower() in ("other", "second") else int(m.group(2) or 1)
        return f"FREQ={freq}" + (f";INTERVAL={n}" if n > 1 else ""), None, m.group(0)
    m = re.search(r"\b(daily|weekly|monthly|yearly|annually|each day|each week|each month|each year)\b",
                  t, re.I)
    if m:
        w = m.group(1).lower().replace("each ", "")
        freq = {"daily": "DAILY", "day": "DAILY", "weekly": "WEEKLY", "week": "WEEKLY",
                "monthly": "MONTHLY", "month": "MONTHLY", "yearly": "YEARLY", "annually": "YEARLY",
                "year": "YEARLY"}[w]
        return f"FREQ={freq}", None, m.group(0)
    return None


def _next_monthday(now: datetime, day: int) -> datetime:
    y, m = now.year, now.month
    for _ in range(14):
        last = calendar.monthrange(y, m)[1]
        if day <= last:
            cand = datetime(y, m, day, tzinfo=now.tzinfo)
            if cand.date() >= now.date():
                return cand
        m += 1
        if m > 12:
            y, m = y + 1, 1
    return datetime(y, m, 1, tzinfo=now.tzinfo)


def _next_weekday(now: datetime, wd: int, today_ok: bool) -> datetime:
    delta = (wd - now.weekday()) % 7
    if delta == 0 and not today_ok:
        delta = 7
    return datetime.combine(now.date() + timedelta(days=delta), time(0), tzinfo=now.tzinfo)


def _day(text: str, now: datetime) -> tuple[datetime, str] | None:
    today = datetime.combine(now.date(), time(0), tzinfo=now.tzinfo)
    m = re.search(r"\b(?:the )?day after tomorrow\b", text, re.I)
    if m:
        return today + timedelta(days=2), m.group(0)
    m = re.search(r"\b(today|tonight|tomorrow|tmrw|tmw)\b", text, re.I)
    if m:
        w = m.group(1).lower()
        return today + timedelta(days=0 if w in ("today", "tonight") else 1), m.group(0)
    m = re.search(r"\bin (\d{1,3}|a|an|one|two|three|four|five|six|seven|ten) (day|week|month)s?\b",
                  text, re.I)
    if m:
        n = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
             "seven": 7, "ten": 10}.get(m.group(1).lower()) or int(m.group(1))
        days = n * {"day": 1, "week": 7, "month": 30}[m.group(2).lower()]
        return today + timedelta(days=days), m.group(0)
    m = re.search(r"\bnext week\b", text, re.I)
    if m:
        return today + timedelta(days=7 - today.weekday()), m.group(0)
    m = re.search(r"\b(?:this |at the |on the )?weekend\b", text, re.I)
    if m:
        return _next_weekday(now, 5, today_ok=True), m.group(0)
    m = re.search(rf"\b(?:on )?{_ORD}? ?(?:of )?({_MONTH_RE})\.?,?(?: (\d{{4}}))?\b", text, re.I)
    m2 = re.search(rf"\b(?:on )?({_MONTH_RE})\.? (\d{{1,2}})(?:st|nd|rd|th)?\b,?(?: (\d{{4}}))?", text, re.I)
    m1 = re.search(rf"\b(?:on )?(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({_MONTH_RE})\b\.?,?(?: (\d{{4}}))?",
                   text, re.I)
    for mm, (mon_g, day_g, year_g) in ((m1, (2, 1, 3)), (m2, (1, 2, 3))):
        if mm and not (mm.group(mon_g).lower() == "may" and not mm.group(mon_g)[0].isupper()):
            mon, day = MONTHS[mm.group(mon_g).lower()], int(mm.group(day_g))
            year = int(mm.group(year_g)) if mm.group(year_g) else now.year
            try:
                d = datetime(year, mon, day, tzinfo=now.tzinfo)
            except ValueError:
                continue
            if not mm.group(year_g) and d.date() < now.date():
                d = d.replace(year=year + 1)
            return d, mm.group(0)
    del m
    m = re.search(rf"\b(?:on |this |next )?({_DAY_RE})\b\.?", text, re.I)
    if m and (m.group(1)[0].isupper() or m.group(0).lower().startswith(("on ", "this ", "next "))
              or len(m.group(1)) > 3):
        return _next_weekday(now, WEEKDAYS[m.group(1).lower()], today_ok=True), m.group(0)
    m = re.search(rf"\bon the {_ORD}\b", text, re.I)
    if m and 1 <= int(m.group(1)) <= 31:
        return _next_monthday(now, int(m.group(1))), m.group(0)
    m = re.search(r"\b(\d{4})-(\d{2})-(\d{2})\b", text)
    if m:
        try:
            return datetime(int(m.group(1)), int(m.group(2)), int(m.group(3)), tzinfo=now.tzinfo), m.group(0)
        except ValueError:
            return None
    return None


def find_when(text: str, now: datetime) -> When | None:
    """The due date (and recurrence) a capture asks for, or None."""
    rec = _recurrence(text, now)
    rest = text.replace(rec[2], " ") if rec else text
    day = _day(rest, now)
    clock = _clock(rest if not day else rest.replace(day[1], " "))
    if rec is None and day is None and clock is None:
        return None
    if rec is None and day is None:
        # only a clock time: today if still ahead, else tomorrow; only as a reminder cue
        h, mi, words = clock
        due = datetime.combine(now.date(), time(h, mi), tzinfo=now.tzinfo)
        if due <= now:
            due += timedelta(days=1)
        return When(due, None, words, False, True)
    first = day[0] if day else (rec[1] if rec and rec[1] else None)
    if first is None:
        first = datetime.combine(now.date(), time(0), tzinfo=now.tzinfo)
    h, mi = (clock[0], clock[1]) if clock else (DEFAULT_HOUR, 0)
    if day and day[1].lower().strip() == "tonight" and not clock:
        h = PART_OF_DAY["tonight"]
    due = datetime.combine(first.date(), time(h, mi), tzinfo=now.tzinfo)
    if rec is None and due <= now and day and day[1].lower().strip(" .") in WEEKDAYS:
        due += timedelta(days=7)  # "Thu 9:30" said on Thursday at 10 means next Thursday
    rule = rec[0] if rec else None
    if rule is None and day and YEARLY_WORDS.search(text) and re.search(_MONTH_RE, day[1], re.I):
        rule = "FREQ=YEARLY"
    words = " ".join(w for w in (rec[2] if rec else None, day[1] if day else None,
                                 clock[2] if clock else None) if w)
    return When(due, rule, words, day is not None or rec is not None, clock is not None)
