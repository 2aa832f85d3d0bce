"""Commands on single neurons and links: capture, show, list, edit, states, link, unlink."""

from __future__ import annotations

import json
import sys
from typing import Any

from core.commands.base import Answer, command
from core.model import Kind, Neuron, Relation, State
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


@command(
    "capture", "save a note, reminder or contact; prints its id", arguments=_capture_args, prepare=_read_stdin
)
def capture(memory, args) -> Answer:
    neuron = memory.capture(args.text, kind=args.kind, attrs=attrs_option(args.attrs))
    return Answer(neuron_json(memory, neuron), str(neuron.id))


@command("show", "show one neuron with its links", arguments=lambda p: p.add_argument("id"))
def show(memory, args) -> Answer:
    neuron = memory.get(args.id)
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
    p.add_argument("id")
    p.add_argument("--text")
    p.add_argument("--attrs", help="JSON object replacing the attributes")


@command("edit", "change a neuron's text or attributes", arguments=_edit_args)
def edit(memory, args) -> Answer:
    neuron = memory.edit(args.id, text=args.text, attrs=attrs_option(args.attrs))
    return Answer(neuron_json(memory, neuron), str(neuron.id))


def set_state(memory, args) -> Answer:
    neuron = memory.set_state(args.id, args.state_value)
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
    edge = memory.link(args.from_id, args.to_id, args.relation)
    return Answer(edge.to_json(), str(edge.id))


@command(
    "unlink",
    "close a link (it is kept, with the date it stopped being true)",
    arguments=lambda p: p.add_argument("edge_id"),
)
def unlink(memory, args) -> Answer:
    edge = memory.unlink(args.edge_id)
    return Answer(edge.to_json(), f"{edge.id} closed {edge.valid_to}")
