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

The reading is in parts, each a module of core/when: reading.py the text (`Text`, numbers in
words), hours.py the clock, days.py the day, offsets.py time counted from a moment, repeats.py
the rules; this module puts them together (`find_when`), and reads the due field and titles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, timezone
from functools import cache
from itertools import islice

from dateutil.relativedelta import relativedelta

from core.model import InvalidInput
from core.when.days import RRULE_DAYS, on_its_weekday, said_date, said_day_word
from core.when.habits import habits
from core.when.hours import (
    NIGHT_FROM,
    SMALL_HOURS_UNTIL,
    TONIGHT_HOUR,
    Clock,
    clock_hour,
    hour_before_part,
    range_ends,
    said_clock,
)
from core.when.language import fold
from core.when.offsets import calendar_step, said_end_of, said_now, said_offset, said_relative, within_a_day
from core.when.patterns import GRAMMAR, Grammar
from core.when.reading import Text, in_figures, in_figures_and_spans, text_language
from core.when.region import Region, current_region, region_of
from core.when.repeats import (
    ANY_FIGURE,
    in_listed_months,
    months_listed,
    rule_parts,
    said_recurrence,
    yearly_said,
)

DEFAULT_HOUR = 9  # a day without a time is due at 09:00


END_HOUR = 18


_CLOCK_STEP = {"HOURLY": timedelta(hours=1), "MINUTELY": timedelta(minutes=1)}


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


def _at(day: date, h: int, m: int, tz, s: int = 0) -> datetime:
    return datetime.combine(day, time(h % 24, m, s), tzinfo=tz)


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
            ANY_FIGURE.search(folded, e) or grammar.list_day.search(folded, e)
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
        figures, written = in_figures_and_spans(text, grammar, region)
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
    code = text_language(folded, grammar, region)
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
        t = Text(text, grammar, region, said if said != text else None)
        if said_date(t, now) is None and t.no_day:
            return f"{t.no_day} is no day"
    return None


def _splits(when: When, written: list[tuple[int, int]]) -> bool:
    """A span of the reading begins or ends inside words written in figures."""
    return any(a < i < b for s, e in when.spans for a, b in written for i in (s, e))


def _covered(when: When) -> int:
    """How many characters the reading accounts for, each once (its spans may overlap)."""
    return len({i for s, e in when.spans for i in range(s, e)})


def _signed_step(t: Text) -> relativedelta | None:
    """ "+ 3 days", "-10days", "+40minutes" after a time: the step it moves that time by."""
    m = t.search(t.g.signed_step, accept=lambda m: bool(t.folded[: m.start()].strip()))
    if not m:
        return None
    t.take(m)
    kind, amount = t.g.words.units[m.group("unit")]
    n = int(m.group("n")) * amount * (1 if m.group("plus") else -1)
    if kind in ("seconds", "minutes"):
        return relativedelta(seconds=n * (60 if kind == "minutes" else 1))
    return calendar_step(kind, n)


