"""The sentence model of one model folder, loaded on first use and shared by whoever holds this
object (a Memory and its identity views: queries, the filler, recall). A long-running app lets it
go when unused for a while (`release_if_idle`), and the next use loads it again.

Letting it go closes the Embedder (its session, then the token table mapped from the file): a
holder that embeds with it afterwards gets ModelClosed, never a freed session. Idle means no
get() and no embed() for that long, so a long drain of the filler is never cut off."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any

from core.embed.digests import Digests, default_record
from core.embed.runtime import Embedder, ModelUnavailable, model_name, model_status

log = logging.getLogger(__name__)

EMBED_THREADS = 1  # leave the other core to the GUI and the engine


class SentenceModel:
    def __init__(self, model_dir: Path | str, threads: int = EMBED_THREADS):
        self.model_dir = Path(model_dir)
        self.threads = threads
        self._lock = threading.Lock()
        self._embedder: Embedder | None = None
        self.error: str | None = None  # why it is unavailable, once a load failed
        # sha256 of its files by their stat, this process's and those recorded by an earlier one
        self.digests = Digests(default_record())
        self.loads = 0
        self._used = 0.0  # time.monotonic() of the last get()

    @property
    def name(self) -> str:
        """The name its vectors are stored under (read from the folder's manifest, not loaded)."""
        return model_name(self.model_dir)

    @property
    def loaded(self) -> bool:
        """Loaded now (a get() would not wait for a load)."""
        return self._embedder is not None

    def get(self) -> Embedder | None:
        """The loaded model, or None when it cannot be loaded (said once in the log)."""
        with self._lock:
            self._used = time.monotonic()
            if self._embedder is None and self.error is None:
                try:
                    self._embedder = Embedder.load(
                        self.model_dir, threads=self.threads, digests=self.digests, rehash=False
                    )
                    self.loads += 1
                except ModelUnavailable as exc:
                    self.error = str(exc)
                    log.warning("meaning search is off, keyword search still works: %s", exc)
            return self._embedder

    def release_if_idle(self, idle_s: float) -> bool:
        """Close the loaded model when nothing asked for it or embedded with it in `idle_s`
        seconds (an embed in flight finishes first, see Embedder.close); True if it went."""
        with self._lock:
            embedder = self._embedder
            if embedder is None or time.monotonic() - max(self._used, embedder.last_used) < idle_s:
                return False
            self._embedder = None
            embedder.close()
            return True

    def close(self) -> None:
        """Close the loaded model now, idle or not (its Memory closes); a later get() loads it
        again."""
        with self._lock:
            embedder, self._embedder = self._embedder, None
            if embedder is not None:
                embedder.close()

    def require(self) -> Embedder:
        embedder = self.get()
        if embedder is None:
            raise ModelUnavailable(self.error or "the embedding model is unavailable")
        return embedder

    def status(self) -> dict[str, Any]:
        """{"name", "sha256", "ready", "error"} without loading it (doctor)."""
        return model_status(self.model_dir, digests=self.digests)
