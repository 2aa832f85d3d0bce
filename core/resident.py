"""What the long-running app keeps resident: glibc's malloc told to give memory back, and the
sentence model and the recall index let go while nobody uses them.

By default glibc keeps what a burst of work freed (the recall index's first read of 10k rows, a
batch of embeddings) for the life of the process: each thread gets its own 64 MB arena, and the
threshold above which a block is mapped on its own (and unmapped when freed) rises to the largest
block ever freed. The app calls `keep_small()` once at start, before its threads, and `trim()`
after such a burst. Elsewhere (not glibc) both do nothing.
"""

from __future__ import annotations

import ctypes
import sys
from datetime import timedelta

# mallopt(3) parameters
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
# Blocks from this size up are mapped apart and unmapped when freed (a fixed value also stops the
# threshold from rising): the embedder's activations, big query results.
MMAP_THRESHOLD_BYTES = 256 * 1024
# The main arena and one for every other thread (the worker, the filler, the socket).
ARENAS = 2
# The sentence model (its token table is mapped from the file) goes when no question or capture
# used it for this long; the next one loads it again. So does the recall index when it is kept in
# its file. What each holds and how long a reload takes: docs/performance.md ("Why the settings").
MODEL_IDLE = timedelta(minutes=15)


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        return libc if hasattr(libc, "mallopt") and hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


def keep_small() -> bool:
    """Set malloc's arenas and mapping threshold for a long-running process; False if not glibc."""
    libc = _libc()
    if libc is None:
        return False
    libc.mallopt(M_ARENA_MAX, ARENAS)
    libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
    return True


def trim() -> None:
    """Give the free pages malloc still holds back to the system."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


def tidy(memory) -> bool:
    """The app's now-and-then: release the model and the recall index if idle (then trim); True
    if either went."""
    idle_s = MODEL_IDLE.total_seconds()
    released = memory.model.release_if_idle(idle_s)
    released = memory.recall.release_if_idle(idle_s) or released
    if released:
        trim()
    return released
