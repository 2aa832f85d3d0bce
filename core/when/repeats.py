"""Repeats said in words, as RFC 5545 rules: "every other Wednesday", "the last Friday of the
month", habits ("le samedi matin"), "N times a week", positions listed after "every", and the
first day each one falls on."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache

from dateutil.relativedelta import relativedelta

from core.when.days import RRULE_DAYS, WEEKDAY_OF, month_ok, next_monthday, next_weekday, position_in_month
from core.when.habits import habits
from core.when.language import fold
from core.when.offsets import in_weeks
from core.when.patterns import Grammar, group
from core.when.reading import Text, number_of, spaced, text_language

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


# "N times a week": spread over the week; "a month": over the month; a year: every 12/N months
_TIMES_A_WEEK = {2: "MO,TH", 3: "MO,WE,FR", 4: "MO,TU,TH,FR", 5: "MO,TU,WE,TH,FR", 6: "MO,TU,WE,TH,FR,SA"}


_TIMES_A_MONTH = {2: (1, 15), 3: (1, 10, 20), 4: (1, 8, 15, 22)}


def rule_parts(rule: str) -> dict[str, str]:
    """An RRULE's parts by name ("FREQ=WEEKLY;BYDAY=SA": FREQ WEEKLY, BYDAY SA)."""
    return dict(piece.partition("=")[::2] for piece in rule.split(";") if piece)


def _every(unit: str, n: int = 1) -> str:
    """The RRULE of "every n <unit>s" ("every 2 quarters": every 6 months, "every other weekend":
    every 2 weeks on Saturday)."""
    freq, _, rest = _FREQ[unit].partition(";")
    parts = rule_parts(rest)
    step = int(parts.pop("INTERVAL", "1")) * n
    by = "".join(f";{key}={value}" for key, value in parts.items())
    return f"FREQ={freq}" + (f";INTERVAL={step}" if step > 1 else "") + by


def _first_of_days(rule: str, today: date) -> date | None:
    """The first day from today of a weekly rule's days ("BYDAY=SA": the next Saturday); None
    for a rule without days of the week."""
    parts = rule_parts(rule)
    days = [RRULE_DAYS.index(d) for d in parts.get("BYDAY", "").split(",") if d in RRULE_DAYS]
    return min((next_weekday(today, d, strictly_after=False) for d in days), default=None)


@dataclass
class _Rec:
    rule: str
    first: date | None  # the first day it falls on, when the words say one
    part: str | None = None  # "every morning": the part of the day (a word of the parts table)


def _on_weekdays(rule: str, days: list[int], today: date, part: str | None = None) -> _Rec:
    """`rule` on these weekdays (0: Monday), first on the earliest of them from today on."""
    first = min(next_weekday(today, d, strictly_after=False) for d in days)
    return _Rec(rule + ";BYDAY=" + ",".join(RRULE_DAYS[d] for d in days), first, part)


def said_recurrence(t: Text, now: datetime) -> _Rec | None:
    excepted = t.search(habits(t.g).except_days)
    if excepted:  # read apart, so "daily except on weekends" is not read as every weekend
        t.blank(excepted)
    rec = _repeat_said(t, now)
    if excepted:
        rec = _except(t, excepted, rec, now.date())
    if rec and "BYMONTH" not in rule_parts(rec.rule) and habits(t.g).joined.search(t.folded):
        rec = _in_months(t, rec, now.date())
    if rec and rec.rule.startswith("FREQ=WEEKLY;BYDAY="):  # "quinzenal às segundas": every 2 weeks
        g = t.g
        step = t.search(g.freq_word, accept=lambda m: _weekly_step(g.words.freq_words[spaced(m.group("w"))]))
        step = step or t.search(
            habits(g).idiom, accept=lambda m: _weekly_step(g.words.repeat_idioms[spaced(m.group("w"))])
        )
        if step:
            rule = (g.words.freq_words | g.words.repeat_idioms)[spaced(step.group("w"))]
            t.take(step)
            rec.rule = "FREQ=" + rule + ";" + rec.rule.partition(";")[2]
        elif habits(g).by_the_clock.search(t.folded) and (
            clock := _clock_step_said(t)
        ):  # "hourly on weekdays"
            rec.rule = clock + ";" + rec.rule.partition(";")[2]
    return rec


def _in_months(t: Text, rec: _Rec, today: date) -> _Rec:
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


