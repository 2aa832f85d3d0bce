"""The recall index kept in a file between runs, so that a start reads only what changed since.

At 100k neurons building the index from the store takes tens of seconds (the rows and their
vectors through the engine's socket, the time words of every note); reading this file back takes
well under a second. The store stays the truth: the file names the store and identity it was made
from and the last change number it saw; a file of another store, identity, version of the app or
format, or one the store's change numbers have not reached, is not used (the index is read from
the store as before). A row the store deletes outright would linger in it: only a restore does,
and it lets the file go.

One file: MAGIC, the length of a JSON header, the header (what the arrays are and where), then the
arrays, raw little-endian, each at a multiple of ALIGN. Written beside its place, fsynced and
renamed over it, private (0600) like everything in the data dir; plain numbers and JSON only.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import sys
from dataclasses import dataclass
from datetime import UTC, timedelta, timezone, tzinfo
from pathlib import Path
from typing import Any, BinaryIO
from zoneinfo import ZoneInfo

import numpy as np

from core import __version__
from core.embed.runtime import DIM
from core.recall.index import (
    COLUMNS,
    VECTOR_CODE,
    RecallIndex,
    _Edges,
    _IdTable,
    _Lexemes,
    _Postings,
    _Slots,
    read_series,
)

log = logging.getLogger(__name__)

MAGIC = b"NEURONS-RECALL-INDEX\n\x00\x00\x00"
FORMAT = 3  # 2: the recurring reminders' series; 3: the vectors as codes and scales
ALIGN = 64
# Below this many neurons the index is read from the store (a second or less): no file.
MIN_NEURONS = 2000
_HALF = 1 << 64
_EDGE_IDS = ("e_id", "e_from", "e_to")


def _zone(tz: tzinfo) -> dict[str, Any] | None:
    if isinstance(tz, ZoneInfo):
        return {"zone": tz.key}
    if isinstance(tz, timezone):
        offset = tz.utcoffset(None)
        return {"offset": offset.total_seconds()} if offset is not None else None
    return None


def _tz(spec: dict[str, Any]) -> tzinfo:
    if "zone" in spec:
        return ZoneInfo(str(spec["zone"]))
    offset = float(spec["offset"])
    return UTC if offset == 0 else timezone(timedelta(seconds=offset))


def _le(dtype) -> np.dtype:
    return np.dtype(dtype).newbyteorder("<")


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


# -- writing --------------------------------------------------------------------------------------


def save(index: RecallIndex, path: Path, key: dict[str, Any]) -> bool:
    """Write `index` (the caller holds its lock) to `path` for the store and identity `key`
    names; False when it cannot be (a time zone it cannot name, a full disk: it stays unsaved)."""
    zones = [_zone(tz) for tz in index.zones]
    if any(z is None for z in zones) or index.seen_seq is None:
        return False
    n = index.size
    terms: dict[str, int] = {}
    starts = np.zeros(n + 1, dtype=np.int64)
    flat: list[int] = []
    for slot in range(n):
        for lex in index.lexemes[slot] or ():
            flat.append(terms.setdefault(lex, len(terms)))
        starts[slot + 1] = len(flat)
    every_edge = list(index.edges.items())
    relations = sorted({edge[2] for _, edge in every_edge})
    code = {r: i for i, r in enumerate(relations)}
    m = len(every_edge)
    edges = {f"{name}_{half}": np.zeros(m, dtype=np.uint64) for name in _EDGE_IDS for half in ("hi", "lo")}
    rel, weight = np.zeros(m, dtype=np.uint8), np.zeros(m, dtype=np.float64)
    for i, (eid, (a, b, relation, w)) in enumerate(every_edge):
        for name, value in zip(_EDGE_IDS, (eid, a.int, b.int), strict=True):
            edges[f"{name}_hi"][i], edges[f"{name}_lo"][i] = divmod(value, _HALF)
        rel[i], weight[i] = code[relation], w
    arrays: dict[str, np.ndarray] = {name: index.cols[name][:n] for name in COLUMNS}
    arrays.update(
        lex_starts=starts,
        lex_terms=np.asarray(flat, dtype=np.int32),
        terms=np.frombuffer("\x00".join(terms).encode("utf-8"), dtype=np.uint8),
        e_rel=rel,
        e_weight=weight,
        **edges,
    )
    specs: dict[str, dict[str, Any]] = {}
    offset = 0
    for name, arr in arrays.items():
        specs[name] = {"dtype": _le(arr.dtype).str, "shape": list(arr.shape), "offset": offset}
        offset += _aligned(arr.nbytes)
    specs["vectors"] = {"dtype": _le(VECTOR_CODE).str, "shape": [n, DIM], "offset": offset}
    header = {
        "format": FORMAT,
        "app": __version__,
        "key": key,
        "slots": n,
        "live": len(index.slot_of),
        "seen_seq": index.seen_seq,
        "version": index.version,
        "contacts_version": index.contacts_version,
        "free": index.free,
        "zones": zones,
        "models": index.model_names,
        "relations": relations,
        "terms": len(terms),
        "rrules": sorted(index.rrules.items()),
        "series": sorted(index.series_attrs.items()),
        "contacts": [[slot, attrs, body] for slot, (attrs, body) in sorted(index.contacts.items())],
        "arrays": specs,
    }
    head = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    start = _aligned(len(MAGIC) + 8 + len(head))
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + len(head).to_bytes(8, "little") + head)
            for name, arr in arrays.items():
                f.seek(start + specs[name]["offset"])
                f.write(arr.astype(_le(arr.dtype), copy=False).tobytes())
            f.seek(start + specs["vectors"]["offset"])
            for _, rows in index.codes(n):
                f.write(rows.astype(_le(VECTOR_CODE), copy=False).tobytes())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        return True
    except OSError as exc:
        log.warning("could not save the recall index to %s: %s", path, exc)
        with contextlib.suppress(OSError):
            tmp.unlink()
        return False


# -- reading --------------------------------------------------------------------------------------


class _File:
    """The arrays of an index file, read one by one, each checked against the header."""

    def __init__(self, f: BinaryIO, header: dict[str, Any], start: int):
        self.f, self.specs, self.start = f, header["arrays"], start
        self.size = os.fstat(f.fileno()).st_size

    def array(self, name: str, dtype, shape: tuple[int, ...] | None = None, rows: slice | None = None):
        spec = self.specs[name]
        want = _le(dtype)
        if spec["dtype"] != want.str or (shape is not None and tuple(spec["shape"]) != shape):
            raise ValueError(f"{name} is not {want.str} {shape}")
        full = tuple(int(d) for d in spec["shape"])
        row_items = math.prod(full[1:])
        first, last = (0, full[0]) if rows is None else (rows.start, rows.stop)
        at = self.start + int(spec["offset"]) + first * row_items * want.itemsize
        count = (last - first) * row_items
        if at + count * want.itemsize > self.size:
            raise ValueError(f"{name} lies past the end of the file")
        self.f.seek(at)
        arr = np.fromfile(self.f, dtype=want, count=count)
        return arr.reshape((last - first, *full[1:])).astype(np.dtype(dtype).newbyteorder("="), copy=False)


def load(path: Path, key: dict[str, Any], identity) -> RecallIndex | None:
    """The index saved at `path` for `key`, or None (no file; another store, identity, version of
    the app or format; damaged: the caller reads the store)."""
    return _read(path, key, identity).index


@dataclass(frozen=True)
class Ahead:
    """An index file read before its store could say whose it is (its engine still starting):
    `key` is the store and identity the file names, `index` what it holds (None: no file, or not
    usable). Only `Recall.restore` takes it, once the store vouches for `key`; `stamp` tells
    whether the file was replaced since (then it is read again)."""

    path: Path
    stamp: tuple[int, int, int] | None
    key: Any
    index: RecallIndex | None


def read_ahead(path: Path, identity) -> Ahead:
    """The file at `path` read whatever store it names (checked later, by `Recall.restore`)."""
    return _read(path, None, identity)


def stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells one version of the file at `path` from another (None: no file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def _read(path: Path, key: dict[str, Any] | None, identity) -> Ahead:
    """The file at `path`; with `key`, only if it names that store and identity."""
    said, at = None, None
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            at = (st.st_ino, st.st_size, st.st_mtime_ns)
            if f.read(len(MAGIC)) != MAGIC:
                raise ValueError("not an index file")
            length = int.from_bytes(f.read(8), "little")
            if not 0 < length < 1 << 30:
                raise ValueError("a damaged header")
            header = json.loads(f.read(length).decode("utf-8"))
            said = header.get("key")
            if header.get("format") != FORMAT or header.get("app") != __version__:
                return Ahead(path, at, said, None)
            if key is not None and said != key:
                return Ahead(path, at, said, None)
            index = _build(header, _File(f, header, _aligned(len(MAGIC) + 8 + length)), identity)
            return Ahead(path, at, said, index)
    except FileNotFoundError:
        return Ahead(path, None, None, None)
    except (OSError, ValueError, KeyError, TypeError, IndexError, UnicodeError, AttributeError) as exc:
        log.warning("the saved recall index %s is not usable (%s); reading the store", path, exc)
        return Ahead(path, at, said, None)


def _build(header: dict[str, Any], file: _File, identity) -> RecallIndex:
    """The index as the file holds it: its columns, ids, lexemes, postings and edges kept as the
    arrays read (searched with numpy), not turned into a Python object a row."""
    n = int(header["slots"])
    index = RecallIndex(identity)
    index._grow(n)
    for name, (dtype, _) in COLUMNS.items():
        index.cols[name][:n] = file.array(name, dtype, (n,))
    for first, block in index.codes(n):  # straight into the index's blocks
        block[:] = file.array("vectors", VECTOR_CODE, (n, DIM), slice(first, first + len(block)))
    index.slots = n
    free = np.asarray([int(s) for s in header["free"]], dtype=np.int64)
    live = np.ones(n, dtype=bool)
    if len(free) and ((free < 0) | (free >= n)).any():
        raise ValueError("a free slot past the end")
    live[free] = False
    if int(live.sum()) != int(header["live"]) or not np.array_equal(index.cols["live"][:n], live):
        raise ValueError("the slots do not add up")
    slots = np.nonzero(live)[0]
    index.slot_of = _Slots(
        index.cols, _IdTable(index.cols["id_hi"][slots], index.cols["id_lo"][slots], slots), len(slots)
    )
    index.free = free.tolist()
    blob = file.array("terms", np.uint8).tobytes().decode("utf-8")
    terms = [sys.intern(t) for t in blob.split("\x00")] if header["terms"] else []
    if len(terms) != int(header["terms"]):
        raise ValueError("the lexemes do not add up")
    starts = file.array("lex_starts", np.int64, (n + 1,))
    flat = file.array("lex_terms", np.int32)
    if (
        starts[0] != 0
        or starts[-1] != len(flat)
        or (np.diff(starts) < 0).any()
        or (flat >= len(terms)).any()
        or (flat < 0).any()
        or (np.diff(starts)[free] != 0).any()
    ):
        raise ValueError("the lexemes do not add up")
    index.lexemes = _Lexemes(terms, starts, flat)
    # the postings: the slots holding each lexeme, in slot order, grouped by lexeme
    owners = np.repeat(np.arange(n, dtype=np.intc), np.diff(starts))
    # a stable sort of 16-bit codes is numpy's radix sort: ~10x faster than of int32 at 100k
    order = np.argsort(flat.astype(np.uint16) if len(terms) <= 1 << 16 else flat, kind="stable")
    cuts = np.searchsorted(flat[order], np.arange(len(terms) + 1))
    code = dict(zip(terms, range(len(terms)), strict=True))
    index.postings = _Postings(code, cuts, np.ascontiguousarray(owners[order]))
    index.rrules = {int(s): str(r) for s, r in header["rrules"]}
    index.series_attrs = {int(s): dict(a) for s, a in header["series"]}
    index.series = {s: read_series(a) for s, a in index.series_attrs.items()}  # made again, once
    index.contacts = {int(s): (dict(a), str(b)) for s, a, b in header["contacts"]}
    index.zones = [_tz(z) for z in header["zones"]]
    index.model_names = [sys.intern(str(m)) for m in header["models"]]
    if (index.cols["tz"][:n] >= max(len(index.zones), 1)).any() or (
        index.cols["model"][:n] >= len(index.model_names)
    ).any():
        raise ValueError("a code past its table")
    relations = [sys.intern(str(r)) for r in header["relations"]]
    arrays = {
        f"{name}_{half}": file.array(f"{name}_{half}", np.uint64)
        for name in _EDGE_IDS
        for half in ("hi", "lo")
    }
    arrays["e_rel"] = file.array("e_rel", np.uint8)
    arrays["e_weight"] = file.array("e_weight", np.float64)
    if len({len(a) for a in arrays.values()}) > 1:
        raise ValueError("the edges do not add up")
    if int(arrays["e_rel"].max(initial=0)) >= max(len(relations), 1):
        raise ValueError("a code past its table")
    index.edges = _Edges(arrays, relations)
    index.seen_seq = int(header["seen_seq"])
    index.version = int(header["version"])
    index.contacts_version = int(header["contacts_version"])
    return index
