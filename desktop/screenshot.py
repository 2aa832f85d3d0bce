"""`neurons-desktop --screenshot FILE.png`: the main window with its data, rendered offscreen.

The store is opened read-only in spirit: no reminder fires and nothing is written.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from PySide6 import QtCore, QtWidgets

from core.memory import Memory
from core.model import NeuronsError
from core.settings import Settings
from desktop.app import App
from desktop.look import theme


def screenshot(
    settings: Settings, path: Path, ask: str | None = None, size: tuple[int, int] = (1360, 860)
) -> int:
    """Load the window with its data, render it to `path` and exit (0, or 2 with a message)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    running = QtWidgets.QApplication.instance()
    qapp = running if isinstance(running, QtWidgets.QApplication) else QtWidgets.QApplication(sys.argv[:1])
    qapp.setWindowIcon(theme.app_icon())
    try:
        memory = Memory.open(settings)
    except NeuronsError as exc:
        print(f"neurons-desktop: {exc}", file=sys.stderr)
        return 2
    try:
        app = App(settings, memory=memory, use_tray=False, reminders=False, dbus=False)
        qapp.removeEventFilter(app.screen_fit)  # rendered offscreen at the size asked, not the screen's
        app.window.resize(*size)
        app.window.show()
        app.scheduler.replan()  # read-only: shows when the next reminder is
        if ask:
            app.window.set_question(ask)
            app.window.run_ask(open_first=True)
        code = _render_when_settled(qapp, app, path)
        app.close()
        return code
    finally:
        memory.close()


def _render_when_settled(qapp, app, path: Path, timeout_s: float = 60.0) -> int:
    """Wait until the lists, the detail pane and every task are done, then grab the window."""
    deadline = time.monotonic() + timeout_s
    selected = False
    while time.monotonic() < deadline:
        qapp.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)
        if app.worker.busy or app.window.sections_loaded == 0:
            time.sleep(0.02)
            continue
        if not selected:
            selected = True
            if app.window.rows.count() and app.window.rows.currentRow() < 0:
                app.window.rows.setCurrentRow(0)
            continue
        if app.window.detail.neuron is None and app.window.rows.count():
            time.sleep(0.02)
            continue
        for _ in range(5):
            qapp.processEvents()
        image = app.window.grab()
        path.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(path)):
            print(f"neurons-desktop: cannot write {path}", file=sys.stderr)
            return 2
        print(str(path))
        return 0
    print("neurons-desktop: the window did not finish loading in time", file=sys.stderr)
    return 2
