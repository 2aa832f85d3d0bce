"""The SQL of sync (migration 006): accounts, their chosen collections, and per item what Neurons
and the server last agreed on. Every statement is scoped to one Identity through the account's
owner column; collections and items are reached through their account."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from psycopg import sql
from psycopg.types.json import Jsonb

from core.model import Edge, Identity, Kind, Neuron, NeuronsError
from core.store.cursor import Cursor, one_row
from core.store.queries import NEURON_COLUMNS, neuron_from_row, owner


@dataclass
class Collection:
    """A calendar or address book of an account that Neurons syncs with."""

    href: str  # absolute URL
    name: str
    kind: Kind  # what its items are in Neurons
    component: str | None = None  # VTODO, VEVENT, VJOURNAL; None for an address book
    vcard_version: str | None = None
    supports_sync: bool = False
    position: int = 0
    id: uuid.UUID = field(default_factory=uuid.uuid4)
    sync_token: str | None = None
    last_error: str | None = None  # why its last sync failed (None: it did not)


@dataclass
class Account:
    id: uuid.UUID
    url: str
    given_url: str
    username: str
    redirects: str = "refuse"  # or "follow-without-password" (core/sync REDIRECT_CHOICES)
    created_at: datetime | None = None
    tried_at: datetime | None = None
    synced_at: datetime | None = None
    last_error: str | None = None
    collections: list[Collection] = field(default_factory=list)


@dataclass
class Agreed:
    """What Neurons and the server last agreed on for one item of a collection."""

    href: str
    etag: str | None
    neuron_id: uuid.UUID | None
    fingerprint: str | None = None
    seen_seq: int | None = None


@dataclass
class Local:
    """A neuron of a synced kind, its change number, and where it is synced (if anywhere)."""

    neuron: Neuron
    seq: int
    collection_id: uuid.UUID | None
    agreed: Agreed | None


class ChangedMeanwhileError(NeuronsError):
    """A neuron a pull read changed before the pull was written: plan it again."""


# A pull that leaves the collection's sync token as it is (it did not read the whole change list).
KEEP_TOKEN = "\x00keep"


@dataclass
class Pulled:
    """What a pull writes in one transaction (Memory.apply_sync)."""

    collection_id: uuid.UUID
    created: list[Neuron] = field(default_factory=list)
    updated: list[Neuron] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    trashed: list[uuid.UUID] = field(default_factory=list)
    agreed: list[Agreed] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)  # hrefs no longer on the server
    expected: dict[uuid.UUID, int] = field(default_factory=dict)  # change numbers the plan read
    token: str | None = KEEP_TOKEN


# -- accounts --------------------------------------------------------------------------------------


def accounts(cur: Cursor, ident: Identity) -> list[Account]:
    cur.execute(
        sql.SQL(
            "SELECT id, url, given_url, username, redirects, created_at, tried_at, synced_at, last_error"
            " FROM sync_accounts WHERE {owner} = %s ORDER BY created_at, id"
        ).format(owner=owner(ident)),
        (ident.value,),
    )
    found = [Account(**row) for row in cur.fetchall()]
    if not found:
        return []
    cur.execute(
        "SELECT id, account_id, href, name, kind, component, vcard_version, position, supports_sync,"
        " sync_token, last_error FROM sync_collections WHERE account_id = ANY(%s) ORDER BY position, href",
        ([a.id for a in found],),
    )
    by_id = {a.id: a for a in found}
    for row in cur.fetchall():
        account_id = row.pop("account_id")
        row["kind"] = Kind(row["kind"])
        by_id[account_id].collections.append(Collection(**row))
    return found


def save_account(cur: Cursor, ident: Identity, account: Account) -> None:
    """Insert the account, or update the one of the same URL and user: its collections become the
    given ones (those it keeps keep what they agreed on; the others go, with their items)."""
    cur.execute(
        sql.SQL(
            "INSERT INTO sync_accounts (id, {owner}, url, given_url, username, redirects)"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT ((coalesce(device_id, user_id)), url, username)"
            " DO UPDATE SET given_url = excluded.given_url, redirects = excluded.redirects RETURNING id"
        ).format(owner=owner(ident)),
        (account.id, ident.value, account.url, account.given_url, account.username, account.redirects),
    )
    account.id = one_row(cur)["id"]
    hrefs = [c.href for c in account.collections]
    cur.execute(
        "DELETE FROM sync_collections WHERE account_id = %s AND NOT (href = ANY(%s))", (account.id, hrefs)
    )
    for c in account.collections:
        cur.execute(
            "INSERT INTO sync_collections (id, account_id, href, name, kind, component, vcard_version,"
            " position, supports_sync) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (account_id, href, holder) DO UPDATE SET name = excluded.name,"
            " kind = excluded.kind, component = excluded.component, vcard_version = excluded.vcard_version,"
            " position = excluded.position, supports_sync = excluded.supports_sync RETURNING id, sync_token",
            (
                c.id,
                account.id,
                c.href,
                c.name,
                c.kind.value,
                c.component,
                c.vcard_version,
                c.position,
                c.supports_sync,
            ),
        )
        row = one_row(cur)
        c.id, c.sync_token = row["id"], row["sync_token"]


def remove_account(cur: Cursor, ident: Identity, account_id: uuid.UUID) -> bool:
    cur.execute(
        sql.SQL("DELETE FROM sync_accounts WHERE {owner} = %s AND id = %s").format(owner=owner(ident)),
        (ident.value, account_id),
    )
    return cur.rowcount > 0


def account_tried(
    cur: Cursor, ident: Identity, account_id: uuid.UUID, at: datetime, error: str | None
) -> None:
    """The end of a sync: when it was tried, and when it last finished (no error)."""
    cur.execute(
        sql.SQL(
            "UPDATE sync_accounts SET tried_at = %s, last_error = %s,"
            " synced_at = CASE WHEN %s::text IS NULL THEN %s ELSE synced_at END"
            " WHERE {owner} = %s AND id = %s"
        ).format(owner=owner(ident)),
        (at, error, error, at, ident.value, account_id),
    )


def collection_tried(cur: Cursor, ident: Identity, collection_id: uuid.UUID, error: str | None) -> None:
    """The end of a collection's sync: why it failed, or None."""
    _own_collection(cur, ident, collection_id)
    cur.execute("UPDATE sync_collections SET last_error = %s WHERE id = %s", (error, collection_id))


