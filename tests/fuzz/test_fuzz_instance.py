"""Fuzz the instance protocol: random requests and raw lines on the real socket of a real App
(offscreen) over the real embedded store. Every reply is a JSON object with `ok` and the
protocol; a refusal is a sentence, never "the app failed", and changes nothing."""

from __future__ import annotations

import json
import socket

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import instance
from tests.desktop.conftest import FakeClock, FakeNotifier, make_app, settle
from tests.fuzz.conftest import snapshot
from tests.fuzz.strategies import anything, attrs_values, json_values, texts

# Ops the socket thread answers without the GUI thread (those that wait on it cannot be sent
# from a test that holds the GUI thread itself: show, quick_capture, status, quit).
MEMORY_OPS = ["capture", "search", "ask", "command", "ping"]

requests = st.fixed_dictionaries(
    {"op": st.one_of(st.sampled_from(MEMORY_OPS), anything)},
    optional={
        "text": st.one_of(texts, anything),
        "kind": st.one_of(st.sampled_from(["note", "reminder", "contact", None]), anything),
        "attrs": attrs_values,
        "limit": st.one_of(st.integers(-5, 50), anything, st.just(10**30)),
        "argv": st.one_of(
            st.lists(
                st.sampled_from(
                    [
                        "list",
                        "show",
                        "ask",
                        "--limit",
                        "-1",
                        "5",
                        "--json",
                        "--",
                        "x",
                        "capture",
                        "--attrs",
                        '{"a": NaN}',
                        "export",
                        "eval",
                        "unlock",
                        "--kind",
                        "bogus",
                    ]
                ),
                max_size=6,
            ),
            anything,
        ),
        "protocol": st.one_of(st.just(instance.PROTOCOL), anything),
    },
)
raw_lines = st.one_of(
    st.binary(max_size=200).filter(lambda b: b"\n" not in b),
    st.sampled_from(
        [
            b"",
            b"[]",
            b"null",
            b'{"op": 1}',
            b'{"op": "ping", "protocol": NaN}',
            b"[" * 5000 + b"]" * 5000,
            b'{"op": "ping"',
            "\ud800".encode("utf-8", "surrogatepass"),
        ]
    ),
    json_values.map(lambda v: json.dumps(v).encode()),
)


@pytest.fixture
def served(qtbot, embedded_memory, tmp_path, monkeypatch):
    run = tmp_path / "run"
    run.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    app = make_app(qtbot, embedded_memory, FakeClock(), FakeNotifier())
    data = tmp_path / "data"
    lock = instance.InstanceLock(data)
    assert lock.try_acquire()
    server = instance.InstanceServer(data, app.handle, lock)
    server.start()
    yield data, embedded_memory
    server.stop()
    lock.release()
    settle(qtbot, app)
    app.close()


def send(data_dir, line: bytes) -> dict:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(60)
        sock.connect(str(instance.socket_path(data_dir)))
        sock.sendall(line + b"\n")
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = sock.recv(65536)
            assert chunk, "the app closed the connection without answering"
            reply += chunk
    return json.loads(reply)


def check(reply: dict, before: str, memory) -> None:
    assert isinstance(reply, dict) and reply.get("protocol") == instance.PROTOCOL
    assert isinstance(reply.get("ok"), bool)
    if not reply["ok"]:
        error = reply.get("error")
        assert isinstance(error, str) and error and not error.startswith("the app failed"), error
        assert snapshot(memory) == before
    elif isinstance(reply.get("code"), int) and reply["code"] != 0:  # a forwarded command refused
        assert "Traceback" not in reply.get("stderr", "")
        assert snapshot(memory) == before


@given(message=requests)
@settings(max_examples=120)
def test_requests(served, message):
    data, memory = served
    before = snapshot(memory)
    check(send(data, json.dumps(message).encode()), before, memory)


@given(line=raw_lines)
@settings(max_examples=60)
def test_raw_lines(served, line):
    data, memory = served
    before = snapshot(memory)
    check(send(data, line), before, memory)
