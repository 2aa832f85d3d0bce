"""The keyboard flow: Tab reaches every field, Down never continues from a stale row, item
shortcuts work from anywhere in the window, Esc cancels an edit, "edited" means edited."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core import remind
from core.model import State
from tests.desktop.conftest import WAIT_MS, settle
from tests.desktop.test_window import open_detail, type_at_the_end, wait_rows


def focused():
    return QApplication.focusWidget()


def test_tab_goes_through_due_and_repeat_then_the_buttons(app, embedded_memory, clock, qtbot):
    rem = embedded_memory.capture(
        "renew the car insurance", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    detail.body.setFocus()
    qtbot.waitUntil(lambda: detail.body.hasFocus(), timeout=WAIT_MS)
    order = []
    for _ in range(4):
        qtbot.keyClick(focused(), Qt.Key.Key_Tab)
        order.append(focused())
    assert order[0] is detail._fields["due_at"]
    assert order[1] is detail._fields["rrule"] or order[1].parent() is detail._fields["rrule"]
    assert order[2] is detail.done_button  # Save is disabled until something is edited
    assert order[3] is detail.snooze_button
    qtbot.keyClick(focused(), Qt.Key.Key_Backtab)
    assert focused() is detail.done_button


def test_tab_goes_through_a_contacts_fields_in_order(app, embedded_memory, qtbot):
    ana = embedded_memory.capture("Ana Lopes", kind="contact", attrs={"name": "Ana Lopes"})
    open_detail(qtbot, app, ana)
    detail = app.window.detail
    detail.body.setFocus()
    qtbot.waitUntil(lambda: detail.body.hasFocus(), timeout=WAIT_MS)
    seen = []
    for _ in range(4):
        qtbot.keyClick(focused(), Qt.Key.Key_Tab)
        seen.append(focused())
    assert seen == [detail._fields[k] for k in ("name", "aliases", "phones", "emails")]


def test_down_after_a_new_question_starts_at_its_first_answer(app, embedded_memory, qtbot):
    embedded_memory.capture("oat milk and bread", kind="note")
    embedded_memory.capture("oat cakes for the picnic", kind="note")
    dentist = embedded_memory.capture("dentist appointment moved to Friday", kind="note")
    window = app.window
    window.set_question("oat")
    wait_rows(qtbot, window, lambda ids: len(ids) >= 2)
    settle(qtbot, app)
    window.focus_rows()
    window.rows.setCurrentRow(window.rows.count() - 1)  # the person went down the old answers
    # a new question, and Down pressed before its answer is back
    window.ask.setFocus()
    window.ask.selectAll()
    qtbot.keyClicks(window.ask, "dentist Friday")
    qtbot.keyClick(window.ask, Qt.Key.Key_Down)
    settle(qtbot, app)
    qtbot.waitUntil(lambda: window.rows.hasFocus(), timeout=WAIT_MS)
    assert window.rows.current_id() == str(dentist.id)
    assert window.rows.currentRow() == window.rows.first_row()
    qtbot.keyClick(window.rows, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.detail.current_id == str(dentist.id), timeout=WAIT_MS)


def test_enter_in_the_ask_box_opens_the_first_answer_of_this_question(app, embedded_memory, qtbot):
    embedded_memory.capture("the spare key is with Maria", kind="note")
    boiler = embedded_memory.capture("boiler service booked for March", kind="note")
    window = app.window
    window.set_question("spare key")
    wait_rows(qtbot, window, lambda ids: bool(ids))
    settle(qtbot, app)
    window.ask.setFocus()
    window.ask.selectAll()
    qtbot.keyClicks(window.ask, "boiler service")
    qtbot.keyClick(window.ask, Qt.Key.Key_Return)  # before the answer: opens it once there
    settle(qtbot, app)
    qtbot.waitUntil(lambda: window.detail.current_id == str(boiler.id), timeout=WAIT_MS)


def test_done_and_snooze_shortcuts_work_from_the_items_fields_and_the_list(
    app, embedded_memory, clock, qtbot
):
    one = embedded_memory.capture(
        "post the letter", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    two = embedded_memory.capture(
        "charge the bike", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    window = app.window
    open_detail(qtbot, app, one)
    due = window.detail._fields["due_at"]
    due.setFocus()
    qtbot.keyClick(due, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: embedded_memory.get(one.id).state is State.DONE, timeout=WAIT_MS)
    open_detail(qtbot, app, two)
    window.rows.setFocus()
    qtbot.keyClick(window.rows, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: "snoozed_until" in embedded_memory.get(two.id).attrs, timeout=WAIT_MS)
    assert (
        remind.parse_time(embedded_memory.get(two.id).attrs["snoozed_until"])
        == clock.now() + app.prefs.snooze
    )


def test_esc_cancels_an_edit_and_edited_means_edited(app, embedded_memory, qtbot):
    note = embedded_memory.capture("garden: plant the tulips", kind="note")
    open_detail(qtbot, app, note)
    detail = type_at_the_end(qtbot, app, "!")
    assert detail.dirty and detail.save_note.text() == "edited"
    qtbot.keyClick(detail.body, Qt.Key.Key_Backspace)  # the typing undone
    assert not detail.dirty and detail.save_note.text() == "" and not detail.save_button.isEnabled()
    qtbot.keyClicks(detail.body, " and the roses")
    qtbot.keyClicks(detail._fields["tags"], "spring")
    assert detail.dirty
    detail._fields["tags"].setFocus()
    qtbot.keyClick(detail._fields["tags"], Qt.Key.Key_Escape)
    assert not detail.dirty
    assert detail.body.toPlainText() == "garden: plant the tulips"
    assert detail._fields["tags"].text() == ""
    settle(qtbot, app)
    assert embedded_memory.get(note.id).body == "garden: plant the tulips"
    # Esc with nothing to cancel: back to the list
    app.window.show_section("notes", by_person=True)
    wait_rows(qtbot, app.window, lambda ids: str(note.id) in ids)
    open_detail(qtbot, app, note)
    detail.body.setFocus()
    qtbot.keyClick(detail.body, Qt.Key.Key_Escape)
    assert app.window.rows.hasFocus()


def test_the_restore_button_says_what_it_undoes(app, embedded_memory, clock, qtbot):
    rem = embedded_memory.capture(
        "pay the council tax", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    detail = app.window.detail
    for state, label in ((State.DONE, "Not done"), (State.ARCHIVED, "Unarchive"), (State.TRASHED, "Restore")):
        embedded_memory.set_state(rem.id, state)
        open_detail(qtbot, app, rem)
        qtbot.waitUntil(lambda state=state: detail.neuron.state is state, timeout=WAIT_MS)
        assert detail.restore_button.isVisible() and detail.restore_button.text() == label


def test_enter_in_the_ask_box_shows_the_answer_and_never_types_into_it(app, embedded_memory, qtbot):
    """Enter, then Down and Return as a person goes on, never put the cursor in
    the answer's text: no newline, not "edited"."""
    boiler = embedded_memory.capture("boiler service booked for March", kind="note")
    window = app.window
    window.ask.setFocus()
    qtbot.keyClicks(window.ask, "boiler service")
    qtbot.keyClick(window.ask, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.detail.current_id == str(boiler.id), timeout=WAIT_MS)
    settle(qtbot, app)
    assert not window.detail.body.hasFocus()
    assert window.rows.hasFocus() and window.rows.current_id() == str(boiler.id)
    qtbot.keyClick(focused(), Qt.Key.Key_Down)
    qtbot.keyClick(focused(), Qt.Key.Key_Return)
    settle(qtbot, app)
    assert not window.detail.body.hasFocus()
    assert not window.detail.dirty and window.detail.save_note.text() == ""
    assert window.detail.body.toPlainText() == "boiler service booked for March"
    assert embedded_memory.get(boiler.id).body == "boiler service booked for March"


