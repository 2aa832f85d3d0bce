"""Undo for what the person did to an item (trash, done, archive, snooze, an edit): each step
keeps the item as it was before and as the action left it; undoing writes the first back onto
the same row (Memory.revert), and is refused when the item changed again since."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from core.model import Neuron
from desktop.runtime.problems import is_persons

# Steps kept (Ctrl+Z walks back through them).
DEPTH = 30


@dataclass
class Step:
    text: str  # what was done, as the status line said it ("Done: call Ana")
    before: Neuron
    after: Neuron


class UndoStack(QObject):
    changed = Signal()

    def __init__(self, ctx, parent: QObject | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.steps: list[Step] = []

    @property
    def last(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    def push(self, text: str, before: Neuron, after: Neuron) -> None:
        self.steps.append(Step(text, before, after))
        del self.steps[:-DEPTH]
        self.changed.emit()

    def undo(self) -> None:
        if not self.steps:
            self.ctx.report("Nothing to undo")
            return
        step = self.steps.pop()
        self.changed.emit()

        def undone(_neuron: Neuron) -> None:
            self.ctx.report(f"Undone: {step.text}")

        def refused(exc: BaseException) -> None:
            if is_persons(exc):
                self.ctx.report(f"Not undone: {exc}")
            else:
                self.ctx.failed(exc, "undo")

        (
            self.ctx.write(lambda m: m.revert(step.before, after=step.after))
            .on_success(undone)
            .on_failure(refused)
            .run("undo")
        )
