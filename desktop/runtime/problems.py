"""Errors the person did not cause: kept for the session in one place that stays, each with the
details to copy into a bug report (what failed, when, the traceback, versions).

A refused input (InvalidInput) or a neuron that is gone (NotFound) is the person's to fix and is
said where they typed; everything else lands here, and the status bar shows a button to it.
Help ▸ Problems shows them (desktop/dialogs/problems.py).
"""

from __future__ import annotations

import logging
import platform
import traceback
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QObject, Qt, Signal

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
