"""The in-process recall index of one identity: lexemes, lengths, dates and vectors of its neurons.

Why in process: the embedded engine (Postgres in WebAssembly) takes ~60 ms for BM25 and ~30 ms for
an exact cosine scan over 10k neurons; the same work here in numpy takes a few milliseconds. The
store stays the truth: every insert or update of a neuron takes a new `change_seq` (migration
003), and before each question the index reads what changed since it last looked -- usually
nothing, one cheap statement. Trashed neurons leave the index. The open edges are kept too (they
take numbers from the same sequence, migration 005): one hop, and everything linked to a person,
are followed here, and only the rows of the final answer are read.
"""

from __future__ import annotations

import math
import sys
import threading
import uuid
from array import array
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from core.capture.names import NameIndex, org_counts
from core.embed.runtime import DIM
from core.model import InvalidInput
from core.recall.windows import said
from core.remind.series import Series
from core.store.reader import Reader

# On a server shared by several devices, re-read this many change numbers before the last one
# seen: a transaction that took its number before another one committed is still picked up. (The
# embedded engine serialises every transaction of its one process: nothing to re-read.)
RESCAN_MARGIN_SERVER = 50


def _series(attrs: dict[str, Any] | None) -> Series | None:
    """A recurring reminder's series; one that cannot be read is left out of due windows (the
    scheduler logs it when it would fire)."""
    try:
        return Series.of(attrs) if attrs else None
    except InvalidInput:
        return None


@dataclass(slots=True)
class Entry:
    id: uuid.UUID
    kind: str
    state: str
    created: float
    created_at: datetime
    due: datetime | None
    rrule: str | None
    series: Series | None  # a recurring reminder's, read by the one engine (core/remind/series.py)
    done: datetime | None
    said: tuple[float, float] | None  # the time a note says it is about (POSIX seconds)
    contact: tuple[dict[str, Any], str] | None  # (attrs, body) of a contact
    lexemes: tuple[str, ...]
    model: str | None


@dataclass(frozen=True, slots=True)
class Link:
    """An open edge seen from `seed` (one of the asked ids); `other` is its other end."""

    seed: uuid.UUID
    other: uuid.UUID
    from_id: uuid.UUID
    to_id: uuid.UUID
    relation: str
    weight: float


