"""Commands on single neurons and links: capture, show, list, edit, states, link, unlink."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from typing import Any

from core.commands.base import Answer, command
from core.model import InvalidInput, Kind, Neuron, Relation, State
from core.validate import parse_json


def neuron_json(memory, neuron: Neuron) -> dict[str, Any]:
    """The neuron with its links, each saying what is at its other end (`other_title`)."""
    pairs = memory.neighbours(neuron.id, open_only=False)
    data = neuron.to_json(edges=[edge for edge, _ in pairs])
    titles = {str(other.id): other.title for _, other in pairs}
    for edge in data["edges"]:
        edge["other_title"] = titles.get(edge["other_id"])
    return data


def line(neuron: Neuron) -> str:
    when = neuron.attrs.get("due_at") or (
        neuron.created_at.isoformat(timespec="minutes") if neuron.created_at else ""
    )
    return f"{neuron.id}  {neuron.kind.value:<8} {neuron.state.value:<8} {str(when)[:16]:<16}  {neuron.title}"


def attrs_option(text: str | None) -> dict[str, Any] | None:
    return parse_json(text, "--attrs") if text else None


def _read_stdin(args) -> None:
    if args.text is None or args.text == "-":
        args.text = sys.stdin.read()


def _capture_args(p) -> None:
    p.add_argument("text", nargs="?", help="the text ('-' or nothing: read stdin)")
    p.add_argument("--kind", choices=[k.value for k in Kind], help="override the inferred kind")
    p.add_argument("--attrs", help="JSON object of attributes")
    p.add_argument(
        "--key",
        help="an idempotency key of your choosing: the same capture retried with the same key is "
        "saved once and answered with the first one's id",
    )


@command(
    "capture", "save a note, reminder or contact; prints its id", arguments=_capture_args, prepare=_read_stdin
)
def capture(memory, args) -> Answer:
    neuron = memory.capture(args.text, kind=args.kind, attrs=attrs_option(args.attrs), key=args.key)
    return Answer(neuron_json(memory, neuron), str(neuron.id), note=_read_as(args.text, neuron))


def _read_as(text: str, neuron) -> str:
    """The due time a reminder was given, as read ("due Thu 22 Apr 10:00, every Tuesday"), and a
    doubt the grammar had, or a date no calendar has ("30 February is no day"): on stderr, so the
    person sees it and a script still reads the id."""
    from core.when import find_when, local_now, no_day  # noqa: PLC0415 - keeps forwarding light
    from core.when.spoken import say_reading  # noqa: PLC0415 - keeps forwarding light

    due = (neuron.attrs or {}).get("due_at")
    now = local_now()
    if neuron.kind != Kind.REMINDER or not due:
        wrong = no_day(text or "", now)  # "30 February": said, not silently read as no date
        return f"{wrong}: saved without a due time" if wrong else ""
    when = find_when(text or "", now)
    ambiguous = when.ambiguous if when is not None else None
    return "due " + say_reading(datetime.fromisoformat(due), neuron.attrs.get("rrule"), now, ambiguous)


@command("show", "show one neuron with its links", arguments=lambda p: p.add_argument("id"))
def show(memory, args) -> Answer:
    neuron = memory.get(memory.resolve(args.id))
    lines = [line(neuron), neuron.body]
    if neuron.attrs:
        lines.append(json.dumps(neuron.attrs, ensure_ascii=False, indent=2))
    for edge, other in memory.neighbours(neuron.id, open_only=False):
        status = "open" if edge.is_open else f"closed {edge.valid_to:%Y-%m-%d}"
        lines.append(f"  {edge.relation.value:<12} {status:<17} {other.id}  {other.title}")
    return Answer(neuron_json(memory, neuron), "\n".join(lines))


def _list_args(p) -> None:
    p.add_argument("--kind", choices=[k.value for k in Kind])
    p.add_argument("--state", action="append", choices=[s.value for s in State])
    p.add_argument("--limit", type=int, default=100)


@command("list", "list neurons", arguments=_list_args)
def list_(memory, args) -> Answer:
    states = [State.parse(s) for s in args.state] if args.state else [State.ACTIVE]
    neurons = memory.list(
        kind=args.kind, states=states, limit=args.limit, order="due" if args.kind == "reminder" else "recent"
    )
    return Answer([neuron_json(memory, n) for n in neurons], "\n".join(line(n) for n in neurons))


def _edit_args(p) -> None:
    p.add_argument("id", help="the id, or its first characters")
    p.add_argument("--text", help="the new text")
    p.add_argument("--attrs", help="JSON object merged into the attributes (null removes a key)")
    p.add_argument("--title", help="the new title")
    p.add_argument("--due", help="when: 'tomorrow 9am', 'Friday at half past 4', 'in 2 hours', 'none'")
    p.add_argument("--repeat", help="'every day', 'every 2 weeks', 'every Monday', 'none'")


@command("edit", "change a neuron's text, title, due time, repeat or attributes", arguments=_edit_args)
def edit(memory, args) -> Answer:
    from core import remind  # noqa: PLC0415 - keeps forwarding light
    from core.when import local_now, retimed  # noqa: PLC0415 - keeps forwarding light

    nid = memory.resolve(args.id)
    changes = dict(attrs_option(args.attrs) or {})
    if args.title is not None:
        changes["title"] = args.title
    text = args.text
    if args.due is not None or args.repeat is not None:
        current = memory.get(nid)
        now = local_now()
        due = remind.current_due(current) if args.due is None else due_option(args.due, now)
        rule = current.attrs.get("rrule") if args.repeat is None else repeat_option(args.repeat, now)
        if rule and args.repeat is not None and args.due is None:
            due = _on_the_rules_day(args.repeat, due, now)
        if rule and args.repeat is None:  # a rule that names the old day names the new one
            rule = remind.moved_rule(rule, remind.current_due(current), due, current.attrs.get("tz"))
        changes.update(remind.rescheduled(due, rule or None, current.attrs.get("tz")))
        if text is None and args.due is not None:  # the old time words would contradict the new time
            text = retimed(current.body, current.created_at or current.updated_at) or None
            if text is not None and args.title is None and current.attrs.get("title"):
                changes["title"] = current.attrs["title"]  # the title had no time words: it stays
    if text is None and not changes:
        raise InvalidInput("nothing to change: give --text, --title, --due, --repeat or --attrs")
    neuron = memory.edit(nid, text=text, attrs=changes or None, merge=True)
    return Answer(neuron_json(memory, neuron), line(neuron))


def due_option(text: str, now) -> Any:
    """--due in the capture grammar ("none" clears it)."""
    from core.when import fold, parse_due  # noqa: PLC0415 - keeps forwarding light
    from core.when.words import NONE_WORDS  # noqa: PLC0415 - keeps forwarding light

    if fold(text).strip() in NONE_WORDS:
        return None
    due = parse_due(text, now)
    if due is None:
        raise InvalidInput("--due is empty: give a time, or 'none' to clear it")
    return due


def repeat_option(text: str, now) -> str | None:
    """--repeat in the capture grammar ("every 2 days", "todos os meses no dia 1", "none"), or
    an RFC 5545 rule as calendars write it."""
    from core.when import parse_repeat  # noqa: PLC0415 - keeps forwarding light

    return parse_repeat(text, now)


def _on_the_rules_day(text: str, due, now):
    """ "--repeat 'every Monday'" on a reminder due Wednesday: it moves to the rule's first day,
    keeping its time of day."""
    from core.when import find_when  # noqa: PLC0415 - keeps forwarding light

    when = find_when(text, now)
    if when is None or not when.explicit_day:
        return due
    if due is None:
        return when.due
    local = due.astimezone(now.tzinfo)
    return datetime.combine(when.due.date(), local.timetz())


def set_state(memory, args) -> Answer:
    neuron = memory.set_state(memory.resolve(args.id), args.state_value)
    return Answer(neuron_json(memory, neuron), f"{neuron.id} {neuron.state.value}")


# `restore` (active again) is in core/commands/backup.py: it also restores a backup.
for _name, _state in (("archive", State.ARCHIVED), ("trash", State.TRASHED)):
    command(
        _name,
        f"mark a neuron {_state.value}",
        arguments=lambda p: p.add_argument("id"),
        defaults={"state_value": _state.value},
    )(set_state)


def _link_args(p) -> None:
    p.add_argument("from_id")
    p.add_argument("to_id")
    p.add_argument("--relation", default=Relation.RELATES_TO.value, choices=[r.value for r in Relation])


@command("link", "link two neurons", arguments=_link_args)
def link(memory, args) -> Answer:
    edge = memory.link(memory.resolve(args.from_id), memory.resolve(args.to_id), args.relation)
    return Answer(edge.to_json(), str(edge.id))


@command(
    "unlink",
    "close a link (it is kept, with the date it stopped being true)",
    arguments=lambda p: p.add_argument("edge_id"),
)
def unlink(memory, args) -> Answer:
    edge = memory.unlink(memory.resolve(args.edge_id, edge=True))
    return Answer(edge.to_json(), f"{edge.id} closed {edge.valid_to}")
