"""The data-dir lock with real processes: refuse a live owner, take over a dead one."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import psutil
import pytest

from core.memory import Memory
from core.settings import Settings
from core.store.lock import DataDirLock, LockHeld, record_is_live
from tests.conftest import ROOT, run_cli

HOLDER = """
import sys
from core.store.lock import DataDirLock
lock = DataDirLock(sys.argv[1]); lock.acquire()
print("held", flush=True)
sys.stdin.readline()
"""


def hold_in_child(data_dir):
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "held"
    return child


def test_second_owner_is_refused_with_the_owner_named(tmp_path):
    data = tmp_path / "data"
    child = hold_in_child(data)
    try:
        with pytest.raises(LockHeld) as err:
            DataDirLock(data).acquire()
        assert f"pid {child.pid}" in str(err.value) and "since" in str(err.value)
        assert err.value.record["host"] == socket.gethostname()
    finally:
        child.kill()
        child.wait()
    lock = DataDirLock(data)
    record = lock.acquire()  # the kernel freed the flock when the child died
    assert lock.previous["pid"] == child.pid  # the dead owner's record, taken over
    assert record["pid"] == os.getpid()
    lock.release()


def test_record_written_atomically_with_owner_details(tmp_path):
    lock = DataDirLock(tmp_path / "data")
    record = lock.acquire(extra={"note": "x"})
    on_disk = json.loads(lock.record_path.read_text())
    assert on_disk == record
    assert set(record) >= {"pid", "started_at", "host", "version", "command", "acquired_at"}
    assert record_is_live(record)
    assert not list(tmp_path.glob("*.tmp"))
    lock.release()
    assert not lock.record_path.exists()


def test_pid_reuse_is_stale(tmp_path):
    """A record whose pid is alive but started at another time belongs to a dead owner."""
    me = psutil.Process()
    record = {"pid": os.getppid(), "started_at": me.create_time() - 12345.0, "host": socket.gethostname()}
    assert not record_is_live(record)
    lock = DataDirLock(tmp_path / "data")
    lock.record_path.parent.mkdir(parents=True, exist_ok=True)
    lock.record_path.write_text(json.dumps(record))
    lock.acquire()
    assert lock.previous == record
    lock.release()


def test_live_owner_whose_lock_file_was_deleted_is_still_refused(tmp_path):
    data = tmp_path / "data"
    child = hold_in_child(data)
    try:
        DataDirLock(data).lock_path.unlink()  # someone cleans up the wrong file
        with pytest.raises(LockHeld):
            DataDirLock(data).acquire()
    finally:
        child.kill()
        child.wait()


def test_opening_waits_for_a_short_holder_and_gives_up_when_told(tmp_path):
    """Memory.open(wait_s=) is the one wait for a held data dir (the CLI, MCP and the app use
    it): it refuses when `give_up()` says so, and opens once the holder lets go."""
    data = tmp_path / "data"
    settings = Settings(data_dir=data, embed_in_background=False)
    child = hold_in_child(data)
    try:
        t0 = time.monotonic()
        with pytest.raises(LockHeld):
            Memory.open(settings, wait_s=60, give_up=lambda: time.monotonic() - t0 > 0.5)
        assert time.monotonic() - t0 < 30  # it gave up when told, not after the whole wait
        child.stdin.write("\n")  # the holder finishes its work and exits in a moment
        child.stdin.flush()
        memory = Memory.open(settings, wait_s=60)
        assert (memory.store.lock.read_record() or {}).get("pid") == os.getpid()
        memory.close()
    finally:
        child.kill()
        child.wait()


def test_cli_refuses_then_succeeds_and_unlock_clears_only_stale(tmp_path):
    data = tmp_path / "data"
    child = hold_in_child(data)
    try:
        busy = run_cli("capture", "hello", "--kind", "note", data_dir=data)
        assert busy.returncode == 2
        assert f"in use by pid {child.pid}" in busy.stderr
        refused = run_cli("unlock", data_dir=data)
        assert refused.returncode == 2 and "in use" in refused.stderr
    finally:
        child.kill()
        child.wait()
    unlocked = run_cli("unlock", data_dir=data)
    assert unlocked.returncode == 0 and f"pid {child.pid}" in unlocked.stdout
    assert run_cli("unlock", data_dir=data).stdout.strip() == "no stale lock"
    ok = run_cli("capture", "hello", "--kind", "note", data_dir=data)
    assert ok.returncode == 0, ok.stderr


def test_engine_dies_with_its_owner(tmp_path):
    """kill -9 of the app: its Node engine must not go on serving the data dir."""
    data = tmp_path / "data"
    script = (
        "import sys; from core.memory import Memory; from core.settings import Settings\n"
        "m = Memory.open(Settings.from_env(data_dir=sys.argv[1]))\n"
        "print(m.store.engine.pid, flush=True); sys.stdin.readline()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(data)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    engine_pid = int(child.stdout.readline())
    assert psutil.pid_exists(engine_pid)
    child.kill()
    child.wait()
    deadline = time.monotonic() + 60
    while psutil.pid_exists(engine_pid) and time.monotonic() < deadline:
        try:
            if psutil.Process(engine_pid).status() == psutil.STATUS_ZOMBIE:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.1)
    alive = psutil.pid_exists(engine_pid) and psutil.Process(engine_pid).status() != psutil.STATUS_ZOMBIE
    assert not alive, "the engine outlived its owner"


def test_takeover_stops_an_orphaned_engine_first(tmp_path):
    """Two engines on one data dir corrupt it: a takeover kills a stuck engine of the dead owner."""
    data = tmp_path / "data"
    script = (
        "import sys; from core.memory import Memory; from core.settings import Settings\n"
        "m = Memory.open(Settings.from_env(data_dir=sys.argv[1], embed_in_background=False))\n"
        "m.capture('before the crash', kind='note')\n"
        "print(m.store.engine.pid, flush=True); sys.stdin.readline()"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(data)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    engine_pid = int(child.stdout.readline())
    os.kill(engine_pid, signal.SIGSTOP)  # frozen: it cannot notice its owner die
    child.kill()
    child.wait()
    assert psutil.pid_exists(engine_pid)
    with Memory.open(Settings(data_dir=data, embed_in_background=False)) as memory:
        gone = (
            not psutil.pid_exists(engine_pid) or psutil.Process(engine_pid).status() == psutil.STATUS_ZOMBIE
        )
        assert gone, "a second engine started while the orphan still had the data dir open"
        assert memory.store.lock.previous["engine_pid"] == engine_pid
        assert memory.store.engine.pid != engine_pid
        assert [n.body for n in memory.list()] == ["before the crash"]


@pytest.mark.parametrize("how", ["root", "link"])
def test_the_file_system_root_as_data_dir_is_refused_in_one_line(tmp_path, how):
    data_dir = "/"
    if how == "link":
        (tmp_path / "to-root").symlink_to("/")
        data_dir = str(tmp_path / "to-root")
    result = run_cli("list", data_dir=data_dir)  # type: ignore[arg-type]
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "the root of the file system" in result.stderr
    assert not (tmp_path / "to-root.lock").exists()
