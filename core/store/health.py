"""Is every row readable? The store's own check, for `neurons doctor` and before an export.

A truncated table file reads as a shorter table (a sequential scan stops at the file's end,
silently), while its indexes still point past that end. So each table is read twice: every row
in full by a sequential scan (detoasting every value), and counted through an index; an error in
either, or two different counts, is damage.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from core.model import Identity
from core.store.cursor import Cursor, one_row

TABLES = ("neurons", "neurons_edges", "profiles", "schema_version")
OWNED_TABLES = ("neurons", "neurons_edges")


def _scoped(table: str, ident: Identity | None) -> tuple[sql.Composable, tuple[Any, ...]]:
    if ident is None or table not in OWNED_TABLES:
        return sql.SQL(""), ()
    return sql.SQL(" WHERE {} = %s").format(sql.Identifier(ident.column)), (ident.value,)


def read_in_full(cur: Cursor, table: str, ident: Identity | None = None) -> int:
    """Every row of `table` (of `ident`) read whole by a sequential scan; how many."""
    where, params = _scoped(table, ident)
    cur.execute("SET LOCAL enable_indexscan = off")
    cur.execute("SET LOCAL enable_indexonlyscan = off")
    cur.execute("SET LOCAL enable_bitmapscan = off")
    cur.execute(
        sql.SQL("SELECT count(*) AS n, sum(length(t::text)) AS chars FROM {} t{}").format(
            sql.Identifier(table), where
        ),
        params,
    )
    return one_row(cur)["n"]


def count_fetched(cur: Cursor, table: str, ident: Identity | None = None) -> int:
    """How many rows of `table` (of `ident`) an index scan fetches from the table: each row's
    block is read (one past the end of a table file cut short fails, where a sequential scan
    would stop silently, and a bitmap scan pass over it), no value is."""
    where, params = _scoped(table, ident)
    cur.execute("SET LOCAL enable_seqscan = off")
    cur.execute("SET LOCAL enable_indexscan = on")
    cur.execute("SET LOCAL enable_indexonlyscan = off")
    cur.execute("SET LOCAL enable_bitmapscan = off")
    joiner = " AND " if params else " WHERE "
    cur.execute(
        sql.SQL("SELECT count(*) AS n FROM {}{}{}id IS NOT NULL").format(
            sql.Identifier(table), where, sql.SQL(joiner)
        ),
        params,
    )
    return one_row(cur)["n"]


def count_by_index(cur: Cursor, table: str, ident: Identity | None = None) -> int:
    """How many rows `table`'s indexes hold (every table here has a primary key)."""
    where, params = _scoped(table, ident)
    cur.execute("SET LOCAL enable_seqscan = off")
    cur.execute("SET LOCAL enable_indexscan = on")
    cur.execute("SET LOCAL enable_indexonlyscan = on")
    cur.execute("SET LOCAL enable_bitmapscan = off")
    key = "version" if table == "schema_version" else ("user_id" if table == "profiles" else "id")
    joiner = " AND " if params else " WHERE "
    cur.execute(
        sql.SQL("SELECT count(*) AS n FROM {}{}{}{} IS NOT NULL").format(
            sql.Identifier(table), where, sql.SQL(joiner), sql.Identifier(key)
        ),
        params,
    )
    return one_row(cur)["n"]


def check_table(cur: Cursor, table: str, ident: Identity | None = None) -> tuple[int | None, str | None]:
    """(rows read, the problem found or None). Each read runs in a savepoint of its own, so an
    engine error is reported here and the caller's transaction goes on."""
    try:
        with cur.connection.transaction():
            read = read_in_full(cur, table, ident)
        with cur.connection.transaction():
            indexed = count_by_index(cur, table, ident)
    except psycopg.DatabaseError as exc:
        if cur.connection.broken:
            raise
        return None, f"{table}: {str(exc).strip().splitlines()[0]}"
    if read != indexed:
        return read, (
            f"{table}: {read} rows can be read but its index holds {indexed}: "
            "part of the table file is missing"
        )
    return read, None


def counted_again(cur: Cursor, read: dict[str, int], ident: Identity | None = None) -> list[str]:
    """The problems of the tables whose rows (of `ident`) just read, `read[table]` of them, are
    not as many as their indexes hold: a reading's own check, costing an index count a table
    rather than every table read whole (a value that cannot be read fails the reading itself)."""
    problems = []
    for table, n in read.items():
        try:
            with cur.connection.transaction():
                indexed = count_by_index(cur, table, ident)
        except psycopg.DatabaseError as exc:
            if cur.connection.broken:
                raise
            problems.append(f"{table}: {str(exc).strip().splitlines()[0]}")
            continue
        if n != indexed:
            problems.append(
                f"{table}: {n} rows were read but its index holds {indexed}: "
                "part of the table file is missing"
            )
    return problems


def read_short(cur: Cursor, ident: Identity | None = None) -> list[str]:
    """The problems of the owned tables whose rows (of `ident`) cannot all be fetched: what a
    plan that reads only some rows checks, so a table file cut short still stops it (its own
    reads may never reach the missing part). The rows are fetched through the index, then
    counted again by it: a snapshot's own check, without reading a value."""
    read, problems = {}, []
    for table in OWNED_TABLES:
        try:
            with cur.connection.transaction():
                read[table] = count_fetched(cur, table, ident)
        except psycopg.DatabaseError as exc:
            if cur.connection.broken:
                raise
            problems.append(f"{table}: {str(exc).strip().splitlines()[0]}")
    return problems + counted_again(cur, read, ident)


def check_store(cur: Cursor, ident: Identity | None = None) -> dict[str, Any]:
    """{"ok", "rows": {table: n}, "problems": [sentences]} over every table (of `ident`)."""
    rows: dict[str, int | None] = {}
    problems: list[str] = []
    for table in TABLES:
        rows[table], problem = check_table(cur, table, ident)
        if problem:
            problems.append(problem)
    return {"ok": not problems, "rows": rows, "problems": problems}