def test_enter_in_the_due_field_saves(app, embedded_memory, clock, qtbot):
    rem = embedded_memory.capture("call the bank", kind="reminder", attrs={"due_at": remind.iso(clock.now())})
    open_detail(qtbot, app, rem)
    due = app.window.detail._fields["due_at"]
    due.setFocus()
    due.selectAll()
    qtbot.keyClicks(due, "in 3 h")
    qtbot.keyClick(due, Qt.Key.Key_Return)
    expected = clock.now().replace(microsecond=0) + timedelta(hours=3)
    qtbot.waitUntil(
        lambda: remind.parse_time(embedded_memory.get(rem.id).attrs["due_at"]) == expected, timeout=WAIT_MS
    )


def test_enter_in_a_contact_field_saves(app, embedded_memory, qtbot):
    ana = embedded_memory.capture("Ana Lopes", kind="contact", attrs={"name": "Ana Lopes"})
    open_detail(qtbot, app, ana)
    phone = app.window.detail._fields["phones"]
    phone.setFocus()
    qtbot.keyClicks(phone, "+351 912 345 678")
    qtbot.keyClick(phone, Qt.Key.Key_Return)
    number = "+351 912 345 678"
    qtbot.waitUntil(lambda: embedded_memory.get(ana.id).attrs.get("phones") == [number], timeout=WAIT_MS)


