"""Reminders without Qt: when each one fires, what is due or was missed, and the state it leaves.

A reminder's attrs: `due_at` (the current occurrence, ISO 8601 with an offset),
`rrule` (RFC 5545, e.g. "FREQ=WEEKLY;BYDAY=MO"), `snoozed_until`, `notified_at`, `done_at`; and, for
a series that came from a calendar (core/interop/ical.py): `tz` (the IANA zone whose wall clock it
follows), `dtstart` (the series' anchor: its rule is never rewritten), `more_rrules` (a calendar's
further RRULEs), `exdates` and `rdates` (ISO times taken out of / added to the rule), `overrides`
(occurrences a calendar moved or cancelled: {recurrence_id, start (None: cancelled), title,
duration_seconds, this_and_future}) and `alarm_offsets` (seconds from each occurrence, e.g. -900:
it fires 15 minutes early). A series' occurrences are computed in one place, core/remind/series.py.

The rules, in one place:

- A reminder **fires at** `due_at`, or at `snoozed_until` when that is later.
- It is **pending** while it was not yet shown for that moment (`notified_at` is empty or earlier).
  Showing it records `notified_at`, so nothing fires twice, even across restarts.
- Several machines may share one memory (a profile on a server): each running machine shows a
  reminder once. Showing it records, beside `notified_at`, the moment in `notified_on`
  ({device id: POSIX seconds}, numbers so that full-text search skips them); a machine that
  never showed it (no entry) shows it when it comes due, a machine that did does not again.
- A recurring reminder that was shown fires again at its next occurrence; when that moment comes,
  `due_at` moves forward to it (missed occurrences collapse into one: nobody wants seven
  "take the pills" at once after a week away).
- **Done** on a one-off reminder marks it done (Memory records `done_at`); on a recurring one it
  moves `due_at` to the first occurrence after now, and marks it done only when the rule has no
  more occurrences. A COUNT in the rule counts the occurrences still to come from `due_at`.
- Recurrence follows a wall clock: the reminder's `tz` when it has one ("19:30 in Lisbon" stays
  19:30 Lisbon time across daylight saving wherever the computer is), else the local one ("every
  day at 9" stays at 9). A series is its rules' occurrences plus `rdates` minus `exdates`, with its
  overrides applied: exactly the occurrences a calendar shows.
- With `alarm_offsets`, an occurrence fires at its earliest offset (the others are kept for export).

This module only computes: which attrs a state change writes (`notified`, `completed`,
`snoozed`, `rescheduled`); Memory.mark_notified, complete, snooze and reschedule read the row,
apply the rule and write it in one transaction.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from core.model import InvalidInput, Kind, Neuron, State
from core.remind.series import (
    UTC_NAMES,
    Override,
    Restated,
    Series,
    first,
    iso,
    latest_not_after,
    local_zone,
    local_zone_name,
    next_after,
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

log = logging.getLogger(__name__)

# How long "Snooze" waits unless told otherwise.
SNOOZE_DEFAULT = timedelta(minutes=10)


class Clock:
    """The time reminders are judged against; tests pass a fake one."""

    def now(self) -> datetime:
        return utcnow()


def _series(neuron: Neuron) -> Series | None:
    """The neuron's series; a stored rule or zone that cannot be read is logged, and the reminder
    treated as a one-off, so one bad row never stops the others from firing."""
    try:
        return Series.of(neuron.attrs)
    except InvalidInput as exc:
        log.warning("reminder %s repeats by a rule that cannot be read: %s", neuron.id, exc)
        return None


def _lead(neuron: Neuron) -> timedelta:
    """How long before each occurrence it fires (its earliest alarm offset; 0 without one)."""
    offsets = neuron.attrs.get("alarm_offsets") or []
    numbers = [o for o in offsets if isinstance(o, (int, float)) and not isinstance(o, bool)]
    return timedelta(seconds=min(numbers)) if numbers else timedelta(0)


def as_of(attrs: dict[str, Any], now: datetime) -> dict[str, Any]:
    """The changes that bring a reminder from elsewhere (an import) to `now`: a series moves to
    its latest occurrence not after now (its first, when none has come yet); a time already past
    counts as shown, so an import never replays the past as a flood of missed reminders."""
    due = parse_time(attrs.get("due_at"), what="due_at")
    if due is None:
        return {}
    changes: dict[str, Any] = {}
    series = Series.of(attrs)
    if series is not None:
        start = first(series, due)
        if start is not None:
            due, _ = latest_not_after(series, start, now)
            changes["due_at"] = iso(due)
    if due <= now:
        changes["notified_at"] = iso(now)
    return changes


def ended(attrs: dict[str, Any], now: datetime) -> bool:
    """Whether a reminder has no occurrence left after `now`."""
    due = parse_time(attrs.get("due_at"), what="due_at")
    if due is None or due > now:
        return False
    series = Series.of(attrs)
    return series is None or next_occurrence(series, due, now) is None


# -- when does a reminder fire -------------------------------------------------------------------


@dataclass(frozen=True)
class Alarm:
    """One showing of a reminder: which one, when it fires, the occurrence it is about."""

    neuron: Neuron
    fire_at: datetime
    due_at: datetime

    @property
    def id(self) -> uuid.UUID:
        return self.neuron.id

    @property
    def title(self) -> str:
        return self.neuron.title


def is_reminder(neuron: Neuron) -> bool:
    return neuron.kind is Kind.REMINDER and neuron.state is State.ACTIVE


def _times(
    neuron: Neuron, device: str | None = None
) -> tuple[datetime | None, datetime | None, datetime | None]:
    a = neuron.attrs
    return (
        parse_time(a.get("due_at"), what="due_at"),
        parse_time(a.get("snoozed_until"), what="snoozed_until"),
        _shown(a, device),
    )


def _shown(attrs: dict, device: str | None) -> datetime | None:
    """When the reminder was last shown: on `device` when one is named and the reminder keeps
    showings per machine, else anywhere (`notified_at`)."""
    per_machine = attrs.get("notified_on")
    if device is None or not isinstance(per_machine, dict):
        return parse_time(attrs.get("notified_at"), what="notified_at")
    seconds = per_machine.get(device)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        return None
    return datetime.fromtimestamp(seconds, UTC)


def next_alarm(neuron: Neuron, device: str | None = None) -> Alarm | None:
    """When this reminder next needs showing (in the past: it is due now) -- on `device`, when
    named, else anywhere; None: never again.

    A stored value that cannot be read (a bad date or rule) is logged and the reminder treated as
    a one-off, so one bad row never stops the others from firing.
    """
    if not is_reminder(neuron):
        return None
    try:
        due, snoozed, notified = _times(neuron, device)
    except InvalidInput as exc:
        log.warning("reminder %s cannot be scheduled: %s", neuron.id, exc)
        return None
    if due is None:
        return None
    lead = _lead(neuron)
    fire = snoozed if snoozed is not None and snoozed > due + lead else due + lead
    if notified is None or notified < fire:
        return Alarm(neuron, fire, due)
    series = _series(neuron)
    if series is None:
        return None
    try:
        occ = next_occurrence(series, due, due)
    except InvalidInput as exc:
        log.warning("reminder %s repeats by a rule that cannot be read: %s", neuron.id, exc)
        return None
    return Alarm(neuron, occ + lead, occ) if occ is not None else None


def due(neurons: Iterable[Neuron], now: datetime, device: str | None = None) -> list[Alarm]:
    """The alarms that should show at `now` (on `device`), oldest first."""
    alarms = [a for a in (next_alarm(n, device) for n in neurons) if a is not None and a.fire_at <= now]
    return sorted(alarms, key=lambda a: a.fire_at)


def upcoming(neurons: Iterable[Neuron], now: datetime, device: str | None = None) -> list[Alarm]:
    """Alarms still to come after `now` (on `device`), soonest first (what the scheduler waits for)."""
    alarms = [a for a in (next_alarm(n, device) for n in neurons) if a is not None and a.fire_at > now]
    return sorted(alarms, key=lambda a: a.fire_at)


def agenda(neurons: Iterable[Neuron], now: datetime, until: datetime) -> list[Neuron]:
    """What is on: the overdue reminders (oldest first), then those that fire by `until`
    (soonest first; a snoozed one at its snooze time)."""
    overdue: list[tuple[datetime, Neuron]] = []
    coming: list[tuple[datetime, Neuron]] = []
    for neuron in neurons:
        due_at = current_due(neuron)
        if is_overdue(neuron, now) and due_at is not None:
            overdue.append((due_at, neuron))
            continue
        alarm = next_alarm(neuron)
        if alarm is not None and alarm.fire_at <= until:
            coming.append((alarm.fire_at, neuron))
    return [n for _, n in sorted(overdue, key=lambda p: p[0])] + [
        n for _, n in sorted(coming, key=lambda p: p[0])
    ]


def missed(neurons: Iterable[Neuron], started_at: datetime, device: str | None = None) -> list[Alarm]:
    """Reminders that came due while the app was not running (before it started) and were
    never shown (on `device`): shown once, as "N missed", at start."""
    return due(neurons, started_at, device)


def is_overdue(neuron: Neuron, now: datetime) -> bool:
    """An active reminder whose current due time has passed (shown or not) and is not snoozed."""
    if not is_reminder(neuron):
        return False
    try:
        due_at, snoozed, _ = _times(neuron)
    except InvalidInput:
        return False
    if due_at is None:
        return False
    return due_at <= now and not (snoozed is not None and snoozed > now)


def current_due(neuron: Neuron) -> datetime | None:
    try:
        return parse_time(neuron.attrs.get("due_at"))
    except InvalidInput:
        return None


# -- state changes: what to write (Memory writes it) ---------------------------------------------


def notified(
    neuron: Neuron, now: datetime, device: str | None = None
) -> tuple[dict[str, object], Alarm] | None:
    """The attrs that record the reminder was shown at `now` (on `device`), and what was shown;
    None when it is not due (any more) at `now` (on that device)."""
    alarm = next_alarm(neuron, device)
    if alarm is None or alarm.fire_at > now:
        return None
    changes: dict[str, object] = {"notified_at": iso(now)}
    if device is not None:
        shown_on = neuron.attrs.get("notified_on")
        changes["notified_on"] = {**(shown_on if isinstance(shown_on, dict) else {}), device: now.timestamp()}
    series = _series(neuron)
    due_at = current_due(neuron)
    if series is not None and due_at is not None:
        # later occurrences have come too (the app was closed, the machine slept): the series
        # moves to the latest occurrence not after now, so those passed make one showing (an
        # alarm offset makes it fire before its occurrence: that occurrence, at least)
        try:
            latest, rule = latest_not_after(series, due_at, max(now, alarm.due_at))
        except InvalidInput:
            latest, rule = alarm.due_at, series.rrule
        if latest > due_at:
            changes.update(due_at=iso(latest), rrule=rule, snoozed_until=None)
            alarm = Alarm(neuron, alarm.fire_at, latest)
    return changes, alarm


def completed(neuron: Neuron, now: datetime) -> dict[str, object] | None:
    """Done at `now`: the attrs that move a recurring reminder to its next occurrence after `now`;
    None when the neuron is simply marked done (a one-off, another kind, a rule with no more)."""
    series = _series(neuron) if neuron.kind is Kind.REMINDER else None
    due_at = current_due(neuron)
    if series is None or due_at is None:
        return None
    try:
        moved = next_after(series, due_at, now)
    except InvalidInput as exc:
        log.warning("reminder %s repeats by a rule that cannot be read (%s): marked done", neuron.id, exc)
        return None
    if moved is None:
        return None
    new_due, rule = moved
    # done_at on an active recurring reminder: when its last occurrence was done
    changes: dict[str, object] = {
        "due_at": iso(new_due),
        "rrule": rule,
        "snoozed_until": None,
        "done_at": iso(now),
    }
    try:
        told = restated(series, new_due)
    except InvalidInput:
        told = None
    if told is not None:
        # a calendar's series starts again at the occurrence now due, so that the phone it came
        # from sees the ones before it done (its exported DTSTART and DUE move there)
        changes.update(restart(neuron.attrs, told))
    return changes


def restart(attrs: dict[str, Any], told: Restated) -> dict[str, object]:
    """The attrs of a calendar's series told again from its current occurrence (see `restated`):
    its anchor and rules, and only the exceptions, added dates and overrides still to come."""

    def still(values: object, key: str, since: datetime) -> list | None:
        kept = []
        for value in values if isinstance(values, list) else []:
            when = parse_time(value.get(key) if isinstance(value, dict) else value)
            if when is not None and when >= since:
                kept.append(value)
        return kept or None

    return {
        "dtstart": iso(told.anchor),
        "rrule": told.rrule,
        "more_rrules": list(told.more_rules) or None,
        "exdates": still(attrs.get("exdates"), "", told.anchor),
        "rdates": still(attrs.get("rdates"), "", told.since),
        "overrides": still(attrs.get("overrides"), "recurrence_id", told.since),
    }


def snoozed(
    now: datetime,
    for_: timedelta = SNOOZE_DEFAULT,
    until: datetime | None = None,
    due: datetime | None = None,
) -> dict[str, object]:
    """Show it again later (`until`, else `for_` from now -- from its `due` time when that is still
    to come): a snooze never moves a reminder before its due time."""
    when = until if until is not None else max(now, due or now) + for_
    if when.tzinfo is None:
        raise InvalidInput("a snooze time needs a time zone offset")
    if due is not None and when < due:
        raise InvalidInput(
            f"{when.isoformat(timespec='minutes')} is before it is due "
            f"({due.isoformat(timespec='minutes')}): "
            "a snooze only moves a reminder later; change its due time instead"
        )
    return {"snoozed_until": iso(when)}


def rescheduled(due_at: datetime | None, rrule: str | None, tz: str | None = None) -> dict[str, object]:
    """A new due time and rule (None removes them) read in the reminder's zone `tz`; the reminder
    fires at it again, even if it was shown before."""
    if due_at is not None and due_at.tzinfo is None:
        raise InvalidInput("a due time needs a time zone offset")
    if rrule:
        if due_at is None:
            raise InvalidInput("a repeating reminder needs a due time to start from")
        rrule = validate_rrule(rrule, due_at, tz)
    # a new time or rule starts a new series: a calendar's anchor and exceptions no longer apply
    return {
        "due_at": iso(due_at) if due_at else None,
        "rrule": rrule or None,
        "snoozed_until": None,
        "notified_at": None,
        "notified_on": None,
        "dtstart": None,
        "exdates": None,
        "rdates": None,
    }


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
    "completed",
    "current_due",
    "due",
    "ended",
    "is_overdue",
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
    "upcoming",
    "utcnow",
    "validate_rrule",
    "zone",
]
