"""APScheduler on our own QTimer (desktop/reminders/scheduler.py says why): a module of its own,
loaded once reminders are planned."""

from __future__ import annotations

from collections.abc import Callable

from apscheduler.executors.debug import DebugExecutor
from apscheduler.schedulers.base import BaseScheduler
from PySide6.QtCore import QObject, QTimer

# The timer runs on the monotonic clock, which stands still while the machine sleeps: it wakes
# at least this often, and the scheduler's watch() looks for a jump of the wall clock.
MAX_WAIT_MS = 60_000


class QtTimerScheduler(BaseScheduler):
    """APScheduler on one persistent QTimer of ours; jobs run on the GUI thread."""

    def __init__(self, parent: QObject, on_wake: Callable[[], None] = lambda: None, **options):
        self._on_wake = on_wake
        self._timer = QTimer(parent)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._process)
        super().__init__(executors={"default": DebugExecutor()}, **options)

    def shutdown(self, wait: bool = True) -> None:
        super().shutdown(wait)
        self._timer.stop()

    def _start_timer(self, wait_seconds: float | None) -> None:
        self._timer.stop()
        if wait_seconds is not None:
            self._timer.start(int(min(max(wait_seconds, 0) * 1000, MAX_WAIT_MS)))

    def wakeup(self) -> None:  # BaseScheduler's abstract hook: APScheduler calls it when a job is added
        self._start_timer(0)

    def _process(self) -> None:
        self._on_wake()
        self._start_timer(self._process_jobs())
