"""The model files' sha256, trusted again while the files are the very ones that were hashed.

Every start used to hash the model's files in full (~0.17 s of CPU for e5's ~60 MB). A full hash
that matched the manifest is now kept, by the file's stat (path, size, mtime, ctime, inode,
device), in memory and in a record of Neurons' own (`model-digests.json` in its cache dir, never
beside the model); while every field is identical the hash is not done again. Any difference
means the full hash: ctime cannot be set back from user space, so a file written since (even with
its mtime restored) is always hashed again. A hash that failed is never kept. The record is a
stranger's file as much as ours: read only up to `RECORD_LIMIT` bytes, never through a link, each
entry checked, and anything unexpected in it simply not believed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import threading
from pathlib import Path
from typing import Any

from core.files import write_private
from core.model import NeuronsError
from core.settings import default_cache_dir

RECORD = "model-digests.json"
RECORD_FORMAT = 1
RECORD_LIMIT = 64 * 1024  # bytes read of a record at most: a larger one is not believed
KEEP = 32  # files recorded at most (the newest): the model folders this user ran
_SHA256 = re.compile(r"[0-9a-f]{64}")
_FIELDS = ("size", "mtime_ns", "ctime_ns", "ino", "dev")

Key = tuple[str, int, int, int, int, int]  # the path, then _FIELDS


def stat_key(path: Path) -> Key:
    """What changes when a file is written, replaced, or another file is put in its place."""
    st = path.stat()
    return (str(path.resolve()), st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def default_record() -> Path:
    return default_cache_dir() / RECORD


class Digests:
    """The sha256 of files, by their `stat_key`: those hashed in this process, and those the
    record (`record`, None: in memory only) says were hashed before."""

    def __init__(self, record: Path | None = None):
        self.record = record
        self._known: dict[Key, str] = {}
        self._read = record is None  # the record is read on first use
        self._unsaved = False
        self._lock = threading.Lock()  # one writer of the record in this process (its temp file)

    def known(self, key: Key) -> str | None:
        """The sha256 a file had when its stat was `key`, if it was hashed in full then."""
        if not self._read:
            self._read = True
            self._known = {**_read_record(self.record), **self._known} if self.record else self._known
        return self._known.get(key)

    def matched(self, key: Key, digest: str) -> None:
        """A full hash of the file at `key` matched what the manifest says: keep it (`save`
        records it)."""
        self.known(key)  # the record read first, so saving keeps its other entries
        self._known = {k: v for k, v in self._known.items() if k[0] != key[0]}  # one per path
        self._known[key] = digest
        self._unsaved = True

    def save(self) -> None:
        """The matched hashes recorded for the next start; a record that cannot be written is
        no error (the next start hashes in full)."""
        if self.record is None or not self._unsaved:
            return
        with self._lock:
            self._unsaved = False
            entries = [
                {"path": key[0], **dict(zip(_FIELDS, key[1:], strict=True)), "sha256": digest}
                for key, digest in list(self._known.items())[-KEEP:]
            ]
            text = json.dumps({"format": RECORD_FORMAT, "files": entries}, indent=1)
            with contextlib.suppress(OSError, NeuronsError):
                self.record.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
                write_private(self.record, text)


def _read_record(path: Path) -> dict[Key, str]:
    """The record's entries; nothing when it is missing, too large, garbled or not ours."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return {}
    try:
        with os.fdopen(fd, "rb") as f:
            raw = f.read(RECORD_LIMIT + 1)
        if len(raw) > RECORD_LIMIT:
            return {}
        data = json.loads(raw.decode("utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) and data.get("format") == RECORD_FORMAT else None
    if not isinstance(files, list):
        return {}
    known: dict[Key, str] = {}
    for entry in files[:KEEP]:
        key = _entry_key(entry)
        if key is not None:
            known[key] = entry["sha256"]
    return known


def _entry_key(entry: Any) -> Key | None:
    if not isinstance(entry, dict):
        return None
    path, digest = entry.get("path"), entry.get("sha256")
    values = [entry.get(name) for name in _FIELDS]
    if not (
        isinstance(path, str)
        and os.path.isabs(path)
        and isinstance(digest, str)
        and _SHA256.fullmatch(digest)
        and all(type(v) is int and v >= 0 for v in values)
    ):
        return None
    return (path, *values)  # type: ignore[return-value]
