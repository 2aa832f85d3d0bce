"""Durability for the embedded engine: PGlite never calls fsync, so we do it for it.

After every committed write the store fsyncs the WAL segments written since the last flush (fsync
flushes a file's dirty pages whichever process wrote them), and the pg_wal directory, before the
caller gets its acknowledgement. A power cut then finds every acknowledged commit in the WAL, and
Postgres' crash recovery replays it. Data files are made durable at checkpoints (`sync_all`).

PGlite hangs when the disk fills under it (a checkpoint on a full disk never returns), so no write
starts unless the disk keeps a margin free (`require_space`, one statvfs per write, ~µs).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from core.files import DiskFull

# A new WAL segment (16 MB) and a checkpoint's writes, with room to spare.
MIN_FREE_BYTES = 64 * 1024 * 1024


def free_bytes(path: Path) -> int:
    path = Path(path)
    while not path.exists() and path != path.parent:  # not made yet: the disk that will hold it
        path = path.parent
    info = os.statvfs(path)
    return info.f_bavail * info.f_frsize


def has_space(path: Path) -> bool:
    return free_bytes(path) >= MIN_FREE_BYTES


def require_space(path: Path) -> None:
    """Refuse a write before it starts when the disk holding `path` is (nearly) full."""
    free = free_bytes(path)
    if free < MIN_FREE_BYTES:
        raise DiskFull(
            f"the disk holding {path} is full ({free / 2**20:.1f} MB free; Neurons keeps "
            f"{MIN_FREE_BYTES >> 20} MB free so its database can always finish a write): free some "
            "space and try again (nothing was saved by this command)"
        )


def syncfs(path: Path) -> bool:
    """syncfs(2) the filesystem holding `path`: every dirty file on it, one device flush. False
    where there is no syncfs (not Linux); raises OSError when the kernel reports a write error."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # noqa: PLC0415 - only at a full sync

    call = getattr(ctypes.CDLL(None, use_errno=True), "syncfs", None)
    if call is None:
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        if call(fd) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err), str(path))
    finally:
        os.close(fd)
    return True


def fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class WalSyncer:
    def __init__(self, pgdata: Path):
        self.pgdata = Path(pgdata)
        self.wal_dir = self.pgdata / "pg_wal"
        self._last_ns = 0
        self._control = self.pgdata / "global" / "pg_control"
        self._control_ns = self._mtime(self._control)
        self.flushed: list[Path] = []  # the segments of the last sync (tests read it)
        self.full_syncs = 0

    @staticmethod
    def _mtime(path: Path) -> int:
        try:
            return path.stat().st_mtime_ns
        except FileNotFoundError:
            return 0

    def sync(self) -> list[Path]:
        """Fsync every WAL segment modified since the previous sync, then the directory."""
        newest_ns = self._last_ns
        flushed = []
        with os.scandir(self.wal_dir) as entries:
            for entry in entries:
                if not entry.is_file(follow_symlinks=False) or len(entry.name) != 24:
                    continue
                mtime = entry.stat(follow_symlinks=False).st_mtime_ns
                # >= : a segment written twice within one mtime tick must be flushed again
                if mtime >= self._last_ns:
                    fsync_path(Path(entry.path))
                    flushed.append(Path(entry.path))
                    newest_ns = max(newest_ns, mtime)
        fsync_path(self.wal_dir)
        self._last_ns = newest_ns
        self.flushed = flushed
        # PGlite checkpointed on its own (a big write filled max_wal_size): the data files it
        # wrote must reach the disk before the WAL they replace is recycled.
        control_ns = self._mtime(self._control)
        if control_ns != self._control_ns:
            self.sync_all()
        return flushed

    def sync_all(self) -> None:
        """Make every file of the data dir durable: after a checkpoint, before WAL is recycled.
        One syncfs where there is one (fsyncing each of the ~1000 files flushes the disk 1000
        times: 1.3-2.6 s here, paid by every command at close), else every file in turn."""
        self.full_syncs += 1
        self._control_ns = self._mtime(self._control)
        if syncfs(self.pgdata):
            return
        for root, _dirs, files in os.walk(self.pgdata):
            for name in files:
                try:
                    fsync_path(Path(root) / name)
                except (FileNotFoundError, PermissionError, IsADirectoryError):
                    continue
            fsync_path(Path(root))
