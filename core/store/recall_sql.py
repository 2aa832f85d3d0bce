"""The SQL of recall and capture: what the in-process recall index reads (and when: neurons and
edges), links for capture, the lexemes of names, contacts for name resolution. Ranking happens in
core.recall; this module only fetches, and every statement is scoped to one Identity.

Round trips matter (the embedded engine serialises everything on one backend): a question costs
one statement (`stamp_and_terms`), then the rows of its answer; links are followed in process.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from core.model import Identity, Relation
from core.store.cursor import Cursor, one_row
from core.store.queries import EDGE_COLUMNS, NEURON_COLUMNS, owner

# The recall index's first read comes in pages of this many neurons (~2 MB each).
INDEX_PAGE_ROWS = 1000
# ... and its edges in pages of this many (~0.5 MB each).
EDGE_PAGE_ROWS = 5000
_N_COLS = ", ".join(f"n.{c.strip()}" for c in NEURON_COLUMNS.split(","))


# A lexeme as a tsquery of its own, by casting it quoted (no second parse by a text search config).
LEXEME_QUERY = r"(('''' || replace(replace({lex}, '\', '\\'), '''', '''''') || '''')::tsquery)"


_QUESTION_TERMS = (
    "tsvector_to_array(to_tsvector('english', %(t)s)) AS en,"
    " tsvector_to_array(to_tsvector('simple', %(t)s)) AS si,"
    " ARRAY(SELECT w FROM unnest(tsvector_to_array(to_tsvector('simple', %(t)s))) w"
    "       WHERE to_tsvector('english', w) = ''::tsvector) AS stop,"
    " tsvector_to_array(to_tsvector('english', %(f)s)) AS f_en,"
    " tsvector_to_array(to_tsvector('simple', %(f)s)) AS f_si"
)


def question_terms(cur: Cursor, text: str, filler: str) -> list[str]:
    """The lexemes of a question: english stems (as bodies are indexed) plus simple words (as
    attrs strings are), minus english stop words and the stems and words of `filler`."""
    cur.execute("SELECT " + _QUESTION_TERMS, {"t": text, "f": filler})
    return _terms(one_row(cur))


def stamp_and_terms(cur: Cursor, text: str, filler: str) -> tuple[int, list[str]]:
    """In one statement: the change stamp (`change_stamp`) and the question's lexemes
    (`question_terms`)."""
    cur.execute("SELECT neurons_change_stamp() AS stamp, " + _QUESTION_TERMS, {"t": text, "f": filler})
    row = one_row(cur)
    return int(row["stamp"]), _terms(row)


def _terms(row: dict[str, Any]) -> list[str]:
    drop = set(row["f_en"]) | set(row["f_si"])
    terms = set(row["en"]) | (set(row["si"]) - set(row["stop"]))
    return sorted(terms - drop)


def active_reminders_with(
    cur: Cursor, ident: Identity, terms: Sequence[str], limit: int = 20
) -> list[dict[str, Any]]:
    """Active reminders holding any of `terms` (lexemes), newest first."""
    return active_with(cur, ident, terms, "reminder", limit)


def active_with(
    cur: Cursor,
    ident: Identity,
    terms: Sequence[str],
    kind: str,
    limit: int = 20,
    *,
    most_shared: bool = False,
) -> list[dict[str, Any]]:
    """Active neurons of `kind` holding any of `terms` (lexemes), newest first (`most_shared`:
    those holding the most of them first, then the newest)."""
    if not terms:
        return []
    cur.execute(
        sql.SQL(
            "SELECT {cols}, tsvector_to_array(n.tsv) AS lexemes FROM neurons n"
            " WHERE n.tsv @@ (SELECT string_agg(" + LEXEME_QUERY.format(lex="t") + "::text, ' | ')::tsquery"
            "                 FROM unnest(%(terms)s::text[]) t)"
            "   AND n.{owner} = %(owner)s AND n.kind = %(kind)s AND n.state = 'active'"
            " ORDER BY {shared} n.created_at DESC LIMIT %(limit)s"
        ).format(
            cols=sql.SQL(_N_COLS),
            owner=owner(ident),
            shared=sql.SQL(
                "cardinality(ARRAY(SELECT unnest(tsvector_to_array(n.tsv))"
                " INTERSECT SELECT unnest(%(terms)s::text[]))) DESC,"
                if most_shared
                else ""
            ),
        ),
        {"terms": list(terms), "owner": ident.value, "kind": kind, "limit": limit},
    )
    return list(cur.fetchall())


def latest_before(cur: Cursor, ident: Identity, at: datetime, since: datetime) -> dict[str, Any] | None:
    """The newest note or reminder written from `since` up to `at` (not trashed), or None: the
    capture a new one follows."""
    cur.execute(
        sql.SQL(
            "SELECT {cols} FROM neurons n WHERE n.{owner} = %s AND n.kind <> 'contact'"
            " AND n.state <> 'trashed' AND n.created_at <= %s AND n.created_at >= %s"
            " ORDER BY n.created_at DESC, n.id DESC LIMIT 1"
        ).format(cols=sql.SQL(_N_COLS), owner=owner(ident)),
        (ident.value, at, since),
    )
    return cur.fetchone()


# -- contacts and links, for capture and about -----------------------------------------------------


def contacts(cur: Cursor, ident: Identity, limit: int = 5000) -> list[dict[str, Any]]:
    """Every live contact of the identity (id, body, attrs, created_at), oldest first."""
    cur.execute(
        sql.SQL(
            "SELECT {cols} FROM neurons n WHERE n.{owner} = %s AND n.kind = 'contact'"
            " AND n.state <> 'trashed' ORDER BY n.created_at, n.id LIMIT %s"
        ).format(cols=sql.SQL(_N_COLS), owner=owner(ident)),
        (ident.value, limit),
    )
    return list(cur.fetchall())


def links_of(
    cur: Cursor,
    ident: Identity,
    ids: Sequence[uuid.UUID],
    relations: Sequence[Relation] | None = None,
) -> list[dict[str, Any]]:
    """Open edges touching `ids` (either end) with the neuron at the other end (`seed` is the end
    in `ids`); trashed neurons are left out."""
    if not ids:
        return []
    rel_clause = "AND e.relation_type = ANY(%(rels)s)" if relations is not None else ""
    # One index probe per id, whatever the planner guesses (OFFSET 0 keeps each lookup its own:
    # for 200 ids it hashed all the edges, ~5 ms each pass in the WASM engine), and the edge's
    # columns carried from that probe (renamed e_*: they share names with the neuron's).
    edge = ", ".join(f"e.{c.strip()} AS e_{c.strip()}" for c in EDGE_COLUMNS.split(","))
    query = f"""
