"""The in-process recall index of one identity: lexemes, lengths, dates and vectors of its neurons.

Why in process: the embedded engine (Postgres in WebAssembly) takes ~60 ms for BM25 and ~30 ms for
an exact cosine scan over 10k neurons; the same work here in numpy takes a few milliseconds. The
store stays the truth: every insert or update of a neuron takes a new `change_seq` (migration
003), and before each question the index reads what changed since it last looked -- usually
nothing, one cheap statement. Trashed neurons leave the index. The open edges are kept too (they
take numbers from the same sequence, migration 005): one hop, and everything linked to a person,
are followed here, and only the rows of the final answer are read.

Kept column by column -- numpy arrays, and a list or a sparse dict where a value is a Python
object -- rather than one object per neuron: at 100k neurons the objects cost ~80 MB and most of a
warm-up. `entries[slot]` makes a slot's `Entry` when it is asked for. The vectors lie in blocks of
VECTOR_BLOCK rows, so the index grows without copying them, each row as int16 codes and one float
scale (`vec_scale`): 77 MB at 100k instead of 154 as float32. A scan turns SCAN_CHUNK rows at a
time back into float32 (as fast as scanning float32: half the memory to read; numpy converts
float16 ten times slower) and scales each row's dot product after. The codes move a cosine by
~1e-5 at most (a row's step is 1/65534 of its largest component), below the float32 sums' own
noise; identical vectors keep identical codes, so ties stay ties. (int8 codes, a quarter of the
memory, moved cosines by ~1.5e-3: the vector-only rankings of the dev set changed.) The index can
be written to a file (`save`) and read back at the next start (`load`, core/recall/saved.py): then
only what changed since is read from the store. Read back, the ids, lexemes, postings and edges
stay the file's arrays (`_IdTable`, `_Lexemes`, `_Postings`, `_Edges`), and what is written after
goes into small dicts beside them: no Python object a neuron at start.
"""

from __future__ import annotations

import math
import sys
import threading
import uuid
from array import array
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

import numpy as np

from core.capture.names import NameIndex, org_counts
from core.embed.runtime import DIM
from core.model import InvalidInput
from core.recall import nearest as _nearest
from core.recall.stopwords import written_in, written_in_each
from core.recall.windows import said
from core.remind.series import Series
from core.store.reader import Reader

# On a server shared by several devices, re-read this many change numbers before the last one
# seen: a transaction that took its number before another one committed is still picked up. (The
# embedded engine serialises every transaction of its one process: nothing to re-read.)
RESCAN_MARGIN_SERVER = 50
# Vectors are kept in blocks of this many rows (3 MB each at 384 dimensions), as VECTOR_CODE
# codes of at most CODE_MAX, and scanned SCAN_CHUNK rows at a time (a float32 chunk that stays in
# the core's cache: 768 KB).
VECTOR_BLOCK = 4096
VECTOR_CODE = np.int16
CODE_MAX = float(np.iinfo(VECTOR_CODE).max)
SCAN_CHUNK = 512
# A neuron's kind and state as small codes in the index's arrays.
KINDS = ("note", "reminder", "contact")
STATES = ("active", "done", "archived", "trashed")
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}
_STATE_CODE = {s: i for i, s in enumerate(STATES)}

# The per-slot arrays, with their dtype and the value of a free slot.
COLUMNS: dict[str, tuple[Any, Any]] = {
    "dl": (np.float32, 0.0),
    "live": (bool, False),
    "created": (np.float64, np.inf),
    "due": (np.float64, np.inf),  # +inf: no due date
    "done": (np.float64, np.inf),  # +inf: not done
    "tz": (np.uint8, 0),  # the time zone the store wrote its dates in (`_zones`)
    "kind": (np.uint8, 0),
    "state": (np.uint8, 0),
    "recurring": (bool, False),
    "contact": (bool, False),
    "reminder": (bool, False),
    "note": (bool, False),
    "active": (bool, False),  # state "active"
    "done_state": (bool, False),  # state "done"
    "said_from": (np.float64, np.inf),  # +inf: says no time
    "said_to": (np.float64, -np.inf),  # -inf: says no time
    "has_vec": (bool, False),
    "vec_scale": (np.float32, 0.0),  # a vector is its codes times this
    "model": (np.int16, -1),  # the vector's model (`_model_names`), -1: none
    "id_hi": (np.uint64, 0),  # the id as two numbers: the order of its text
    "id_lo": (np.uint64, 0),
}


if hasattr(np, "vecdot"):

    def _rows_dot(rows: np.ndarray, q: np.ndarray, out: np.ndarray) -> None:
        np.vecdot(rows, q, out=out)

else:  # numpy < 2

    def _rows_dot(rows: np.ndarray, q: np.ndarray, out: np.ndarray) -> None:
        np.einsum("ij,j->i", rows, q, out=out)


def read_series(attrs: dict[str, Any] | None) -> Series | None:
    """A recurring reminder's series; one that cannot be read is left out of due windows (the
    scheduler logs it when it would fire)."""
    try:
        return Series.of(attrs) if attrs else None
    except InvalidInput:
        return None


class Entry:
    """One neuron as the index knows it (made from its slot on demand)."""

    __slots__ = (
        "_done",
        "_due",
        "_tz",
        "contact",
        "created",
        "id",
        "kind",
        "lexemes",
        "model",
        "rrule",
        "said",
        "series",
        "state",
    )

    def __init__(
        self,
        id: uuid.UUID,
        kind: str,
        state: str,
        created: float,
        tz: tzinfo,
        due: float,
        rrule: str | None,
        series: Series | None,  # a recurring reminder's, read by the one engine (core/remind/series.py)
        done: float,
        said: tuple[float, float] | None,  # the time a note says it is about (POSIX seconds)
        contact: tuple[dict[str, Any], str] | None,  # (attrs, body) of a contact
        lexemes: tuple[str, ...],
        model: str | None,
    ):
        self.id, self.kind, self.state, self.created, self._tz = id, kind, state, created, tz
        self._due, self.rrule, self.series, self._done, self.said = due, rrule, series, done, said
        self.contact, self.lexemes, self.model = contact, lexemes, model

    @property
    def created_at(self) -> datetime:
        return datetime.fromtimestamp(self.created, self._tz)

    @property
    def due(self) -> datetime | None:
        return datetime.fromtimestamp(self._due, self._tz) if self._due != math.inf else None

    @property
    def done(self) -> datetime | None:
        return datetime.fromtimestamp(self._done, self._tz) if self._done != math.inf else None


class _Entries:
    """`index.entries[slot]`: the slot's Entry, or None for a free slot."""

    __slots__ = ("_index",)

    def __init__(self, index: RecallIndex):
        self._index = index

    def __len__(self) -> int:
        return self._index.slots

    def __getitem__(self, slot) -> Entry | None:
        return self._index.entry(int(slot))

    def __iter__(self):
        return (self._index.entry(slot) for slot in range(self._index.slots))


_HALF = 1 << 64


def _halves(nid: uuid.UUID) -> tuple[int, int]:
    return divmod(nid.int, _HALF)


def _uuid(hi, lo) -> uuid.UUID:
    return uuid.UUID(int=int(hi) * _HALF + int(lo))


