"""The window's first question, when what it needs is not ready (at a start, or after the app let
the model and the index go in the tray): the question says what it waits for, and the answer
replaces it. (The app prepares both while the window is built: tests/desktop/test_window.py.)"""

from __future__ import annotations

import time
import uuid

import pytest

from core.embed.model import SentenceModel
from core.memory import Memory
from core.model import Identity
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
