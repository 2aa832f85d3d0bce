"""The day a text says: dates in figures and in words, weekdays, day words ("tomorrow",
"übermorgen"), parts of a month, named days (holidays), and the next such day from today."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import cache

from dateutil.relativedelta import FR, MO, SA, SU, TH, TU, WE, relativedelta

from core.when.habits import habits
from core.when.holidays import DAYS, FEAST_DAY, country_days
from core.when.language import fold
from core.when.patterns import Grammar, any_of, group
from core.when.reading import Text, past_spaces, spaced, text_language
from core.when.region import Region
from core.when.spoken import MONTH_NAMES

WEEKDAY_OF = (MO, TU, WE, TH, FR, SA, SU)


RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def next_weekday(today: date, wd: int, *, strictly_after: bool) -> date:
    delta = (wd - today.weekday()) % 7
    if delta == 0 and strictly_after:
        delta = 7
    return today + timedelta(days=delta)


def _ahead_this_week(today: date, wd: int, region: Region) -> bool:
    """The weekday is still to come in today's week, as the region counts its weeks (en_US from
    Sunday, en_GB from Monday)."""
    start = region.first_week_day
    return (wd - start) % 7 > (today.weekday() - start) % 7


def next_monthday(today: date, day: int) -> date:
    y, m = today.year, today.month
    for _ in range(14):
        if day <= calendar.monthrange(y, m)[1] and date(y, m, day) >= today:
            return date(y, m, day)
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return today


def month_ok(t: Text, m: re.Match, *, with_day: bool) -> bool:
    """A month word beside a day number is a month; alone, an ambiguous one ("may", "march",
    "Marco") only when capitalised and not "May" opening a sentence, or written with its accent
    ("em março": "marco" is a landmark, "Marco" a name). Before a day number, a short weekday of
    the text's language is that weekday (fr "mar. 22": mardi 22, not 22 March), and another
    language's month word a month only with a year, a capital or the end of its clause after the
    day (es "el mar 22 grados" is the sea)."""
    word = m.group("mon")
    if group(m, "d") and m.start("mon") < m.start("d"):
        language = text_language(fold(t.original), t.g, t.region)
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


def _after_next(m: re.Match) -> bool:
    """ "Friday after next", "the week after next", de "übernächsten Freitag": the one after next."""
    return bool(m.groupdict().get("after_next") or m.groupdict().get("after_next_pre"))


def _weekday_ok(t: Text, m: re.Match) -> bool:
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


def position_in_month(g: Grammar, m: re.Match, today: date) -> tuple[str, date]:
    """(the RRULE part, the next such day from today) of "the last Friday of the month"; of a named
    month ("the first Tuesday of October (2014)"), that month's (this year's, else next year's)."""
    n = g.words.month_ordinals[spaced(m.group("ord"))]
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
    yearly = spaced(m.group("period")) in g.words.year
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


def _weekend_of_month(t: Text, today: date) -> tuple[date, bool] | None:
    """ "le premier week-end de septembre", "the last weekend of May (2027)": that Saturday of the
    month, as a weekend is its Saturday (this year's, else next year's)."""
    m = t.search(t.g.weekend_of_month)
    if not m:
        return None
    t.take(m)
    n, month = t.g.words.month_ordinals[spaced(m.group("ord"))], t.g.words.months[m.group("mon")]
    years = [int(m.group("y"))] if m.group("y") else [today.year, today.year + 1]
    for year in years:
        found = date(year, month, 1) + relativedelta(day=31 if n < 0 else 1, weekday=SA(n))
        if found.month == month and (m.group("y") or found >= today):
            break
    return found, bool(m.group("y"))


