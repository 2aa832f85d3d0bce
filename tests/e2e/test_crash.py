"""Kill -9 in the middle of captures, real processes: nothing acknowledged is ever lost."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import psutil
import pytest

from core.memory import Memory
from core.settings import Settings
from core.store.durable import WalSyncer
from tests.conftest import ROOT, run_cli

# Captures in a loop; prints each id only after capture() returned, i.e. after the ack. As an
# entry point, it turns SIGTERM into an exit that closes the memory (the store does not).
LOOP = """
import signal, sys, itertools
from core.memory import Memory
from core.settings import Settings
signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
m = Memory.open(Settings.from_env(data_dir=sys.argv[1], embed_in_background=False))
print("engine", m.store.engine.pid, flush=True)
try:
    for i in itertools.count():
        n = m.capture(f"crash round {sys.argv[2]} capture {i} " + "x" * (i % 50), kind="note")
        print(n.id, flush=True)
finally:
    m.close()
"""


def run_and_kill(data_dir, round_no: int, victim: str, rng: random.Random) -> list[str]:
    child = subprocess.Popen([sys.executable, "-c", LOOP, str(data_dir), str(round_no)], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = child.stdout.readline().split()
    assert first[:1] == ["engine"], child.stderr.read()
    engine_pid = int(first[1])
    acked = []
    stop_after = rng.randint(3, 40)
    while len(acked) < stop_after:
        line = child.stdout.readline().strip()
        assert line, child.stderr.read()
        acked.append(line)
    os.kill(child.pid if victim == "app" else engine_pid, signal.SIGKILL)
    # ids the child printed after the kill signal raced were acknowledged too: read them all
    out, _ = child.communicate(timeout=60)
    acked += [line for line in out.split() if len(line) == 36]
    if victim == "engine":
        assert child.returncode != 0
    return acked


@pytest.mark.slow
@pytest.mark.parametrize("victim", ["app", "engine"])
def test_kill_9_loses_no_acknowledged_capture(tmp_path, victim):
    data = tmp_path / "data"
    rng = random.Random(7 if victim == "app" else 11)
    acked: list[str] = []
    for round_no in range(5):
        acked += run_and_kill(data, round_no, victim, rng)
        # the next open must take the lock over and recover every acknowledged capture
        listing = run_cli("list", "--json", "--limit", "100000", data_dir=data)
        assert listing.returncode == 0, listing.stderr
        found = {n["id"] for n in json.loads(listing.stdout)}
        missing = set(acked) - found
        assert not missing, f"round {round_no}: {len(missing)} acknowledged captures lost"
    assert len(acked) >= 5 * 3


def test_commit_is_fsynced_before_the_acknowledgement(tmp_path, monkeypatch):
    """The WAL segment holding the new row is fsynced before capture() returns."""
    events: list = []
    marker = {"text": "no capture yet"}
    real_sync = WalSyncer.sync

    def spying_sync(self):
        flushed = real_sync(self)
        holds = any(marker["text"].encode() in path.read_bytes() for path in flushed)
        events.append(("fsynced", holds))
        return flushed

    monkeypatch.setattr(WalSyncer, "sync", spying_sync)
    with Memory.open(Settings(data_dir=tmp_path / "data", embed_in_background=False)) as memory:
        for i in range(3):
            marker["text"] = f"durable-marker-{i}-{os.urandom(4).hex()}"
            events.clear()
            memory.capture(marker["text"], kind="note")
            events.append("acknowledged")
            assert events == [("fsynced", True), "acknowledged"]


def test_sigterm_shuts_down_cleanly(tmp_path):
    """SIGTERM mid-run: the engine checkpoints and stops, the lock is released, data stays."""
    data = tmp_path / "data"
    child = subprocess.Popen([sys.executable, "-c", LOOP, str(data), "t"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    engine_pid = int(child.stdout.readline().split()[1])
    acked = [child.stdout.readline().strip() for _ in range(5)]
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=60)
    acked += [line for line in out.split() if len(line) == 36]
    deadline = time.monotonic() + 30
    while psutil.pid_exists(engine_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not psutil.pid_exists(engine_pid)
    assert not (tmp_path / "data.lock.json").exists()  # released, not left stale
    listing = run_cli("list", "--json", "--limit", "1000", data_dir=data)
    assert set(acked) <= {n["id"] for n in json.loads(listing.stdout)}