def _except(t: Text, m: re.Match, rec: _Rec | None, today: date) -> _Rec | None:
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
    first = min(next_weekday(today, d, strictly_after=False) for d in kept) if rec.first else None
    freq = "FREQ=DAILY" if len(days) == 7 else "FREQ=WEEKLY"
    return _Rec(f"{freq};BYDAY=" + ",".join(RRULE_DAYS[d] for d in kept), first, rec.part)


def _clock_step_said(t: Text) -> str | None:
    """The rule of a step of the clock said in `t` ("every hour", "hourly", "alle 30 Minuten"),
    taken; None when none is."""
    g = t.g
    clock = ("clock-hour", "clock-minute", "clock-half-hour", "clock-quarter-hour")
    m = t.search(
        g.every_n_units,
        accept=lambda m: (
            g.words.calendar_units[m.group("unit")] in clock
            and (bool(m.group("other")) or m.group("n").isdigit() or number_of(g, m.group("n")) != 1)
        ),
    )
    if m:
        t.take(m)
        n = 2 if m.group("other") else int(number_of(g, m.group("n")))
        return _every(g.words.calendar_units[m.group("unit")], n)
    m = t.search(g.every_unit, accept=lambda m: g.words.calendar_units[m.group("unit")] in clock)
    if m:
        t.take(m)
        return _every(g.words.calendar_units[m.group("unit")])
    words = g.words.freq_words | g.words.repeat_idioms
    for pattern in (g.freq_word, habits(g).idiom):
        m = t.search(pattern, accept=lambda m: words[spaced(m.group("w"))].startswith(("HOURLY", "MINUTELY")))
        if m:
            t.take(m)
            return "FREQ=" + words[spaced(m.group("w"))]
    return None


def _a_weekday_of_a_month(m: re.Match) -> bool:
    """ "the fourth Thursday in November": a weekday of a named month, no year."""
    return bool(m.group("mon") and m.group("day") and not m.group("y"))


def _yearly_on(g: Grammar, m: re.Match, rule: str) -> str:
    """A yearly rule on the weekday of a month `m` says ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"): the
    fourth Thursday of November is not on the same date each year."""
    n = g.words.month_ordinals[spaced(m.group("ord"))]
    wd = g.words.weekdays[m.group("day")]
    return f"{rule};BYMONTH={g.words.months[m.group('mon')]};BYDAY={n}{RRULE_DAYS[wd]}"


def yearly_said(t: Text, text: str, rule: str | None, written: bool) -> str | None:
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


def months_listed(t: Text, text: str) -> list[int] | None:
    """The months listed after the month of the date read ("el 15 de enero y julio", "the second
    Tuesday of January, July"), their words taken; None when no more are said."""
    g = t.g
    for m in habits(g).month_run.finditer(fold(text)):
        first_read = any(s <= m.start() < e for s, e in t.spans)
        if first_read and not any(s < m.end() and m.start("more") < e for s, e in t.spans):
            t.spans.append(m.span("more"))
            return sorted({g.words.months[name] for name in habits(g).month_word.findall(m.group(0))})
    return None


def in_listed_months(rule: str, months: list[int], day: int) -> str:
    """A yearly rule in each of `months`: on its weekday of the month when it has one, else on `day`."""
    parts = [p for p in rule.split(";") if not p.startswith("BYMONTH=")]
    listed = "BYMONTH=" + ",".join(map(str, months))
    if any(p.startswith("BYDAY=") for p in parts):
        return ";".join([parts[0], listed, *parts[1:]])
    return ";".join([*parts, listed, f"BYMONTHDAY={day}"])


def _said_alone(t: Text, m: re.Match) -> bool:
    """Nothing but `m` in the text (a lead word before it: "les mardis", "on Tuesdays")."""
    return bool(habits(t.g).lead_only.match(t.folded[: m.start()])) and not t.folded[m.end() :].strip(
        " ,.;:!"
    )


def _weekly_step(rule: str) -> bool:
    """ "WEEKLY;INTERVAL=2": a step of weeks without days of its own."""
    return rule.startswith("WEEKLY;INTERVAL=") and "BY" not in rule


