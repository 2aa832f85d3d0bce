"""Where the in-process vector scan stops being comfortable, and what pgvector's HNSW on a server
costs instead (printed, never asserted): the measured plan of docs/architecture.md "At scale".

    python -m tests.bench.bench_vectors [--neurons 100000] [--data-dir DIR] [--questions 50]

The vectors are the benches' store's (tests/bench/built.py, kept in --data-dir), the questions the
dev sets' (embedded by the app's model). In process: the exact scan recall does (every vector,
one thread) and its top 100, at 1x, 2x and 3x the store (copies with a little noise). On a server
Postgres started for the run (the tests' pgserver): the same vectors COPYed in, the exact scan
there, the HNSW index's build, its size, and its answers at three ef_search values -- latency and
how many of the exact top 10 / top 100 it finds -- and a write with the index to keep.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import psycopg

from core.memory import Memory
from core.settings import Settings
from tests.bench.bench_recall import server
from tests.bench.built import ensure, texts

TOP = 100


def store_vectors(data_dir: Path) -> tuple[np.ndarray, list[np.ndarray]]:
    """The bench store's vectors (n, 384) and the dev questions' vectors."""
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
        memory.recall.warm()
        index = memory.recall.index
        model = memory.embedder().name
        ok = index.with_vector(model)
        codes = np.concatenate([rows for _, rows in index.codes(index.size)])[ok]
        vecs = codes.astype(np.float32) * index.cols["vec_scale"][: index.size][ok, None]
        _, questions, _ = texts()
        return vecs, list(memory.embedder().embed(questions))


def in_process(vecs: np.ndarray, questions: list[np.ndarray]) -> dict[str, float]:
    """ms of the exact scan and top 100 (recall's way: numpy's one-thread loops), p50 and p95."""
    out32 = np.empty(len(vecs), dtype=np.float32)
    times = []
    for q in questions:
        t = time.perf_counter()
        for first in range(0, len(vecs), 4096):
            np.vecdot(vecs[first : first + 4096], q, out=out32[first : first + 4096])
        np.argpartition(-out32, TOP)[:TOP]
        times.append((time.perf_counter() - t) * 1000)
    return {"p50": statistics.median(times), "p95": float(np.percentile(times, 95))}


def exact_top(vecs: np.ndarray, q: np.ndarray, k: int) -> set[int]:
    return set(np.argpartition(-(vecs @ q), k)[:k].tolist())


def on_server(dsn: str, vecs: np.ndarray, questions: list[np.ndarray]) -> list[str]:
    lines = []
    lit = ["[" + ",".join(f"{x:.8g}" for x in q) + "]" for q in questions]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE bench_vectors (id int PRIMARY KEY, embedding vector(384))")
        t = time.perf_counter()
        with conn.cursor().copy("COPY bench_vectors (id, embedding) FROM STDIN") as copy:
            for i, v in enumerate(vecs):
                copy.write_row((i, "[" + ",".join(f"{x:.8g}" for x in v) + "]"))
        lines.append(f"COPY {len(vecs)} vectors in: {time.perf_counter() - t:.1f} s")
        conn.execute("ANALYZE bench_vectors")

        def timed_queries(k: int = TOP) -> tuple[float, float, list[list[int]]]:
            times, found = [], []
            for q in lit:
                t = time.perf_counter()
                rows = conn.execute(
                    "SELECT id FROM bench_vectors ORDER BY embedding <=> %s::vector LIMIT %s", (q, k)
                ).fetchall()
                times.append((time.perf_counter() - t) * 1000)
                found.append([r[0] for r in rows])
            return statistics.median(times), float(np.percentile(times, 95)), found

        p50, p95, _ = timed_queries()
        lines.append(f"exact scan on the server (no index): p50 {p50:.1f} ms, p95 {p95:.1f} ms")
        t = time.perf_counter()
        conn.execute("SET maintenance_work_mem = '512MB'")
        conn.execute("CREATE INDEX bench_hnsw ON bench_vectors USING hnsw (embedding vector_cosine_ops)")
        build = time.perf_counter() - t
        size = conn.execute("SELECT pg_relation_size('bench_hnsw')").fetchone()[0] / 2**20
        lines.append(f"HNSW build (m 16, ef_construction 64): {build:.1f} s, {size:.0f} MiB")
        truth = [(exact_top(vecs, q, 10), exact_top(vecs, q, TOP)) for q in questions]
        for ef in (40, 100, 200):
            conn.execute(f"SET hnsw.ef_search = {ef}")
            p50, p95, found = timed_queries()
            r10 = statistics.mean(
                len(set(f[:10]) & t10) / 10 for f, (t10, _) in zip(found, truth, strict=True)
            )
            r100 = statistics.mean(
                len(set(f) & t100) / TOP for f, (_, t100) in zip(found, truth, strict=True)
            )
            lines.append(
                f"HNSW ef_search {ef:3d}: p50 {p50:.1f} ms, p95 {p95:.1f} ms; finds {r10:.3f} of the exact"
                f" top 10, {r100:.3f} of the top 100 (it returns at most ef_search rows)"
            )
        rng = np.random.default_rng(1)
        extra = vecs[rng.integers(0, len(vecs), 1000)] + rng.normal(0, 0.02, (1000, vecs.shape[1]))
        t = time.perf_counter()
        with conn.transaction():
            for i, v in enumerate(extra.astype(np.float32)):
                conn.execute(
                    "INSERT INTO bench_vectors VALUES (%s, %s::vector)",
                    (len(vecs) + i, "[" + ",".join(f"{x:.8g}" for x in v) + "]"),
                )
        lines.append(f"a vector written with the index to keep: {(time.perf_counter() - t):.2f} ms a row")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--neurons", type=int, default=100_000)
    p.add_argument("--data-dir", type=Path, help="keep (and reuse) the bench store here")
    p.add_argument("--questions", type=int, default=50)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-vectorbench-") as tmp:
        data_dir = (args.data_dir or Path(tmp) / "data").resolve()
        ensure(data_dir, args.neurons)
        vecs, questions = store_vectors(data_dir)
        questions = random.Random(3).sample(questions, min(args.questions, len(questions)))
        print(f"{len(vecs)} vectors of {vecs.shape[1]} dimensions ({vecs.nbytes / 2**20:.0f} MiB as float32)")
        rng = np.random.default_rng(2)
        for times in (1, 2, 3):
            grown = np.concatenate(
                [vecs] + [vecs + rng.normal(0, 0.02, vecs.shape).astype(np.float32) for _ in range(times - 1)]
            )
            ms = in_process(grown, questions)
            print(
                f"in process, {len(grown):7d} vectors ({grown.nbytes / 2**20:5.0f} MiB): exact scan +"
                f" top {TOP} p50 {ms['p50']:.1f} ms, p95 {ms['p95']:.1f} ms"
            )
            del grown
        with server(Path(tmp)) as dsn:
            for line in on_server(dsn, vecs, questions):
                print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
