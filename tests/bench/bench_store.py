"""Store benchmark (printed, never asserted): embedded PGlite vs server Postgres, side by side.

    .venv/bin/python -m tests.bench.bench_store [--sizes 1000,10000]

Open time (cold: fresh data dir; warm: reopen), capture latency (one transaction each, fsynced),
the cost of the WAL fsync and of the full-disk check per capture, batch import rate, and the RSS
of the Node engine.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np
import pgserver
import psutil

from core.memory import Memory
from core.model import Identity
from core.settings import Settings
from core.store import Store
from core.store.durable import WalSyncer, require_space


def export_of(n: int) -> dict:
    neurons = [
        {
            "id": str(uuid.uuid4()),
            "kind": "note",
            "body": f"benchmark note {i} about topic {i % 97} and person {i % 13}",
            "created_at": "2026-01-01T00:00:00+00:00",
        }
        for i in range(n)
    ]
    return {
        "format": "neurons-export/1",
        "neurons": neurons,
        "edges": [
            {
                "id": str(uuid.uuid4()),
                "from_id": neurons[i]["id"],
                "to_id": neurons[i - 1]["id"],
                "relation_type": "relates_to",
            }
            for i in range(1, n, 10)
        ],
    }


def bench_engine(name: str, make_settings, sizes: list[int]) -> dict:
    row: dict = {"engine": name}
    t0 = time.perf_counter()
    store = Store(make_settings())
    row["open_cold_s"] = time.perf_counter() - t0
    store.close()
    t0 = time.perf_counter()
    store = Store(make_settings())
    row["open_warm_s"] = time.perf_counter() - t0
    memory = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
    lat = []
    for i in range(200):
        t = time.perf_counter()
        memory.capture(f"capture latency probe {i}", kind="note")
        lat.append((time.perf_counter() - t) * 1000)
    row["capture_p50_ms"], row["capture_p95_ms"] = (float(p) for p in np.percentile(lat, [50, 95]))
    if store.syncer is not None:
        real = WalSyncer.sync
        WalSyncer.sync = lambda self: []  # measure the same loop without the fsync
        try:
            nosync = []
            for i in range(200):
                t = time.perf_counter()
                memory.capture(f"no-fsync probe {i}", kind="note")
                nosync.append((time.perf_counter() - t) * 1000)
        finally:
            WalSyncer.sync = real
        row["fsync_cost_ms"] = statistics.median(lat) - statistics.median(nosync)
        t = time.perf_counter()
        for _ in range(10_000):
            require_space(store.engine.pgdata)
        row["space_check_ms"] = (time.perf_counter() - t) / 10_000 * 1000
    for n in sizes:
        data = export_of(n)
        target = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
        t = time.perf_counter()
        target.import_(data)
        row[f"import_{n}_per_s"] = n / (time.perf_counter() - t)
    if store.engine is not None:
        row["node_rss_mb"] = psutil.Process(store.engine.pid).memory_info().rss / 2**20
    store.close()
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1000,10000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    base = Path(tempfile.mkdtemp(prefix="neurons-bench-"))
    rows = [
        bench_engine(
            "embedded", lambda: Settings(data_dir=base / "embedded", embed_in_background=False), sizes
        )
    ]
    server = pgserver.get_server(base / "pg", cleanup_mode="stop")
    rows.append(
        bench_engine(
            "server",
            lambda: Settings(data_dir=base / "server-local", dsn=server.get_uri(), embed_in_background=False),
            sizes,
        )
    )
    keys = [k for k in rows[0] if k != "engine"]
    print(f"{'':>22}" + "".join(f"{r['engine']:>12}" for r in rows) + f"{'ratio':>10}")
    for k in keys:
        vals = [r.get(k) for r in rows]
        ratio = f"{vals[0] / vals[1]:.2f}x" if all(isinstance(v, float) and v for v in vals) else ""
        print(
            f"{k:>22}"
            + "".join(f"{v:>12.2f}" if isinstance(v, float) else f"{'-':>12}" for v in vals)
            + f"{ratio:>10}"
        )


if __name__ == "__main__":
    main()
