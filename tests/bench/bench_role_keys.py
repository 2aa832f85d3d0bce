"""What keys and change counters per database role cost (migration 016), printed, never asserted.

    .venv/bin/python -m tests.bench.bench_role_keys [--neurons 10000] [--runs 10] [--rounds 5]

On each engine (the embedded one, and a server Postgres started here as the tests' fixtures
do, connected as a role that is not superuser), one identity with N neurons; the app's own
calls timed with 016 as it is (a change number drawn from the row's role's counter, found in
neurons_counters; the holder in every key and, on the server, in a policy), then with one shared
counter again (the touch trigger's nextval of 003, no holder policy), in alternated rounds of
the same run. Ratios, not absolute times, are the result.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import uuid
from pathlib import Path

import psycopg

from core.memory import Memory
from core.model import Identity, Kind
from core.settings import Settings
from core.store import Store, recall_sql
from tests.bench.bench_row_wall import export_of, server, timed

HOLDER_POLICIES = (
    ("neurons_holder", "neurons"),
    ("edges_holder", "neurons_edges"),
    ("sync_accounts_holder", "sync_accounts"),
    ("sync_collections_holder", "sync_collections"),
    ("sync_items_holder", "sync_items"),
)
TOUCH = (
    "CREATE OR REPLACE FUNCTION neurons_touch() RETURNS trigger LANGUAGE plpgsql AS $$"
    " DECLARE counter regclass; BEGIN {body} RETURN NEW; END $$"
)
PER_ROLE = ";".join(
    [
        TOUCH.format(
            body="SELECT c.counter INTO counter FROM neurons_counters c WHERE c.holder = NEW.holder;"
            " NEW.change_seq := nextval(counter);"
        )
    ]
    + [
        f"DROP POLICY IF EXISTS {name} ON {table}; CREATE POLICY {name} ON {table} AS RESTRICTIVE"
        " USING (holder = (SELECT quote_ident(current_user)::regrole))"
        " WITH CHECK (holder = (SELECT quote_ident(current_user)::regrole))"
        for name, table in HOLDER_POLICIES
    ]
)
SHARED = ";".join(
    [TOUCH.format(body="NEW.change_seq := nextval('neurons_change_seq');")]
    + [f"DROP POLICY IF EXISTS {name} ON {table}" for name, table in HOLDER_POLICIES]
)


def measure(store: Store, memory: Memory, runs: int) -> dict[str, float]:
    imports = max(2, runs // 3)
    batches = iter([export_of(200) for _ in range(imports)])  # fresh ids each time

    def feed() -> None:  # what the recall index reads when it starts
        with store.reading(memory.identity) as cur:
            rows, _ = recall_sql.index_rows(cur, memory.identity, None)
            sum(1 for _ in rows)

    def stamp() -> None:
        with store.reading(memory.identity) as cur:
            recall_sql.change_stamp(cur)

    def import_200() -> None:
        fresh = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
        fresh.import_(next(batches))

    some = [n.id for n in memory.list(kind=Kind.NOTE, limit=50)]
    return {
        "change stamp (ms)": timed(stamp, runs),
        "50 neurons by id (ms)": timed(lambda: memory.get_many(some), runs),
        "list notes (ms)": timed(lambda: memory.list(kind=Kind.NOTE, limit=50), runs),
        "recall index, all rows (ms)": timed(feed, runs),
        "capture (ms)": timed(lambda: memory.capture("a capture to time", kind="note"), runs),
        "import of 200 (ms)": timed(import_200, imports),
    }


def run(settings: Settings, swap_dsn: str | None, args) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, list[float]]] = {"016": {}, "shared": {}}
    with Store(settings) as store:
        memory = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
        memory.import_(export_of(args.neurons))

        def swap(statements: str) -> None:
            if swap_dsn is None:  # the embedded engine: its one role owns the tables
                with store.transaction(every_owner=True) as cur:
                    cur.execute(statements)
            else:
                with psycopg.connect(swap_dsn, autocommit=True) as conn:
                    conn.execute(statements)

        for _ in range(args.rounds):  # alternated, so a busy machine weighs on both alike
            for name, statements in (("016", PER_ROLE), ("shared", SHARED)):
                swap(statements)
                for key, value in measure(store, memory, args.runs).items():
                    results[name].setdefault(key, []).append(value)
        swap(PER_ROLE)
    return {name: {k: statistics.median(v) for k, v in got.items()} for name, got in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--neurons", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    _, app = server()
    with tempfile.TemporaryDirectory() as scratch:
        here = Path(scratch)
        engines = {
            "embedded": run(Settings(data_dir=here / "embedded", embed_in_background=False), None, args),
            "server": run(Settings(data_dir=here / "server", dsn=app, embed_in_background=False), app, args),
        }
    print(f"{args.neurons} neurons; median of {args.rounds} alternated rounds of {args.runs}")
    for engine, got in engines.items():
        print(f"\n{engine:34} {'with 016':>10} {'shared':>10} {'ratio':>7}")
        for name, value in got["016"].items():
            print(f"{name:34} {value:10.2f} {got['shared'][name]:10.2f} {value / got['shared'][name]:7.2f}")


if __name__ == "__main__":
    main()
