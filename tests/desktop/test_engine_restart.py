"""The window says once that the store's engine died and was restarted."""

from __future__ import annotations

import os
import signal

from core.memory import Memory
from core.settings import Settings
from core.store import Store
from tests.desktop.conftest import WAIT_MS, make_app, settle


def test_the_person_is_told_once_and_the_app_keeps_working(qtbot, tmp_path, clock, notifier):
    memory = Memory(Store(Settings(data_dir=tmp_path / "data", embed_in_background=False)))
    app = make_app(qtbot, memory, clock, notifier)
    try:
        app.window.show()
        qtbot.waitExposed(app.window)
        settle(qtbot, app)
        os.kill(memory.store.engine.pid, signal.SIGKILL)
        banner = app.window.banner
        qtbot.waitUntil(lambda: banner.isVisible() and "restarted" in banner.text.text(), timeout=WAIT_MS)
        assert "Nothing you saved was lost" in banner.text.text()
        saved = memory.capture("after the restart", kind="note")
        assert memory.get(saved.id).body == "after the restart"
    finally:
        settle(qtbot, app)
        app.close()
        memory.close()
