"""When the app dies (a fatal error in Python, Qt or a C extension), it leaves a report, and the
next launch says once that Neurons closed unexpectedly, with the report under Help ▸ Problems.

While the app runs, `faulthandler` writes to `crash/running.log` in the data dir (a header says
which run it was): on a fatal signal or a fatal Python error it dumps every thread's stack there.
A clean quit removes the file. At the next start a `running.log` still there means the last run
did not quit: it becomes `crash/report-<when>.log` (the newest KEEP reports are kept) and is
handed to the window once. Reminders missed meanwhile fire as usual (the scheduler's "missed").

Also here: whether this Qt binding keeps the references it hands out (`binding_keeps_none`): a
binding that returns None without its reference frees None itself after enough calls -- the
`none_dealloc` crash (PySide6 6.12.0 on CPython 3.11).
"""

from __future__ import annotations

import faulthandler
import logging
import os
import platform
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO

from core import __version__

log = logging.getLogger(__name__)

FOLDER = "crash"
RUNNING = "running.log"
KEEP = 10  # reports kept (the oldest go first)
# A binding that loses one reference per None returned loses this many in the probe.
PROBE_CALLS = 200


@dataclass(frozen=True)
class Report:
    path: Path
    text: str
    at: datetime  # when the run that crashed started (else the file's time)

    @property
    def traced(self) -> bool:
        """Whether the dying process wrote its stacks (a kill -9 or a power cut leaves none)."""
        return "most recent call first" in self.text or "Fatal Python error" in self.text


class CrashWatch:
    """One app run's crash file: `start()` at launch (returns the last run's report, if it died),
    `stop()` at a clean quit."""

    def __init__(self, data_dir: Path):
        self.folder = Path(data_dir) / FOLDER
        self._file: IO[str] | None = None

    @property
    def running(self) -> Path:
        return self.folder / RUNNING

    def start(self, now: datetime | None = None) -> Report | None:
        now = now or datetime.now().astimezone()
        previous = self._previous(now)
        try:
            self.folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # a first run's data dir
            self.folder.mkdir(mode=0o700, exist_ok=True)
            fd = os.open(self.running, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            self._file = os.fdopen(fd, "w", encoding="utf-8")
            self._file.write(
                f"Neurons {__version__} · Python {platform.python_version()} · {platform.platform()}\n"
                f"started {now.isoformat(timespec='seconds')} · pid {os.getpid()}\n\n"
            )
            self._file.flush()
            faulthandler.enable(self._file, all_threads=True)
        except OSError as exc:  # a read-only or full disk: the app runs, without a crash report
            log.warning("no crash report can be kept in %s: %s", self.folder, exc)
            self._file = None
        return previous

    def stop(self) -> None:
        """A clean quit: nothing to report next time."""
        if self._file is None:
            return
        faulthandler.disable()
        self._file.close()
        self._file = None
        try:
            self.running.unlink()
        except OSError as exc:
            log.warning("the crash file %s could not be removed: %s", self.running, exc)

    def _previous(self, now: datetime) -> Report | None:
        if self.running.is_symlink() or not self.running.is_file():
            return None
        try:
            text = self.running.read_text(encoding="utf-8", errors="replace")
            at = datetime.fromtimestamp(self.running.stat().st_mtime).astimezone()
            kept = self.folder / f"report-{at:%Y%m%d-%H%M%S}.log"
            self.running.replace(kept)
        except OSError as exc:
            log.warning("the last run's crash file could not be read: %s", exc)
            return None
        self._prune()
        return Report(kept, text, at)

    def _prune(self) -> None:
        reports = sorted(self.folder.glob("report-*.log"))
        for old in reports[:-KEEP]:
            try:
                old.unlink()
            except OSError:
                log.debug("an old crash report could not be removed", exc_info=True)


class UnexpectedCloseError(Exception):
    """The last run's crash, as a problem of this session (Help ▸ Problems shows its report)."""

    def __init__(self, report: Report):
        when = f"{report.at:%Y-%m-%d %H:%M}"
        super().__init__(f"Neurons closed unexpectedly (the run started {when}); its report: {report.path}")
        self.report = report


def binding_keeps_none() -> bool:
    """Whether Qt's Python binding owns the Nones it returns (see the module's comment)."""
    if sys.version_info >= (3, 12):
        return True  # None is immortal: nothing a binding does can free it
    from PySide6.QtCore import QObject  # noqa: PLC0415 - only the app asks, after Qt is up

    probe = QObject()
    probe.setObjectName("")  # warm up
    before = sys.getrefcount(None)
    for _ in range(PROBE_CALLS):
        probe.setObjectName("")  # a void method: the binding returns None
    return sys.getrefcount(None) > before - PROBE_CALLS // 2
