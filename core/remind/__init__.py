"""Reminders without Qt: when each one fires, what is due or was missed, and the state it leaves.

A reminder's attrs: `due_at` (the current occurrence, ISO 8601 with an offset),
`rrule` (RFC 5545, e.g. "FREQ=WEEKLY;BYDAY=MO"), `snoozed_until`, `notified_at`, `done_at`; and, for
a series that came from a calendar (core/interop/ical.py): `tz` (the IANA zone whose wall clock it
follows), `dtstart` (the series' anchor: its rule is never rewritten), `exdates` and `rdates` (ISO
times taken out of / added to the rule) and `alarm_offsets` (seconds from each occurrence, e.g.
-900: it fires 15 minutes early).

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
  day at 9" stays at 9). A series is its rule's occurrences plus `rdates` minus `exdates`, exactly
  the occurrences a calendar shows.
- With `alarm_offsets`, an occurrence fires at its earliest offset (the others are kept for export).

This module only computes: which attrs a state change writes (`notified`, `completed`,
`snoozed`, `rescheduled`); Memory.mark_notified, complete, snooze and reschedule read the row,
apply the rule and write it in one transaction.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import tzlocal
from dateutil import parser as dateparser
from dateutil.rrule import rruleset, rrulestr

from core.model import InvalidInput, Kind, Neuron, State

log = logging.getLogger(__name__)

# How long "Snooze" waits unless told otherwise.
SNOOZE_DEFAULT = timedelta(minutes=10)
# A rule is walked at most this many occurrences (a per-minute rule from years ago).
MAX_STEPS = 200_000


# -- time ----------------------------------------------------------------------------------------


def local_zone() -> tzinfo:
    try:
        return tzlocal.get_localzone()
    except Exception:  # noqa: BLE001 - no zone configured: the offset of this moment is the best we know
        return datetime.now().astimezone().tzinfo or UTC


def reload_local_zone() -> None:
    """The system's time zone changed: read it again (tzlocal keeps the first one it found)."""
    try:
        tzlocal.reload_localzone()
    except Exception:  # nothing configured to reload: local_zone() falls back by itself
        log.debug("the local time zone could not be read again", exc_info=True)


# Names of UTC itself (a calendar writes these times with "Z").
UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "UCT", "GMT", "Etc/GMT", "Zulu", "Etc/Zulu"})


def local_zone_name() -> str:
    """The local zone's IANA name ("UTC" when it is UTC or has no name)."""
    name = getattr(local_zone(), "key", None)
    return "UTC" if name is None or name in UTC_NAMES else name


def utcnow() -> datetime:
    return datetime.now(UTC)


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
_UNTIL = re.compile(r"(?i)(?<![A-Z])UNTIL=(\d{8})(T\d{6})?(Z?)")


def zone(name: object) -> tzinfo:
    """The IANA zone `name` (None: the local zone); an unknown name is a clear error."""
    if name is None or name == "":
        return local_zone()
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(f"unknown time zone {name!r}: use an IANA name like Europe/Lisbon") from None


def rule_text(rrule: str) -> str:
    """The RRULE part of a rule as people and capture write it ("RRULE:" prefix and DTSTART lines
    are accepted; the reminder's due_at is always the start)."""
    lines = [ln.strip() for ln in str(rrule).replace("\\n", "\n").splitlines() if ln.strip()]
    rules = [ln for ln in lines if not ln.upper().startswith(("DTSTART", "EXDATE", "RDATE"))]
    if len(rules) != 1:
        raise InvalidInput(f"the repeat rule {rrule!r} must hold exactly one RRULE")
    text = rules[0]
    return text[6:] if text.upper().startswith("RRULE:") else text


@dataclass(frozen=True)
class Series:
    """A reminder's recurrence: its rule (may be None when it only has rdates), the zone whose
    wall clock it follows, its anchor (None: the current due_at, and a COUNT counts what is left)
    and its exceptions."""

    rrule: str | None
    zone: tzinfo
    anchor: datetime | None = None
    exdates: tuple[datetime, ...] = ()
    rdates: tuple[datetime, ...] = ()

    @classmethod
    def of(cls, attrs: dict[str, Any]) -> Series | None:
        """The series of a reminder's attrs; None for a one-off reminder."""
        if not attrs.get("rrule") and not attrs.get("rdates"):
            return None
        return cls(
            rrule=attrs.get("rrule") or None,
            zone=zone(attrs.get("tz")),
            anchor=parse_time(attrs.get("dtstart"), what="dtstart"),
            exdates=tuple(_times_list(attrs.get("exdates"), "exdates")),
            rdates=tuple(_times_list(attrs.get("rdates"), "rdates")),
        )

    @classmethod
    def plain(
        cls,
        rrule: str,
        tz: str | None = None,
        exdates: Iterable[datetime] = (),
        rdates: Iterable[datetime] = (),
    ) -> Series:
        return cls(rrule, zone(tz), None, tuple(exdates), tuple(rdates))


def _times_list(values: object, what: str) -> list[datetime]:
    if values in (None, ""):
        return []
    if not isinstance(values, list):
        raise InvalidInput(f"{what} must be a list of times")
    return [t for t in (parse_time(v, what=what) for v in values) if t is not None]


