"""Plain data: neurons, edges, their kinds and relations, and who owns them."""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Self


class NeuronsError(Exception):
    """Base of every error Neurons reports to a person; the message is meant to be shown."""


class InvalidInput(NeuronsError, ValueError):
    """The input was refused; nothing was written."""


class NotFound(NeuronsError, LookupError):
    """No such neuron or edge for this identity."""


class Choice(enum.StrEnum):
    """A closed set of names; `parse` turns a wrong one into a message a person can act on."""

    @classmethod
    def parse(cls, value: Any) -> Self:
        try:
            return cls(value)
        except (ValueError, TypeError):
            raise InvalidInput(
                f"unknown {cls.__name__.lower()} {value!r}: use one of {', '.join(m.value for m in cls)}"
            ) from None


class Kind(Choice):
    NOTE = "note"
    REMINDER = "reminder"
    CONTACT = "contact"


class State(Choice):
    ACTIVE = "active"
    DONE = "done"
    ARCHIVED = "archived"
    TRASHED = "trashed"


class Relation(Choice):
    RELATES_TO = "relates_to"
    CONCERNS = "concerns"
    SAME_PERSON = "same_person"
    SUPERSEDES = "supersedes"


# Relations that recall follows one hop (both directions); supersedes is handled by its own rule.
EXPANDING_RELATIONS = (Relation.RELATES_TO, Relation.CONCERNS, Relation.SAME_PERSON)


@dataclass(frozen=True)
class Identity:
    """Who owns rows: an anonymous device or a local profile (exactly one)."""

    device_id: uuid.UUID | None = None
    user_id: uuid.UUID | None = None

    def __post_init__(self) -> None:
        if (self.device_id is None) == (self.user_id is None):
            raise ValueError("an Identity has exactly one of device_id or user_id")

    @property
    def column(self) -> str:
        return "device_id" if self.device_id is not None else "user_id"

    @property
    def value(self) -> uuid.UUID:
        return self.device_id if self.device_id is not None else self.user_id  # type: ignore[return-value]

    def __str__(self) -> str:
        return f"{'device' if self.device_id else 'user'}:{self.value}"


@dataclass
class Edge:
    id: uuid.UUID
    from_id: uuid.UUID
    to_id: uuid.UUID
    relation: Relation
    weight: float = 1.0
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    created_at: datetime | None = None
    derived_by: str | None = None  # None: made by the person; else what derived it

    @property
    def is_open(self) -> bool:
        return self.valid_to is None

    def other(self, neuron_id: uuid.UUID) -> uuid.UUID:
        return self.to_id if self.from_id == neuron_id else self.from_id

    def to_json(self, seen_from: uuid.UUID | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "relation_type": self.relation.value,
            "from_id": str(self.from_id),
            "to_id": str(self.to_id),
            "weight": self.weight,
            "valid_from": _iso(self.valid_from),
            "valid_to": _iso(self.valid_to),
            "created_at": _iso(self.created_at),
            "derived_by": self.derived_by,
        }
        if seen_from is not None:
            data["other_id"] = str(self.other(seen_from))
        return data


@dataclass
class Neuron:
    id: uuid.UUID
    kind: Kind
    body: str
    attrs: dict[str, Any] = field(default_factory=dict)
    state: State = State.ACTIVE
    created_at: datetime | None = None
    updated_at: datetime | None = None
    embedding_model: str | None = None

    @property
    def title(self) -> str:
        """One line for lists: a contact's name, a reminder's title (its text without the cue and
        the time words, set by capture), else the first line of the body."""
        if self.kind is Kind.CONTACT and self.attrs.get("name"):
            return str(self.attrs["name"])
        if (
            self.kind is Kind.REMINDER
            and isinstance(self.attrs.get("title"), str)
            and self.attrs["title"].strip()
        ):
            return self.attrs["title"].strip()[:120]
        first = self.body.strip().splitlines()[0] if self.body.strip() else ""
        return first[:120]

    def to_json(self, edges: list[Edge] | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "kind": self.kind.value,
            "body": self.body,
            "attrs": self.attrs,
            "state": self.state.value,
            "created_at": _iso(self.created_at),
            "updated_at": _iso(self.updated_at),
        }
        if edges is not None:
            data["edges"] = [e.to_json(seen_from=self.id) for e in edges]
        return data


@dataclass(frozen=True)
class Schedule:
    """When a reminder is due and how it repeats (None: not due, does not repeat)."""

    due_at: datetime | None
    rrule: str | None = None


@dataclass(frozen=True)
class Edit:
    """What one save of a neuron changes (`Memory.update`); a field left at its default stays."""

    text: str | None = None  # the new body
    attrs: dict[str, Any] = field(default_factory=dict)  # keys to change; a None value removes one
    schedule: Schedule | None = None  # a reminder's new due time and rule (a new series)

    def __bool__(self) -> bool:
        return self.text is not None or bool(self.attrs) or self.schedule is not None


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None
