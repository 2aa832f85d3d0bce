"""pgvector's own indexes judged on the server engine's bench store (printed, never asserted): how
much of the exact top 50 each finds, at what latency, and what it costs to build, keep and hold.

    python -m tests.bench.bench_pgvector --dsn DSN [--neurons 100000] [--data-dir DIR] [--questions 300]

The vectors are the server bench store's (tests/bench/built.py, built on DSN once and kept in
--data-dir), copied into a scratch table of that database (dropped at the end: the store itself is
not touched); the questions are the dev sets' (embedded by the app's model). The truth is
pgvector's exact scan of the same table (no index); a neuron whose distance ties the 50th exact
one counts as found. For each index (HNSW at several ef_search, IVFFlat at several probes): the
exact top 50 found (mean, 5th percentile, least), p50 / p95 of the query, its build time and size,
and a write with the index to keep. The bar an index must pass to be used: the exact top 50 found
>= 0.99 on average (as the in-process quick step was judged, docs/performance.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import psycopg

from core.memory import Memory
from core.settings import Settings
from tests.bench.built import ensure, texts

TOP = 50
TABLE = "judge_vectors"
# Each index judged: its name, how it is made (pgvector's defaults: HNSW m 16, ef_construction 64;
# IVFFlat with rows / 1000 lists, as pgvector advises up to a million rows), the setting a query
# reads and the values tried.
INDEXES = (
    ("hnsw", "USING hnsw (embedding vector_cosine_ops)", "hnsw.ef_search", (100, 200, 400, 800)),
    (
        "ivfflat",
        "USING ivfflat (embedding vector_cosine_ops) WITH (lists = 100)",
        "ivfflat.probes",
        (5, 10, 20, 40),
    ),
)


def literal(v: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.8g}" for x in v) + "]"


def questions_of(memory: Memory, n: int) -> list[str]:
    _, questions, _ = texts()
    chosen = random.Random(3).sample(questions, min(n, len(questions)))
    embedder = memory.embedder()
    assert embedder is not None, "the model is needed to judge vectors"
    return [literal(np.asarray(v, dtype=np.float32)) for v in embedder.embed(chosen)]


def answers(conn, qs: list[str], k: int) -> tuple[list[float], list[list[float]]]:
    """ms of each query, and the distances of what each returned (nearest first)."""
    times, found = [], []
    for q in qs:
        t = time.perf_counter()
        rows = conn.execute(
            f"SELECT embedding <=> %s::vector AS d FROM {TABLE} ORDER BY embedding <=> %s::vector LIMIT %s",
            (q, q, k),
        ).fetchall()
        times.append((time.perf_counter() - t) * 1000)
        found.append([r[0] for r in rows])
    return times, found


def found_share(found: list[list[float]], truth: list[list[float]]) -> list[float]:
    """Of each question's exact top 50, the share an index returned: distances at most the 50th
    exact one (a tie with it counts as found)."""
    out = []
    for got, exact in zip(found, truth, strict=True):
        bar = exact[TOP - 1] + 1e-7
        out.append(min(sum(1 for d in got[:TOP] if d <= bar), TOP) / TOP)
    return out


def ms(times: list[float]) -> str:
    return f"p50 {statistics.median(times):.1f} ms, p95 {np.percentile(times, 95):.1f} ms"


def line(label: str, times: list[float], shares: list[float]) -> str:
    return (
        f"{label:<34} top 50 found mean {statistics.mean(shares):.3f}, p5 {np.percentile(shares, 5):.2f},"
        f" least {min(shares):.2f}; {ms(times)}"
    )


def written(conn, n: int, rows: int = 300) -> float:
    """ms a row to write `rows` vectors (near-copies of stored ones) with the index to keep, undone after."""
    rng = np.random.default_rng(1)
    stored = conn.execute(f"SELECT embedding::text FROM {TABLE} ORDER BY id LIMIT %s", (rows,)).fetchall()
    vecs = [np.asarray([float(x) for x in s[0].strip("[]").split(",")], dtype=np.float32) for s in stored]
    t = time.perf_counter()
    with conn.transaction(force_rollback=True):
        for i, v in enumerate(vecs):
            w = v + rng.normal(0, 0.02, v.shape).astype(np.float32)
            w /= np.linalg.norm(w)
            conn.execute(f"INSERT INTO {TABLE} VALUES (%s, %s::vector)", (n + 1 + i, literal(w)))
    return (time.perf_counter() - t) * 1000 / len(vecs)


class Printed(list):
    """Lines printed as they come (a judge takes minutes), and kept."""

    def append(self, text: str) -> None:
        print(text, flush=True)
        super().append(text)


def judge(dsn: str, qs: list[str]) -> list[str]:
    out: list[str] = Printed()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("SELECT set_config('neurons.scope', 'all', false)")  # the store's rows, every owner
        conn.execute(f"DROP TABLE IF EXISTS {TABLE}")
        t = time.perf_counter()
        conn.execute(
            f"CREATE TABLE {TABLE} AS SELECT row_number() OVER (ORDER BY id)::int AS id, embedding"
            " FROM neurons WHERE embedding IS NOT NULL"
        )
        n = conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]
        conn.execute(f"ALTER TABLE {TABLE} ADD PRIMARY KEY (id)")
        conn.execute(f"ANALYZE {TABLE}")
        out.append(f"{n} vectors copied in {time.perf_counter() - t:.1f} s; {len(qs)} questions")
        try:
            times, truth = answers(conn, qs, TOP)
            out.append(f"{'exact scan (no index)':<34} {ms(times)}")
            out.append(f"{'a vector written, no index':<34} {written(conn, n):.2f} ms a row")
            conn.execute("SET maintenance_work_mem = '512MB'")
            for name, create, knob, values in INDEXES:
                t = time.perf_counter()
                conn.execute(f"CREATE INDEX judge_{name} ON {TABLE} {create}")
                build = time.perf_counter() - t
                size = conn.execute(f"SELECT pg_relation_size('judge_{name}')").fetchone()[0] / 2**20
                out.append(f"{name}: {create.split('USING ')[1]}: built in {build:.1f} s, {size:.0f} MiB")
                for value in values:
                    conn.execute(f"SET {knob} = {value}")
                    times, found = answers(conn, qs, TOP)
                    out.append(line(f"  {knob} {value}", times, found_share(found, truth)))
                out.append(f"  a vector written with it to keep: {written(conn, n):.2f} ms a row")
                conn.execute(f"DROP INDEX judge_{name}")
        finally:
            conn.execute(f"DROP TABLE IF EXISTS {TABLE}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsn", required=True, help="the server database holding (or to hold) the bench store")
    p.add_argument("--neurons", type=int, default=100_000)
    p.add_argument("--data-dir", type=Path, required=True, help="the bench store's data dir (kept)")
    p.add_argument("--questions", type=int, default=300)
    args = p.parse_args(argv)
    ensure(args.data_dir, args.neurons, dsn=args.dsn)
    settings = Settings.from_env(data_dir=args.data_dir, dsn=args.dsn, embed_in_background=False)
    with Memory.open(settings) as memory:
        qs = questions_of(memory, args.questions)
    judge(args.dsn, qs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
