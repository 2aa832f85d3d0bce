"""The JSON export format (`neurons-export/1`): parsing is strict, so a bad file changes nothing."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core.model import Edge, InvalidInput, Kind, Neuron, Relation, State

FORMAT = "neurons-export/1"


def parse_instant(value: Any, where: str) -> datetime | None:
    """An ISO 8601 time with its offset (None stays None); anything else is a clear error."""
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        raise InvalidInput(f"{where}: {value!r} is not an ISO 8601 date") from None
    if parsed.tzinfo is None:
        raise InvalidInput(f"{where}: {value!r} has no time zone offset")
    return parsed


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidInput(f"{where}: {value!r} is not a number")
    return float(value)


def parse_export(data: Any) -> tuple[list[Neuron], list[Edge]]:
    from core.memory import clean_attrs, clean_text, parse_uuid  # noqa: PLC0415

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput(f"not a Neurons export: expected an object with format {FORMAT!r}")
    raw_neurons, raw_edges = data.get("neurons"), data.get("edges", [])
    if not isinstance(raw_neurons, list) or not isinstance(raw_edges, list):
        raise InvalidInput("an export holds lists 'neurons' and 'edges'")
    neurons: list[Neuron] = []
    for i, item in enumerate(raw_neurons):
        where = f"neurons[{i}]"
        if not isinstance(item, dict):
            raise InvalidInput(f"{where} is not an object")
        neurons.append(Neuron(
            id=parse_uuid(item.get("id"), f"{where}.id"),
            kind=Kind.parse(item.get("kind")),
            body=clean_text(item.get("body"), what=f"{where}.body"),
            attrs=dict(clean_attrs(item.get("attrs") or {})),
            state=State.parse(item.get("state", "active")),
            created_at=parse_instant(item.get("created_at"), f"{where}.created_at"),
            updated_at=parse_instant(item.get("updated_at"), f"{where}.updated_at"),
        ))
    if len({n.id for n in neurons}) != len(neurons):
        raise InvalidInput("the file holds the same neuron id twice")
    edges: list[Edge] = []
    for i, item in enumerate(raw_edges):
        where = f"edges[{i}]"
        if not isinstance(item, dict):
            raise InvalidInput(f"{where} is not an object")
        edge = Edge(
            id=parse_uuid(item.get("id"), f"{where}.id"),
            from_id=parse_uuid(item.get("from_id"), f"{where}.from_id"),
            to_id=parse_uuid(item.get("to_id"), f"{where}.to_id"),
            relation=Relation.parse(item.get("relation_type")),
            weight=_number(item.get("weight", 1.0), f"{where}.weight"),
            valid_from=parse_instant(item.get("valid_from"), f"{where}.valid_from"),
            valid_to=parse_instant(item.get("valid_to"), f"{where}.valid_to"),
            created_at=parse_instant(item.get("created_at"), f"{where}.created_at"),
            derived_by=item.get("derived_by"),
        )
        if edge.from_id == edge.to_id:
            raise InvalidInput(f"{where} links a neuron to itself")
        if edge.valid_to and edge.valid_from and edge.valid_to < edge.valid_from:
            raise InvalidInput(f"{where} ends before it starts")
        edges.append(edge)
    return neurons, edges
