"""Reminders without Qt: when each one fires, what is due or was missed, and the state it leaves.

A reminder's attrs (see DESIGN.md): `due_at` (the current occurrence, ISO 8601 with an offset),
`rrule` (RFC 5545, e.g. "FREQ=WEEKLY;BYDAY=MO"), `snoozed_until`, `notified_at`, `done_at`.

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
- Recurrence follows the local wall clock ("every day at 9" stays at 9 across daylight saving).

This module only computes: which attrs a state change writes (`notified`, `completed`,
`snoozed`, `rescheduled`); Memory.mark_notified, complete, snooze and reschedule read the row,
apply the rule and write it in one transaction.
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from typing import Iterable

from dateutil import parser as dateparser
from dateutil.rrule import rrule as RRule, rrulestr

from core.model import InvalidInput, Kind, Neuron, State

log = logging.getLogger(__name__)

# How long "Snooze" waits unless told otherwise.
SNOOZE_DEFAULT = timedelta(minutes=10)
# A rule is walked at most this many occurrences (a per-minute rule from years ago).
MAX_STEPS = 200_000


# -- time ----------------------------------------------------------------------------------------

def local_zone() -> tzinfo:
    try:
        import tzlocal  # noqa: PLC0415

        return tzlocal.get_localzone()
    except Exception:  # no zone configured: the offset of this moment is the best we know
        return datetime.now().astimezone().tzinfo or timezone.utc


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Clock:
    """The time reminders are judged against; tests pass a fake one."""

    def now(self) -> datetime:
        return utcnow()


def parse_time(value: object, *, what: str = "time") -> datetime | None:
    """An attrs time value -> an aware datetime (a value without offset is read as local time)."""
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        dt = value
    elif isinstance(value, str):
        try:
            dt = datetime.fromisoformat(value.strip())
        except ValueError:
            try:
                dt = dateparser.parse(value)
            except (ValueError, OverflowError):
                raise InvalidInput(f"{what} {value!r} is not a date and time") from None
    else:
        raise InvalidInput(f"{what} {value!r} is not a date and time")
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=local_zone())
    return dt


def iso(dt: datetime) -> str:
    """Full precision (seconds alone could make a stored time earlier than the moment it records)."""
    return dt.isoformat()


# -- recurrence ----------------------------------------------------------------------------------

_COUNT = re.compile(r"(?i)(?<![A-Z])COUNT=(\d+)")


def rule_text(rrule: str) -> str:
    """The RRULE part of a rule as people and capture write it ("RRULE:" prefix and DTSTART lines
    are accepted; the reminder's due_at is always the start)."""
    lines = [ln.strip() for ln in str(rrule).replace("\\n", "\n").splitlines() if ln.strip()]
    rules = [ln for ln in lines if not ln.upper().startswith(("DTSTART", "EXDATE", "RDATE"))]
    if len(rules) != 1:
        raise InvalidInput(f"the repeat rule {rrule!r} must hold exactly one RRULE")
    text = rules[0]
    return text[6:] if text.upper().startswith("RRULE:") else text


def _rule(rrule: str, start: datetime) -> tuple[RRule, bool]:
    """The dateutil rule anchored at `start` in local wall time; bool: its datetimes are aware."""
    text = rule_text(rrule)
    local = start.astimezone(local_zone())
    try:
        return rrulestr(text, dtstart=local), True
    except ValueError as exc:
        if "UNTIL" not in str(exc):
            raise InvalidInput(f"the repeat rule {rrule!r} is not valid RFC 5545: {exc}") from None
    try:  # a floating UNTIL (no Z): read the whole rule in floating local time
        return rrulestr(text, dtstart=local.replace(tzinfo=None)), False
    except (ValueError, TypeError) as exc:
        raise InvalidInput(f"the repeat rule {rrule!r} is not valid RFC 5545: {exc}") from None


def validate_rrule(rrule: str, start: datetime | None = None) -> str:
    """Check a rule (raise InvalidInput with a readable message); return its RRULE text."""
    _rule(rrule, start or utcnow())
    return rule_text(rrule)


def _occurrences(rrule: str, start: datetime) -> Iterable[datetime]:
    rule, aware = _rule(rrule, start)
    zone = local_zone()
    for occ in rule:
        yield occ if aware else occ.replace(tzinfo=zone)


def next_occurrence(rrule: str, start: datetime, after: datetime) -> datetime | None:
    """The first occurrence of the series starting at `start` strictly after `after`."""
    for _, occ in _numbered(rrule, start):
        if occ > after:
            return occ
    return None


def _next_after(rrule: str, start: datetime, after: datetime) -> tuple[datetime, str] | None:
    """The first occurrence after both `start` and `after`, with the rule rewritten to start
    there (a COUNT reduced by the occurrences left behind); None when the series has ended."""
    for index, occ in _numbered(rrule, start):
        if occ > start and occ > after:
            return occ, _reduce_count(rrule, index)
    return None


def _latest_not_after(rrule: str, start: datetime, now: datetime) -> tuple[datetime, str]:
    """The latest occurrence not after `now` (at least `start`), with the rule rewritten for it."""
    best = (start, rrule)
    for index, occ in _numbered(rrule, start):
        if occ > now:
            break
        if occ > start:
            best = (occ, _reduce_count(rrule, index))
    return best


def _numbered(rrule: str, start: datetime) -> Iterable[tuple[int, datetime]]:
    for index, occ in enumerate(_occurrences(rrule, start)):
        if index >= MAX_STEPS:
            raise InvalidInput(f"the repeat rule {rrule!r} has too many occurrences to walk")
        yield index, occ


def _reduce_count(rrule: str, by: int) -> str:
    match = _COUNT.search(rrule)
    if not match or by <= 0:
        return rrule
    left = int(match.group(1)) - by
    return rrule[: match.start(1)] + str(max(left, 1)) + rrule[match.end(1):]


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


def _times(neuron: Neuron, device: str | None = None
           ) -> tuple[datetime | None, datetime | None, datetime | None]:
    a = neuron.attrs
    return (parse_time(a.get("due_at"), what="due_at"),
            parse_time(a.get("snoozed_until"), what="snoozed_until"),
            _shown(a, device))


def _shown(attrs: dict, device: str | None) -> datetime | None:
    """When the reminder was last shown: on `device` when one is named and the reminder keeps
    showings per machine, else anywhere (`notified_at`)."""
    per_machine = attrs.get("notified_on")
    if device is None or not isinstance(per_machine, dict):
        return parse_time(attrs.get("notified_at"), what="notified_at")
    seconds = per_machine.get(device)
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        return None
    return datetime.fromtimestamp(seconds, timezone.utc)


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
    fire = snoozed if snoozed is not None and snoozed > due else due
    if notified is None or notified < fire:
        return Alarm(neuron, fire, due)
    rrule = neuron.attrs.get("rrule")
    if not rrule:
        return None
    try:
        occ = next_occurrence(rrule, due, due)
    except InvalidInput as exc:
        log.warning("reminder %s repeats by a rule that cannot be read: %s", neuron.id, exc)
        return None
    return Alarm(neuron, occ, occ) if occ is not None else None


def due(neurons: Iterable[Neuron], now: datetime) -> list[Alarm]:
    """The alarms that should show at `now`, oldest first."""
    alarms = [a for a in (next_alarm(n) for n in neurons) if a is not None and a.fire_at <= now]
    return sorted(alarms, key=lambda a: a.fire_at)


def upcoming(neurons: Iterable[Neuron], now: datetime) -> list[Alarm]:
    """Alarms still to come after `now`, soonest first (what the scheduler waits for)."""
    alarms = [a for a in (next_alarm(n) for n in neurons) if a is not None and a.fire_at > now]
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
    return [n for _, n in sorted(overdue, key=lambda p: p[0])] + \
        [n for _, n in sorted(coming, key=lambda p: p[0])]


def missed(neurons: Iterable[Neuron], started_at: datetime) -> list[Alarm]:
    """Reminders that came due while the app was not running (before it started) and were
    never shown: shown once, as "N missed", at start."""
    return due(neurons, started_at)


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

def notified(neuron: Neuron, now: datetime, device: str | None = None
             ) -> tuple[dict[str, object], Alarm] | None:
    """The attrs that record the reminder was shown at `now` (on `device`), and what was shown;
    None when it is not due (any more) at `now` (on that device)."""
    alarm = next_alarm(neuron, device)
    if alarm is None or alarm.fire_at > now:
        return None
    changes: dict[str, object] = {"notified_at": iso(now)}
    if device is not None:
        shown_on = neuron.attrs.get("notified_on")
        changes["notified_on"] = {**(shown_on if isinstance(shown_on, dict) else {}),
                                  device: now.timestamp()}
    rrule = neuron.attrs.get("rrule")
    due_at = current_due(neuron)
    if rrule and due_at is not None and alarm.due_at > due_at:
        # the next occurrence has come: the series moves to the latest occurrence not after now
        try:
            latest, rule = _latest_not_after(rrule, due_at, now)
        except InvalidInput:
            latest, rule = alarm.due_at, rrule
        changes.update(due_at=iso(latest), rrule=rule, snoozed_until=None)
        alarm = Alarm(neuron, alarm.fire_at, latest)
    return changes, alarm


def completed(neuron: Neuron, now: datetime) -> dict[str, object] | None:
    """Done at `now`: the attrs that move a recurring reminder to its next occurrence after `now`;
    None when the neuron is simply marked done (a one-off, another kind, a rule with no more)."""
    rrule = neuron.attrs.get("rrule")
    due_at = current_due(neuron)
    if neuron.kind is not Kind.REMINDER or not rrule or due_at is None:
        return None
    try:
        moved = _next_after(rrule, due_at, now)
    except InvalidInput as exc:
        log.warning("reminder %s repeats by a rule that cannot be read (%s): marked done", neuron.id, exc)
        return None
    if moved is None:
        return None
    new_due, rule = moved
    # done_at on an active recurring reminder: when its last occurrence was done
    return {"due_at": iso(new_due), "rrule": rule, "snoozed_until": None, "done_at": iso(now)}


def snoozed(now: datetime, for_: timedelta = SNOOZE_DEFAULT,
            until: datetime | None = None) -> dict[str, object]:
    """Show it again later (`until`, else `now + for_`)."""
    when = until if until is not None else now + for_
    if when.tzinfo is None:
        raise InvalidInput("a snooze time needs a time zone offset")
    return {"snoozed_until": iso(when)}


def rescheduled(due_at: datetime | None, rrule: str | None) -> dict[str, object]:
    """A new due time and rule (None removes them); the reminder fires at it again, even if it
    was shown before."""
    if due_at is not None and due_at.tzinfo is None:
        raise InvalidInput("a due time needs a time zone offset")
    if rrule:
        if due_at is None:
            raise InvalidInput("a repeating reminder needs a due time to start from")
        rrule = validate_rrule(rrule, due_at)
    return {"due_at": iso(due_at) if due_at else None, "rrule": rrule or None,
            "snoozed_until": None, "notified_at": None, "notified_on": None}


__all__ = [
    "Alarm", "Clock", "SNOOZE_DEFAULT", "agenda", "completed", "current_due", "due", "is_overdue", "iso",
    "local_zone", "missed", "next_alarm", "next_occurrence", "notified", "parse_time",
    "rescheduled", "rule_text", "snoozed", "upcoming", "utcnow", "validate_rrule",
]
