"""The main window on the real embedded store: ask, lists, edit in place, links, states, keys."""

from __future__ import annotations

import threading
from datetime import timedelta

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLineEdit, QListWidget, QPlainTextEdit

from core import remind
from core.embed.runtime import Embedder
from core.memory import Memory
from core.model import Kind, Relation, State
from core.settings import Settings
from desktop import app as app_module
from desktop.app import App
from desktop.window.main_window import MainWindow
from tests.desktop.conftest import WAIT_MS, settle


def wait_rows(qtbot, window, predicate) -> None:
    qtbot.waitUntil(lambda: predicate([str(r.neuron.id) for r in window.rows.rows()]), timeout=WAIT_MS)


def open_detail(qtbot, app, neuron) -> None:
    app.window.open_neuron(str(neuron.id))
    qtbot.waitUntil(lambda: app.window.detail.current_id == str(neuron.id), timeout=WAIT_MS)
    settle(qtbot, app)


def type_at_the_end(qtbot, app, text: str):
    """Type `text` at the end of the open neuron's body, as a person would; the detail pane."""
    detail = app.window.detail
    detail.body.setFocus()
    detail.body.moveCursor(detail.body.textCursor().MoveOperation.End)
    qtbot.keyClicks(detail.body, text)
    return detail


def test_empty_states_say_what_to_do(app, qtbot):
    window = app.window
    window.show_section("notes")
    qtbot.waitUntil(
        lambda: window.list_stack.currentWidget() is window.empty and "Ctrl+N" in window.empty.text(),
        timeout=WAIT_MS,
    )
    assert window.detail.stack.currentIndex() == 0  # "Select something to see it here"
    window.show_section("trash")
    qtbot.waitUntil(lambda: "trash is empty" in window.empty.text(), timeout=WAIT_MS)


def test_ask_answers_as_you_type_with_why(app, embedded_memory, qtbot):
    milk = embedded_memory.capture("Buy oat milk at the corner shop", kind="note")
    embedded_memory.capture("Dentist on Friday", kind="note")
    window = app.window
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.ask.hasFocus(), timeout=WAIT_MS)
    qtbot.keyClicks(window.ask, "oat milk")
    wait_rows(qtbot, window, lambda ids: str(milk.id) in ids)
    assert window.section == "results"
    row = next(r for r in window.rows.rows() if r.neuron.id == milk.id)
    assert row.why  # the reason it is there is shown under it
    assert "oat milk" in window.list_title.full_text()
    # keyboard: Down goes to the results, Enter opens the first in the detail pane
    qtbot.keyClick(window.ask, Qt.Key.Key_Down)
    assert window.rows.hasFocus()
    qtbot.keyClick(window.rows, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.detail.current_id == window.rows.current_id(), timeout=WAIT_MS)
    # Escape in the ask box clears it and goes back to the list that was shown
    window.ask.setFocus()
    qtbot.keyClick(window.ask, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: window.section == "upcoming", timeout=WAIT_MS)


def test_ask_says_when_nothing_matches(app, qtbot):
    app.window.set_question("zebra crossing quantum")
    qtbot.waitUntil(
        lambda: app.window.section == "results" and "Nothing matches" in app.window.empty.text(),
        timeout=WAIT_MS,
    )


