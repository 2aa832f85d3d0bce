"""What a reminder's state change writes (Memory reads the row, applies one of these and writes
it in one transaction): shown (`notified`), done (`completed`, `restart`), `snoozed`,
`rescheduled`. The rules are core/remind/__init__.py's."""

from __future__ import annotations

import dataclasses
import logging
from datetime import datetime, timedelta
from typing import Any

from core.model import InvalidInput, Kind, Neuron
from core.remind.alarms import Alarm, current_due, is_reminder, next_alarm, series_of, unseen
from core.remind.series import (
    Restated,
    iso,
    latest_not_after,
    next_after,
    parse_time,
    restated,
    rule_text,
    validate_rrule,
    zone,
)

log = logging.getLogger(__name__)

# How long "Snooze" waits unless told otherwise.
SNOOZE_DEFAULT = timedelta(minutes=10)


def notified(
    neuron: Neuron, now: datetime, device: str | None = None
) -> tuple[dict[str, object], Alarm] | None:
    """The attrs that record the reminder was shown at `now` (on `device`), and what was shown;
    None when it is not due (any more) at `now` (on that device)."""
    alarm = next_alarm(neuron, device)
    if alarm is None or alarm.fire_at > now:
        alarm = unseen(neuron)  # its last showing closed unseen: said again (at start)
        if alarm is None:
            return None
    changes: dict[str, object] = {"notified_at": iso(now)}
    if "unseen_at" in neuron.attrs:
        changes["unseen_at"] = None  # a new showing
    if device is not None:
        shown_on = neuron.attrs.get("notified_on")
        changes["notified_on"] = {**(shown_on if isinstance(shown_on, dict) else {}), device: now.timestamp()}
    series = series_of(neuron)
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


def closed_unseen(neuron: Neuron) -> dict[str, object] | None:
    """Its notification was closed by the notification server, not by the person (it expired,
    or another program closed it): the attrs that make its last showing unseen (`alarms.unseen`);
    None when it was not shown, or was answered since."""
    if not is_reminder(neuron) or unseen(neuron) is not None:
        return None
    try:
        shown = parse_time(neuron.attrs.get("notified_at"), what="notified_at")
    except InvalidInput:
        return None
    if shown is None:
        return None
    marked = dataclasses.replace(neuron, attrs={**neuron.attrs, "unseen_at": shown.timestamp()})
    return {"unseen_at": shown.timestamp()} if unseen(marked) is not None else None


def completed(neuron: Neuron, now: datetime) -> dict[str, object] | None:
    """Done at `now`: the attrs that move a recurring reminder to its next occurrence after `now`;
    None when the neuron is simply marked done (a one-off, another kind, a rule with no more)."""
    series = series_of(neuron) if neuron.kind is Kind.REMINDER else None
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


_WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def moved_rule(
    rrule: str | None, old_due: datetime | None, new_due: datetime | None, tz: str | None = None
) -> str | None:
    """The rule of a repeating reminder whose due day moves: a rule that names the old due's day
    ("every 2 weeks on Tuesday", "monthly on the 8th", "every year on 8 March") names the new one,
    so the series moves with it; any other rule is returned as it was."""
    if not rrule or old_due is None or new_due is None:
        return rrule
    where = zone(tz)
    old, new = old_due.astimezone(where), new_due.astimezone(where)
    if old.date() == new.date():
        return rrule
    parts = [p.split("=", 1) for p in rule_text(rrule).split(";") if "=" in p]
    rule = {k.upper(): v for k, v in parts}
    moves = {
        "BYDAY": (_WEEKDAYS[old.weekday()], _WEEKDAYS[new.weekday()]),
        "BYMONTHDAY": (str(old.day), str(new.day)),
        "BYMONTH": (str(old.month), str(new.month)),
    }
    changed = dict(rule)
    for key, (was, now) in moves.items():
        if key in rule and rule[key].upper() == was:
            changed[key] = now
        elif key in rule:
            return rrule  # several days, or not the due's own: the rule says more than its day
    if changed == rule:
        return rrule
    return ";".join(f"{k.upper()}={changed[k.upper()]}" for k, _ in parts)


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
        "unseen_at": None,
        "dtstart": None,
        "exdates": None,
        "rdates": None,
    }
