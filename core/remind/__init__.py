"""Reminders without Qt: when each one fires, what is due or was missed, and the state it leaves.

A reminder's attrs: `due_at` (the current occurrence, ISO 8601 with an offset),
`rrule` (RFC 5545, e.g. "FREQ=WEEKLY;BYDAY=MO"), `snoozed_until`, `notified_at`, `done_at`; and, for
a series that came from a calendar (core/interop/ical.py): `tz` (the IANA zone whose wall clock it
follows), `dtstart` (the series' anchor: its rule is never rewritten), `more_rrules` (a calendar's
further RRULEs), `exdates` and `rdates` (ISO times taken out of / added to the rule), `overrides`
(occurrences a calendar moved, cancelled or marked done: {recurrence_id, start (None: cancelled),
title, duration_seconds, this_and_future, done_at}) and `alarm_offsets` (seconds from each
occurrence, e.g. -900: it fires 15 minutes early). A series' occurrences are computed in one
place, core/remind/series.py.

The rules, in one place:

- A reminder **fires at** `due_at`, or at `snoozed_until` when that is later. A calendar's task
  that starts before it is due (DTSTART and DUE) fires at its start (`due_at`) and is due
  `duration_seconds` later (`task_due`): it is overdue only after that.
- It is **pending** while it was not yet shown for that moment (`notified_at` is empty or earlier).
  Showing it records `notified_at`, so nothing fires twice, even across restarts.
- Several machines may share one memory (a profile on a server): each running machine shows a
  reminder once. Showing it records, beside `notified_at`, the moment in `notified_on`
  ({device id: POSIX seconds}, numbers so that full-text search skips them); a machine that
  never showed it (no entry) shows it when it comes due, a machine that did does not again.
- A recurring reminder that was shown fires again at its next occurrence; when that moment comes,
  `due_at` moves forward to it (missed occurrences collapse into one: nobody wants seven
  "take the pills" at once after a week away).
- A showing the notification server closed before the person answered it (it expired although
  asked to stay, or another program closed it; not one the person dismissed) is **unseen**:
  `unseen_at` holds that showing's `notified_at` as POSIX seconds (numbers, so full-text search
  skips them). The running app lists it under Missed and does not show it again; the next start
  says it with those missed while the app was closed, once. Showing it again, done, snooze or a
  new due time (each makes it fire after that showing) end it.
- **Done** on a one-off reminder marks it done (Memory records `done_at`); on a recurring one it
  moves `due_at` to the first occurrence after now, and marks it done only when the rule has no
  more occurrences. A COUNT in the rule counts the occurrences still to come from `due_at`.
- Recurrence follows a wall clock: the reminder's `tz` when it has one ("19:30 in Lisbon" stays
  19:30 Lisbon time across daylight saving wherever the computer is), else the local one ("every
  day at 9" stays at 9). A series is its rules' occurrences plus `rdates` minus `exdates`, with its
  overrides applied: exactly the occurrences a calendar shows.
- With `alarm_offsets`, an occurrence fires at its earliest offset (the others are kept for export).

The package only computes: `alarms.py` when a reminder fires, `transitions.py` which attrs a
state change writes (`notified`, `completed`, `snoozed`, `rescheduled`; Memory.mark_notified,
complete, snooze and reschedule read the row, apply the rule and write it in one transaction),
`series.py` the occurrences. This face hands on what the rest of the house imports.
"""

from __future__ import annotations

from core.remind.alarms import (
    Alarm,
    Clock,
    agenda,
    as_of,
    current_due,
    due,
    due_between,
    ended,
    is_overdue,
    is_reminder,
    missed,
    next_alarm,
    task_due,
    unseen,
    upcoming,
)
from core.remind.series import (
    UTC_NAMES,
    Override,
    Restated,
    Series,
    iso,
    local_zone,
    local_zone_name,
    next_occurrence,
    occurrences,
    parse_time,
    reload_local_zone,
    restated,
    rule_text,
    utcnow,
    validate_rrule,
    zone,
)
from core.remind.transitions import (
    SNOOZE_DEFAULT,
    closed_unseen,
    completed,
    moved_rule,
    notified,
    rescheduled,
    restart,
    snoozed,
)

__all__ = [
    "Alarm",
    "Clock",
    "Override",
    "Restated",
    "SNOOZE_DEFAULT",
    "Series",
    "UTC_NAMES",
    "agenda",
    "as_of",
    "closed_unseen",
    "completed",
    "moved_rule",
    "current_due",
    "due",
    "due_between",
    "ended",
    "is_overdue",
    "task_due",
    "is_reminder",
    "iso",
    "local_zone",
    "local_zone_name",
    "missed",
    "next_alarm",
    "next_occurrence",
    "notified",
    "occurrences",
    "parse_time",
    "reload_local_zone",
    "rescheduled",
    "restart",
    "restated",
    "rule_text",
    "snoozed",
    "unseen",
    "upcoming",
    "utcnow",
    "validate_rrule",
    "zone",
]
