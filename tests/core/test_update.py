"""Memory.update: one save of a neuron (new text, attrs changes, a new schedule) is one
transaction and one Change: a part refused, or a failure after the row was written, leaves the
store as it was, and one undo takes the whole save back. Both engines (the `memory` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core import remind
from core.model import Edit, InvalidInput, Neuron, NotFound, Schedule
from core.store import queries

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
WEEKLY = "FREQ=WEEKLY;BYDAY=MO"


def stored(n: Neuron) -> tuple:
    return (n.body, n.attrs, n.state, n.updated_at)


def a_reminder(memory) -> Neuron:
    return memory.capture(
        "call the plumber about the leak",
        kind="reminder",
        attrs={"due_at": (NOW + timedelta(days=1)).isoformat()},
    )


def test_one_save_writes_text_attrs_and_schedule_as_one_change(memory):
    rem = a_reminder(memory)
    seen = []
    memory.listeners.append(seen.append)
    due = NOW + timedelta(days=7)
    saved = memory.update(
        rem.id,
        Edit(
            text="call the plumber about the boiler", attrs={"tags": ["home"]}, schedule=Schedule(due, WEEKLY)
        ),
    )
    assert saved.body == "call the plumber about the boiler"
    assert saved.title == "call the plumber about the boiler"  # a reminder's title follows its text
    assert saved.attrs["tags"] == ["home"]
    assert remind.current_due(saved) == due and saved.attrs["rrule"] == WEEKLY
    assert memory.get(rem.id) == saved
    assert [c.ids for c in seen] == [(rem.id,)]  # one Change: the window reloads once, undo is one step


def test_a_contact_save_changes_and_removes_keys(memory):
    ana = memory.capture(
        "Ana Lopes", kind="contact", attrs={"name": "Ana Lopes", "phone": "+351 912 345 678"}
    )
    saved = memory.update(
        ana.id, Edit(attrs={"phones": ["+351 912 345 678", "+351 213 000 000"], "phone": None})
    )
    assert saved.attrs["phones"] == ["+351 912 345 678", "+351 213 000 000"] and "phone" not in saved.attrs
    assert saved.body == ana.body


def test_a_refused_schedule_leaves_the_text_and_attrs_unwritten(memory):
    rem = a_reminder(memory)
    before = stored(memory.get(rem.id))
    with pytest.raises(InvalidInput, match="needs a due time"):
        memory.update(rem.id, Edit(text="a new text", attrs={"tags": ["x"]}, schedule=Schedule(None, WEEKLY)))
    assert stored(memory.get(rem.id)) == before


def test_a_failure_after_the_row_is_written_rolls_the_whole_save_back(memory, monkeypatch):
    rem = a_reminder(memory)
    before = stored(memory.get(rem.id))
    seen = []
    memory.listeners.append(seen.append)
    real = queries.update_neuron

    def written_then_failed(*args, **kwargs):
        real(*args, **kwargs)
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(queries, "update_neuron", written_then_failed)
    with pytest.raises(RuntimeError):
        memory.update(rem.id, Edit(text="a new text", schedule=Schedule(NOW + timedelta(days=3), None)))
    monkeypatch.undo()
    assert stored(memory.get(rem.id)) == before and not seen


def test_one_undo_reverts_the_whole_save(memory):
    rem = a_reminder(memory)
    before = memory.get(rem.id)
    after = memory.update(
        rem.id,
        Edit(text="a new text", attrs={"tags": ["x"]}, schedule=Schedule(NOW + timedelta(days=3), WEEKLY)),
    )
    back = memory.revert(before, after=after)
    assert (back.body, back.attrs, back.state) == (before.body, before.attrs, before.state)


def test_an_empty_edit_writes_nothing_and_a_missing_neuron_is_not_found(memory):
    rem = a_reminder(memory)
    seen = []
    memory.listeners.append(seen.append)
    assert stored(memory.update(rem.id, Edit())) == stored(rem) and not seen
    memory.trash(rem.id)
    with pytest.raises(NotFound):
        memory.update("00000000-0000-4000-8000-000000000000", Edit(text="x"))
