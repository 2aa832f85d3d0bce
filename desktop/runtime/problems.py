"""Errors the person did not cause: kept for the session in one place that stays, each with the
details to copy into a bug report (what failed, when, the traceback, versions).

A refused input (InvalidInput) or a neuron that is gone (NotFound) is the person's to fix and is
said where they typed; everything else lands here, and the status bar shows a button to it.
"""

from __future__ import annotations

import logging
import platform
import traceback
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from core import __version__
from core.model import InvalidInput, NeuronsError, NotFound

log = logging.getLogger(__name__)

# A session keeps at most this many (the oldest go first): a flood of warnings stays bounded.
KEEP = 200
# The logging level from which a record is a problem (Help ▸ Problems); below it, stderr only.
LEVEL = logging.WARNING
# `extra=` of a record that is no problem of the session: one already kept (Problems.add logs
# what it keeps) or a hint about the machine said once at launch.
NOT_A_PROBLEM = {"neurons_not_a_problem": True}


def is_persons(exc: BaseException) -> bool:
    """An error the person can act on where they are (shown there, not kept as a problem)."""
    return isinstance(exc, (InvalidInput, NotFound))


def summary_of(exc: BaseException) -> str:
    return str(exc) if isinstance(exc, NeuronsError) else f"{type(exc).__name__}: {exc}"


@dataclass
class Problem:
    at: datetime
    what: str  # what the app was doing ("save", "load notes")
    summary: str
    details: str

    @property
    def text(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} — {self.summary}"


class Problems(QObject):
    changed = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.items: list[Problem] = []
        self.unseen = 0

    def add(self, exc: BaseException, what: str = "", *, details: str | None = None) -> Problem:
        """`details`: what to show instead of the exception's traceback (a crash report)."""
        summary = summary_of(exc)
        trace = details or "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        log.error(
            "%s (while %s)",
            summary,
            what or "working",
            exc_info=None if details else exc,
            extra=NOT_A_PROBLEM,
        )
        return self._keep(datetime.now().astimezone(), what, summary, trace)

    def add_record(self, record: logging.LogRecord) -> Problem:
        """A warning or an error logged anywhere in the app (ProblemsLog hands it here)."""
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # arguments that do not fit the format: say both
            message = f"{record.msg} {record.args}"
        trace = f"{record.levelname} from {record.name} ({record.pathname}:{record.lineno})\n{message}\n"
        if record.exc_info and record.exc_info[1] is not None:
            trace += "\n" + "".join(traceback.format_exception(*record.exc_info))
        at = datetime.fromtimestamp(record.created).astimezone()
        return self._keep(at, record.name, message.splitlines()[0] if message else record.levelname, trace)

    def _keep(self, at: datetime, what: str, summary: str, trace: str) -> Problem:
        details = (
            f"Neurons {__version__} · Python {platform.python_version()} · "
            f"{platform.platform()}\nWhile: {what or 'working'}\n\n{trace}"
        )
        problem = Problem(at, what, summary, details)
        self.items.append(problem)
        del self.items[:-KEEP]
        self.unseen += 1
        self.changed.emit()
        return problem

    def seen(self) -> None:
        self.unseen = 0
        self.changed.emit()

    def clear(self) -> None:
        self.items.clear()
        self.unseen = 0
        self.changed.emit()


class ProblemsLog(QObject):
    """The logging handler's side in Qt: records logged on any thread at LEVEL and above reach
    `problems` on the GUI thread, in the order they were logged (qutebrowser's RAMHandler keeps
    them in a bounded deque, Picard's TailLogHandler tells its widget through a signal; here the
    bound is Problems' KEEP). `install()` once, `remove()` at exit."""

    arrived = Signal(object)  # a logging.LogRecord

    def __init__(self, problems: Problems, logger: logging.Logger | None = None):
        super().__init__(problems)
        self.logger = logger or logging.getLogger()  # the root: every room's warnings
        self.handler = _Handler(self)
        # queued even from the GUI thread: a problem is kept from the event loop, never inside
        # a logging call (which may hold another handler's lock)
        self.arrived.connect(problems.add_record, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        if self.handler not in self.logger.handlers:
            self.logger.addHandler(self.handler)

    def remove(self) -> None:
        self.logger.removeHandler(self.handler)


class _Handler(logging.Handler):
    def __init__(self, sink: ProblemsLog):
        super().__init__(LEVEL)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "neurons_not_a_problem", False):
            return
        try:
            self.sink.arrived.emit(record)
        except RuntimeError:  # the window is gone (the app is quitting): stderr still has it
            pass


class ProblemsDialog(QDialog):
    """The list of this session's problems; the one selected in full, with Copy details."""

    def __init__(self, problems: Problems, parent: QWidget | None = None):
        super().__init__(parent)
        self.problems = problems
        self.setWindowTitle("Problems — Neurons")
        self.setAccessibleName("Problems")
        self.resize(760, 460)
        lay = QVBoxLayout(self)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        lay.addWidget(self.intro)
        self.split = split = QSplitter(Qt.Orientation.Vertical)
        self.list = QListWidget()
        self.list.setAccessibleName("Problems")
        self.list.currentRowChanged.connect(self._show)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setAccessibleName("Details")
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        split.addWidget(self.list)
        split.addWidget(self.details)
        split.setSizes([140, 300])
        lay.addWidget(split, 1)
        row = QHBoxLayout()
        self.copy_button = QPushButton("Copy details")
        self.copy_button.setAccessibleName("Copy details")
        self.copy_button.clicked.connect(self.copy)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setAccessibleName("Clear the problems")
        self.clear_button.clicked.connect(problems.clear)
        row.addWidget(self.copy_button)
        row.addWidget(self.clear_button)
        row.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        row.addWidget(close)
        lay.addLayout(row)
        problems.changed.connect(self.fill)
        self.fill()

    def fill(self) -> None:
        self.list.clear()
        for problem in reversed(self.problems.items):
            item = QListWidgetItem(problem.text)
            item.setToolTip(problem.summary)
            self.list.addItem(item)
        any_ = bool(self.list.count())
        self.intro.setText(  # "went wrong" only when something did
            "Something went wrong that you did not cause. Your memory is safe; what was "
            "not saved says so. Copy the details into a bug report if it happens again."
            if any_
            else "No problems in this session: everything went as it should."
        )
        self.intro.setAlignment(Qt.AlignmentFlag.AlignLeft if any_ else Qt.AlignmentFlag.AlignCenter)
        self.split.setVisible(any_)
        if any_:
            self.list.setCurrentRow(0)
        else:
            self.details.clear()
        for button in (self.copy_button, self.clear_button):  # nothing to copy or clear
            button.setVisible(any_)

    def _show(self, row: int) -> None:
        if 0 <= row < len(self.problems.items):
            self.details.setPlainText(self._problem(row).details)

    def _problem(self, row: int) -> Problem:
        return self.problems.items[len(self.problems.items) - 1 - row]

    def copy(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.problems.items):
            p = self._problem(row)
            QGuiApplication.clipboard().setText(f"{p.text}\n{p.details}")

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.problems.seen()
