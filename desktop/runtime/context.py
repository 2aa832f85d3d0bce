"""What the window, the detail pane and quick capture share: the memory (None until it is open),
the worker, the clock, and where messages for the person go.

Work on the memory is an `Op[T]`, spelled out like Anki's `CollectionOp`:
`ctx.write(fn).on_success(done).on_failure(refused).run("save")` takes `fn(memory) -> T` and
`done(T)`, so mypy checks that what a step returns is what its answer expects."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

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
        # writes asked for before the memory opened (a capture typed as the app starts): kept in
        # order, and queued once it is open (`opened`)
        self.held: list[_Held] = []

    def write(self, fn: Callable[[Memory], T]) -> Op[T]:
        """A write (or anything that must happen even if the app quits first): fn(memory) on the
        worker once the op is `run`; asked before the memory is open, once it is."""
        return Op(self._queue, fn, droppable=False)

    def read(self, fn: Callable[[Memory], T]) -> Op[T]:
        """A read: dropped if the app quits before it starts (nobody would see its answer)."""
        return Op(self._queue, fn, droppable=True)

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

        op = self.write(work).on_success(done)
        if on_error is not None:
            op.on_failure(on_error)
        return op.run("change")

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
            if droppable:
                return False  # a read: asked again once the memory is open
            self.held.append(_Held(fn, on_done, label, on_error, lane))
            return True
        memory = self.memory

        def failed(exc: BaseException) -> None:
            self.failed(exc, label)

        origin = self.origin

        def call() -> T:
            with started_by(origin):
                return fn(memory)

        return self.worker.run(call, on_done, on_error or failed, label=label, lane=lane, droppable=droppable)

    def opened(self, memory: Memory) -> None:
        """The memory is open: the writes held meanwhile are queued, in the order they were asked."""
        self.memory = memory
        held, self.held = self.held, []
        for h in held:
            self._queue(h.fn, h.on_done, h.label, h.on_error, h.lane, False)

    def open_failed(self, exc: BaseException) -> None:
        """The memory could not be opened: each write held meanwhile fails with why (a capture
        keeps its text in its box, to try again)."""
        held, self.held = self.held, []
        for h in held:
            if h.on_error is not None:
                h.on_error(exc)
            else:
                self.failed(exc, h.label)

    def now(self) -> datetime:
        return self.clock.now()


@dataclass
class _Held:
    """A write asked for before the memory opened (`Context._queue`'s arguments)."""

    fn: Callable[[Memory], Any]
    on_done: Callable[[Any], None] | None
    label: str
    on_error: OnError | None
    lane: str


class Op(Generic[T]):
    """One piece of work on the memory, spelled out like Anki's `CollectionOp(...).success(...)
    .failure(...)`: what runs on the worker, what follows on the GUI thread when it is done, what
    when it fails, and then `run(label)`:

        ctx.write(save_edit).on_success(show_saved).on_failure(say_not_saved).run("save")

    Nothing is queued before `run`. A failure with no `on_failure` goes to Problems under the label."""

    def __init__(self, queue: Callable[..., bool], fn: Callable[[Memory], T], *, droppable: bool):
        self._queue = queue  # Context._queue: onto the worker, under the context's origin
        self._fn = fn
        self._droppable = droppable
        self._success: Callable[[T], None] | None = None
        self._failure: OnError | None = None

    def on_success(self, fn: Callable[[T], None]) -> Op[T]:
        self._success = fn
        return self

    def on_failure(self, fn: OnError) -> Op[T]:
        self._failure = fn
        return self

    def run(self, label: str, *, lane: str = INTERACTIVE) -> bool:
        """Queue it on the worker (a write asked before the memory is open: once it is); False (and
        nothing queued) for a read while the memory is not open, or when the worker is closed."""
        return self._queue(self._fn, self._success, label, self._failure, lane, self._droppable)