def _on_its_days(t: Text, today: date, rec: _Rec) -> _Rec:
    """A weekly repeat with the days said after it: "every 2 weeks on Monday and Thursday", "each
    week from Tuesday to Saturday", "toutes les deux semaines le mardi et le jeudi"."""
    if rec.rule.startswith("FREQ=YEARLY") and "BY" not in rec.rule:
        return _yearly_in_months(t, today, rec)
    if rec.rule.startswith("FREQ=MONTHLY") and "BY" not in rec.rule:  # "first Friday of every other month"
        m = t.search(t.g.month_position, accept=lambda m: bool(m.group("day") and not m.group("mon")))
        if m:
            t.take(m)
            rule, first = position_in_month(t.g, m, today)
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
        accept=lambda m: not m.group("post") and spaced(m.group("pre") or "") in ("", *g.words.weekend_lead),
    )
    if weekend:
        t.take(weekend)
        return _Rec(rec.rule + ";BYDAY=SA,SU", _first_of_days("BYDAY=SA,SU", today))
    listed = _short_weekdays(t)
    if listed:  # "Wöchentlich am Di., Do.", "Hebdomadaire (le mar., jeu.)"
        t.take(listed[0])
        return _on_weekdays(rec.rule, listed[1], today)
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
    return _on_weekdays(rec.rule, days, today)


def _short_weekdays(t: Text, *, every: bool = False) -> tuple[re.Match, list[int]] | None:
    """Weekdays listed by their short forms, a dot after each or none ("Di., Do.", "mar, jue",
    "ter., qui."), each a day in the text's language: two or more, or one with its dot after a
    lead ("am Di."). `every`: only after an "every" word ("a cada ter., qui.")."""
    g = t.g
    language = cache(lambda: text_language(fold(t.original), g, t.region))
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


def _yearly_in_months(t: Text, today: date, rec: _Rec) -> _Rec:
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
    n, wd = g.words.month_ordinals[spaced(m.group("ord"))], g.words.weekdays[m.group("day")]
    months = sorted({g.words.months[name] for name in habits(g).month_word.findall(said.group("mons"))})
    t.take(m)
    t.take(said)
    month_list = ",".join(map(str, months))
    # from today: the engine puts the first occurrence on the rule (_on_the_rule)
    return _Rec(f"{rec.rule};BYMONTH={month_list};BYDAY={n}{RRULE_DAYS[wd]}", today, rec.part)


def _clock_on_days(t: Text, today: date, rec: _Rec) -> _Rec:
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
        return _Rec(rec.rule + ";BYDAY=MO,TU,WE,TH,FR", next_weekday(today, 0, strictly_after=False))
    m = t.search(g.plural_weekdays) or t.search(g.every_weekdays)
    if m:
        days = sorted({g.words.weekdays[d] for d in g.day_words.findall(m.group("days"))})
        t.take(m)
        return _on_weekdays(rec.rule, days, today)
    m = t.search(g.weekday_adverbs)
    if m:
        days = sorted({g.words.weekday_adverbs[d] for d in g.adverb_words.findall(m.group("days"))})
        t.take(m)
        return _on_weekdays(rec.rule, days, today)
    return rec


def _weekday_at_part(t: Text, m: re.Match, today: date, part: str | None) -> _Rec:
    """Every weekday of `m`'s group day, in that part of the day, from the next one (today's too)."""
    t.take(m)
    wd = t.g.words.weekdays[m.group("day")]
    return _Rec(f"FREQ=WEEKLY;BYDAY={RRULE_DAYS[wd]}", next_weekday(today, wd, strictly_after=False), part)


