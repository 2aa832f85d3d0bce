"""The SQL of backups (core/backup.py): every row of the store in one read, a stamp that changes
with every write, and rows deleted or written back by key. Store-wide: every owner's rows.

Vectors are not part of a snapshot (they are derived, and would triple its size): a restored
neuron keeps the vector it has here when its body is the same, else the filler computes it.
"""

from __future__ import annotations

from typing import Any

from psycopg.types.json import Jsonb

from core.store.cursor import Cursor, one_row

# What a snapshot holds of each table, in its column order.
NEURON_FIELDS = ("id", "device_id", "user_id", "kind", "body", "attrs", "state", "created_at", "updated_at")
EDGE_FIELDS = (
    "id",
    "device_id",
    "user_id",
    "from_node_id",
    "to_node_id",
    "relation_type",
    "weight",
    "valid_from",
    "valid_to",
    "created_at",
    "derived_by",
)
PROFILE_FIELDS = ("user_id", "name", "claimed_device", "created_at")
# Postgres types of the fields, to read them back from JSON (jsonb_to_recordset).
TYPES = {
    "id": "uuid",
    "device_id": "uuid",
    "user_id": "uuid",
    "kind": "text",
    "body": "text",
    "attrs": "jsonb",
    "state": "text",
    "created_at": "timestamptz",
    "updated_at": "timestamptz",
    "from_node_id": "uuid",
    "to_node_id": "uuid",
    "relation_type": "text",
    "weight": "real",
    "valid_from": "timestamptz",
    "valid_to": "timestamptz",
    "derived_by": "text",
    "name": "text",
    "claimed_device": "uuid",
}
TABLES = (
    ("neurons", "id", NEURON_FIELDS),
    ("neurons_edges", "id", EDGE_FIELDS),
    ("profiles", "user_id", PROFILE_FIELDS),
)
# What a written-back row meets an existing one on: the key within the connected role (its
# holder, migration 016: another role's rows of the same ids are no concern of a restore).
CONFLICT_KEYS = {"neurons": "id, holder", "neurons_edges": "id, holder", "profiles": "user_id"}
# A snapshot is read in pages of this many rows (~1.4 MB of JSON at 10k neurons), from the key
# below every uuid.
PAGE_ROWS = 2000
NO_KEY = "00000000-0000-0000-0000-000000000000"


def stamp(cur: Cursor) -> dict[str, Any]:
    """Changes with every write: the neurons' change numbers (migration 003) and counts, and the
    edges' and profiles' counts, closings and newest rows. One cheap statement."""
    cur.execute(
        "SELECT (SELECT coalesce(max(change_seq), 0) FROM neurons) AS seq,"
        " (SELECT count(*) FROM neurons) AS neurons,"
        " (SELECT count(*) FROM neurons_edges) AS edges,"
        " (SELECT count(valid_to) FROM neurons_edges) AS closed,"
        " (SELECT coalesce(sum(extract(epoch FROM valid_to)), 0)::float8 FROM neurons_edges) AS ends,"
        " (SELECT max(created_at)::text FROM neurons_edges) AS newest_edge,"
        " (SELECT count(*) FROM profiles) AS profiles"
    )
    return dict(one_row(cur))


def read(cur: Cursor) -> dict[str, tuple[int, str]]:
    """Every neuron, edge and profile, by key, as (count, JSON text of the rows): Postgres writes
    the JSON, so the store is held for the read alone (call inside one read transaction). Read in
    pages along the key's index: PGlite's WASM heap never shrinks, and one 7 MB answer at 10k
    neurons would stay in it for good."""
    out = {}
    for table, key, fields in TABLES:
        pages, count, last = [], 0, NO_KEY
        while True:
            cur.execute(
                f"SELECT count(*) AS n, (array_agg(t.{key} ORDER BY t.{key} DESC))[1] AS last,"
                f" string_agg(row_to_json(t)::text, ',' ORDER BY t.{key}) AS rows"
                f" FROM (SELECT {', '.join(fields)} FROM {table} WHERE {key} > %s"
                f" ORDER BY {key} LIMIT %s) AS t",
                (last, PAGE_ROWS),
            )
            row = one_row(cur)
            if row["n"]:
                pages.append(row["rows"])
                count, last = count + row["n"], row["last"]
            if row["n"] < PAGE_ROWS:
                break
        out[table] = (count, "[" + ",".join(pages) + "]")
    return out


def delete(cur: Cursor, table: str, keys: list[str]) -> None:
    key = next(k for t, k, _ in TABLES if t == table)
    if keys:
        cur.execute(f"DELETE FROM {table} WHERE {key} = ANY(%s::uuid[])", (keys,))


def upsert(cur: Cursor, table: str, rows: list[dict[str, Any]]) -> None:
    """Insert `rows` (JSON values, as `read` gives them), or update the rows of their keys. A
    neuron keeps its vector only when its text stays the same."""
    if not rows:
        return
    key, fields = next((k, f) for t, k, f in TABLES if t == table)
    columns = ", ".join(fields)
    typed = ", ".join(f"{f} {TYPES[f]}" for f in fields)
    updates = ", ".join(f"{f} = EXCLUDED.{f}" for f in fields if f != key)
    if table == "neurons":
        updates += (
            ", embedding = CASE WHEN neurons.body = EXCLUDED.body THEN neurons.embedding END,"
            " embedding_model = CASE WHEN neurons.body = EXCLUDED.body"
            " THEN neurons.embedding_model END"
        )
    cur.execute(
        f"INSERT INTO {table} ({columns}) SELECT {columns} FROM jsonb_to_recordset(%s)"
        f" AS r({typed}) ON CONFLICT ({CONFLICT_KEYS[table]}) DO UPDATE SET {updates}",
        (Jsonb(rows),),
    )