def test_lists_split_reminders_into_overdue_upcoming_done(app, embedded_memory, clock, qtbot):
    past = embedded_memory.capture(
        "pay the gas bill", kind="reminder", attrs={"due_at": remind.iso(clock.now().replace(day=1))}
    )
    future = embedded_memory.capture(
        "book the car service", kind="reminder", attrs={"due_at": remind.iso(clock.now().replace(day=20))}
    )
    finished = embedded_memory.capture(
        "renew the passport", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    embedded_memory.done(finished.id)
    window = app.window
    window.show_section("overdue")
    wait_rows(qtbot, window, lambda ids: ids == [str(past.id)])
    window.show_section("upcoming")
    wait_rows(qtbot, window, lambda ids: ids == [str(future.id)])
    window.show_section("done")
    wait_rows(qtbot, window, lambda ids: ids == [str(finished.id)])
    qtbot.waitUntil(lambda: window._sidebar_items["overdue"].text().endswith("1"), timeout=WAIT_MS)


def test_edit_in_place_saves_to_the_store(app, embedded_memory, qtbot):
    note = embedded_memory.capture("Ideas for the garden", kind="note")
    open_detail(qtbot, app, note)
    detail = type_at_the_end(qtbot, app, ": plant tomatoes")
    assert detail.save_button.isEnabled()
    qtbot.keyClick(detail.body, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(
        lambda: embedded_memory.get(note.id).body == "Ideas for the garden: plant tomatoes", timeout=WAIT_MS
    )
    qtbot.waitUntil(lambda: detail.save_note.text() == "Saved ✓", timeout=WAIT_MS)
    # tags are attrs: a comma list
    tags = detail._fields["tags"]
    tags.setFocus()
    qtbot.keyClicks(tags, "garden, summer")
    qtbot.mouseClick(detail.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: embedded_memory.get(note.id).attrs.get("tags") == ["garden", "summer"], timeout=WAIT_MS
    )


def test_edit_contact_fields(app, embedded_memory, qtbot):
    ana = embedded_memory.capture("Ana Lopes", kind="contact", attrs={"name": "Ana Lopes"})
    open_detail(qtbot, app, ana)
    detail = app.window.detail
    phone = detail._fields["phones"]  # one Phones field for every number
    qtbot.keyClicks(phone, "+351 912 345 678")
    aliases = detail._fields["aliases"]
    qtbot.keyClicks(aliases, "Aninhas, A.L.")
    detail.save()
    qtbot.waitUntil(
        lambda: embedded_memory.get(ana.id).attrs.get("phones") == ["+351 912 345 678"], timeout=WAIT_MS
    )
    assert embedded_memory.get(ana.id).attrs["aliases"] == ["Aninhas", "A.L."]
    assert embedded_memory.get(ana.id).attrs["name"] == "Ana Lopes"


def test_changing_the_due_time_reschedules(app, embedded_memory, clock, qtbot):
    rem = embedded_memory.capture(
        "water the plants",
        kind="reminder",
        attrs={"due_at": remind.iso(clock.now()), "notified_at": remind.iso(clock.now())},
    )
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    due = detail._fields["due_at"]
    due.selectAll()
    qtbot.keyClicks(due, "in 3 h")
    repeat = detail._fields["rrule"]
    repeat.setCurrentText("Every day")
    detail.save()
    expected = clock.now().replace(microsecond=0) + timedelta(hours=3)
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).attrs.get("rrule") == "FREQ=DAILY", timeout=WAIT_MS)
    attrs = embedded_memory.get(rem.id).attrs
    assert remind.parse_time(attrs["due_at"]) == expected
    assert "notified_at" not in attrs  # it will fire at its new time


def test_a_new_due_time_drops_the_old_time_words_from_the_text(app, embedded_memory, clock, qtbot):
    """As `neurons edit --due` does: "call the bank tomorrow at 3" moved to another time
    would say the old one in its text; the save keeps "call the bank"."""
    rem = embedded_memory.capture("call the bank tomorrow at 3", created_at=clock.now())
    assert rem.kind is Kind.REMINDER
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    due = detail._fields["due_at"]
    due.selectAll()
    qtbot.keyClicks(due, "in 3 h")
    detail.save()
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).body == "call the bank", timeout=WAIT_MS)
    expected = clock.now().replace(microsecond=0) + timedelta(hours=3)
    assert remind.parse_time(embedded_memory.get(rem.id).attrs["due_at"]) == expected
    assert embedded_memory.get(rem.id).title == "Call the bank"  # its title as it was


def test_a_custom_repeat_shows_in_words_and_stays_as_it_was(app, embedded_memory, clock, qtbot):
    rem = embedded_memory.capture(
        "pills", kind="reminder", attrs={"due_at": remind.iso(clock.now()), "rrule": "FREQ=DAILY;INTERVAL=2"}
    )
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    repeat = detail._fields["rrule"]
    assert repeat.currentText() == "Every 2 days"
    assert not detail._differs()
    repeat.setCurrentText("every 3 weeks")  # typed in words: read by the capture grammar
    detail._touched()
    detail.save()
    qtbot.waitUntil(
        lambda: embedded_memory.get(rem.id).attrs.get("rrule") == "FREQ=WEEKLY;INTERVAL=3", timeout=WAIT_MS
    )


