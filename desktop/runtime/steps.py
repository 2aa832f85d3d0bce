"""App start as named steps, each registering the cleanup of what it started beside it (like
Picard's register_cleanup); closing runs the cleanups in reverse order, each once, and one that
fails is logged without stopping the others."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


class Steps:
    def __init__(self) -> None:
        self.done: list[tuple[str, float]] = []  # (step, seconds): start-up's profile
        self._cleanups: list[tuple[str, Callable[[], None]]] = []

    def run(self, name: str, fn: Callable[[], None]) -> None:
        started = time.perf_counter()
        fn()
        self.done.append((name, time.perf_counter() - started))
        log.debug("start: %s (%.0f ms)", name, self.done[-1][1] * 1000)

    def register_cleanup(self, name: str, fn: Callable[[], None]) -> None:
        self._cleanups.append((name, fn))

    def cleanup(self) -> None:
        while self._cleanups:
            name, fn = self._cleanups.pop()
            try:
                fn()
            except Exception:  # one failing cleanup must not leave the rest (the store) undone
                log.exception("cleanup %r failed", name)