def said_date(t: Text, now: datetime) -> tuple[date, bool] | None:
    """(a calendar date, whether a year was given) written in the text."""
    g, today = t.g, now.date()
    numeric, named = (lambda m: int(m.group("m"))), (lambda m: g.words.months[m.group("mon")])
    # beside a day in figures a month word is a month; beside one in words only joined to it ("the
    # first of march") or as a month alone would be ("second march": capitalised)
    with_month = lambda m: month_ok(
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
            day = g.words.day_numbers[spaced(words)] if words else int(m.group("d"))
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
        return position_in_month(g, m, today)[1], bool(m.group("y"))
    # "June 2027": its first day; a month begun or gone by ("the March 2025 invoice") names, it is
    # not due
    m = t.search(
        g.month_year,
        accept=lambda m: (
            # "march 2028": a month's whole name, or a year in figures, makes it a month ("I may 2027"
            # still needs its capital)
            month_ok(
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
    m = t.search(g.month_alone, accept=lambda m: month_ok(t, m, with_day=len(m.group("mon")) > 3))
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
    if m:  # "jue 22", "Do., 22.": the next 22nd that is a Thursday (on_its_weekday)
        t.take(m)
        t.month_said = False
        t.date_weekday = _short_weekday(t, m)
        return next_monthday(today, int(m.group("d"))), False
    language = cache(lambda: text_language(fold(t.original), g, t.region))  # read once, if asked
    m = t.search(g.day_of_month, accept=lambda m: _weekday_word_ok(t, m) and _day_word_ok(g, m, language))
    if m:
        word = group(m, "day_word")  # "dia primeiro", "el primero", "le premier"
        day = g.words.day_numbers[spaced(word)] if word else int(group(m, "day") or 0)
        if 1 <= day <= 31:
            t.take(m)
            t.month_said = False
            inside = g.weekday.search(m.group(0))  # "Tuesday 21st", "viernes 20"
            t.date_weekday = g.words.weekdays[inside.group("day")] if inside else None
            return next_monthday(today, day), False
    return _holiday(t, today)


_DAY_OF_A_MONTH = (("d1", "of1", "suf1", "lead1"), ("d2", "of2", "suf2", "lead2"))  # the day, its marks


def _short_weekday(t: Text, m: re.Match) -> int | None:
    """The weekday a short form ("jue", "qui.", "Do.") names in the text's language: None when it
    is no short form of that language's ("mar" in a Spanish text, "do" in an English one), or one
    read only with its dot or a comma written without (de "So")."""
    g, form = t.g, m.group("day")
    language = text_language(fold(t.original), g, t.region)
    own = g.abbreviation_of.get(form, {})
    if language in own:
        return own[language]
    dotted = g.dotted_of.get(form, {})
    return dotted[language] if language in dotted and m.group("mark").strip() else None


def _short_weekday_day_ok(t: Text, m: re.Match) -> bool:
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
    return not word or spaced(word) in g.day_numbers_of.get(language(), frozenset())


def _weekday_word_ok(t: Text, m: re.Match) -> bool:
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


def _month_part(t: Text, today: date) -> tuple[date, bool] | None:
    """ "Ende Januar", "mi-janvier", "a mediados de enero", "no início de março": the part of the
    month questions read (core/when/window.py), due on its first day (a range is due at its start),
    today when it has begun; the coming one when this year's is over."""
    m = t.search(t.g.month_half)
    if not m:
        return None
    month = t.g.words.months[m.group("mon")]
    a, b = t.g.words.month_parts[spaced(m.group("part"))]
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


def _holiday(t: Text, today: date) -> tuple[date, bool] | None:
    """A feast by name, the next one (today included): "on Easter" (its Sunday), "Fronleichnam",
    "dia de Reis", "Thanksgiving 2027"; else a public holiday of the region's country by a name the
    `holidays` package gives it ("Dia de Todos os Santos")."""
    g = t.g

    def said(m: re.Match) -> bool:
        name = spaced(m.group("name"))
        return name not in g.words.everyday_holiday_names or t.capital(m.start("name"))

    m = t.search(g.holiday, accept=said)
    if m:
        t.take(m)
        day_id = g.words.holidays[spaced(m.group("name"))]
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
    coming = [d for d in days[spaced(m.group(0))] if d >= today]
    return (coming[0] if coming else days[spaced(m.group(0))][-1]), False


@cache
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w)(?:{any_of(names)})(?!\w)")


def on_its_weekday(t: Text, written: tuple[date, bool]) -> tuple[date, bool]:
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


def _numeric_date(t: Text, today: date) -> tuple[date, bool] | None:
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


def _year_of_the_end(t: Text, m: re.Match, *, take: bool = False) -> str | None:
    """The year written once at a range's end is its start's too ("10 August - 12 September 2013",
    "du 10 août au 12 septembre 2013"); None when the date is no range's start. `take`: the range's
    end is read with it (a reading of the start alone accounts for less of the text)."""
    to = t.g.range_to_end.match(t.folded, m.end())
    if not to:
        return None
    at = to.end()
    weekday = t.g.weekday.match(t.folded, at)  # "Samstag 5.8. - Mittwoch 16.8.2017"
    if weekday and not weekday.group("pre"):
        at = past_spaces(t.folded, weekday.end() + (t.folded[weekday.end() : weekday.end() + 1] == ","))
    for pattern in (t.g.day_month, t.g.month_day, t.g.numeric_date):
        end = pattern.match(t.folded, at)
        if end and end.group("y"):
            if take:
                t.take_span(to.start(), end.end())
            return end.group("y")
    return None


def _numeric_year_of_the_end(t: Text, m: re.Match, month: int) -> str | None:
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


def _range_start(t: Text, m: re.Match, d: date) -> date:
    """The day a range ends on at `m` starts on, when the day number before it says one ("from 5
    to 16 Aug", "15-18 Nov", "5. bis zum 16.8."): what is due is due at its start. "and" ("dia 5
    e 10") joins a range only after its "from" ("entre 5 e 10 de junho")."""
    r = t.g.range_start_day.search(t.folded, 0, m.start())
    if not r or (t.g.range_and(spaced(r.group("to"))) and not r.group("from")):
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


def said_day_word(t: Text, now: datetime) -> tuple[date, str] | None:
    g, today = t.g, now.date()
    m = t.search(g.today_part, accept=lambda m: g.today_part_of.get(spaced(m.group("w"))) is not None)
    if m:  # "this morning": today's, even once its hour has gone by
        t.take(m)
        t.today_part = g.today_part_of[spaced(m.group("w"))]
        other = said_day_word(t, now)  # "tomorrow this afternoon": that part of the day named
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
        start = next_weekday(today, t.region.first_week_day, strictly_after=True)  # the region's week
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
        found = next_weekday(today, wd, strictly_after=nxt)
        if _after_next(m):  # "Friday after next", "übernächsten Freitag": a week after next Friday
            return found + timedelta(days=7), "day"
        if m.group("weeks_later"):  # "mardi en huit": a week after the coming Tuesday, today's on one
            weeks = g.words.weeks_later[spaced(m.group("weeks_later"))]
            return next_weekday(today, wd, strictly_after=False) + timedelta(days=7 * weeks), "day"
        if g.is_next_weeks_before(m.group("pre") or "") and _ahead_this_week(today, wd, t.region):
            found += timedelta(days=7)  # "next Friday" said on a Monday: next week's, not this one
        return found, "next-weekday" if nxt else "weekday"
    short = g.abbreviation_of
    language = cache(lambda: text_language(fold(t.original), g, t.region))  # only if one is found
    m = t.search(g.weekday_abbreviation, accept=lambda m: language() in short[m.group("day")])
    if m:  # "Jeu 15:12", "mer. à 15h" in a French text, "sex 15h" in a Portuguese one
        t.take(m)
        return next_weekday(today, short[m.group("day")][language()], strictly_after=False), "weekday"
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
        return next_weekday(today, g.dotted_of[m.group("day")][language()], strictly_after=False), "weekday"
    m = t.search(g.next_week)
    if m:  # its Monday ("the week after next": the one after)
        t.take(m)
        return next_weekday(today, 0, strictly_after=True) + timedelta(days=7 * _after_next(m)), "day"
    m = t.search(g.weekend)
    if m:
        nxt = bool(g.is_next_before(m.group("pre") or "") or m.group("post"))
        t.take(m)
        sat = next_weekday(today, 5, strictly_after=False)
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
