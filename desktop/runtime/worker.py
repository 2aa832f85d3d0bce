"""Run Memory calls off the GUI thread and hand their results back on it (like Anki's QueryOp).

    worker.run(lambda: memory.edit(nid, text), on_done=show_saved)                  # a write
    worker.run(lambda: memory.search(text), on_done=show_results, droppable=True)   # a read

Two lanes, each a Qt thread pool: INTERACTIVE has one thread, so what the person waits for runs
in the order it was asked (a save, then the list that shows it) and never queues behind
background work; BACKGROUND (the index, reminders, a rebuild) has its own threads.

`fn` runs on the lane's thread; `on_done(result)` or `on_error(exc)` then runs on the GUI thread.
With `progress=True`, fn receives a `report(done, total)` callable, and the Worker's `progress`
signal carries it to the GUI. A callback whose widgets are gone is skipped.

On `close()`, tasks not yet started are dropped only when `droppable` (reads: nobody will see
their answer); every other task -- a write -- still runs, so quitting never loses an edit.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal, Slot

from desktop.runtime.problems import NOT_A_PROBLEM

log = logging.getLogger(__name__)

INTERACTIVE = "interactive"
BACKGROUND = "background"
BACKGROUND_THREADS = 2
# At quit: how long to wait for the writes queued on the interactive lane, then for background
# work (a rebuild of the index is left to the filler, which finishes it at the next start).
CLOSE_INTERACTIVE_MS = 60_000
CLOSE_BACKGROUND_MS = 10_000


class _Job(QRunnable):
    """One task. The Worker holds it until its result is delivered on the GUI thread, where its
    references (callbacks that may hold widgets) are let go: a Qt object must never be freed on
    a worker thread, so a job holds no reference cycle that a collection there could break."""

    def __init__(
        self, worker: Worker, fn: Callable[..., Any], on_done, on_error, label: str, lane: str, progress: bool
    ):
        super().__init__()
        self.setAutoDelete(False)
        self.worker = worker
        # let go on the GUI thread once delivered (or dropped): see the class's comment
        self.fn: Callable[..., Any] | None = fn
        self.on_done: Callable[[Any], None] | None = on_done
        self.on_error: Callable[[BaseException], None] | None = on_error
        self.label, self.lane, self.progress = label, lane, progress

    def run(self) -> None:
        self.worker._execute(self)


class Worker(QObject):
    busy_changed = Signal(int)  # how many interactive tasks are queued or running
    progress = Signal(str, int, int)  # label, done, total
    failed = Signal(str, object)  # label, exception (when the task has no on_error)

    _deliver = Signal(object, object)  # (how, value): always received on the GUI thread
    _report = Signal(str, int, int)

    def __init__(self, parent: QObject | None = None, background_threads: int = BACKGROUND_THREADS):
        super().__init__(parent)
        self.lanes: dict[str, QThreadPool] = {}
        for lane, threads in ((INTERACTIVE, 1), (BACKGROUND, background_threads)):
            pool = QThreadPool(self)
            pool.setMaxThreadCount(threads)
            self.lanes[lane] = pool
        self._busy = {INTERACTIVE: 0, BACKGROUND: 0}
        self._closed = False
        self._lock = threading.Lock()
        self._jobs: set[_Job] = set()  # queued or running, until delivered
        self._droppable: dict[_Job, str] = {}  # not started yet, and may be dropped
        self._deliver.connect(self._on_deliver, Qt.ConnectionType.QueuedConnection)
        self._report.connect(self.progress, Qt.ConnectionType.QueuedConnection)

    @property
    def busy(self) -> int:
        """Tasks queued or running in both lanes (tests and screenshots wait for 0)."""
        return sum(self._busy.values())

    @property
    def closed(self) -> bool:
        return self._closed

    def run(
        self,
        fn: Callable[..., Any],
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        *,
        label: str = "",
        progress: bool = False,
        lane: str = INTERACTIVE,
        droppable: bool = False,
    ) -> bool:
        """Queue fn on a lane; False when the worker is closed (nothing was queued)."""
        if self._closed:
            return False
        job = _Job(self, fn, on_done, on_error, label, lane, progress)
        with self._lock:
            self._jobs.add(job)
            if droppable:
                self._droppable[job] = lane
        self._count(lane, +1)
        self.lanes[lane].start(job)
        return True

    def _execute(self, job: _Job) -> None:  # on the lane's thread
        with self._lock:
            self._droppable.pop(job, None)
        label = job.label

        def report(done: int, total: int) -> None:
            self._report.emit(label, int(done), int(total))

        try:
            fn = job.fn
            assert fn is not None, "a job runs once, before it is let go"
            value = fn(report) if job.progress else fn()
        except BaseException as exc:  # noqa: BLE001 - every failure is delivered
            if not isinstance(exc, Exception):
                log.error("task %r interrupted: %r", label, exc)
            self._deliver.emit((job, "error"), exc)
        else:
            self._deliver.emit((job, "done"), value)

    def _count(self, lane: str, delta: int) -> None:
        self._busy[lane] += delta
        if lane == INTERACTIVE:
            self.busy_changed.emit(self._busy[INTERACTIVE])

    @Slot(object, object)
    def _on_deliver(self, how: tuple, value: Any) -> None:
        job, outcome = how
        callback = job.on_done if outcome == "done" else job.on_error
        label = job.label
        with self._lock:
            self._jobs.discard(job)
        self._count(job.lane, -1)
        job.fn = job.on_done = job.on_error = None
        if self._closed:
            return
        try:
            if callback is not None:
                callback(value)
            elif outcome == "error":
                # (whoever listens to `failed` says it: the app keeps it in Problems)
                log.error("task %r failed: %s", label, value, exc_info=value, extra=NOT_A_PROBLEM)
                self.failed.emit(label, value)
        except RuntimeError as exc:
            if "already deleted" in str(exc):  # the widget went away while the task ran
                log.debug("dropped the result of %r: %s", label, exc)
            else:
                raise

    def wait(self, msecs: int = -1) -> bool:
        return all(pool.waitForDone(msecs) for pool in self.lanes.values())

    def close(self) -> None:
        """Stop delivering; drop the reads not started; wait for the writes and running tasks."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            for job, lane in list(self._droppable.items()):
                if self.lanes[lane].tryTake(job):
                    del self._droppable[job]
                    self._jobs.discard(job)
                    self._count(lane, -1)
                    job.fn = job.on_done = job.on_error = None
        if not self.lanes[INTERACTIVE].waitForDone(CLOSE_INTERACTIVE_MS):
            log.error("quitting while a write is still running")
        if not self.lanes[BACKGROUND].waitForDone(CLOSE_BACKGROUND_MS):
            log.warning("quitting while background work is still running")
