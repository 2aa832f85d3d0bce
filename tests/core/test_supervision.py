"""The store supervises its engine: a dead engine is reaped, started again and
reported once; the call it broke fails with a sentence, the next one works, nothing is lost."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid

import psutil
import psycopg
import pytest

from core.memory import Memory
from core.model import Identity
from core.settings import Settings
from core.store import Store
from core.store import store as store_module
from core.store.errors import EngineLost, StoreError


def wait_for(condition, timeout=60.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def is_zombie(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.fixture
def own_store(fresh_data_dir):
    store = Store(Settings(data_dir=fresh_data_dir, embed_in_background=False))
    yield store
    store.close()


def test_a_killed_engine_is_reaped_restarted_and_reported_once(own_store):
    told: list[str] = []
    own_store.restart_listeners.append(told.append)
    memory = Memory(own_store, Identity(device_id=uuid.uuid4()), owns_store=False)
    kept = memory.capture("acknowledged before the crash", kind="note")
    old = own_store.engine.pid
    os.kill(old, signal.SIGKILL)
    wait_for(lambda: told)  # restarted by the supervisor, before anyone asked
    assert own_store.engine.pid != old and own_store.engine.alive
    assert not is_zombie(old) and not psutil.pid_exists(old)
    assert own_store.lock.read_record()["engine_pid"] == own_store.engine.pid
    assert memory.get(kept.id).body == "acknowledged before the crash"
    memory.capture("after the restart", kind="note")
    assert len(told) == 1 and "restarted" in told[0] and "nothing you saved was lost" in told[0]


def test_the_call_an_engine_death_breaks_fails_with_a_sentence(own_store):
    memory = Memory(own_store, Identity(device_id=uuid.uuid4()), owns_store=False)
    memory.capture("first", kind="note")
    pid = own_store.engine.pid
    os.kill(pid, signal.SIGSTOP)  # the next call blocks on a frozen engine...
    outcome: list[BaseException | None] = []

    def capture():
        try:
            memory.capture("during the crash", kind="note")
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - the test inspects what escaped
            outcome.append(exc)

    worker = threading.Thread(target=capture)
    worker.start()
    time.sleep(0.5)
    os.kill(pid, signal.SIGKILL)  # ...and the engine dies under it
    worker.join(60)
    [error] = outcome
    assert isinstance(error, EngineLost), repr(error)
    assert "try again" in str(error) or "look before" in str(error)
    memory.capture("after", kind="note")
    bodies = {n.body for n in memory.list()}
    assert {"first", "after"} <= bodies


def test_an_engine_that_keeps_dying_is_given_up_with_a_sentence(own_store):
    told: list[str] = []
    own_store.restart_listeners.append(told.append)
    for n in range(store_module.MAX_RESTARTS):
        os.kill(own_store.engine.pid, signal.SIGKILL)
        wait_for(lambda n=n: len(told) > n)
    os.kill(own_store.engine.pid, signal.SIGKILL)
    wait_for(lambda: not own_store.engine.alive)
    with pytest.raises(StoreError, match="keeps stopping"):
        with own_store.reading() as cur:
            cur.execute("SELECT 1")


@pytest.mark.server
def test_a_lost_server_connection_is_reopened(server_dsn, tmp_path):
    with Store(Settings(data_dir=tmp_path / "local", dsn=server_dsn)) as store:
        told: list[str] = []
        store.restart_listeners.append(told.append)
        memory = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
        kept = memory.capture("on the server", kind="note")
        backend = store.conn.info.backend_pid
        with psycopg.connect(server_dsn, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (backend,))
        with pytest.raises(EngineLost, match="try again"):
            memory.list()
        assert memory.get(kept.id).body == "on the server"
        assert store.conn.info.backend_pid != backend
        assert len(told) == 1 and "connection" in told[0]


def test_the_memory_that_owns_the_store_tells_its_listeners_once(fresh_data_dir):
    memory = Memory(Store(Settings(data_dir=fresh_data_dir, embed_in_background=False)))
    try:
        heard = []
        memory.listeners.append(heard.append)
        view = memory.as_identity(Identity(device_id=uuid.uuid4()))  # a view does not tell again
        view.listeners.append(heard.append)
        os.kill(memory.store.engine.pid, signal.SIGKILL)
        wait_for(lambda: heard)
        time.sleep(0.5)
        assert [c.action for c in heard] == ["engine_restarted"]
        memory.capture("still works", kind="note")
    finally:
        memory.close()
    assert memory.store.restart_listeners == []
