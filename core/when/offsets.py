"""Time counted from now or from a day ("in 2 hours", "three weeks after Easter", "5 minutes
before now"), and the end of a day, week, month or year."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from dateutil.relativedelta import relativedelta

from core.when.hours import LAST_WORDS
from core.when.patterns import Grammar
from core.when.reading import Text, number_of, past_spaces, spaced

NOW_WORDS = 4  # "end of the day", "fim do mês": that last day at 18:00, when work ends


def said_relative(t: Text, now: datetime) -> tuple[datetime, bool] | None:
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
        return now + timedelta(minutes=t.g.words.hour_fractions[spaced(m.group("fraction_ahead"))]), True
    if m.re is t.g.duration_alone and m.group("fraction_alone"):  # "half an hour", "meia hora"
        more, extra = ahead_more
        fraction = t.g.words.hour_fractions[spaced(m.group("fraction_alone"))]
        return now + more + timedelta(minutes=fraction, seconds=extra), True
    if m.re is t.g.duration_alone:  # "5 minutes", "1 week": from now
        said, unit, half = m.group("n"), m.group("unit"), m.group("half") or m.group("unit_half")
    elif m.re is t.g.relative_ahead:  # "2 minutes from now"
        said, unit = m.group("n_ahead"), m.group("unit_ahead")
        half = m.group("half_ahead") or m.group("unit_half_ahead")
    elif m.group("fraction"):  # "in half an hour", "in a quarter of an hour"
        return now + timedelta(minutes=t.g.words.hour_fractions[spaced(m.group("fraction"))]), True
    else:
        said, unit, half = m.group("n"), m.group("unit"), m.group("half") or m.group("unit_half")
    n = number_of(t.g, said) + (0.5 if half else 0)  # "in 2 and a half hours", "em 2 horas e meia"
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
    step = calendar_step(kind, int(_days_counted(t.g, unit, said, n)) * amount)  # a decade is 10 years
    t.relative_days = m.start() if kind == "days" else None
    more, seconds = _more_of_the_step(t, m.end()) if m.re is t.g.relative else ahead_more
    step += more  # "in 2 weeks and 3 days", "in 1 day and 2 hours", "2 days and 3 hours from now"
    if seconds:
        return now + step + timedelta(seconds=seconds), True
    return datetime.combine(now.date() + step, time(0), tzinfo=now.tzinfo), False


def _minutes_after_hours(t: Text, m: re.Match, kind: str, amount: int) -> tuple[float, int]:
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
    minutes = int(said) if said.isdigit() else t.g.words.minute_amounts[spaced(said)]
    t.take(after)
    less = after.group("join") and t.g.hour_less.fullmatch(spaced(after.group("join")))
    scale = 60.0 if amount == 60 else 1.0  # minutes after hours, seconds after minutes
    return (-scale if less else scale) * minutes, after.end()


def _amounts_within(t: Text, m: re.Match) -> tuple[relativedelta, float]:
    """(the days, months and years; the seconds) of the amounts after the first one of "2 hours
    and 30 minutes from now", "3 years, 2 weeks and 5 days" (the match's `more_ahead`)."""
    step, seconds = relativedelta(), 0.0
    if not m.group("more_ahead"):
        return step, seconds
    at, end = m.span("more_ahead")
    while at < end and (more := t.g.more_amount.match(t.folded, at)):
        kind, amount = t.g.words.units[more.group("unit")]
        n = number_of(t.g, more.group("n"))
        if kind in ("seconds", "minutes"):
            seconds += n * amount * (60 if kind == "minutes" else 1)
        else:
            step += calendar_step(kind, int(n) * amount)
        at = more.end()
    return step, seconds


def _days_counted(g: Grammar, unit: str, written: str | None, n: float) -> float:
    """n of a unit as people mean it: where eight days said in words are a week and fifteen two
    ("dans huit jours", "daqui a quinze dias", "in acht Tagen"), whole weeks; otherwise n. In
    figures ("em 15 dias") the days are counted."""
    if written is None or written.strip().isdigit():
        return n
    return n // 7 * 7 if n in g.words.weeks_of_days.get(spaced(unit), ()) else n


