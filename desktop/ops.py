"""What the window asks of Memory, as plain functions that run on the worker (no Qt here)."""

from __future__ import annotations

import importlib
import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from core import remind
from core.model import Edge, Kind, Neuron, State

log = logging.getLogger(__name__)

PAGE = 200


@dataclass
class Row:
    """One line of a list: the neuron and, for answers, why it is there."""

    neuron: Neuron
    why: str | None = None
    score: float | None = None


@dataclass
class Page:
    section: str
    rows: list[Row]
    more: bool = False          # another page exists
    offset: int = 0
    note: str | None = None     # e.g. "keyword search (the answer engine is not available)"


@dataclass
class Detail:
    neuron: Neuron
    links: list[tuple[Edge, Neuron]] = field(default_factory=list)   # open edges
    closed: int = 0


@dataclass
class Timeline:
    contact: Neuron
    entries: list[Row]
    note: str | None = None


SECTIONS: dict[str, str] = {
    "overdue": "Overdue",
    "upcoming": "Upcoming",
    "done": "Done",
    "notes": "Notes",
    "contacts": "Contacts",
    "archive": "Archive",
    "trash": "Trash",
}


def _recall_has(name: str) -> bool:
    try:
        module = importlib.import_module("core.recall")
    except ImportError:
        return False
    return callable(getattr(module, name, None))


def ask(memory, text: str, limit: int = 30) -> Page:
    """The answer to the ask box: Memory.ask when recall is there, else keyword search."""
    text = text.strip()
    if not text:
        return Page("results", [])
    if _recall_has("ask"):
        results = memory.ask(text, limit=limit)
        return Page("results", [Row(r.neuron, _why_text(getattr(r, "why", None)),
                                    getattr(r, "score", None)) for r in results])
    rows = [Row(n, "matched the words") for n in memory.search(text, limit=limit)]
    return Page("results", rows, note="keyword search")


def _why_text(why: Any) -> str | None:
    if why is None:
        return None
    if isinstance(why, (list, tuple)):
        return "; ".join(str(w) for w in why)
    return str(why)


def section(memory, name: str, now: datetime, offset: int = 0, missed_ids: list[str] | None = None
            ) -> Page:
    if name in ("overdue", "upcoming"):
        reminders = remind.active_reminders(memory)
        overdue = [n for n in reminders if remind.is_overdue(n, now)]
        if name == "overdue":
            rows = sorted(overdue, key=lambda n: remind.current_due(n) or now)
        else:
            ids = {n.id for n in overdue}
            rest = [n for n in reminders if n.id not in ids]
            rows = sorted(rest, key=lambda n: (_fire_or_none(n) is None, _fire_or_none(n) or now))
        return Page(name, [Row(n) for n in rows])
    if name == "missed":
        ids = [uuid.UUID(i) for i in (missed_ids or [])]
        found = memory.get_many(ids)
        return Page(name, [Row(found[i], "came due while Neurons was closed") for i in ids if i in found])
    kind, states, order = {
        "done": (Kind.REMINDER, [State.DONE], "updated"),
        "notes": (Kind.NOTE, [State.ACTIVE], "recent"),
        "contacts": (Kind.CONTACT, [State.ACTIVE], "name"),
        "archive": (None, [State.ARCHIVED], "updated"),
        "trash": (None, [State.TRASHED], "updated"),
    }[name]
    neurons = memory.list(kind, states, limit=PAGE + 1, offset=offset, order=order)
    return Page(name, [Row(n) for n in neurons[:PAGE]], more=len(neurons) > PAGE, offset=offset)


def _fire_or_none(neuron: Neuron) -> datetime | None:
    alarm = remind.next_alarm(neuron)
    return alarm.fire_at if alarm is not None else remind.current_due(neuron)


def counts(memory, now: datetime) -> dict[str, int]:
    reminders = remind.active_reminders(memory)
    overdue = sum(1 for n in reminders if remind.is_overdue(n, now))
    return {"overdue": overdue, "upcoming": len(reminders) - overdue, "total": memory.count()}


def detail(memory, neuron_id: uuid.UUID | str) -> Detail:
    neuron = memory.get(neuron_id)
    links = memory.neighbours(neuron.id, open_only=True)
    total = len(memory.edges(neuron.id))
    links.sort(key=lambda pair: (pair[0].relation.value, pair[1].title.lower()))
    return Detail(neuron, links, closed=total - len(links))


def timeline(memory, contact: Neuron, limit: int = 80) -> Timeline:
    """A contact's page: Memory.about when recall is there, else its links and a keyword search."""
    name = str(contact.attrs.get("name") or contact.title)
    if _recall_has("about"):
        answer = memory.about(name, limit=limit)
        entries = [_entry_row(e) for e in (getattr(answer, "timeline", None) or [])]
        rows = [r for r in entries if r is not None and r.neuron.id != contact.id]
        return Timeline(contact, rows)
    seen: dict[uuid.UUID, Row] = {}
    for edge, other in memory.neighbours(contact.id, open_only=True):
        seen.setdefault(other.id, Row(other, f"linked ({edge.relation.value.replace('_', ' ')})"))
    words = [name] + [str(a) for a in (contact.attrs.get("aliases") or [])]
    for word in words:
        for n in memory.search(word, limit=limit):
            if n.id != contact.id:
                seen.setdefault(n.id, Row(n, f"mentions {word}"))
    rows = sorted(seen.values(), key=lambda r: _when(r.neuron), reverse=True)[:limit]
    return Timeline(contact, rows, note="keyword search")


def _entry_row(entry: Any) -> Row | None:
    if isinstance(entry, Neuron):
        return Row(entry)
    neuron = getattr(entry, "neuron", None)
    if isinstance(neuron, Neuron):
        return Row(neuron, _why_text(getattr(entry, "why", None)), getattr(entry, "score", None))
    if isinstance(entry, (tuple, list)):
        for part in entry:
            if isinstance(part, Neuron):
                return Row(part)
    return None


def _when(neuron: Neuron) -> datetime:
    due = remind.current_due(neuron) if neuron.kind is Kind.REMINDER else None
    stamp = due or neuron.created_at
    return stamp if stamp is not None else datetime.min.replace(tzinfo=remind.local_zone())


def link_candidates(memory, text: str, exclude: uuid.UUID, limit: int = 12) -> list[Neuron]:
    text = text.strip()
    if not text:
        return []
    return [n for n in memory.search(text, limit=limit + 1) if n.id != exclude][:limit]
