"""What the crash suite's files share (tests/e2e/test_crash*.py): the kills of each part, the
capturing loop, the listing that checks what was acknowledged, and the counts reported."""

from __future__ import annotations

import json
import os
import time

from core import instance
from tests.conftest import cli
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
        # None while the output thread restarts a killed engine: wait for the new one's pid
        if m.store.engine.pid not in (None, engine):
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
