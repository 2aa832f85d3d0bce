"""Kill -9 in the middle of captures, real processes: nothing acknowledged is ever lost.

The crash suite (slow tier, runs in CI) reaches 100 kill -9s: of `neurons capture` (here), of the
engine under a capturing process (test_crash_engine.py), and of the desktop app taking forwarded
captures (test_crash_app.py): three files, so that parallel workers can run its parts at once.
Its counts are printed with the results and summed at the end of the run."""

from __future__ import annotations

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
from tests.conftest import ROOT
from tests.e2e.crash import CLI_KILLS, LOOP, listed_ids, report


@pytest.mark.slow
def test_kill_9_of_the_cli_loses_nothing_acknowledged(tmp_path, capsys):
    """`neurons capture` killed at random moments: opening, capturing, acknowledging, closing."""
    data, rng = tmp_path / "data", random.Random(5)
    acked: set[str] = set()
    kills = runs = 0
    took = None  # one whole command's run time, measured on the runs left to finish
    while kills < CLI_KILLS:
        runs += 1
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "core.cli",
                "--data-dir",
                str(data),
                "capture",
                f"cli crash {runs}",
                "--kind",
                "note",
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        t0 = time.monotonic()
        try:  # every fifth run (and the first, which measures) finishes: a takeover after kills
            child.wait(None if took is None or runs % 5 == 0 else rng.uniform(0.05, took))
        except subprocess.TimeoutExpired:
            child.kill()
            kills += 1
        out, err = child.communicate(timeout=60)
        if child.returncode == 0:
            spent = time.monotonic() - t0
            took = spent if took is None else 0.7 * took + 0.3 * spent
        else:
            assert child.returncode == -signal.SIGKILL, err  # refused only by being killed
        acked |= {line for line in out.split() if len(line) == 36}
        if kills and kills % 10 == 0 and child.returncode != 0:
            assert acked <= listed_ids(data)
    lost = len(acked - listed_ids(data))
    report(capsys, "cli", kills, len(acked), lost)
    assert lost == 0 and acked


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
    child = subprocess.Popen(
        [sys.executable, "-c", LOOP, str(data), "t"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    engine_pid = int(child.stdout.readline().split()[1])
    acked = [child.stdout.readline().split()[1] for _ in range(5)]
    child.send_signal(signal.SIGTERM)
    out, err = child.communicate(timeout=60)
    acked += [line.split()[1] for line in out.splitlines() if line.startswith("ok ")]
    deadline = time.monotonic() + 30
    while psutil.pid_exists(engine_pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not psutil.pid_exists(engine_pid)
    assert not (tmp_path / "data.lock.json").exists()  # released, not left stale
    assert set(acked) <= listed_ids(data)
