"""The JSON export format (`neurons-export/1`): parsing is strict, so a bad file changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from core import __version__
from core.model import Edge, InvalidInput, Kind, Neuron, Relation, State
from core.validate import (
    MAX_WEIGHT,
    clean_attrs,
    clean_text,
    number,
    optional_text,
    parse_instant,
    parse_uuid,
)

FORMAT = "neurons-export/1"


def build_export(neurons: list[Neuron], edges: list[Edge]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "app_version": __version__,
        "exported_at": datetime.now(UTC).isoformat(),
        "neurons": [n.to_json() for n in neurons],
        "edges": [e.to_json() for e in edges],
    }


def parse_export(data: Any) -> tuple[list[Neuron], list[Edge]]:
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
        neurons.append(
            Neuron(
                id=parse_uuid(item.get("id"), f"{where}.id"),
                kind=Kind.parse(item.get("kind")),
                body=clean_text(item.get("body"), what=f"{where}.body"),
                attrs=dict(clean_attrs(item.get("attrs") or {})),
                state=State.parse(item.get("state", "active")),
                created_at=parse_instant(item.get("created_at"), f"{where}.created_at"),
                updated_at=parse_instant(item.get("updated_at"), f"{where}.updated_at"),
            )
        )
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
            weight=number(item.get("weight", 1.0), f"{where}.weight", limit=MAX_WEIGHT),
            valid_from=parse_instant(item.get("valid_from"), f"{where}.valid_from"),
            valid_to=parse_instant(item.get("valid_to"), f"{where}.valid_to"),
            created_at=parse_instant(item.get("created_at"), f"{where}.created_at"),
            derived_by=optional_text(item.get("derived_by"), f"{where}.derived_by"),
        )
        if edge.from_id == edge.to_id:
            raise InvalidInput(f"{where} links a neuron to itself")
        if edge.valid_to and edge.valid_from and edge.valid_to < edge.valid_from:
            raise InvalidInput(f"{where} ends before it starts")
        edges.append(edge)
    return neurons, edges
