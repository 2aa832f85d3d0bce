"""Commands on reminders, as the window does them: done, snooze, upcoming.

`done` on a recurring reminder moves it to its next occurrence (Memory.complete), as the
window's Done does; on anything else it marks it done.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from typing import Any

from core.commands.base import Answer, command
from core.commands.neurons import neuron_json
from core.model import InvalidInput, Neuron

# `upcoming` looks this many days ahead unless told otherwise, and at most this far.
UPCOMING_DAYS = 7
UPCOMING_MAX_DAYS = 3660


def _now() -> datetime:
    return datetime.now(UTC)


def reminder_json(neuron: Neuron, now: datetime) -> dict[str, Any]:
    """A reminder as programs and assistants read it: what, when, and why it is listed."""
    from core import remind  # noqa: PLC0415 - keeps forwarding light
    from core.when.spoken import say_rule  # noqa: PLC0415 - keeps forwarding light

    attrs = neuron.attrs
    start = remind.current_due(neuron)
    due = remind.task_due(neuron) or start  # a task that starts before it is due: its due
    alarm = remind.next_alarm(neuron)
    overdue = remind.is_overdue(neuron, now)
    if neuron.state.value != "active":
        why = f"{neuron.state.value}"
    elif due is None:
        why = "no due time"
    elif overdue:
        why = f"overdue since {due.isoformat(timespec='minutes')}"
    elif attrs.get("snoozed_until") and alarm is not None and start is not None and alarm.fire_at > start:
        why = f"snoozed until {alarm.fire_at.isoformat(timespec='minutes')}"
    else:
        why = f"due {due.isoformat(timespec='minutes')}"
        if start is not None and start != due:
            why = f"starts {start.isoformat(timespec='minutes')}, {why}"
    return {
        "id": str(neuron.id),
        "kind": neuron.kind.value,
        "title": neuron.title,
        "state": neuron.state.value,
        "due_at": attrs.get("due_at"),
        "task_due_at": due.isoformat() if due is not None and due != start else None,
        "repeats": attrs.get("rrule"),
        "repeats_text": say_rule(attrs.get("rrule"), cli_language()) or None,
        "snoozed_until": attrs.get("snoozed_until"),
        "done_at": attrs.get("done_at"),
        "fires_at": alarm.fire_at.isoformat() if alarm is not None else None,
        "overdue": overdue,
        "why": why,
    }


def cli_language() -> str:
    """The language the command line says times and repeats in: the environment's, when it is
    one of the five the grammar reads, else English."""
    from core.when.spoken import LANGUAGES  # noqa: PLC0415 - keeps forwarding light

    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        code = os.environ.get(name, "")[:2].lower()
        if code:
            return code if code in LANGUAGES else "en"
    return "en"


def when_words(neuron: Neuron, now: datetime, at: datetime | None = None) -> str:
    """ "due tomorrow 09:00 · every day", "overdue since Mon 16 Mar 10:00", "" (no due time): in the
    reader's local time and language, the repeat in words. `at`: when it is due inside a
    question's time (a repeat's occurrence there), said instead of its current due time."""
    from core import remind  # noqa: PLC0415 - keeps forwarding light
    from core.when.spoken import say_rule, say_when  # noqa: PLC0415 - keeps forwarding light

    lang, local_now = cli_language(), now.astimezone(remind.local_zone())
    due = remind.current_due(neuron)
    if due is None:
        return ""
    until = remind.task_due(neuron)  # a task that starts before it is due: both
    late = remind.is_overdue(neuron, now)
    if at is not None and at != due:
        due, until, late = at, None, late and at <= now
    said = f"{'overdue since' if late else 'due'} {say_when(until or due, local_now, lang)}"
    if until is not None:
        said = f"starts {say_when(due, local_now, lang)} · {said}"
    alarm = remind.next_alarm(neuron)
    if neuron.attrs.get("snoozed_until") and alarm is not None and alarm.fire_at > due:
        said += f" · snoozed to {say_when(alarm.fire_at, local_now, lang)}"
    rule = say_rule(neuron.attrs.get("rrule"), lang)
    return f"{said} · {rule}" if rule else said


def _when_line(neuron: Neuron, now: datetime) -> str:
    return f"{str(neuron.id)[:8]}  {neuron.title}  —  {when_words(neuron, now) or 'no due time'}"


def _with_why(memory, neuron: Neuron, now: datetime) -> dict[str, Any]:
    data = neuron_json(memory, neuron)
    if neuron.kind.value == "reminder":
        item = reminder_json(neuron, now)
        data.update(fires_at=item["fires_at"], overdue=item["overdue"], why=item["why"])
    else:
        data["why"] = neuron.state.value
    return data


@command(
    "done",
    "mark a neuron done (a repeating reminder moves to its next time)",
    arguments=lambda p: p.add_argument("id"),
)
def done(memory, args) -> Answer:
    now = _now()
    neuron = memory.complete(memory.resolve(args.id), now)
    data = _with_why(memory, neuron, now)
    if neuron.state.value == "active":  # a repeating reminder that moved on
        data["why"] = f"done for this time; next due {neuron.attrs.get('due_at')}"
        return Answer(data, f"{neuron.id} next due {neuron.attrs.get('due_at')}")
    return Answer(data, f"{neuron.id} done")


def _snooze_args(p) -> None:
    p.add_argument("id")
    when = p.add_mutually_exclusive_group()
    when.add_argument(
        "--until",
        help="when: 'tomorrow 9am', 'in 2 hours', '14:30', or ISO 8601 (without an offset: local time)",
    )
    when.add_argument("--minutes", type=float, help="minutes from now (default 10)")


@command("snooze", "show a reminder again later (default: in 10 minutes)", arguments=_snooze_args)
def snooze(memory, args) -> Answer:
    from core import remind  # noqa: PLC0415 - keeps forwarding light
    from core.when import local_now, parse_due  # noqa: PLC0415 - the due field's own grammar

    now = _now()
    until = parse_due(args.until, local_now()) if args.until else None
    if until is not None and until <= now:
        raise InvalidInput(f"--until {args.until} is not in the future")
    minutes = remind.SNOOZE_DEFAULT.total_seconds() / 60 if args.minutes is None else args.minutes
    if not 0 < minutes <= UPCOMING_MAX_DAYS * 24 * 60:
        raise InvalidInput(
            f"--minutes {args.minutes} must be more than 0 and at most {UPCOMING_MAX_DAYS} days"
        )
    neuron = memory.snooze(memory.resolve(args.id), now, timedelta(minutes=minutes), until)
    return Answer(
        _with_why(memory, neuron, now), f"{neuron.id} snoozed until {neuron.attrs['snoozed_until']}"
    )


def _upcoming_args(p) -> None:
    p.add_argument(
        "--days", type=float, default=UPCOMING_DAYS, help=f"how many days ahead (default {UPCOMING_DAYS})"
    )


@command("upcoming", "reminders due in the next days, overdue first", arguments=_upcoming_args)
def upcoming(memory, args) -> Answer:
    if not 0 < args.days <= UPCOMING_MAX_DAYS:
        raise InvalidInput(f"--days {args.days:g} must be more than 0 and at most {UPCOMING_MAX_DAYS}")
    now = _now()
    found = memory.upcoming(now, timedelta(days=args.days))
    items = [reminder_json(n, now) for n in found]
    text = "\n".join(_when_line(n, now) for n in found) or f"nothing due in the next {args.days:g} days"
    return Answer({"now": now.isoformat(), "days": args.days, "reminders": items}, text)
