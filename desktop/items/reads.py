"""What the window asks of Memory, as plain functions that run on the worker (no Qt here)."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from core import remind
from core.model import Edge, Kind, Neuron, State
from desktop.items.sections import Section

if TYPE_CHECKING:
    from core.memory import Memory

log = logging.getLogger(__name__)

PAGE = 200


@dataclass
class Row:
    """One line of a list: the neuron and, for answers, why it is there."""

    neuron: Neuron
    why: str | None = None
    score: float | None = None
    group: str | None = None  # "window": inside the question's time window (shown first)
    loose: bool = False  # below the relevance bar (folded under "N loosely related")
    at: datetime | None = None  # when it is due inside the question's time (a repeat's occurrence there)


@dataclass
class Page:
    section: Section
    rows: list[Row]
    more: bool = False  # another page exists
    offset: int = 0
    window_label: str | None = None  # the heading of an answer's time window ("next week")


@dataclass
class Detail:
    neuron: Neuron
    links: list[tuple[Edge, Neuron]] = field(default_factory=list)  # open edges
    closed: int = 0


@dataclass
class Timeline:
    contact: Neuron
    entries: list[Row]


def ask(memory: Memory, text: str, limit: int = 30, *, now: datetime | None = None) -> Page:
    """The answer to the ask box, its time words read from `now` (the local now when None)."""
    text = text.strip()
    if not text:
        return Page(Section.RESULTS, [])
    from core.when import find_window, local_now  # noqa: PLC0415 - loaded after the window's first paint

    now = now or local_now()
    results = memory.ask(text, limit=limit, now=now)
    window, _ = find_window(text, now)
    due_of = window.due_of if window is not None else (lambda _n: None)
    rows = [
        Row(r.neuron, r.why, r.score, r.group, r.loose, at=due_of(r.neuron) if r.group else None)
        for r in results
    ]
    label = next((r.window_label for r in results if r.window_label), None)
    if not results:  # "anything overdue?" with nothing overdue says so, not "try other words"
        label = window.label if window is not None else None
    return Page(Section.RESULTS, rows, window_label=label)


def section(
    memory: Memory, name: Section, now: datetime, offset: int = 0, missed: dict[str, str] | None = None
) -> Page:
    if name in (Section.OVERDUE, Section.UPCOMING):
        reminders = memory.reminders()
        overdue = [n for n in reminders if remind.is_overdue(n, now)]
        if name is Section.OVERDUE:
            rows = sorted(overdue, key=lambda n: remind.current_due(n) or now)
        else:
            ids = {n.id for n in overdue}
            rest = [n for n in reminders if n.id not in ids]
            rows = sorted(rest, key=lambda n: (_fire_or_none(n) is None, _fire_or_none(n) or now))
        return Page(name, [Row(n) for n in rows])
    if name is Section.MISSED:
        why = {uuid.UUID(i): text for i, text in (missed or {}).items()}
        found = memory.get_many(list(why))
        return Page(name, [Row(found[i], text) for i, text in why.items() if i in found])
    listed: dict[Section, tuple[Kind | None, list[State | str], str]] = {
        Section.DONE: (Kind.REMINDER, [State.DONE], "updated"),
        Section.NOTES: (Kind.NOTE, [State.ACTIVE], "recent"),
        Section.CONTACTS: (Kind.CONTACT, [State.ACTIVE], "name"),
        Section.ARCHIVE: (None, [State.ARCHIVED], "updated"),
        Section.TRASH: (None, [State.TRASHED], "updated"),
    }
    kind, states, order = listed[name]
    neurons = memory.list(kind, states, limit=PAGE + 1, offset=offset, order=order)
    return Page(name, [Row(n) for n in neurons[:PAGE]], more=len(neurons) > PAGE, offset=offset)


def _fire_or_none(neuron: Neuron) -> datetime | None:
    alarm = remind.next_alarm(neuron)
    return alarm.fire_at if alarm is not None else remind.current_due(neuron)


@dataclass
class Summary:
    """What the sidebar, the status bar and the tray say about the memory now."""

    overdue: int
    upcoming: int
    total: int
    overdue_titles: list[str] = field(default_factory=list)  # the oldest first
    next_title: str | None = None
    next_at: datetime | None = None


SUMMARY_TITLES = 3


def summary(memory: Memory, now: datetime) -> Summary:
    reminders = memory.reminders()
    overdue = sorted(
        (n for n in reminders if remind.is_overdue(n, now)), key=lambda n: remind.current_due(n) or now
    )
    coming = remind.upcoming(reminders, now)
    return Summary(
        len(overdue),
        len(reminders) - len(overdue),
        memory.count(),
        [n.title for n in overdue[:SUMMARY_TITLES]],
        coming[0].title if coming else None,
        coming[0].fire_at if coming else None,
    )


def detail(memory: Memory, neuron_id: uuid.UUID | str) -> Detail:
    neuron = memory.get(neuron_id)
    links = memory.neighbours(neuron.id, open_only=True)
    total = len(memory.edges(neuron.id))
    links.sort(key=lambda pair: (pair[0].relation.value, pair[1].title.lower()))
    return Detail(neuron, links, closed=total - len(links))


def timeline(memory: Memory, contact: Neuron, limit: int = 80) -> Timeline:
    """A contact's page: the answer to "what do you know about them", newest first."""
    answer = memory.about(str(contact.attrs.get("name") or contact.title), limit=limit)
    return Timeline(
        contact, [Row(r.neuron, r.why, r.score) for r in answer.timeline if r.neuron.id != contact.id]
    )


def link_candidates(memory: Memory, text: str, exclude: uuid.UUID, limit: int = 12) -> list[Neuron]:
    text = text.strip()
    if not text:
        return []
    return [n for n in memory.search(text, limit=limit + 1) if n.id != exclude][:limit]
