"""The data dir's store, opened on a thread of its own while the rest of Neurons loads: starting
the embedded engine is mostly waiting for Node, which the imports (and the desktop's window) fill.

    opening = Opening(settings, wait_s=30)          # the engine starts now
    ...                                             # import the rest, build the window
    memory = Memory.open(settings, store=opening.result())

Nothing here imports the database driver before its thread does (a command forwarded to the
running app never pays for it). `read_ahead` reads the recall index's file meanwhile, on a
thread of its own: the first question finds it read once the store is open. Whoever takes the
store owns it; until then `close()` closes it (the caller gave up: an error, a signal, a quit).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from core.settings import Settings

log = logging.getLogger(__name__)

# The folder of the data dir the recall indexes are kept in between runs, one file per engine and
# identity (core/recall/saved.py).
SAVED_INDEX_DIR = "recall"
# How long the desktop app waits for a data dir held by a short-lived process (a `neurons` command).
APP_WAIT_S = 30.0


class Opening:
    def __init__(self, settings: Settings, *, wait_s: float = 0.0):
        self._store: Any = None  # a core.store Store, once open
        self._error: BaseException | None = None
        self._taken = False
        self._cancelled = threading.Event()
        self._thread = threading.Thread(
            target=self._open, args=(settings, wait_s), name="neurons-open", daemon=True
        )
        self._thread.start()

    def _open(self, settings: Settings, wait_s: float) -> None:
        try:
            from core.store import open_store  # noqa: PLC0415 - loads psycopg: only to open the store

            self._store = open_store(settings, wait_s=wait_s, give_up=self._cancelled.is_set)
        except BaseException as exc:  # noqa: BLE001 - handed to the taker, which raises it
            self._error = exc

    def result(self):
        """The open store, now the caller's (raises what opening it raised)."""
        self._thread.join()
        if self._error is not None:
            raise self._error
        self._taken = True
        return self._store

    @property
    def taken(self) -> bool:
        """Whether the caller took the store (`result`)."""
        return self._taken

    def cancel(self) -> None:
        """Stop waiting for a data dir another process holds (the app is quitting)."""
        self._cancelled.set()

    def close(self) -> None:
        """The caller gave up: the store, once open and not taken, is closed."""
        self._cancelled.set()
        self._thread.join()
        if self._store is not None and not self._taken:
            self._store.close()
            self._store = None


def read_ahead(settings: Settings, opening: Opening | None = None) -> threading.Thread | None:
    """On a thread of its own, while the engine starts: the data dir's recall index read from the
    file its engine saved last, with what questions derive from it, and the question's time words
    made ready; the memory takes the index once its store says the file is its own (read from
    the store otherwise, as without it); not once `opening`'s store was taken, nor once an index
    was loaded (it would be read twice). Joined by nobody: it ends on its own."""
    from core.recall import saved  # noqa: PLC0415 - numpy: only where an index is read

    since = saved.loads()  # (before the look at `opening`: a load after it is counted)
    if opening is not None and opening.taken:
        return None

    def read() -> None:
        try:
            from datetime import UTC, datetime  # noqa: PLC0415 - on the thread: the grammar

            from core.embed.runtime import model_name  # noqa: PLC0415
            from core.when.window import find_window  # noqa: PLC0415

            path = saved.newest(settings.data_dir / SAVED_INDEX_DIR, settings.engine)
            if path is not None:
                saved.read_ahead(path, model_name(settings.model_dir), since)
            find_window("what about the weekend?", datetime.now(UTC))  # its patterns made once
        except Exception as exc:  # noqa: BLE001 - the index is read as it would be without this
            log.warning("the recall index could not be read ahead: %s", exc)

    thread = threading.Thread(target=read, name="neurons-read-ahead", daemon=True)
    thread.start()
    return thread
