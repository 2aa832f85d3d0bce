"""core.instance: one app per data dir, requests over its socket, stale sockets (no Qt)."""

from __future__ import annotations

import os
import socket
import stat
import tempfile
import threading
from pathlib import Path

import pytest

from core import instance
from core.model import InvalidInput


@pytest.fixture(autouse=True)
def runtime(monkeypatch):
    # short, like /run/user/UID (pytest's own temp paths grow with each run's number)
    with tempfile.TemporaryDirectory(prefix="nrt-", dir="/tmp") as run:
        os.chmod(run, 0o700)
        monkeypatch.setenv("XDG_RUNTIME_DIR", run)
        yield Path(run)


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


def serve(data_dir, handler):
    lock = instance.InstanceLock(data_dir)
    assert lock.try_acquire()
    server = instance.InstanceServer(data_dir, handler, lock)
    server.start()
    return lock, server


def test_paths_are_short_private_and_per_data_dir(tmp_path, data_dir, runtime):
    path = instance.socket_path(data_dir)
    assert path.parent == runtime / "neurons"
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert len(str(path)) < 100
    assert instance.socket_path(data_dir) == instance.socket_path(str(data_dir) + "/")
    assert instance.socket_path(tmp_path / "other") != path


def test_one_lock_holder_per_data_dir(data_dir):
    first, second = instance.InstanceLock(data_dir), instance.InstanceLock(data_dir)
    assert first.try_acquire()
    assert not second.try_acquire()
    first.release()
    assert second.try_acquire()
    second.release()


def test_nobody_listening_means_none(data_dir):
    assert instance.request(data_dir, {"op": "ping"}) is None
    assert instance.command(data_dir, ["capture", "--", "hello"]) is None
    assert instance.is_running(data_dir) is False


def test_requests_are_answered_by_the_handler(data_dir):
    seen = []

    def handler(message):
        seen.append(message)
        if message["op"] == "command":  # the app runs the command line (here: echoes its text)
            text = message["argv"][-1]
            if not text.strip():
                raise InvalidInput("text is empty")
            if text == "mute":
                return {}
            return {"code": 0, "stdout": text, "stderr": ""}
        if message["op"] == "boom":
            raise RuntimeError("kaput")
        return {"echo": message["op"]}

    lock, server = serve(data_dir, handler)
    try:
        assert instance.request(data_dir, {"op": "ping"})["pid"] == os.getpid()
        assert instance.is_running(data_dir)
        big = "x" * (2 * 1024 * 1024) + "é\U0001f600"
        answer = instance.command(data_dir, ["capture", "--kind", "note", "--", big])
        assert answer == {"code": 0, "stdout": big, "stderr": ""}
        assert seen[-1]["argv"] == ["capture", "--kind", "note", "--", big]
        with pytest.raises(instance.InstanceError, match="text is empty"):
            instance.command(data_dir, ["capture", "--", "  "])
        with pytest.raises(instance.InstanceError, match="did not answer the command"):
            instance.command(data_dir, ["capture", "--", "mute"])
        with pytest.raises(instance.InstanceError, match="RuntimeError: kaput"):
            instance.request(data_dir, {"op": "boom"})
        with pytest.raises(instance.InstanceError, match="'op'"):
            instance.request(data_dir, {"nope": 1})
        # several clients at once
        results = []
        threads = [
            threading.Thread(
                target=lambda i=i: results.append(instance.request(data_dir, {"op": f"n{i}"})["echo"])
            )
            for i in range(8)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == sorted(f"n{i}" for i in range(8))
    finally:
        server.stop()
        lock.release()
    assert not instance.socket_path(data_dir).exists()
    assert instance.request(data_dir, {"op": "ping"}) is None


def test_a_stale_socket_is_left_alone_by_clients_and_replaced_by_the_lock_holder(data_dir):
    path = instance.socket_path(data_dir)
    crashed = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    crashed.bind(str(path))
    crashed.close()  # the file stays, as after a crash
    assert path.exists()
    assert instance.command(data_dir, ["capture", "--", "hello"]) is None
    assert path.exists()  # a client never removes it
    lock, server = serve(data_dir, lambda m: {"ok2": True})
    try:
        assert instance.request(data_dir, {"op": "x"})["ok2"] is True
    finally:
        server.stop()
        lock.release()


def test_listening_needs_the_lock(data_dir):
    with pytest.raises(instance.InstanceError):
        instance.InstanceServer(data_dir, lambda m: {}, instance.InstanceLock(data_dir))


def test_a_runtime_dir_owned_by_someone_else_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))  # instance imports it late
    target = tmp_path / f"neurons-{os.getuid()}"
    (tmp_path / "elsewhere").mkdir()
    target.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(instance.InstanceError, match="not a directory owned"):
        instance.runtime_dir()
    assert instance.request(tmp_path / "d", {"op": "ping"}) is None


def test_a_runtime_dir_too_long_for_a_socket_is_passed_over(data_dir, tmp_path, monkeypatch):
    """AF_UNIX addresses hold 108 bytes: under a very long XDG_RUNTIME_DIR the app still listens
    (in the temp dir's private folder) and a client finds it there."""
    deep = tmp_path / ("r" * 40) / ("u" * 40)
    deep.mkdir(parents=True, mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(deep))
    with tempfile.TemporaryDirectory(prefix="nt-", dir="/tmp") as short:
        monkeypatch.setattr(tempfile, "gettempdir", lambda: short)
        assert len(str(instance.socket_path(data_dir))) < 108
        lock, server = serve(data_dir, lambda m: {"answered": m["op"]})
        try:
            assert instance.request(data_dir, {"op": "x"})["answered"] == "x"
        finally:
            server.stop()
            lock.release()


def test_an_app_gone_before_it_read_the_request_is_no_app(data_dir):
    """An app that dies as a request is being sent (seen in the crash suite as a BrokenPipeError
    traceback): it never had the whole line, so the request is the caller's to do (None)."""
    lock = instance.InstanceLock(data_dir)
    assert lock.try_acquire()
    path = instance.socket_path(data_dir)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)

    def accept_and_die() -> None:  # takes the connection, reads nothing, goes away
        conn, _ = listener.accept()
        conn.close()

    dying = threading.Thread(target=accept_and_die)
    dying.start()
    try:
        # larger than the socket's buffers: the send is still going when the app is gone
        assert instance.command(data_dir, ["capture", "--", "x" * 8_000_000]) is None
    finally:
        dying.join()
        listener.close()
        path.unlink()
        lock.release()
