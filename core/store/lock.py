"""The data-dir lock: one process owns a data dir, and the kernel frees it when that process dies.

`<data dir>.lock` is the flock target and is never replaced (replacing it would hand out a second
inode to lock). The JSON record of the owner lives beside it in `<data dir>.lock.json`, written
atomically by rename, so a reader never sees half a record.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

from core import __version__
from core.files import os_error, write_private
from core.model import NeuronsError
from core.store.embedded import stop_orphan_engine

log = logging.getLogger(__name__)

# How often a waiting acquire looks again (see DataDirLock.acquire's wait_s).
LOCK_POLL_S = 0.05


class LockHeld(NeuronsError):
    """Another live process owns the data dir."""

    def __init__(self, path: Path, record: dict[str, Any] | None):
        self.record = record or {}
        owner = (
            f"pid {self.record.get('pid')} ({self.record.get('command', '?')}) on "
            f"{self.record.get('host', '?')} since {self.record.get('acquired_at', '?')}"
            if record
            else "a process whose record is not written yet"
        )
        super().__init__(f"the data dir {path} is in use by {owner}")


def process_start_time(pid: int) -> float | None:
    """When a running process started; None when it is gone or a zombie (exited, not yet reaped)."""
    try:
        proc = psutil.Process(pid)
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
        return proc.create_time()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None


def program_name() -> str:
    """What runs, without its arguments: a capture's text must never land in the record."""
    return Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"


def record_is_live(record: dict[str, Any]) -> bool:
    """A record is live when its pid runs with the same start time on this host (pid reuse check)."""
    if record.get("host") != socket.gethostname():
        return True  # cannot check another host's processes: never take its lock over
    pid = record.get("pid")
    if not isinstance(pid, int):
        return False
    started = process_start_time(pid)
    return started is not None and abs(started - float(record.get("started_at", -1))) < 1.0


class DataDirRefused(NeuronsError):
    """A data dir Neurons cannot keep its data in (the file system's root)."""


@dataclass
class DataDirLock:
    data_dir: Path

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir)
        if self.data_dir.resolve().parent == self.data_dir.resolve():
            # its lock would sit beside it, and its files among the system's
            raise DataDirRefused(
                f"{self.data_dir} is the root of the file system: give Neurons a folder of its own "
                "for its data (such as ~/.local/share/neurons)"
            )
        self.lock_path = self.data_dir.with_name(self.data_dir.name + ".lock")
        self.record_path = self.data_dir.with_name(self.data_dir.name + ".lock.json")
        self._fd: int | None = None
        self.previous: dict[str, Any] | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def read_record(self) -> dict[str, Any] | None:
        try:
            return json.loads(self.record_path.read_text())
        except (FileNotFoundError, ValueError):
            return None

    def acquire(
        self,
        extra: dict[str, Any] | None = None,
        wait_s: float = 0.0,
        give_up: Callable[[], bool] | None = None,
    ) -> dict[str, Any]:
        """Take the lock or raise LockHeld; on success return the record written. With `wait_s`,
        a live owner is waited for that long (a short command finishing) before refusing, or
        until `give_up()` says so (the app is quitting)."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                return self._try_acquire(extra)
            except LockHeld:
                if time.monotonic() >= deadline or (give_up is not None and give_up()):
                    raise
                time.sleep(LOCK_POLL_S)

    def _try_acquire(self, extra: dict[str, Any] | None) -> dict[str, Any]:
        try:
            self.lock_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise os_error(exc, self.lock_path) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LockHeld(self.data_dir, self.read_record()) from None
        self.previous = self.read_record()
        if self.previous and self.previous.get("pid") != os.getpid() and record_is_live(self.previous):
            # The flock was free but the owner lives: its lock file was deleted and recreated.
            os.close(fd)
            raise LockHeld(self.data_dir, self.previous)
        me = os.getpid()
        record = {
            "pid": me,
            "started_at": process_start_time(me),
            "host": socket.gethostname(),
            "version": __version__,
            "command": program_name(),
            "acquired_at": datetime.now(UTC).isoformat(timespec="seconds"),
            **(extra or {}),
        }
        try:
            self.write_record(record)
        except NeuronsError:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
            raise
        self._fd = fd
        if self.previous:
            log.warning(
                "taking over the stale lock of pid %s (%s, since %s)",
                self.previous.get("pid"),
                self.previous.get("command"),
                self.previous.get("acquired_at"),
            )
        return record

    def write_record(self, record: dict[str, Any]) -> None:
        """Private (0600) and atomic; a full disk or a read-only dir is a FileProblem."""
        write_private(self.record_path, json.dumps(record), durable=True)

    def update(self, **fields: Any) -> None:
        record = self.read_record() or {}
        record.update(fields)
        self.write_record(record)

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            self.record_path.unlink(missing_ok=True)
        finally:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def stale_record(self) -> dict[str, Any] | None:
        """The record left by a dead owner, if any, without taking the lock."""
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return None
            record = self.read_record()
            fcntl.flock(fd, fcntl.LOCK_UN)
            return record
        finally:
            os.close(fd)

    def clear_stale(self) -> dict[str, Any] | None:
        """`neurons unlock`: remove a dead owner's record; refuse while an owner lives."""
        record = self.stale_record()
        if record is None and self.read_record() is not None:
            raise LockHeld(self.data_dir, self.read_record())
        if record is not None:
            stop_orphan_engine(record, self.data_dir)
            self.record_path.unlink(missing_ok=True)
        return record
