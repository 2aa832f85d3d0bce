"""The model's token table, read from the .onnx file through a read-only memory map.

A token table is most of a sentence model (MiniLM's 30522 x 384 float32, ~45 MB; e5's 250,037 rows,
kept as int8 rows and float16 scales, ~102 MB), and a question reads a dozen of its rows. Handed to
onnxruntime as initializers that live in a mapping of the model file, it is no longer copied into the
session's memory: only the pages of the rows read become resident, and `MappedTable.shed()` gives
those back after each call. The numbers are the file's own bytes, so the vectors are bit for bit the
same as with the table inside the session.

The initializers are found by walking the ONNX protobuf (ModelProto.graph -> GraphProto.initializer ->
TensorProto name/dims/data_type/raw_data): no `onnx` package at run time. Which ones to map is the
model manifest's "mapped" list.
"""

from __future__ import annotations

import mmap
from pathlib import Path
from typing import Any

import numpy as np

# The exported MiniLM's token table (core.embed.export, torch's name for it).
WORD_EMBEDDINGS = "bert.embeddings.word_embeddings.weight"
# TensorProto.DataType -> numpy, for the types a table is kept in
DTYPES = {1: "<f4", 2: "u1", 3: "i1", 10: "<f2"}
# protobuf field numbers
_MODEL_GRAPH, _GRAPH_INITIALIZER = 7, 5
_TENSOR_DIMS, _TENSOR_TYPE, _TENSOR_NAME, _TENSOR_RAW = 1, 2, 8, 9
_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5


def _varint(buf, i: int) -> tuple[int, int]:
    shift = value = 0
    while True:
        byte = buf[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
        shift += 7


def _fields(buf, start: int, end: int):
    """(field number, wire type, value or start, end or None) of one protobuf message."""
    i = start
    while i < end:
        key, i = _varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == _VARINT:
            value, i = _varint(buf, i)
            yield number, wire, value, None
        elif wire == _BYTES:
            size, i = _varint(buf, i)
            yield number, wire, i, i + size
            i += size
        elif wire in (_FIXED64, _FIXED32):
            yield number, wire, i, None
            i += 8 if wire == _FIXED64 else 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")


def _tensor(buf, start: int, end: int) -> dict:
    t: dict = {"dims": []}
    for number, wire, a, b in _fields(buf, start, end):
        if number == _TENSOR_DIMS and wire == _VARINT:
            t["dims"].append(a)
        elif number == _TENSOR_DIMS and wire == _BYTES:  # packed dims
            i = a
            while i < b:
                dim, i = _varint(buf, i)
                t["dims"].append(dim)
        elif number == _TENSOR_TYPE and wire == _VARINT:
            t["type"] = a
        elif number == _TENSOR_NAME and wire == _BYTES:
            t["name"] = bytes(buf[a:b]).decode("utf-8", "replace")
        elif number == _TENSOR_RAW and wire == _BYTES:
            t["raw"] = (a, b)
    return t


def find_raw(buf, name: str) -> tuple[tuple[int, ...], int, int, str] | None:
    """(dims, offset, size, numpy dtype) of the initializer `name`'s raw bytes in an ONNX model, or
    None (not there, or not plain bytes of a type in DTYPES)."""
    for number, wire, a, b in _fields(buf, 0, len(buf)):
        if number != _MODEL_GRAPH or wire != _BYTES:
            continue
        for g_number, g_wire, ga, gb in _fields(buf, a, b):
            if g_number != _GRAPH_INITIALIZER or g_wire != _BYTES:
                continue
            t = _tensor(buf, ga, gb)
            if t.get("name") != name:
                continue
            dtype = DTYPES.get(t.get("type", 0))
            if dtype is None or "raw" not in t or not t["dims"]:
                return None
            (lo, hi), dims = t["raw"], tuple(t["dims"])
            return (
                (dims, lo, hi - lo, dtype)
                if hi - lo == np.dtype(dtype).itemsize * int(np.prod(dims))
                else None
            )
    return None


class MappedTable:
    """Initializers of the model file, mapped read-only, with what onnxruntime reads of them.

    It owns, in this order of need: the mapping, the numpy arrays over it, and (once the caller sets
    them) the OrtValues handed to the session. The session reads the arrays' bytes without holding
    any of them, so its owner (runtime.Embedder) frees the session first and then calls `close()`;
    nothing here is left to the garbage collector (no `__del__`, no cycles)."""

    def __init__(self, arrays: dict[str, np.ndarray], mapping: mmap.mmap):
        self.arrays: dict[str, np.ndarray] = arrays
        self.values: dict[str, Any] = {}  # the OrtValue over each array, set by whoever makes them
        self._map = mapping

    @property
    def names(self) -> list[str]:
        return list(self.arrays)

    def shed(self) -> None:
        """Drop the tables' resident pages (they come back from the page cache when read)."""
        if hasattr(mmap, "MADV_DONTNEED") and not self._map.closed:
            self._map.madvise(mmap.MADV_DONTNEED)

    def close(self) -> None:
        """Let go of the OrtValues and the arrays, then unmap; only once no session reads them.
        A view someone else still holds keeps the mapping (mmap refuses to close under it) until
        that view goes: never an unmapped array."""
        self.values = {}
        self.arrays = {}
        try:
            self._map.close()
        except BufferError:
            pass  # exported to a view still alive; the mapping goes with its last view


def map_table(path: Path, names: tuple[str, ...] | list[str] = (WORD_EMBEDDINGS,)) -> MappedTable | None:
    """The initializers `names` of the ONNX model at `path`, mapped read-only; None if the file does
    not hold every one of them as plain bytes (the caller then loads the model whole)."""
    try:
        with open(path, "rb") as f:
            mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    arrays: dict[str, np.ndarray] = {}
    try:
        for name in names:
            found = find_raw(mapping, name)
            if found is None:
                break
            dims, offset, _, dtype = found
            arrays[name] = np.frombuffer(
                mapping, dtype=dtype, count=int(np.prod(dims)), offset=offset
            ).reshape(dims)
    except (IndexError, ValueError):  # not a protobuf we can walk, or a tensor past its end
        arrays = {}
    if not names or len(arrays) != len(names):
        arrays = {}
        mapping.close()
        return None
    if hasattr(mmap, "MADV_RANDOM"):
        mapping.madvise(mmap.MADV_RANDOM)  # a row is read, not its neighbours
    return MappedTable(arrays, mapping)