def _own_collection(cur: Cursor, ident: Identity, collection_id: uuid.UUID) -> None:
    """Refuse a collection that is not this identity's (items are reached through it)."""
    cur.execute(
        sql.SQL(
            "SELECT 1 FROM sync_collections c JOIN sync_accounts a ON a.id = c.account_id"
            " WHERE c.id = %s AND a.{owner} = %s"
        ).format(owner=owner(ident)),
        (collection_id, ident.value),
    )
    if cur.fetchone() is None:
        raise LookupError(f"no sync collection {collection_id}")


def save_token(cur: Cursor, ident: Identity, collection_id: uuid.UUID, token: str | None) -> None:
    _own_collection(cur, ident, collection_id)
    cur.execute("UPDATE sync_collections SET sync_token = %s WHERE id = %s", (token, collection_id))


# -- items -----------------------------------------------------------------------------------------


def agreed(cur: Cursor, ident: Identity, collection_id: uuid.UUID) -> dict[str, Agreed]:
    _own_collection(cur, ident, collection_id)
    cur.execute(
        "SELECT href, etag, neuron_id, fingerprint, seen_seq FROM sync_items WHERE collection_id = %s",
        (collection_id,),
    )
    return {row["href"]: Agreed(**row) for row in cur.fetchall()}


