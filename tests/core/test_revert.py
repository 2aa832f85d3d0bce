"""Memory.revert: undo writes the previous body, attrs and state back onto the same row."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from core import remind
from core.changes import started_by
from core.model import Identity, InvalidInput, NotFound, State
from core.vocabulary import Origin

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_undoing_trash_done_and_archive_restores_the_same_row(memory):
    note = memory.capture("the spare key is under the blue pot", kind="note")
    for change in (memory.trash, memory.done, memory.archive):
        before = memory.get(note.id)
        after = change(note.id)
        back = memory.revert(before, after=after)
        assert back.id == note.id and back.state is State.ACTIVE
        assert back.body == note.body and back.attrs == note.attrs
    assert memory.count() == 1  # never a copy


def test_undoing_done_on_a_recurring_reminder_puts_its_time_back(memory):
    rem = memory.capture(
        "water the plants", kind="reminder", attrs={"due_at": remind.iso(NOW), "rrule": "FREQ=DAILY"}
    )
    after = memory.complete(rem.id, NOW)
    assert after.attrs["due_at"] != rem.attrs["due_at"]
    back = memory.revert(rem, after=after)
    assert back.attrs == rem.attrs and back.state is State.ACTIVE


def test_undoing_an_edit_and_a_snooze(memory):
    rem = memory.capture("call the bank", kind="reminder", attrs={"due_at": remind.iso(NOW)})
    snoozed = memory.snooze(rem.id, NOW)
    assert "snoozed_until" in snoozed.attrs
    assert "snoozed_until" not in memory.revert(rem, after=snoozed).attrs
    before = memory.get(rem.id)
    edited = memory.edit(rem.id, text="call the bank about the mortgage")
    back = memory.revert(before, after=edited)
    assert back.body == "call the bank"
    assert back.embedding_model is None  # the text changed: its vector is computed again


def test_undo_refuses_when_the_row_changed_since(memory):
    note = memory.capture("first words", kind="note")
    edited = memory.edit(note.id, text="second words")
    memory.edit(note.id, text="third words")
    with pytest.raises(InvalidInput, match="changed since"):
        memory.revert(note, after=edited)
    assert memory.get(note.id).body == "third words"


def test_another_identity_cannot_revert_a_row(memory):
    note = memory.capture("mine", kind="note")
    other = memory.as_identity(Identity(device_id=uuid.uuid4()))
    with pytest.raises(NotFound):
        other.revert(note)
    assert memory.get(note.id).body == "mine"


def test_an_undo_tells_its_listeners_an_earlier_version_came_back(memory):
    """Even the view that asked for the undo shows the item again."""
    note = memory.capture("the gate code is 4471", kind="note")
    after = memory.trash(note.id)
    seen = []
    memory.listeners.append(seen.append)
    with started_by(Origin.WINDOW):
        memory.revert(note, after=after)
    assert [c.ids for c in seen] == [(note.id,)]
    assert seen[0].affects.earlier and seen[0].affects.states and seen[0].origin is Origin.WINDOW
