"""The window's first question, when what it needs is not ready (at a start, or after the app let
the model and the index go in the tray): the question says what it waits for, and the answer
replaces it. (The app prepares both while the window is built: tests/desktop/test_window.py.)"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from core.embed.model import SentenceModel
from core.memory import Memory
from core.model import Identity
from core.recall.recall import Recall
from core.settings import Settings
from desktop.app import App
from desktop.reminders.scheduler import ReminderScheduler
from tests.desktop.conftest import WAIT_MS, make_app, settle


@pytest.fixture
def unprepared(embedded_store):
    """A memory whose model is not loaded and whose recall index has not read the store yet, as
    at a start (a model of its own: the tests' shared one stays loaded)."""
    model = SentenceModel(embedded_store.settings.model_dir)
    memory = Memory(embedded_store, Identity(device_id=uuid.uuid4()), owns_store=False, model=model)
    yield memory
    model.close()


def test_a_first_question_says_what_it_waits_for(qtbot, unprepared, clock, notifier):
    """The worker busy (as on a start) and neither the model nor the index there: the list says
    it is looking, for the model and the index; the answer replaces it."""
    unprepared.capture("the spare key is with Maria", kind="note")
    app = make_app(qtbot, unprepared, clock, notifier)
    try:
        settle(qtbot, app)  # (the app prepared both: let them go, as the tray does when idle)
        unprepared.model.close()
        unprepared.recall.index.seen_seq = None
        app.ctx.read(lambda _m: time.sleep(3)).run("slow")
        window = app.window
        window.set_question("spare key")
        qtbot.waitUntil(lambda: window.list_hint.text().startswith("Looking…"), timeout=WAIT_MS)
        said = window.list_hint.text()
        assert "loading the language model" in said and "reading the search index" in said, said
        qtbot.waitUntil(lambda: not window.asking, timeout=WAIT_MS)
        assert not window.list_hint.text().startswith("Looking")
        assert [r.neuron.body for r in window.rows.rows()][:1] == ["the spare key is with Maria"]
    finally:
        settle(qtbot, app)
        app.close()


def test_the_app_says_opening_while_the_memory_is_not_open(qtbot, unprepared, clock, notifier):
    app = make_app(qtbot, unprepared, clock, notifier)
    try:
        settle(qtbot, app)
        assert app.waiting_on() == ""  # prepared while the window was built
        app.memory = None  # as before the store has opened
        assert app.waiting_on() == "opening your memory"
        app.memory = unprepared
        unprepared.model.close()
        unprepared.recall.index.seen_seq = None
        assert app.waiting_on() == "loading the language model, reading the search index"
    finally:
        settle(qtbot, app)
        app.close()


def test_a_question_typed_while_the_memory_opens_is_answered_before_the_background_starts(
    qtbot, tmp_path, clock, notifier, monkeypatch
):
    """The reminders' catch-up, a sync and the index's warm-up share the one engine with the
    question (and the catch-up writes, which would send it back to the store): a question typed
    while the memory opened is answered first, and they start after."""
    monkeypatch.delenv("NEURONS_DSN", raising=False)
    settings = Settings.from_env(data_dir=tmp_path / "data", embed_in_background=False)
    with Memory.open(settings) as memory:
        key = memory.capture("the spare key is under the blue pot", kind="note")
    typed = threading.Event()
    real_open, real_start, real_warm = Memory.open.__func__, ReminderScheduler.start, Recall.warm
    started: list[str] = []
    warmed = threading.Event()

    def spy_open(cls, *args, **kwargs):
        typed.wait(WAIT_MS / 1000)  # the question is typed before the memory is open
        return real_open(cls, *args, **kwargs)

    def spy_start(scheduler):
        started.append(app.window.list_title.text())  # (on the window's thread)
        real_start(scheduler)

    def spy_warm(recall):
        warmed.set()
        return real_warm(recall)

    monkeypatch.setattr(Memory, "open", classmethod(spy_open))
    monkeypatch.setattr(ReminderScheduler, "start", spy_start)
    monkeypatch.setattr(Recall, "warm", spy_warm)
    app = App(settings, notifier=notifier, clock=clock, use_tray=False, dbus=False)
    try:
        app.window.set_question("where is the spare key?")
        qtbot.wait(300)  # (the field's pause before it asks: not ready, nothing is asked)
        typed.set()
        qtbot.waitUntil(lambda: bool(started), timeout=WAIT_MS)
        assert started[0].startswith("Answers for"), started
        assert [r.neuron.id for r in app.window.rows.rows()][:1] == [key.id]
        assert warmed.wait(WAIT_MS / 1000)  # the warm-up still comes, after the answer
    finally:
        settle(qtbot, app)
        app.close()
