"""The lock's and the engine's faults, each with real processes: a prefix match that killed another
data dir's engine (1), a zombie owner counted as alive (5), private data in the lock record (8)."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest

from core.settings import Settings
from core.store import Store, embedded
from core.store.embedded import node_executable
from core.store.lock import DataDirLock, record_is_live
from tests.conftest import ROOT, run_cli

OPEN_AND_WAIT = """
import sys
from core.store import Store
from core.settings import Settings
store = Store(Settings.from_env(data_dir=sys.argv[1], embed_in_background=False))
print(store.engine.pid, flush=True)
sys.stdin.readline()
store.close()
"""


def dead_pid_record() -> dict:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    started = psutil.Process(child.pid).create_time()
    child.wait()
    return {"pid": child.pid, "started_at": started, "host": socket.gethostname()}


def test_opening_one_data_dir_leaves_the_engine_of_a_longer_named_one_alone(tmp_path):
    """Case 1: a stale lock on .../d must not make a start on .../d kill the engine of .../d2."""
    d, d2 = tmp_path / "d", tmp_path / "d2"
    other = subprocess.Popen(
        [sys.executable, "-c", OPEN_AND_WAIT, str(d2)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        other_engine = int(other.stdout.readline())
        lock = DataDirLock(d)
        lock.record_path.parent.mkdir(parents=True, exist_ok=True)
        lock.record_path.write_text(json.dumps(dead_pid_record()))
        with Store(Settings(data_dir=d, embed_in_background=False)) as store:
            assert store.lock.previous is not None  # the stale record was taken over
        assert psutil.pid_exists(other_engine)
        assert psutil.Process(other_engine).status() != psutil.STATUS_ZOMBIE
    finally:
        other.stdin.close()
        other.wait(timeout=60)
    assert other.returncode == 0  # d2's store closed cleanly: its engine served to the end


HOLD_AND_EXIT = """
import sys
from core.store.lock import DataDirLock
DataDirLock(sys.argv[1]).acquire()
print("held", flush=True)
import os; os._exit(0)
"""


def test_a_zombie_owner_is_dead(tmp_path):
    """Case 5: an owner that exited but is not reaped yet holds no flock and owns nothing."""
    data = tmp_path / "data"
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD_AND_EXIT, str(data)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout.readline().strip() == "held"
    deadline = time.monotonic() + 30
    # a zombie whose other threads are gone too: the leader shows as a zombie while a thread of
    # its (numpy's) may still be tearing down and holding the process's files, the flock's with them
    while not (
        psutil.Process(child.pid).status() == psutil.STATUS_ZOMBIE
        and len(os.listdir(f"/proc/{child.pid}/task")) == 1
    ):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    try:
        record = DataDirLock(data).read_record()
        assert not record_is_live(record)
        lock = DataDirLock(data)
        lock.acquire()
        assert lock.previous["pid"] == child.pid
        lock.release()
    finally:
        child.wait()


HOLD_BRIEFLY = """
import sys, time
from core.store.lock import DataDirLock
lock = DataDirLock(sys.argv[1]); lock.acquire()
print("held", flush=True)
time.sleep(float(sys.argv[2]))
lock.release()
"""


def test_a_short_lived_holder_is_waited_for(tmp_path):
    """Case 5: a command that finds the data dir held by another command waits for it."""
    data = tmp_path / "data"
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD_BRIEFLY, str(data), "1.5"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "held"
        lock = DataDirLock(data)
        lock.acquire(wait_s=30)
        assert lock.held
        lock.release()
    finally:
        child.wait()


SECRET = "my bank PIN is 4921"


def test_the_lock_record_is_private_and_holds_no_arguments(tmp_path):
    """Case 8: the record is 0600 and never holds the command line (a capture's text)."""
    data = tmp_path / "data"
    script = (
        "import sys\nfrom core.store.lock import DataDirLock\n"
        "DataDirLock(sys.argv[1]).acquire()\nprint('held', flush=True)\nsys.stdin.readline()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(data), SECRET],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "held"
        path = DataDirLock(data).record_path
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        record = json.loads(path.read_text())
        # its words, not its numbers: a start time of 1796492190.43 holds "4921" by chance
        words = json.dumps([v for v in record.values() if not isinstance(v, (int, float))])
        assert "PIN" not in words and "4921" not in words and "bank" not in words
        assert record["pid"] == child.pid
    finally:
        child.kill()
        child.wait()


def test_store_files_are_private_and_stale_socket_dirs_are_cleaned(tmp_path):
    """Case 8: device_id and every Postgres file without group/other bits; the socket folder a
    killed process left in the temp dir is removed by the next start."""
    record = dead_pid_record()
    stale = tempfile.mkdtemp(prefix=f"neurons-pg-{record['pid']}-")
    mine = tempfile.mkdtemp(prefix=f"neurons-pg-{os.getpid()}-")  # a live owner's: kept
    settings = Settings(data_dir=tmp_path / "data", embed_in_background=False)
    old = os.umask(0o022)
    try:
        with Store(settings) as store:
            store.device_id()
            with store.transaction() as cur:
                cur.execute("CREATE TABLE IF NOT EXISTS private_check (x int)")
            store.checkpoint()
            loose = []
            for root, dirs, files in os.walk(settings.data_dir):
                for name in files + dirs:
                    path = os.path.join(root, name)
                    if not os.path.islink(path) and stat.S_IMODE(os.stat(path).st_mode) & 0o077:
                        loose.append(path)
            assert loose == []
            assert not os.path.exists(stale)
            assert os.path.exists(mine)
    finally:
        os.umask(old)
        os.rmdir(mine)


def test_the_store_leaves_the_process_alone(tmp_path):
    """Opening a store installs no signal handler and no atexit hook, and changes neither
    PATH nor the working directory."""

    check = """
import atexit, os, signal, sys
from core.store import Store
from core.settings import Settings
before = (signal.getsignal(signal.SIGTERM), os.environ.get("PATH"), os.getcwd(), atexit._ncallbacks())
store = Store(Settings.from_env(data_dir=sys.argv[1], embed_in_background=False))
after = (signal.getsignal(signal.SIGTERM), os.environ.get("PATH"), os.getcwd(), atexit._ncallbacks())
store.close()
print(before == after, flush=True)
"""
    # a PATH holding only Node's folder and the system's, and an option Node refuses: the engine is
    # found and started by its path, with an environment of its own (a version probe that
    # inherited NODE_OPTIONS once took the system's Node for missing)
    path = f"{Path(node_executable()).parent}:/usr/bin:/bin"
    env = {**os.environ, "PATH": path, "NODE_OPTIONS": "--no-such-option"}
    done = subprocess.run(
        [sys.executable, "-c", check, str(tmp_path / "data")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout.strip() == "True", done.stderr


def test_a_cli_command_waits_for_another_short_command(tmp_path):
    """Case 5: `neurons capture` while another command holds the data dir for a moment saves the
    text once that command is done, instead of refusing it."""
    data = tmp_path / "data"
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD_BRIEFLY, str(data), "2"], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "held"
        done = run_cli("capture", "saved after the wait", "--kind", "note", data_dir=data)
        assert done.returncode == 0, done.stderr
    finally:
        child.wait()
    assert "saved after the wait" in run_cli("list", data_dir=data).stdout


def test_no_node_is_said_in_one_line_and_the_lock_is_let_go(tmp_path, monkeypatch):
    """A data dir opened where Node cannot be found fails with the setup hint, not with the
    traceback of cleaning up an engine that never started (seen on a fresh CI machine)."""

    def missing():
        raise embedded.EngineError("Node.js >= 18 was not found: run the setup command again")

    monkeypatch.setattr(embedded, "node_executable", missing)
    settings = Settings.from_env(data_dir=tmp_path / "data", embed_in_background=False)
    with pytest.raises(embedded.EngineError, match="Node.js >= 18 was not found"):
        Store(settings)
    lock = DataDirLock(tmp_path / "data")
    lock.acquire()
    lock.release()
