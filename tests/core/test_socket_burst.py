"""The app's socket under a burst: 200 clients connecting at once are all
answered (a full queue is "busy, retry", never a traceback or "no app"), and while 1,000
half-open connections are held a new ping is still answered (idle ones are dropped, the oldest
first). The server is a real process with the descriptor limit of a desktop session (1,024)."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import threading
import time

import pytest

from core import instance
from tests.conftest import ROOT

SERVER = """
import resource, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))
from core import instance
lock = instance.InstanceLock(sys.argv[1])
assert lock.try_acquire()
server = instance.InstanceServer(sys.argv[1], lambda message: {"echo": message["op"]}, lock)
server.start()
print("ready", flush=True)
sys.stdin.read()
server.stop()
"""


@pytest.fixture
def app(tmp_path, monkeypatch):
    """A process serving the data dir's socket, as the desktop app does."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(data_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "XDG_RUNTIME_DIR": str(tmp_path)},
    )
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    yield data_dir
    proc.stdin.close()
    try:
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    stderr = proc.stderr.read()
    assert "Traceback" not in stderr, stderr


def test_two_hundred_clients_at_once_are_all_answered(app):
    start = threading.Barrier(200)
    outcomes: list[object] = []

    def client() -> None:
        start.wait()
        try:
            outcomes.append(instance.request(app, {"op": "ping"}, timeout=60))
        except Exception as exc:  # noqa: BLE001 - whatever a client would have seen, counted below
            outcomes.append(exc)

    threads = [threading.Thread(target=client) for _ in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    failed = [o for o in outcomes if not isinstance(o, dict)]
    assert not failed and len(outcomes) == 200, failed[:3]


def test_a_ping_is_answered_while_a_thousand_connections_idle(app):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard < 1200:
        pytest.skip("this process may not hold 1,000 connections")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    idle: list[socket.socket] = []
    try:
        for _ in range(1000):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(10)
            sock.connect(str(instance.socket_path(app)))
            idle.append(sock)  # connected, and never a byte sent
        reply = instance.request(app, {"op": "ping"}, timeout=30)
        assert reply is not None and "pid" in reply
        # the idle ones are let go: the oldest first, all of them within IDLE_S
        time.sleep(instance.IDLE_S + 1)
        assert idle[0].recv(1) == b""
        assert instance.request(app, {"op": "status"})["echo"] == "status"
    finally:
        for sock in idle:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_full_queue_is_busy_then_a_sentence(tmp_path, monkeypatch):
    """Nobody accepts: once the kernel's queue is full a client retries, then says "busy"."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setattr(instance, "BUSY_RETRY_S", 0.3)
    path = instance.socket_path(tmp_path / "data")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(0)
    held = []
    try:
        with pytest.raises(instance.InstanceError, match="too busy"):
            for _ in range(10):  # the first connection or two fill a backlog of 0
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.setblocking(False)
                try:
                    sock.connect(str(path))
                    held.append(sock)
                except BlockingIOError:
                    sock.close()
                    break
            instance.request(tmp_path / "data", {"op": "ping"}, timeout=1)
        assert instance.is_running(tmp_path / "data")  # busy is running, not "no app"
    finally:
        for sock in held:
            sock.close()
        listener.close()
