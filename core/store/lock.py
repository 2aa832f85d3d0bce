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
import signal
import socket
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import psutil

from core import __version__
from core.model import NeuronsError

log = logging.getLogger(__name__)


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
    try:
        return psutil.Process(pid).create_time()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return None


def record_is_live(record: dict[str, Any]) -> bool:
    """A record is live when its pid runs with the same start time on this host (pid reuse check)."""
    if record.get("host") != socket.gethostname():
        return True  # cannot check another host's processes: never take its lock over
    pid = record.get("pid")
    if not isinstance(pid, int):
        return False
    started = process_start_time(pid)
    return started is not None and abs(started - float(record.get("started_at", -1))) < 1.0


@dataclass
class DataDirLock:
    data_dir: Path

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir)
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

    def acquire(self, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Take the lock or raise LockHeld; on success return the record written."""
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
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
        self._fd = fd
        if self.previous:
            log.warning(
                "taking over the stale lock of pid %s (%s, since %s)",
                self.previous.get("pid"), self.previous.get("command"), self.previous.get("acquired_at"),
            )
        me = os.getpid()
        record = {
            "pid": me,
            "started_at": process_start_time(me),
            "host": socket.gethostname(),
            "version": __version__,
            "command": " ".join(sys.argv)[:300],
            "acquired_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            **(extra or {}),
        }
        self.write_record(record)
        return record

    def write_record(self, record: dict[str, Any]) -> None:
        tmp = self.record_path.with_name(self.record_path.name + f".{os.getpid()}.tmp")
        with open(tmp, "w") as f:
            json.dump(record, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.record_path)

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


def stop_orphan_engine(record: dict[str, Any], data_dir: Path, timeout: float = 10.0) -> None:
    """Make sure no engine of a dead owner still has the data dir open: two engines corrupt it."""
    suspects: set[int] = set()
    engine_pid = record.get("engine_pid")
    if isinstance(engine_pid, int):
        suspects.add(engine_pid)
    marker = str(data_dir)
    for proc in psutil.process_iter(["pid", "cmdline", "cwd"]):
        try:
            cmd = " ".join(proc.info.get("cmdline") or [])
            if "pglite_manager.js" in cmd and (proc.info.get("cwd") or "").startswith(marker):
                suspects.add(proc.info["pid"])
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    for pid in suspects:
        try:
            proc = psutil.Process(pid)
            if "node" not in proc.name() and "pglite" not in " ".join(proc.cmdline()):
                continue  # the pid was reused by something else
            log.warning("stopping the orphaned engine process %s of the previous owner", pid)
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except psutil.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    deadline = time.monotonic() + timeout
    while suspects and time.monotonic() < deadline:
        suspects = {p for p in suspects if psutil.pid_exists(p)}
        time.sleep(0.05)
