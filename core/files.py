"""Private files written whole, and file-system failures told as sentences.

Everything Neurons writes about a person (the lock record, the device id, exports) is created
0600 and replaced atomically by rename, so a reader never sees half a file and nobody else on the
machine can read it.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from core.model import NeuronsError

PRIVATE_FILE = 0o600


class FileProblem(NeuronsError):
    """A file could not be written or read; the message names it and what to do."""


class DiskFull(FileProblem):
    """The disk holding a file Neurons must write has no space left."""


def os_error(exc: OSError, path: Path | str, doing: str = "write") -> FileProblem:
    """The sentence for an OSError on `path`; ENOSPC becomes DiskFull."""
    path = Path(path)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DiskFull(
            f"the disk holding {path.parent} is full: free some space and try again "
            "(nothing was saved by this command)"
        )
    if exc.errno == errno.EROFS:
        return FileProblem(f"cannot {doing} {path}: its file system is read-only")
    if exc.errno in (errno.EACCES, errno.EPERM):
        owner = _owner_of(path)
        return FileProblem(
            f"cannot {doing} {path}: permission denied{owner}; run Neurons as the "
            "user who owns its data dir, or give that dir back to you"
        )
    return FileProblem(f"cannot {doing} {path}: {exc.strerror or exc}")


def _owner_of(path: Path) -> str:
    for candidate in (path, *path.parents):
        with contextlib.suppress(OSError):
            uid = candidate.stat().st_uid
            return "" if uid == os.getuid() else f" ({candidate} belongs to uid {uid})"
    return ""


def write_private(path: Path | str, data: str | bytes, *, durable: bool = False) -> None:
    """Write `path` whole with mode 0600 (via a temp file and rename); OSError becomes FileProblem."""
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, PRIVATE_FILE)
        try:
            os.fchmod(fd, PRIVATE_FILE)  # an old temp file may have had other bits
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view) :]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise os_error(exc, path) from None