# an edge written since the file was read, seen from one end: (the other end, going out of the
# one it is seen from, its relation)
_OwnEnd = tuple[uuid.UUID, bool, str]


class _Found:
    """Sorted 64-bit keys (the high half of 128-bit ids) and the rows they belong to, searched
    with numpy: a file's ids, edges and their ends as arrays, without a Python object a row."""

    __slots__ = ("keys", "lows", "rows")

    def __init__(self, hi: np.ndarray, lo: np.ndarray, rows: np.ndarray | None = None):
        order = np.argsort(hi, kind="stable")
        self.keys = hi[order]
        self.lows = lo[order]
        self.rows = order if rows is None else rows[order]

    def find(self, hi: int, lo: int) -> list[int]:
        """The rows whose key is (hi, lo)."""
        keys = self.keys
        # (a numpy uint64: a Python int below 2**63 would be compared as float64, whole array
        # converted and rounded)
        at = int(np.searchsorted(keys, np.uint64(hi)))
        out = []
        while at < len(keys) and int(keys[at]) == hi:
            if int(self.lows[at]) == lo:
                out.append(int(self.rows[at]))
            at += 1
        return out


_NO_FOUND = _Found(np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64))


class _IdTable:
    """128-bit ids -> slots in an open-addressed table of C integers (linear probing, at most half
    full), made with numpy from a file's id columns in a few passes: a look-up is a few reads of
    flat arrays, as quick as a dict's, with no Python object a row."""

    __slots__ = ("_hi", "_lo", "_mask", "_table")

    def __init__(self, hi: np.ndarray, lo: np.ndarray, slots: np.ndarray):
        n = len(slots)
        size = 1 << max(4, (2 * n).bit_length())
        mask = size - 1
        table = np.full(size, -1, dtype=np.int64)
        want = ((hi ^ lo) & np.uint64(mask)).astype(np.int64)
        pending = np.arange(n)
        while len(pending):
            at = want[pending]
            empty = table[at] < 0
            won, first = np.unique(at[empty], return_index=True)
            table[won] = slots[pending[empty][first]]
            placed = np.zeros(n, dtype=bool)
            placed[pending[empty][first]] = True
            pending = pending[~placed[pending]]
            want[pending] = (want[pending] + 1) & mask
        self._table = array("q", table.tobytes())
        self._mask = mask
        # the ids by slot: a look-up checks the slot it finds
        width = int(slots.max()) + 1 if n else 0
        by_slot = []
        for values in (hi, lo):
            full = np.zeros(width, dtype=np.uint64)
            full[slots] = values
            by_slot.append(array("Q", full.tobytes()))
        self._hi, self._lo = by_slot

    def find_all(self, hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
        """`find` of many ids given as their halves (uint64 arrays), probed together with numpy:
        the slot of each, -1 for an id the file did not hold."""
        table = np.frombuffer(self._table, dtype=np.int64)
        by_hi = np.frombuffer(self._hi, dtype=np.uint64)
        by_lo = np.frombuffer(self._lo, dtype=np.uint64)
        out = np.full(len(hi), -1, dtype=np.int64)
        at = ((hi ^ lo) & np.uint64(self._mask)).astype(np.int64)
        pending = np.arange(len(hi))
        while len(pending):
            slot = table[at[pending]]
            taken = slot >= 0
            pending, slot = pending[taken], slot[taken]
            same = (by_hi[slot] == hi[pending]) & (by_lo[slot] == lo[pending])
            out[pending[same]] = slot[same]
            pending = pending[~same]
            at[pending] = (at[pending] + 1) & self._mask
        return out

    def find(self, hi: int, lo: int) -> list[int]:
        """The slot the file gave the id (hi, lo), as a list of none or one."""
        table, mask = self._table, self._mask
        i = (hi ^ lo) & mask
        while True:
            slot = table[i]
            if slot < 0:
                return []
            if self._hi[slot] == hi and self._lo[slot] == lo:
                return [slot]
            i = (i + 1) & mask


class _Slots:
    """id -> slot of the live neurons: the slots a saved file held, searched in its arrays, and a
    dict of the ids put since (a slot found is checked against the id columns: a slot freed or
    taken by another id since does not answer)."""

    __slots__ = ("_base", "_cols", "_count", "_put")

    def __init__(self, cols: dict[str, np.ndarray], base: _IdTable | None = None, count: int = 0):
        self._cols, self._base, self._count = cols, base, count
        self._put: dict[int, int] = {}  # nid.int -> slot, for the ids put after the file was read

    def get(self, nid, default=None):
        if not isinstance(nid, uuid.UUID):
            return default
        slot = self._put.get(nid.int)
        if slot is not None:
            return slot
        if self._base is not None:
            hi, lo = _halves(nid)
            c = self._cols
            for slot in self._base.find(hi, lo):
                if c["live"][slot] and int(c["id_hi"][slot]) == hi and int(c["id_lo"][slot]) == lo:
                    return slot
        return default

    def of_halves(self, hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
        """`get` of many ids given as their halves (uint64 arrays): the slot of each live one,
        -1 for any other; no UUID made."""
        out = np.full(len(hi), -1, dtype=np.int64)
        if self._base is not None and len(hi):
            found = self._base.find_all(hi, lo)
            at = np.nonzero(found >= 0)[0]
            slots = found[at]
            c = self._cols
            ok = c["live"][slots] & (c["id_hi"][slots] == hi[at]) & (c["id_lo"][slots] == lo[at])
            out[at[ok]] = slots[ok]
        put = self._put
        if put:
            for i, (h, low) in enumerate(zip(hi.tolist(), lo.tolist(), strict=True)):
                slot = put.get(h * _HALF + low)
                if slot is not None:
                    out[i] = slot
        return out

    def __contains__(self, nid: object) -> bool:
        return self.get(nid) is not None

    def __getitem__(self, nid: uuid.UUID) -> int:
        slot = self.get(nid)
        if slot is None:
            raise KeyError(nid)
        return slot

    def __len__(self) -> int:
        return self._count

    def put(self, nid: uuid.UUID, slot: int) -> None:
        self._put[nid.int] = slot
        self._count += 1

    def pop(self, nid: uuid.UUID) -> int | None:
        slot = self.get(nid)
        if slot is not None:
            self._put.pop(nid.int, None)
            self._count -= 1
        return slot


class _Postings:
    """lexeme -> the slots holding it. A file's postings lie in two arrays (the slots, grouped by
    lexeme; where each lexeme's group starts); a lexeme a write touches gets an array of C ints
    of its own (a set of Python ints took ~9 MB at 10k neurons), made from its group."""

    __slots__ = ("_code", "_own", "_slots", "_starts")

    def __init__(self, code: dict[str, int] | None = None, starts=None, slots=None):
        self._code = code or {}  # lexeme -> its group in the file's arrays
        self._starts = starts if starts is not None else np.zeros(1, dtype=np.int64)
        self._slots = slots if slots is not None else np.zeros(0, dtype=np.intc)
        self._own: dict[str, array] = {}

    def get(self, lexeme: str):
        """The slots holding `lexeme` (array('i') or an int array), or None."""
        own = self._own.get(lexeme)
        if own is not None:
            return own
        t = self._code.get(lexeme)
        if t is None:
            return None
        return self._slots[self._starts[t] : self._starts[t + 1]]

    def items(self) -> Iterator[tuple[str, Any]]:
        """Every lexeme some slot holds, with those slots."""
        for lexeme in self._code:
            if lexeme not in self._own:
                yield lexeme, self.get(lexeme)
        yield from ((lexeme, own) for lexeme, own in self._own.items() if own)

    def _mine(self, lexeme: str) -> array:
        own = self._own.get(lexeme)
        if own is None:
            found = self.get(lexeme)
            own = self._own[lexeme] = array("i", b"" if found is None else found.tobytes())
        return own

    def add(self, lexeme: str, slot: int) -> None:
        self._mine(lexeme).append(slot)

    def remove(self, lexeme: str, slot: int) -> None:
        found = self.get(lexeme)
        if found is not None and len(found) and slot in found:
            self._mine(lexeme).remove(slot)


class _Lexemes:
    """Each slot's lexemes: a file's as one array of word codes and where each slot's start, the
    ones written since as tuples of interned words."""

    __slots__ = ("_flat", "_own", "_starts", "terms")

    def __init__(self, terms: list[str] | None = None, starts=None, flat=None):
        self.terms = terms or []
        self._starts = starts if starts is not None else np.zeros(1, dtype=np.int64)
        self._flat = flat if flat is not None else np.zeros(0, dtype=np.int32)
        self._own: dict[int, tuple[str, ...] | None] = {}

    def __getitem__(self, slot: int) -> tuple[str, ...] | None:
        if slot in self._own:
            return self._own[slot]
        if slot + 1 >= len(self._starts):
            return None
        codes = self._flat[self._starts[slot] : self._starts[slot + 1]].tolist()
        return tuple(map(self.terms.__getitem__, codes))

    def __setitem__(self, slot: int, lexemes: tuple[str, ...] | None) -> None:
        self._own[slot] = lexemes

    def languages(self) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
        """(slots, the place of each one's language in the names, the names): `written_in` of
        every slot as the file holds it and no write has changed since, at once."""
        found, names = written_in_each(self.terms, self._flat, self._starts)
        slots = np.arange(len(found))
        if self._own:
            slots = slots[~np.isin(slots, np.fromiter(self._own, dtype=np.int64, count=len(self._own)))]
        return slots, found[slots], names


class _Edges:
    """The identity's open edges: a file's as arrays (ids, ends, relation codes, weights; found by
    their id and by either end), the ones written since in dicts keyed by the ids' numbers
    (hashing a UUID calls Python, an int's does not)."""

    def __init__(self, arrays: dict[str, np.ndarray] | None = None, relations: list[str] | None = None):
        a = arrays or {
            f"{name}_{half}": np.zeros(0, dtype=np.uint64)
            for name in ("e_id", "e_from", "e_to")
            for half in ("hi", "lo")
        }
        self.a = a
        self.relations = relations or []
        self.rel = arrays["e_rel"] if arrays else np.zeros(0, dtype=np.uint8)
        self.weight = arrays["e_weight"] if arrays else np.zeros(0, dtype=np.float64)
        m = len(a["e_id_hi"])
        self.alive = np.ones(m, dtype=bool)
        self.by_id = _Found(a["e_id_hi"], a["e_id_lo"]) if m else _NO_FOUND
        self.by_end = (
            _Found(
                np.concatenate([a["e_from_hi"], a["e_to_hi"]]),
                np.concatenate([a["e_from_lo"], a["e_to_lo"]]),
                np.concatenate([np.arange(m), np.arange(m)]),
            )
            if m
            else _NO_FOUND
        )
        self.base_live = m
        # written since: id -> (from, to, relation, weight), and each end's edges
        self.own: dict[int, tuple[uuid.UUID, uuid.UUID, str, float]] = {}
        self.touching: dict[int, list[int]] = {}

    def __len__(self) -> int:
        return self.base_live + len(self.own)

    def _base_row(self, eid: int) -> int | None:
        for row in self.by_id.find(*divmod(eid, _HALF)):
            if self.alive[row]:
                return row
        return None

    def put(self, eid: int, edge: tuple[uuid.UUID, uuid.UUID, str, float]) -> None:
        self.drop(eid)
        self.own[eid] = edge
        for end in edge[:2]:
            self.touching.setdefault(end.int, []).append(eid)

    def drop(self, eid: int) -> None:
        edge = self.own.pop(eid, None)
        if edge is not None:
            for end in edge[:2]:
                ids = self.touching.get(end.int)
                if ids is not None:
                    ids.remove(eid)
                    if not ids:
                        del self.touching[end.int]
            return
        row = self._base_row(eid)
        if row is not None:
            self.alive[row] = False
            self.base_live -= 1

    def _base(self, row: int) -> tuple[uuid.UUID, uuid.UUID, str, float]:
        a = self.a
        return (
            _uuid(a["e_from_hi"][row], a["e_from_lo"][row]),
            _uuid(a["e_to_hi"][row], a["e_to_lo"][row]),
            self.relations[int(self.rel[row])],
            float(self.weight[row]),
        )

    def touching_of(self, nid: uuid.UUID) -> list[tuple[uuid.UUID, uuid.UUID, str, float]]:
        """The open edges with `nid` at either end (one with it at both ends twice)."""
        return self.touching_all([nid])[0]

    def touching_all(
        self, nids: list[uuid.UUID], relations: set[str] | None = None
    ) -> list[list[tuple[uuid.UUID, uuid.UUID, str, float]]]:
        """For each of `nids`, as `touching_of`, of `relations` only (any when None): the file's
        edges found for all of them at once (a few numpy passes, not a search an id), and only
        those of `relations` made into tuples."""
        pairs = np.array([_halves(nid) for nid in nids], dtype=np.uint64).reshape(-1, 2)
        return self.touching_halves(pairs[:, 0], pairs[:, 1], relations)

    def touching_halves(
        self, hi: np.ndarray, lo: np.ndarray, relations: set[str] | None = None
    ) -> list[list[tuple[uuid.UUID, uuid.UUID, str, float]]]:
        """`touching_all` of the ids given as their halves (uint64 arrays): no UUID made for an
        id that touches nothing."""
        base: list[list[int]] = [[] for _ in range(len(hi))]
        owner, rows = self._base_rows(hi, lo, relations)
        for i, row in zip(owner.tolist(), rows.tolist(), strict=True):
            base[i].append(row)
        out = []
        touching = self.touching
        keys = (
            [h * _HALF + low for h, low in zip(hi.tolist(), lo.tolist(), strict=True)]
            if touching
            else [0] * len(hi)
        )
        for key, rows_of in zip(keys, base, strict=True):
            own = [self.own[eid] for eid in touching.get(key, ())] if touching else []
            if relations is not None:
                own = [edge for edge in own if edge[2] in relations]
            out.append([self._base(r) for r in rows_of] + own if rows_of else own)
        return out

    def _base_rows(
        self, hi: np.ndarray, lo: np.ndarray, relations: set[str] | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(owner, row): the file's open edges of `relations` (any when None) with an end at each
        id given as its halves, as the id's place in `hi` and the edge's row, by owner and then
        in the file's order, as they were read (an edge from and to an id twice)."""
        none = np.zeros(0, dtype=np.int64)
        if not self.base_live or not len(hi):
            return none, none
        found = self.by_end
        first = np.searchsorted(found.keys, hi, side="left")
        last = np.searchsorted(found.keys, hi, side="right")
        counts = last - first
        if not counts.any():
            return none, none
        owner = np.repeat(np.arange(len(hi)), counts)
        at = (
            np.arange(int(counts.sum()))
            - np.repeat(np.cumsum(counts) - counts, counts)
            + np.repeat(first, counts)
        )
        rows = found.rows[at]
        keep = (found.lows[at] == lo[owner]) & self.alive[rows]
        if relations is not None:
            codes = [i for i, r in enumerate(self.relations) if r in relations]
            keep &= np.isin(self.rel[rows], codes)
        owner, rows = owner[keep], rows[keep]
        order = np.lexsort((rows, owner))
        return owner[order], rows[order]

    def ends_halves(
        self, hi: np.ndarray, lo: np.ndarray, relations: set[str] | None = None
    ) -> tuple[
        np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[list[tuple[uuid.UUID, bool, str]]]
    ]:
        """`touching_halves` as the other ends only: (owner, the other end's halves, whether the
        edge goes out of the owner, its relation's code in `relations`) of the file's edges, in
        `touching_halves`'s order; and for each id the edges written since, as (the other end,
        going out, the relation), which come after the file's of the same id."""
        owner, rows = self._base_rows(hi, lo, relations)
        a = self.a
        from_hi, from_lo = a["e_from_hi"][rows], a["e_from_lo"][rows]
        out = (from_hi == hi[owner]) & (from_lo == lo[owner])
        other_hi = np.where(out, a["e_to_hi"][rows], from_hi)
        other_lo = np.where(out, a["e_to_lo"][rows], from_lo)
        own: list[list[_OwnEnd]] = []
        touching = self.touching
        if touching:
            for h, low in zip(hi.tolist(), lo.tolist(), strict=True):
                key, ends = h * _HALF + low, []
                for eid in touching.get(key, ()):
                    a_end, b_end, relation, _ = self.own[eid]
                    if relations is None or relation in relations:
                        going = a_end.int == key
                        ends.append((b_end if going else a_end, going, relation))
                own.append(ends)
        return owner, other_hi, other_lo, out, self.rel[rows], own

    def items(self) -> Iterator[tuple[int, tuple[uuid.UUID, uuid.UUID, str, float]]]:
        a = self.a
        for row in np.nonzero(self.alive)[0].tolist():
            yield int(a["e_id_hi"][row]) * _HALF + int(a["e_id_lo"][row]), self._base(row)
        yield from self.own.items()


@dataclass(frozen=True, slots=True)
class Link:
    """An open edge seen from `seed` (one of the asked ids); `other` is its other end."""

    seed: uuid.UUID
    other: uuid.UUID
    from_id: uuid.UUID
    to_id: uuid.UUID
    relation: str
    weight: float


@dataclass(frozen=True, slots=True)
class Ends:
    """Edges as `RecallIndex.linked_slots` finds them, one column a field: the place in the slots
    asked of the one each was found from, the slot of its other end (-1 for an end that is no
    live neuron of the identity: trashed, or not ours), whether it goes out of the one it was
    found from, and its relation."""

    owners: list[int]
    others: list[int]
    outs: list[bool]
    relations: list[str]


class RowIds(Sequence[uuid.UUID]):
    """The ids of a question's candidate rows, from their halves as the index held them (the
    index may change once the question lets it go): each made when it is read, as only the
    answer's few are."""

    __slots__ = ("_hi", "_lo")

    def __init__(self, hi: np.ndarray, lo: np.ndarray):
        self._hi, self._lo = hi, lo

    def __len__(self) -> int:
        return len(self._hi)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return _uuid(self._hi[i], self._lo[i])


class RecallIndex:
    def __init__(self, identity):
        self.identity = identity
        self.lock = threading.RLock()
        self.seen_seq: int | None = None
        self.cap = 0
        self.cols: dict[str, np.ndarray] = {name: np.zeros(0, dtype=dt) for name, (dt, _) in COLUMNS.items()}
        self.slots = 0  # slots in use or free; a slot is live when cols["live"] says so
        self.slot_of = _Slots(self.cols)  # the live neurons' ids -> their slots
        self.entries = _Entries(self)
        self.free: list[int] = []
        # lexeme -> the slots holding it; the lexeme strings are interned, one object per word
        self.postings = _Postings()
        self.lexemes = _Lexemes()  # per slot
        self.rrules: dict[int, str] = {}  # slot -> repeat rule, for the reminders that have one
        # slot -> a recurring reminder's series (made once, as it is read) and the attributes it
        # was made from (what a saved index keeps)
        self.series: dict[int, Series | None] = {}
        self.series_attrs: dict[int, dict[str, Any]] = {}
        self.contacts: dict[int, tuple[dict[str, Any], str]] = {}  # slot -> (attrs, body)
        self.zones: list[tzinfo] = []  # the time zones the store's dates came in
        self.model_names: list[str] = []
        self.blocks: list[np.ndarray] = []  # the vectors' codes, VECTOR_BLOCK rows each
        # the approximate step of the vector search (core/recall/nearest.py): None below its
        # size, or until `build_nearest` makes it; kept current by every vector written
        self.nearest: _nearest.Nearest | None = None
        self.nearest_min = _nearest.NEAREST_MIN
        self.nearest_candidates = _nearest.candidates
        # while the approximate step is made (without the lock): the vectors written meanwhile
        self._writes_meanwhile: list[tuple[int, np.ndarray]] | None = None
        # the languages of a sample of the notes (core/recall/candidates.py `language_sample`):
        # ((version, size) when sampled, the slots, the language of each); and each sampled slot's
        # reading with what it was read for (its id's halves, its number of words, its language)
        self.languages_sampled: tuple[tuple[int, int], np.ndarray, np.ndarray] | None = None
        self.languages_read: dict[int, tuple[int, int, float, str]] = {}
        self.version = 0
        self.edges_version = 0  # moves whenever an edge is read or let go
        # moves whenever a slot may come to hold another neuron (a neuron put or dropped, another
        # index taken): what was found as slots is found again
        self.generation = 0
        self._order: np.ndarray | None = None  # slots of non-contacts by creation time
        self._pos = np.zeros(0, dtype=np.int64)  # each slot's place in that order (-1: none)
        self._names = None
        self._names_version = -1
        self.contacts_version = 0  # moves only when a contact is put or dropped
        self._orgs: tuple[int, dict[str, int]] | None = None
        self._mask = np.zeros(0, dtype=bool)
        self._mask_key: tuple | None = None
        # the identity's open edges (an end may be trashed or not ours: what reads them skips
        # such ends)
        self.edges = _Edges()
        self.unsaved_reads = 0  # rows read from the store since the index was last saved or loaded
        # each slot's language (`written_in`) as a code into `_languages`, -1: not read yet
        self._written = np.full(0, -1, dtype=np.int8)
        self._languages: list[str] = []
        self._languages_filed = False  # the file's slots' languages read at once (`prepare`)

    @contextmanager
    def reading(self) -> Iterator[RecallIndex]:
        """Hold the index still while several looks at it must agree (a question's scoring, a
        person's links): a refresh waits until they are done."""
        with self.lock:
            yield self

    # -- keeping up with the store -------------------------------------------------------------

    def refresh(self, reader: Reader, seq_now: int | None) -> int:
        """Read what changed since the last look (everything the first time), and keep the
        planner's statistics of the recall tables current. Returns the neurons read."""
        margin = 0 if reader.engine == "embedded" else RESCAN_MARGIN_SERVER
        read = 0
        with self.lock:
            if self.seen_seq is not None and seq_now is not None and seq_now <= self.seen_seq:
                return 0
            since = None if self.seen_seq is None else max(self.seen_seq - margin, 0)
            if since is None:
                reader.keep_statistics(None)
            rows, top = reader.index_rows(since)
            seen, changed = max(top or 0, self.seen_seq or 0), False
            for row in rows:  # page by page: a page is indexed before the next is read
                if row["mine"] and row["state"] != "trashed":
                    self._put(row)
                else:
                    self._drop(row["id"])
                seen, changed = max(seen, row["change_seq"] or 0), True
                read += 1
                self.unsaved_reads += 1
            edges, top = reader.index_edges(since)
            seen = max(seen, top or 0)
            for edge in edges:
                if edge["keep"]:
                    self._put_edge(edge)
                else:
                    self._drop_edge(edge["id"])
                seen = max(seen, edge["change_seq"] or 0)
            # up to the stamp read before the rows: on a server the rows of another identity of
            # the role move its counter unseen (row-level security), and a seen number left
            # below it would read the rows again on every question
            self.seen_seq = max(seen, seq_now or 0)
            if changed:
                self.changed()
            reader.keep_statistics(len(self.slot_of))
        return read

    def prepare(self, model: str | None) -> None:
        """Make now what questions derive from every slot and keep until the next change: the
        contacts' names and organisations, the creation order, the mask of `model`'s vectors."""
        self.names()
        self.org_counts()
        self._creation_order()
        if model is not None:
            self.with_vector(model)
        self._file_languages()

    def _file_languages(self) -> None:
        """The language of every slot read from the index's file, at once (a question reads
        those of its candidates: one by one, ~150 new slots a question at 100k neurons, they
        were a few ms of its CPU); the slots written since are read as they are asked for."""
        if self._languages_filed:
            return
        self._languages_filed = True
        slots, found, names = self.lexemes.languages()
        if not slots.size:
            return
        codes = np.asarray([self._code(self._languages, name) for name in names], dtype=np.int8)
        self._grow_written(int(slots[-1]))
        unread = self._written[slots] < 0
        self._written[slots[unread]] = codes[found[unread]]

    def take(self, other: RecallIndex) -> None:
        """Become `other` (an index read from a file), keeping this one's lock and identity."""
        keep = {"lock", "identity", "entries", "nearest_min", "nearest_candidates", "generation"}
        for name, value in vars(other).items():
            if name not in keep:
                setattr(self, name, value)
        self.generation += 1

    def changed(self) -> None:
        """What is derived from every slot is made again when next asked for."""
        self.version += 1
        self.generation += 1
        self._order = None

    def _grow(self, need: int) -> None:
        while len(self.blocks) * VECTOR_BLOCK < need:
            self.blocks.append(np.zeros((VECTOR_BLOCK, DIM), dtype=VECTOR_CODE))
        if self.nearest is not None:
            self.nearest.grow(need)
        if need <= self.cap:
            return
        cap = max(1024, self.cap * 2, need)
        for name, (dtype, empty) in COLUMNS.items():
            old = self.cols[name]
            new = np.full(cap, empty, dtype=dtype)
            new[: len(old)] = old
            self.cols[name] = new  # (the same dict the slots' map reads)
        self.cap = cap

    def _code(self, table: list, value) -> int:
        try:
            return table.index(value)
        except ValueError:
            table.append(value)
            return len(table) - 1

    def _put(self, row: dict[str, Any]) -> None:
        nid = row["id"]
        c = self.cols
        slot = self.slot_of.get(nid)
        if row["kind"] == "contact" or (slot is not None and c["contact"][slot]):
            self.contacts_version += 1
        if slot is None:
            slot = self.free.pop() if self.free else self.slots
            if slot == self.slots:
                self.slots += 1
            self._grow(slot + 1)
            c = self.cols
            c["id_hi"][slot], c["id_lo"][slot] = _halves(nid)
            c["live"][slot] = True
            self.slot_of.put(nid, slot)
            old = None
        else:
            old = self.lexemes[slot]
        lexemes = tuple(sys.intern(lex) for lex in row["lexemes"] or ())
        self._unread_language(slot)
        # Only the words that changed move: a filled vector or a new state leaves the postings
        # alone (taking a slot out of a posting array is a linear scan of it).
        gone = set(old).difference(lexemes) if old is not None else ()
        added = set(lexemes).difference(old) if old is not None else lexemes
        self.lexemes[slot] = lexemes
        self._unpost(slot, gone)
        for lex in added:  # the row's lexemes are distinct
            self.postings.add(lex, slot)
        kind, state = row["kind"], row["state"]
        created_at: datetime = row["created_at"]
        due, done = row["due"], row.get("done")
        c["dl"][slot] = float(row["dl"] or 0)
        c["live"][slot] = True
        c["created"][slot] = created_at.timestamp()
        c["tz"][slot] = self._code(self.zones, created_at.tzinfo)
        c["due"][slot] = due.timestamp() if due is not None else np.inf
        c["done"][slot] = done.timestamp() if done is not None else np.inf
        c["kind"][slot], c["state"][slot] = _KIND_CODE[kind], _STATE_CODE[state]
        if row["rrule"]:
            self.rrules[slot] = row["rrule"]
        else:
            self.rrules.pop(slot, None)
        series_attrs = row.get("series")
        if series_attrs:
            self.series_attrs[slot] = series_attrs
            self.series[slot] = read_series(series_attrs)
        else:
            self.series_attrs.pop(slot, None)
            self.series.pop(slot, None)
        c["recurring"][slot] = bool(row["rrule"]) and due is not None
        c["contact"][slot], c["reminder"][slot], c["note"][slot] = (
            kind == "contact",
            kind == "reminder",
            kind == "note",
        )
        c["active"][slot], c["done_state"][slot] = state == "active", state == "done"
        if kind == "contact":
            self.contacts[slot] = (row["contact_attrs"] or {}, row["contact_body"] or "")
        else:
            self.contacts.pop(slot, None)
        span = said(row.get("note_head"), created_at) if kind == "note" else None
        c["said_from"][slot], c["said_to"][slot] = span or (np.inf, -np.inf)
        vec, model = row["vec"], row["embedding_model"]
        if vec is not None and len(vec) == 4 + 4 * DIM and model is not None:
            scale = self._encode(slot, np.frombuffer(vec, dtype=">f4", offset=4))
            c["vec_scale"][slot] = scale
            c["has_vec"][slot] = True
            c["model"][slot] = self._code(self.model_names, sys.intern(model))
        else:
            c["has_vec"][slot] = False
            c["model"][slot] = -1

    def _encode(self, slot: int, vec: np.ndarray) -> float:
        """Write `vec` into the slot's row as codes; returns its scale."""
        v = vec.astype(np.float32)
        top = float(np.abs(v).max()) if len(v) else 0.0
        scale = np.float32(top / CODE_MAX) if math.isfinite(top) and top > 0 else np.float32(0.0)
        row = self.blocks[slot // VECTOR_BLOCK][slot % VECTOR_BLOCK]
        row[:] = np.rint(v / scale) if scale > 0 else 0
        if self.nearest is not None:
            self.nearest.put(slot, v)
        if self._writes_meanwhile is not None:
            self._writes_meanwhile.append((slot, v))
        return float(scale)

    def _unpost(self, slot: int, lexemes) -> None:
        for lex in lexemes:
            self.postings.remove(lex, slot)

    def _drop(self, nid: uuid.UUID) -> None:
        slot = self.slot_of.pop(nid)
        if slot is None:
            return
        if self.cols["contact"][slot]:
            self.contacts_version += 1
        old = self.lexemes[slot]
        if old is not None:
            self._unpost(slot, old)
        self.lexemes[slot] = None
        self._unread_language(slot)
        self.rrules.pop(slot, None)
        self.series.pop(slot, None)
        self.series_attrs.pop(slot, None)
        self.contacts.pop(slot, None)
        for name, (_, empty) in COLUMNS.items():
            self.cols[name][slot] = empty
        self.free.append(slot)

    def at(self, slot: int) -> Entry:
        """The entry in a live slot (one `slot_of` or a live mask gave)."""
        entry = self.entry(slot)
        if entry is None:
            raise LookupError(f"slot {slot} of the recall index is free")
        return entry

    def id_at(self, slot: int) -> uuid.UUID | None:
        """The id of the neuron in `slot`; None for a free slot."""
        c = self.cols
        return _uuid(c["id_hi"][slot], c["id_lo"][slot]) if c["live"][slot] else None

    def entry(self, slot: int) -> Entry | None:
        nid = self.id_at(slot)
        if nid is None:
            return None
        c = self.cols
        said_from = float(c["said_from"][slot])
        model = int(c["model"][slot])
        return Entry(
            id=nid,
            kind=KINDS[c["kind"][slot]],
            state=STATES[c["state"][slot]],
            created=float(c["created"][slot]),
            tz=self.zones[c["tz"][slot]],
            due=float(c["due"][slot]),
            rrule=self.rrules.get(slot),
            series=self.series.get(slot),
            done=float(c["done"][slot]),
            said=(said_from, float(c["said_to"][slot])) if said_from != math.inf else None,
            contact=self.contacts.get(slot),
            lexemes=self.lexemes[slot] or (),
            model=self.model_names[model] if model >= 0 else None,
        )

    def _put_edge(self, row: dict[str, Any]) -> None:
        self.edges_version += 1
        weight = float(row["weight"])
        self.edges.put(
            row["id"].int,
            (row["from_node_id"], row["to_node_id"], sys.intern(row["relation_type"]), weight),
        )

    def _drop_edge(self, edge_id: uuid.UUID) -> None:
        self.edges_version += 1
        self.edges.drop(edge_id.int)

    def links(self, ids, relations=None) -> list[Link]:
        """The open edges touching `ids` (either end), of `relations` (any when None), seen from
        each id, whatever the other end is (see `live`)."""
        return [link for found in self.links_each(ids, relations) for link in found]

    def links_each(self, ids, relations=None) -> list[list[Link]]:
        """`links` of each of `ids` on its own, found for all of them at once."""
        wanted = None if relations is None else {getattr(r, "value", r) for r in relations}
        seeds = list(ids)
        return [
            [Link(seed, b if a == seed else a, a, b, relation, weight) for a, b, relation, weight in edges]
            for seed, edges in zip(seeds, self.edges.touching_all(seeds, wanted), strict=True)
        ]

    def edges_of_slots(self, slots: list[int], relations: set[str] | None = None):
        """For each live slot of `slots`, its open edges (from, to, relation, weight) of
        `relations` (any when None): `links_each` without a Link, or a UUID for a slot that has
        none."""
        at = np.asarray(slots, dtype=np.int64)
        return self.edges.touching_halves(self.cols["id_hi"][at], self.cols["id_lo"][at], relations)

    def linked_slots(self, slots: list[int], relations=None) -> Ends:
        """The open edges touching each live slot of `slots` (of `relations`, any when None), in
        `links_each`'s order, as `Ends`: no Link, and no UUID for an edge of the file's."""
        wanted = None if relations is None else {getattr(r, "value", r) for r in relations}
        at = np.asarray(slots, dtype=np.int64)
        c, edges = self.cols, self.edges
        owner, other_hi, other_lo, out, rel, own = edges.ends_halves(c["id_hi"][at], c["id_lo"][at], wanted)
        other = self.slot_of.of_halves(other_hi, other_lo)
        names = edges.relations
        found = Ends(owner.tolist(), other.tolist(), out.tolist(), [names[r] for r in rel.tolist()])
        if not any(own):
            return found
        # each one's file edges, then those written since
        by_owner: list[list[tuple[int, int, bool, str]]] = [[] for _ in slots]
        for edge in zip(found.owners, found.others, found.outs, found.relations, strict=True):
            by_owner[edge[0]].append(edge)
        for i, ends in enumerate(own):
            for end, going, relation in ends:
                slot = self.slot_of.get(end)
                by_owner[i].append((i, -1 if slot is None else slot, going, relation))
        merged = [edge for edges_of in by_owner for edge in edges_of]
        return (
            Ends(*(list(column) for column in zip(*merged, strict=True))) if merged else Ends([], [], [], [])
        )

    def ids_at(self, slots) -> list[uuid.UUID]:
        """The ids of live `slots`."""
        c = self.cols
        at = np.asarray(slots, dtype=np.int64)
        return [
            uuid.UUID(int=hi * _HALF + lo)
            for hi, lo in zip(c["id_hi"][at].tolist(), c["id_lo"][at].tolist(), strict=True)
        ]

    def written_in(self, slot: int) -> str:
        """The language a slot's words are written in (`stopwords.written_in`), read once while
        the slot holds the same neuron as it is (a write to the slot reads it again)."""
        self._grow_written(slot)
        code = int(self._written[slot])
        if code < 0:
            code = self._code(self._languages, written_in(self.lexemes[slot] or ()))
            self._written[slot] = code
        return self._languages[code]

    def _grow_written(self, slot: int) -> None:
        if slot >= len(self._written):
            grown = np.full(max(1024, 2 * len(self._written), slot + 1), -1, dtype=np.int8)
            grown[: len(self._written)] = self._written
            self._written = grown

    def _unread_language(self, slot: int) -> None:
        if slot < len(self._written):
            self._written[slot] = -1

    def __contains__(self, nid: object) -> bool:
        """Whether `nid` is a live neuron of the identity (not trashed)."""
        return nid in self.slot_of

    def slot(self, nid: uuid.UUID) -> int | None:
        """The slot of a live neuron of the identity; None for any other id."""
        return self.slot_of.get(nid)

    def live(self, nid: uuid.UUID) -> Entry | None:
        """The entry of a neuron of the identity that is not trashed; None for any other id."""
        slot = self.slot_of.get(nid)
        return self.entry(slot) if slot is not None else None

    def holding(self, lexeme_sets, exclude=(), limit: int = 200) -> list[uuid.UUID]:
        """The ids of the neurons holding every lexeme of any of `lexeme_sets` (a name as words:
        a phrase without its word order), not in `exclude`, newest first."""
        left_out = {self.slot_of[nid] for nid in exclude if nid in self.slot_of}
        return self.ids_at(self.holding_slots(lexeme_sets, left_out, limit))

    def holding_slots(self, lexeme_sets, exclude=(), limit: int = 200) -> list[int]:
        """`holding` as the live slots, of slots not in `exclude`."""
        held = [s for s in self.slots_holding(lexeme_sets) if s not in exclude]
        if not held:
            return []
        order = np.argsort(-self.cols["created"][held], kind="stable")[:limit].tolist()
        live = self.cols["live"]
        return [held[i] for i in order if live[held[i]]]

    def active_notes_sharing(self, terms: list[str], limit: int) -> list[uuid.UUID]:
        """The active notes holding the most of `terms` (lexemes), then the newest: the ids of the
        first `limit`, as `recall_sql.active_with(..., most_shared=True)` finds them in the store
        (which a server's row-level security makes scan the table: `@@` is not leakproof)."""
        n = self.size
        shared = np.zeros(n, dtype=np.int32)
        for term in set(terms):
            slots = self.postings.get(term)
            if slots is not None and len(slots):
                shared[np.frombuffer(slots, dtype=np.intc) if isinstance(slots, array) else slots] += 1
        c = self.cols
        held = np.flatnonzero((shared > 0) & c["live"][:n] & c["note"][:n] & c["active"][:n])
        order = np.lexsort((-c["created"][held], -shared[held]))[:limit]
        return self.ids_at(held[order])

    def frequency(self, lexeme: str) -> int:
        """How many live neurons hold `lexeme` (its document frequency)."""
        posted = self.postings.get(lexeme)
        return 0 if posted is None else len(posted)

    def slots_holding(self, lexeme_sets) -> set[int]:
        slots: set[int] = set()
        for lexemes in lexeme_sets:
            found: set[int] | None = None
            for lex in lexemes:
                posted = self.postings.get(lex)
                if posted is not None and not isinstance(posted, array):
                    posted = posted.tolist()
                found = set() if not posted else set(posted) if found is None else found & set(posted)
                if not found:
                    break
            slots |= found or set()
        return slots

    # -- scoring -------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self.slots

    def count(self) -> int:
        return len(self.slot_of)

    def bm25(self, terms: list[str], k1: float, b: float) -> tuple[np.ndarray, float]:
        """(BM25 of every slot over term presence, the question's total idf)."""
        n = self.size
        scores = np.zeros(n, dtype=np.float64)
        live = self.cols["live"][:n]
        total = int(live.sum())
        if not terms or total == 0:
            return scores, 0.0
        lengths = self.cols["dl"]
        avgdl = max(float(lengths[:n][live].mean()), 1.0)
        idf_sum = 0.0
        for term in terms:
            slots = self.postings.get(term)
            df = 0 if slots is None else len(slots)
            idf = math.log(1 + (total - df + 0.5) / (df + 0.5))
            idf_sum += idf
            if not df:
                continue
            idx = np.frombuffer(slots, dtype=np.intc) if isinstance(slots, array) else slots
            dl = lengths[idx]
            scores[idx] += idf * (k1 + 1) / (1 + k1 * (1 - b + b * dl / avgdl))
        return scores, idf_sum

    def with_vector(self, model: str) -> np.ndarray:
        """Mask of the live slots holding a vector of `model` (cached per index version)."""
        key = (self.version, model, self.size)
        if self._mask_key != key:
            n = self.size
            code = self.model_names.index(model) if model in self.model_names else -2
            self._mask = self.cols["has_vec"][:n] & self.cols["live"][:n] & (self.cols["model"][:n] == code)
            self._mask_key = key
        return self._mask

    def codes(self, n: int):
        """The vectors' codes of slots 0..n-1, block by block: (first slot, rows)."""
        for k, block in enumerate(self.blocks):
            first = k * VECTOR_BLOCK
            if first >= n:
                return
            yield first, block[: min(VECTOR_BLOCK, n - first)]

    def unscaled(self, n: int):
        """The codes of slots 0..n-1 as float32, SCAN_CHUNK rows at a time: (first slot, rows),
        the rows in one buffer that the next chunk overwrites. A row times its `vec_scale` is
        its vector."""
        buf = np.empty((SCAN_CHUNK, DIM), dtype=np.float32)
        for first, block in self.codes(n):
            for at in range(0, len(block), SCAN_CHUNK):
                part = block[at : at + SCAN_CHUNK]
                rows = buf[: len(part)]
                np.copyto(rows, part)
                yield first + at, rows

    def vector(self, slot: int) -> np.ndarray:
        """The slot's vector (float32, as its codes keep it)."""
        row = self.blocks[slot // VECTOR_BLOCK][slot % VECTOR_BLOCK]
        return row.astype(np.float32) * self.cols["vec_scale"][slot]

    def cosine(self, qvec: np.ndarray | None, model: str | None) -> np.ndarray | None:
        """Cosine of every slot to the question (NaN without a vector of `model`)."""
        if qvec is None or model is None:
            return None
        n = self.size
        ok = self.with_vector(model)
        # chunk by chunk into one array: slots without a vector hold zeros, masked after (a
        # gather of the rows with a vector would copy the matrix first: ~20 ms at 10k); numpy's
        # own loops, not BLAS: one thread, where OpenBLAS's threads took 5-10 ms on a busy
        # machine (vecdot, numpy 2: 12 ms at 100k where einsum took 18)
        q = qvec.astype(np.float32)
        out32 = np.empty(n, dtype=np.float32)
        for first, rows in self.unscaled(n):
            _rows_dot(rows, q, out32[first : first + len(rows)])
        out32 *= self.cols["vec_scale"][:n]
        out = out32.astype(np.float64)
        out[~ok] = np.nan
        return out

    def cosines_of(self, qvec: np.ndarray, slots, model: str) -> np.ndarray:
        """The exact cosines of `slots` to the question, as `cosine` gives them (NaN without a
        vector of `model`): their rows gathered block by block."""
        slots = np.asarray(slots, dtype=np.int64)
        out = np.full(len(slots), np.nan)
        if not len(slots):
            return out
        ok = self.with_vector(model)[slots]
        order = np.argsort(slots, kind="stable")
        ordered = slots[order]
        q = qvec.astype(np.float32)
        got = np.empty(len(slots), dtype=np.float32)
        cuts = np.searchsorted(ordered, np.arange(len(self.blocks) + 1) * VECTOR_BLOCK)
        for k in range(len(self.blocks)):
            a, b = int(cuts[k]), int(cuts[k + 1])
            if a < b:
                rows = self.blocks[k][ordered[a:b] - k * VECTOR_BLOCK].astype(np.float32)
                _rows_dot(rows, q, got[a:b])
        got *= self.cols["vec_scale"][ordered]
        out[order] = got
        out[~ok] = np.nan
        return out

    def nearest_cosine(self, qvec: np.ndarray, model: str) -> tuple[np.ndarray, np.ndarray | None]:
        """(cosine of every slot to the question, which of them are exact): through the
        approximate step when it is built for `model` and the store is past its size -- the
        candidates it finds scored exactly, the rest given their estimate capped below the
        candidates' lowest (`settle` them with `cosines_of` before they are ranked) -- else the
        exact scan, every slot exact (None)."""
        near = self.nearest
        code = self.model_names.index(model) if model in self.model_names else -2
        ok = self.with_vector(model)
        count = int(ok.sum())
        if near is None or near.model != code or count < max(self.nearest_min, 1):
            cos = self.cosine(qvec, model)
            assert cos is not None
            return cos, None
        n = self.size
        estimate = near.estimate(qvec, n)
        estimate[~ok] = -np.inf
        take = min(self.nearest_candidates(count), count)
        found = np.argpartition(-estimate, take - 1)[:take]
        exact = self.cosines_of(qvec, found, model)
        out = np.minimum(estimate.astype(np.float64), float(np.nanmin(exact)))
        out[found] = exact
        out[~ok] = np.nan
        settled = np.zeros(n, dtype=bool)
        settled[found] = True
        return out, settled

    def build_nearest(self, model: str | None, progress=None) -> bool:
        """Make the approximate step for `model`'s vectors when the store is past its size and
        it is missing, of another model, or fitted on less than half of today's vectors; drop it
        below that size. `progress(done, total)` hears how far the build is once it takes a
        second. True if it was made. It is made without holding the index (a question meanwhile
        scans exactly, rather than wait seconds on a busy machine): the vectors written while it
        is made are put into it before it is used, and one made for an index let go since is
        dropped."""
        with self.lock:
            if model is None or model not in self.model_names:
                self.nearest = None
                return False
            code = self.model_names.index(model)
            ok = self.with_vector(model)
            count = int(ok.sum())
            if count < max(self.nearest_min, 1):
                self.nearest = None
                return False
            near = self.nearest
            if near is not None and near.model == code and 2 * near.fitted_on >= count:
                return False
            if self._writes_meanwhile is not None:
                return False  # (being made already)
            mine: list[tuple[int, np.ndarray]] = []
            self._writes_meanwhile = mine
            blocks, scale, slots, size = self.blocks, self.cols["vec_scale"], np.nonzero(ok)[0], self.size

        def rows(picked: np.ndarray) -> np.ndarray:
            # (a row written meanwhile may be read half written: it is put again below)
            out = np.empty((len(picked), DIM), dtype=np.float32)
            for k in np.unique(picked // VECTOR_BLOCK).tolist():
                mine = picked // VECTOR_BLOCK == k
                out[mine] = blocks[k][picked[mine] % VECTOR_BLOCK]
            out *= scale[picked][:, None]
            return out

        try:
            made = _nearest.build(rows, slots, size, code, VECTOR_BLOCK, progress=progress)
        finally:
            with self.lock:
                ours = self._writes_meanwhile is mine
                if ours:
                    self._writes_meanwhile = None
        with self.lock:
            if self.blocks is not blocks or not ours:
                return False  # the index was let go (or read back) meanwhile
            for slot, vec in mine:
                made.put(slot, vec)
            made.grow(len(self.blocks) * VECTOR_BLOCK)
            self.nearest = made
            return True

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
        theirs = [self.vector(s) for s in own]
        # one row of products per vector of `slots`, over each chunk while it is in the cache;
        # numpy's one-thread loops, as the cosine scan (a matmul of the chunk by the few vectors
        # went to BLAS's threads: four times the CPU)
        sims = np.empty((len(own), n), dtype=np.float32)
        for first, rows in self.unscaled(n):
            for j, theirs_j in enumerate(theirs):
                _rows_dot(rows, theirs_j, sims[j, first : first + len(rows)])
        sims *= self.cols["vec_scale"][:n]
        keep = ok & ~self.cols["contact"][:n]
        keep[own] = False
        best[keep] = sims.max(axis=0)[keep]
        nearest[keep] = np.asarray(own)[sims.argmax(axis=0)][keep]
        return best, nearest

    def sitting(self, slot: int, seconds: float) -> list[int]:
        """The non-contact neurons captured just before and just after `slot`, within `seconds`."""
        if not self.cols["live"][slot] or self.cols["contact"][slot]:
            return []
        order = self._creation_order()
        pos = int(self._pos[slot]) if slot < len(self._pos) else -1
        if pos < 0:
            return []
        created = self.cols["created"]
        out = []
        for step in (-1, 1):
            j = pos + step
            if 0 <= j < len(order):
                other = int(order[j])
                if abs(created[other] - created[slot]) <= seconds:
                    out.append(other)
        return out

    def _creation_order(self) -> np.ndarray:
        """The non-contact slots by creation time, then by id (as its text sorts)."""
        if self._order is None:
            idx = np.nonzero(self.non_contacts())[0]
            c = self.cols
            self._order = idx[np.lexsort((c["id_lo"][idx], c["id_hi"][idx], c["created"][idx]))]
            self._pos = np.full(self.size, -1, dtype=np.int64)
            self._pos[self._order] = np.arange(len(self._order))
        return self._order

    def non_contacts(self) -> np.ndarray:
        """Mask of the live slots that are notes or reminders."""
        n = self.size
        return self.cols["live"][:n] & ~self.cols["contact"][:n]

    def date_arrays(self) -> tuple[np.ndarray, ...]:
        """(created, due, done) as POSIX seconds (+inf: none), the recurring mask, and the span a
        note says it is about (+inf, -inf: none), per slot."""
        n, c = self.size, self.cols
        return (
            c["created"][:n],
            c["due"][:n],
            c["done"][:n],
            c["recurring"][:n],
            c["said_from"][:n],
            c["said_to"][:n],
        )

    def kind_masks(self) -> tuple[np.ndarray, ...]:
        """Per slot: is a reminder, is a note, is active, is done (a reminder's state)."""
        n, c = self.size, self.cols
        return c["reminder"][:n], c["note"][:n], c["active"][:n], c["done_state"][:n]

    def contact_slots(self) -> list[int]:
        """The slots of the live contacts."""
        return np.nonzero(self.cols["contact"][: self.size])[0].tolist()

    def org_counts(self) -> dict[str, int]:
        """How many contacts give each organisation (cached per index version)."""
        if self._orgs is None or self._orgs[0] != self.version:
            self._orgs = (self.version, org_counts(self.contacts[s][0] for s in self.contact_slots()))
        return self._orgs[1]

    def names(self):
        """A NameIndex over the identity's contacts (rebuilt when a contact changed)."""
        if self._names is None or self._names_version != self.contacts_version:
            self._names = NameIndex(
                (nid, *self.contacts[s]) for s in self.contact_slots() if (nid := self.id_at(s)) is not None
            )
            self._names_version = self.contacts_version
        return self._names
