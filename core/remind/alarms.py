"""When a reminder fires: its next alarm, what is due, upcoming or was missed, its current due
time, and a reminder brought from elsewhere to now. The rules are core/remind/__init__.py's."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from core.model import InvalidInput, Kind, Neuron, State
from core.remind.series import (
    Series,
    first,
    iso,
    latest_not_after,
    next_occurrence,
    occurrence_between,
    parse_time,
    utcnow,
)

log = logging.getLogger(__name__)


class Clock:
    """The time reminders are judged against; tests pass a fake one."""

    def now(self) -> datetime:
        return utcnow()


def series_of(neuron: Neuron) -> Series | None:
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
    series = series_of(neuron)
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
    never shown (on `device`), and those whose showing closed unseen (`unseen`): shown once, as
    "N missed", at start."""
    neurons = list(neurons)
    found = due(neurons, started_at, device)
    pending = {a.id for a in found}
    found += [a for a in (unseen(n) for n in neurons) if a is not None and a.id not in pending]
    return sorted(found, key=lambda a: a.fire_at)


def unseen(neuron: Neuron) -> Alarm | None:
    """The showing a notification server closed before the person answered it (it expired, or
    another program closed it): `unseen_at` holds that showing's `notified_at` (POSIX seconds);
    the reminder is missed until it shows again or the person acts on it (done, snoozed, moved
    all make it fire after that showing). None: nothing closed unseen."""
    if not is_reminder(neuron):
        return None
    closed = neuron.attrs.get("unseen_at")
    if isinstance(closed, bool) or not isinstance(closed, (int, float)):
        return None
    try:
        due_at, snoozed, shown = _times(neuron)
    except InvalidInput:
        return None
    if due_at is None or shown is None or abs(shown.timestamp() - closed) > 0.001:
        return None  # shown again since
    fire = snoozed if snoozed is not None and snoozed > due_at + _lead(neuron) else due_at + _lead(neuron)
    return Alarm(neuron, fire, due_at) if fire <= shown else None


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
    due_at = task_due(neuron) or due_at  # a task that starts first is late only after its due
    return due_at <= now and not (snoozed is not None and snoozed > now)


def current_due(neuron: Neuron) -> datetime | None:
    try:
        return parse_time(neuron.attrs.get("due_at"))
    except InvalidInput:
        return None


def due_between(neuron: Neuron, start: datetime, end: datetime) -> datetime | None:
    """When a reminder is due in [start, end): its due time, or the occurrence of a repeating one
    that falls there (its exceptions and moved ones counted, as the scheduler fires them); None
    when it is not due in that span. What a question's time window shows for it ("next week":
    Monday's occurrence of a daily reminder, not today's)."""
    due_at = current_due(neuron)
    if due_at is None:
        return None
    return occurrence_between(series_of(neuron), due_at, start, end)


def task_due(neuron: Neuron) -> datetime | None:
    """When a task that starts before it is due is due (a calendar's VTODO with DTSTART and DUE:
    `due_at` is its start, where it fires, and DUE is `duration_seconds` after it); None for a
    reminder that is due when it starts."""
    seconds = neuron.attrs.get("duration_seconds")
    if (
        neuron.attrs.get("ical_component") == "VEVENT"
        or not isinstance(seconds, (int, float))
        or seconds <= 0
    ):
        return None
    start = current_due(neuron)
    return start + timedelta(seconds=int(seconds)) if start is not None else None