def _aware_until(text: str, wall: tzinfo) -> str:
    """A floating or date-only UNTIL read in the series' zone, as UTC (what dateutil needs with an
    aware start): UNTIL=20260320 means the end of that day there."""

    def utc(m: re.Match) -> str:
        if m.group(3):
            return m.group(0)
        day, clock = m.group(1), m.group(2) or "T235959"
        local = datetime.strptime(day + clock, "%Y%m%dT%H%M%S").replace(tzinfo=wall)
        return "UNTIL=" + local.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")

    return _UNTIL.sub(utc, text)


def _rule(series: Series, start: datetime) -> rruleset:
    """The dateutil set of the series anchored at `start` in its zone's wall time."""
    local = start.astimezone(series.zone)
    rules = rruleset()
    rules.rdate(local)  # the start is always the first occurrence (RFC 5545 3.8.5.3), unless excluded
    if series.rrule:
        text = _aware_until(rule_text(series.rrule), series.zone)
        try:
            rules.rrule(rrulestr(text, dtstart=local))  # type: ignore[arg-type]  # one rule: rrulestr gives an rrule
        except (ValueError, TypeError) as exc:
            raise InvalidInput(f"the repeat rule {series.rrule!r} is not valid RFC 5545: {exc}") from None
    for when in series.rdates:
        rules.rdate(when.astimezone(series.zone))
    for when in series.exdates:
        rules.exdate(when.astimezone(series.zone))
    return rules


def validate_rrule(rrule: str, start: datetime | None = None, tz: str | None = None) -> str:
    """Check a rule (raise InvalidInput with a readable message); return its RRULE text."""
    rule = _rule(Series.plain(rrule, tz), start or utcnow())
    try:
        next(iter(rule), None)
    except (ValueError, TypeError) as exc:
        raise InvalidInput(f"the repeat rule {rrule!r} is not valid RFC 5545: {exc}") from None
    return rule_text(rrule)


def _numbered(series: Series, start: datetime) -> Iterable[tuple[int, datetime]]:
    """The occurrences from the series' anchor (or `start`), numbered, never before the anchor
    (an rdate before it is not part of the series)."""
    anchor = series.anchor or start
    index = 0
    for occ in _rule(series, anchor):
        if index >= MAX_STEPS:
            raise InvalidInput(f"the repeat rule {series.rrule!r} has too many occurrences to walk")
        if occ >= anchor:
            yield index, occ
            index += 1


def occurrences(series: Series, start: datetime, until: datetime) -> list[datetime]:
    """Every occurrence from `start` to `until` (inclusive): what a calendar shows in that span."""
    out = []
    for _, occ in _numbered(series, start):
        if occ > until:
            break
        if occ >= start:
            out.append(occ)
    return out


def next_occurrence(rrule: str | Series, start: datetime, after: datetime) -> datetime | None:
    """The first occurrence of the series starting at `start` strictly after `after`."""
    series = rrule if isinstance(rrule, Series) else Series.plain(rrule)
    for _, occ in _numbered(series, start):
        if occ > after:
            return occ
    return None


def _moved(series: Series, index: int) -> str | None:
    """The rule once the series moved on by `index` occurrences: an anchored series keeps its
    rule; an unanchored one starts at the new due_at with a COUNT reduced by what was left behind."""
    if series.anchor is not None or series.rrule is None:
        return series.rrule
    return _reduce_count(series.rrule, index)


def _next_after(series: Series, start: datetime, after: datetime) -> tuple[datetime, str | None] | None:
    """The first occurrence after both `start` and `after`, with the rule rewritten to start
    there (a COUNT reduced by the occurrences left behind); None when the series has ended."""
    for index, occ in _numbered(series, start):
        if occ > start and occ > after:
            return occ, _moved(series, index)
    return None


def _latest_not_after(series: Series, start: datetime, now: datetime) -> tuple[datetime, str | None]:
    """The latest occurrence not after `now` (at least `start`), with the rule rewritten for it."""
    best = (start, series.rrule)
    for index, occ in _numbered(series, start):
        if occ > now:
            break
        if occ > start:
            best = (occ, _moved(series, index))
    return best


def _reduce_count(rrule: str, by: int) -> str:
    match = _COUNT.search(rrule)
    if not match or by <= 0:
        return rrule
    left = int(match.group(1)) - by
    return rrule[: match.start(1)] + str(max(left, 1)) + rrule[match.end(1) :]


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
        first = next((occ for _, occ in _numbered(series, due)), None)
        if first is not None:
            due, _ = _latest_not_after(series, first, now)
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
            latest, rule = _latest_not_after(series, due_at, max(now, alarm.due_at))
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
        moved = _next_after(series, due_at, now)
    except InvalidInput as exc:
        log.warning("reminder %s repeats by a rule that cannot be read (%s): marked done", neuron.id, exc)
        return None
    if moved is None:
        return None
    new_due, rule = moved
    # done_at on an active recurring reminder: when its last occurrence was done
    return {"due_at": iso(new_due), "rrule": rule, "snoozed_until": None, "done_at": iso(now)}


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
    "rule_text",
    "snoozed",
    "upcoming",
    "utcnow",
    "validate_rrule",
    "zone",
]
