"""The window comes before the memory: what is typed while the memory opens waits for it and is
never lost; an error at opening says so in the window. On the real app, its real store."""

from __future__ import annotations

import threading
from itertools import pairwise

import pytest
from PySide6.QtCore import Qt

from core.memory import Memory
from core.settings import Settings
from desktop.app import OPENING, App
from desktop.window import statusbar
from tests.desktop.conftest import WAIT_MS, settle


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("NEURONS_DSN", raising=False)
    return tmp_path / "data"


@pytest.fixture
def held_open(monkeypatch):
    """Memory.open waits until the test lets it go (the engine still starting, as at a launch)."""
    go = threading.Event()
    real_open = Memory.open.__func__

    def slow_open(cls, *args, **kwargs):
        go.wait(WAIT_MS / 1000)
        return real_open(cls, *args, **kwargs)

    monkeypatch.setattr(Memory, "open", classmethod(slow_open))
    return go


def start_app(qtbot, data_dir, clock, notifier) -> App:
    settings = Settings.from_env(data_dir=data_dir, embed_in_background=False)
    app = App(settings, notifier=notifier, clock=clock, use_tray=False, dbus=False)
    app.show_window()
    qtbot.waitExposed(app.window)
    return app


def type_capture(qtbot, app, text: str) -> None:
    quick = app.quick
    quick.open()
    quick.text.setFocus()
    qtbot.keyClicks(quick.text, text)
    qtbot.keyClick(quick.text, Qt.Key.Key_Return)


def stored(data_dir, text: str) -> list[str]:
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
        return [n.body for n in memory.list(limit=100) if n.body == text]


def test_a_capture_typed_before_the_memory_opens_is_written_once_it_opens(
    qtbot, data_dir, held_open, clock, notifier
):
    app = start_app(qtbot, data_dir, clock, notifier)
    try:
        type_capture(qtbot, app, "buy oat milk for Maria")
        assert app.memory is None
        assert app.quick.isVisible() and app.quick.hint.text() == "Saving once your memory is open…"
        assert app.quick.text.text() == "buy oat milk for Maria"  # kept in the box meanwhile
        held_open.set()
        qtbot.waitUntil(lambda: not app.quick.isVisible(), timeout=WAIT_MS)
        settle(qtbot, app)
        assert [n.body for n in app.memory.search("oat milk")] == ["buy oat milk for Maria"]
        assert app.window.status_text.text().startswith("Saved")
    finally:
        held_open.set()
        settle(qtbot, app)
        app.close()


def test_two_captures_typed_before_the_memory_opens_are_written_in_order(
    qtbot, data_dir, held_open, clock, notifier
):
    app = start_app(qtbot, data_dir, clock, notifier)
    try:
        type_capture(qtbot, app, "first: water the plants")
        app.quick.cancel()  # the box closed meanwhile: what was saved is still written
        type_capture(qtbot, app, "second: water the plants again")
        held_open.set()
        qtbot.waitUntil(lambda: app.memory is not None, timeout=WAIT_MS)
        settle(qtbot, app)
        written = sorted(app.memory.search("water the plants"), key=lambda n: n.created_at)
        assert [n.body for n in written] == ["first: water the plants", "second: water the plants again"]
    finally:
        held_open.set()
        settle(qtbot, app)
        app.close()


def test_quitting_before_the_memory_opens_still_writes_what_was_typed(
    qtbot, data_dir, held_open, clock, notifier
):
    app = start_app(qtbot, data_dir, clock, notifier)
    try:
        type_capture(qtbot, app, "the passport is in the blue folder")
        app.quit()  # the window goes; the app stays until the capture is written
        assert not app.window.isVisible() and not app.quitting
        held_open.set()
        qtbot.waitUntil(lambda: app.quitting, timeout=WAIT_MS)
    finally:
        held_open.set()
        app.close()  # (as after the event loop: the queued write lands, the store closes)
    assert stored(data_dir, "the passport is in the blue folder") == ["the passport is in the blue folder"]


def test_a_memory_that_cannot_open_says_why_and_the_capture_keeps_its_text(
    qtbot, data_dir, held_open, clock, notifier
):
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)):
        pass
    (data_dir / "pgdata" / "global" / "pg_control").write_bytes(b"")  # a damaged store
    app = start_app(qtbot, data_dir, clock, notifier)
    try:
        type_capture(qtbot, app, "call the plumber")
        held_open.set()
        qtbot.waitUntil(lambda: app.open_error is not None, timeout=WAIT_MS)
        assert "pg_control is empty" in app.window.empty.text()
        assert app.window.status_text.text() == "Could not open your memory"
        quick = app.quick
        assert quick.text.isEnabled() and quick.text.text() == "call the plumber"
        assert "pg_control is empty" in quick.error.text()
    finally:
        held_open.set()
        settle(qtbot, app)
        app.close()


def test_a_question_typed_before_the_memory_opens_says_it_waits_and_is_answered(
    qtbot, data_dir, held_open, clock, notifier
):
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
        key = memory.capture("the spare key is under the blue pot", kind="note")
    app = start_app(qtbot, data_dir, clock, notifier)
    try:
        window = app.window
        window.ask.setFocus()
        qtbot.keyClicks(window.ask, "where is the spare key?")
        qtbot.waitUntil(lambda: window.list_hint.text() == "Looking… (opening your memory)", timeout=WAIT_MS)
        held_open.set()
        qtbot.waitUntil(lambda: window.list_title.text().startswith("Answers for"), timeout=WAIT_MS)
        assert [r.neuron.id for r in window.rows.rows()][:1] == [key.id]
        assert not window.list_hint.text().startswith("Looking")
    finally:
        held_open.set()
        settle(qtbot, app)
        app.close()


def test_the_opening_message_stays_while_the_memory_opens_and_goes_once_it_is_open(
    qtbot, data_dir, held_open, clock, notifier, monkeypatch
):
    """ "Opening your memory…" went after a message's six seconds while a big memory still opened,
    or stayed those seconds over the items once it was open: it is said until the memory is open."""
    monkeypatch.setattr(statusbar, "MESSAGE_MS", 50)
    app = start_app(qtbot, data_dir, clock, notifier)
    try:
        qtbot.waitUntil(lambda: app.window.status_text.text() == OPENING, timeout=WAIT_MS)
        qtbot.wait(300)  # longer than a message's time
        assert app.window.status_text.text() == OPENING
        held_open.set()
        qtbot.waitUntil(lambda: app.memory is not None, timeout=WAIT_MS)
        assert app.window.status_text.text() != OPENING
    finally:
        held_open.set()
        settle(qtbot, app)
        app.close()


def test_the_sections_rows_do_not_overlap_while_the_memory_opens(qtbot, data_dir, held_open, clock, notifier):
    """The sidebar's rows were laid out before the style sheet's padding applied: until the memory
    opened and a count changed a row's text, each row sat half over the next."""
    app = start_app(qtbot, data_dir, clock, notifier)
    try:
        assert app.memory is None
        sidebar = app.window.sidebar
        rows = [sidebar.visualItemRect(sidebar.item(i)) for i in range(sidebar.count())]
        rows = [r for r in rows if r.height() > 0]
        assert len(rows) > 4
        assert all(below.top() >= above.bottom() for above, below in pairwise(rows)), [
            (r.top(), r.height()) for r in rows
        ]
    finally:
        held_open.set()
        settle(qtbot, app)
        app.close()
