"""Profiles, a remembered engine, move-to, and two machines on one server -- the `neurons`
commands run in this process (each opens and closes the data dir: a restart each time) against
the real embedded engine and the real server Postgres."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import anyio
import pytest
from mcp import Client

from core import cli, config
from core.memory import Memory
from core.model import State
from core.settings import Settings
from core.store import secrets
from tests.conftest import ROOT, copy_data_dir
from tests.core.test_mcp import call, in_two_hours, stdio


@pytest.fixture(autouse=True)
def no_app(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no desktop app listens here
    monkeypatch.delenv("NEURONS_DSN", raising=False)


class Machine:
    """A data dir driven by the `neurons` command, as a person would."""

    def __init__(self, data_dir: Path, capsys):
        self.data_dir, self.capsys = data_dir, capsys

    def run(self, *argv: str, ok: bool = True):
        self.capsys.readouterr()
        code = cli.main(["--data-dir", str(self.data_dir), *argv])
        out, err = self.capsys.readouterr()
        assert (code == 0) == ok, f"neurons {' '.join(argv)} -> {code}: {out}{err}"
        return (json.loads(out) if "--json" in argv and ok else out), err

    def ids(self, *states: str) -> set[str]:
        extra = [a for s in states for a in ("--state", s)]
        return {n["id"] for n in self.run("list", "--json", *extra)[0]}


def machine(tmp_path, capsys, name: str, dsn: str | None = None, made: Path | None = None) -> Machine:
    """A machine on a data dir of its own: on the server `dsn`, else embedded, a copy of `made` (a
    store no one has used, tests/conftest.py made_data_dir) where given."""
    m = Machine(copy_data_dir(made, tmp_path / name) if made and not dsn else tmp_path / name, capsys)
    if dsn:
        m.run("config", "set", "dsn", dsn)
    return m


@pytest.fixture(params=["embedded", "server"])
def engine_dsn(request):
    return request.getfixturevalue("server_dsn") if request.param == "server" else None


def test_a_profile_keeps_every_row_in_sight_across_restarts(tmp_path, capsys, engine_dsn, made_data_dir):
    a = machine(tmp_path, capsys, "a", engine_dsn, made_data_dir)
    ana = a.run("capture", "Ana Silva +351 912 345 678", "--json")[0]["id"]
    note = a.run("capture", "Ana lent me the green tent", "--json")[0]
    reminder = a.run("capture", "remind me to return the tent to Ana tomorrow at 10", "--json")[0]
    before = a.ids()
    assert len(before) == 3 and note["edges"]

    made = a.run("profile", "create", "Maria", "--json")[0]
    assert made["name"] == "Maria" and made["claimed"] == 3 and made["neurons"] == 3
    # every later start is the profile: the same rows, links and answers
    assert a.ids() == before
    assert {e["other_id"] for e in a.run("show", note["id"], "--json")[0]["edges"]} == {ana}
    assert reminder["id"] in {r["id"] for r in a.run("ask", "tent", "--json")[0]}
    shown = a.run("profile", "show", "--json")[0]
    assert shown["id"] == made["id"] and shown["neurons"] == 3 and shown["kept_apart"] == 0
    doctor = a.run("doctor", "--json")[0]
    assert doctor["identity"] == f"user:{made['id']}"
    assert doctor["config"]["profile"] == {"id": made["id"], "name": "Maria"}
    assert doctor["engine"] == ("server" if engine_dsn else "embedded")
    # a new capture belongs to the profile too, and a second create is refused, changing nothing
    a.run("capture", "the tent has a broken zip")
    _, err = a.run("profile", "create", "Other", ok=False)
    assert "only an anonymous device" in err
    assert len(a.ids()) == 4 and a.run("profile", "show", "--json")[0]["name"] == "Maria"


def test_move_to_copies_verifies_and_switches_keeping_the_embedded_data(
    tmp_path, capsys, server_dsn, made_data_dir
):
    a = machine(tmp_path, capsys, "a", made=made_data_dir)
    ana = a.run("capture", "Ana Silva ana@example.com", "--json")[0]["id"]
    note = a.run("capture", "Ana's boat is moored at pier 4", "--json")[0]["id"]
    a.run("link", note, ana, "--relation", "relates_to")
    a.run("done", a.run("capture", "water the basil", "--kind", "reminder", "--json")[0]["id"])
    made = a.run("profile", "create", "Maria", "--json")[0]
    everything = a.ids("active", "done")
    exported = a.run("export", "--json")[0]

    moved, note_text = a.run("move-to", server_dsn, "--json")
    assert moved["neurons"] == 3 and moved["edges"] == len(exported["edges"]) >= 2
    assert Path(moved["backup"]).is_file() and "kept as it was" in note_text
    # the data dir now opens the server, as the same profile, with the same rows
    doctor = a.run("doctor", "--json")[0]
    assert doctor["engine"] == "server" and doctor["identity"] == f"user:{made['id']}"
    assert a.ids("active", "done") == everything
    assert a.run("profile", "show", "--json")[0]["name"] == "Maria"
    again = a.run("export", "--json")[0]
    assert sorted(n["id"] for n in again["neurons"]) == sorted(n["id"] for n in exported["neurons"])
    _, err = a.run("move-to", server_dsn, ok=False)
    assert "on that server already" in err
    # the embedded memory is kept as it was: unset goes back to it
    a.run("capture", "only on the server")
    a.run("config", "unset", "dsn")
    assert a.run("doctor", "--json")[0]["engine"] == "embedded"
    assert a.ids("active", "done") == everything


# `neurons` in a child process that is killed (kill -9, by itself) at the moment a move-to
# switches the data dir: as it writes the config.json that names the server.
KILLED_AT_THE_SWITCH = """
import os, signal, sys
from core import cli, config
write = config.save
def save(data_dir, saved):
    if saved.dsn and saved.dsn != config.load(data_dir).dsn:
        os.kill(os.getpid(), signal.SIGKILL)
    write(data_dir, saved)
