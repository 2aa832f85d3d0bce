"""The patterns of repeats said as habits, beside the grammar's own (core/when/patterns.py): a rule
said as one idiom ("tous les quinze jours"), a step said twice ("de 3 em 3 meses") and a range of
weekdays ("from Monday to Friday at 8", "montags bis freitags"). Like patterns.py, no word of any
language is written here: the words are the languages' tables; repeats.py's `said_recurrence`
reads what a match means.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.when.patterns import DASHES, WORD_END, WORD_START, Grammar, any_of, optional_words


@dataclass(frozen=True)
class Habits:
    idiom: re.Pattern[str]  # group w: a key of `repeat_idioms`
    step_pair: re.Pattern[str]  # groups n_<i> (the step: a figure or a word) and unit
    nth_step: re.Pattern[str]  # "every 3rd month": groups n and unit
    monthdays: re.Pattern[str]  # "on the 1st and 15th of every month": groups every, days, each
    monthday_of_month: re.Pattern[str]  # "on the 1st of the month": each month's (group day)
    # a day in words before its month: "the first of every month", "am Ersten jedes Monats" (groups
    # word, each: "of every month"; without it "of the month")
    monthday_word: re.Pattern[str]
    of_month: re.Pattern[str]  # "of the month", "do mês": a cheap look before a costly search
    # days of the month beside a monthly rule said apart ("monthly on the 1st, 15th, and 30th days",
    # "Mensalmente no 1º, 15º e 30º dias do mês", "on day 2 of the month, every 3 months"): days, single
    monthly_days: re.Pattern[str]
    day_figure: re.Pattern[str]  # "day 5", "Tagen 1": a cheap look before `monthly_days` beside "monthly"
    year_days: re.Pattern[str]  # "the 30th day of the year", "am 100. und 200. Tag des Jahres": days, each
    of_year: re.Pattern[str]  # "of the year": a cheap look before `year_days`
    # weeks of the year by their numbers: "in week 20", "in weeks 1 and 20 of the year", "in der
    # 20. Woche", "Kalenderwoche 20", "la semaine 20": groups weeks (figures after the word) or nth
    year_weeks: re.Pattern[str]
    in_months: re.Pattern[str]  # "in June and July", "im Januar und April": group mons (two months or more)
    month_word: re.Pattern[str]  # a month's name: each one of `in_months`' group mons
    in_a_month: re.Pattern[str]  # "in May", "im Januar, Juli", "en mai": group mons (one month or more)
    every_glued: re.Pattern[str]  # de "jeden Sonntagabend": groups day and part (a bare part of the day)
    # a month and more after it ("enero y julio", "January, April and July"): group more
    month_run: re.Pattern[str]
    # de "jeden Dienstag- und Donnerstagabend", "montags- und mittwochsabends": the hyphen stands for
    # the ending the days share; groups every, heads (the days before it), day, adverb, part
    shared_ending: re.Pattern[str]
    lead_only: re.Pattern[str]  # nothing but a lead word ("les", "on"): what is after it is said alone
    every_word: re.Pattern[str]  # "every", "jeden", "cada": a cheap look before a costly search
    every_before: re.Pattern[str]  # "every" right before what follows: "every July 4th", "every Christmas"
    and_then: re.Pattern[str]  # ", ", " and ": another day of a list follows ("le mardi et le jeudi")
    day_range: re.Pattern[str]  # groups other/every, day1/adverb1, day2/adverb2, plural1/2
    except_days: re.Pattern[str]  # "except Sundays", "außer am Wochenende": groups weekend, days
    every_month_name: re.Pattern[str]  # "every January", "cada mes de marzo": groups of, mon
    positions: re.Pattern[
        str
    ]  # "the first and third Friday of each month": groups every (month), each, ords, day, of
    ordinal_words: re.Pattern[str]  # the ordinals of `positions`' group ords
    # "the first Tuesday and the last Thursday of each month": groups every, pairs, of
    paired_positions: re.Pattern[str]
    position_pair: re.Pattern[str]  # one of `paired_positions`' pairs: groups ord and day
    bounded: re.Pattern[str]  # a start or an end said right after: "from 4 January", "ab nächster Woche"
    felt: re.Pattern[str]  # a feeling right before: "odio" in "odio los lunes"
    yearly_days: re.Pattern[str]  # "every 20th and 30th of August", "tous les 20 et 30 août": days, mon
    by_the_clock: re.Pattern[str]  # a word of a step of the clock ("hour", "stündlich"): a cheap look first
    joined: re.Pattern[str]  # a comma or an "and" (a list's): a cheap look first, no run of spaces tried
    # "the last weekday of the month", "am ersten Werktag", "le premier jour ouvré": groups ord, set, each
    set_position: re.Pattern[str]
    set_word: re.Pattern[str]  # a set's word: a cheap look before `set_position`


ORDINAL_MARKS = ("º", "°", "ª")  # "1º", "15°": an ordinal's mark in any of the languages
_BUILT: dict[int, tuple[Grammar, Habits]] = {}


def habits(g: Grammar) -> Habits:
    """The habits' patterns of grammar `g`, compiled once."""
    found = _BUILT.get(id(g))
    if found is None or found[0] is not g:
        found = _BUILT[id(g)] = (g, _compile(g))
    return found[1]