def _due_field(app, memory, clock, qtbot):
    """A reminder open in the pane, its Due field focused: the reminder, the field, its hint."""
    rem = memory.capture("call the bank", kind="reminder", attrs={"due_at": remind.iso(clock.now())})
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    due = detail._fields["due_at"]
    due.setFocus()
    return rem, due, detail._due_hint[0]


def test_the_due_field_previews_what_it_understood(app, embedded_memory, clock, qtbot):
    """As it is typed, beside the field: the time read by the capture grammar, in words; "?" for
    what it cannot read; nothing saved until Enter or Save."""
    rem, due, hint = _due_field(app, embedded_memory, clock, qtbot)
    due.selectAll()
    qtbot.keyClicks(due, "tomorrow at half past 4 pm")
    assert hint.text().startswith("tomorrow 16:30")
    due.selectAll()
    qtbot.keyClicks(due, "the day after never")
    assert hint.text() == "?"
    assert "not a time I can read" in hint.toolTip()
    due.selectAll()
    qtbot.keyClick(due, Qt.Key.Key_Backspace)
    assert hint.text() == "no due time"
    assert embedded_memory.get(rem.id).attrs["due_at"] == rem.attrs["due_at"]


def test_the_due_field_says_which_way_it_read_a_numeric_date(app, embedded_memory, clock, qtbot, monkeypatch):
    """ "05/06" in the Due field: the time read, and that the date could be the other way round."""
    monkeypatch.setenv("NEURONS_DATE_REGION", "en_GB")
    rem, due, hint = _due_field(app, embedded_memory, clock, qtbot)
    due.selectAll()
    qtbot.keyClicks(due, "05/06 at 10")
    assert "5 Jun" in hint.text() or "Jun 5" in hint.text()
    assert hint.text().endswith("(05/06 read day first: it could be the other way round)")
    assert "other way round" in hint.toolTip()
    due.selectAll()
    qtbot.keyClicks(due, "22/04 at 10")
    assert "other way round" not in hint.text() and not hint.toolTip()


def test_tab_from_the_list_goes_into_the_item_shown(app, embedded_memory, qtbot):
    """Enter shows the answer and keeps the keys on the list; Tab is the way into its text."""
    boiler = embedded_memory.capture("boiler service booked for March", kind="note")
    window = app.window
    window.ask.setFocus()
    qtbot.keyClicks(window.ask, "boiler service")
    qtbot.keyClick(window.ask, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.detail.current_id == str(boiler.id), timeout=WAIT_MS)
    settle(qtbot, app)
    assert window.rows.hasFocus()
    qtbot.keyClick(window.rows, Qt.Key.Key_Tab)
    assert window.detail.body.hasFocus()
