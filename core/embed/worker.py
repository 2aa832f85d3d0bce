"""The background filler: gives every neuron a vector, without knowing anything about storage.

The store side is two callables:

    fetch_pending(n) -> [(id, text), ...]   up to n rows whose vector is missing or made by another model
    save([(id, vector), ...], model_name)   store float32 (384,) numpy vectors with the model's name

`fetch_pending` has to know which model is current: `EmbeddingFiller.model_name` once loaded, or
`model_status(...)["name"]` / `variant_name(variant)` before.

The model is loaded lazily on the worker thread, so starting the app never waits for it; between
bursts the thread holds no reference to it (its owner may let it go when idle, see
`SentenceModel.release_if_idle`), and asks the factory again at the next wake. If the model
is unavailable the filler logs it once and stays idle (keyword search keeps working); `retry_model()`
tries again (e.g. after `python -m core.embed.export`). A failing fetch/save is logged and retried
with back-off; nothing but `stop()` ends the thread.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from core.embed.runtime import Embedder, ModelUnavailable

log = logging.getLogger(__name__)

FetchPending = Callable[[int], Sequence[tuple[Hashable, str]]]
Save = Callable[[list[tuple[Hashable, np.ndarray]], str], None]
Progress = Callable[[int, int], None]


class EmbeddingFiller:
    """A daemon thread that drains `fetch_pending` through the embedder into `save`."""

    def __init__(
        self,
        fetch_pending: FetchPending,
        save: Save,
        embedder_factory: Callable[[], Embedder],
        batch_size: int = 32,
        *,
        count_pending: Callable[[], int] | None = None,
        retry_delay: float = 2.0,
        max_retry_delay: float = 60.0,
        poll_interval: float | None = 300.0,
        thread_name: str = "neurons-embed",
    ):
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self._fetch_pending = fetch_pending
        self._save = save
        self._factory = embedder_factory
        self._count_pending = count_pending
        self.batch_size = batch_size
        self.retry_delay = retry_delay
        self.max_retry_delay = max_retry_delay
        # Look for work now and then even without wake() (rows imported or synced by others).
        self.poll_interval = poll_interval
        self._thread_name = thread_name

        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._load_lock = threading.Lock()
        self._drain_lock = threading.Lock()  # one drain at a time: thread or run_until_idle
        self._embedder: Embedder | None = None
        self._name: str | None = None  # the loaded model's, kept when the thread lets it go
        self._unavailable: str | None = None
        self._status = "idle"
        self._failures = 0
        self.last_error: str | None = None
        self.embedded = 0  # vectors saved since construction

    # -- public -------------------------------------------------------------------------------------

    @property
    def status(self) -> str:
        """ "idle" (model not loaded yet), "loading", "ready", or "unavailable: <reason>"."""
        return self._status

    @property
    def model_name(self) -> str | None:
        """The name saved with the vectors, once the model is loaded."""
        return self._name

    @property
    def embedder(self) -> Embedder | None:
        """The loaded embedder (share it for query embedding), or None."""
        return self._embedder

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stopping.clear()
        self._wake.set()  # first thing: load the model and drain the backlog
        self._thread = threading.Thread(target=self._run, name=self._thread_name, daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """Something was captured or edited: look for pending rows now."""
        self._wake.set()

    def stop(self, timeout: float | None = 5.0) -> bool:
        """Ask the thread to finish (after the batch in progress); True when it has."""
        self._stopping.set()
        self._wake.set()
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    def retry_model(self) -> None:
        """Forget an "unavailable" verdict and try loading the model again on the next wake."""
        with self._load_lock:
            if self._unavailable is not None:
                self._unavailable = None
                self._status = "idle"
        self.wake()

    def run_until_idle(self, progress: Progress | None = None) -> int:
        """Drain synchronously on the calling thread (tests, `neurons reindex`); returns vectors saved.

        progress(done, total) is called after every saved batch; total comes from `count_pending`
        when given, else it is a running estimate. Raises ModelUnavailable if the model is unusable
        and lets fetch/save exceptions through: the caller is a person waiting for the answer.
        """
        embedder = self._ensure_embedder()
        if embedder is None:
            raise ModelUnavailable(self._unavailable or "the embedding model is unavailable")
        with self._drain_lock:
            return self._drain(embedder, progress, raise_errors=True)

    # -- internals ----------------------------------------------------------------------------------

    def _ensure_embedder(self) -> Embedder | None:
        with self._load_lock:
            if self._embedder is not None or self._unavailable is not None:
                return self._embedder
            if self._name is None:
                self._status = "loading"
            try:
                embedder = self._factory()
            except ModelUnavailable as e:
                reason = str(e)
            except Exception as e:  # a broken install must not kill the thread either
                log.exception("loading the embedding model failed")
                reason = f"{type(e).__name__}: {e}"
            else:
                if self._name is None:
                    log.info("embedding model %s ready", embedder.name)
                self._embedder, self._name = embedder, embedder.name
                self._status = "ready"
                return embedder
            self._unavailable = reason
            self._status = f"unavailable: {reason}"
            log.warning("semantic search is off, the embedding model is unavailable: %s", reason)
            return None

    def _run(self) -> None:
        while not self._stopping.is_set():
            timeout = self.poll_interval
            if self._failures:
                timeout = min(self.max_retry_delay, self.retry_delay * 2 ** (self._failures - 1))
            self._wake.wait(timeout)
            if self._stopping.is_set():
                break
            self._wake.clear()  # a wake() during the drain below makes the next wait return at once
            try:
                self._burst()
            except Exception:  # belt and braces: the thread only ends on stop()
                log.exception("embedding filler error")
                self._failures += 1
            finally:
                with self._load_lock:
                    self._embedder = None  # not held while waiting: the owner may let it go

    def _burst(self) -> None:
        embedder = self._ensure_embedder()
        if embedder is None:
            return  # unavailable: stay idle until retry_model()
        with self._drain_lock:
            self._drain(embedder, None, raise_errors=False)

    def _drain(self, embedder: Embedder, progress: Progress | None, raise_errors: bool) -> int:
        done = 0
        total = 0
        if progress is not None and self._count_pending is not None:
            try:
                total = int(self._count_pending())
            except Exception:
                if raise_errors:
                    raise
                log.exception("counting pending embeddings failed")
        # Rows saved in this drain, by id -> text digest: if the store hands them back unchanged,
        # its save does not stick (e.g. a model-name mismatch); stop instead of spinning on them.
        saved: dict[Hashable, bytes] = {}
        while not self._stopping.is_set():
            try:
                rows = list(self._fetch_pending(self.batch_size))
            except Exception as e:
                if raise_errors:
                    raise
                self._note_failure("fetching rows to embed", e)
                return done
            fresh = [(rid, text) for rid, text in rows if saved.get(rid) != _digest(text)]
            if not fresh:
                if rows:
                    log.warning(
                        "the store returned %d rows already embedded in this pass: their vectors "
                        "were not saved as %s; stopping until the next wake",
                        len(rows),
                        embedder.name,
                    )
                self._failures = 0
                return done
            texts = [
                text if isinstance(text, str) else ("" if text is None else str(text)) for _, text in fresh
            ]
            try:
                vectors = embedder.embed(texts)
                self._save([(rid, vectors[i]) for i, (rid, _) in enumerate(fresh)], embedder.name)
            except Exception as e:
                if raise_errors:
                    raise
                self._note_failure("embedding/saving a batch", e)
                return done
            for rid, text in fresh:
                saved[rid] = _digest(text)
            done += len(fresh)
            self.embedded += len(fresh)
            self._failures = 0
            self.last_error = None
            if progress is not None:
                if self._count_pending is None or total < done:
                    total = done + (len(rows) if len(rows) >= self.batch_size else 0)
                progress(done, total)
            if len(rows) < self.batch_size:
                return done  # the store had fewer than asked for: nothing else is pending
        return done

    def _note_failure(self, what: str, e: Exception) -> None:
        self._failures += 1
        self.last_error = f"{what}: {type(e).__name__}: {e}"
        delay = min(self.max_retry_delay, self.retry_delay * 2 ** (self._failures - 1))
        log.warning("%s failed (attempt %d, retrying in %.1fs)", what, self._failures, delay, exc_info=True)


def _digest(text: Any) -> bytes:
    return hashlib.blake2b(str(text).encode("utf-8", "surrogatepass"), digest_size=16).digest()


__all__ = ["EmbeddingFiller"]