def _zone(t: Text) -> timezone | None:
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
    t = Text(text, grammar, region, said)
    tz = now.tzinfo
    zone = _zone(t)
    signed = _signed_step(t)
    rec = said_recurrence(t, now)
    rel = said_relative(t, now)
    offset = said_offset(t) if rel is None else None
    end_at = len(t.spans)
    end = said_end_of(t, now.date())
    end_spans = t.spans[end_at:]
    if offset is not None and t.offset_from_now or (rel is None and offset is None and said_now(t)):
        due = now + offset if offset is not None else now  # "5 minutes before now"
        return When(
            due=due + (signed or relativedelta()),  # "now + 40minutes"
            rrule=None,
            spans=t.spans,
            text=text,
            explicit_day=True,
            explicit_time=True,
        )
    within = offset if offset is not None and within_a_day(offset) else None
    if within is not None:
        offset = None
    written = said_date(t, now)
    if t.no_day and written is None:  # "dentist 30 February at 10": no guess at another day
        return None
    if written is not None:
        written = on_its_weekday(t, written)
    taken = len(t.spans)
    word = said_day_word(t, now) if written is None else None
    word_spans = t.spans[taken:]
    clock = said_clock(t)
    if end == (None,) and not (written or word):  # "the end of it", "am Ende des Films": no day after it
        end = None
        t.spans = [span for span in t.spans if span not in end_spans]
    if end and end[0] is not None and not (written or word):
        written = end[0], False
    if not (rec or rel or written or word or clock or offset or end):
        return None
    if t.search(grammar.past_day) and not (rec or rel or written or word or offset or end):
        return None  # "yesterday evening", "ontem à noite": the past, not this evening
    range_ends(t)
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
        clock = Clock(END_HOUR, 0, True, None)
    evening = bool(word and word[1] == "tonight")
    if t.today_part:  # "this afternoon (at 2)": that part's hour, or the half of the day it says
        if clock is None:
            clock = Clock(grammar.words.parts[t.today_part], 0, True, None, part=t.today_part)
        else:
            clock.hint(t.today_part, grammar)
    if (clock is None and evening) or (clock is not None and clock.part is not None):
        clock = hour_before_part(t, clock) or clock  # "call mum 11 tonight", "7 demain matin"
    if rec and rec.part:  # "every evening": that part's hour, and the half of the day a clock means
        if clock is None:
            clock = Clock(grammar.words.parts[rec.part], 0, True, None)
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
        due = _at(day or now.date(), clock_hour(clock, with_day=True, evening=evening), clock.m, tz, clock.s)
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
    out.rrule = yearly_said(t, text, out.rrule, bool(written and not t.month_alone))
    months = months_listed(t, text) if out.rrule and out.rrule.startswith("FREQ=YEARLY") else None
    if out.rrule and months and written and not t.month_alone:  # "every year on 15 January and July"
        out.rrule = in_listed_months(out.rrule, months, due.day)
        due = _on_the_rule(out.rrule, _at(now.date(), due.hour, due.minute, tz))
    out.due = due + signed if signed else due  # "4pm + 3 days"
    if zone is not None and out.explicit_time:  # "17:00 PDT": that time there, here
        out.due = out.due.replace(tzinfo=zone).astimezone(tz)
    return out


def _counts_from(t: Text, word: tuple[date, str], spans: list[tuple[int, int]], today: date) -> bool:
    """A weekday, today or tomorrow named before "in 2 weeks" or "in 3 days": the step counts from
    it (not one in months or years: "Friday in a month" would be no Friday; nor a day after it: "in
    3 weeks from Monday to Friday")."""
    day, what = word
    if t.relative_days is None or not spans or any(end > t.relative_days for _, end in spans):
        return False
    return what in ("weekday", "next-weekday") or what == "day" and (day - today).days in (0, 1, 2)


def _clock_step(rule: str) -> timedelta:
    """One step of a repeat by the clock ("FREQ=MINUTELY;INTERVAL=15": 15 minutes); zero for others."""
    parts = rule_parts(rule)
    interval = parts.get("INTERVAL", "1")
    return _CLOCK_STEP.get(parts.get("FREQ", ""), timedelta(0)) * (int(interval) if interval.isdigit() else 1)


def _next_of(rule: str, start: datetime, now: datetime) -> datetime:
    from core.remind.series import Series, local_zone, next_occurrence  # noqa: PLC0415 - the one engine

    text = rule if rule.upper().startswith(("RRULE:", "FREQ")) else f"FREQ={rule}"
    found = next_occurrence(Series(text, start.tzinfo or local_zone()), start, now)
    return found or start


def _on_the_rule(rule: str, due: datetime) -> datetime:
    """The first occurrence of `rule` at or after `due` (`due` when it has none)."""
    parts = rule_parts(rule)
    days, monthdays = parts.pop("BYDAY", None), parts.pop("BYMONTHDAY", None)
    if not set(parts) - {"FREQ", "INTERVAL"} and (days is None) != (monthdays is None):
        if days is not None and RRULE_DAYS[due.weekday()] in days.split(","):
            return due  # a day of the rule's own: nothing to ask the engine (its parse costs ~0.3 ms)
        if monthdays is not None and str(due.day) in monthdays.split(","):
            return due
    from core.remind.series import first_on_rule  # noqa: PLC0415 - the one engine

    return first_on_rule(rule if rule.upper().startswith(("RRULE:", "FREQ")) else f"FREQ={rule}", due) or due


def _next_occurrence(c: Clock, now: datetime, evening: bool) -> datetime:
    """A time of day without a day: the next time the clock shows it."""
    if c.exact or c.ampm or evening:
        hours = [clock_hour(c, with_day=False, evening=evening)]
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