def in_weeks(g: Grammar, word: str, written: str | None, unit: str, n: int) -> tuple[str, int]:
    """(unit, n) of a repeat's step, in weeks where `_days_counted` reads its days as weeks ("tous
    les huit jours", "cada quince días": every week, every two weeks)."""
    days = _days_counted(g, word, written, n)
    return ("week", int(days) // 7) if unit == "day" and days != n else (unit, n)


def calendar_step(kind: str, n: int) -> relativedelta:
    """n days, months or years."""
    if kind == "days":
        return relativedelta(days=n)
    return relativedelta(months=n) if kind == "months" else relativedelta(years=n)


def _more_of_the_step(t: Text, at: int) -> tuple[relativedelta, float]:
    """(the days, months and years; the seconds) of the amounts said after the first one of a step
    ("1 hour and 30 minutes", "2 Stunden 15 Minuten", "1 day 2 hours", "2 semanas e 3 dias"),
    taken."""
    step, seconds = relativedelta(), 0.0
    while more := t.g.more_amount.match(t.folded, at):
        if more.group("fraction"):  # "and half a minute", "y medio minuto"
            seconds += 60 * t.g.words.hour_fractions[spaced(more.group("fraction"))]
            t.take(more)
            at = more.end()
            continue
        kind, amount = t.g.words.units[more.group("unit")]
        n = number_of(t.g, more.group("n")) + (0.5 if more.group("unit_half") else 0)  # "30 minutos y medio"
        if kind in ("seconds", "minutes"):
            seconds += n * amount * (60 if kind == "minutes" else 1)
        elif n == int(n):
            step += calendar_step(kind, int(n) * amount)
        else:
            break
        t.take(more)
        at = more.end()
    return step, seconds


def _offset_beyond(t: Text, m: re.Match) -> bool:
    """An offset's words run on past "2 dias depois" ("2 dias depois de amanhã"): not from now."""
    offset = t.g.offset.search(t.folded, m.start(), m.end() + _LEAD_REACH)  # after amounts it adds to
    return offset is not None and offset.start() < m.end() < offset.end()


def _offset_follows(t: Text, m: re.Match) -> bool:
    """ "in three weeks from tomorrow": the amount after "in" is an offset from the day named after
    it (not "in 3 weeks from Monday to Friday", a range)."""
    offset = t.g.offset.search(t.folded, m.start(), m.end() + _LEAD_REACH)
    return offset is not None and offset.start() < m.end() < offset.end() and _offset_ok(t, offset)


def _clock_alone(t: Text) -> bool:
    """The whole text is a time of day ("15h", "5pm"), not a duration."""
    text = t.folded.strip()
    g = t.g
    return any(p.fullmatch(text) for p in (g.clock_h_suffix, g.clock_h_letter, g.clock_hm))


_LEAD_REACH = 60  # how far before an offset the amounts that add to it are looked for


def said_offset(t: Text) -> relativedelta | None:
    """ "two weeks from", "3 days after", "2 months before": the step from the day named after it;
    "5 hours before noon", "10 minutes after 3pm", "5 minutes before now": from the time named
    after it (hours and minutes only from a time of day or now)."""
    m = t.search(t.g.offset, accept=lambda m: _offset_ok(t, m))
    if not m:
        return None
    if m.group("word") is not None:  # "la veille de Noël": its days, from the day named after it
        t.take(m)
        t.offset_end, t.offset_one = m.end(), True
        return relativedelta(days=t.g.words.offset_words[spaced(m.group("word"))])
    kind, amount = t.g.words.units[m.group("unit")]
    steps = []
    lead = (
        t.g.offset_lead.search(t.folded, max(0, m.start() - _LEAD_REACH), m.start()) if m.group("n") else None
    )
    at = lead.start() if lead else m.start()
    while lead and (more := t.g.more_amount.match(t.folded, at)) and more.end() <= m.start():
        more_kind, more_amount = t.g.words.units[more.group("unit")]  # "2 weeks and" 6 days from
        steps.append((more_kind, number_of(t.g, more.group("n")) * more_amount))
        at = more.end()
    if lead:
        t.take(lead)
    t.take(m)
    before = t.g.in_before.search(t.folded, 0, lead.start() if lead else m.start())
    if before:  # "in three weeks from tomorrow": the "in" is the offset's
        t.take(before)
    t.offset_end = m.end()
    now_after = t.g.now_word.match(t.folded, past_spaces(t.folded, m.end()))
    if now_after and kind in ("seconds", "minutes"):  # "5 minutos antes de agora"
        t.take(now_after)
        t.offset_from_now = True
    sign = -1 if t.g.is_offset_before(spaced(m.group("dir"))) else 1
    said = 1 if _one_step(m) else number_of(t.g, m.group("n"))  # "the day after Christmas": one
    t.offset_one = _one_step(m)
    steps.append((kind, _days_counted(t.g, m.group("unit"), m.group("n"), said) * amount))
    seconds = sum(n * (60 if k == "minutes" else 1) for k, n in steps if k in ("seconds", "minutes"))
    if all(k in ("seconds", "minutes") for k, _ in steps):
        return relativedelta(seconds=round(seconds * sign))
    past = t.g.past_day.match(t.folded, past_spaces(t.folded, m.end()))
    if past:  # "two weeks after yesterday": from the day before today
        t.take(past)
        t.offset_base = -2 if spaced(past.group(0).strip()) in t.g.words.before_yesterday else -1
    last = None if past else t.g.weekday.match(t.folded, past_spaces(t.folded, m.end()))
    if last and t.g.which(last.group("pre"), last.group("post")) == "last":
        t.take(last)  # "two weeks after last Thursday": from that Thursday
        t.offset_weekday = t.g.words.weekdays[last.group("day")]
    step = relativedelta(seconds=round(seconds * sign))  # "2 Tage und 3 Stunden nach": both
    for k, n in steps:
        if k not in ("seconds", "minutes"):
            step += calendar_step(k, int(n) * sign)
    return step


def _one_step(m: re.Match) -> bool:
    """ "the day after", "day after", "le lendemain de": one step, said with an article, with none
    or in one word."""
    return bool(m.group("one")) or m.group("bare") is not None or m.group("word") is not None


def _names_a_day(t: Text, at: int) -> bool:
    """A day is named at `at`: "tomorrow", a weekday, a holiday, a date."""
    g = t.g
    days = (g.today, g.tomorrow, g.after_tomorrow, g.weekday, g.holiday, g.month_day, g.day_month)
    return any(p.match(t.folded, at) for p in (*days, g.numeric_date, g.iso_date, g.day_of_month))


def _offset_ok(t: Text, m: re.Match) -> bool:
    """A step of hours or minutes counts from a time of day or now said right after it; one said
    with an article ("the day after") from a day named after it, one without ("day after") only
    from a day named right after it ("day after day" is none), as one said in a word."""
    if m.group("word") is not None:
        return _names_a_day(t, past_spaces(t.folded, m.end()))
    if m.group("bare") is not None and not _names_a_day(t, past_spaces(t.folded, m.end())):
        return False
    if _one_step(m) and not t.folded[m.end() :].strip():
        return False  # "I saw her the day after": no day it counts from
    if t.g.is_range_from(spaced(m.group("dir"))) and t.g.word_then_range_to.match(t.folded, m.end()):
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
    at = past_spaces(text, m.end())  # matched where it stands: no copy of the rest
    article = g.hour_articles.match(text, at)  # "10 minutos después de las 15h"
    if article and text[article.end() : article.end() + 1].isspace():
        at = past_spaces(text, article.end())
    return bool(
        g.now_word.match(text, at)
        or g.noon_or_midnight.match(text, at)
        or any(p.match(text, at) for p in (g.clock_hm, g.clock_h_suffix, g.clock_h_letter))
    )


def within_a_day(step: relativedelta) -> bool:
    return bool(step.hours or step.minutes or step.seconds)


def said_now(t: Text) -> bool:
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
    last = " " in m.group(0).strip() and LAST_WORDS.match(t.folded, m.end()) is not None
    if len(t.original.split()) > NOW_WORDS and not last:
        return False
    t.take(m)
    return True


def said_end_of(t: Text, today: date) -> tuple[date | None] | None:
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
    what = t.g.end_words.get(spaced(m.group("what") or "")) or t.g.end_of_words.get(m.group("abbr") or "")
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
