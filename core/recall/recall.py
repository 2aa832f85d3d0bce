"""`Recall(reader, embedder, saved_at)`: one identity's in-process index (kept in a file at
`saved_at` between runs), its life (warm-up, save, let go when idle) and the two questions, `ask`
and `about`. Memory keeps one and its ask/about delegate here. Recall only reads: through the
store's narrow Reader protocol, and the sentence model through `embedder()` (the loaded Embedder,
or None when it is unavailable).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from core.capture.names import NameIndex
from core.model import Neuron
from core.recall import about as _about
from core.recall import saved
from core.recall.about import About
from core.recall.index import RESCAN_MARGIN_SERVER, RecallIndex
from core.recall.question import Asking, EmbedderSource
from core.recall.result import Result
from core.recall.search import Search
from core.store.reader import PHRASES_KEPT, Reader
from core.when.window import find_window

# Names analysed ahead by the store in one statement (`analyse_names`): ~10 ms of the embedded
# engine's time a hundred.
NAMES_AHEAD_BATCH = 500


class Recall:
    def __init__(self, reader: Reader, embedder: EmbedderSource, saved_at: Path | None = None):
        self.reader = reader
        self.index = RecallIndex(reader.identity)
        self.search = Search(reader, self.index, embedder)
        # the file the index is kept in between runs (core/recall/saved.py), if any
        self.saved_at = saved_at
        self._saved: tuple[int, int | None] | None = None  # (version, change number) in the file
        self._origin: dict | None = None
        self._used = time.monotonic()  # when a question, a capture's names or the warm-up last used it
        self._users = 0  # questions reading the index now: it is not let go under them
        self._users_lock = threading.Lock()
        # While the index is let go: the contacts' names as they were at that change number (a
        # capture finds the people its text names in them without reading the whole index back).
        self._names_kept: tuple[NameIndex, int] | None = None
        # whether the index is empty and its file not yet tried (at the first read, and again
        # after the index was let go)
        self._file_untried = saved_at is not None
        # the file read ahead while the store's engine started (`saved.read_ahead`), until
        # `restore` checks it against the store
        self.ahead: saved.Ahead | None = None

    @property
    def embedder(self) -> EmbedderSource:
        """The loaded model, or None: the one the questions are embedded with."""
        return self.search.embedder

    @embedder.setter
    def embedder(self, source: EmbedderSource) -> None:
        self.search.embedder = source

    @property
    def warmed(self) -> bool:
        """The index holds the store (read from it or from its file): a question reads only what
        changed since."""
        return self.index.seen_seq is not None

    def _key(self) -> dict:
        if self._origin is None:
            self._origin = self.reader.origin()
        identity = self.reader.identity
        return {"store": self._origin, "identity": [identity.column, str(identity.value)]}

    def restore(self) -> bool:
        """Before the index first reads the store: the index as its file holds it, when that is
        this store's and identity's and the store has come at least as far (a store that went
        back is another copy of it); then only what changed since is read. Tried once while the
        index is empty (at the first read, and after it was let go); True if it was read.
        The store's session is taken before the index's lock, in the order every other path
        takes them (warm, names): the other order deadlocks an ask against the warm-up."""
        if not self._file_untried or self.index.seen_seq is not None:
            return False  # the common case, without a read transaction; checked again below
        with self.reader.session(), self.index.reading():
            index = self.index
            if not self._file_untried or index.seen_seq is not None:
                return False
            self._file_untried = False
            assert self.saved_at is not None
            ahead, self.ahead = self.ahead, None
            if ahead is not None and ahead.path == self.saved_at and ahead.stamp == saved.stamp(ahead.path):
                # read before the store answered: used only if the store is the one it names
                loaded = ahead.index if ahead.key == self._key() else None
            else:
                loaded = saved.load(self.saved_at, self._key(), index.identity)
            if loaded is None or loaded.seen_seq is None:
                return False
            seq_now = self.reader.change_stamp()
            if seq_now is not None and seq_now < loaded.seen_seq:
                return False
            index.take(loaded)
            index.unsaved_reads = 0
            self._names_kept = None  # the index's own names are current again
            self._saved = (index.version, index.seen_seq)
            return True

    def read_back(self, model: str | None) -> bool:
        """Ahead of the warm-up (the desktop, as the memory opens, while its window is built): the
        index from its file (`restore`), what questions derive from every neuron for `model`'s
        vectors, and the question's time words made ready; the warm-up then only reads what
        changed since. True if the file was read."""
        read = self.restore()
        if read:
            with self.index.reading():
                self.index.prepare(model)
        find_window("what about the weekend?", datetime.now(UTC))  # its patterns made once
        return read

    def keep(self, *, only_after_reading: bool = False) -> bool:
        """Save the index to its file when it holds enough neurons to be worth it and changed
        since it was saved or loaded; `only_after_reading`: only when it read many rows from the
        store since (a warm-up that had to read the store)."""
        if self.saved_at is None:
            return False
        with self.index.reading():
            index = self.index
            if index.seen_seq is None or index.count() < saved.MIN_NEURONS:
                return False
            if only_after_reading and index.unsaved_reads < max(saved.MIN_NEURONS, index.count() // 10):
                return False
            state = (index.version, index.seen_seq)
            if state == self._saved:
                return False
            made = saved.save(index, self.saved_at, self._key())
            if made:
                self._saved, index.unsaved_reads = state, 0
            return made

    def release_if_idle(self, idle_s: float) -> bool:
        """Let the index's memory go (~140 MB at 100k neurons) when nothing used it for `idle_s`,
        no question is reading it, and its file holds it as it is (saved now if it changed since):
        the next question reads it back from the file and what changed since from the store, as
        a start does (~2 s at 100k). The contacts' names stay (`names`). An index too small for a
        file stays (it is small). True if it went."""
        if self.saved_at is None:
            return False
        with self.index.reading(), self._users_lock:
            index = self.index
            if index.seen_seq is None or self._users or time.monotonic() - self._used < idle_s:
                return False
            self.keep()
            if self._saved != (index.version, index.seen_seq):
                return False
            self._names_kept = (index.names(), index.seen_seq)
            index.take(RecallIndex(index.identity))
            self._file_untried = True
            return True

    @contextlib.contextmanager
    def _in_use(self) -> Iterator[None]:
        """A question reads the index between its looks at it: it stays until the answer is made."""
        with self._users_lock:
            self._users += 1
            self._used = time.monotonic()
        try:
            yield
        finally:
            with self._users_lock:
                self._users -= 1
                self._used = time.monotonic()

    def ask(self, question: str, how: Asking | None = None) -> list[Result]:
        """`question` answered as asked `how` (`Asking.of()`: every signal, ten answers, now)."""
        with self._in_use():
            self.restore()
            return self.search.ask(question, how)

    def about(self, name: str, limit: int = 50, now: datetime | None = None) -> About:
        """A person's answer; for a name no contact answers to, a thing's ("the kitchen
        renovation"): everything written about it or linked to what is, as a timeline."""
        with self._in_use():
            self.restore()
            found = _about.about(self.reader, self.index, name, limit)
            if found.contact is None and not found.candidates:
                results = self.search.everything_about(name, limit, now=now)
                found.timeline = _about.timeline(results)
        return found

    def names(self):
        """The identity's contacts as a NameIndex, current (one cheap read: the change stamp; the
        index is rebuilt only when a contact changed). Capture finds the people a text names
        with it, so the quick-capture preview does not rebuild it on every keystroke. While the
        rest of the index is let go, the names kept then serve, as long as no contact changed."""
        with self._in_use(), self.reader.session(alone=True):
            stamp = self.reader.change_stamp()
            kept = self._kept_names(stamp)
            if kept is not None:
                return kept
            self.restore()
            self.index.refresh(self.reader, stamp)
            with self.index.reading():
                return self.index.names()

    def notes_sharing(self, text: str, limit: int = 20) -> list[Neuron]:
        """The active notes holding the most words of `text`, newest first (a capture's note looks
        for the older one it gives anew): `Reader.active_notes_sharing`, found in the index while
        it is held (the store's statement scans the table under a server's row-level security);
        asked of the store while the index is let go (read back, it would cost a capture ~2 s
        at 100k neurons)."""
        with self._in_use():  # (not let go meanwhile)
            if not self.warmed:
                return self.reader.active_notes_sharing(text)
            with self.reader.session(alone=True):
                stamp, terms = self.reader.stamp_and_terms(text, "")
                if not terms:
                    return []
                self.index.refresh(self.reader, stamp)
                with self.index.reading():
                    ids = self.index.active_notes_sharing(terms, limit)
                rows = self.reader.neurons(ids)
        found = [rows[i] for i in ids if i in rows]
        return sorted(found, key=lambda n: n.created_at or datetime.min.replace(tzinfo=UTC), reverse=True)

    def _kept_names(self, stamp: int) -> NameIndex | None:
        """The names kept when the index went, still current at `stamp` (what was written since
        touches no contact, read in the reader's session), or None: the index is asked."""
        with self.index.reading():
            if self._names_kept is None or self.index.seen_seq is not None:
                self._names_kept = None  # the index is back: its own names are current
                return None
            names, seq = self._names_kept
            if stamp > seq:
                margin = 0 if self.reader.engine == "embedded" else RESCAN_MARGIN_SERVER
                rows, _ = self.reader.index_rows(max(seq - margin, 0))
                if any(row["kind"] == "contact" or row["id"] in names.contacts for row in rows):
                    self._names_kept = None  # a contact changed: read back with the index
                    return None
                self._names_kept = (names, stamp)
            return names

    def _load_model(self) -> None:
        embedder = self.embedder()
        if embedder is not None:  # its first run is slower (~0.2 s): not the first question's
            embedder.embed(["warm up"])

    def prepare_nearest(self, model: str | None, progress=None) -> bool:
        """Make the approximate step of the vector search (core/recall/nearest.py) for `model`'s
        vectors when the index is past its size and the step is missing or stale;
        `progress(done, total)` hears how far once it takes a second. The desktop calls it on
        its worker after the warm-up and now and then; a single question (the CLI) scans
        exactly instead: making it costs more than one scan. It does not hold the index while
        it is made (a question meanwhile scans exactly), and counts as no use of the index (an
        idle index is still let go: what was made for it is dropped). True if it was made."""
        return self.index.build_nearest(model, progress)

    def warm(self) -> int:
        """Build the index and load the model ahead of the first question (the desktop calls this
        on its worker at start), and make what a question derives from every neuron; the neurons
        indexed. The model loads on a thread of its own meanwhile (both take about a second at
        100k neurons). An index that had to be read from the store is saved for the next start;
        last, the contacts' names are analysed ahead (`analyse_names`)."""
        self._used = time.monotonic()
        loading = threading.Thread(target=self._load_model, name="neurons-load-model", daemon=True)
        loading.start()
        try:
            with self.reader.session():
                self.restore()
                self.index.refresh(self.reader, self.reader.change_stamp())
        finally:
            loading.join()
        embedder = self.embedder()
        with self.index.reading():
            self.index.prepare(getattr(embedder, "name", None))
        self.keep(only_after_reading=True)
        self.analyse_names()
        return self.index.count()

    def analyse_names(self) -> None:
        """The lexemes of every phrase a person's answer may look for (`about.names_ahead`),
        analysed by the store ahead (the warm-up's last step), NAMES_AHEAD_BATCH at a time so a
        question waits for one batch at most: the first answer about anyone then reads the store
        once. Left to each answer when there are more than the reader keeps comfortably."""
        with self.index.reading():
            phrases = _about.names_ahead(self.index) if self.index.seen_seq is not None else []
        if len(phrases) > PHRASES_KEPT // 2:
            return
        for k in range(0, len(phrases), NAMES_AHEAD_BATCH):
            self.reader.phrase_lexemes(phrases[k : k + NAMES_AHEAD_BATCH])
