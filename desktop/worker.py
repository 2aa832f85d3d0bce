"""Run Memory calls off the GUI thread and hand their results back on it (like Anki's QueryOp).

    worker.run(lambda: memory.search(text), on_done=show_results)

`fn` runs on a thread of the pool; `on_done(result)` or `on_error(exc)` then runs on the GUI
thread. With `progress=True`, fn receives a `report(done, total)` callable, and the Worker's
`progress` signal carries it to the GUI. A callback whose widgets are gone is skipped.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable

from PySide6.QtCore import QObject, QThreadPool, Qt, Signal, Slot

log = logging.getLogger(__name__)


class Worker(QObject):
    busy_changed = Signal(int)           # how many tasks are running
    progress = Signal(str, int, int)     # label, done, total
    failed = Signal(str, object)         # label, exception (when the task has no on_error)

    _deliver = Signal(object, object)    # (callback, value): always received on the GUI thread
    _report = Signal(str, int, int)

    def __init__(self, parent: QObject | None = None, max_threads: int = 4):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(max_threads)
        self._busy = 0
        self._closed = False
        self._lock = threading.Lock()
        self._deliver.connect(self._on_deliver, Qt.ConnectionType.QueuedConnection)
        self._report.connect(self.progress, Qt.ConnectionType.QueuedConnection)

    @property
    def busy(self) -> int:
        return self._busy

    def run(self, fn: Callable[..., Any], on_done: Callable[[Any], None] | None = None,
            on_error: Callable[[BaseException], None] | None = None, *, label: str = "",
            progress: bool = False) -> None:
        if self._closed:
            return
        self._busy += 1
        self.busy_changed.emit(self._busy)

        def report(done: int, total: int) -> None:
            self._report.emit(label, int(done), int(total))

        def job() -> None:
            try:
                value = fn(report) if progress else fn()
            except BaseException as exc:  # noqa: BLE001 - every failure is delivered
                if not isinstance(exc, Exception):
                    log.error("task %r interrupted: %r", label, exc)
                self._deliver.emit(("error", on_error, label), exc)
            else:
                self._deliver.emit(("done", on_done, label), value)

        self.pool.start(job)

    @Slot(object, object)
    def _on_deliver(self, how: tuple, value: Any) -> None:
        outcome, callback, label = how
        self._busy -= 1
        self.busy_changed.emit(self._busy)
        if self._closed:
            return
        try:
            if outcome == "done":
                if callback is not None:
                    callback(value)
            elif callback is not None:
                callback(value)
            else:
                log.error("task %r failed: %s", label, value, exc_info=value)
                self.failed.emit(label, value)
        except RuntimeError as exc:
            if "already deleted" in str(exc):  # the widget went away while the task ran
                log.debug("dropped the result of %r: %s", label, exc)
            else:
                raise

    def wait(self, msecs: int = -1) -> bool:
        return self.pool.waitForDone(msecs)

    def close(self, msecs: int = 10000) -> None:
        """Stop delivering; wait for running tasks (they may be mid-transaction)."""
        self._closed = True
        self.pool.clear()
        self.pool.waitForDone(msecs)