def _repeat_said(t: Text, now: datetime) -> _Rec | None:
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
        part = g.words.every_part[spaced(m.group("w"))]
        ranged = _days_of_the_weeks(t, today)  # "todas as manhãs de segunda a sexta": those days
        return _Rec(ranged.rule, ranged.first, part) if ranged else _Rec("FREQ=DAILY", None, part)
    m = (
        t.search(g.month_position, accept=_a_weekday_of_a_month)
        if habits(g).every_word.search(t.folded)
        else None
    )
    if m and m.group("each"):  # "every fourth Thursday in November": every year
        t.take(m)
        return _Rec(_yearly_on(g, m, "FREQ=YEARLY"), position_in_month(g, m, today)[1])
    m = t.search(
        g.month_position,
        accept=lambda m: (
            not m.group("mon")
            and bool(
                m.group("every")
                or (m.group("of") and (m.group("each") or spaced(m.group("of")) in g.words.of_every_month))
            )
        ),
    )
    if m:
        t.take(m)
        rule, first = position_in_month(g, m, today)
        return _Rec(f"FREQ=MONTHLY;{rule}", first)
    m = t.search(g.every_other_weekday)
    if m:
        t.take(m)
        wd = g.words.weekdays[group(m, "weekday") or ""]
        first = next_weekday(today, wd, strictly_after=False)
        return _Rec(f"FREQ=WEEKLY;INTERVAL=2;BYDAY={RRULE_DAYS[wd]}", first)
    m = t.search(g.monthly_day)
    if m:
        day = int(group(m, "day") or 0)
        if 1 <= day <= 31:
            t.take(m)
            return _Rec(f"FREQ=MONTHLY;BYMONTHDAY={day}", next_monthday(today, day))
    m = t.search(g.every_weekday)
    if m:
        t.take(m)
        wd = today.weekday()
        first = today if wd < 5 else next_weekday(today, 0, strictly_after=True)
        return _Rec("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", first)
    # "every 2 weeks"; not "every a week": pt "toda a semana" is the whole week (an article, not one)
    m = t.search(
        g.every_n_units,
        accept=lambda m: bool(m.group("other")) or m.group("n").isdigit() or number_of(g, m.group("n")) != 1,
    )
    if m:
        unit = g.words.calendar_units[m.group("unit")]
        n = 2 if m.group("other") else int(number_of(g, m.group("n")))
        unit, n = in_weeks(g, m.group("unit"), m.group("n"), unit, n)
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
        return _weekday_at_part(t, m, today, g.words.part_plurals[spaced(m.group("pp"))])
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
        return _on_weekdays("FREQ=WEEKLY", days, today)
    m = habits(g).joined.search(t.folded) and t.search(
        g.on_days, accept=lambda m: len(set(g.day_words.findall(m.group("days")))) >= LISTED_DAYS
    )
    if m:  # "gym Monday, Wednesday and Friday": days listed so are a habit
        days = sorted({g.words.weekdays[d] for d in g.day_words.findall(m.group("days"))})
        t.take(m)
        return _on_weekdays("FREQ=WEEKLY", days, today)
    listed = _short_weekdays(t, every=True) if habits(g).every_word.search(t.folded) else None
    if listed:  # "a cada ter., qui.", "every Tue., Thu."
        t.take(listed[0])
        return _on_weekdays("FREQ=WEEKLY", listed[1], today)
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
        return _on_weekdays("FREQ=WEEKLY", days, today)
    m = t.search(g.weekday_adverbs)
    if m:
        days = sorted({g.words.weekday_adverbs[d] for d in g.adverb_words.findall(m.group("days"))})
        t.take(m)
        return _on_weekdays("FREQ=WEEKLY", days, today)
    m = t.search(g.every_unit)
    if m:
        unit = g.words.calendar_units[m.group("unit")]
        t.take(m)
        return _on_its_days(t, today, _Rec(_every(unit), None))
    m = t.search(g.freq_word)
    if m:
        t.take(m)
        return _on_its_days(t, today, _Rec("FREQ=" + g.words.freq_words[spaced(m.group("w"))], None))
    return _of_the_month(t, today) if habits(g).of_month.search(t.folded) else None


def _each_position_of_months(t: Text, today: date) -> _Rec | None:
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
    rule, first = position_in_month(g, m, today)
    return _Rec(f"{monthly[1]};{rule}", first)


def _of_the_month(t: Text, today: date) -> _Rec | None:
    """ "The month" with its article and no particular month is each month, when no other repeat
    is said: "on the second Tuesday of the month", "pay rent on the 1st of the month", "am zweiten
    Dienstag im Monat" (a day of a list, "the 5th and the 7th of the month", is the list's)."""
    g = t.g

    def alone(m: re.Match) -> bool:
        return not habits(g).joined.search(t.folded, max(0, m.start() - 12), m.start())

    m = t.search(g.month_position, accept=lambda m: bool(not m.group("mon") and m.group("of") and alone(m)))
    if m:
        t.take(m)
        rule, first = position_in_month(g, m, today)
        return _Rec(f"FREQ=MONTHLY;{rule}", first)
    m = t.search(habits(g).monthday_of_month, accept=alone)
    if m and 1 <= (day := int(_DAY_FIGURES.findall(m.group("day"))[0])) <= 31:
        t.take(m)  # "pay rent on the 1st of the month": monthly on the 1st
        return _Rec(f"FREQ=MONTHLY;BYMONTHDAY={day}", next_monthday(today, day))
    return _monthday_in_words(t, today, accept=lambda m: not m.group("each") and alone(m))


