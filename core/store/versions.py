"""What a server Postgres must run, checked when the store connects to it, before any schema
update: an older one would fail in the middle of one with the server's own words (pgvector
before 0.5 has no HNSW, which schema update 001 makes), or not be one the tests judged.

The minimums are the ones docs/guide/profiles-and-servers.md states (a test reads them there).
The embedded engine is the PGlite Neurons pins, so it is not checked.
"""

from __future__ import annotations

import re

from core.store.cursor import Cursor, one_row
from core.store.errors import StoreError

POSTGRES_MINIMUM = 15  # the major version
PGVECTOR_MINIMUM = (0, 5, 0)  # its first release with HNSW


def check_server(cur: Cursor, where: str) -> None:
    """Raise a StoreError naming the version needed when the server of `where` (a database on a
    host, as the person wrote it) is older than Neurons needs; one round trip. The server's
    available pgvector is asked only when the database has none yet (it reads files on disk)."""
    cur.execute(
        "SELECT current_setting('server_version_num')::int AS num,"
        " current_setting('server_version') AS version, e.extversion AS installed,"
        " CASE WHEN e.extversion IS NULL THEN"
        "  (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') END AS available"
        " FROM (SELECT 1) AS one LEFT JOIN pg_extension e ON e.extname = 'vector'"
    )
    found = one_row(cur)
    pgvector = ".".join(map(str, PGVECTOR_MINIMUM))
    if found["num"] // 10000 < POSTGRES_MINIMUM:
        raise StoreError(
            f"the server of the {where} runs PostgreSQL {found['version'].split()[0]}; Neurons "
            f"needs PostgreSQL {POSTGRES_MINIMUM} or newer (nothing was changed)"
        )
    if found["installed"] is not None and release(found["installed"]) < PGVECTOR_MINIMUM:
        raise StoreError(
            f"the {where} has pgvector {found['installed']}; Neurons needs pgvector {pgvector} or "
            'newer: ask its admin to install a newer one and run "ALTER EXTENSION vector UPDATE;" '
            "in it (nothing was changed)"
        )
    if found["available"] is not None and release(found["available"]) < PGVECTOR_MINIMUM:
        raise StoreError(
            f"the server of the {where} has pgvector {found['available']} installed; Neurons needs "
            f"pgvector {pgvector} or newer: ask its admin to install a newer one (nothing was changed)"
        )


def release(version: str) -> tuple[int, ...]:
    """pgvector's "0.8.2" as (0, 8, 2); a part that is not a number ends it."""
    parts = []
    for part in version.split("."):
        digits = re.match(r"\d+", part)
        if digits is None:
            break
        parts.append(int(digits.group()))
    return tuple(parts)
