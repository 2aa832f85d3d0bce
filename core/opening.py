"""The data dir's store, opened on a thread of its own while the rest of Neurons loads: starting
the embedded engine is mostly waiting for Node, which the imports (and the desktop's window) fill.

    opening = Opening(settings, wait_s=30)          # the engine starts now
    ...                                             # import the rest, build the window
    memory = Memory.open(settings, store=opening.result())

Nothing here imports the database driver before its thread does (a command forwarded to the
running app never pays for it). Whoever takes the store owns it; until then `close()` closes it
(the caller gave up: an error, a signal, a quit).
"""

from __future__ import annotations

import threading
from typing import Any

from core.settings import Settings

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