def _monthday_in_words(t: Text, today: date, accept: Callable[[re.Match], bool]) -> _Rec | None:
    """A day of the month in words before "of every month" or "of the month": "the first of every
    month", "le premier de chaque mois", "am Ersten jedes Monats", "el día uno de cada mes"."""
    m = t.search(habits(t.g).monthday_word, accept=accept)
    if m and 1 <= (day := t.g.words.day_numbers.get(spaced(m.group("word")), 0)) <= 31:
        t.take(m)
        return _Rec(f"FREQ=MONTHLY;BYMONTHDAY={day}", next_monthday(today, day))
    return None


def _habit(t: Text, today: date) -> _Rec | None:
    """A repeat said as a habit (core/when/habits.py): one idiom ("tous les quinze jours"), a step
    said twice ("de 3 em 3 meses"), a range of weekdays ("from Monday to Friday at 8")."""
    g, h = t.g, habits(t.g)
    m = t.search(h.idiom)
    if m:
        t.take(m)
        rule = "FREQ=" + g.words.repeat_idioms[spaced(m.group("w"))]
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
            first = min(next_monthday(today, d) for d in days)
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
        ns = sorted({g.words.month_ordinals[spaced(o)] for o in ords}, key=lambda n: (n < 0, n))
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
            first = min(next_monthday(today, d) for d in days)
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
        h.every_month_name, accept=lambda m: bool(m.group("of")) or month_ok(t, m, with_day=False)
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
            return _on_weekdays("FREQ=WEEKLY", days, today, m.group("part"))
    said_twice = t.search(
        h.step_pair, accept=lambda m: (group(m, "n") or "").isdigit() or group(m, "n") in g.words.numbers
    )
    m = said_twice or t.search(h.nth_step)
    if m:  # "de 3 em 3 meses", "every 3rd month"
        n = int(number_of(g, group(m, "n") or "1"))
        unit, n = in_weeks(g, m.group("unit"), group(m, "n"), g.words.calendar_units[m.group("unit")], n)
        t.take(m)
        rule = _every(unit, n) if n >= 1 else ""
        return _on_its_days(t, today, _Rec(rule, _first_of_days(rule, today))) if n >= 1 else None
    return _days_of_the_weeks(t, today, any_range=False)


def _set_position(t: Text, today: date) -> _Rec | None:
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
    n = g.words.month_ordinals[spaced(m.group("ord"))]
    days = g.words.weekday_sets[spaced(m.group("set"))]
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
    words = {g.words.month_ordinals[spaced(o)] for o in habits(g).ordinal_words.findall(said)}
    return {int(d) for d in _YEAR_DAY_FIGURES.findall(said)} | {n for n in words if n > 0}


def _year_weeks(t: Text, today: date) -> _Rec | None:
    """Weeks of the year by their numbers beside a yearly rule or "of every year": "yearly in week
    20", "in weeks 1 and 20 of each year", "jährlich in Kalenderwoche 20", "tous les ans la
    semaine 20": every year on the Monday of each (ISO weeks), the first still to come."""
    m = t.search(habits(t.g).year_weeks) if ANY_FIGURE.search(t.folded) else None
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


