"""The SQL of neurons and edges. Every statement is scoped to one Identity (its owner column)."""

from __future__ import annotations

import struct
import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.adapt import Dumper
from psycopg.pq import Format
from psycopg.types import TypeInfo
from psycopg.types.json import Jsonb

from core.model import Edge, Identity, Kind, Neuron, NotFound, Relation, State
from core.store.cursor import Cursor, one_row

NEURON_COLUMNS = "id, kind, body, attrs, state, created_at, updated_at, embedding_model"
# A typo of one swapped pair in a 9-letter name scores 0.5; unrelated words stay below 0.3.
FUZZY_MIN_SIMILARITY = 0.45
EDGE_COLUMNS = (
    "id, from_node_id, to_node_id, relation_type, weight, valid_from, valid_to, created_at, derived_by"
)


def owner(ident: Identity) -> sql.Identifier:
    return sql.Identifier(ident.column)


def name_owner(cur: Cursor, ident: Identity | None, every_owner: bool = False, claim: bool = False) -> None:
    """Tell row-level security (migration 004) whose rows this transaction may see and write,
    within the owners of the connected role (007); `claim` first makes `ident` one of them, as
    it is when nobody used it yet (else the database refuses: another role's)."""
    if claim and ident is not None:
        claim_owner(cur, ident.value)
    cur.execute(*owner_statement(ident, every_owner))


def owner_statement(ident: Identity | None, every_owner: bool = False) -> tuple[str, tuple[str, str, str]]:
    """The statement (and its parameters) that names the owner to row-level security until its
    transaction ends (`name_owner`)."""
    return (
        "SELECT set_config('neurons.device_id', %s, true), set_config('neurons.user_id', %s, true),"
        " set_config('neurons.scope', %s, true)",
        (
            str(ident.device_id) if ident and ident.device_id else "",
            str(ident.user_id) if ident and ident.user_id else "",
            "all" if every_owner else "",
        ),
    )


def claim_owner(cur: Cursor, owner_id: uuid.UUID) -> None:
    """Make `owner_id` one of the connected role's owners (migration 007), or raise
    InsufficientPrivilege when it is another role's."""
    cur.execute("SELECT neurons_claim_owner(current_user, %s)", (owner_id,))


def row_security(cur: Cursor) -> dict[str, Any]:
    """Whether the connected role is held by row-level security (not superuser nor BYPASSRLS),
    whether it owns the tables (then it could turn the policies off), and how many owners
    (identities) it holds."""
    cur.execute(
        "SELECT current_user AS role, rolsuper, rolbypassrls,"
        " (SELECT tableowner FROM pg_tables WHERE tablename = 'neurons'"
        "   AND schemaname = current_schema()) = current_user AS owns_tables,"
        " (SELECT count(*) FROM neurons_owners WHERE role_name = current_user) AS owners"
        " FROM pg_roles WHERE rolname = current_user"
    )
    row = one_row(cur)
    return {
        "role": row["role"],
        "enforced": not (row["rolsuper"] or row["rolbypassrls"]),
        "owns_tables": bool(row["owns_tables"]),
        "owners": row["owners"],
    }


