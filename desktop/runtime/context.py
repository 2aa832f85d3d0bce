"""What the window, the detail pane and quick capture share: the memory (None until it is open),
the worker, the clock, and where messages for the person go.

Work on the memory is typed like Anki's `QueryOp[T]`: `run(fn, on_done)` takes `fn(memory) -> T`
and `on_done(T)`, so mypy checks that what a step returns is what its answer expects."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, TypeVar

from core.changes import started_by
from core.model import Neuron
from core.vocabulary import Origin
from desktop.runtime.worker import INTERACTIVE, Worker

if TYPE_CHECKING:
    from core.memory import Memory
    from core.remind import Clock
    from desktop.runtime.prefs import Prefs

T = TypeVar("T")
OnError = Callable[[BaseException], None]


class Report(Protocol):
    """The status line; with undo=True it offers Undo for the last undoable step."""

    def __call__(self, text: str, undo: bool = False) -> None: ...


class Failed(Protocol):
    """An error the person did not cause (and what the app was doing): kept in Problems."""

    def __call__(self, exc: BaseException, what: str = "") -> None: ...


# an undoable change was made: (what to say, the item before, the item after)
Undoable = Callable[[str, Neuron, Neuron], None]


class Context:
    def __init__(
        self,
        worker: Worker,
        clock: Clock,
        *,
        report: Report,
        failed: Failed,
        undoable: Undoable,
        memory: Memory | None = None,
        prefs: Prefs | None = None,
    ):
        self.worker = worker
        self.clock = clock
        self.memory = memory
        self.prefs = prefs  # snooze time, look
        self.origin = Origin.WINDOW  # who the changes made through it are told to come from
        self.report = report
        self.failed = failed
        self.undoable = undoable

    def run(
        self,
        fn: Callable[[Memory], T],
        on_done: Callable[[T], None] | None = None,
        label: str = "",
        on_error: OnError | None = None,
        *,
        lane: str = INTERACTIVE,
    ) -> bool:
        """A write (or anything that must happen even if the app quits first): fn(memory) on the
        worker. False when the memory is not open yet."""
        return self._queue(fn, on_done, label, on_error, lane, droppable=False)

    def read(
        self,
        fn: Callable[[Memory], T],
        on_done: Callable[[T], None] | None = None,
        label: str = "",
        on_error: OnError | None = None,
        *,
        lane: str = INTERACTIVE,
    ) -> bool:
        """A read: dropped if the app quits before it starts (nobody would see its answer)."""
        return self._queue(fn, on_done, label, on_error, lane, droppable=True)

    def change(
        self,
        neuron_id: uuid.UUID | str,
        fn: Callable[[Memory], Neuron],
        say: Callable[[Neuron], str],
        on_done: Callable[[Neuron], None] | None = None,
        on_error: OnError | None = None,
    ) -> bool:
        """An undoable action on one item: fn(memory) -> the item after; `say(after)` is the
        status message, offered with Undo."""

        def work(memory: Memory) -> tuple[Neuron, Neuron]:
            before = memory.get(neuron_id)
            return before, fn(memory)

        def done(pair: tuple[Neuron, Neuron]) -> None:
            before, after = pair
            self.undoable(say(after), before, after)
            if on_done is not None:
                on_done(after)

        return self.run(work, done, "change", on_error)

    def _queue(
        self,
        fn: Callable[[Memory], T],
        on_done: Callable[[T], None] | None,
        label: str,
        on_error: OnError | None,
        lane: str,
        droppable: bool,
    ) -> bool:
        if self.memory is None:
            return False
        memory = self.memory

        def failed(exc: BaseException) -> None:
            self.failed(exc, label)

        origin = self.origin

        def call() -> T:
            with started_by(origin):
                return fn(memory)

        return self.worker.run(call, on_done, on_error or failed, label=label, lane=lane, droppable=droppable)

    def now(self) -> datetime:
        return self.clock.now()
