"""The model's token table, read from the .onnx file through a read-only memory map.

A token table is most of a sentence model (MiniLM's 30522 x 384 float32, ~45 MB; e5's 250,037 rows,
kept as int8 rows and float16 scales, ~102 MB), and a question reads a dozen of its rows. Handed to
onnxruntime as initializers that live in a mapping of the model file, it is no longer copied into the
session's memory: only the pages of the rows read become resident, and `MappedTable.shed()` gives
those back after each call. The numbers are the file's own bytes, so the vectors are bit for bit the
same as with the table inside the session.

The initializers are found by walking the ONNX protobuf (ModelProto.graph -> GraphProto.initializer ->
TensorProto name/dims/data_type/raw_data): no `onnx` package at run time. Which ones to map is the
model manifest's "mapped" list. Their bytes are either inside the protobuf (raw_data) or, in e5's
export since its recipe 3, in a file of their own beside it (ONNX's external data: a location, an
offset and a length), so that onnxruntime's read of the model's protobuf at load is ~32 MB, not
134: the mapping is then of that file.
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
_TENSOR_EXTERNAL, _TENSOR_LOCATION = 13, 14  # external_data (key/value entries), data_location
_ENTRY_KEY, _ENTRY_VALUE = 1, 2
_EXTERNAL = 1  # TensorProto.DataLocation.EXTERNAL
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
        elif number == _TENSOR_EXTERNAL and wire == _BYTES:
            entry = {}
            for e_number, e_wire, ea, eb in _fields(buf, a, b):
                if e_number in (_ENTRY_KEY, _ENTRY_VALUE) and e_wire == _BYTES:
                    entry[e_number] = bytes(buf[ea:eb]).decode("utf-8", "replace")
            t.setdefault("external", {})[entry.get(_ENTRY_KEY)] = entry.get(_ENTRY_VALUE)
        elif number == _TENSOR_LOCATION and wire == _VARINT:
            t["location"] = a
    return t


def _external(t: dict) -> tuple[str, int, int] | None:
    """(file name, offset, length) of a tensor kept in a file beside the model, or None: not kept
    so, or not as a plain file name of the model's own folder with a whole offset and length."""
    if t.get("location") != _EXTERNAL or "raw" in t:
        return None
    entries = t.get("external") or {}
    name = entries.get("location") or ""
    try:
        offset, length = int(entries.get("offset", "0")), int(entries["length"])
    except (KeyError, ValueError):
        return None
    if not name or "/" in name or "\\" in name or name in (".", "..") or offset < 0 or length < 0:
        return None
    return name, offset, length


def find_raw(buf, name: str) -> tuple[tuple[int, ...], int, int, str, str | None] | None:
    """(dims, offset, size, numpy dtype, file) of the initializer `name`'s bytes in an ONNX model, or
    None (not there, or not plain bytes of a type in DTYPES). `file` is None when the bytes are in
    the protobuf itself (the offset is then into `buf`), or the name of the file beside the model
    that holds them (the offset into that file)."""
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
            if dtype is None or not t["dims"]:
                return None
            dims = tuple(t["dims"])
            size = np.dtype(dtype).itemsize * int(np.prod(dims))
            if "raw" in t:
                (lo, hi), file = t["raw"], None
            else:
                external = _external(t)
                if external is None:
                    return None
                file, lo, length = external
                hi = lo + length
            return (dims, lo, hi - lo, dtype, file) if hi - lo == size else None
    return None


class MappedTable:
    """Initializers of the model file, mapped read-only, with what onnxruntime reads of them.

    It owns, in this order of need: the mapping, the numpy arrays over it, and (once the caller sets
    them) the OrtValues handed to the session. The session reads the arrays' bytes without holding
    any of them, so its owner (runtime.Embedder) frees the session first and then calls `close()`;
    nothing here is left to the garbage collector (no `__del__`, no cycles)."""

    def __init__(self, arrays: dict[str, np.ndarray], mapping: mmap.mmap, file: str | None = None):
        self.arrays: dict[str, np.ndarray] = arrays
        self.file = file  # None: the model file's own bytes; or the file beside it that holds them
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


def _map(path: Path) -> mmap.mmap | None:
    try:
        with open(path, "rb") as f:
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None


def map_table(path: Path, names: tuple[str, ...] | list[str] = (WORD_EMBEDDINGS,)) -> MappedTable | None:
    """The initializers `names` of the ONNX model at `path`, mapped read-only, from the model file or
    from the one file beside it that holds them all; None if their bytes are not all found as plain
    bytes in one of those (the caller then loads the model whole)."""
    model = _map(path)
    if model is None:
        return None
    found: dict[str, tuple] = {}
    try:
        for name in names:
            one = find_raw(model, name)
            if one is None:
                break
            found[name] = one
    except (IndexError, ValueError):  # not a protobuf we can walk
        found = {}
    files = {one[4] for one in found.values()}
    if not names or len(found) != len(names) or len(files) != 1:
        model.close()
        return None
    (file,) = files
    if file is None:
        mapping = model
    else:
        model.close()  # the bytes are in the file beside it: only that one stays mapped
        mapping = _map(path.parent / file)  # type: ignore[assignment]
        if mapping is None:
            return None
    arrays: dict[str, np.ndarray] = {}
    try:
        for name, (dims, offset, _, dtype, _) in found.items():
            arrays[name] = np.frombuffer(
                mapping, dtype=dtype, count=int(np.prod(dims)), offset=offset
            ).reshape(dims)
    except ValueError:  # a tensor past the end of its file
        arrays = {}
    if len(arrays) != len(names):
        arrays = {}
        mapping.close()
        return None
    if hasattr(mmap, "MADV_RANDOM"):
        mapping.madvise(mmap.MADV_RANDOM)  # a row is read, not its neighbours
    return MappedTable(arrays, mapping, file)
