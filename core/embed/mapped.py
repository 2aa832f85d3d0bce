"""The model's word-embedding table, read from the .onnx file through a read-only memory map.

MiniLM's token table (30522 x 384 float32, ~45 MB) is half the model, and a question reads a dozen
of its rows. Handed to onnxruntime as an initializer that lives in a mapping of the model file, it
is no longer copied into the session's memory: only the pages of the rows read become resident,
and `MappedTable.shed()` gives those back after each call. The numbers are the file's own bytes,
so the vectors are bit for bit the same as with the table inside the session.

The table is found by walking the ONNX protobuf (ModelProto.graph -> GraphProto.initializer ->
TensorProto name/dims/data_type/raw_data): no `onnx` package at run time.
"""

from __future__ import annotations

import mmap
from pathlib import Path
from typing import Any

import numpy as np

# The exported model's token table (core.embed.export, torch's name for it).
WORD_EMBEDDINGS = "bert.embeddings.word_embeddings.weight"
FLOAT = 1  # TensorProto.DataType FLOAT
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


def find_raw(buf, name: str) -> tuple[tuple[int, ...], int, int] | None:
    """(dims, offset, size) of the float initializer `name`'s raw bytes in an ONNX model, or None."""
    for number, wire, a, b in _fields(buf, 0, len(buf)):
        if number != _MODEL_GRAPH or wire != _BYTES:
            continue
        for g_number, g_wire, ga, gb in _fields(buf, a, b):
            if g_number != _GRAPH_INITIALIZER or g_wire != _BYTES:
                continue
            t = _tensor(buf, ga, gb)
            if t.get("name") != name:
                continue
            if t.get("type") != FLOAT or "raw" not in t or not t["dims"]:
                return None
            (lo, hi), dims = t["raw"], tuple(t["dims"])
            return (dims, lo, hi - lo) if hi - lo == 4 * int(np.prod(dims)) else None
    return None


class MappedTable:
    """An initializer of the model file, mapped read-only, with what onnxruntime reads of it.

    It owns, in this order of need: the mapping, the numpy array over it, and (once the caller
    sets `value`) the OrtValue handed to the session. The session reads the array's bytes without
    holding any of them, so its owner (runtime.Embedder) frees the session first and then calls
    `close()`; nothing here is left to the garbage collector (no `__del__`, no cycles)."""

    def __init__(self, name: str, array: np.ndarray, mapping: mmap.mmap):
        self.name = name
        self.array: np.ndarray | None = array
        self.value: Any = None  # the OrtValue over `array`, set by whoever makes one
        self._map = mapping

    def shed(self) -> None:
        """Drop the table's resident pages (they come back from the page cache when read)."""
        if hasattr(mmap, "MADV_DONTNEED") and not self._map.closed:
            self._map.madvise(mmap.MADV_DONTNEED)

    def close(self) -> None:
        """Let go of the OrtValue and the array, then unmap; only once no session reads them.
        A view someone else still holds keeps the mapping (mmap refuses to close under it) until
        that view goes: never an unmapped array."""
        self.value = None
        self.array = None
        try:
            self._map.close()
        except BufferError:
            pass  # exported to a view still alive; the mapping goes with its last view


def map_table(path: Path, name: str = WORD_EMBEDDINGS) -> MappedTable | None:
    """The initializer `name` of the ONNX model at `path`, mapped read-only; None if the file does
    not hold it as plain float32 bytes (the caller then loads the model whole)."""
    try:
        with open(path, "rb") as f:
            mapping = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    try:
        found = find_raw(mapping, name)
        if found is not None:
            dims, offset, _ = found
            array = np.frombuffer(mapping, dtype="<f4", count=int(np.prod(dims)), offset=offset).reshape(dims)
    except (IndexError, ValueError):  # not a protobuf we can walk, or a tensor past its end
        found = None
    if found is None:
        mapping.close()
        return None
    if hasattr(mmap, "MADV_RANDOM"):
        mapping.madvise(mmap.MADV_RANDOM)  # a row is read, not its neighbours
    return MappedTable(name, array, mapping)
