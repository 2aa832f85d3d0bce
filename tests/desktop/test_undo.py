"""Undo of each action, from the status line's Undo and from Ctrl+Z: the same row goes back to
what it was (never a copy), and an item that changed since is not overwritten."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtCore import Qt

from core import remind
from core.model import State
from tests.desktop.conftest import WAIT_MS, settle
from tests.desktop.test_window import open_detail, type_at_the_end, wait_rows


def undo_by_click(qtbot, app) -> None:
    button = app.window.status.undo
    qtbot.waitUntil(lambda: button.isVisible(), timeout=WAIT_MS)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    settle(qtbot, app)


def undo_by_key(qtbot, app) -> None:
    qtbot.waitUntil(lambda: app.window.menus.undo_action.isEnabled(), timeout=WAIT_MS)
    app.window.rows.setFocus()  # outside a text field (there Ctrl+Z undoes typing)
    qtbot.keyClick(app.window.rows, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, app)


@pytest.mark.parametrize("undo", [undo_by_click, undo_by_key], ids=["click", "ctrl+z"])
@pytest.mark.parametrize("action", ["trash", "done", "archive", "snooze", "done-recurring"])
def test_each_action_is_undone_on_the_same_row(app, embedded_memory, clock, qtbot, action, undo):
    attrs = {"due_at": remind.iso(clock.now() + timedelta(hours=1))}
    if action == "done-recurring":
        attrs["rrule"] = "FREQ=DAILY"
    rem = embedded_memory.capture("phone the garage", kind="reminder", attrs=attrs)
    before = embedded_memory.get(rem.id)
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    {
        "trash": lambda: detail.set_state(State.TRASHED),
        "done": detail.mark_done,
        "archive": lambda: detail.set_state(State.ARCHIVED),
        "snooze": detail.snooze_default,
        "done-recurring": detail.mark_done,
    }[action]()
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).updated_at != before.updated_at, timeout=WAIT_MS)
    settle(qtbot, app)
    assert "Undo" in app.window.menus.undo_action.text()
    count = embedded_memory.count()
    undo(qtbot, app)
    after = embedded_memory.get(rem.id)
    assert (after.state, after.body, after.attrs) == (before.state, before.body, before.attrs)
    assert embedded_memory.count() == count
    assert "Undone" in app.window.status_text.text()
    qtbot.waitUntil(
        lambda: detail.neuron is not None and detail.neuron.state is State.ACTIVE, timeout=WAIT_MS
    )


def test_an_edit_is_undone(app, embedded_memory, qtbot):
    note = embedded_memory.capture("books to read: Middlemarch", kind="note")
    open_detail(qtbot, app, note)
    detail = type_at_the_end(qtbot, app, ", Austerlitz")
    detail.save()
    qtbot.waitUntil(lambda: embedded_memory.get(note.id).body.endswith("Austerlitz"), timeout=WAIT_MS)
    undo_by_click(qtbot, app)
    assert embedded_memory.get(note.id).body == "books to read: Middlemarch"
    qtbot.waitUntil(lambda: detail.body.toPlainText() == "books to read: Middlemarch", timeout=WAIT_MS)


def test_delete_in_the_list_then_undo(app, embedded_memory, qtbot):
    note = embedded_memory.capture("the wifi password is on the router", kind="note")
    window = app.window
    window.show_section("notes", by_person=True)
    wait_rows(qtbot, window, lambda ids: ids == [str(note.id)])
    window.rows.setFocus()
    window.rows.setCurrentRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id == str(note.id), timeout=WAIT_MS)
    qtbot.keyClick(window.rows, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: embedded_memory.get(note.id).state is State.TRASHED, timeout=WAIT_MS)
    undo_by_key(qtbot, app)
    assert embedded_memory.get(note.id).state is State.ACTIVE
    wait_rows(qtbot, window, lambda ids: ids == [str(note.id)])


def test_done_from_a_notification_can_be_undone(app, embedded_memory, clock, notifier, qtbot):
    rem = embedded_memory.capture(
        "take the pills", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    app.scheduler.replan()
    settle(qtbot, app)
    app.scheduler.check()
    settle(qtbot, app)
    notifier.answer(str(rem.id), "done")
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).state is State.DONE, timeout=WAIT_MS)
    settle(qtbot, app)
    undo_by_click(qtbot, app)
    assert embedded_memory.get(rem.id).state is State.ACTIVE


def test_undo_after_a_change_elsewhere_says_so_and_keeps_that_change(app, embedded_memory, qtbot):
    note = embedded_memory.capture("call the vet", kind="note")
    open_detail(qtbot, app, note)
    app.window.detail.set_state(State.ARCHIVED)
    qtbot.waitUntil(lambda: embedded_memory.get(note.id).state is State.ARCHIVED, timeout=WAIT_MS)
    settle(qtbot, app)
    embedded_memory.edit(note.id, text="call the vet about the cat's jab")  # another program
    undo_by_click(qtbot, app)
    assert "Not undone" in app.window.status_text.text()
    after = embedded_memory.get(note.id)
    assert after.body == "call the vet about the cat's jab" and after.state is State.ARCHIVED


def test_nothing_to_undo(app, qtbot):
    assert not app.window.menus.undo_action.isEnabled()
    app.undo.undo()
    assert app.window.status_text.text() == "Nothing to undo"


@pytest.mark.parametrize("action", ["trash", "done", "snooze"])
def test_after_undo_the_pane_shows_the_item_as_it_is_again(app, embedded_memory, clock, qtbot, action):
    """The pane that did it shows the undo too: no stale "done" or "trashed", no "Snoozed until",
    and its actions act."""
    attrs = {"due_at": remind.iso(clock.now() + timedelta(hours=1))}
    rem = embedded_memory.capture("phone the garage", kind="reminder", attrs=attrs)
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    {
        "trash": lambda: detail.set_state(State.TRASHED),
        "done": detail.mark_done,
        "snooze": detail.snooze_default,
    }[action]()
    acted = {"trash": State.TRASHED, "done": State.DONE, "snooze": State.ACTIVE}[action]
    qtbot.waitUntil(
        lambda: (
            detail.neuron.state is acted and embedded_memory.get(rem.id).attrs != attrs
            if action == "snooze"
            else detail.neuron.state is acted
        ),
        timeout=WAIT_MS,
    )
    settle(qtbot, app)
    applied = app.window.changes_applied  # the window has seen the action, as a person looks at it
    qtbot.waitUntil(lambda: app.window.changes_applied > applied, timeout=WAIT_MS)
    settle(qtbot, app)
    undo_by_click(qtbot, app)
    qtbot.waitUntil(
        lambda: detail.neuron.state is State.ACTIVE and "snoozed_until" not in detail.neuron.attrs,
        timeout=WAIT_MS,
    )
    labels = [
        detail.form.itemAt(row, detail.form.ItemRole.LabelRole).widget().text()
        for row in range(detail.form.rowCount())
    ]
    assert "Snoozed until" not in labels
    assert detail.state_label.text() == ""
    assert detail.done_button.isVisible() and not detail.restore_button.isVisible()
    detail.done_button.click()  # its actions act on the item as it is now
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).state is State.DONE, timeout=WAIT_MS)