WITH l AS (
    SELECT s.id AS seed, e.to_node_id AS other, {edge}
    FROM unnest(%(ids)s::uuid[]) AS s(id) CROSS JOIN LATERAL (
        SELECT * FROM neurons_edges e WHERE e.from_node_id = s.id
          AND e.{{owner}} = %(owner)s AND e.valid_to IS NULL {rel_clause} OFFSET 0) e
    UNION ALL
    SELECT s.id, e.from_node_id, {edge}
    FROM unnest(%(ids)s::uuid[]) AS s(id) CROSS JOIN LATERAL (
        SELECT * FROM neurons_edges e WHERE e.to_node_id = s.id
          AND e.{{owner}} = %(owner)s AND e.valid_to IS NULL {rel_clause} OFFSET 0) e
)
SELECT l.seed, {_N_COLS}, {", ".join(f"l.e_{c.strip()}" for c in EDGE_COLUMNS.split(","))}
FROM l CROSS JOIN LATERAL (SELECT * FROM neurons n WHERE n.id = l.other) n
WHERE n.{{owner}} = %(owner)s AND n.state <> 'trashed'
"""
    params: dict[str, Any] = {"ids": list(ids), "owner": ident.value}
    if relations is not None:
        params["rels"] = [r.value for r in relations]
    cur.execute(sql.SQL(query).format(owner=owner(ident)), params)
    return list(cur.fetchall())


# Each phrase's lexemes as the english stems and as the simple words (the two ways a neuron's
# text is indexed), phrase by phrase, english first.
_PHRASE_LEXEMES = (
    "SELECT p, tsvector_to_array(to_tsvector(c::regconfig, p)) AS lex, i, j"
    " FROM unnest(%(p)s::text[]) WITH ORDINALITY AS ps(p, i)"
    " CROSS JOIN unnest(ARRAY['english', 'simple']) WITH ORDINALITY AS cs(c, j) ORDER BY i, j"
)


def _phrases(phrases: Sequence[str]) -> list[str]:
    return sorted({p for p in phrases if p and p.strip()})


def _lexemes_of(rows) -> dict[str, list[tuple[str, ...]]]:
    """A way that leaves nothing (stop words only) is left out, and so is one the other gave."""
    out: dict[str, list[tuple[str, ...]]] = {}
    for p, lex in rows:
        lexemes = tuple(lex)
        if lexemes and lexemes not in out.setdefault(p, []):
            out[p].append(lexemes)
    return out


def phrase_lexemes(cur: Cursor, phrases: Sequence[str]) -> dict[str, list[tuple[str, ...]]]:
    """Each phrase's lexemes as the english stems and as the simple words (the two ways a
    neuron's text is indexed); a way that leaves nothing (stop words only) is left out."""
    phrases = _phrases(phrases)
    if not phrases:
        return {}
    cur.execute(_PHRASE_LEXEMES, {"p": phrases})
    return _lexemes_of((row["p"], row["lex"]) for row in cur.fetchall())


