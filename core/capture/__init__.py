"""Capture that understands: text -> kind, due dates, mentions of contacts, derived edges.

Contract used by Memory.capture: `read(memory, text, kind, attrs, now) -> Understanding`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from core.model import Edge, Kind, Neuron

if TYPE_CHECKING:
    from core.memory import Memory


@dataclass
class Understanding:
    kind: Kind
    attrs: dict[str, Any]
    edges: list[Edge] = field(default_factory=list)  # from_id/to_id may use NEW as a placeholder

    def edges_for(self, neuron: Neuron) -> list[Edge]:
        return [e for e in self.edges]


def read(memory: Memory, text: str, kind: Kind | None, attrs: dict[str, Any],
         now: datetime | None = None) -> Understanding:
    return Understanding(kind=kind or Kind.NOTE, attrs=attrs)
