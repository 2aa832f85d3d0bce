"""Calls into the GUI thread from other threads (the instance socket, Memory's listeners)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot

from core.model import NeuronsError


class Bridge(QObject):
    changed = Signal(object)  # re-emitted on the GUI thread: a core.changes.Change
    _changed_any = Signal(object)
    _call = Signal(object)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._changed_any.connect(self._relay_changed, Qt.ConnectionType.QueuedConnection)
        self._call.connect(self._run_call, Qt.ConnectionType.QueuedConnection)

    def notify_changed(self, change) -> None:
        """Any thread: tell the GUI the store changed."""
        self._changed_any.emit(change)

    @Slot(object)
    def _relay_changed(self, change) -> None:
        self.changed.emit(change)

    def gui(self, fn: Callable[[], Any], timeout: float = 15.0) -> Any:
        """Run fn on the GUI thread and return its value (or raise its exception)."""
        if threading.current_thread() is threading.main_thread():
            return fn()
        box: dict[str, Any] = {}
        done = threading.Event()
        self._call.emit((fn, box, done))
        if not done.wait(timeout):
            raise NeuronsError("the app did not respond in time")
        if "error" in box:
            raise box["error"]
        return box.get("value")

    @Slot(object)
    def _run_call(self, job) -> None:
        fn, box, done = job
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller's thread
            box["error"] = exc
        finally:
            done.set()