def neuron_from_row(row: dict[str, Any]) -> Neuron:
    return Neuron(
        id=row["id"],
        kind=Kind(row["kind"]),
        body=row["body"],
        attrs=row["attrs"] or {},
        state=State(row["state"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        embedding_model=row.get("embedding_model"),
    )


def edge_from_row(row: dict[str, Any]) -> Edge:
    return Edge(
        id=row["id"],
        from_id=row["from_node_id"],
        to_id=row["to_node_id"],
        relation=Relation(row["relation_type"]),
        weight=row["weight"],
        valid_from=row["valid_from"],
        valid_to=row["valid_to"],
        created_at=row["created_at"],
        derived_by=row["derived_by"],
    )


# -- neurons ---------------------------------------------------------------------------------------

# Rows per statement when many are written at once: one statement over a JSON array of rows is
# far faster than a statement per row on the embedded engine, where each statement is a round trip
# to Node (measured: docs/performance.md, "Why the settings").
ROWS_PER_STATEMENT = 1000


def _chunks(rows: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(rows), ROWS_PER_STATEMENT):
        yield rows[start : start + ROWS_PER_STATEMENT]


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def insert_neurons(cur: Cursor, ident: Identity, neurons: Sequence[Neuron]) -> None:
    statement = sql.SQL(
        "INSERT INTO neurons (id, {owner}, kind, body, attrs, state, created_at, updated_at)"
        " SELECT r.id, %s, r.kind, r.body, r.attrs, r.state, coalesce(r.created_at, now()),"
        "        coalesce(r.updated_at, r.created_at, now())"
        " FROM jsonb_to_recordset(%s) AS r(id uuid, kind text, body text, attrs jsonb, state text,"
        "                                 created_at timestamptz, updated_at timestamptz)"
    ).format(owner=owner(ident))
    for chunk in _chunks(neurons):
        cur.execute(
            statement,
            (
                ident.value,
                Jsonb(
                    [
                        {
                            "id": str(n.id),
                            "kind": n.kind.value,
                            "body": n.body,
                            "attrs": n.attrs,
                            "state": n.state.value,
                            "created_at": _iso(n.created_at),
                            "updated_at": _iso(n.updated_at),
                        }
                        for n in chunk
                    ]
                ),
            ),
        )


def get_neurons(cur: Cursor, ident: Identity, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, Neuron]:
    ids = list(ids)
    if not ids:
        return {}
    cur.execute(
        sql.SQL("SELECT {cols} FROM neurons WHERE {owner} = %s AND id = ANY(%s)").format(
            cols=sql.SQL(NEURON_COLUMNS), owner=owner(ident)
        ),
        (ident.value, ids),
    )
    return {row["id"]: neuron_from_row(row) for row in cur.fetchall()}


def update_neuron(
    cur: Cursor,
    ident: Identity,
    neuron_id: uuid.UUID,
    *,
    body: str | None = None,
    attrs: dict[str, Any] | None = None,
    state: State | None = None,
) -> Neuron:
    """Change what is given; a new body clears the vector so the filler recomputes it."""
    sets = [sql.SQL("updated_at = now()")]
    params: list[Any] = []
    if body is not None:
        sets += [sql.SQL("body = %s"), sql.SQL("embedding = NULL"), sql.SQL("embedding_model = NULL")]
        params.append(body)
    if attrs is not None:
        sets.append(sql.SQL("attrs = %s"))
        params.append(Jsonb(attrs))
    if state is not None:
        sets.append(sql.SQL("state = %s"))
        params.append(state.value)
    cur.execute(
        sql.SQL("UPDATE neurons SET {sets} WHERE {owner} = %s AND id = %s RETURNING {cols}").format(
            sets=sql.SQL(", ").join(sets), owner=owner(ident), cols=sql.SQL(NEURON_COLUMNS)
        ),
        (*params, ident.value, neuron_id),
    )
    row = cur.fetchone()
    if row is None:
        raise NotFound(f"no neuron {neuron_id}")
    return neuron_from_row(row)


def update_neurons(cur: Cursor, ident: Identity, neurons: Sequence[Neuron]) -> None:
    """Write the body, attrs and state of existing neurons at once (an import's updates); a
    changed body clears its vector so the filler recomputes it."""
    statement = sql.SQL(
        "UPDATE neurons n SET body = r.body, attrs = r.attrs, state = r.state, updated_at = now(),"
        " embedding = CASE WHEN n.body = r.body THEN n.embedding END,"
        " embedding_model = CASE WHEN n.body = r.body THEN n.embedding_model END"
        " FROM jsonb_to_recordset(%s) AS r(id uuid, body text, attrs jsonb, state text)"
        " WHERE n.{owner} = %s AND n.id = r.id"
    ).format(owner=owner(ident))
    for chunk in _chunks(neurons):
        cur.execute(
            statement,
            (
                Jsonb(
                    [
                        {"id": str(n.id), "body": n.body, "attrs": n.attrs, "state": n.state.value}
                        for n in chunk
                    ]
                ),
                ident.value,
            ),
        )


def list_neurons(
    cur: Cursor,
    ident: Identity,
    *,
    kind: Kind | None = None,
    states: Sequence[State] = (State.ACTIVE,),
    limit: int = 100,
    offset: int = 0,
    order: str = "recent",
) -> list[Neuron]:
    where = [sql.SQL("{owner} = %s").format(owner=owner(ident)), sql.SQL("state = ANY(%s)")]
    params: list[Any] = [ident.value, [s.value for s in states]]
    if kind is not None:
        where.append(sql.SQL("kind = %s"))
        params.append(kind.value)
    order_by = {
        "recent": "created_at DESC, id",
        "updated": "updated_at DESC, id",
        "due": "(attrs->>'due_at') ASC NULLS LAST, created_at DESC",
        "name": "lower(coalesce(attrs->>'name', body)), id",
    }[order]
    cur.execute(
        sql.SQL("SELECT {cols} FROM neurons WHERE {where} ORDER BY {order} LIMIT %s OFFSET %s").format(
            cols=sql.SQL(NEURON_COLUMNS), where=sql.SQL(" AND ").join(where), order=sql.SQL(order_by)
        ),
        (*params, limit, offset),
    )
    return [neuron_from_row(r) for r in cur.fetchall()]


def count_neurons(cur: Cursor, ident: Identity | None = None) -> int:
    if ident is None:
        cur.execute("SELECT count(*) AS n FROM neurons")
    else:
        cur.execute(
            sql.SQL("SELECT count(*) AS n FROM neurons WHERE {owner} = %s").format(owner=owner(ident)),
            (ident.value,),
        )
    return one_row(cur)["n"]


def all_neurons(cur: Cursor, ident: Identity) -> list[Neuron]:
    cur.execute(
        sql.SQL("SELECT {cols} FROM neurons WHERE {owner} = %s ORDER BY created_at, id").format(
            cols=sql.SQL(NEURON_COLUMNS), owner=owner(ident)
        ),
        (ident.value,),
    )
    return [neuron_from_row(r) for r in cur.fetchall()]


def neurons_of_kind(cur: Cursor, ident: Identity, kind: Kind) -> list[Neuron]:
    """Every neuron of one kind, in every state."""
    cur.execute(
        sql.SQL("SELECT {cols} FROM neurons WHERE {owner} = %s AND kind = %s").format(
            cols=sql.SQL(NEURON_COLUMNS), owner=owner(ident)
        ),
        (ident.value, kind.value),
    )
    return [neuron_from_row(r) for r in cur.fetchall()]


def neurons_by_attr(
    cur: Cursor, ident: Identity, key: str, values: Sequence[str], kind: Kind | None = None
) -> list[Neuron]:
    """The neurons (of `kind`) whose attrs[key] is one of `values`, and those whose attrs[key]
    is not text (a number, a list: the caller reads those as it reads any other)."""
    if not values:
        return []
    cur.execute(
        sql.SQL(
            "SELECT {cols} FROM neurons WHERE {owner} = %s AND kind = ANY(%s) AND attrs ? %s"
            " AND (attrs->>%s = ANY(%s) OR jsonb_typeof(attrs->%s) <> 'string')"
        ).format(cols=sql.SQL(NEURON_COLUMNS), owner=owner(ident)),
        (ident.value, [kind.value] if kind else [k.value for k in Kind], key, key, list(values), key),
    )
    return [neuron_from_row(r) for r in cur.fetchall()]


# A neuron id as the app writes it: anything else in a birthday_of is read by the caller.
_CANONICAL_UUID = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"


def birthday_reminders(cur: Cursor, ident: Identity, contact_ids: Iterable[uuid.UUID]) -> list[Neuron]:
    """The reminders whose birthday_of names one of these contacts, and those whose birthday_of
    is written otherwise (upper case, braces, not text: the caller reads those itself)."""
    ids = [str(i) for i in contact_ids]
    if not ids:
        return []
    cur.execute(
        sql.SQL(
            "SELECT {cols} FROM neurons WHERE {owner} = %s AND kind = 'reminder' AND attrs ? 'birthday_of'"
            " AND (attrs->>'birthday_of' = ANY(%s) OR NOT coalesce(attrs->>'birthday_of' ~ %s, false))"
        ).format(cols=sql.SQL(NEURON_COLUMNS), owner=owner(ident)),
        (ident.value, ids, _CANONICAL_UUID),
    )
    return [neuron_from_row(r) for r in cur.fetchall()]


def keyword_search(cur: Cursor, ident: Identity, text: str, limit: int = 20) -> list[tuple[Neuron, float]]:
    """Full text (websearch syntax) over body and attrs, with a trigram fallback for names/typos."""
    cur.execute(
        sql.SQL(
            "WITH q AS (SELECT websearch_to_tsquery('english', %s) AS fts,"
            "                  websearch_to_tsquery('simple', %s) AS simple)"
            " SELECT {cols}, ts_rank_cd(tsv, q.fts) + ts_rank_cd(tsv, q.simple) AS score"
            " FROM neurons, q WHERE {owner} = %s AND state <> 'trashed'"
            "   AND (tsv @@ q.fts OR tsv @@ q.simple)"
            " ORDER BY score DESC, created_at DESC LIMIT %s"
        ).format(cols=sql.SQL(NEURON_COLUMNS), owner=owner(ident)),
        (text, text, ident.value, limit),
    )
    found = [(neuron_from_row(r), float(r["score"])) for r in cur.fetchall()]
    if found or not text.strip():
        return found
    cur.execute(
        sql.SQL(
            "SELECT * FROM (SELECT {cols}, word_similarity(%s, left(body, 2000)) AS score"
            "  FROM neurons WHERE {owner} = %s AND state <> 'trashed') s"
            " WHERE score >= %s ORDER BY score DESC, created_at DESC LIMIT %s"
        ).format(cols=sql.SQL(NEURON_COLUMNS), owner=owner(ident)),
        (text, ident.value, FUZZY_MIN_SIMILARITY, limit),
    )
    return [(neuron_from_row(r), float(r["score"])) for r in cur.fetchall()]


# -- vectors (the filler works across identities: the table is its queue) -------------------------


def pending_embeddings(
    cur: Cursor, model: str, limit: int, since: int | None = None
) -> list[tuple[uuid.UUID, str]]:
    """Neurons without a vector of `model`, newest first; with `since`, only among those
    written after that change number (a range of the change index: the whole table is a scan,
    slow at 100k neurons on the embedded engine, and with no autovacuum there its dead rows
    make any other index of the queue as slow)."""
    recent = " AND change_seq > %(since)s" if since is not None else ""
    cur.execute(
        "SELECT id, body FROM neurons WHERE (embedding IS NULL OR embedding_model IS DISTINCT FROM %(m)s)"
        + recent
        + " ORDER BY created_at DESC LIMIT %(n)s",
        {"m": model, "n": limit, "since": since},
    )
    return [(r["id"], r["body"]) for r in cur.fetchall()]


def count_pending_embeddings(cur: Cursor, model: str | None, since: int | None = None) -> int:
    """Neurons without a vector of `model`; with `since`, among those written after it."""
    recent = " AND change_seq > %(since)s" if since is not None else ""
    cur.execute(
        "SELECT count(*) AS n FROM neurons"
        " WHERE (embedding IS NULL OR embedding_model IS DISTINCT FROM %(m)s)" + recent,
        {"m": model, "since": since},
    )
    return one_row(cur)["n"]


def vector_counts(cur: Cursor, model: str, since: int | None = None) -> dict[str, int]:
    """{"total", "pending": without a vector of `model`, "other": with a vector of another model};
    with `since`, among the neurons written after that change number."""
    recent = " WHERE change_seq > %(since)s" if since is not None else ""
    cur.execute(
        "SELECT count(*) AS total,"
        " count(*) FILTER (WHERE embedding IS NULL OR embedding_model IS DISTINCT FROM %(m)s) AS pending,"
        " count(*) FILTER (WHERE embedding IS NOT NULL AND embedding_model IS DISTINCT FROM %(m)s) AS other"
        " FROM neurons" + recent,
        {"m": model, "since": since},
    )
    row = one_row(cur)
    return {"total": row["total"], "pending": row["pending"], "other": row["other"]}


def vectors_clean_upto(cur: Cursor, model: str | None) -> int | None:
    """The change number up to which every neuron had a vector of `model` (migration 009)."""
    cur.execute("SELECT upto FROM vectors_clean WHERE model = %s", (model,))
    row = cur.fetchone()
    return None if row is None else int(row["upto"])


def mark_vectors_clean(cur: Cursor, model: str, upto: int) -> None:
    cur.execute(
        "INSERT INTO vectors_clean (model, upto) VALUES (%s, %s)"
        " ON CONFLICT (model) DO UPDATE SET upto = greatest(vectors_clean.upto, excluded.upto)",
        (model, upto),
    )


def save_embeddings(
    cur: Cursor,
    rows: Sequence[tuple[uuid.UUID, Sequence[float]]],
    model: str,
    texts: dict[uuid.UUID, str] | None = None,
) -> None:
    """Store vectors; with `texts`, only where the body is still the text that was embedded
    (an edit made while the batch was computed must not get the old text's vector). One
    statement per ROWS_PER_STATEMENT rows, the vectors in pgvector's binary form: parsing their
    text was slow in the embedded engine."""
    check = " AND n.body = r.body" if texts is not None else ""
    statement = (
        "UPDATE neurons n SET embedding = r.v, embedding_model = %s"
        " FROM unnest(%s::uuid[], %b::vector[], %s::text[]) AS r(id, v, body)"
        " WHERE n.id = r.id" + check
    )
    for chunk in _chunks(rows):
        cur.execute(
            statement,
            (
                model,
                [nid for nid, _ in chunk],
                vectors(cur, [vec for _, vec in chunk]),
                [texts[nid] for nid, _ in chunk] if texts is not None else None,
            ),
        )


class _Vector:
    """A vector sent in pgvector's binary form (`vectors`)."""

    __slots__ = ("data",)

    def __init__(self, values: Sequence[float]):
        data = np.asarray(values, dtype=">f4")
        if data.ndim != 1 or not np.isfinite(data).all():
            raise ValueError("a vector is one row of finite numbers")
        self.data = data


class _VectorDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: _Vector) -> bytes:
        # vector_recv: dimensions (int16), unused (int16), the values (float4), all big-endian
        return struct.pack(">HH", obj.data.size, 0) + obj.data.tobytes()


def vectors(cur: Cursor, values: Sequence[Sequence[float]]) -> list[_Vector]:
    """`values` as binary vector parameters (`%b::vector[]`). The connection learns the vector
    type's oid once (the extension gives it at its creation, so it differs between stores); a
    cursor opened before that learns it from the connection."""
    if cur.adapters.types.get("vector") is None:
        info = cur.connection.adapters.types.get("vector")
        if info is None:
            info = TypeInfo.fetch(cur.connection, "vector")
            if info is None:
                raise RuntimeError("the vector extension is not installed in this database")
        dumper = type("VectorDumper", (_VectorDumper,), {"oid": info.oid})
        for context in (cur.connection, cur):
            info.register(context)
            context.adapters.register_dumper(_Vector, dumper)
    return [_Vector(v) for v in values]


def clear_embeddings(cur: Cursor) -> None:
    cur.execute("UPDATE neurons SET embedding = NULL, embedding_model = NULL")


# -- edges -----------------------------------------------------------------------------------------


def insert_edges(cur: Cursor, ident: Identity, edges: Sequence[Edge]) -> None:
    statement = sql.SQL(
        "INSERT INTO neurons_edges (id, {owner}, from_node_id, to_node_id, relation_type, weight,"
        " valid_from, valid_to, created_at, derived_by)"
        " SELECT r.id, %s, r.from_id, r.to_id, r.relation, r.weight, coalesce(r.valid_from, now()),"
        "        r.valid_to, coalesce(r.created_at, now()), r.derived_by"
        " FROM jsonb_to_recordset(%s) AS r(id uuid, from_id uuid, to_id uuid, relation text,"
        "   weight double precision, valid_from timestamptz, valid_to timestamptz,"
        "   created_at timestamptz, derived_by text)"
    ).format(owner=owner(ident))
    for chunk in _chunks(edges):
        cur.execute(
            statement,
            (
                ident.value,
                Jsonb(
                    [
                        {
                            "id": str(e.id),
                            "from_id": str(e.from_id),
                            "to_id": str(e.to_id),
                            "relation": e.relation.value,
                            "weight": e.weight,
                            "valid_from": _iso(e.valid_from),
                            "valid_to": _iso(e.valid_to),
                            "created_at": _iso(e.created_at),
                            "derived_by": e.derived_by,
                        }
                        for e in chunk
                    ]
                ),
            ),
        )


def edges_of(
    cur: Cursor,
    ident: Identity,
    ids: Iterable[uuid.UUID],
    *,
    open_only: bool = True,
    relations: Sequence[Relation] | None = None,
) -> list[Edge]:
    """Edges touching any of `ids` (either end)."""
    ids = list(ids)
    if not ids:
        return []
    where = [
        sql.SQL("{owner} = %s").format(owner=owner(ident)),
        sql.SQL("(from_node_id = ANY(%s) OR to_node_id = ANY(%s))"),
    ]
    params: list[Any] = [ident.value, ids, ids]
    if open_only:
        where.append(sql.SQL("valid_to IS NULL"))
    if relations is not None:
        where.append(sql.SQL("relation_type = ANY(%s)"))
        params.append([r.value for r in relations])
    cur.execute(
        sql.SQL("SELECT {cols} FROM neurons_edges WHERE {where} ORDER BY created_at, id").format(
            cols=sql.SQL(EDGE_COLUMNS), where=sql.SQL(" AND ").join(where)
        ),
        params,
    )
    return [edge_from_row(r) for r in cur.fetchall()]


def find_open_edge(
    cur: Cursor,
    ident: Identity,
    a: uuid.UUID,
    b: uuid.UUID,
    relation: Relation,
) -> Edge | None:
    cur.execute(
        sql.SQL(
            "SELECT {cols} FROM neurons_edges WHERE {owner} = %s AND relation_type = %s"
            " AND valid_to IS NULL AND ((from_node_id = %s AND to_node_id = %s)"
            "  OR (from_node_id = %s AND to_node_id = %s)) LIMIT 1"
        ).format(cols=sql.SQL(EDGE_COLUMNS), owner=owner(ident)),
        (ident.value, relation.value, a, b, b, a),
    )
    row = cur.fetchone()
    return edge_from_row(row) if row else None


def close_edge(cur: Cursor, ident: Identity, edge_id: uuid.UUID, at: datetime | None) -> Edge | None:
    cur.execute(
        sql.SQL(
            "UPDATE neurons_edges SET valid_to = greatest(valid_from, coalesce(%s, now()))"
            " WHERE {owner} = %s AND id = %s AND valid_to IS NULL RETURNING {cols}"
        ).format(owner=owner(ident), cols=sql.SQL(EDGE_COLUMNS)),
        (at, ident.value, edge_id),
    )
    row = cur.fetchone()
    return edge_from_row(row) if row else None


def get_edge(cur: Cursor, ident: Identity, edge_id: uuid.UUID) -> Edge | None:
    cur.execute(
        sql.SQL("SELECT {cols} FROM neurons_edges WHERE {owner} = %s AND id = %s").format(
            cols=sql.SQL(EDGE_COLUMNS), owner=owner(ident)
        ),
        (ident.value, edge_id),
    )
    row = cur.fetchone()
    return edge_from_row(row) if row else None


def ids_starting(cur: Cursor, ident: Identity, prefix: str, *, edges: bool = False, limit: int = 10) -> list:
    """The neurons (or edges) whose id starts with `prefix` (lower-case hex and dashes), at most
    `limit` of them: what a short id the person typed may mean."""
    table, cols = ("neurons_edges", EDGE_COLUMNS) if edges else ("neurons", NEURON_COLUMNS)
    cur.execute(
        sql.SQL(
            "SELECT {cols} FROM {table} WHERE {owner} = %s AND id::text LIKE %s ORDER BY id LIMIT %s"
        ).format(cols=sql.SQL(cols), table=sql.Identifier(table), owner=owner(ident)),
        (ident.value, prefix + "%", limit),
    )
    rows = cur.fetchall()
    return [edge_from_row(r) for r in rows] if edges else [neuron_from_row(r) for r in rows]


def all_edges(cur: Cursor, ident: Identity) -> list[Edge]:
    cur.execute(
        sql.SQL("SELECT {cols} FROM neurons_edges WHERE {owner} = %s ORDER BY created_at, id").format(
            cols=sql.SQL(EDGE_COLUMNS), owner=owner(ident)
        ),
        (ident.value,),
    )
    return [edge_from_row(r) for r in cur.fetchall()]


def get_edges(cur: Cursor, ident: Identity, ids: Iterable[uuid.UUID]) -> list[Edge]:
    ids = list(ids)
    if not ids:
        return []
    cur.execute(
        sql.SQL("SELECT {cols} FROM neurons_edges WHERE {owner} = %s AND id = ANY(%s)").format(
            cols=sql.SQL(EDGE_COLUMNS), owner=owner(ident)
        ),
        (ident.value, ids),
    )
    return [edge_from_row(r) for r in cur.fetchall()]


def existing_ids(cur: Cursor, ident: Identity, table: str, ids: Sequence[uuid.UUID]) -> set[uuid.UUID]:
    """Ids already taken in `table`, by whichever identity of the connected role (ids are keys
    within a database role, migration 016): the one look across owners an identity's
    transaction makes, and only at ids."""
    if not ids:
        return set()
    name_owner(cur, ident, every_owner=True)
    cur.execute(
        sql.SQL("SELECT id FROM {t} WHERE id = ANY(%s)").format(t=sql.Identifier(table)), (list(ids),)
    )
    taken = {r["id"] for r in cur.fetchall()}
    name_owner(cur, ident)
    return taken


# -- profiles --------------------------------------------------------------------------------------


def claim_device(cur: Cursor, device_id: uuid.UUID, user_id: uuid.UUID, name: str) -> tuple[int, int]:
    """Move every row of a device to a local profile, in the caller's one transaction."""
    claim_owner(cur, user_id)
    cur.execute(
        "INSERT INTO profiles (user_id, name, claimed_device) VALUES (%s, %s, %s)"
        " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name",
        (user_id, name, device_id),
    )
    return claim_into(cur, device_id, user_id)


def claim_into(cur: Cursor, device_id: uuid.UUID, user_id: uuid.UUID) -> tuple[int, int]:
    """Move every row of a device into an existing profile (a second machine joining it)."""
    _see_device_and_profile(cur, device_id, user_id)
    cur.execute(
        "UPDATE neurons SET user_id = %s, device_id = NULL WHERE device_id = %s", (user_id, device_id)
    )
    moved_neurons = cur.rowcount
    cur.execute(
        "UPDATE neurons_edges SET user_id = %s, device_id = NULL WHERE device_id = %s", (user_id, device_id)
    )
    moved_edges = cur.rowcount
    # the device's sync accounts go with its rows (their collections and items follow them)
    cur.execute(
        "UPDATE sync_accounts SET user_id = %s, device_id = NULL WHERE device_id = %s", (user_id, device_id)
    )
    return moved_neurons, moved_edges


def count_device_rows(cur: Cursor, device_id: uuid.UUID) -> int:
    """The neurons a device still owns while its data dir acts as a profile (kept apart)."""
    _see_device_and_profile(cur, device_id, None)
    cur.execute("SELECT count(*) AS n FROM neurons WHERE device_id = %s", (device_id,))
    return one_row(cur)["n"]


def _see_device_and_profile(cur: Cursor, device_id: uuid.UUID, user_id: uuid.UUID | None) -> None:
    """Name this transaction's owners for row-level security, where the server has it: the
    device's rows are seen, and may become the profile's."""
    cur.execute(
        "SELECT set_config('neurons.device_id', %s, true), set_config('neurons.user_id', %s, true)",
        (str(device_id), str(user_id) if user_id else ""),
    )


def profile(cur: Cursor, user_id: uuid.UUID) -> dict[str, Any] | None:
    cur.execute(
        "SELECT user_id, name, claimed_device, created_at FROM profiles WHERE user_id = %s", (user_id,)
    )
    return cur.fetchone()


def ensure_profile(cur: Cursor, user_id: uuid.UUID, name: str, device_id: uuid.UUID | None) -> None:
    """The profile's row in another database (a memory moved to a server keeps its profile)."""
    cur.execute(
        "INSERT INTO profiles (user_id, name, claimed_device) VALUES (%s, %s, %s)"
        " ON CONFLICT (user_id) DO NOTHING",
        (user_id, name, device_id),
    )


def profiles(cur: Cursor) -> list[dict[str, Any]]:
    cur.execute("SELECT user_id, name, claimed_device, created_at FROM profiles ORDER BY created_at")
    return list(cur.fetchall())


def engine_facts(cur: Cursor) -> dict[str, Any]:
    cur.execute("SELECT version() AS version, (SELECT max(version) FROM schema_version) AS schema")
    facts = dict(one_row(cur))
    cur.execute("SELECT extname, extversion FROM pg_extension ORDER BY extname")
    facts["extensions"] = {r["extname"]: r["extversion"] for r in cur.fetchall()}
    return facts
