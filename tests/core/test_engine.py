"""The embedded engine's housekeeping and the server engine's secrets."""

from __future__ import annotations

import os
import stat
import uuid

import keyring
import pytest
from keyring.backend import KeyringBackend

from core.memory import Memory
from core.model import Identity
from core.settings import Settings
from core.store import Store, durable, secrets
from tests.conftest import copy_data_dir


def test_two_data_dirs_in_one_process_cwd_restored_private_sockets(tmp_path, made_data_dir):
    cwd = os.getcwd()
    a = Store(Settings(data_dir=copy_data_dir(made_data_dir, tmp_path / "a"), embed_in_background=False))
    b = Store(Settings(data_dir=copy_data_dir(made_data_dir, tmp_path / "b"), embed_in_background=False))
    try:
        assert os.getcwd() == cwd  # py-pglite chdirs into its work dir; we restore it
        assert a.engine.pid != b.engine.pid
        for store in (a, b):
            mode = stat.S_IMODE(os.stat(store.engine.socket_dir).st_mode)
            assert mode == 0o700
            assert store.engine.work_dir.parent == store.settings.data_dir
        ma = Memory(a, Identity(device_id=uuid.uuid4()), owns_store=False)
        mb = Memory(b, Identity(device_id=ma.identity.device_id), owns_store=False)
        ma.capture("only in a", kind="note")
        assert mb.list() == []  # same identity, other data dir: nothing shared
    finally:
        a.close()
        b.close()
    assert os.getcwd() == cwd
    assert not a.lock.record_path.exists() and not b.lock.record_path.exists()


def test_reopen_keeps_device_id_and_rows(tmp_path):
    settings = Settings(data_dir=tmp_path / "d", embed_in_background=False)
    with Memory.open(settings) as memory:
        device = memory.identity.device_id
        nid = memory.capture("persisted", kind="note").id
    with Memory.open(settings) as memory:
        assert memory.identity.device_id == device
        assert memory.get(nid).body == "persisted"


class MemoryKeyring(KeyringBackend):
    """The tests' keyring: there is no secure OS keyring on a headless machine."""

    priority = 1

    def __init__(self):
        super().__init__()
        self.items = {}

    def get_password(self, service, username):
        return self.items.get((service, username))

    def set_password(self, service, username, password):
        self.items[(service, username)] = password

    def delete_password(self, service, username):
        self.items.pop((service, username), None)


def test_server_password_comes_from_the_keyring(server_dsn, tmp_path):
    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        dsn = "host=db.example dbname=neurons user=ana"
        assert secrets.password_for(dsn) is None
        secrets.save_password(dsn, "s3cret")
        assert secrets.password_for(dsn) == "s3cret"
        assert secrets.password_for(dsn + " password=inline") is None  # the DSN's own wins
        # the real server accepts the DSN without a password written anywhere
        with Store(Settings(data_dir=tmp_path / "local", dsn=server_dsn)) as store:
            assert store.kind == "server"
    finally:
        keyring.set_keyring(previous)


class PlaintextKeyring(MemoryKeyring):
    """Stands for keyrings.alt's file backend: readable by anyone who reads the disk."""

    priority = 0.5


def test_no_silent_plaintext_keyring():
    previous = keyring.get_keyring()
    keyring.set_keyring(PlaintextKeyring())
    try:
        with pytest.raises(secrets.KeyringUnavailable):
            secrets.save_password("host=x user=y dbname=z", "pw")
    finally:
        keyring.set_keyring(previous)


def test_close_syncs_what_the_engine_wrote_as_it_stopped(tmp_path, monkeypatch):
    """The engine checkpoints as it stops (pg_control, data files) and PGlite never fsyncs:
    the store syncs the data dir after the engine has exited, before the lock is let go."""
    events: list[str] = []
    real = durable.syncfs
    monkeypatch.setattr(durable, "syncfs", lambda path: events.append("sync") or real(path))
    store = Store(Settings(data_dir=tmp_path / "data"))
    engine = store.engine
    real_stop = engine.stop
    monkeypatch.setattr(engine, "stop", lambda hard=False: (real_stop(hard), events.append("stopped")))
    store.close()
    assert "stopped" in events and "sync" in events[events.index("stopped") :]
