"""A capture retried is saved once: an idempotency key the client sends names the neuron, and a
retry with the same key is answered with the first capture's neuron. On real processes: the app
that owns the data dir (a stand-in with the app's socket and a real Memory) killed after saving a
forwarded capture and before answering it, and the real `neurons` command."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid

import pytest

from core import commands
from core.mcp import Door
from core.memory import Memory
from core.model import Identity, InvalidInput
from tests.conftest import ROOT, run_cli

# The app's part, as desktop/app.py plays it: its memory, the instance lock and socket, each
# forwarded command line run on the memory. With "die", it is killed (kill -9, by itself) after
# it ran the first command and before it answers: the moment a capture is saved but not acknowledged.
APP = """
import os, signal, sys
from core import commands, instance
from core.memory import Memory
from core.settings import Settings
commands.load()
data, die = sys.argv[1], sys.argv[2] == "die"
memory = Memory.open(Settings.from_env(data_dir=data, embed_in_background=False))
lock = instance.InstanceLock(data)
assert lock.try_acquire()
def handle(message):
    answer = commands.execute(memory, message["argv"])
    print("ran", answer["code"], answer["stdout"].strip(), flush=True)
    if die:
        os.kill(os.getpid(), signal.SIGKILL)
    return answer
server = instance.InstanceServer(data, handle, lock)
server.start()
print("ready", flush=True)
sys.stdin.read()
server.stop()
memory.close()
"""


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    path = tmp_path / "run"
    path.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(path))
    return path


def start_app(data, how: str) -> subprocess.Popen:
    app = subprocess.Popen(
        [sys.executable, "-c", APP, str(data), how],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert app.stdout.readline().strip() == "ready", app.stderr.read()
    return app


def bodies(data) -> list[tuple[str, str]]:
    listing = run_cli("list", "--json", "--limit", "1000", data_dir=data)
    assert listing.returncode == 0, listing.stderr
    return sorted((n["body"], n["id"]) for n in json.loads(listing.stdout))


def test_a_forwarded_capture_whose_app_was_killed_before_answering_is_saved_once(fresh_data_dir, runtime):
    data = fresh_data_dir
    app = start_app(data, "die")
    done = run_cli("capture", "--kind", "note", "--", "buy oat milk", data_dir=data)
    ran = app.stdout.read()
    assert app.wait(30) == -9, app.stderr.read()
    assert ran.startswith("ran 0 "), ran  # the app saved it before it was killed
    # the command says it was saved, with the id the app gave it, and a retry made no second one
    assert done.returncode == 0, done.stderr
    assert bodies(data) == [("buy oat milk", done.stdout.strip())]
    assert ran.split()[2] == done.stdout.strip()


def test_a_capture_retried_with_its_key_is_answered_with_the_first(fresh_data_dir, runtime):
    data = fresh_data_dir
    app = start_app(data, "live")
    first = run_cli("capture", "--key", "vet-1", "--", "call the vet at noon", data_dir=data)
    assert first.returncode == 0, first.stderr
    again = run_cli("capture", "--key", "vet-1", "--", "call the vet at noon", data_dir=data)
    assert (again.returncode, again.stdout) == (0, first.stdout), again.stderr
    other = run_cli("capture", "--key", "vet-1", "--", "call the bank", data_dir=data)
    assert other.returncode == 2 and "another capture" in other.stderr, other
    assert len(other.stderr.strip().splitlines()) == 1
    app.stdin.close()
    assert app.wait(60) == 0, app.stderr.read()
    # no app now: the command runs here, on the same store, and the key still answers
    here = run_cli("capture", "--key", "vet-1", "--", "call the vet at noon", data_dir=data)
    assert (here.returncode, here.stdout) == (0, first.stdout), here.stderr
    assert bodies(data) == [("call the vet at noon", first.stdout.strip())]


def test_a_key_is_one_capture_per_identity(embedded_store):
    a = Memory(embedded_store, Identity(device_id=uuid.uuid4()), owns_store=False)
    b = Memory(embedded_store, Identity(device_id=uuid.uuid4()), owns_store=False)
    first = a.capture("water the plants", key="k")
    assert a.capture("water the plants", key="k") == first
    assert len(a.list()) == 1
    theirs = b.capture("water the plants", key="k")  # another identity's key is its own
    assert theirs.id != first.id and len(b.list()) == 1
    a.trash(first.id)
    assert a.capture("water the plants", key="k").id == first.id  # kept while the neuron is
    with pytest.raises(InvalidInput, match="another capture"):
        a.capture("feed the cat", key="k")
    for bad in ("", "x" * 201, "a\nb"):
        with pytest.raises(InvalidInput, match="key"):
            a.capture("feed the cat", key=bad)
    assert [n.body for n in a.list(states=["trashed"])] == ["water the plants"]


def test_a_capture_through_mcp_whose_app_was_killed_before_answering_is_saved_once(fresh_data_dir, runtime):
    data = fresh_data_dir
    app = start_app(data, "die")
    door = Door(data, None, commands.execute)
    try:
        saved, _ = door.run(["capture", "--kind", "note", "--", "renew the passport"])
    finally:
        door.close()
    ran = app.stdout.read()
    assert app.wait(30) == -9 and ran.startswith("ran 0 "), ran
    assert bodies(data) == [("renew the passport", saved["id"])]