config.save = save
sys.exit(cli.main(sys.argv[1:]))
"""


def test_a_move_killed_at_the_switch_is_said_by_the_next_command(tmp_path, capsys, server_dsn, made_data_dir):
    a = machine(tmp_path, capsys, "a", made=made_data_dir)
    kept = {a.run("capture", f"kept through the move {i}", "--json")[0]["id"] for i in range(3)}
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_AT_THE_SWITCH, "--data-dir", str(a.data_dir), "move-to", server_dsn],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)},
    )
    assert killed.returncode == -9, killed.stderr
    # the next command says what happened and where the memory is; it is all there
    listed, err = a.run("list", "--json")
    assert {n["id"] for n in listed} == kept
    assert "move of this memory to the server" in err and "stopped" in err, err
    assert f"embedded database in {a.data_dir / 'pgdata'}" in err and "nothing was lost" in err
    assert "neurons move-to" in err and len(err.strip().splitlines()) == 1
    doctor = a.run("doctor", "--json")[0]
    assert doctor["engine"] == "embedded" and "stopped" in doctor["unfinished_move"]
    # a capture meanwhile goes where the memory is, and the move run again takes it along
    kept.add(a.run("capture", "written after the stop", "--json")[0]["id"])
    a.run("move-to", server_dsn)
    listed, err = a.run("list", "--json")
    assert {n["id"] for n in listed} == kept and err == ""
    doctor = a.run("doctor", "--json")[0]
    assert doctor["engine"] == "server" and doctor["unfinished_move"] is None


def test_a_move_forgotten_is_no_longer_said(tmp_path, capsys, made_data_dir):
    a = machine(tmp_path, capsys, "a", made=made_data_dir)
    a.run("capture", "stays here")
    saved = config.load(a.data_dir)
    config.save(
        a.data_dir, dataclasses.replace(saved, moving_to="host=db.example dbname=n", moving_since="x")
    )
    _, err = a.run("list")
    assert "host=db.example" in err and "neurons config unset dsn" in err
    a.run("config", "unset", "dsn")
    assert a.run("list")[1] == "" and "moving" not in config.load(a.data_dir).to_json()


def test_move_to_a_server_that_does_not_answer_changes_nothing(tmp_path, capsys, made_data_dir):
    a = machine(tmp_path, capsys, "a", made=made_data_dir)
    a.run("capture", "still here")
    _, err = a.run("move-to", "host=127.0.0.1 port=1 dbname=none connect_timeout=2", ok=False)
    assert "cannot connect" in err and "Traceback" not in err
    assert a.run("doctor", "--json")[0]["engine"] == "embedded" and len(a.ids()) == 1


@pytest.mark.slow
def test_two_machines_on_one_server_read_and_write_one_memory(tmp_path, capsys, server_dsn):
    laptop = machine(tmp_path, capsys, "laptop", server_dsn)
    desk = machine(tmp_path, capsys, "desk", server_dsn)
    stranger = machine(tmp_path, capsys, "stranger", server_dsn)
    laptop.run("capture", "the spare key is with the neighbour at number 5")
    profile_id = laptop.run("profile", "create", "Maria", "--json")[0]["id"]
    own = desk.run("capture", "desk-only scribble", "--json")[0]["id"]

    _, err = desk.run("profile", "join", profile_id, ok=False)  # must say which (no terminal)
    assert "--claim" in err and "--keep-apart" in err
    joined = desk.run("profile", "join", profile_id, "--keep-apart", "--json")[0]
    assert joined["neurons"] == 1 and joined["kept_apart"] == 1
    assert desk.ids() == laptop.ids() and own not in desk.ids()
    assert desk.run("profile", "show", "--json")[0]["kept_apart"] == 1
    assert stranger.ids() == set()  # a machine that did not join sees nothing of it

    due = in_two_hours()

    async def desk_session():
        # the desk's memory stays open in its own process (an MCP server): its recall index
        # is built once, then must catch up with the laptop's writes through the change stamps
        async with Client(stdio(desk.data_dir), mode="legacy") as client:
            assert (await call(client, "ask", question="spare key"))["results"]
            saved = laptop.run(
                "capture", f"remind me to feed Kiki the cat at {due:%H:%M} on {due:%Y-%m-%d}", "--json"
            )[0]
            deadline = time.monotonic() + 20
            while True:
                found = await call(client, "ask", question="feed the cat")
                if found["results"] and found["results"][0]["id"] == saved["id"]:
                    break
                assert time.monotonic() < deadline, "the desk never saw the laptop's capture"
                await anyio.sleep(0.5)
            return saved["id"]

    reminder = anyio.run(desk_session)
    pills = laptop.run("capture", f"remind me to take the pills at {due:%H:%M} on {due:%Y-%m-%d}", "--json")[
        0
    ]["id"]

    # the reminders come due (a fake clock: the moments the schedulers pass): each running
    # machine shows one once; one done on the laptop shows on neither
    laptop.run("done", reminder)
    with open_memory(laptop) as on_laptop, open_memory(desk) as on_desk:
        assert on_desk.get(reminder).state is State.DONE
        for memory in (on_laptop, on_desk):
            assert memory.mark_notified(reminder, due + timedelta(minutes=1)) is None
        assert on_laptop.mark_notified(pills, due + timedelta(seconds=1)) is not None
        assert on_desk.mark_notified(pills, due + timedelta(seconds=2)) is not None
        for memory in (on_laptop, on_desk):
            assert memory.mark_notified(pills, due + timedelta(minutes=5)) is None
    with open_memory(stranger) as on_stranger:  # not joined: not its reminder at all
        assert on_stranger.list("reminder") == []


def open_memory(m: Machine) -> Memory:
    return Memory.open(Settings.from_env(data_dir=m.data_dir, embed_in_background=False))


def test_the_engine_setting_is_remembered_without_its_password(
    tmp_path, capsys, server_dsn, monkeypatch, made_data_dir
):
    kept: dict[tuple[str, str], str] = {}

    class Keyring:  # the OS keyring cannot run here: a stand-in that remembers
        def set_password(self, service, account, password):
            kept[(service, account)] = password

        def get_password(self, service, account):
            return kept.get((service, account))

    monkeypatch.setattr(secrets, "_secure_keyring", lambda: Keyring())
    a = machine(tmp_path, capsys, "a", made=made_data_dir)
    a.run("config", "set", "dsn", f"{server_dsn} password=s3cret-word")
    stored = (a.data_dir / "config.json").read_text()
    assert "s3cret-word" not in stored and "password" not in stored
    assert list(kept.values()) == ["s3cret-word"]
    assert Settings.from_env(data_dir=a.data_dir).engine == "server"
    assert a.run("doctor", "--json")[0]["engine"] == "server"
    # the flag and the environment still win over what the data dir remembers
    assert Settings.from_env(data_dir=a.data_dir, dsn="dbname=other").dsn == "dbname=other"
    monkeypatch.setenv("NEURONS_DSN", "dbname=fromenv")
    assert Settings.from_env(data_dir=a.data_dir).dsn == "dbname=fromenv"
    monkeypatch.delenv("NEURONS_DSN")
    # a server that does not answer is not remembered
    _, err = a.run("config", "set", "dsn", "host=127.0.0.1 port=1 dbname=x connect_timeout=2", ok=False)
    assert "cannot connect" in err
    assert json.loads((a.data_dir / "config.json").read_text())["dsn"] == json.loads(stored)["dsn"]
    a.run("config", "unset", "dsn")
    assert a.run("doctor", "--json")[0]["engine"] == "embedded"


def test_a_claim_cut_off_before_its_commit_is_settled_at_the_next_open(tmp_path, capsys, made_data_dir):
    """The process dies between remembering the profile and the claim's commit: the next open
    asks the store, and the data dir is what the store says (here: still the device)."""
    a = machine(tmp_path, capsys, "a", made=made_data_dir)
    note = a.run("capture", "the spare key is under the blue pot", "--json")[0]["id"]
    saved = config.load(a.data_dir)
    config.save(
        a.data_dir,
        dataclasses.replace(saved, profile_id=uuid.uuid4(), profile_name="Rui", profile_pending=True),
    )
    assert a.ids() == {note}  # the device's rows, not an empty profile
    assert "profile" not in config.load(a.data_dir).to_json()
    made = a.run("profile", "create", "Rui", "--json")[0]
    assert made["claimed"] == 1 and a.ids() == {note}
    assert config.load(a.data_dir).to_json()["profile"] == {"id": made["id"], "name": "Rui"}
    # cut off after the commit instead: the store holds the profile, and the data dir keeps it
    config.save(a.data_dir, dataclasses.replace(config.load(a.data_dir), profile_pending=True))
    assert a.ids() == {note} and a.run("doctor", "--json")[0]["identity"] == f"user:{made['id']}"
    assert config.load(a.data_dir).to_json()["profile"] == {"id": made["id"], "name": "Rui"}
