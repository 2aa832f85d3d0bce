"""Which actions a neuron offers (core.actions.actions_for), kind × state × what it carries: the
one table the detail pane's buttons and the window's Item menu both read."""

from __future__ import annotations

import uuid

import pytest

from core.actions import actions_for
from core.model import Kind, Neuron, State
from core.vocabulary import ItemAction as A

DUE = {"due_at": "2026-03-02T09:00:00+00:00"}
WEEKLY = {**DUE, "rrule": "FREQ=WEEKLY;BYDAY=MO"}

# (kind, state, attrs) -> what is offered
TABLE = [
    (Kind.NOTE, State.ACTIVE, {}, {A.ARCHIVE, A.TRASH}),
    (Kind.NOTE, State.DONE, {}, {A.ARCHIVE, A.TRASH, A.RESTORE}),
    (Kind.NOTE, State.ARCHIVED, {}, {A.TRASH, A.RESTORE}),
    (Kind.NOTE, State.TRASHED, {}, {A.RESTORE}),
    (Kind.CONTACT, State.ACTIVE, {"name": "Ana"}, {A.ARCHIVE, A.TRASH}),
    (Kind.CONTACT, State.DONE, {"name": "Ana"}, {A.ARCHIVE, A.TRASH, A.RESTORE}),
    (Kind.CONTACT, State.ARCHIVED, {"name": "Ana"}, {A.TRASH, A.RESTORE}),
    (Kind.CONTACT, State.TRASHED, {"name": "Ana"}, {A.RESTORE}),
    (Kind.REMINDER, State.ACTIVE, DUE, {A.DONE, A.SNOOZE, A.RESCHEDULE, A.ARCHIVE, A.TRASH}),
    # no time to snooze from: nothing to snooze
    (Kind.REMINDER, State.ACTIVE, {}, {A.DONE, A.RESCHEDULE, A.ARCHIVE, A.TRASH}),
    # a repeating one is done this time, and the series goes on
    (Kind.REMINDER, State.ACTIVE, WEEKLY, {A.DONE_THIS_TIME, A.SNOOZE, A.RESCHEDULE, A.ARCHIVE, A.TRASH}),
    (Kind.REMINDER, State.DONE, DUE, {A.RESCHEDULE, A.ARCHIVE, A.TRASH, A.RESTORE}),
    (Kind.REMINDER, State.DONE, WEEKLY, {A.RESCHEDULE, A.ARCHIVE, A.TRASH, A.RESTORE}),
    (Kind.REMINDER, State.ARCHIVED, DUE, {A.RESCHEDULE, A.TRASH, A.RESTORE}),
    (Kind.REMINDER, State.TRASHED, WEEKLY, {A.RESCHEDULE, A.RESTORE}),
]


@pytest.mark.parametrize(
    ("kind", "state", "attrs", "offered"),
    TABLE,
    ids=[f"{k}-{s}-{'+'.join(sorted(a)) or 'bare'}" for k, s, a, _ in TABLE],
)
def test_actions_for(kind: Kind, state: State, attrs: dict, offered: set[A]):
    neuron = Neuron(id=uuid.uuid4(), kind=kind, body="x", attrs=dict(attrs), state=state)
    assert actions_for(neuron) == offered


def test_the_table_covers_every_kind_and_state():
    assert {(k, s) for k, s, _, _ in TABLE} == {(k, s) for k in Kind for s in State}
