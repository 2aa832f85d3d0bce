"""A read of the store, counted in round trips to its engine (both engines): on the server, a read
transaction's BEGIN and the owner's name go with its first statement and its COMMIT with its
last wait (libpq's pipeline mode); what fails in it is rolled back and the connection serves on.
A read without a transaction (`alone`) is one round trip a statement, the owner's name (on the
server) holding for that statement only. A question reads what changed in the store only when
something did."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime

import psycopg
import pytest
from psycopg import pq

from core.memory import Memory
from core.model import Identity, Kind, Neuron, Relation
from core.store import queries, recall_sql
from tests.core.engine_trace import round_trips

# The round trips of a read transaction of two statements, of a person's answer and of a question,
# the index warm and the store unchanged since; per engine. On the embedded engine a transaction's
# BEGIN and COMMIT are a round trip each; a read without one (`alone`) is a round trip a statement
# on either engine: an about is one statement, a question two (its stamp and terms, its answer's
# rows).
TWO_STATEMENTS = {"embedded": 4, "server": 3}
ABOUT = {"embedded": 1, "server": 1}
ASK = {"embedded": 2, "server": 2}


def test_a_read_of_two_statements_waits_for_each_and_once_to_end(store):
    ident = Identity(device_id=uuid.uuid4())
    with store.transaction(ident) as cur:  # the identity's owner claimed, as after a first write
        cur.execute("SELECT 1")
    with round_trips(store) as trips:
        with store.reading(ident) as cur:
            cur.execute("SELECT count(*) AS n FROM neurons WHERE device_id = %s", (ident.device_id,))
            assert cur.fetchone()["n"] == 0
            cur.execute("SELECT %s::int AS two", (2,))
            assert cur.fetchall() == [{"two": 2}]
    assert trips[0] <= TWO_STATEMENTS[store.kind], trips
    assert store.conn.info.transaction_status is pq.TransactionStatus.IDLE


def test_a_reads_rows_are_its_own_statements_however_late_it_sends_them(store):
    """The owner's name is a statement of the read's too: its row, answered while the caller was
    still to send its first statement (a busy machine), was fetched as that statement's rows."""
    ident = Identity(device_id=uuid.uuid4())
    with store.reading(ident) as cur:
        if store.kind == "server":  # what libpq sends when its buffer fills or the network allows
            store.conn.pgconn.send_flush_request()
            store.conn.pgconn.flush()
        time.sleep(0.3)  # the engine has answered BEGIN and the owner's name by now
        cur.execute("SELECT %s::int AS v", (7,))
        assert cur.fetchall() == [{"v": 7}]


def test_a_failed_read_is_rolled_back_and_the_store_serves_on(store):
    ident = Identity(device_id=uuid.uuid4())
    with pytest.raises(psycopg.errors.UndefinedTable):
        with store.reading(ident) as cur:
            cur.execute("SELECT * FROM no_such_table")
            cur.fetchall()
    assert store.conn.info.transaction_status is pq.TransactionStatus.IDLE
    with pytest.raises(ZeroDivisionError):  # the caller's own failure in the middle of its reads
        with store.reading(ident) as cur:
            cur.execute("SELECT 1 AS one")
            _ = cur.fetchone()["one"] / 0
    assert store.conn.info.transaction_status is pq.TransactionStatus.IDLE
    with pytest.raises(psycopg.errors.DivisionByZero):  # a statement whose rows are never fetched
        with store.reading(ident) as cur:
            cur.execute("SELECT 1 / 0")
    assert store.conn.info.transaction_status is pq.TransactionStatus.IDLE
    with store.reading(ident) as cur:
        cur.execute("SELECT 41 + 1 AS n")
        assert cur.fetchone()["n"] == 42