class RecallIndex:
    def __init__(self, identity):
        self.identity = identity
        self.lock = threading.RLock()
        self.seen_seq: int | None = None
        self.slot_of: dict[uuid.UUID, int] = {}
        self.entries: list[Entry | None] = []
        self.free: list[int] = []
        # lexeme -> the slots holding it: a compact array of C ints (a set of Python ints took
        # ~9 MB at 10k neurons); the lexeme strings are interned, one object per distinct word
        self.postings: dict[str, array] = {}
        self._cap = 0
        self._vecs = np.zeros((0, DIM), dtype=np.float32)
        self._dl = np.zeros(0, dtype=np.float32)
        self._live = np.zeros(0, dtype=bool)
        self._created = np.zeros(0, dtype=np.float64)
        self._due = np.zeros(0, dtype=np.float64)  # +inf: no due date
        self._done = np.zeros(0, dtype=np.float64)  # +inf: not done
        self._recurring = np.zeros(0, dtype=bool)
        self._contact = np.zeros(0, dtype=bool)
        self._said_from = np.zeros(0, dtype=np.float64)  # +inf: says no time
        self._said_to = np.zeros(0, dtype=np.float64)  # -inf: says no time
        self._has_vec = np.zeros(0, dtype=bool)
        self._models: list[str | None] = []
        self.version = 0
        self._order: np.ndarray | None = None  # slots of non-contacts by creation time
        self._names = None
        self._names_version = -1
        self.contacts_version = 0  # moves only when a contact is put or dropped
        self._orgs: tuple[int, dict[str, int]] | None = None
        self._mask = np.zeros(0, dtype=bool)
        self._mask_key: tuple | None = None
        self._pos: dict[int, int] = {}
        # the identity's open edges, id -> (from, to, relation, weight), and the edges touching
        # each neuron id (an end may be trashed or not ours: what reads them skips such ends)
        self._edges: dict[uuid.UUID, tuple[uuid.UUID, uuid.UUID, str, float]] = {}
        self._touching: dict[uuid.UUID, list[uuid.UUID]] = {}

    # -- keeping up with the store -------------------------------------------------------------

    def refresh(self, reader: Reader, seq_now: int | None) -> None:
        """Read what changed since the last look (everything the first time), and keep the
        planner's statistics of the recall tables current."""
        margin = 0 if reader.engine == "embedded" else RESCAN_MARGIN_SERVER
        with self.lock:
            if self.seen_seq is not None and seq_now is not None and seq_now <= self.seen_seq:
                return
            since = None if self.seen_seq is None else max(self.seen_seq - margin, 0)
            rows, top = reader.index_rows(since)
            seen, changed = max(top or 0, self.seen_seq or 0), False
            for row in rows:  # page by page: a page is indexed before the next is read
                if row["mine"] and row["state"] != "trashed":
                    self._put(row)
                else:
                    self._drop(row["id"])
                seen, changed = max(seen, row["change_seq"] or 0), True
            edges, top = reader.index_edges(since)
            seen = max(seen, top or 0)
            for edge in edges:
                if edge["keep"]:
                    self._put_edge(edge)
                else:
                    self._drop_edge(edge["id"])
                seen = max(seen, edge["change_seq"] or 0)
            self.seen_seq = seen
            if changed:
                self.version += 1
                self._order = None
            reader.keep_statistics(len(self.slot_of))

    def _grow(self, need: int) -> None:
        if need <= self._cap:
            return
        cap = max(1024, self._cap * 2, need)
        for name, dtype in (
            ("_dl", np.float32),
            ("_live", bool),
            ("_created", np.float64),
            ("_due", np.float64),
            ("_done", np.float64),
            ("_recurring", bool),
            ("_contact", bool),
            ("_said_from", np.float64),
            ("_said_to", np.float64),
            ("_has_vec", bool),
        ):
            old = getattr(self, name)
            new = np.zeros(cap, dtype=dtype)
            new[: len(old)] = old
            setattr(self, name, new)
        vecs = np.zeros((cap, DIM), dtype=np.float32)
        vecs[: len(self._vecs)] = self._vecs
        self._vecs = vecs
        self._models += [None] * (cap - len(self._models))
        self._cap = cap

    def _put(self, row: dict[str, Any]) -> None:
        nid = row["id"]
        old = self.entries[self.slot_of[nid]] if nid in self.slot_of else None
        if row["kind"] == "contact" or (old is not None and old.kind == "contact"):
            self.contacts_version += 1
        slot = self.slot_of.get(nid)
        if slot is None:
            slot = self.free.pop() if self.free else len(self.entries)
            if slot == len(self.entries):
                self.entries.append(None)
            self._grow(slot + 1)
            self.slot_of[nid] = slot
        lexemes = tuple(sys.intern(lex) for lex in row["lexemes"] or ())
        # Only the words that changed move: a filled vector or a new state leaves the postings
        # alone (taking a slot out of a posting array is a linear scan of it).
        gone = set(old.lexemes).difference(lexemes) if old is not None else ()
        added = set(lexemes).difference(old.lexemes) if old is not None else lexemes
        model = row["embedding_model"]
        model = sys.intern(model) if model is not None else None
        created_at = row["created_at"]
        entry = Entry(
            id=nid,
            kind=sys.intern(row["kind"]),
            state=sys.intern(row["state"]),
            created=created_at.timestamp(),
            created_at=created_at,
            due=row["due"],
            rrule=row["rrule"],
            series=_series(row.get("series")),
            done=row.get("done"),
            said=said(row.get("note_head"), created_at) if row["kind"] == "note" else None,
            contact=(row["contact_attrs"] or {}, row["contact_body"] or "")
            if row["kind"] == "contact"
            else None,
            lexemes=lexemes,
            model=model,
        )
        self.entries[slot] = entry
        self._unpost(slot, gone)
        for lex in added:  # the row's lexemes are distinct
            bucket = self.postings.get(lex)
            if bucket is None:
                bucket = self.postings[lex] = array("i")
            bucket.append(slot)
        self._dl[slot] = float(row["dl"] or 0)
        self._live[slot] = True
        self._created[slot] = entry.created
        self._due[slot] = entry.due.timestamp() if entry.due is not None else np.inf
        self._done[slot] = entry.done.timestamp() if entry.done is not None else np.inf
        self._recurring[slot] = bool(entry.rrule) and entry.due is not None
        self._contact[slot] = entry.kind == "contact"
        self._said_from[slot], self._said_to[slot] = entry.said or (np.inf, -np.inf)
        vec = row["vec"]
        if vec is not None and len(vec) == 4 + 4 * DIM:
            self._vecs[slot] = np.frombuffer(vec, dtype=">f4", offset=4).astype(np.float32)
            self._has_vec[slot] = True
            self._models[slot] = model
        else:
            self._has_vec[slot] = False
            self._models[slot] = None

    def _unpost(self, slot: int, lexemes) -> None:
        for lex in lexemes:
            bucket = self.postings.get(lex)
            if bucket is not None and slot in bucket:
                bucket.remove(slot)
                if not bucket:
                    del self.postings[lex]

    def _drop(self, nid: uuid.UUID) -> None:
        slot = self.slot_of.pop(nid, None)
        if slot is None:
            return
        if self._contact[slot]:
            self.contacts_version += 1
        old = self.entries[slot]
        if old is not None:
            self._unpost(slot, old.lexemes)
        self.entries[slot] = None
        self._live[slot] = False
        self._due[slot] = self._done[slot] = np.inf
        self._created[slot] = np.inf
        self._recurring[slot] = self._contact[slot] = False
        self._said_from[slot], self._said_to[slot] = np.inf, -np.inf
        self._has_vec[slot] = False
        self._models[slot] = None
        self.free.append(slot)

    def _put_edge(self, row: dict[str, Any]) -> None:
        eid = row["id"]
        if eid in self._edges:
            self._drop_edge(eid)
        # the ends as the index's own id objects, the usual weight as one float: ~40% less memory
        from_id, to_id = (
            self.at(self.slot_of[end]).id if end in self.slot_of else end
            for end in (row["from_node_id"], row["to_node_id"])
        )
        weight = float(row["weight"])
        self._edges[eid] = (
            from_id,
            to_id,
            sys.intern(row["relation_type"]),
            1.0 if weight == 1.0 else weight,
        )
        for end in (from_id, to_id):
            self._touching.setdefault(end, []).append(eid)

    def _drop_edge(self, eid: uuid.UUID) -> None:
        edge = self._edges.pop(eid, None)
        if edge is None:
            return
        for end in edge[:2]:
            ids = self._touching.get(end)
            if ids is not None:
                ids.remove(eid)
                if not ids:
                    del self._touching[end]

    def links(self, ids, relations=None) -> list[Link]:
        """The open edges touching `ids` (either end), of `relations` (any when None), seen from
        each id, whatever the other end is (see `live`)."""
        wanted = None if relations is None else {getattr(r, "value", r) for r in relations}
        out = []
        for seed in ids:
            for eid in self._touching.get(seed, ()):
                a, b, relation, weight = self._edges[eid]
                if wanted is None or relation in wanted:
                    out.append(Link(seed, b if a == seed else a, a, b, relation, weight))
        return out

    def at(self, slot: int) -> Entry:
        """The entry in a live slot (one `slot_of` or a live mask gave)."""
        entry = self.entries[slot]
        if entry is None:
            raise LookupError(f"slot {slot} of the recall index is free")
        return entry

    def live(self, nid: uuid.UUID) -> Entry | None:
        """The entry of a neuron of the identity that is not trashed; None for any other id."""
        slot = self.slot_of.get(nid)
        return self.entries[slot] if slot is not None else None

    def holding(self, lexeme_sets, exclude=(), limit: int = 200) -> list[Entry]:
        """The entries holding every lexeme of any of `lexeme_sets` (a name as words: a phrase
        without its word order), not in `exclude`, newest first."""
        held = [
            e
            for e in map(self.entries.__getitem__, self.slots_holding(lexeme_sets))
            if e is not None and e.id not in exclude
        ]
        return sorted(held, key=lambda e: -e.created)[:limit]

    def slots_holding(self, lexeme_sets) -> set[int]:
        slots: set[int] = set()
        for lexemes in lexeme_sets:
            found: set[int] | None = None
            for lex in lexemes:
                posted = self.postings.get(lex)
                found = set() if not posted else set(posted) if found is None else found & set(posted)
                if not found:
                    break
            slots |= found or set()
        return slots

    # -- scoring -------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return len(self.entries)

    def count(self) -> int:
        return len(self.slot_of)

    def bm25(self, terms: list[str], k1: float, b: float) -> tuple[np.ndarray, float]:
        """(BM25 of every slot over term presence, the question's total idf)."""
        n = self.size
        scores = np.zeros(n, dtype=np.float64)
        live = self._live[:n]
        total = int(live.sum())
        if not terms or total == 0:
            return scores, 0.0
        avgdl = max(float(self._dl[:n][live].mean()), 1.0)
        idf_sum = 0.0
        for term in terms:
            slots = self.postings.get(term)
            df = len(slots) if slots else 0
            idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
            idf_sum += idf
            if not slots:
                continue
            idx = np.frombuffer(slots, dtype=np.intc)
            dl = self._dl[idx]
            scores[idx] += idf * (k1 + 1) / (1 + k1 * (1 - b + b * dl / avgdl))
        return scores, idf_sum

    def with_vector(self, model: str) -> np.ndarray:
        """Mask of the live slots holding a vector of `model` (cached per index version)."""
        key = (self.version, model, self.size)
        if self._mask_key != key:
            n = self.size
            ok = self._has_vec[:n] & self._live[:n]
            ok &= np.fromiter((m == model for m in self._models[:n]), dtype=bool, count=n)
            self._mask, self._mask_key = ok, key
        return self._mask

    def cosine(self, qvec: np.ndarray | None, model: str | None) -> np.ndarray | None:
        """Cosine of every slot to the question (NaN without a vector of `model`)."""
        if qvec is None or model is None:
            return None
        n = self.size
        ok = self.with_vector(model)
        # the whole block at once: slots without a vector hold zeros, masked after (a gather of
        # the rows with a vector would copy the matrix first: ~20 ms at 10k); einsum, not BLAS:
        # one thread, ~1 ms at 10k, where OpenBLAS's threads took 5-10 ms on a busy machine
        out = np.einsum("ij,j->i", self._vecs[:n], qvec.astype(np.float32)).astype(np.float64)
        out[~ok] = np.nan
        return out

    def similar_to(self, slots: list[int], model: str) -> tuple[np.ndarray, np.ndarray]:
        """For every slot: its best cosine to any of `slots` (-inf for contacts, for `slots`
        themselves and without a vector), and which of `slots` that was."""
        n = self.size
        ok = self.with_vector(model)
        own = [s for s in slots if s < n and ok[s]]
        best = np.full(n, -np.inf)
        nearest = np.full(n, -1, dtype=np.int64)
        if not own:
            return best, nearest
        sims = self._vecs[:n] @ self._vecs[own].T
        keep = ok & ~self._contact[:n]
        keep[own] = False
        best[keep] = sims.max(axis=1)[keep]
        nearest[keep] = np.asarray(own)[sims.argmax(axis=1)][keep]
        return best, nearest

    def sitting(self, slot: int, seconds: float) -> list[int]:
        """The non-contact neurons captured just before and just after `slot`, within `seconds`."""
        entry = self.entries[slot]
        if entry is None or entry.kind == "contact":
            return []
        order = self._creation_order()
        pos = self._pos.get(slot)
        if pos is None:
            return []
        out = []
        for step in (-1, 1):
            j = pos + step
            if 0 <= j < len(order):
                other = int(order[j])
                if abs(self._created[other] - entry.created) <= seconds:
                    out.append(other)
        return out

    def _creation_order(self) -> np.ndarray:
        if self._order is None:
            idx = np.nonzero(self.non_contacts())[0]
            keys = [(self._created[i], str(self.at(int(i)).id)) for i in idx]
            order = [i for _, i in sorted(zip(keys, idx.tolist(), strict=True))]
            self._order = np.asarray(order, dtype=np.int64)
            self._pos = {int(s): p for p, s in enumerate(self._order)}
        return self._order

    def non_contacts(self) -> np.ndarray:
        """Mask of the live slots that are notes or reminders."""
        n = self.size
        return self._live[:n] & ~self._contact[:n]

    def date_arrays(self) -> tuple[np.ndarray, ...]:
        """(created, due, done) as POSIX seconds (+inf: none), the recurring mask, and the span a
        note says it is about (+inf, -inf: none), per slot."""
        n = self.size
        return (
            self._created[:n],
            self._due[:n],
            self._done[:n],
            self._recurring[:n],
            self._said_from[:n],
            self._said_to[:n],
        )

    def org_counts(self) -> dict[str, int]:
        """How many contacts give each organisation (cached per index version)."""
        if self._orgs is None or self._orgs[0] != self.version:
            self._orgs = (
                self.version,
                org_counts(e.contact[0] for e in self.entries if e is not None and e.contact is not None),
            )
        return self._orgs[1]

    def names(self):
        """A NameIndex over the identity's contacts (rebuilt when a contact changed)."""
        if self._names is None or self._names_version != self.contacts_version:
            self._names = NameIndex(
                (e.id, e.contact[0], e.contact[1])
                for e in self.entries
                if e is not None and e.contact is not None
            )
            self._names_version = self.contacts_version
        return self._names