def test_moving_a_repeats_day_in_the_pane_moves_the_day_its_rule_names(app, embedded_memory, clock, qtbot):
    """ "Every 2 weeks on Tuesday" moved to a Thursday becomes "every 2 weeks on Thursday", and
    the Repeat box says so after the save (the rule is not left naming the old day)."""
    local = clock.now().astimezone(remind.local_zone())
    tuesday = (local + timedelta(days=(1 - local.weekday()) % 7 or 7)).replace(
        hour=9, minute=0, second=0, microsecond=0
    )
    rem = embedded_memory.capture(
        "water the plants",
        kind="reminder",
        attrs={"due_at": remind.iso(tuesday), "rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"},
    )
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    assert detail._fields["rrule"].currentText().lower() == "every 2 weeks on tuesday"
    due = detail._fields["due_at"]
    due.selectAll()
    qtbot.keyClicks(due, (tuesday + timedelta(days=2)).strftime("%Y-%m-%d %H:%M"))
    detail.save()
    qtbot.waitUntil(
        lambda: embedded_memory.get(rem.id).attrs.get("rrule") == "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH",
        timeout=WAIT_MS,
    )
    qtbot.waitUntil(
        lambda: detail._fields["rrule"].currentText().lower() == "every 2 weeks on thursday", timeout=WAIT_MS
    )


def test_a_bad_due_time_is_refused_with_a_sentence(app, embedded_memory, clock, qtbot):
    rem = embedded_memory.capture("call the bank", kind="reminder", attrs={"due_at": remind.iso(clock.now())})
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    detail._fields["due_at"].setText("the day after never")
    detail._touched()
    detail.save()
    assert "not a time I can read" in detail.error.text()
    assert embedded_memory.get(rem.id).attrs["due_at"] == rem.attrs["due_at"]


def test_link_by_search_then_close_the_link(app, embedded_memory, qtbot):
    trip = embedded_memory.capture("Trip to Lisbon in May", kind="note")
    ana = embedded_memory.capture("Ana Lopes", kind="contact", attrs={"name": "Ana Lopes"})
    open_detail(qtbot, app, trip)
    detail = app.window.detail
    detail.linker.link_relation.setCurrentIndex(detail.linker.link_relation.findData(Relation.CONCERNS.value))
    detail.linker.link_search.setFocus()
    qtbot.keyClicks(detail.linker.link_search, "Lopes")
    qtbot.waitUntil(
        lambda: (
            detail.linker.candidates.isVisible()
            and detail.linker.candidates.count() >= 1
            and detail.linker.candidates.currentItem() is not None
        ),
        timeout=WAIT_MS,
    )
    assert detail.linker.candidates.currentItem().data(Qt.ItemDataRole.UserRole) == str(ana.id)
    qtbot.keyClick(detail.linker.link_search, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: any(
            e.relation is Relation.CONCERNS and e.other(trip.id) == ana.id
            for e in embedded_memory.edges(trip.id, open_only=True)
        ),
        timeout=WAIT_MS,
    )
    qtbot.waitUntil(
        lambda: (
            detail.linker.links.count() == 1
            and detail.linker.links.item(0).data(Qt.ItemDataRole.UserRole) is not None
        ),
        timeout=WAIT_MS,
    )
    assert "Ana Lopes" in detail.linker.links.item(0).text()
    # open the linked neuron from the list, come back, close the link
    detail.linker.links.setCurrentRow(0)
    qtbot.mouseClick(detail.linker.open_link_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: detail.current_id == str(ana.id), timeout=WAIT_MS)
    open_detail(qtbot, app, trip)
    detail.linker.links.setCurrentRow(0)
    qtbot.mouseClick(detail.linker.close_link_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not embedded_memory.edges(trip.id, open_only=True), timeout=WAIT_MS)
    closed = embedded_memory.edges(trip.id)
    assert len(closed) == 1 and closed[0].valid_to is not None  # kept, dated
    qtbot.waitUntil(lambda: "1 closed" in detail.linker.links_title.text(), timeout=WAIT_MS)


def test_done_archive_trash_restore_buttons(app, embedded_memory, qtbot):
    rem = embedded_memory.capture(
        "return the library books", kind="reminder", attrs={"due_at": "2026-03-05T10:00:00+00:00"}
    )
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    assert detail.done_button.isVisible() and detail.snooze_button.isVisible()
    qtbot.mouseClick(detail.done_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).state is State.DONE, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: detail.restore_button.isVisible(), timeout=WAIT_MS)
    qtbot.mouseClick(detail.restore_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).state is State.ACTIVE, timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: detail.archive_button.isVisible() and not detail.restore_button.isVisible(), timeout=WAIT_MS
    )
    qtbot.mouseClick(detail.archive_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).state is State.ARCHIVED, timeout=WAIT_MS)
    qtbot.waitUntil(
        lambda: detail.trash_button.isVisible() and detail.restore_button.isVisible(), timeout=WAIT_MS
    )
    qtbot.mouseClick(detail.trash_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).state is State.TRASHED, timeout=WAIT_MS)
    app.window.show_section("trash")
    wait_rows(qtbot, app.window, lambda ids: ids == [str(rem.id)])


