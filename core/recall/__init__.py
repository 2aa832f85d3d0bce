"""Recall: ask a question, get what you know -- keyword + vector search, fusion, one hop along
the links, the superseded rule, time windows -- and `about` a person (docs/architecture.md, "How a
question travels").

`Recall(reader, embedder)` owns one identity's in-process index; Memory keeps one and its
ask/about delegate here. Recall only reads: through the store's narrow Reader protocol, and the
sentence model through `embedder()` (the loaded Embedder, or None when it is unavailable).
"""

from __future__ import annotations

from datetime import datetime

from core.recall import about as _about
from core.recall import search as _search
from core.recall.about import About
from core.recall.index import RecallIndex
from core.recall.result import Result
from core.recall.search import EmbedderSource
from core.store.reader import Reader
from core.vocabulary import Fusion, Mode


class Recall:
    def __init__(self, reader: Reader, embedder: EmbedderSource):
        self.reader = reader
        self.embedder = embedder
        self.index = RecallIndex(reader.identity)

    def ask(
        self,
        question: str,
        limit: int = 10,
        *,
        mode: Mode | str = Mode.DEFAULT,
        now: datetime | None = None,
        fusion: Fusion | str = Fusion.RELATIVE,
        expand: bool = True,
    ) -> list[Result]:
        return _search.ask(
            self.reader,
            self.index,
            self.embedder,
            question,
            limit,
            mode=mode,
            now=now,
            fusion=fusion,
            expand=expand,
        )

    def about(self, name: str, limit: int = 50, now: datetime | None = None) -> About:
        """A person's answer; for a name no contact answers to, a thing's ("the kitchen
        renovation"): everything written about it or linked to what is, as a timeline."""
        found = _about.about(self.reader, self.index, name, limit)
        if found.contact is None and not found.candidates:
            results = _search.gather(self.reader, self.index, self.embedder, name, limit, now=now)
            found.timeline = _about.timeline(results)
        return found

    def names(self):
        """The identity's contacts as a NameIndex, current (one cheap read: the change stamp; the
        index is rebuilt only when a contact changed). Capture finds the people a text names
        with it, so the quick-capture preview does not rebuild it on every keystroke."""
        with self.reader.session():
            self.index.refresh(self.reader, self.reader.change_stamp())
        with self.index.lock:
            return self.index.names()

    def warm(self) -> int:
        """Build the index (and load the model) ahead of the first question; the neurons indexed."""
        return _search.warm(self.reader, self.index, self.embedder)


__all__ = ["About", "Recall", "Result"]
