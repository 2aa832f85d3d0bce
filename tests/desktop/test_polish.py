"""What people expect of a desktop app: Preferences, Help, About, Problems that stay, the window
where they left it, the list they need first, badges only where they tell something, answers
folded, and reminders' notifications taken back when they stop being true."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QGuiApplication, QTextLayout

from core import __version__, autostart, remind
from core.model import InvalidInput, Kind, Neuron, State
from core.store import queries
from desktop.app import tray_tooltip
from desktop.items import reads
from desktop.items.rows import Fold, Heading, RowList
from desktop.look import keys, theme
from desktop.runtime.prefs import Prefs
from tests.desktop.conftest import WAIT_MS, FakeNotifier, make_app, settle
from tests.desktop.test_window import open_detail, wait_rows


def test_the_window_comes_back_where_it_was_left(qtbot, embedded_memory, clock, notifier):
    first = make_app(qtbot, embedded_memory, clock, notifier)
    first.window.show()
    qtbot.waitExposed(first.window)
    first.window.setGeometry(QRect(40, 50, 700, 520))  # (the offscreen screen is 800x600)
    first.window.splitter.setSizes([180, 300, 420])
    sizes = first.window.splitter.sizes()
    settle(qtbot, first)
    first.quit()
    first.close()
    second = make_app(qtbot, embedded_memory, clock, FakeNotifier())
    second.window.show()
    qtbot.waitExposed(second.window)
    assert (second.window.width(), second.window.height()) == (700, 520)
    assert second.window.splitter.sizes()[:2] == sizes[:2]
    settle(qtbot, second)
    second.close()


def test_it_opens_on_overdue_when_something_is(qtbot, embedded_memory, clock, notifier):
    embedded_memory.capture(
        "renew the passport",
        kind="reminder",
        attrs={
            "due_at": remind.iso(clock.now() - timedelta(days=1)),
            "notified_at": remind.iso(clock.now() - timedelta(days=1)),
        },
    )
    app = make_app(qtbot, embedded_memory, clock, notifier)
    qtbot.waitUntil(lambda: app.window.section == "overdue", timeout=WAIT_MS)
    settle(qtbot, app)
    app.close()


def test_it_opens_on_upcoming_when_nothing_is_overdue(app, qtbot):
    settle(qtbot, app)
    assert app.window.section == "upcoming"
    assert app.window.status_text.text() == "0 items"  # items, not neurons


def test_the_tray_says_what_is_due():
    now = remind.utcnow()
    summary = reads.Summary(
        overdue=2,
        upcoming=3,
        total=9,
        overdue_titles=["Pay rent", "Call Ana"],
        next_title="Water the plants",
        next_at=now + timedelta(hours=2),
    )
    text = tray_tooltip(summary, paused=False, now=now)
    assert "2 overdue: Pay rent, Call Ana" in text and "Next: Water the plants" in text
    assert "Nothing due" in tray_tooltip(reads.Summary(0, 0, 0), paused=False, now=now)
    assert "paused" in tray_tooltip(summary, paused=True, now=now)


def test_the_tray_says_it_in_the_dates_language(qapp):
    now = remind.utcnow()
    summary = reads.Summary(
        overdue=3, upcoming=1, total=4, overdue_titles=["Pagar a renda"], next_title="Regar", next_at=now
    )
    theme.set_language(qapp, "pt")
    try:
        text = tray_tooltip(summary, paused=True, now=now)
        assert "3 atrasados: Pagar a renda e mais 2" in text and "A seguir: Regar" in text
        assert "lembretes em pausa" in text and "Next" not in text
        assert "Nada por fazer" in tray_tooltip(reads.Summary(0, 0, 0), paused=False, now=now)
    finally:
        theme.set_language(qapp, "en")


def test_the_summary_names_what_is_overdue_and_next(app, embedded_memory, clock, qtbot):
    embedded_memory.capture(
        "pay the rent", kind="reminder", attrs={"due_at": remind.iso(clock.now() - timedelta(hours=3))}
    )
    embedded_memory.capture(
        "water the plants", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(hours=2))}
    )
    with qtbot.waitSignal(app.window.summary_loaded, timeout=WAIT_MS) as loaded:
        app.window.load_counts()
    summary = loaded.args[0]
    assert summary.overdue_titles == ["pay the rent"] and summary.next_title == "water the plants"


def test_kind_badges_only_in_mixed_lists(app, embedded_memory, qtbot):
    note = embedded_memory.capture("the tomatoes need staking", kind="note")
    tom = embedded_memory.capture("Tom Baker", kind="contact", attrs={"name": "Tom Baker"})
    window = app.window
    window.show_section("notes", by_person=True)
    wait_rows(qtbot, window, lambda ids: len(ids) == 1)
    assert window.rows.delegate.show_kind is False
    assert window.rows.delegate.badge(note) == ""
    embedded_memory.archive(note.id)
    embedded_memory.archive(tom.id)
    window.show_section("archive", by_person=True)
    wait_rows(qtbot, window, lambda ids: len(ids) == 2)
    assert window.rows.delegate.show_kind is True
    assert window.rows.delegate.badge(window.rows.rows()[0].neuron) in ("NOTE", "CONTACT")  # all archived


def row(text: str, group=None, loose=False) -> reads.Row:
    return reads.Row(Neuron(uuid.uuid4(), Kind.NOTE, text), "why", 1.0, group, loose)


def test_answers_show_the_window_first_then_related_then_fold_the_loose(qtbot):
    rows = RowList(remind.utcnow)
    qtbot.addWidget(rows)
    answer = [
        row("dentist Tuesday", "window"),
        row("gym Wednesday", "window"),
        row("dentist notes"),
        row("a loose one", loose=True),
        row("another loose", loose=True),
    ]
    rows.set_rows(answer, window_label="next week")
    assert [e.text for e in rows.entries() if isinstance(e, Heading)] == ["next week", "Related"]
    fold = rows.fold_item()
    assert fold is not None and "2 loosely related" in fold.text()
    assert [e for e in rows.entries() if isinstance(e, Fold)] == [Fold(2, unfolded=False)]
    assert [r.neuron.body for r in rows.shown_rows()] == ["dentist Tuesday", "gym Wednesday", "dentist notes"]
    # the keyboard walks the rows, skipping headings, and Enter on the fold unfolds it
    rows.show()
    rows.setFocus()
    rows.select_first()
    assert rows.current_id() == str(answer[0].neuron.id)
    for _ in range(3):
        qtbot.keyClick(rows, Qt.Key.Key_Down)
    assert rows.currentItem() is fold
    qtbot.keyClick(rows, Qt.Key.Key_Return)
    assert len(rows.shown_rows()) == 5 and "▾" in fold.text()
    qtbot.keyClick(rows, Qt.Key.Key_Down)
    assert rows.current_id() == str(answer[3].neuron.id)


def test_one_click_or_space_unfolds_the_loosely_related_and_a_double_click_does_so_once(qtbot):
    rows = RowList(remind.utcnow)
    qtbot.addWidget(rows)
    rows.set_rows([row("dentist notes"), row("a loose one", loose=True), row("another", loose=True)])
    rows.resize(400, 300)
    rows.show()
    qtbot.waitExposed(rows)
    fold = rows.fold_item()
    opened: list[str] = []
    rows.opened.connect(opened.append)

    def at_fold():
        return rows.visualItemRect(fold).center()

    qtbot.mouseClick(rows.viewport(), Qt.MouseButton.LeftButton, pos=at_fold())
    assert len(rows.shown_rows()) == 3 and "▾" in fold.text()
    qtbot.mouseClick(rows.viewport(), Qt.MouseButton.LeftButton, pos=at_fold())
    assert len(rows.shown_rows()) == 1 and "▸" in fold.text()
    # a double click (a click, then the double click) unfolds it once, not open and shut
    qtbot.mouseClick(rows.viewport(), Qt.MouseButton.LeftButton, pos=at_fold())
    qtbot.mouseDClick(rows.viewport(), Qt.MouseButton.LeftButton, pos=at_fold())
    assert len(rows.shown_rows()) == 3 and opened == []
    # Space on the fold folds it again, as Enter does
    rows.setFocus()
    rows.setCurrentItem(fold)
    qtbot.keyClick(rows, Qt.Key.Key_Space)
    assert len(rows.shown_rows()) == 1


def test_ungrouped_answers_have_no_headings(qtbot):
    rows = RowList(remind.utcnow)
    qtbot.addWidget(rows)
    rows.set_rows([row("one"), row("two")])
    assert rows.count() == 2 and rows.fold_item() is None


def test_an_unexpected_error_stays_in_problems_with_details_to_copy(app, qtbot):
    def broken(memory):
        raise RuntimeError("the disk said no")

    app.ctx.read(broken).on_success(lambda _: None).run("load notes")
    settle(qtbot, app)
    window = app.window
    assert len(window.problems.items) == 1
    assert window.status.problems_button.isVisible() and "1 problem" in window.status.problems_button.text()
    assert "see Help ▸ Problems" in window.status_text.text()
    dialog = window.dialogs.problems()
    assert "the disk said no" in dialog.details.toPlainText() and "load notes" in dialog.details.toPlainText()
    assert "Traceback" in dialog.details.toPlainText()
    dialog.copy()
    assert "RuntimeError: the disk said no" in QGuiApplication.clipboard().text()
    assert window.problems.unseen == 0 and window.status.problems_button.isVisible()  # it stays
    dialog.clear_button.click()
    assert not window.status.problems_button.isVisible()


def test_a_refused_input_is_not_a_problem(app, qtbot):
    app._failed(InvalidInput("that date is not a date"), "save")
    assert app.window.status_text.text() == "that date is not a date"
    assert not app.window.problems.items


def test_preferences_apply_at_once(app, embedded_memory, clock, qtbot, config_home):
    window = app.window
    qtbot.keyClick(window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    dialog = window.dialogs.shown["preferences"]
    assert dialog.isVisible()
    dialog.autostart.setChecked(True)
    entry = config_home / "autostart" / "neurons.desktop"
    assert entry.exists() and "--hidden" in entry.read_text()
    assert window.menus.autostart_action.isChecked()
    dialog.autostart.setChecked(False)
    assert not entry.exists() and not autostart.is_enabled()
    dialog.snooze.setCurrentIndex(dialog.snooze.findData(30))
    assert app.prefs.snooze == timedelta(minutes=30)
    assert app.notices._snooze_label() == "Snooze 30 min"
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    assert theme.dark_now()
    dialog.theme.setCurrentIndex(dialog.theme.findData("light"))
    assert not theme.dark_now()
    dialog.language.setCurrentIndex(dialog.language.findData("pt"))
    now = clock.now()
    assert theme.when_text(now + timedelta(days=1), now).startswith("amanhã")
    assert theme.relative(now + timedelta(hours=3), now) == "daqui a 3 h"
    dialog.language.setCurrentIndex(dialog.language.findData("en"))
    assert theme.when_text(now + timedelta(days=1), now).startswith("tomorrow")
    # kept for the next start
    again = Prefs()
    assert (again.snooze_minutes, again.theme, again.language) == (30, "light", "en")


def test_start_at_login_from_the_tools_menu(app, config_home):
    app.window.menus.autostart_action.trigger()
    assert autostart.is_enabled() and "log in" in app.window.status_text.text()
    app.window.menus.autostart_action.trigger()
    assert not autostart.is_enabled()


def test_help_lists_every_shortcut_and_about_says_what_and_where(app, qtbot):
    window = app.window
    qtbot.keyClick(window, Qt.Key.Key_Slash, Qt.KeyboardModifier.ControlModifier)
    dialog = window.dialogs.shown["shortcuts"]
    assert dialog.isVisible()
    listed = [dialog.tree.topLevelItem(i).text(1) for i in range(dialog.tree.topLevelItemCount())]
    assert all(k.what in listed for k in keys.SHORTCUTS)
    # every named shortcut is bound to the window's action of that name
    for key in keys.SHORTCUTS:
        if key.name and key.name != "trash":
            assert [s.toString() for s in window.menus.actions[key.name].shortcuts()] == list(key.keys)
    about = window.dialogs.about()
    assert about.isVisible() and __version__ in about.title.text()


def fire_all(qtbot, app) -> None:
    app.scheduler.replan()
    settle(qtbot, app)
    app.scheduler.check()
    settle(qtbot, app)


def test_a_notification_is_taken_back_when_its_reminder_changes_elsewhere(
    app, embedded_memory, clock, notifier, qtbot
):
    due = {"due_at": remind.iso(clock.now())}
    done = embedded_memory.capture("done elsewhere", kind="reminder", attrs=due)
    snoozed = embedded_memory.capture("snoozed elsewhere", kind="reminder", attrs=due)
    kept = embedded_memory.capture("still due", kind="reminder", attrs=due)
    fire_all(qtbot, app)
    assert sorted(notifier.keys()) == sorted(str(n.id) for n in (done, snoozed, kept))
    assert all(n.resident for n in notifier.shown)
    assert {n.title for n in notifier.shown} == {"done elsewhere", "snoozed elsewhere", "still due"}
    embedded_memory.done(done.id)  # e.g. `neurons done ID`
    embedded_memory.snooze(snoozed.id, clock.now())
    embedded_memory.edit(kept.id, text="still due, and edited")
    qtbot.waitUntil(lambda: set(notifier.withdrawn) >= {str(done.id), str(snoozed.id)}, timeout=WAIT_MS)
    trashed = embedded_memory.capture(
        "trashed elsewhere", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(minutes=5))}
    )
    clock.advance(minutes=6)
    fire_all(qtbot, app)
    assert notifier.keys()[-1] == str(trashed.id)
    embedded_memory.trash(trashed.id)
    qtbot.waitUntil(lambda: str(trashed.id) in notifier.withdrawn, timeout=WAIT_MS)
    settle(qtbot, app)
    assert str(kept.id) not in notifier.withdrawn
    app.close()  # quitting takes the rest back
    assert str(kept.id) in notifier.withdrawn


def test_the_status_bar_says_while_vectors_are_computed(app_on_own_store, qtbot):
    # on a store of its own: the count is of every identity's vectors, and an earlier test of the
    # worker may have left another model's in the shared store (then it says "to the new model")
    app = app_on_own_store
    memory = app.memory
    memory.start_background()
    memory.filler.stop()  # there, but not draining: vectors stay pending
    try:
        memory.capture("a note still without its vector", kind="note")
        app.window.load_pending()
        settle(qtbot, app)
        pending = app.window.status.pending
        assert pending.isVisible() and "for search by meaning" in pending.text()
        memory.fill_vectors()
        qtbot.waitUntil(lambda: not pending.isVisible(), timeout=WAIT_MS)
    finally:
        memory.filler = None


def test_the_status_bar_says_how_far_an_upgrade_of_the_model_is(app, embedded_memory, qtbot):
    """Vectors of the model before (as a store made with MiniLM has): the status bar says the move
    to the new model, with how far it is, and goes when the filler is done."""
    if embedded_memory.embedder() is None:
        pytest.skip("the embedding model is not exported in resources/model")

    embedded_memory.start_background()
    embedded_memory.filler.stop()  # there, but not draining: the old vectors stay
    try:
        notes = [embedded_memory.capture(f"an old note number {i}", kind="note") for i in range(3)]
        embedded_memory.fill_vectors()
        with embedded_memory.store.transaction(every_owner=True) as cur:
            queries.save_embeddings(cur, [(n.id, [0.05] * 384) for n in notes], "all-MiniLM-L6-v2")
        progress = embedded_memory.vector_progress()
        assert progress.upgrading and progress.old == progress.pending == 3
        app.window.load_pending()
        settle(qtbot, app)
        pending = app.window.status.pending
        done = progress.total - 3
        assert pending.isVisible()
        assert pending.text() == (
            f"Updating search by meaning to the new model: {done:,} of {progress.total:,} items"
            f" ({100 * done // progress.total}%)…"
        )
        embedded_memory.fill_vectors()
        qtbot.waitUntil(lambda: not pending.isVisible(), timeout=WAIT_MS)
        assert not embedded_memory.vector_progress().upgrading
    finally:
        embedded_memory.filler = None


def test_an_active_reminder_has_no_state_badge_in_a_list_of_reminders(app, embedded_memory, clock, qtbot):
    embedded_memory.capture(
        "one", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(days=1))}
    )
    embedded_memory.capture(
        "two", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(days=2))}
    )
    window = app.window
    window.show_section("upcoming", by_person=True)
    wait_rows(qtbot, window, lambda ids: len(ids) == 2)
    assert [window.rows.delegate.badge(r.neuron) for r in window.rows.rows()] == ["", ""]
    open_detail(qtbot, app, window.rows.rows()[0].neuron)
    assert window.detail.neuron.state is State.ACTIVE


def test_emoji_are_drawn_with_a_font_that_has_them(qtbot):
    assert theme.has_emoji_font(), "no colour emoji font (apt: fonts-noto-color-emoji)"
    text = "Pizza night 🍕 with Ana 🎉"
    layout = QTextLayout(text, QFont())
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    runs = layout.glyphRuns()
    for emoji in ("🍕", "🎉"):
        assert any(r.rawFont().supportsCharacter(ord(emoji)) for r in runs), f"{emoji} would be a box"


def test_the_list_has_the_room_while_nothing_is_open(app, embedded_memory, qtbot):
    note = embedded_memory.capture("a fairly long title for a note about the garden shed roof", kind="note")
    window = app.window
    window.show_section("notes", by_person=True)
    wait_rows(qtbot, window, lambda ids: ids == [str(note.id)])
    assert not window.detail.isVisible()  # no empty pane taking half the window
    wide = window.rows.width()
    open_detail(qtbot, app, note)
    # the list gives up its room at the next layout pass, which may come after the pane shows
    qtbot.waitUntil(lambda: window.detail.isVisible() and window.rows.width() < wide, timeout=WAIT_MS)


def test_the_tools_and_file_menus_hold_what_profile_and_transfer_added_in_their_places(app):
    """profile.install and transfer.install are handed the menu and the place (nothing scans)."""
    tools = [a.text() for a in app.window.menus.tools_menu.actions()]
    assert tools == [
        "Pause reminders",
        "Start at login",
        "",
        "Profile and storage…",
        "",
        "Rebuild the search index",
    ]
    assert app.profile_action in app.window.menus.tools_menu.actions()
    file = [a.text() for a in app.window.menus.file_menu.actions()]
    assert file[file.index("&Import…") :] == [
        "&Import…",
        "Import a &Folder…",
        "&Export…",
        "",
        "Close window",
        "Quit Neurons",
    ]