def _find_contacts(ident: Identity) -> sql.Composed:
    """Contacts whose name, alias or body resembles %(name)s (trigram), with the best `sim`; none
    when %(name)s is null."""
    return sql.SQL(
        "SELECT {cols}, greatest(similarity(lower(coalesce(n.attrs->>'name', '')), lower(%(name)s)),"
        "   word_similarity(lower(%(name)s), lower(n.body)),"
        "   coalesce((SELECT max(similarity(lower(a), lower(%(name)s)))"
        "             FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(n.attrs->'aliases') = 'array'"
        "                  THEN n.attrs->'aliases' ELSE '[]'::jsonb END) a), 0)) AS sim"
        " FROM neurons n WHERE %(name)s::text IS NOT NULL AND n.{owner} = %(owner)s"
        " AND n.kind = 'contact' AND n.state <> 'trashed'"
        " ORDER BY sim DESC LIMIT 20"
    ).format(cols=sql.SQL(_N_COLS), owner=owner(ident))


def find_contacts(cur: Cursor, ident: Identity, name: str, min_sim: float) -> list[dict[str, Any]]:
    """Contacts whose name, alias or body resembles `name` (trigram), with the best `sim`."""
    cur.execute(_find_contacts(ident), {"name": name, "owner": ident.value})
    return [r for r in cur.fetchall() if r["sim"] >= min_sim]


def stamp_ahead(
    cur: Cursor, ident: Identity, phrases: Sequence[str], like: str | None, min_sim: float
) -> tuple[int, dict[str, list[tuple[str, ...]]], list[dict[str, Any]]]:
    """In one statement: the change stamp (`change_stamp`), the lexemes of `phrases`
    (`phrase_lexemes`) and, unless `like` is None, the contacts resembling it (`find_contacts`);
    the stamp once, not once a contact (OFFSET 0)."""
    cur.execute(
        sql.SQL(
            "SELECT s.stamp, l.lex AS phrase_lexemes, f.* FROM"
            " (SELECT neurons_change_stamp() AS stamp OFFSET 0) s"
            " CROSS JOIN (SELECT coalesce(jsonb_agg(jsonb_build_array(x.p, x.lex) ORDER BY x.i, x.j),"
            "   '[]'::jsonb) AS lex FROM ({lexemes}) x) l"
            " LEFT JOIN LATERAL ({similar}) f ON TRUE"
        ).format(lexemes=sql.SQL(_PHRASE_LEXEMES), similar=_find_contacts(ident)),
        {"p": _phrases(phrases), "name": like, "owner": ident.value},
    )
    rows = cur.fetchall()
    head = rows[0]
    lexemes = _lexemes_of((p, lex) for p, lex in head["phrase_lexemes"])
    similar = [
        {k: v for k, v in r.items() if k not in ("stamp", "phrase_lexemes")}
        for r in rows
        if r["id"] is not None and r["sim"] >= min_sim
    ]
    return int(head["stamp"]), lexemes, similar


