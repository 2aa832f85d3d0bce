"""The approximate step of the vector search (core/recall/nearest.py), judged against the exact scan
(printed, never asserted):

    python -m tests.bench.bench_nearest --vectors V.npy --questions Q.npy [--limit N]
    python -m tests.bench.bench_nearest --data-dir DIR --neurons 100000 [--dump PREFIX]

Vectors: an .npy of (n, 384) float32 rows (real model vectors of real text: see
docs/performance.md for the recipe of the 100k judged there) and the questions' vectors, or the
benches' store (tests/bench/built.py: its vectors and the dev questions, embedded as questions;
`--dump PREFIX` writes them as PREFIX_vecs.npy and PREFIX_q.npy for the first form). The index
is filled with the vectors alone. For every question: how many of the exact top 50 / top 100
the step's top holds (a tie with the last counts as found), that every cosine it calls exact is
the exact scan's to the bit, and the time of each, the two in turns; then the build, its memory
and the cost of a vector written.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tracemalloc
import uuid
from pathlib import Path

import numpy as np

from core.model import Identity
from core.recall.candidates import top_slots
from core.recall.index import RecallIndex

MODEL = "m"


def index_of(vecs: np.ndarray) -> RecallIndex:
    """A RecallIndex holding only `vecs`, one live slot each (its columns written directly)."""
    idx = RecallIndex(Identity(device_id=uuid.uuid4()))
    n = len(vecs)
    idx._grow(n)
    idx.slots = n
    c = idx.cols
    c["live"][:n] = True
    c["has_vec"][:n] = True
    idx.model_names = [MODEL]
    c["model"][:n] = 0
    for slot in range(n):
        c["vec_scale"][slot] = idx._encode(slot, vecs[slot])
    idx.changed()
    return idx


def found(exact: np.ndarray, approx: np.ndarray, k: int) -> float:
    """The share of the exact top k in the approximate top k (a tie with the k-th counts)."""
    ok = ~np.isnan(exact)
    last = np.partition(exact[ok], -k)[-k]
    mine = top_slots(approx, k, ~np.isnan(approx))
    return float(np.mean(exact[mine] >= last))


def judge(
    vecs: np.ndarray, questions: np.ndarray, takes: list[int] | None = None, smallest: int | None = None
) -> None:
    t = time.perf_counter()
    idx = index_of(vecs)
    print(f"{len(vecs)} vectors indexed in {time.perf_counter() - t:.1f} s; {len(questions)} questions")
    if smallest is not None:
        idx.nearest_min = smallest
    tracemalloc.start()
    t = time.perf_counter()
    told: list[tuple[int, int]] = []
    idx.build_nearest(MODEL, progress=lambda done, total: told.append((done, total)))
    build = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    near = idx.nearest
    assert near is not None, "below the step's size"
    print(
        f"build {build:.2f} s (progress told {len(told)} times), kept {near.nbytes / 2**20:.1f} MiB,"
        f" peak while building {peak / 2**20:.1f} MiB; candidates {idx.nearest_candidates(len(vecs))}"
    )
    rng = np.random.default_rng(1)
    some = vecs[rng.choice(len(vecs), 1000)]
    t = time.perf_counter()
    for i, v in enumerate(some):
        near.put(int(i * 37 % len(vecs)), v)
    print(f"a vector written: {(time.perf_counter() - t) * 1e6 / len(some):.0f} us more")
    idx.build_nearest(None)  # (the codes above were of other vectors: made again)
    idx.nearest = None
    idx.build_nearest(MODEL)
    for take in takes or [None]:
        if take is not None:
            idx.nearest_candidates = lambda n, take=take: take
        print(f"-- candidates {idx.nearest_candidates(len(vecs))}")
        compare(idx, questions)


def compare(idx: RecallIndex, questions: np.ndarray) -> None:
    f50, f100, slow, fast, slow_cpu, fast_cpu, differ = [], [], [], [], [], [], 0
    for q in questions:
        t, c = time.perf_counter(), time.thread_time()
        exact = idx.cosine(q, MODEL)
        slow.append(time.perf_counter() - t)
        slow_cpu.append(time.thread_time() - c)
        t, c = time.perf_counter(), time.thread_time()
        approx, settled = idx.nearest_cosine(q, MODEL)
        fast.append(time.perf_counter() - t)
        fast_cpu.append(time.thread_time() - c)
        assert exact is not None and settled is not None
        differ += int((approx[settled] != exact[settled]).sum())
        f50.append(found(exact, approx, 50))
        f100.append(found(exact, approx, 100))
    a50, a100 = np.asarray(f50), np.asarray(f100)
    print(
        f"exact top 50 found: mean {a50.mean():.4f}, p5 {np.percentile(a50, 5):.3f}, min {a50.min():.3f};"
        f" top 100: mean {a100.mean():.4f}, min {a100.min():.3f}; exact cosines that differ: {differ}"
    )

    def ms(xs: list[float]) -> str:
        return f"p50 {statistics.median(xs) * 1000:.1f} / p95 {np.percentile(xs, 95) * 1000:.1f} ms"

    print(
        f"exact scan {ms(slow)}, CPU {ms(slow_cpu)};"
        f" the step and its exact scores {ms(fast)}, CPU {ms(fast_cpu)}"
    )


def from_store(data_dir: Path, n: int) -> tuple[np.ndarray, np.ndarray]:
    from core.embed.runtime import QUERY  # noqa: PLC0415 - only this form loads the model
    from core.memory import Memory  # noqa: PLC0415 - as above
    from core.settings import Settings  # noqa: PLC0415 - as above
    from tests.bench.built import ensure, texts  # noqa: PLC0415 - as above

    ensure(data_dir, n)
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
        memory.recall.warm()
        index, emb = memory.recall.index, memory.embedder()
        ok = index.with_vector(emb.name)
        codes = np.concatenate([rows for _, rows in index.codes(index.size)])[: index.size][ok]
        vecs = codes.astype(np.float32) * index.cols["vec_scale"][: index.size][ok, None]
        return vecs, emb.embed(texts()[1], QUERY)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--vectors", type=Path)
    p.add_argument("--questions", type=Path)
    p.add_argument("--data-dir", type=Path)
    p.add_argument("--neurons", type=int, default=100_000)
    p.add_argument("--limit", type=int, help="the first N vectors only")
    p.add_argument("--min", type=int, help="the step's size (NEAREST_MIN unless given)")
    p.add_argument("--questions-limit", type=int, help="the first N questions only")
    p.add_argument("--candidates", type=int, action="append", help="scored exactly (again for several)")
    p.add_argument("--dump", help="write the store's vectors and questions as PREFIX_vecs.npy, PREFIX_q.npy")
    args = p.parse_args(argv)
    if args.data_dir:
        vecs, questions = from_store(args.data_dir, args.neurons)
        if args.dump:
            np.save(f"{args.dump}_vecs.npy", vecs)
            np.save(f"{args.dump}_q.npy", questions)
    elif args.vectors and args.questions:
        vecs, questions = np.load(args.vectors), np.load(args.questions)
    else:
        p.error("give --vectors and --questions, or --data-dir")
    if args.limit:
        vecs = vecs[: args.limit]
    questions = questions[: args.questions_limit]
    judge(
        np.asarray(vecs, dtype=np.float32), np.asarray(questions, dtype=np.float32), args.candidates, args.min
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
