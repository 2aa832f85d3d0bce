"""What the date grammar knows of one language: its words and its idioms, as tables.

A language is one file in core/when/languages/ holding one `Language`; the grammar
(core/when/patterns.py) is built from several of them merged. No regex and no word of any language
is written anywhere else in core/when: patterns.py says how tables combine, parse.py and window.py
what a match means.

Words are written as people write them ("mañana", "nächste"); `merge` folds them (lower case,
accents dropped, see `fold`), so "mañana", "manana" and "MAÑANA" are one word.

Idioms ("un mercredi sur deux", "en lo que va de mes") are templates: words separated by spaces
(any run of spaces in the text), `[a|b]` an optional choice, `(a|b)` a required one, `{slot}` a
piece the grammar defines (a weekday, a day number, a period word, …), `{slot=a|b}` that piece
limited to these words. Pieces written together ("{day}[er]", "de l'{unit}") are read together.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, fields
from typing import Any

APOSTROPHES = "’‘`´ʼʻ՚ꞌ＇′‵ʹ"  # all written for "'" ("aujourd’hui", "aujourdʼhui")


def _fold_char(c: str) -> str:
    if c in APOSTROPHES:
        return "'"
    return (unicodedata.normalize("NFD", c)[0].lower() or c)[0]


def fold(text: str) -> str:
    """Lower case without accents, one character for one: spans found in the folded text are
    spans of the original."""
    if text.isascii():
        return text.lower().replace("`", "'")
    return "".join(_fold_char(c) for c in text)


Words = tuple[str, ...]


@dataclass(frozen=True)
class Language:
    code: str  # ISO 639-1: "en", "pt"…
    name: str = ""  # in the language itself

    # -- the calendar ---------------------------------------------------------------------------
    months: dict[str, int] = field(default_factory=dict)  # "january", "jan": 1
    # month words that are everyday words too: a month only beside a day number, a year or a
    # preposition ("in May", "em março" -- not "Marco", "may I", "a long march")
    ambiguous_months: Words = ()
    # short month names that are another language's words (pt "set", "out", es "ago"): months only
    # in a text of this language (the language most of its words are in; else the region's)
    own_text_months: dict[str, int] = field(default_factory=dict)
    weekdays: dict[str, int] = field(default_factory=dict)  # "monday", "mon": 0
    # weekday words that are other words too ("sun", pt "quinta" = farm): a day only after a
    # preposition or next/last, or with its suffix
    ambiguous_weekdays: Words = ()
    # short weekday forms that are words of other languages too (fr "jeu", "mer", "sam", "dim"): a
    # day only before a time or a day number, in a text written in this language (parse.py)
    weekday_abbreviations: dict[str, int] = field(default_factory=dict)
    # short weekday forms written with their dot or a comma (de "Mo.", "Fr. 14 Uhr", "am Sa, 21.
    # Sept"): a day before a time or a day number, after a weekday's lead, or as the whole text, in a
    # text written in this language (parse.py)
    dotted_weekdays: dict[str, int] = field(default_factory=dict)
    # short weekday forms read only in a list of short forms ("Semanalmente el mar, jue"): es "mar"
    listed_weekdays: dict[str, int] = field(default_factory=dict)
    weekday_suffixes: Words = ()  # pt "-feira", "-feiras"
    weekday_adverbs: dict[str, int] = field(default_factory=dict)  # de "montags": every Monday
    plural_endings: Words = ()  # "mondays", "segundas", "mercredis"
    numbers: dict[str, int] = field(default_factory=dict)  # "two", "a couple of": 2
    # unit -> (kind, amount): kind is "seconds"/"minutes" or "days"/"months"/"years" (calendar steps)
    units: dict[str, tuple[str, int]] = field(default_factory=dict)
    calendar_units: dict[str, str] = field(default_factory=dict)  # of a repeat: "weeks": "week"
    # a part of an hour or of a minute, in minutes: "half an hour", "um quarto de hora", "half a minute"
    hour_fractions: dict[str, float] = field(default_factory=dict)
    and_a_half: Words = ()  # between an amount and its unit: "in 2 and a half hours"
    unit_and_a_half: Words = ()  # after the unit: "em 2 horas e meia", "dans 2 heures et demie"
    about: Words = ()  # before an amount: "in about an hour", "dans environ 23 heures"
    more: Words = ()  # after an amount: "in 2 more minutes"
    from_now: Words = ()  # after the unit: "2 minutes from now", "3 years from today", "10 minutes later"
    now_words: Words = ()  # "now", "agora": this very moment (in a short text: see parse.py)
    utc_words: Words = ()  # "3pm UTC", "12:00:00Z": a time in UTC (a zone's abbreviation names several)
    # the same after "is", at a clause's end, in a text of any length ("o prazo final é agora, ok")
    now_predicates: Words = ()
    offset_after: Words = ()  # "two weeks from tomorrow", "2 days after Friday", "dois dias depois de amanhã"
    offset_before: Words = ()  # "2 months before 02/02"
    offset_one: Words = ()  # one step, said as an article: "the day after Christmas", "the week before"
    offset_one_units: Words = ()  # the units that say one step with no article: "day after Christmas"
    # a step of days said in one word, with its "of", and the days it counts: fr "le lendemain du" 1
    offset_words: dict[str, int] = field(default_factory=dict)
    end_of: Words = ()  # "end of the day", "fim do mês", "Ende der Woche": its last day, END_HOUR
    end_of_words: dict[str, str] = field(default_factory=dict)  # one word: "EOD", de "Monatsende"
    # "the end of" with no article, only before this or next: "Ende nächster Woche" ("Ende" is a word)
    end_of_bare: Words = ()
    # a day's own words after "the end of" that its units lack: fr "en fin de journée", de "Ende des Tages"
    end_of_day: Words = ()
    possessive_endings: Words = ()  # "Easter's", "Christmas's"
    # month words that open a sentence as a verb ("May I …"): a month there only with a preposition
    verb_months: Words = ()
    day_suffixes: Words = ()  # after a day number: "15th", "15º", "1er", "15."
    day_numbers: dict[str, int] = field(
        default_factory=dict
    )  # in words: "the first of March", "cinco de maio"
    ordinal_suffixes: Words = ()  # of an ordinal number written in figures: "1st", "2nd"

    # -- days and periods -------------------------------------------------------------------------
    today: Words = ()
    tonight: Words = ()
    tomorrow: Words = ()
    # words before a "tomorrow" word that make it a morning (es "la mañana", de "guten Morgen")
    not_tomorrow_after: Words = ()
    after_tomorrow: Words = ()
    yesterday: Words = ()
    # a yesterday word another language uses otherwise (fr "hier", de "here"): yesterday only in a
    # text with one of these words
    yesterday_only_with: dict[str, Words] = field(default_factory=dict)
    before_yesterday: Words = ()
    today_parts: Words = ()  # a part of today: "this morning", "heute Nachmittag"
    next_before: Words = ()  # "next week", "próxima semana"
    next_after: Words = ()  # "semana que vem", "la semaine prochaine"
    # of next_before, the words that make a weekday next week's while this week's is still ahead
    # (en "next Friday" said on a Monday: most English parsers' reading); the others' is the coming one
    next_weeks_before: Words = ()
    last_before: Words = ()
    last_after: Words = ()
    this_before: Words = ()
    next_after_count: Words = ()  # fr "les 3 prochains jours"
    last_after_count: Words = ()  # fr "les 3 derniers jours"
    these: Words = ()  # "these 3 days", fr "ces 3 derniers jours"
    week: Words = ()
    weekend: Words = ()
    month: Words = ()
    year: Words = ()
    period_words: dict[str, str] = field(default_factory=dict)  # more words of a period: de "monats"
    in_words: Words = ()  # "in 10 minutes", "daqui a 10 minutos"
    ago_before: Words = ()  # "há 2 dias", "vor 2 Tagen"
    ago_after: Words = ()  # "2 days ago"
    last_year_before: Words = ()  # "last year's Christmas"
    this_year_before: Words = ()
    next_year_before: Words = ()
    last_year_after: Words = ()  # "Easter last year", "Natal do ano passado"
    this_year_after: Words = ()
    next_year_after: Words = ()

    # -- the little words around them -------------------------------------------------------------
    articles: Words = ()
    week_articles: Words = ()  # before "week" in "a semana que vem"
    month_articles: Words = ()  # before "month" in "o mês que vem"
    dotted_date_lead: Words = ()  # de "am 19.12": day.month without its final dot is a date after it
    spaced_date_lead: Words = ()  # fr "le 20 2 14", "le 17 02": day and month apart are a date after it
    month_alone_lead: Words = ()  # "in July", "em julho", "bis Juli": a month alone after it is its 1st
    date_lead: Words = ()  # before the day number of a date: "on the 12 June", "dia 6 de junho"
    day_month_joiners: Words = ()  # "6 de junho", "the 3rd of June"
    year_joiners: Words = ()  # "6 de junho de 2025"
    month_day_lead: Words = ()  # "on June 12"
    month_day_articles: Words = ()  # "February the 15th"
    of_a_month: Words = ()  # "the last Friday of March", "o último dia de março"
    weekday_of_week: Words = ()  # "Wednesday of next week", "quarta da semana que vem"
    after_next: Words = ()  # "Friday after next": a week after next Friday
    # fr "lundi en huit": so many weeks after the coming Monday (today, said on a Monday)
    weeks_later: dict[str, int] = field(default_factory=dict)
    # a day unit -> the counts of it that are whole weeks, the day itself counted: fr "dans huit
    # jours", "dans quinze jours", pt "daqui a quinze dias", de "in acht Tagen" (a week, two weeks)
    weeks_of_days: dict[str, tuple[int, ...]] = field(default_factory=dict)
    after_next_before: Words = ()  # the same before a weekday, week or month: de "übernächsten Freitag"
    weekday_lead: Words = ()  # "on Monday", "na segunda", "am Montag"
    weekday_lead_in_captures: Words = ()  # more of them read in capture text: "de segunda"
    weekday_lead_in_questions: Words = ()  # more of them read in questions: "o sábado"
    weekend_lead: Words = ()  # "at the weekend", "no fim de semana"
    weekend_lead_in_questions: Words = ()  # more of them read in questions: "over", "the"
    month_lead: Words = ()  # in a question: "in May", "back in March"
    season_lead: Words = ()  # "in the summer", "no verão"
    span_lead: Words = ()  # "in the next 3 days", "nos próximos 3 dias"
    span_articles: Words = ()  # "the next 3 days"
    position_articles: Words = ()  # "on the last Friday", "am letzten Freitag"
    monthday_lead: Words = ()  # "every month on the 8th", "todos os meses no dia 8"
    part_lead: Words = ()  # "in the morning", "pela manhã"
    wake_words: Words = ()  # "alarm clock", "wake up", "Wecker": a repeat's bare hour is the morning's
    # "alarm", "alarma": the same, but only starting the text (after `alarm_leads`: "set an alarm"):
    # elsewhere a device may be meant ("test the fire alarm every Monday at 5" is 17:00)
    alarm_words: Words = ()
    alarm_leads: Words = ()
    # fr "le samedi matin": the article before a weekday and a part of the day (a parts key) after
    # it say a habit, as "les samedis matin"
    habit_weekday_lead: Words = ()
    habit_weekday_parts: Words = ()
    noon_lead: Words = ()  # "at noon", "ao meio-dia"
    range_from: Words = ()  # "from Monday to Friday"
    range_joiners: Words = ()  # "Monday to Friday", "de segunda a sexta"
    day_articles: Words = ()  # "de segunda a sexta", "vom Montag bis Freitag"
    month_part_lead: Words = ()  # "the first half of March"
    month_part_joiners: Words = ()  # "the first half of March", "mitte März"
    and_words: Words = ()  # "Tuesday and Thursday"
    weekdays_lead: Words = ()  # plural days mean every one: "as terças", "los lunes", "on Mondays"
    every: Words = ()
    every_other: Words = ()
    every_month: Words = ()  # "every month on the last day"
    every_month_before_day: Words = ()  # "every month on the 8th", "todos os meses dia 8"
    of_the_month: Words = ()  # "the last Friday of the month"
    of_every_month: Words = ()  # the ones that make it repeat
    month_day_words: Words = ()  # "the last day", "o último dia"
    month_day_plurals: Words = ()  # days in a plural no ending makes: "an den Tagen 1 und 15"
    month_ordinals: dict[str, int] = field(default_factory=dict)  # "first": 1, "last": -1
    freq_endings: Words = ()  # the endings an adjective of `freq_words` takes: de "wöchentliches"
    # words of `freq_words` that before a noun are an adjective and no repeat ("everyday clothes"):
    # a frequency only before nothing, punctuation, a figure or one of `freq_adjective_then`
    freq_adjectives: Words = ()
    freq_adjective_then: Words = ()  # "everyday at 8", "everyday except Sunday"
    freq_words: dict[str, str] = field(
        default_factory=dict
    )  # "daily": "DAILY", "quarterly": "MONTHLY;INTERVAL=3"
    times_words: dict[str, int] = field(default_factory=dict)  # "once": 1, "twice": 2, "zweimal": 2
    times_nouns: Words = ()  # "3 times a week", "duas vezes por mês", "deux fois par mois"
    per_words: Words = ()  # "twice a month", "once per week", "uma vez por semana"
    part_plurals: dict[str, str] = field(default_factory=dict)  # "Monday evenings": every Monday evening
    weekdays_every: Words = ()  # "every weekday", "werktags"
    weekends_every: Words = ()  # "on weekends", "aos fins de semana": every weekend (both its days)
    weekends_timed: Words = ()  # "los fines de semana": every weekend only with a time after it
    weekends: Words = ()  # the weekend in the plural: "fins de semana", "Wochenenden"
    except_words: Words = ()  # "every day except Sundays", "todos os dias exceto ao domingo"
    except_lead: Words = ()  # more words before the days excepted: "ao", "les"
    month_of: Words = ()  # "todo mês de março", "tous les mois de mars": every March
    freq_not_after: Words = ()  # fr "au quotidien", "un hebdomadaire": a frequency's word as a noun
    of_the_year: Words = ()  # "the 30th day of the year", "am 30. Tag des Jahres": a day of the year
    of_every_year: Words = ()  # "the 31st day of every year": a day of each year (a yearly repeat)
    months_lead: Words = ()  # "yearly in June and July", "täglich im Januar und April": those months
    # a set of weekdays said as one day, for a position in a month: "the last weekday of the month"
    weekday_sets: dict[str, str] = field(default_factory=dict)  # "weekday": "MO,TU,WE,TH,FR"
    week_of_year_words: Words = ()  # a week of the year by its number, beside the week's own words: "KW"
    repeat_bounds: Words = ()  # a start or an end after plural days: "Mondays from 4 January"
    day_feelings: Words = ()  # "odio los lunes", "adoro as sextas": the days a feeling's object, no habit
    every_part: dict[str, str] = field(default_factory=dict)  # "every morning": its part of the day
    yearly_words: Words = ()  # "birthday": a date that comes every year
    # repeats said as habits (core/when/habits.py): a rule said as one idiom, read before the
    # words in it ("tous les quinze jours": every two weeks, not every 15 days)
    repeat_idioms: dict[str, str] = field(default_factory=dict)
    step_pairs: Words = ()  # pt "de em": "de 3 em 3 meses", "de 15 em 15 minutos" (every 3 months...)
    day_range_from: Words = ()  # "from Monday to Friday at 8", "du lundi au vendredi": every such day
    day_range_to: Words = ()
    days_alone_lead: Words = ()  # fr "les mardis" said alone: every Tuesday (not "j'adore les mardis")
    none_words: Words = ()  # "none", "nunca": what clears a field

    # -- the time of day --------------------------------------------------------------------------
    at: Words = ()  # "at 3", "às 15h", "a las 18h", "um 9 Uhr", "à 9h"
    at_needs_accent: Words = ()  # pt "a", "as": "at" only written "à", "às"
    hour_letters: Words = ()  # "15h", "9h30"
    hour_suffix_words: Words = ()  # de "9 Uhr"
    clock_words_after: Words = ()  # "at 3 o'clock", "às 3 horas"
    before_noon_marks: Words = ()  # "am", "a.m."
    after_noon_marks: Words = ()  # "pm"
    before_noon_letters: Words = ()  # glued to the figures only: "3:18a"
    after_noon_letters: Words = ()  # "3:15p"
    not_hour_after: Words = ()  # "at 5 people", "at 3 kg": a count, not an hour
    noon: Words = ()
    midnight: Words = ()
    parts: dict[str, int] = field(default_factory=dict)  # a part of the day -> its hour
    bare_parts: Words = ()  # parts that stand alone beside other time words ("tomorrow morning")
    # the day periods written right after a clock (CLDR's: "3:30 tarde", "9 soir", "3:30 nachm.",
    # "12:30 da madrugada"): a part of the day there only -> its hour
    clock_periods: dict[str, int] = field(default_factory=dict)
    part_adverbs: Words = ()  # a part of the day on its own: de "morgens"
    hour_words: dict[str, int] = field(default_factory=dict)  # the hours a clock phrase names (1-12)
    # the afternoon's hours in words, read only beside their mark ("à quinze heures", "às 15 horas")
    hour_words_24: dict[str, int] = field(default_factory=dict)
    minute_amounts: dict[str, int] = field(default_factory=dict)  # "half", "quarter", "twenty"
    minute_nouns: Words = ()  # "20 minutes past 3"
    minutes_past: Words = ()  # "{minutes} past {hour}"
    minutes_to: Words = ()  # "{minutes} to {hour}"
    hour_articles: Words = ()  # "um quarto para as 6", "cuarto para las 6"
    hour_and: Words = ()  # "{hour} and {minutes}": "4 e meia"
    hour_less: Words = ()  # "{hour} less {minutes}": "6 menos cuarto"
    hour_marks: Words = ()  # between an hour and the rest: "4 horas e meia"
    before_hour: dict[str, int] = field(default_factory=dict)  # de "halb 6": 30 minutes before 6
    after_hour: dict[str, int] = field(default_factory=dict)  # en "half eight" (British): 8:30

    # -- questions --------------------------------------------------------------------------------
    due_cues: Words = ()  # "what's on", "tenho": a question about what is due
    created_cues: Words = ()  # "what did I note down": about when things were written
    done_cues: Words = ()  # "what did I get done": about when things were finished
    past_cues: Words = ()
    future_cues: Words = ()
    cue_particles: Words = ()  # "note down", "tick off": go with their cue
    overdue: Words = ()
    overdue_before: dict[str, Words] = field(default_factory=dict)  # "late" only before "reminders"…
    since: Words = ()
    before: Words = ()
    # "just before Easter", "the day before": a short stretch before the day, of so many days
    just_before: dict[str, int] = field(default_factory=dict)
    period_out: Words = ()  # "before September is out": to the end of the period, not its start
    after: Words = ()
    finite_verbs: Words = ()  # "while we were in Toronto" is a stretch of time, "while surfing" not
    while_words: Words = ()
    anchor_units: dict[str, str] = field(default_factory=dict)  # "the week Mãe moved in": "week"
    purpose_words: Words = ()  # "goals for this year": about the year, not in it
    from_words: Words = ()  # "rent from July": when a fact takes effect
    # a part of a month -> (first day, last day + 1) counted from the 1st; None: to the month's end
    month_parts: dict[str, tuple[int, int | None]] = field(default_factory=dict)
    holidays: dict[str, str] = field(default_factory=dict)  # a name -> its day in holidays.py
    everyday_holiday_names: Words = ()  # holiday names that are everyday words: only capitalised
    seasons: dict[str, str] = field(default_factory=dict)  # a name -> its season in holidays.py

    # -- idioms (templates, see the module's docstring) -------------------------------------------
    day_of_month_forms: Words = ()  # "on the 15th", "dia 15", "am 15.", "le 15"
    rank_lead: Words = ()  # en "came 3rd", "my 5th": before an ordinal, a rank or a count, no day
    monthly_day_forms: Words = ()  # "the 1st of every month", "le 5 de chaque mois"
    every_other_weekday_forms: Words = ()  # "every other Wednesday", "un mercredi sur deux"
    so_far_forms: Words = ()  # "so far this month", "en lo que va de mes"
    until_end_forms: Words = ()  # "before the month is out", "bis Ende der Woche"
    anchor_forms: Words = ()  # "the week {event}", "a semana em que {event}", "{since} {event}"

    # -- titles and fields ------------------------------------------------------------------------
    reminder_cues: Words = ()  # "remind me", "lembra-me": text that asks for a reminder
    title_lead: Words = ()  # "remind me to …": the word after the cue
    dangling: Words = ()  # left at the end once the time words are cut ("call Ana at")
    dangling_in_questions: Words = ()  # the same in a question ("what did we do over")
    due_filler: Words = ()  # may stand beside a time in a due field: "on", "the"

    # -- saying things (core/when/spoken.py) ------------------------------------------------------
    rule_words: dict[str, Any] = field(default_factory=dict)  # a repeat rule in words
    clock_words: dict[str, Any] = field(default_factory=dict)  # a moment in words
    # how its letters are typed on a keyboard without them (de "ü": "ue"): each word is read so too
    typed_without: dict[str, str] = field(default_factory=dict)


def _spellings(lang: Language, word: str) -> tuple[str, ...]:
    """The word as written, and as typed without the language's own letters ("übermorgen",
    "uebermorgen")."""
    typed = word
    for letter, instead in lang.typed_without.items():
        typed = typed.replace(letter, instead)
    return (word, typed) if typed != word else (word,)


_FOLDED_VALUES = {"every_part", "part_plurals"}  # values that are words of another table
_WORD_LIST_VALUES = {"yesterday_only_with", "overdue_before"}  # values that are lists of words
_NOT_MERGED = {"code", "name", "rule_words", "clock_words", "typed_without"}


def merge(languages: tuple[Language, ...]) -> Language:
    """One Language of all their words, folded. A word two languages give different values (a
    month in one, a number in the other) is a mistake in the tables: it raises."""
    out: dict[str, Any] = {}
    for f in fields(Language):
        if f.name in _NOT_MERGED:
            continue
        tables = [(lang, getattr(lang, f.name)) for lang in languages]
        if not isinstance(tables[0][1], dict):
            out[f.name] = tuple(
                dict.fromkeys(fold(s) for lang, words in tables for w in words for s in _spellings(lang, w))
            )
            continue
        merged: dict[str, Any] = {}
        for lang, table in tables:
            code = lang.code
            for written, value in ((k, v) for key, v in table.items() for k in _spellings(lang, key)):
                key = fold(written)
                if f.name in _FOLDED_VALUES:
                    value = fold(value)
                if f.name in _WORD_LIST_VALUES:
                    value = tuple(dict.fromkeys((*merged.get(key, ()), *(fold(w) for w in value))))
                elif key in merged and merged[key] != value:
                    raise ValueError(f"{f.name}: {key!r} is {merged[key]!r}, and {value!r} in {code}")
                merged[key] = value
        out[f.name] = merged
    return Language(code="+".join(lang.code for lang in languages), **out)