def compile_folded(pattern: str) -> re.Pattern[str]:
    """Read on folded text (lower case already): without IGNORECASE a regex scans several times
    faster."""
    return re.compile(pattern)


def _compile(g: Grammar) -> Habits:
    w, b, e = g.words, WORD_START, WORD_END
    amount = r"(?:\d+|[^\W\d_]+)"  # a figure or a word (parse.py reads only a number's: a table's long
    # alternation twice over took 28 ms to compile)
    pairs = [pair.split() for pair in w.step_pairs if len(pair.split()) == 2]
    steps = "|".join(
        rf"(?:{re.escape(first)})\s+(?P<n_{i}>{amount})\s+(?:{re.escape(then)})\s+(?P=n_{i})"
        for i, (first, then) in enumerate(pairs)
    )
    number = rf"\d{{1,2}}(?:{any_of((*w.day_suffixes, *w.ordinal_suffixes))})?(?!\d)"
    the = optional_words((*w.monthday_lead, *w.day_articles, *w.month_day_articles, *w.position_articles))
    one_day = rf"(?:{any_of(w.month_day_words)})(?:{any_of(w.plural_endings)})?"
    day_words = rf"(?:{one_day}|(?:{any_of(w.month_day_plurals)}))" if w.month_day_plurals else one_day
    day_word = rf"(?:{day_words}\s+)?"
    # a list starts where no figure stood just before it, and is read at once (possessive): a text of
    # many figures ("1, 2, 3, …") is read in linear time
    fresh = "".join(rf"(?<!\d.{{{k}}})" for k in range(10))
    listed = rf"{fresh}{number}(?:\s*(?:,|{any_of(w.and_words)})\s*{the}{number})++"
    of_month = rf"(?P<each>{any_of(w.of_every_month)})|(?:{any_of(w.of_the_month)})"
    # a day in figures with its ordinal's mark ("1st", "1.", "1º", "1°"); a list of them, a comma
    # before its last "and" or not ("the 1st, 15th, and 30th"), read at once as `listed` is
    marks = any_of((*w.day_suffixes, *w.ordinal_suffixes, *ORDINAL_MARKS))
    marked = rf"\d{{1,2}}(?:{marks})?(?!\d)"
    joint = rf"\s*(?:,(?:\s*(?:{any_of(w.and_words)}){e})?|(?:{any_of(w.and_words)}))\s*"
    marked_list = rf"{fresh}{marked}(?:{joint}{the}{marked})++"
    # a day of the year: up to 366, or an ordinal in words ("the first, the 100th and the 200th")
    first_ordinals = any_of(
        tuple(word for word, n in w.month_ordinals.items() if n > 0 and not word[0].isdigit())
    )
    year_day = rf"(?:\d{{1,3}}(?:{marks})?(?!\d)|(?:{first_ordinals}){e})"
    weeks = (*(word for word, unit in w.calendar_units.items() if unit == "week"), *w.week_of_year_words)
    week_number = r"\d{1,2}(?!\d)"
    week_numbers = rf"{fresh}{week_number}(?:{joint}{week_number})*+"
    week_nth = rf"{fresh}\d{{1,2}}(?:{marks})?(?!\d)(?:{joint}{the}\d{{1,2}}(?:{marks})?(?!\d))*+"
    year_days = rf"{fresh}{year_day}(?:{joint}{the}{year_day})*+"
    day, adverb = any_of(w.weekdays), any_of(w.weekday_adverbs)
    leads = (
        *w.weekdays_lead,
        *w.weekday_lead,
        *w.day_articles,
        *w.weekday_lead_in_captures,
        *w.days_alone_lead,
    )
    suffix, plural = any_of(w.weekday_suffixes), any_of(w.plural_endings)
    article = optional_words(w.day_articles)
    to = rf"(?:\s*(?:{any_of(DASHES)})\s*|\s+(?:{any_of(w.day_range_to)})\s+)"

    before_days = optional_words(
        (*w.weekday_lead, *w.weekdays_lead, *w.day_articles, *w.weekend_lead, *w.except_lead)
    )
    plural_day = rf"(?:{day})(?:{suffix})?(?:{plural})?|(?:{adverb})"
    weekend = any_of((*w.weekends_every, *w.weekends_timed, *w.weekends, *w.weekend))
    and_then = rf"\s*(?:,\s*(?:(?:{any_of(w.and_words)})\s+)?|(?:{any_of(w.and_words)})\s+)"

    ordinal = any_of(w.month_ordinals)
    clock_words = [
        *(word for word, unit in w.calendar_units.items() if unit.startswith("clock-")),
        *(
            word
            for word, rule in {**w.freq_words, **w.repeat_idioms}.items()
            if rule.startswith(("HOURLY", "MINUTELY"))
        ),
    ]
    date_articles = optional_words((*w.articles, *w.date_lead, *w.month_alone_lead))
    position = optional_words((*w.position_articles, *w.monthday_lead))

    def one(i: int) -> str:
        return rf"(?:{article}(?P<day{i}>{day})(?:{suffix})?(?P<plural{i}>{plural})?|(?P<adverb{i}>{adverb}))"

    return Habits(
        idiom=compile_folded(rf"{b}(?P<w>{any_of(w.repeat_idioms)}){e}"),
        monthdays=compile_folded(
            rf"{b}(?:(?P<every>{any_of(w.every)})\s+)?{the}{day_word}(?P<days>{listed})\s+(?:{of_month}){e}"
        ),
        # "the month" and no particular one is each month ("pay rent on the 1st of the month", "dia 5
        # do mês", "am 1. des Monats"); "of next month" one date
        of_month=compile_folded(rf"{b}(?:{any_of(w.of_the_month)}){e}"),
        monthday_of_month=compile_folded(
            rf"{b}{the}{day_word}(?P<day>{marked})\s+(?:{any_of(w.of_the_month)})"
            rf"(?!\s+(?:{any_of(w.next_after)}){e}){e}"
        ),
        monthday_word=compile_folded(
            rf"{b}{the}{day_word}(?P<word>{any_of(w.day_numbers)})\s+(?:{of_month})"
            rf"(?!\s+(?:{any_of(w.next_after)}){e}){e}"
        ),
        monthly_days=compile_folded(
            rf"{b}{the}{day_word}(?:(?P<days>{marked_list})(?:\s+{day_words})?(?:\s+(?:{any_of(w.of_the_month)}))?"
            rf"|(?:{day_words})\s+(?P<single>{marked})(?:\s+(?P<of>{any_of(w.of_the_month)}))?){e}"
        ),
        year_days=compile_folded(
            rf"{b}{the}{day_word}(?P<days>{year_days})(?:\s+{day_words})?\s+"
            rf"(?:(?P<each>{any_of(w.of_every_year)})|(?:{any_of(w.of_the_year)})){e}"
            if w.of_the_year and w.of_every_year
            else "(?!)"
        ),
        day_figure=compile_folded(rf"{b}(?:{day_words})\s+\d"),
        year_weeks=compile_folded(
            rf"{b}(?:(?:{any_of(w.months_lead)})\s+)?{the}(?:(?:{any_of(weeks)})\s+(?P<weeks>{week_numbers})"
            rf"|(?P<nth>{week_nth})\s+(?:{any_of(weeks)}))"
            rf"(?:\s+(?:(?P<each>{any_of(w.of_every_year)})|(?:{any_of(w.of_the_year)})))?{e}"
            if w.of_the_year and w.of_every_year
            else "(?!)"
        ),
        of_year=compile_folded(
            rf"{b}(?:{any_of((*w.of_the_year, *w.of_every_year))}){e}" if w.of_the_year else "(?!)"
        ),
        in_months=compile_folded(
            rf"{b}(?:{any_of(w.months_lead)})\s+(?P<mons>(?:{any_of(w.months)})"
            rf"(?:{joint}(?:{any_of(w.months_lead)}\s+)?(?:{any_of(w.months)}))++){e}"
            if w.months_lead
            else "(?!)"
        ),
        month_word=compile_folded(rf"{b}(?:{any_of(w.months)}){e}"),
        month_run=compile_folded(
            rf"{b}(?:{any_of(w.months)})(?P<more>(?:{joint}(?:(?:{any_of(w.months_lead)})\s+)?"
            rf"(?:{any_of(w.months)}){e})++)"
        ),
        in_a_month=compile_folded(
            rf"{b}(?:{any_of(w.months_lead)})\s+(?P<mons>(?:{any_of(w.months)})"
            rf"(?:{joint}(?:{any_of(w.months_lead)}\s+)?(?:{any_of(w.months)}))*+){e}"
            if w.months_lead
            else "(?!)"
        ),
        every_glued=compile_folded(
            rf"{b}(?:{any_of(w.every)})\s+(?P<day>{day})(?P<part>{any_of(w.bare_parts)}){e}"
        ),
        shared_ending=compile_folded(
            rf"{b}(?:(?P<every>{any_of(w.every)})\s+)?(?P<heads>(?:{day}|{adverb})-(?:\s*,\s*(?:{day}|{adverb})-)*)"
            rf"\s*(?:{any_of(w.and_words)})\s+(?P<day>{day})(?P<adverb>s)?(?P<part>{any_of(w.bare_parts)})s?{e}"
            if w.bare_parts
            else "(?!)"
        ),
        lead_only=compile_folded(rf"\s*(?:(?:{any_of(leads)})\s+)?\Z"),
        every_word=compile_folded(rf"{b}(?:{any_of(w.every)})\s"),
        every_before=compile_folded(rf"{b}(?:{any_of(w.every)})\s+$"),
        and_then=compile_folded(rf"\s*(?:,|{any_of(w.and_words)})\s*"),
        nth_step=compile_folded(
            rf"{b}(?:{any_of(w.every)})\s+(?P<n>\d+)(?:{any_of(w.ordinal_suffixes)})\s+(?P<unit>{g.calendar_units}){e}"
        ),
        step_pair=compile_folded(rf"{b}(?:{steps or '(?!)'})\s+(?P<unit>{g.calendar_units}){e}"),
        positions=compile_folded(  # "every" before a list of positions: no step of weeks can be meant
            rf"{b}(?:(?P<every>{any_of(w.every_month)}),?\s+|(?P<each>{any_of(w.every)})\s+)?{position}"
            # a month has at most five of a weekday: a longer list is no position (and read linearly)
            rf"(?P<ords>(?:{ordinal})(?:{and_then}{position}(?:{ordinal})){{1,4}})\s+"
            rf"(?P<day>{day})(?:{suffix})?(?:{plural})?(?:\s+(?P<of>{any_of(w.of_the_month)}))?{e}"
        ),
        bounded=compile_folded(
            rf"\s*,?\s*(?:{any_of(w.repeat_bounds)})\s+{date_articles}"
            rf"(?:\d|(?:{any_of((*w.months, *w.next_before))}){e})"
        ),
        set_position=compile_folded(
            rf"{b}{position}(?P<ord>{ordinal})\s+(?P<set>{any_of(w.weekday_sets)})"
            rf"(?:\s+(?:(?P<each>{any_of(w.of_every_month)})|(?P<of>{any_of(w.of_the_month)})"
            # "of each year", "des Jahres"; "im Dezember", "de diciembre" beside a yearly rule
            rf"|(?P<year>{any_of((*w.of_every_year, *w.of_the_year))})"
            rf"|(?:{any_of((*w.months_lead, *w.of_a_month))})\s+(?P<mon>{any_of(w.months)})))?{e}"
            if w.weekday_sets
            else "(?!)"
        ),
        set_word=compile_folded(rf"{b}(?:{any_of(w.weekday_sets)}){e}" if w.weekday_sets else "(?!)"),
        joined=compile_folded(rf",|{b}(?:{any_of(w.and_words)}){e}"),
        by_the_clock=compile_folded(rf"{b}(?:{any_of(clock_words)}){e}" if clock_words else "(?!)"),
        yearly_days=compile_folded(
            rf"{b}(?:{any_of(w.every)})\s+{the}(?P<days>{listed})\s+"
            rf"{optional_words((*w.of_a_month, *w.day_month_joiners))}(?P<mon>{any_of(w.months)}){e}"
        ),
        felt=compile_folded(rf"{b}(?:{any_of(w.day_feelings)})\s+\Z" if w.day_feelings else "(?!)"),
        ordinal_words=compile_folded(rf"{b}(?:{ordinal}){e}"),
        paired_positions=compile_folded(
            rf"{b}(?:(?P<every>{any_of(w.every_month)}),?\s+)?{position}"
            # a month has at most five of a weekday: a longer list is no position (and read linearly)
            rf"(?P<pairs>(?:{ordinal})\s+(?:{day})(?:{suffix})?(?:{plural})?"
            rf"(?:{and_then}{position}(?:{ordinal})\s+(?:{day})(?:{suffix})?(?:{plural})?){{1,4}})"
            rf"(?:\s+(?P<of>{any_of(w.of_the_month)}))?{e}"
        ),
        position_pair=compile_folded(rf"{b}(?P<ord>{ordinal})\s+(?P<day>{day}){e}"),
        every_month_name=compile_folded(
            rf"{b}(?:{any_of(w.every)})\s+(?P<of>{optional_words(w.month_of)})(?P<mon>{any_of(w.months)}){e}"
            rf"(?!\s*\d)"
        ),
        except_days=compile_folded(
            rf"{b}(?:{any_of(w.except_words)})\s+(?:{before_days}(?P<weekend>{weekend})|"
            rf"(?P<days>{before_days}(?:{plural_day})(?:{and_then}{before_days}(?:{plural_day}))*)){e}"
            if w.except_words
            else "(?!)"
        ),
        day_range=compile_folded(
            rf"{b}(?:(?P<other>{any_of(w.every_other)})\s+|(?P<every>{any_of(w.every)})\s+)?"
            rf"{optional_words(w.day_range_from)}"
            rf"{one(1)}{to}{one(2)}{e}"
        ),
    )