def test_a_savepoint_inside_a_read_keeps_the_read_and_its_owner(memory):
    """Which database this is: the cluster's id is read in a savepoint (a role that may not read
    pg_control has it rolled back alone); the reads after it are still in the read's transaction,
    as its owner."""
    note = memory.capture("the spare key is under the blue pot", kind="note")
    with memory.store.reading(memory.identity) as cur:
        cur.execute("SELECT now() AS at")
        began = cur.fetchone()["at"]
        origin = recall_sql.origin(cur)
        cur.execute("SELECT id, now() AS at FROM neurons WHERE device_id = %s", (memory.identity.device_id,))
        rows = cur.fetchall()
    assert origin["database"] and origin["oid"]
    assert [r["id"] for r in rows] == [note.id]
    assert rows[0]["at"] == began  # one transaction throughout
    assert memory.store.conn.info.transaction_status is pq.TransactionStatus.IDLE


def test_about_and_ask_in_few_round_trips(memory: Memory):
    m = memory
    ana = m.capture("Ana Lima - neighbour", kind="contact", attrs={"name": "Ana Lima"})
    plants = m.capture("Ana waters the plants while we are away", kind="note")
    m.link(plants.id, ana.id, Relation.CONCERNS)
    m.capture("the boiler lost pressure again", kind="note")
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    m.about("Ana Lima")  # the index warm, as after the app's start
    m.ask("boiler", now=now)
    with round_trips(m.store) as about_trips:
        answer = m.about("Ana Lima")
    with round_trips(m.store) as ask_trips:
        found = m.ask("what happened to the boiler?", now=now)
    assert answer.contact is not None and answer.contact.id == ana.id
    assert plants.id in {r.neuron.id for r in answer.timeline}
    assert found and "boiler" in found[0].neuron.body
    assert about_trips[0] <= ABOUT[m.store.kind], about_trips
    assert ask_trips[0] <= ASK[m.store.kind], ask_trips


def test_another_identity_s_write_is_looked_for_once_not_on_every_question(memory: Memory):
    """On a server, another identity of the same database role moves the role's change counter
    with rows this identity cannot see (row-level security): its next question looks at what
    changed once, and the questions after it no more than before the write."""
    m = memory
    other = Memory(m.store, Identity(device_id=uuid.uuid4()), owns_store=False, model=m.model)
    m.capture("the boiler lost pressure again", kind="note")
    now = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

    def ask() -> int:
        with round_trips(m.store) as trips:
            found = m.ask("boiler", now=now, mode="keyword")
        assert [r.neuron.body for r in found] == ["the boiler lost pressure again"]
        return trips[0]

    ask()
    quiet = ask()  # nothing written since the last question
    for text in ("someone else's note", "another note of theirs"):
        other.capture(text, kind="note")
        ask()  # the one look at what changed
        assert [ask() for _ in range(3)] == [quiet] * 3


def test_a_read_inside_a_write_is_part_of_it(store):
    """A reader's look in the middle of a write (a capture reads the contacts before it links a
    new card) neither ends the write's transaction nor its owner: what the write did before the
    read is undone with it."""
    ident = Identity(device_id=uuid.uuid4())
    kept = Memory(store, ident, owns_store=False).capture("a note that stays", kind="note")
    doomed = uuid.uuid4()
    with pytest.raises(RuntimeError):
        with store.transaction(ident) as cur:
            queries.insert_neurons(cur, ident, [Neuron(id=doomed, kind=Kind.NOTE, body="undone", attrs={})])
            with store.reading(ident) as inner:
                inner.execute("SELECT id FROM neurons WHERE device_id = %s", (ident.device_id,))
                assert {r["id"] for r in inner.fetchall()} == {kept.id, doomed}
            cur.execute("SELECT count(*) AS n FROM neurons WHERE device_id = %s", (ident.device_id,))
            assert cur.fetchone()["n"] == 2
            raise RuntimeError("the write fails after its read")
    with store.reading(ident) as cur:
        cur.execute("SELECT id FROM neurons WHERE device_id = %s", (ident.device_id,))
        assert [r["id"] for r in cur.fetchall()] == [kept.id]


