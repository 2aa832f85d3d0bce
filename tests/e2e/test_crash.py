"""Kill -9 in the middle of captures, real processes: nothing acknowledged is ever lost.

The crash suite (slow tier, runs in CI) reaches 100 kill -9s: of `neurons capture`, of the engine
under a capturing process, and of the desktop app taking forwarded captures. Its counts are
printed with the results and summed at the end of the run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import psutil
import pytest

from core import instance
from core.memory import Memory
from core.settings import Settings
from core.store.durable import WalSyncer
from tests.conftest import ROOT, cli
from tests.e2e.crash_counts import ACKED, KILLS, LOST

# Kills per part of the crash suite (100 in all): the CLI, the engine, the app.
CLI_KILLS, ENGINE_KILLS, APP_KILLS = 40, 30, 30
# The store restarts an engine at most this often in a minute (MAX_RESTARTS).
ENGINE_KILLS_PER_PROCESS = 3

# Captures in a loop; prints "ok ID" only after capture() returned, i.e. after the ack, and
# "engine PID" whenever the store's engine changes. An engine lost mid-capture is an error of that
# one capture: the loop goes on. It stops when stdin closes. As an entry point, it turns SIGTERM
# into an exit that closes the memory (the store does not).
LOOP = """
import select, signal, sys, itertools
from core.memory import Memory
from core.settings import Settings
from core.store.errors import EngineLost
signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
m = Memory.open(Settings.from_env(data_dir=sys.argv[1], embed_in_background=False))
engine = None
try:
    for i in itertools.count():
        if m.store.engine.pid != engine:
            engine = m.store.engine.pid
            print("engine", engine, flush=True)
        try:
            n = m.capture(f"crash round {sys.argv[2]} capture {i} " + "x" * (i % 50), kind="note")
            print("ok", n.id, flush=True)
        except EngineLost:
            print("lost", i, flush=True)
        if select.select([sys.stdin], [], [], 0)[0] and not sys.stdin.read(1):
            break
finally:
    m.close()
"""


def listed_ids(data_dir, env=None) -> set[str]:
    listing = cli("list", "--json", "--limit", "1000000", "--state", "active", data_dir=data_dir, env=env)
    assert listing.returncode == 0, listing.stderr
    return {n["id"] for n in json.loads(listing.stdout)}


def report(capsys, who: str, kills: int, acked: int, lost: int) -> None:
    KILLS[who] += kills
    ACKED[who] += acked
    LOST[who] += lost
    with capsys.disabled():
        print(f"\n[crash] {who}: {kills} kill -9s, {acked} acknowledged items, {lost} lost")


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


@pytest.mark.slow
def test_kill_9_of_the_engine_loses_nothing_acknowledged(tmp_path, capsys):
    """The engine under a process that keeps capturing: it is restarted, the process goes on."""
    data, rng = tmp_path / "data", random.Random(11)
    acked: list[str] = []
    kills = 0
    while kills < ENGINE_KILLS:
        child = subprocess.Popen(
            [sys.executable, "-c", LOOP, str(data), str(kills)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        engine = None
        for _ in range(ENGINE_KILLS_PER_PROCESS):
            wanted, seen = rng.randint(2, 30), 0
            while seen < wanted:
                line = child.stdout.readline().split()
                assert line, child.stderr.read()
                if line[0] == "engine":
                    engine = int(line[1])
                elif line[0] == "ok":
                    acked.append(line[1])
                    seen += 1
            os.kill(engine, signal.SIGKILL)
            kills += 1
        # closing stdin (communicate does) ends the loop after its next capture
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        acked += [line.split()[1] for line in out.splitlines() if line.startswith("ok ")]
    lost = len(set(acked) - listed_ids(data))
    report(capsys, "engine", kills, len(acked), lost)
    assert lost == 0


def app_env(runtime) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(runtime))
    return env


def wait_ready(proc, data_dir) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read()
        try:
            status = instance.request(data_dir, {"op": "status"}, timeout=10)
        except instance.InstanceError:
            status = None
        if status and status.get("ready"):
            return
        time.sleep(0.1)
    raise AssertionError("the app did not become ready")


@pytest.mark.slow
def test_kill_9_of_the_app_loses_no_forwarded_capture(tmp_path, capsys, monkeypatch):
    """The desktop app, taking captures forwarded over its socket, killed mid-stream; the next app
    takes the data dir over and holds every capture it acknowledged."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    data, rng = tmp_path / "data", random.Random(13)
    acked: set[str] = set()
    kills = 0
    while True:
        app = subprocess.Popen(
            [sys.executable, "-m", "desktop.launch", "--data-dir", str(data), "--no-tray"],
            cwd=ROOT,
            env=app_env(runtime),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_ready(app, data)
        # what the app holds now: everything acknowledged by the one killed before it
        assert acked <= listed_ids(data, env={"XDG_RUNTIME_DIR": str(runtime)})
        if kills == APP_KILLS:
            instance.request(data, {"op": "quit"}, timeout=10)
            assert app.wait(60) == 0
            break
        threading.Timer(rng.uniform(0.05, 1.5), lambda victim=app: victim.kill()).start()
        n = 0
        while app.poll() is None:
            n += 1
            try:
                answer = instance.command(
                    data, ["capture", "--kind", "note", "--", f"app crash {kills} capture {n}"]
                )
            except instance.InstanceError:
                continue  # the app died mid-request: not acknowledged
            if answer is not None and answer["code"] == 0:
                acked.add(answer["stdout"].strip())
        app.wait(30)
        kills += 1
    lost = len(acked - listed_ids(data))
    report(capsys, "app", kills, len(acked), lost)
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
