"""Row-level security on the server engine: a second wall behind the owner filter.
The tests' server role is the app's (not superuser, no BYPASSRLS); here one identity's
transaction asks for another's rows with SQL that has no owner filter at all."""

from __future__ import annotations

import uuid

import pytest

from core.memory import Memory
from core.model import Identity
from core.store import queries as q
from core.store.errors import StoreError

pytestmark = pytest.mark.server


@pytest.fixture
def two(server_store):
    a = Memory(server_store, Identity(device_id=uuid.uuid4()), owns_store=False)
    b = Memory(server_store, Identity(device_id=uuid.uuid4()), owns_store=False)
    note_a = a.capture("a's secret", kind="note")
    note_b = b.capture("b's secret", kind="note")
    b.link(note_b.id, b.capture("b's other", kind="note").id)
    return a, b, note_a, note_b


def test_the_app_role_is_held_by_row_security(server_store):
    with server_store.reading() as cur:
        facts = q.row_security(cur)
    assert facts["enforced"], facts


def test_one_identity_cannot_read_anothers_rows(server_store, two):
    a, b, note_a, note_b = two
    with server_store.reading(a.identity) as cur:
        cur.execute("SELECT id FROM neurons WHERE device_id = %s", (b.identity.device_id,))
        assert cur.fetchall() == []
        cur.execute("SELECT id FROM neurons WHERE id = %s", (note_b.id,))
        assert cur.fetchall() == []
        cur.execute("SELECT count(*) AS n FROM neurons_edges WHERE device_id = %s", (b.identity.device_id,))
        assert cur.fetchone()["n"] == 0
        cur.execute("SELECT DISTINCT device_id FROM neurons")
        assert [r["device_id"] for r in cur.fetchall()] == [a.identity.device_id]
    with server_store.reading() as cur:  # no identity named: nothing at all
        cur.execute("SELECT count(*) AS n FROM neurons")
        assert cur.fetchone()["n"] == 0


def test_one_identity_cannot_write_anothers_rows(server_store, two):
    a, b, _, note_b = two
    with server_store.transaction(a.identity) as cur:
        cur.execute("UPDATE neurons SET body = 'taken' WHERE id = %s", (note_b.id,))
        assert cur.rowcount == 0
        cur.execute("DELETE FROM neurons_edges WHERE device_id = %s", (b.identity.device_id,))
        assert cur.rowcount == 0
    with pytest.raises(StoreError, match="row-level security"):
        with server_store.transaction(a.identity) as cur:
            cur.execute(
                "INSERT INTO neurons (id, device_id, kind, body) VALUES (%s, %s, 'note', 'x')",
                (uuid.uuid4(), b.identity.device_id),
            )
    assert b.get(note_b.id).body == "b's secret"


def test_store_wide_work_and_claims_still_work(server_store, two):
    a, b, note_a, _ = two
    with server_store.reading(every_owner=True) as cur:
        assert q.count_neurons(cur) >= 3
    profile = a.claim("Ana")
    assert [n.id for n in profile.list()] == [note_a.id]
    assert a.list() == []