def stamp_and_neurons(
    cur: Cursor, ident: Identity, ids: Sequence[uuid.UUID]
) -> tuple[int, list[dict[str, Any]]]:
    """In one statement: the change stamp (`change_stamp`) and the rows of `ids`
    (`queries.get_neurons`'s columns): an answer the index foresaw, and whether it still holds.
    (OFFSET 0 keeps the stamp's subquery whole: pulled up, the function ran once a row.)"""
    cur.execute(
        sql.SQL(
            "SELECT s.stamp, n.* FROM (SELECT neurons_change_stamp() AS stamp OFFSET 0) s"
            " LEFT JOIN LATERAL (SELECT {cols} FROM neurons WHERE {owner} = %(owner)s"
            " AND id = ANY(%(ids)s)) n ON TRUE"
        ).format(cols=sql.SQL(NEURON_COLUMNS), owner=owner(ident)),
        {"owner": ident.value, "ids": list(ids)},
    )
    rows = cur.fetchall()
    return int(rows[0]["stamp"]), [r for r in rows if r["id"] is not None]


# -- the in-process recall index (core/recall/index.py) --------------------------------------------


def change_stamp(cur: Cursor) -> int:
    """The last change number the connected role's counter handed out (0 before the first):
    each database role numbers its own changes (migration 016)."""
    cur.execute("SELECT neurons_change_stamp() AS stamp")
    return int(one_row(cur)["stamp"])


def index_rows(
    cur: Cursor, ident: Identity, since: int | None
) -> tuple[Iterator[dict[str, Any]], int | None]:
    """What the recall index keeps of each neuron: all of the identity's (`since` None: with the
    highest change number of the table), or every neuron changed after `since` -- the identity's
    in full, others' as ids only (`mine` false: a claimed or trashed row leaves the index). The
    rows come as the cursor reads them: consume them before its transaction ends."""
    mine = _mine(ident)
    cols = sql.SQL(
        "id, {mine} AS mine, kind, state, created_at, change_seq,"
        " CASE WHEN {mine} THEN recall_ts(attrs->>'due_at') END AS due,"
        " CASE WHEN {mine} THEN recall_ts(attrs->>'done_at') END AS done,"
        " CASE WHEN {mine} AND jsonb_typeof(attrs->'rrule') = 'string' THEN attrs->>'rrule' END AS rrule,"
        " CASE WHEN {mine} AND kind = 'reminder' AND (attrs ? 'rrule' OR attrs ? 'rdates')"
        " THEN attrs - 'ical_extra' END AS series,"
        " CASE WHEN {mine} AND kind = 'contact' THEN attrs END AS contact_attrs,"
        " CASE WHEN {mine} AND kind = 'contact' THEN left(body, 200) END AS contact_body,"
        " CASE WHEN {mine} AND kind = 'note' THEN left(body, 400) END AS note_head,"
        " CASE WHEN {mine} THEN tsvector_to_array(tsv) END AS lexemes,"
        " CASE WHEN {mine} THEN length(tsv) END AS dl,"
        " CASE WHEN {mine} THEN embedding_model END AS embedding_model,"
        " CASE WHEN {mine} AND embedding IS NOT NULL THEN vector_send(embedding) END AS vec"
    ).format(mine=mine)
    return _changes(cur, ident, "neurons", cols, since, sql.SQL(""), INDEX_PAGE_ROWS)