def _paired_positions(t: Text, today: date) -> _Rec | None:
    """ "the first Tuesday and the last Thursday of each month", "monthly on the first Sunday and
    the last Sunday", "am ersten Dienstag und letzten Donnerstag jedes Monats": each position
    with its own weekday, every month (or every N months said beside it)."""
    g, h = t.g, habits(t.g)
    m = t.search(h.paired_positions)
    if m is None:
        return None
    monthly = (
        (m, "FREQ=MONTHLY")
        if m.group("every") or spaced(m.group("of") or "") in g.words.of_every_month
        else _unit_rule_said(t, "month")
    )
    if monthly is None:
        return None
    if monthly[0] is not m and m.start() < monthly[0].end() and monthly[0].start() < m.end():
        return None  # "monthly" inside the positions' words
    pairs = [
        (g.words.month_ordinals[spaced(p.group("ord"))], g.words.weekdays[p.group("day")])
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


def _unit_rule_said(t: Text, unit: str) -> tuple[re.Match, str] | None:
    """A rule of `unit` ("month", "year") said in `t` without days of its own ("monthly",
    "mensalmente", "every 3 months", "jährlich", "every 2 years"): its match and its rule, not
    taken."""
    g = t.g
    freq = _FREQ[unit]
    m = t.search(g.freq_word, accept=lambda m: g.words.freq_words[spaced(m.group("w"))] == freq)
    if m:
        return m, f"FREQ={freq}"
    m = t.search(
        g.every_n_units,
        accept=lambda m: (
            g.words.calendar_units[m.group("unit")] == unit
            and (bool(m.group("other")) or m.group("n").isdigit() or number_of(g, m.group("n")) != 1)
        ),
    )
    if m:
        return m, _every(unit, 2 if m.group("other") else int(number_of(g, m.group("n"))))
    m = t.search(g.every_unit, accept=lambda m: g.words.calendar_units[m.group("unit")] == unit)
    return (m, f"FREQ={freq}") if m else None


_DAY_FIGURES = re.compile(r"\d{1,2}")


ANY_FIGURE = re.compile(r"\d")


_YEAR_DAY_FIGURES = re.compile(r"\d{1,3}")


_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # a day every year has (not 29 February)


def _first_monthday(rule: str, today: date) -> date | None:
    """The first day of a rule on a day of the month ("BYMONTHDAY=-1": the month's last day)."""
    parts = rule_parts(rule)
    day = parts.get("BYMONTHDAY", "")
    if day == "-1":
        return today + relativedelta(day=31)
    return next_monthday(today, int(day)) if day.isdigit() else None


def _days_of_the_weeks(t: Text, today: date, *, any_range: bool = True) -> _Rec | None:
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
    start = min(next_weekday(today, d, strictly_after=False) for d in days)
    timed = _time_follows(t, m.end()) or _time_before(t, m.start())
    if not (any_range or m.group("every") or m.group("other") or timed):
        start = next_weekday(today, first, strictly_after=False)  # said alone: from its first day on
    every = "FREQ=WEEKLY;INTERVAL=2" if m.group("other") else "FREQ=WEEKLY"  # "every other Sat-Tue"
    return _Rec(every + ";BYDAY=" + ",".join(RRULE_DAYS[d] for d in sorted(days)), start)


def _times_per(g: Grammar, m: re.Match, today: date) -> _Rec:
    """ "once a week", "twice a month", "3 times a week", "twice a year": the repeat spread evenly."""
    n = g.words.times_words[spaced(m.group("tw"))] if m.group("tw") else int(number_of(g, m.group("n")))
    unit = g.words.calendar_units[m.group("unit")]
    if n <= 1 or unit == "day":
        return _Rec(_every(unit), None)
    if unit == "week" and n in _TIMES_A_WEEK:
        days = [RRULE_DAYS.index(d) for d in _TIMES_A_WEEK[n].split(",")]
        first = min(next_weekday(today, d, strictly_after=False) for d in days)
        return _Rec(f"FREQ=WEEKLY;BYDAY={_TIMES_A_WEEK[n]}", first)
    if unit == "month" and n in _TIMES_A_MONTH:
        monthdays = _TIMES_A_MONTH[n]
        first = min(next_monthday(today, d) for d in monthdays)
        return _Rec("FREQ=MONTHLY;BYMONTHDAY=" + ",".join(map(str, monthdays)), first)
    months = {"year": 12, "half-year": 6, "quarter": 3}.get(unit)
    if months and months % n == 0:
        return _Rec(f"FREQ=MONTHLY;INTERVAL={months // n}" if months // n > 1 else "FREQ=MONTHLY", None)
    return _Rec(_every(unit), None)


def _time_follows(t: Text, end: int) -> bool:
    """A time of day or a part of the day right after ("Tuesdays at 7pm", "samedis à 10h")."""
    after = t.folded[end:].lstrip(" ,")
    g = t.g
    return any(
        p.match(after) for p in (g.clock_at, g.clock_hm, g.clock_h_suffix, g.clock_h_letter, g.part_of_day)
    )


def _felt(t: Text, start: int) -> bool:
    """A feeling right before ("odio los lunes", "adoro as sextas"): the days are its object."""
    return bool(habits(t.g).felt.search(t.folded[max(0, start - 24) : start]))


def _time_before(t: Text, start: int) -> bool:
    """A time of day right before ("at 11:30 AM, Monday through Friday", "um 8 Uhr Montag bis
    Freitag"), as `_time_follows` reads one right after."""
    before = t.folded[:start].rstrip(" ,")
    g, reach = t.g, max(0, len(before) - 24)
    return any(
        m.end() == len(before)
        for p in (g.clock_at, g.clock_hm, g.clock_h_suffix, g.clock_h_letter)
        for m in p.finditer(before, reach)
    )
