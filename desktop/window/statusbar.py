"""The window's status bar: the last message (with Undo after an undoable action), how many items
the memory holds, the vectors still being computed, problems kept for the session, the next
reminder, and a progress bar for work the person waits for."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QStatusBar

from desktop.look import theme
from desktop.runtime.problems import Problems

MESSAGE_MS = 6000
UNDO_MS = 12000  # an Undo offer stays a little longer than a plain message


def items(n: int) -> str:
    """'1 item', '140 items': the person's word (a neuron is ours)."""
    return f"{n:,} item" + ("" if n == 1 else "s")


class StatusLine(QObject):
    undo_clicked = Signal()
    problems_clicked = Signal()

    def __init__(self, bar: QStatusBar, problems: Problems, now: Callable[[], datetime]):
        super().__init__(bar)
        self.now = now
        self.problems = problems
        self._next: tuple[datetime | None, bool] = (None, False)  # the next reminder, paused
        self.text = QLabel()
        self.text.setAccessibleName("Status")
        self.undo = QPushButton("Undo")
        self.undo.setObjectName("linkButton")
        self.undo.setAccessibleName("Undo")
        self.undo.setToolTip("Undo it (Ctrl+Z)")
        self.undo.clicked.connect(self.undo_clicked)
        self.undo.hide()
        self.pending = QLabel()
        self.pending.setObjectName("subtle")
        self.pending.setAccessibleName("Search preparation")
        self.pending.hide()
        self.problems_button = QPushButton()
        self.problems_button.setObjectName("problemsButton")
        self.problems_button.setAccessibleName("Problems")
        self.problems_button.setToolTip("Something went wrong: see what, and copy the details")
        self.problems_button.clicked.connect(self.problems_clicked)
        self.problems_button.hide()
        self.next_label = QLabel()
        self.next_label.setObjectName("subtle")
        self.sync_label = QLabel()  # "Synced 2 min ago" (desktop/runtime/syncer.py)
        self.sync_label.setObjectName("subtle")
        self.sync_label.setAccessibleName("Sync")
        self.sync_label.hide()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(180)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.progress.setAccessibleName("Working")
        self.progress.hide()
        bar.addWidget(self.text)
        bar.addWidget(self.undo)
        bar.addWidget(QLabel(), 1)
        for w in (self.pending, self.problems_button, self.sync_label, self.next_label, self.progress):
            bar.addPermanentWidget(w)
        self._idle = ""
        self._standing = ""  # a message shown until withdrawn
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._back_to_idle)
        problems.changed.connect(self._problems_changed)

    # -- messages ----------------------------------------------------------------------------------

    def report(self, text: str, undo: bool = False, until_withdrawn: bool = False) -> None:
        """A message for a few seconds; `until_withdrawn`: one true until `withdraw` ("Opening your
        memory…" however long the opening takes), shown again after the messages meanwhile."""
        self.text.setText(text)
        self.undo.setVisible(undo)
        if until_withdrawn:
            self._standing = text
            self._timer.stop()
        else:
            self._timer.start(UNDO_MS if undo else MESSAGE_MS)

    def withdraw(self, text: str) -> None:
        """A message that is no longer true goes at once; another message shown since stays."""
        if self._standing != text:
            return
        self._standing = ""
        if self.text.text() == text:
            self._timer.stop()
            self._back_to_idle()

    def set_idle(self, text: str) -> None:
        self._idle = text
        if not self._timer.isActive() and not self._standing:
            self.text.setText(text)

    def _back_to_idle(self) -> None:
        self.text.setText(self._standing or self._idle)
        self.undo.hide()

    def _problems_changed(self) -> None:
        n = len(self.problems.items)
        self.problems_button.setVisible(n > 0)
        self.problems_button.setText(f"⚠ {n} problem{'s' if n != 1 else ''}")
        self.problems_button.setProperty("unseen", self.problems.unseen > 0)
        self.problems_button.style().polish(self.problems_button)

    # -- what is going on ----------------------------------------------------------------------

    def set_busy(self, busy: int) -> None:
        if busy > 0:
            if self.progress.maximum() != 0 and not self.progress.isVisible():
                self.progress.setRange(0, 0)
            self.progress.show()
        else:
            self.progress.hide()
            self.progress.setRange(0, 0)

    def set_progress(self, label: str, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.show()
        self.text.setText(f"{label} {done:,}/{total:,}")
        if total and done >= total:
            self.progress.hide()  # (background work: no busy count will hide it)
            self.progress.setRange(0, 0)
            self.report(f"{label}: {total:,} done")

    def set_pending(self, pending: int, total: int = 0, upgrading: bool = False) -> None:
        """Items whose meaning is still being computed (search by meaning misses them meanwhile);
        after a new model came, how far moving every item to it has come."""
        self.pending.setVisible(pending > 0)
        if upgrading and total:
            done = max(total - pending, 0)
            self.pending.setText(
                f"Updating search by meaning to the new model: {done:,} of {total:,} items"
                f" ({100 * done // total}%)…"
            )
        else:
            self.pending.setText(f"Preparing {items(pending)} for search by meaning…")

    def set_sync(self, text: str) -> None:
        self.sync_label.setText(text)
        self.sync_label.setVisible(bool(text))

    def set_next_reminder(self, at: datetime | None, paused: bool) -> None:
        self._next = (at, paused)  # said again when the dates' language changes (retell)
        if paused:
            self.next_label.setText(theme.word("paused"))
        elif at is None:
            self.next_label.setText("")
        else:
            self.next_label.setText(theme.word("next_reminder").format(theme.when_text(at, self.now())))

    def retell(self) -> None:
        """Say again what is said in the dates' language, after it changed."""
        self.set_next_reminder(*self._next)
