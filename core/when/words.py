"""The words of dates and times of every language Neurons reads, merged into one table each.

The words themselves live in core/when/languages/ (one file a language); this module gives the
rest of the house the merged tables, folded (see `fold`), and `alt` (a regex alternation of a
table, longest first). Written out there, never read from the process locale: a GUI on a German
desktop reads English as the CLI does.
"""

from __future__ import annotations

from core.when.language import fold
from core.when.patterns import GRAMMAR, any_of, reminder_cue

alt = any_of
ALL = GRAMMAR.words  # every language's words, merged

MONTHS = ALL.months
WEEKDAYS = ALL.weekdays
NUMBERS = ALL.numbers
UNITS = ALL.units
TODAY = ALL.today
TONIGHT = ALL.tonight
TOMORROW = ALL.tomorrow
YESTERDAY = ALL.yesterday
NEXT_PRE = ALL.next_before
LAST_PRE = ALL.last_before
AGO_BEFORE = ALL.ago_before
AGO_AFTER = ALL.ago_after
WEEKEND = ALL.weekend
NONE_WORDS = ALL.none_words
RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
# "remind me", "lembra-me", "recuérdame", "erinnere mich", "rappelle-moi": text that asks for a
# reminder (folded, at the start)
REMINDER_CUES = reminder_cue(ALL)  # (its own: the grammar's patterns compile on first use)

__all__ = [
    "AGO_AFTER",
    "AGO_BEFORE",
    "ALL",
    "LAST_PRE",
    "MONTHS",
    "NEXT_PRE",
    "NONE_WORDS",
    "NUMBERS",
    "REMINDER_CUES",
    "RRULE_DAYS",
    "TODAY",
    "TOMORROW",
    "TONIGHT",
    "UNITS",
    "WEEKDAYS",
    "WEEKEND",
    "YESTERDAY",
    "alt",
    "fold",
]
