"""The store's cursor and connection types: every connection reads rows as dicts (`dict_row`),
so a row is read by column name. Annotate with these, not psycopg's bare (tuple-row) types."""

from __future__ import annotations

from typing import TypeAlias

import psycopg
from psycopg.rows import DictRow

Cursor: TypeAlias = psycopg.Cursor[DictRow]
Connection: TypeAlias = psycopg.Connection[DictRow]


def one_row(cur: Cursor) -> DictRow:
    """The row of a statement that always returns exactly one (an aggregate, a `version()`)."""
    row = cur.fetchone()
    if row is None:
        raise LookupError("a statement that always returns a row returned none")
    return row
