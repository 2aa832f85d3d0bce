"""The narrow door through which capture and recall read the store: one identity's memory,
as plain neurons and links. Nothing here writes; writes are Memory's.

`Reader` is the protocol (a fake in-memory reader serves the unit tests of capture and recall);
`StoreReader` is the real one, over the Store's one connection. Reads made inside
`with reader.session():` share one transaction (one round trip less per statement on the
embedded engine, which serialises everything on one backend); `session(alone=True)`, and a read
outside any session, have none: each statement in one round trip, on either engine.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

from core.model import Edge, Identity, Neuron, Relation
from core.store import queries, recall_sql

log = logging.getLogger(__name__)

# The planner's statistics are refreshed when a reader first sees its rows and each time the
# identity has grown by this factor since (the embedded engine never analyzes by itself).
ANALYZE_GROWTH = 1.25
# A phrase's lexemes never change (fixed text search configurations): a person's names are
# analysed once, not on every question about them (every contact's, ahead, in a memory of up to
# half as many: core/recall/recall.py `analyse_names`); past this many the memo starts again.
PHRASES_KEPT = 20_000


@dataclass(frozen=True)
class Linked:
    """An open edge seen from `seed` (one of the asked ids), and the neuron at its other end."""

    seed: uuid.UUID
    edge: Edge
    neuron: Neuron


class Reader(Protocol):
    identity: Identity
    engine: str  # "embedded" or "server": how fresh the index must re-read

    def session(self, alone: bool = False) -> contextlib.AbstractContextManager[None]: ...
    def neurons(self, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Neuron]: ...
    def neurons_at_stamp(self, ids: Sequence[uuid.UUID]) -> tuple[int, dict[uuid.UUID, Neuron]]: ...
    def contacts(self) -> list[Neuron]: ...
    def active_reminders_sharing(self, text: str) -> list[Neuron]: ...
    def active_notes_sharing(self, text: str) -> list[Neuron]: ...
    def latest_before(self, at: datetime, since: datetime) -> Neuron | None: ...
    def links(
        self, ids: Sequence[uuid.UUID], relations: Sequence[Relation] | None = None
    ) -> list[Linked]: ...
    def phrase_lexemes(self, phrases: Sequence[str]) -> dict[str, list[tuple[str, ...]]]: ...
    def kept_lexemes(self, phrases: Sequence[str]) -> dict[str, list[tuple[str, ...]]] | None: ...
    def contacts_like(self, name: str, min_similarity: float) -> list[tuple[Neuron, float]]: ...
    def look_ahead(
        self, phrases: Sequence[str], like: str | None = None, min_similarity: float = 0.0
    ) -> int: ...
    def question_terms(self, text: str, filler: str) -> list[str]: ...
    def change_stamp(self) -> int: ...
    def stamp_and_terms(self, text: str, filler: str) -> tuple[int, list[str]]: ...
    def index_rows(self, since: int | None) -> tuple[Iterable[dict[str, Any]], int | None]: ...
    def index_edges(self, since: int | None) -> tuple[Iterable[dict[str, Any]], int | None]: ...
    def keep_statistics(self, count: int | None) -> None: ...
    def origin(self) -> dict[str, Any]: ...


class StoreReader:
    def __init__(self, store, identity: Identity):
        self.store = store
        self.identity = identity
        self.engine = store.kind
        self._local = threading.local()  # the cursor of this thread's open session
        self._analyzed_at: int | None = None
        self._lexemes: dict[str, list[tuple[str, ...]]] = {}  # phrase -> its lexemes, as read

    @contextlib.contextmanager
    def session(self, alone: bool = False) -> Iterator[None]:
        """`alone`: without a transaction where the engine allows it (Store.reading)."""
        if getattr(self._local, "cur", None) is not None:
            yield
            return
        with self.store.reading(self.identity, alone=alone) as cur:
            self._local.cur = cur
            try:
                yield
            finally:
                self._local.cur = None
                self._local.like = None

    @contextlib.contextmanager
    def _cursor(self):
        """This thread's session's cursor, else a read of its own: without a transaction around
        it (`Store.reading(alone=True)`: a statement alone, in one round trip)."""
        cur = getattr(self._local, "cur", None)
        if cur is not None:
            yield cur
        else:
            with self.store.reading(self.identity, alone=True) as cur:
                yield cur

    def neurons(self, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Neuron]:
        with self._cursor() as cur:
            return queries.get_neurons(cur, self.identity, list(ids))

    def neurons_at_stamp(self, ids: Sequence[uuid.UUID]) -> tuple[int, dict[uuid.UUID, Neuron]]:
        """The change stamp and the rows of `ids`, in one statement: rows chosen from the index
        before the stamp was read, which hold if the index had seen that stamp."""
        with self._cursor() as cur:
            stamp, rows = recall_sql.stamp_and_neurons(cur, self.identity, list(ids))
        return stamp, {row["id"]: queries.neuron_from_row(row) for row in rows}

    def contacts(self) -> list[Neuron]:
        with self._cursor() as cur:
            return [queries.neuron_from_row(r) for r in recall_sql.contacts(cur, self.identity)]

    def active_reminders_sharing(self, text: str) -> list[Neuron]:
        """Active reminders holding any word of `text`, newest first."""
        with self._cursor() as cur:
            terms = recall_sql.question_terms(cur, text, "")
            rows = recall_sql.active_reminders_with(cur, self.identity, terms)
        return [queries.neuron_from_row(r) for r in rows]

    def active_notes_sharing(self, text: str) -> list[Neuron]:
        """Active notes holding the most words of `text` (a few dozen at most), newest first."""
        with self._cursor() as cur:
            terms = recall_sql.question_terms(cur, text, "")
            rows = recall_sql.active_with(cur, self.identity, terms, "note", most_shared=True)
        found = [queries.neuron_from_row(r) for r in rows]
        return sorted(found, key=lambda n: n.created_at or datetime.min.replace(tzinfo=UTC), reverse=True)

    def latest_before(self, at: datetime, since: datetime) -> Neuron | None:
        """The newest note or reminder written from `since` up to `at`: the capture before one."""
        with self._cursor() as cur:
            row = recall_sql.latest_before(cur, self.identity, at, since)
        return queries.neuron_from_row(row) if row is not None else None

    def links(self, ids: Sequence[uuid.UUID], relations: Sequence[Relation] | None = None) -> list[Linked]:
        with self._cursor() as cur:
            rows = recall_sql.links_of(cur, self.identity, list(ids), relations)
        return [
            Linked(
                r["seed"],
                queries.edge_from_row({k[2:]: v for k, v in r.items() if k.startswith("e_")}),
                queries.neuron_from_row(r),
            )
            for r in rows
        ]

    def phrase_lexemes(self, phrases: Sequence[str]) -> dict[str, list[tuple[str, ...]]]:
        kept = self._lexemes
        new = [p for p in dict.fromkeys(phrases) if p not in kept]
        if new:
            with self._cursor() as cur:
                read = recall_sql.phrase_lexemes(cur, new)
            if len(kept) + len(new) > PHRASES_KEPT:
                kept = self._lexemes = {p: kept[p] for p in phrases if p in kept}
            kept.update({p: read.get(p, []) for p in new})
        return {p: kept[p] for p in phrases if p in kept and kept[p]}

    def kept_lexemes(self, phrases: Sequence[str]) -> dict[str, list[tuple[str, ...]]] | None:
        """What `phrase_lexemes` answers when every phrase was analysed before (no read); None
        when one was not."""
        kept = self._lexemes  # (another thread may start the memo again meanwhile)
        found = [(p, kept.get(p)) for p in phrases]
        if any(lexemes is None for _, lexemes in found):
            return None
        return {p: lexemes for p, lexemes in found if lexemes}

    def contacts_like(self, name: str, min_similarity: float) -> list[tuple[Neuron, float]]:
        like = getattr(self._local, "like", None)
        if like is not None and like[0] == (name, min_similarity):
            rows = like[1]  # read with the change stamp, in this session (look_ahead)
        else:
            with self._cursor() as cur:
                rows = recall_sql.find_contacts(cur, self.identity, name, min_similarity)
        return [(queries.neuron_from_row(r), float(r["sim"])) for r in rows]

    def look_ahead(self, phrases: Sequence[str], like: str | None = None, min_similarity: float = 0.0) -> int:
        """The change stamp, read in one statement with what the reads to come will ask, as far
        as they can be named ahead: the lexemes of `phrases` not yet known (then known), and,
        with `like`, the contacts resembling it (contacts_like answers with them in this
        session)."""
        kept = self._lexemes
        new = [p for p in dict.fromkeys(phrases) if p not in kept]
        with self._cursor() as cur:
            stamp, read, similar = recall_sql.stamp_ahead(cur, self.identity, new, like, min_similarity)
        if new:
            if len(kept) + len(new) > PHRASES_KEPT:
                kept = self._lexemes = {}
            kept.update({p: read.get(p, []) for p in new})
        if like is not None and getattr(self._local, "cur", None) is not None:
            self._local.like = ((like, min_similarity), similar)
        return stamp

    def question_terms(self, text: str, filler: str) -> list[str]:
        with self._cursor() as cur:
            return recall_sql.question_terms(cur, text, filler)

    def change_stamp(self) -> int:
        with self._cursor() as cur:
            return recall_sql.change_stamp(cur)

    def stamp_and_terms(self, text: str, filler: str) -> tuple[int, list[str]]:
        """`change_stamp` and `question_terms`, in one statement."""
        with self._cursor() as cur:
            return recall_sql.stamp_and_terms(cur, text, filler)

    def index_rows(self, since: int | None) -> tuple[Iterable[dict[str, Any]], int | None]:
        return self._changes(recall_sql.index_rows, since)

    def index_edges(self, since: int | None) -> tuple[Iterable[dict[str, Any]], int | None]:
        return self._changes(recall_sql.index_edges, since)

    def _changes(self, read, since: int | None) -> tuple[Iterable[dict[str, Any]], int | None]:
        """The rows come page by page inside a session (read them in it); outside, all at once."""
        with self._cursor() as cur:
            rows, top = read(cur, self.identity, since)
            if getattr(self._local, "cur", None) is None:
                rows = list(rows)
            return rows, top

    def origin(self) -> dict[str, Any]:
        """Which database this is (the engine, its cluster's system identifier, the database):
        what a saved recall index must have been made from to be used."""
        with self._cursor() as cur:
            return {"engine": self.engine, **recall_sql.origin(cur)}

    def keep_statistics(self, count: int | None) -> None:
        """ANALYZE the recall tables when they were never analyzed, or when the identity grew by
        ANALYZE_GROWTH since (the embedded engine only: a server runs autovacuum). `count` None:
        before the index's first read, whose plan needs statistics (without them, at 100k
        neurons, each page of it scanned and sorted the whole table)."""
        if self.engine != "embedded":
            return
        try:
            with self._cursor() as cur, cur.connection.transaction():  # a savepoint
                if self._analyzed_at is None:  # what the store's statistics saw last time
                    self._analyzed_at = recall_sql.analyzed_rows(cur)
                last = self._analyzed_at
                if last is not None and (count is None or count <= last * ANALYZE_GROWTH + 100):
                    return
                recall_sql.refresh_statistics(cur)
                self._analyzed_at = max(recall_sql.analyzed_rows(cur) or 0, count or 0, 1)
        except Exception:
            self._analyzed_at = 1 << 62  # not ours to analyze: do not try again
            log.warning("could not ANALYZE the recall tables; queries may be slower", exc_info=True)
