"""The messages a review found unclear, each now saying what is true and what to do:
the `neurons` commands run in this process, on the real engines."""

from __future__ import annotations

import os
import uuid

import keyring
import pytest
from keyring.backends import fail

from core import cli, commands, instance
from core.memory import Memory
from core.settings import Settings
from tests.conftest import ROOT
from tests.core.test_disk_full import fill, small_disk  # noqa: F401 - the fixture

MODEL = ROOT / "resources" / "model" / "all-MiniLM-L6-v2"


@pytest.fixture(autouse=True)
def no_app(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))


def neurons(capsys, data, *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = cli.main(["--data-dir", str(data), *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.mark.server
def test_no_keyring_says_where_the_password_can_go(tmp_path, capsys, server_dsn):
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        for argv in (
            ["move-to", f"{server_dsn} password=s3cret"],
            ["config", "set", "dsn", f"{server_dsn} password=s3cret"],
        ):
            code, _, err = neurons(capsys, tmp_path / "data", *argv)
            assert code == 2 and err.count("\n") == 1, err
            assert "no secure OS keyring" in err and "~/.pgpass" in err and "without password=" in err
            assert "put it in the DSN" not in err
    finally:
        keyring.set_keyring(previous)
    assert (
        not (tmp_path / "data" / "config.json").exists()
        or "dsn" not in (tmp_path / "data" / "config.json").read_text()
    )


def test_a_dsn_that_names_no_server(fresh_data_dir, capsys):
    data = fresh_data_dir
    assert neurons(capsys, data, "capture", "a note", "--kind", "note")[0] == 0
    for argv in (
        ["move-to", "postgresql://"],
        ["config", "set", "dsn", "postgresql://"],
        ["move-to", "host="],
    ):
        code, out, err = neurons(capsys, data, *argv)
        assert code == 2 and out == "", (out, err)
        assert "names no server: give at least its host and database" in err, err
        assert "pid" not in err and "from now on" not in err
    assert not (data / "config.json").exists()


def test_profile_join_says_a_bad_id_before_it_asks_anything(fresh_data_dir, capsys):
    data = fresh_data_dir
    assert neurons(capsys, data, "capture", "a note of this machine", "--kind", "note")[0] == 0
    code, _, err = neurons(capsys, data, "profile", "join", "not-a-uuid")
    assert code == 2 and "profile id 'not-a-uuid' is not a valid id" in err, err
    missing = uuid.uuid4()
    code, _, err = neurons(capsys, data, "profile", "join", str(missing))
    assert code == 2 and f"no profile {missing} in this database" in err and "--claim" not in err, err


def test_help_over_the_socket_is_answered_not_printed_in_the_app(fresh_data_dir, capfd):
    data = fresh_data_dir
    with Memory.open(Settings(data_dir=data, model_dir=MODEL, embed_in_background=False)) as memory:
        done = commands.execute(memory, ["--help"])
        assert done["code"] == 0 and done["stdout"].startswith("usage: neurons") and done["stderr"] == ""
        assert commands.execute(memory, ["capture", "--help"])["stdout"].startswith("usage: neurons capture")
        assert commands.execute(memory, ["--version"])["stdout"].startswith("neurons ")
        lock = instance.InstanceLock(data)
        assert lock.try_acquire()
        server = instance.InstanceServer(data, lambda m: commands.execute(memory, m["argv"]), lock)
        server.start()
        try:
            capfd.readouterr()
            reply = instance.request(data, {"op": "command", "argv": ["--help"]}, timeout=10)
        finally:
            server.stop()
            lock.release()
    assert reply["code"] == 0 and "usage: neurons" in reply["stdout"]
    assert "usage:" not in capfd.readouterr().out  # nothing on the app's own stdout


def test_a_full_disk_during_a_backup_names_the_backups_folder(small_disk, capsys):  # noqa: F811 - the imported fixture
    data = small_disk / "data"
    with Memory.open(Settings(data_dir=data, model_dir=MODEL, embed_in_background=False)) as memory:
        for _ in range(2):  # ~1 MB of backup that does not compress: more than the disk keeps
            memory.capture(os.urandom(400_000).hex(), kind="note")
    (data / "backups").mkdir(mode=0o700)
    fill(small_disk, 256 * 1024)  # room to open the data dir, not for the backup
    try:
        code, _, err = neurons(capsys, data, "backup")
    finally:
        (small_disk / "filler").unlink()
    assert code == 2 and err.count("\n") == 1, err
    assert f"the disk holding {data / 'backups'} is full" in err, err
