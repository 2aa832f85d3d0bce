"""The SQL of recall and capture: candidates (BM25 over the tsvector + pgvector cosine), the one-hop
expansion, contacts for name resolution. Ranking itself happens in core.recall; this module only
fetches, and every statement is scoped to one Identity.

Round trips matter (the embedded engine serialises everything on one backend): `candidates` is one
statement, `expansion` one more.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg import Cursor, sql

from core.model import Identity, Relation
from core.store.queries import EDGE_COLUMNS, NEURON_COLUMNS, owner

_N_COLS = ", ".join(f"n.{c.strip()}" for c in NEURON_COLUMNS.split(","))
_E_COLS = ", ".join(f"e.{c.strip()}" for c in EDGE_COLUMNS.split(","))


def vector_literal(vec: Sequence[float]) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in vec) + "]"


# The query's lexemes: english stems (as the body is indexed) plus simple words (as attrs strings
# are), minus english stop words and the caller's filler words; then an OR tsquery of them, built
# by casting quoted lexemes (no second parse). BM25 df comes from the matching set itself: a doc
# that holds none of the terms contributes nothing to any df.
_TERMS = """
terms AS (
    SELECT DISTINCT lex FROM (
        SELECT unnest(tsvector_to_array(to_tsvector('english', %(text)s))) AS lex
        UNION
        SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple', %(text)s))) AS w
        WHERE to_tsvector('english', w) <> ''::tsvector
    ) t
    WHERE lex NOT IN (
        SELECT unnest(tsvector_to_array(to_tsvector('english', %(filler)s)))
        UNION SELECT unnest(tsvector_to_array(to_tsvector('simple', %(filler)s))))
),
tq AS (
    SELECT (string_agg('''' || replace(replace(lex, '\\', '\\\\'), '''', '''''') || '''', ' | '))::tsquery
           AS query
    FROM terms
),
matched AS (
    SELECT n.id, n.tsv FROM neurons n, tq
    WHERE n.{owner} = %(owner)s AND n.state <> 'trashed' AND n.tsv @@ tq.query
),
hits AS (
    SELECT m.id, u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tf, length(m.tsv) AS dl
    FROM matched m CROSS JOIN LATERAL unnest(m.tsv) AS u
    WHERE u.lexeme IN (SELECT lex FROM terms)
),
df AS (SELECT lexeme, count(*) AS df FROM hits GROUP BY lexeme),
corpus AS (
    SELECT greatest(count(*), 1) AS n FROM neurons
    WHERE {owner} = %(owner)s AND state <> 'trashed'
),
qidf AS (
    SELECT coalesce(sum(ln(1 + (c.n - coalesce(d.df, 0) + 0.5) / (coalesce(d.df, 0) + 0.5))), 0)
           AS idf_sum
    FROM terms t LEFT JOIN df d ON d.lexeme = t.lex CROSS JOIN corpus c
),
bm AS (
    SELECT h.id,
           sum(ln(1 + (c.n - d.df + 0.5) / (d.df + 0.5))
               * h.tf * (%(k1)s + 1)
               / (h.tf + %(k1)s * (1 - %(b)s + %(b)s * h.dl / greatest(a.avgdl, 1)))) AS bm25,
           count(*) AS nterms
    FROM hits h JOIN df d USING (lexeme)
    CROSS JOIN corpus c CROSS JOIN (SELECT avg(dl) AS avgdl FROM hits) a
    GROUP BY h.id
    ORDER BY bm25 DESC
    LIMIT %(lexical_k)s
)"""

_VEC = """,
vec AS (
    SELECT id FROM neurons
    WHERE {owner} = %(owner)s AND state <> 'trashed' AND embedding IS NOT NULL
      AND embedding_model = %(model)s
    ORDER BY embedding <=> %(qvec)s::vector
    LIMIT %(vector_k)s
)"""

_WIN = """,
win AS (
    SELECT id FROM neurons
    WHERE {owner} = %(owner)s AND state <> 'trashed'
      AND ((created_at >= %(w_start)s AND created_at < %(w_end)s)
           OR (kind = 'reminder' AND attrs ? 'rrule')
           OR (kind = 'reminder' AND recall_ts(attrs->>'due_at') >= %(w_start)s
               AND recall_ts(attrs->>'due_at') < %(w_end)s))
    LIMIT %(window_k)s
)"""

_NAMED = """,
named AS (
    SELECT id FROM neurons
    WHERE {owner} = %(owner)s AND state <> 'trashed' AND kind = 'contact'
      AND (tsv @@ (SELECT query FROM tq)
           OR word_similarity(coalesce(attrs->>'name', body), %(text)s) >= %(name_sim)s
           OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(
                          CASE WHEN jsonb_typeof(attrs->'aliases') = 'array'
                               THEN attrs->'aliases' ELSE '[]'::jsonb END) AS al(alias)
                      WHERE length(alias) >= 3 AND word_similarity(alias, %(text)s) >= %(name_sim)s))
    LIMIT 50
)"""


def candidates(
    cur: Cursor, ident: Identity, *, text: str, filler: str, lexical_k: int, k1: float, b: float,
    qvec: Sequence[float] | None = None, model: str | None = None, vector_k: int = 0,
    window: tuple[datetime, datetime] | None = None, window_k: int = 500,
    name_sim: float = 0.6,
) -> list[dict[str, Any]]:
    """One statement: the top BM25 matches, the nearest vectors, the neurons of a time window and
    the contacts the text may name, each row with `bm25` (0 when no term matched), `idf_sum` (the
    question's total idf, the same on every row), `cos` (NULL without a comparable vector), `due`
    (parsed due_at) and `named` (a contact the text may name).
    """
    parts = [_TERMS]
    sources = ["SELECT id FROM bm"]
    use_vec = qvec is not None and model is not None and vector_k > 0
    if use_vec:
        parts.append(_VEC)
        sources.append("SELECT id FROM vec")
    if window is not None:
        parts.append(_WIN)
        sources.append("SELECT id FROM win")
    parts.append(_NAMED)
    sources.append("SELECT id FROM named")
    cos = ("CASE WHEN n.embedding IS NOT NULL AND n.embedding_model = %(model)s"
           " THEN 1 - (n.embedding <=> %(qvec)s::vector) END") if use_vec else "NULL::float8"
    query = (
        "WITH " + "".join(parts) + ",\nids AS (" + " UNION ".join(sources) + ")\n"
        f"SELECT {_N_COLS}, coalesce(bm.bm25, 0)::float8 AS bm25, coalesce(bm.nterms, 0) AS nterms,"
        f" {cos} AS cos, recall_ts(n.attrs->>'due_at') AS due,"
        " (n.id IN (SELECT id FROM named)) AS named, (SELECT idf_sum FROM qidf)::float8 AS idf_sum"
        " FROM ids JOIN neurons n ON n.id = ids.id LEFT JOIN bm ON bm.id = n.id"
    )
    params: dict[str, Any] = {
        "text": text, "filler": filler, "owner": ident.value, "k1": k1, "b": b,
        "lexical_k": lexical_k, "name_sim": name_sim,
    }
    if use_vec:
        params.update(qvec=vector_literal(qvec), model=model, vector_k=vector_k)
    if window is not None:
        params.update(w_start=window[0], w_end=window[1], window_k=window_k)
    if use_vec:
        # Filtered HNSW: keep scanning until enough of this owner's rows are found.
        cur.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
        cur.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(max(40, vector_k))))
    cur.execute(sql.SQL(query).format(owner=owner(ident)), params)
    return list(cur.fetchall())


def expansion(
    cur: Cursor, ident: Identity, *, seeds: Sequence[uuid.UUID], pool: Sequence[uuid.UUID],
    relations: Sequence[Relation], sitting_seconds: float,
    qvec: Sequence[float] | None = None, model: str | None = None,
) -> list[dict[str, Any]]:
    """One statement around the ranked pool:

    - `via = 'edge'`: open edges of `relations` touching a seed, with the neuron at the other end;
    - `via = 'before'|'after'`: the neuron captured just before / after a seed, when within
      `sitting_seconds` of it (the same sitting);
    - `via = 'supersedes'`: open supersedes edges touching any neuron of the pool, with the other end.

    Each row holds the other neuron's columns, its `cos` to the query, the `seed` and the edge's
    columns (NULL for time neighbours).
    """
    cos = ("CASE WHEN n.embedding IS NOT NULL AND n.embedding_model = %(model)s"
           " THEN 1 - (n.embedding <=> %(qvec)s::vector) END") if qvec is not None else "NULL::float8"
    query = f"""
WITH seeds AS (SELECT unnest(%(seeds)s::uuid[]) AS id),
pool AS (SELECT unnest(%(pool)s::uuid[]) AS id),
links AS (
    SELECT 'edge'::text AS via, s.id AS seed, e.to_node_id AS other, e.id AS edge_id
    FROM seeds s JOIN neurons_edges e ON e.from_node_id = s.id
    WHERE e.{{owner}} = %(owner)s AND e.valid_to IS NULL AND e.relation_type = ANY(%(rels)s)
    UNION ALL
    SELECT 'edge', s.id, e.from_node_id, e.id
    FROM seeds s JOIN neurons_edges e ON e.to_node_id = s.id
    WHERE e.{{owner}} = %(owner)s AND e.valid_to IS NULL AND e.relation_type = ANY(%(rels)s)
    UNION ALL
    SELECT 'supersedes', p.id, CASE WHEN e.from_node_id = p.id THEN e.to_node_id
                                    ELSE e.from_node_id END, e.id
    FROM pool p JOIN neurons_edges e ON (e.from_node_id = p.id OR e.to_node_id = p.id)
    WHERE e.{{owner}} = %(owner)s AND e.valid_to IS NULL AND e.relation_type = 'supersedes'
    UNION ALL
    SELECT 'before', s.id, prev.id, NULL::uuid
    FROM seeds s JOIN neurons sn ON sn.id = s.id
    CROSS JOIN LATERAL (
        SELECT p.id FROM neurons p
        WHERE p.{{owner}} = %(owner)s AND p.kind <> 'contact'
          AND (p.created_at, p.id) < (sn.created_at, sn.id)
          AND p.created_at >= sn.created_at - make_interval(secs => %(sitting)s)
        ORDER BY p.created_at DESC, p.id DESC LIMIT 1) prev
    WHERE sn.kind <> 'contact'
    UNION ALL
    SELECT 'after', s.id, nxt.id, NULL::uuid
    FROM seeds s JOIN neurons sn ON sn.id = s.id
    CROSS JOIN LATERAL (
        SELECT p.id FROM neurons p
        WHERE p.{{owner}} = %(owner)s AND p.kind <> 'contact'
          AND (p.created_at, p.id) > (sn.created_at, sn.id)
          AND p.created_at <= sn.created_at + make_interval(secs => %(sitting)s)
        ORDER BY p.created_at, p.id LIMIT 1) nxt
    WHERE sn.kind <> 'contact'
)
SELECT l.via, l.seed, {_N_COLS}, {cos} AS cos, recall_ts(n.attrs->>'due_at') AS due,
       e.id AS edge_id, e.from_node_id, e.to_node_id, e.relation_type, e.weight
FROM links l JOIN neurons n ON n.id = l.other
LEFT JOIN neurons_edges e ON e.id = l.edge_id
WHERE n.{{owner}} = %(owner)s AND n.state <> 'trashed'
"""
    params: dict[str, Any] = {
        "seeds": list(seeds), "pool": list(pool), "owner": ident.value,
        "rels": [r.value for r in relations], "sitting": float(sitting_seconds),
    }
    if qvec is not None:
        params.update(qvec=vector_literal(qvec), model=model)
    cur.execute(sql.SQL(query).format(owner=owner(ident)), params)
    return list(cur.fetchall())


# -- contacts and links, for capture and about -----------------------------------------------------

def contacts(cur: Cursor, ident: Identity, limit: int = 5000) -> list[dict[str, Any]]:
    """Every live contact of the identity (id, body, attrs, created_at), oldest first."""
    cur.execute(sql.SQL(
        "SELECT {cols} FROM neurons n WHERE n.{owner} = %s AND n.kind = 'contact'"
        " AND n.state <> 'trashed' ORDER BY n.created_at, n.id LIMIT %s"
    ).format(cols=sql.SQL(_N_COLS), owner=owner(ident)), (ident.value, limit))
    return list(cur.fetchall())


def links_of(
    cur: Cursor, ident: Identity, ids: Sequence[uuid.UUID],
    relations: Sequence[Relation] | None = None,
) -> list[dict[str, Any]]:
    """Open edges touching `ids` (either end) with the neuron at the other end (`seed` is the end
    in `ids`); trashed neurons are left out."""
    if not ids:
        return []
    rel_clause = "AND e.relation_type = ANY(%(rels)s)" if relations is not None else ""
    query = f"""
WITH s AS (SELECT unnest(%(ids)s::uuid[]) AS id),
l AS (
    SELECT s.id AS seed, e.id AS edge_id, e.to_node_id AS other FROM s
    JOIN neurons_edges e ON e.from_node_id = s.id
    WHERE e.{{owner}} = %(owner)s AND e.valid_to IS NULL {rel_clause}
    UNION ALL
    SELECT s.id, e.id, e.from_node_id FROM s
    JOIN neurons_edges e ON e.to_node_id = s.id
    WHERE e.{{owner}} = %(owner)s AND e.valid_to IS NULL {rel_clause}
)
SELECT l.seed, {_N_COLS}, {_E_COLS}
FROM l JOIN neurons n ON n.id = l.other JOIN neurons_edges e ON e.id = l.edge_id
WHERE n.{{owner}} = %(owner)s AND n.state <> 'trashed'
"""
    # edge columns share names with neuron columns (id, created_at): rename them
    query = query.replace(f"{_E_COLS}", ", ".join(
        f"e.{c.strip()} AS e_{c.strip()}" for c in EDGE_COLUMNS.split(",")))
    params: dict[str, Any] = {"ids": list(ids), "owner": ident.value}
    if relations is not None:
        params["rels"] = [r.value for r in relations]
    cur.execute(sql.SQL(query).format(owner=owner(ident)), params)
    return list(cur.fetchall())


def mentions(
    cur: Cursor, ident: Identity, phrases: Sequence[str], exclude: Sequence[uuid.UUID],
    limit: int = 200,
) -> list[dict[str, Any]]:
    """Live neurons whose text holds any of `phrases` as words (simple config, phrase match)."""
    phrases = [p for p in phrases if p and p.strip()]
    if not phrases:
        return []
    cur.execute(sql.SQL(
        "WITH q AS (SELECT phraseto_tsquery('simple', p) AS q FROM unnest(%(phrases)s::text[]) p)"
        " SELECT {cols} FROM neurons n WHERE n.{owner} = %(owner)s AND n.state <> 'trashed'"
        "   AND NOT (n.id = ANY(%(exclude)s))"
        "   AND to_tsvector('simple', left(n.body, 100000)) @@ ANY (SELECT q FROM q WHERE q <> ''::tsquery)"
        " ORDER BY n.created_at DESC LIMIT %(limit)s"
    ).format(cols=sql.SQL(_N_COLS), owner=owner(ident)),
        {"phrases": list(phrases), "owner": ident.value, "exclude": list(exclude), "limit": limit})
    return list(cur.fetchall())


def find_contacts(cur: Cursor, ident: Identity, name: str, min_sim: float) -> list[dict[str, Any]]:
    """Contacts whose name, alias or body resembles `name` (trigram), with the best `sim`."""
    cur.execute(sql.SQL(
        "SELECT {cols}, greatest(similarity(lower(coalesce(n.attrs->>'name', '')), lower(%(name)s)),"
        "   word_similarity(lower(%(name)s), lower(n.body)),"
        "   coalesce((SELECT max(similarity(lower(a), lower(%(name)s)))"
        "             FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(n.attrs->'aliases') = 'array'"
        "                  THEN n.attrs->'aliases' ELSE '[]'::jsonb END) a), 0)) AS sim"
        " FROM neurons n WHERE n.{owner} = %(owner)s AND n.kind = 'contact' AND n.state <> 'trashed'"
        " ORDER BY sim DESC LIMIT 20"
    ).format(cols=sql.SQL(_N_COLS), owner=owner(ident)), {"name": name, "owner": ident.value})
    return [r for r in cur.fetchall() if r["sim"] >= min_sim]
