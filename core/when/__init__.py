"""One date grammar for capture text, the due field and questions, in English, Portuguese,
Spanish, German and French: each language's words and idioms in a file of `languages/` (never the
process locale), every pattern built from them in `patterns.py`; holidays in holidays.py.

- `find_when(text, now)` -> When | None: the due time and recurrence a capture asks for.
- `no_day(text, now)` -> "30 February is no day" when the text names a date no calendar has.
- `parse_due(text, now)` -> datetime | None: what a person typed in a due field (all of it);
  `parse_repeat(text, now)` -> the RRULE a repeat field says ("every 2 weeks"), or None.
- `retimed(body, written_at)`: a reminder's body without the time words of its old due time.
- `find_window(question, now)` -> (TimeWindow | None, rest): a question's time words as a window.
"""

from __future__ import annotations

from core.when.clock import local_now, local_tz
from core.when.parse import (
    DEFAULT_HOUR,
    When,
    find_when,
    no_day,
    parse_due,
    parse_repeat,
    retimed,
    text_without,
    title_without,
)
from core.when.window import TimeWindow, find_window
from core.when.words import REMINDER_CUES, fold

__all__ = [
    "DEFAULT_HOUR",
    "REMINDER_CUES",
    "TimeWindow",
    "When",
    "find_when",
    "find_window",
    "fold",
    "local_now",
    "local_tz",
    "no_day",
    "parse_due",
    "parse_repeat",
    "retimed",
    "text_without",
    "title_without",
]