def test_delete_key_trashes_the_selected_row(app, embedded_memory, qtbot):
    note = embedded_memory.capture("an old thought", kind="note")
    window = app.window
    window.show_section("notes")
    wait_rows(qtbot, window, lambda ids: ids == [str(note.id)])
    window.rows.setFocus()
    window.rows.setCurrentRow(0)
    qtbot.waitUntil(lambda: window.detail.current_id == str(note.id), timeout=WAIT_MS)
    qtbot.keyClick(window.rows, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: embedded_memory.get(note.id).state is State.TRASHED, timeout=WAIT_MS)


def test_snooze_button_sets_snoozed_until(app, embedded_memory, clock, qtbot):
    rem = embedded_memory.capture("stretch", kind="reminder", attrs={"due_at": remind.iso(clock.now())})
    open_detail(qtbot, app, rem)
    detail = app.window.detail
    first = detail.snooze_button.menu().actions()[0]  # 10 minutes
    first.trigger()
    qtbot.waitUntil(lambda: "snoozed_until" in embedded_memory.get(rem.id).attrs, timeout=WAIT_MS)
    assert (
        remind.parse_time(embedded_memory.get(rem.id).attrs["snoozed_until"])
        == clock.now() + remind.SNOOZE_DEFAULT
    )


def test_contact_page_is_a_timeline(app, embedded_memory, qtbot):
    ana = embedded_memory.capture("Ana Lopes, architect", kind="contact", attrs={"name": "Ana Lopes"})
    lunch = embedded_memory.capture("Lunch with Ana Lopes about the flat", kind="note")
    gift = embedded_memory.capture("Birthday present: a fountain pen", kind="note")
    embedded_memory.link(gift.id, ana.id, Relation.CONCERNS)
    open_detail(qtbot, app, ana)
    detail = app.window.detail
    assert detail.timeline.isVisible()
    assert "Ana Lopes" in detail.timeline_title.text()
    qtbot.waitUntil(
        lambda: {str(lunch.id), str(gift.id)} <= {str(r.neuron.id) for r in detail.timeline.rows()},
        timeout=WAIT_MS,
    )
    assert all(r.neuron.id != ana.id for r in detail.timeline.rows())


def test_controls_have_accessible_names(app, embedded_memory, qtbot):
    rem = embedded_memory.capture(
        "check the smoke alarm", kind="reminder", attrs={"due_at": "2026-03-09T10:00:00+00:00"}
    )
    open_detail(qtbot, app, rem)
    missing = []
    for cls in (QAbstractButton, QLineEdit, QPlainTextEdit, QComboBox, QListWidget):
        for w in app.window.findChildren(cls):
            if isinstance(w.parent(), QComboBox):
                continue  # an editable combo's own line edit: the combo carries the name
            if w.isVisible() and not (w.accessibleName() or (isinstance(w, QAbstractButton) and w.text())):
                missing.append(f"{cls.__name__} {w.objectName() or w.parent().__class__.__name__}")
    for w in app.quick.findChildren(QLineEdit) + app.quick.findChildren(QComboBox):
        if w.parent() is not None and not w.accessibleName() and not isinstance(w.parent(), QComboBox):
            missing.append(f"quick {w.__class__.__name__}")
    assert not missing, missing


def test_store_changes_elsewhere_refresh_the_window(app, embedded_memory, qtbot):
    window = app.window
    window.show_section("notes")
    settle(qtbot, app)
    note = embedded_memory.capture("written by another part of the app", kind=Kind.NOTE)
    wait_rows(qtbot, window, lambda ids: str(note.id) in ids)


def test_closing_the_window_quits_without_a_tray(app, qtbot):
    assert app.tray is None
    app.window.close()
    assert app.quitting


def test_closing_the_window_keeps_the_app_when_a_tray_exists(app, qtbot):
    app.window.keep_in_tray = lambda: True
    app.window.close()
    assert not app.window.isVisible() and not app.quitting
    assert "tray" in app.window.status_text.text()


def test_rebuilding_the_index_shows_progress(app_on_own_store, qtbot):
    # on a store of its own: a rebuild computes every identity's vectors again, and the worker's
    # shared store holds whatever earlier tests left there
    app = app_on_own_store
    app.memory.capture("something to index", kind="note")
    seen = []
    app.worker.progress.connect(lambda label, done, total: seen.append((label, done, total)))
    app.window.menus.reindex_action.trigger()
    assert not app.window.menus.reindex_action.isEnabled()
    qtbot.waitUntil(lambda: app.window.menus.reindex_action.isEnabled(), timeout=120_000)
    assert seen and seen[-1][0] == "Indexing" and seen[-1][1] == seen[-1][2] > 0
    assert "Search index rebuilt" in app.window.status_text.text()
    assert not app.window.progress.isVisible()


