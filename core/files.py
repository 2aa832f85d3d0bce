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


def write_private(
    path: Path | str, data: str | bytes, *, durable: bool = False, replace: bool = True
) -> None:
    """Write `path` whole with mode 0600 (via a temp file and rename); OSError becomes FileProblem.

    Neither the temp file nor `path` is ever written through a symbolic link: the temp file is
    created new (O_EXCL, O_NOFOLLOW), and the rename replaces a link at `path` rather than follow
    it. With `replace=False` a file that appears at `path` meanwhile is left alone
    (FileExistsError), so a check that it did not exist cannot be raced."""
    path = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        fd = _create_new(tmp)
        try:
            os.fchmod(fd, PRIVATE_FILE)  # exactly 0600, whatever the umask
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view) :]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            _publish_new(tmp, path)
    except FileExistsError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise os_error(exc, path) from None


def _create_new(tmp: Path) -> int:
    """A new private file at `tmp`; one left by a dead process (or a link planted there) is
    removed first, never opened."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW
    try:
        return os.open(tmp, flags, PRIVATE_FILE)
    except FileExistsError:
        tmp.unlink()
        return os.open(tmp, flags, PRIVATE_FILE)


def _publish_new(tmp: Path, path: Path) -> None:
    """Rename `tmp` to `path` unless something is at `path` already (a hard link is the atomic
    "create, never replace"; file systems without them get a check just before the rename)."""
    try:
        os.link(tmp, path, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV):
            raise
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, "exists", str(path)) from None
        os.replace(tmp, path)
        return
    tmp.unlink()