def test_a_read_inside_a_read_keeps_the_outer_one(store):
    ident = Identity(device_id=uuid.uuid4())
    note = Memory(store, ident, owns_store=False).capture("one note", kind="note")
    with store.reading(ident) as outer:
        outer.execute("SELECT now() AS at")
        began = outer.fetchone()["at"]
        with store.reading(ident) as inner:
            inner.execute("SELECT id FROM neurons WHERE device_id = %s", (ident.device_id,))
            assert [r["id"] for r in inner.fetchall()] == [note.id]
        outer.execute("SELECT id, now() AS at FROM neurons WHERE device_id = %s", (ident.device_id,))
        rows = outer.fetchall()
    assert [r["id"] for r in rows] == [note.id] and rows[0]["at"] == began
    assert store.conn.info.transaction_status is pq.TransactionStatus.IDLE


def test_a_read_alone_is_a_round_trip_a_statement_as_its_owner_only(store):
    """Each statement of a read without a transaction sees its owner's rows and no other's, and
    the owner's name outlives none of them: a statement after it on the connection, with no owner
    named, sees no row."""
    ana, bea = Identity(device_id=uuid.uuid4()), Identity(device_id=uuid.uuid4())
    for ident, body in ((ana, "ana's note"), (bea, "bea's note")):
        Memory(store, ident, owns_store=False).capture(body, kind="note")
        with store.reading(ident) as cur:  # the owner held by this store, as after its first read
            cur.execute("SELECT 1")
    seen = {}
    for ident in (ana, bea, ana):
        with round_trips(store) as trips, store.reading(ident, alone=True) as cur:
            cur.execute("SELECT body FROM neurons")  # no owner filter: row-level security's alone
            bodies = [r["body"] for r in cur.fetchall()]
            cur.execute("SELECT count(*) AS n FROM neurons")
            seen[ident.device_id] = (bodies, cur.fetchone()["n"])
        assert trips[0] == 2, trips
    assert store.conn.info.transaction_status is pq.TransactionStatus.IDLE
    if store.kind == "server":  # (the embedded engine's role is not held by row-level security)
        assert seen == {ana.device_id: (["ana's note"], 1), bea.device_id: (["bea's note"], 1)}
        row = store.conn.execute(
            "SELECT current_setting('neurons.device_id', true) AS device, (SELECT count(*) FROM neurons) AS n"
        ).fetchone()
        assert row is not None and not row["device"] and row["n"] == 0


def test_a_read_alone_fails_alone_or_with_the_write_it_is_in(store):
    """A statement of a read alone that fails, or a failure of its caller, leaves the store
    serving; inside a write, a read alone is part of the write, undone with it."""
    ident = Identity(device_id=uuid.uuid4())
    Memory(store, ident, owns_store=False).capture("a note that stays", kind="note")
    with pytest.raises(psycopg.errors.DivisionByZero):
        with store.reading(ident, alone=True) as cur:
            cur.execute("SELECT 1 / 0")
    with pytest.raises(ZeroDivisionError):
        with store.reading(ident, alone=True) as cur:
            cur.execute("SELECT 1 AS one")
            _ = cur.fetchone()["one"] / 0
    with store.reading(ident, alone=True) as cur:  # a transaction of its own inside (as origin's)
        with pytest.raises(psycopg.errors.DivisionByZero), cur.connection.transaction():
            cur.execute("SELECT 1 / 0")
        cur.execute("SELECT body FROM neurons WHERE device_id = %s", (ident.device_id,))
        assert [r["body"] for r in cur.fetchall()] == ["a note that stays"]
    assert store.conn.info.transaction_status is pq.TransactionStatus.IDLE
    doomed = uuid.uuid4()
    with pytest.raises(RuntimeError):
        with store.transaction(ident) as cur:
            queries.insert_neurons(cur, ident, [Neuron(id=doomed, kind=Kind.NOTE, body="undone", attrs={})])
            with store.reading(ident, alone=True) as inner:
                inner.execute("SELECT body FROM neurons WHERE device_id = %s", (ident.device_id,))
                assert sorted(r["body"] for r in inner.fetchall()) == ["a note that stays", "undone"]
            raise RuntimeError("the write fails after its read")
    with round_trips(store) as trips, store.reading(ident, alone=True) as cur:
        cur.execute("SELECT body FROM neurons WHERE device_id = %s", (ident.device_id,))
        assert [r["body"] for r in cur.fetchall()] == ["a note that stays"]
    assert trips[0] == 1, trips