class Loads:
    """Counts what the window loads again after a change."""

    def __init__(self, window, monkeypatch):
        self.calls: list[str] = []
        for name, target in (("list", window), ("counts", window), ("detail", window.detail)):
            method = {"list": "load_section", "counts": "load_counts", "detail": "reload"}[name]
            original = getattr(target, method)
            monkeypatch.setattr(
                target, method, lambda *a, _o=original, _n=name, **k: (self.calls.append(_n), _o(*a, **k))[1]
            )

    def after(self, qtbot, app, fn) -> list[str]:
        settle(qtbot, app)
        self.calls.clear()
        applied = app.window.changes_applied
        fn()
        qtbot.waitUntil(lambda: app.window.changes_applied > applied, timeout=WAIT_MS)
        settle(qtbot, app)
        return sorted(set(self.calls))


def test_each_view_loads_again_only_what_a_change_touches(app, embedded_memory, clock, qtbot, monkeypatch):
    window = app.window
    note = embedded_memory.capture("a note on the side", kind="note")
    window.show_section("upcoming", by_person=True)
    settle(qtbot, app)
    loads = Loads(window, monkeypatch)
    # a note elsewhere: Upcoming does not list notes; the total in the status bar changes
    assert loads.after(qtbot, app, lambda: embedded_memory.capture("another note", kind="note")) == ["counts"]
    # a reminder: the list and the counts
    rem = embedded_memory.capture(
        "book the boiler service",
        kind="reminder",
        attrs={"due_at": remind.iso(clock.now() + timedelta(days=2))},
    )
    wait_rows(qtbot, window, lambda ids: str(rem.id) in ids)
    open_detail(qtbot, app, note)
    # the note shown in the detail pane, edited by another program: only the pane
    assert loads.after(qtbot, app, lambda: embedded_memory.edit(note.id, text="a note, edited")) == ["detail"]
    assert window.detail.body.toPlainText() == "a note, edited"
    # a link between two things nobody shows: nothing
    made = []
    assert loads.after(
        qtbot, app, lambda: made.extend(embedded_memory.capture(f"{n} thing", kind="note") for n in "xy")
    ) == ["counts"]
    x, y = made
    assert loads.after(qtbot, app, lambda: embedded_memory.link(x.id, y.id)) == []


def test_the_window_is_on_screen_before_the_memory_opens_and_the_model_loads(
    qtbot, tmp_path, clock, notifier, monkeypatch
):
    # the memory, the model and the index are ~1 s of CPU at 100k neurons: begun before the window
    # was up, they held it back (the GIL, two cores); they begin once it is painted, and the
    # first answer comes as soon as they are done
    monkeypatch.delenv("NEURONS_DSN", raising=False)
    settings = Settings.from_env(data_dir=tmp_path / "data", embed_in_background=False)
    painted = threading.Event()
    seen: dict[str, bool] = {}
    real_open, real_load = Memory.open.__func__, Embedder.load.__func__

    def spy_open(cls, *args, **kwargs):
        seen["painted before the memory opened"] = painted.is_set()
        return real_open(cls, *args, **kwargs)

    def spy_load(cls, *args, **kwargs):
        seen["painted before the model loaded"] = painted.is_set()
        return real_load(cls, *args, **kwargs)

    monkeypatch.setattr(Memory, "open", classmethod(spy_open))
    monkeypatch.setattr(Embedder, "load", classmethod(spy_load))

    class Window(MainWindow):
        def paintEvent(self, event):
            painted.set()
            super().paintEvent(event)

    monkeypatch.setattr(app_module, "MainWindow", Window)
    app = App(settings, notifier=notifier, clock=clock, use_tray=False, dbus=False)
    try:
        app.show_window()  # as the launch does, before its event loop runs
        assert app.opening and app.window.status_text.text() == "Opening your memory…"
        qtbot.waitUntil(lambda: app.memory is not None, timeout=WAIT_MS)
        assert seen == {"painted before the memory opened": True, "painted before the model loaded": True}
        note = app.memory.capture("the spare key is under the blue pot", kind="note")
        assert [r.neuron.id for r in app.memory.ask("where is the spare key?")][:1] == [note.id]
        assert app.memory.model.loads == 1  # loaded once, ahead
    finally:
        settle(qtbot, app)
        app.close()