def index_edges(
    cur: Cursor, ident: Identity, since: int | None
) -> tuple[Iterator[dict[str, Any]], int | None]:
    """What the recall index keeps of the edges (migration 005): the identity's open edges
    (`since` None: with the highest change number of the table), or every edge changed after
    `since` -- `keep` false for one the index must let go (closed, or another owner's). Like
    `index_rows`, the rows come as the cursor reads them."""
    mine = _mine(ident)
    cols = sql.SQL(
        "id, from_node_id, to_node_id, relation_type, weight, change_seq,"
        " ({mine} AND valid_to IS NULL) AS keep"
    ).format(mine=mine)
    return _changes(
        cur, ident, "neurons_edges", cols, since, sql.SQL(" AND valid_to IS NULL"), EDGE_PAGE_ROWS
    )


def _mine(ident: Identity) -> sql.Composable:
    """True for a row of `ident` (a claimed or another owner's row is not)."""
    return sql.SQL("({owner} IS NOT DISTINCT FROM %(owner)s)").format(owner=owner(ident))


def _changes(
    cur: Cursor,
    ident: Identity,
    table: str,
    cols: sql.Composable,
    since: int | None,
    live: sql.Composable,
    page_rows: int,
) -> tuple[Iterator[dict[str, Any]], int | None]:
    """`cols` of every row of `table` changed after `since`; or (`since` None) of the identity's
    rows that are `live`, with the table's highest change number. The rows come in pages along
    the change numbers, each one used before the next is read: one answer of 100k rows (~150 MB
    with the vectors) would stay in PGlite's WASM heap and Node's malloc for good, and, held
    whole here, in Python's heap. Along the change numbers rather than the ids: a row written
    while the pages are read moves ahead of them and is read again, never skipped (a server's
    other devices write meanwhile); and the rows come about in the order they lie on disk."""
    params = {"owner": ident.value}
    where: sql.Composable
    top: int | None
    if since is not None:
        where = sql.SQL("TRUE")
        top = None
    else:
        where = sql.SQL("{owner} = %(owner)s{live}").format(owner=owner(ident), live=live)
        cur.execute(
            sql.SQL("SELECT coalesce(max(change_seq), 0) AS top FROM {table}").format(
                table=sql.Identifier(table)
            )
        )
        top = int(one_row(cur)["top"])
    query = sql.SQL(
        "SELECT {cols} FROM {table} WHERE {where} AND change_seq > %(after)s"
        " ORDER BY change_seq LIMIT %(page)s"
    ).format(cols=cols, table=sql.Identifier(table), where=where)

    def pages() -> Iterator[dict[str, Any]]:
        after = since if since is not None else -1
        while True:
            cur.execute(query, {**params, "after": after, "page": page_rows})
            page = cur.fetchall()
            yield from page
            if len(page) < page_rows:
                return
            after = page[-1]["change_seq"]

    return pages(), top


def origin(cur: Cursor) -> dict[str, Any]:
    """The cluster's system identifier (where the role may read it), the database's name and oid."""
    system = None
    try:
        with cur.connection.transaction():  # a savepoint: a role may not read pg_control
            cur.execute("SELECT system_identifier::text AS s FROM pg_control_system()")
            system = one_row(cur)["s"]
    except psycopg.Error:
        pass
    cur.execute(
        "SELECT current_database() AS name, (SELECT oid FROM pg_database"
        " WHERE datname = current_database())::text AS oid"
    )
    row = one_row(cur)
    return {"system": system, "database": row["name"], "oid": row["oid"]}


def analyzed_rows(cur: Cursor) -> int | None:
    """The neurons the planner's statistics counted when last gathered; None: never gathered."""
    cur.execute("SELECT reltuples FROM pg_class WHERE oid = 'neurons'::regclass")
    rows = float(one_row(cur)["reltuples"])
    return int(rows) if rows >= 0 else None


def refresh_statistics(cur: Cursor) -> None:
    """ANALYZE the recall tables. The embedded engine has no autovacuum: without statistics its
    planner scans every edge of an owner instead of probing the edges of ten neurons."""
    cur.execute("ANALYZE neurons")
    cur.execute("ANALYZE neurons_edges")
