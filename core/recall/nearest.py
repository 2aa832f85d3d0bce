"""The approximate step of the vector search: which neurons can be nearest a question, found
without scanning every vector exactly, then scored exactly.

Above NEAREST_MIN vectors an exact scan of every vector is most of what grows with the store (see
docs/performance.md). `Nearest` keeps each vector's place in a small space made from the store's
own vectors: its difference from their mean, projected onto their DIMS main directions (a
principal component analysis of a sample), as int8 codes, DIMS bytes a neuron instead of the
vector's 768. A question is scored in that space (an estimate of its cosine to every neuron:
the mean's part plus the projected part), the `candidates(n)` best are taken, and the index
scores those exactly (`RecallIndex.nearest_cosine`): every cosine a ranking reads is exact; the
approximate step only decides which neurons are looked at closely, and the rest are given their
estimate, capped below the candidates' lowest exact cosine (so none of them ranks above a
candidate by its meaning alone). A neuron the ranking takes up by another way (its words, a link,
a time window) is scored exactly before it is ranked (`candidates.Signals.settle`).

What it is judged by, before it is used (the exact top 50 it finds on a 100k store of real
vectors, every eval set with it forced on, its build, update and memory):
docs/performance.md. Nothing of it is kept on disk: it is made from the index's vectors on the
desktop's worker after the index is warm (`RecallIndex.build_nearest`, with progress), kept
current as vectors are written (`put`), and made again when the store has doubled since it was
fitted, or for another model. A crash loses nothing: the next start makes it again from the
vectors, which are the truth.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np
from threadpoolctl import threadpool_limits

# Below this many vectors of the question's model the exact scan is used (it is cheap there, and
# the step's own cost and memory would not pay).
NEAREST_MIN = 20_000
# The projected space's dimensions, and the int8 codes' range in standard deviations of each.
DIMS = 128
SPREAD = 4.0
# Rows of the fit's sample (evenly spaced over the slots with a vector).
SAMPLE = 8192
# Rows turned back into float32 at a time when a question is scored (a chunk that stays in cache).
CHUNK = 4096


def candidates(n: int) -> int:
    """How many neurons of `n` are scored exactly: 6% of them, at least 1,000 (the share its
    judging chose: docs/performance.md)."""
    return max(1000, n * 6 // 100)


class Nearest:
    """The projected codes of one model's vectors, slot by slot, in blocks of `block` rows."""

    def __init__(self, model: int, mean: np.ndarray, basis: np.ndarray, step: np.ndarray, block: int):
        self.model = model  # the model's code in the index (`RecallIndex.model_names`)
        self.mean = mean.astype(np.float32)  # (DIM,)
        self.basis = np.ascontiguousarray(basis, dtype=np.float32)  # (DIM, DIMS), orthonormal columns
        self.rows = np.ascontiguousarray(self.basis.T)  # the same as rows, for numpy's own loops
        self.step = step.astype(np.float32)  # (DIMS,): one code's worth in each direction
        self.block = block
        self.blocks: list[np.ndarray] = []
        self.fitted_on = 0  # how many vectors the fit saw (made again when the store doubled)

    @classmethod
    def fit(cls, sample: np.ndarray, model: int, block: int, count: int) -> Nearest:
        """Fitted on `sample` (rows of float32 vectors) of `count` vectors."""
        mean = sample.mean(axis=0)
        centred = sample - mean
        values, vectors = np.linalg.eigh((centred.T @ centred).astype(np.float64) / max(len(sample), 1))
        top = np.argsort(values)[::-1][:DIMS]
        sd = np.sqrt(np.maximum(values[top], 1e-12))
        near = cls(model, mean, vectors[:, top], SPREAD * sd / 127.0, block)
        near.fitted_on = count
        return near

    @property
    def nbytes(self) -> int:
        return sum(b.nbytes for b in self.blocks) + 2 * self.basis.nbytes

    def grow(self, need: int) -> None:
        while len(self.blocks) * self.block < need:
            self.blocks.append(np.zeros((self.block, DIMS), dtype=np.int8))

    def codes_of(self, rows: np.ndarray) -> np.ndarray:
        """The codes of `rows` (float32 vectors, one a row)."""
        z = (rows - self.mean) @ self.basis
        return np.clip(np.rint(z / self.step), -127, 127).astype(np.int8)

    def put(self, slot: int, vec: np.ndarray) -> None:
        """A vector written into `slot` (a slot without one keeps stale codes: the index's mask
        of the model's vectors leaves it out)."""
        self.grow(slot + 1)
        z = np.vecdot(self.rows, vec.astype(np.float32) - self.mean)
        self.blocks[slot // self.block][slot % self.block] = np.clip(np.rint(z / self.step), -127, 127)

    def estimate(self, q: np.ndarray, n: int) -> np.ndarray:
        """Every slot's estimated cosine to `q` (float32, slots 0..n-1)."""
        q = q.astype(np.float32)
        qp = np.vecdot(self.rows, q) * self.step  # (numpy's loops: BLAS's threads wait on a busy machine)
        out = np.empty(n, dtype=np.float32)
        buf = np.empty((CHUNK, DIMS), dtype=np.float32)
        for first, codes in self._chunks(n):
            rows = buf[: len(codes)]
            np.copyto(rows, codes)
            np.vecdot(rows, qp, out=out[first : first + len(codes)])
        out += np.vecdot(q, self.mean)
        return out

    def _chunks(self, n: int) -> Iterator[tuple[int, np.ndarray]]:
        for k, block in enumerate(self.blocks):
            first = k * self.block
            if first >= n:
                return
            for at in range(0, min(self.block, n - first), CHUNK):
                yield first + at, block[at : min(at + CHUNK, n - first)]


def build(
    rows: Callable[[np.ndarray], np.ndarray],
    slots: np.ndarray,
    n: int,
    model: int,
    block: int,
    progress: Callable[[int, int], None] | None = None,
) -> Nearest:
    """A Nearest over the vectors of `slots` (those of the model, sorted), of the index's `n`
    slots; `rows(slots)` gives their float32 vectors. `progress(done, total)` is told along the
    way once the build has taken a second."""
    # one BLAS thread: on a busy machine its threads wait on each other (a decomposition of
    # 384x384 took 10-20 s with two, 0.3 s with one)
    with threadpool_limits(limits=1, user_api="blas"):
        return _build(rows, slots, n, model, block, progress)


def _build(rows, slots, n, model, block, progress) -> Nearest:
    started = time.monotonic()
    pick = slots[np.linspace(0, len(slots) - 1, min(SAMPLE, len(slots))).astype(np.int64)]
    near = Nearest.fit(rows(pick), model, block, len(slots))
    near.grow(n)
    step = block
    for at in range(0, len(slots), step):
        part = slots[at : at + step]
        codes = near.codes_of(rows(part))
        for k in np.unique(part // block).tolist():
            mine = (part // block) == k
            near.blocks[k][part[mine] % block] = codes[mine]
        if progress is not None and time.monotonic() - started > 1.0:
            progress(min(at + step, len(slots)), len(slots))
    return near
