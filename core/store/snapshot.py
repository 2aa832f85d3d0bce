"""The SQL of backups (core/backup.py): every row of the store in one read, a stamp that changes
with every write, and a snapshot written back in one transaction. Store-wide: every owner's rows.

Vectors are not part of a snapshot (they are derived, and would triple its size): a restored
neuron keeps the vector it has here when its body is the same, else the filler computes it.
"""

from __future__ import annotations

from typing import Any

from psycopg import Cursor
from psycopg.types.json import Jsonb

# What a snapshot holds of each table, in its column order.
NEURON_FIELDS = ("id", "device_id", "user_id", "kind", "body", "attrs", "state", "created_at",
                 "updated_at")
EDGE_FIELDS = ("id", "device_id", "user_id", "from_node_id", "to_node_id", "relation_type",
               "weight", "valid_from", "valid_to", "created_at", "derived_by")
PROFILE_FIELDS = ("user_id", "name", "claimed_device", "created_at")
# Postgres types of the fields, to read them back from JSON (jsonb_to_recordset).
TYPES = {"id": "uuid", "device_id": "uuid", "user_id": "uuid", "kind": "text", "body": "text",
         "attrs": "jsonb", "state": "text", "created_at": "timestamptz", "updated_at": "timestamptz",
         "from_node_id": "uuid", "to_node_id": "uuid", "relation_type": "text", "weight": "real",
         "valid_from": "timestamptz", "valid_to": "timestamptz", "derived_by": "text",
         "name": "text", "claimed_device": "uuid"}
TABLES = (("neurons", "id", NEURON_FIELDS), ("neurons_edges", "id", EDGE_FIELDS),
          ("profiles", "user_id", PROFILE_FIELDS))


def stamp(cur: Cursor) -> list[Any]:
    """Changes with every write: the neurons' change numbers (migration 003) and counts, and the
    edges' and profiles' counts, closings and newest rows. One cheap statement."""
    cur.execute(
        "SELECT (SELECT coalesce(max(change_seq), 0) FROM neurons) AS seq,"
        " (SELECT count(*) FROM neurons) AS neurons,"
        " (SELECT count(*) FROM neurons_edges) AS edges,"
        " (SELECT count(valid_to) FROM neurons_edges) AS closed,"
        " (SELECT coalesce(sum(extract(epoch FROM valid_to)), 0)::float8 FROM neurons_edges) AS ends,"
        " (SELECT max(created_at)::text FROM neurons_edges) AS newest_edge,"
        " (SELECT count(*) FROM profiles) AS profiles")
    row = cur.fetchone()
    return [row["seq"], row["neurons"], row["edges"], row["closed"], row["ends"],
            row["newest_edge"], row["profiles"]]


def read(cur: Cursor) -> dict[str, list[dict[str, Any]]]:
    """Every neuron, edge and profile, oldest first (call inside one read transaction)."""
    out = {}
    for table, key, fields in TABLES:
        cur.execute(f"SELECT {', '.join(fields)} FROM {table} ORDER BY created_at, {key}")
        out[table] = cur.fetchall()
    return out


def write(cur: Cursor, rows: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    """Make the store hold exactly `rows` (as `read` gives them, values as JSON): rows that are
    not in it go, the others are inserted or updated (unchanged ones are left alone). Call inside
    one transaction. Returns how many rows of each table it holds now."""
    counts = {}
    # Links first out, then neurons; neurons first in, then links (their ends must exist).
    for table, key, _ in reversed(TABLES):
        cur.execute(f"DELETE FROM {table} WHERE {key} NOT IN"
                    f" (SELECT r.{key} FROM jsonb_to_recordset(%s) AS r({key} uuid))",
                    (Jsonb(rows[table]),))
    for table, key, fields in TABLES:
        columns = ", ".join(fields)
        typed = ", ".join(f"{f} {TYPES[f]}" for f in fields)
        updates = [f for f in fields if f != key]
        keep_vector = ""
        if table == "neurons":  # a vector stays only with the text it was computed from
            keep_vector = (", embedding = CASE WHEN neurons.body = EXCLUDED.body THEN neurons.embedding END"
                           ", embedding_model = CASE WHEN neurons.body = EXCLUDED.body"
                           " THEN neurons.embedding_model END")
        cur.execute(
            f"INSERT INTO {table} ({columns}) SELECT {columns} FROM jsonb_to_recordset(%s) AS r({typed})"
            f" ON CONFLICT ({key}) DO UPDATE SET {', '.join(f'{f} = EXCLUDED.{f}' for f in updates)}"
            f"{keep_vector}"
            f" WHERE ({', '.join(f'{table}.{f}' for f in updates)})"
            f" IS DISTINCT FROM ({', '.join(f'EXCLUDED.{f}' for f in updates)})",
            (Jsonb(rows[table]),))
        cur.execute(f"SELECT count(*) AS n FROM {table}")
        counts[table] = cur.fetchone()["n"]
    return counts
