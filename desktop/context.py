"""What the window, the detail pane and quick capture share: the memory (None until it is open),
the worker, the clock, and where messages for the person go."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from desktop.worker import INTERACTIVE


class Context:
    def __init__(self, worker, clock, memory=None):
        self.worker = worker
        self.clock = clock
        self.memory = memory
        # the status line; `undo`, when given, is offered beside the message (and on Ctrl+Z)
        self.report: Callable[..., None] = lambda text, undo=None: None
        # an error the person did not cause: kept in the window's Problems
        self.failed: Callable[[BaseException], None] = lambda exc: None

    def run(self, fn: Callable[[Any], Any], on_done=None, label: str = "", on_error=None, *,
            lane: str = INTERACTIVE) -> bool:
        """A write (or anything that must happen even if the app quits first): fn(memory) on the
        worker. False when the memory is not open yet."""
        return self._queue(fn, on_done, label, on_error, lane, droppable=False)

    def read(self, fn: Callable[[Any], Any], on_done=None, label: str = "", on_error=None, *,
             lane: str = INTERACTIVE) -> bool:
        """A read: dropped if the app quits before it starts (nobody would see its answer)."""
        return self._queue(fn, on_done, label, on_error, lane, droppable=True)

    def _queue(self, fn, on_done, label, on_error, lane, droppable) -> bool:
        if self.memory is None:
            return False
        memory = self.memory
        return self.worker.run(lambda: fn(memory), on_done, on_error or self.failed, label=label,
                               lane=lane, droppable=droppable)

    def now(self) -> datetime:
        return self.clock.now()
