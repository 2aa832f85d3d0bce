"""Desktop fixtures: the real App and widgets on the real embedded store (a fresh identity per
test), with only the clock and the notification daemon faked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from core import remind
from core.memory import Memory
from core.settings import Settings
from core.store import Store

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from desktop.app import App
from desktop.reminders.notifiers import Notice, Notifier
from desktop.runtime.prefs import Prefs

WAIT_MS = 30_000  # an upper bound for a worker round trip, never a timing assertion

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class FakeClock(remind.Clock):
    def __init__(self, now: datetime = T0):
        self.current = now

    def now(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> datetime:
        self.current += timedelta(**delta)
        return self.current


class FakeNotifier(Notifier):
    """Stands in for the desktop's notification daemon: records what would be shown; the test
    answers a notice like a person clicking its action."""

    kind = "fake"

    def __init__(self):
        super().__init__()
        self.shown: list[Notice] = []
        self.withdrawn: list[str] = []

    def show(self, notice: Notice) -> None:
        self.shown.append(notice)

    def withdraw(self, key: str) -> None:
        self.withdrawn.append(key)

    def answer(self, key: str, action: str) -> None:
        self.action.emit(key, action)

    def keys(self) -> list[str]:
        return [n.key for n in self.shown]


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    """Preferences, window state and the autostart entry of each test in a folder of its own,
    dates written in English whatever this machine's language."""
    home = tmp_path / "config"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    Prefs().language = "en"
    return home


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def notifier() -> FakeNotifier:
    return FakeNotifier()


def make_app(qtbot, memory, clock, notifier, **kw):
    return App(memory=memory, notifier=notifier, clock=clock, use_tray=False, **kw)


def settle(qtbot, app) -> None:
    """Wait until every task sent to the worker has been delivered."""
    qtbot.waitUntil(lambda: app.worker.busy == 0, timeout=WAIT_MS)


def running(qtbot, memory, clock, notifier):
    """The app on `memory`, its window shown and its worker idle, until the test is done."""
    app = make_app(qtbot, memory, clock, notifier)
    app.window.show()
    qtbot.waitExposed(app.window)
    settle(qtbot, app)
    yield app
    settle(qtbot, app)
    app.close()


@pytest.fixture
def app(qtbot, embedded_memory, clock, notifier):
    yield from running(qtbot, embedded_memory, clock, notifier)


@pytest.fixture
def app_on_own_store(qtbot, fresh_data_dir, sentence_model, clock, notifier):
    """The app on a store of its own, for what acts on every identity's rows (rebuilding every
    vector, counting every vector): in the worker's shared store that is whatever earlier tests
    left there."""
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        if memory.embedder() is None:
            pytest.skip("the embedding model is not exported in resources/model")
        yield from running(qtbot, memory, clock, notifier)


from tests.core.dav_server import hostile, kept, radicale  # noqa: E402, F401 - the sync tests' servers and keyring