def agree(cur: Cursor, ident: Identity, collection_id: uuid.UUID, items: Sequence[Agreed]) -> None:
    """Record what both sides now agree on (by href); a neuron synced elsewhere before moves here."""
    if not items:
        return
    _own_collection(cur, ident, collection_id)
    rows = [
        {
            "href": i.href,
            "etag": i.etag,
            "neuron_id": str(i.neuron_id) if i.neuron_id else None,
            "fingerprint": i.fingerprint,
            "seen_seq": i.seen_seq,
        }
        for i in items
    ]
    cur.execute(
        "DELETE FROM sync_items s USING jsonb_to_recordset(%s) AS r(href text, neuron_id uuid)"
        " WHERE s.neuron_id = r.neuron_id AND NOT (s.collection_id = %s AND s.href = r.href)",
        (Jsonb(rows), collection_id),
    )
    cur.execute(
        "INSERT INTO sync_items (collection_id, href, etag, neuron_id, fingerprint, seen_seq)"
        " SELECT %s, r.href, r.etag, r.neuron_id, r.fingerprint, r.seen_seq FROM jsonb_to_recordset(%s)"
        " AS r(href text, etag text, neuron_id uuid, fingerprint text, seen_seq bigint)"
        " ON CONFLICT (collection_id, href, holder) DO UPDATE SET etag = excluded.etag,"
        " neuron_id = excluded.neuron_id, fingerprint = excluded.fingerprint, seen_seq = excluded.seen_seq",
        (collection_id, Jsonb(rows)),
    )


def seen(cur: Cursor, ident: Identity, collection_id: uuid.UUID, seqs: dict[uuid.UUID, int]) -> None:
    """Neurons that changed here without changing what the server holds (a reminder was shown)."""
    if not seqs:
        return
    _own_collection(cur, ident, collection_id)
    cur.execute(
        "UPDATE sync_items s SET seen_seq = r.seq FROM jsonb_to_recordset(%s) AS r(id uuid, seq bigint)"
        " WHERE s.collection_id = %s AND s.neuron_id = r.id",
        (Jsonb([{"id": str(k), "seq": v} for k, v in seqs.items()]), collection_id),
    )


def forget(cur: Cursor, ident: Identity, collection_id: uuid.UUID, hrefs: Iterable[str]) -> None:
    hrefs = list(hrefs)
    if not hrefs:
        return
    _own_collection(cur, ident, collection_id)
    cur.execute("DELETE FROM sync_items WHERE collection_id = %s AND href = ANY(%s)", (collection_id, hrefs))


def change_seqs(cur: Cursor, ident: Identity, ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, int]:
    ids = list(ids)
    if not ids:
        return {}
    cur.execute(
        sql.SQL("SELECT id, change_seq FROM neurons WHERE {owner} = %s AND id = ANY(%s)").format(
            owner=owner(ident)
        ),
        (ident.value, ids),
    )
    return {row["id"]: row["change_seq"] for row in cur.fetchall()}


def locals_of(cur: Cursor, ident: Identity, kinds: Sequence[Kind]) -> list[Local]:
    """Every neuron of these kinds (any state) with its change number and its sync binding."""
    cols = ", ".join(f"n.{c.strip()}" for c in NEURON_COLUMNS.split(","))
    cur.execute(
        sql.SQL(
            "SELECT " + cols + ", n.change_seq AS seq, s.collection_id, s.href AS s_href, s.etag AS s_etag,"
            " s.fingerprint AS s_fingerprint, s.seen_seq AS s_seen FROM neurons n"
            " LEFT JOIN sync_items s ON s.neuron_id = n.id"
            " WHERE n.{owner} = %s AND n.kind = ANY(%s) ORDER BY n.created_at, n.id"
        ).format(owner=owner(ident)),
        (ident.value, [k.value for k in kinds]),
    )
    out = []
    for row in cur.fetchall():
        neuron = neuron_from_row(row)
        agreed_row = (
            Agreed(row["s_href"], row["s_etag"], neuron.id, row["s_fingerprint"], row["s_seen"])
            if row["collection_id"] is not None
            else None
        )
        out.append(Local(neuron, row["seq"], row["collection_id"], agreed_row))
    return out
