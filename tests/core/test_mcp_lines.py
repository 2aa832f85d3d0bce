"""`neurons mcp` answers every JSON-RPC request that has an id: malformed
messages get a JSON-RPC error (parse error, invalid request) carrying the request's id when it
can be read, else id null; notifications and responses are never answered. Raw lines written to
the real `neurons mcp` process, its stdout read line by line."""

from __future__ import annotations

import io
import json
import os
import queue
import subprocess
import sys
import threading

import pytest

from core import mcp as neurons_mcp
from tests.conftest import ROOT

PARSE, INVALID = -32700, -32600


class Wire:
    """The `neurons mcp` process and its stdout, read on a thread (a missing answer is a timeout)."""

    def __init__(self, data_dir):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "core.cli", "--data-dir", str(data_dir), "mcp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "XDG_RUNTIME_DIR": str(data_dir.parent)},
        )
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.put(line)

    def send(self, raw: bytes) -> None:
        self.proc.stdin.write(raw + b"\n")
        self.proc.stdin.flush()

    def answer(self, timeout: float = 30) -> dict:
        return json.loads(self.lines.get(timeout=timeout))

    def nothing_more(self, wait: float = 1.0) -> None:
        with pytest.raises(queue.Empty):
            self.lines.get(timeout=wait)

    def close(self) -> str:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return self.proc.stderr.read().decode()


def request(id_json: str, rest: str = '"method":"ping"') -> bytes:
    return ('{"jsonrpc":"2.0","id":' + id_json + "," + rest + "}").encode()


CASES = [
    # (the raw line, the id of the answer, its code, words of its message)
    (request("1", '"method":"ping","params":"x"'), 1, INVALID, "params must be an object"),
    (request("2", '"method":"ping","params":{"a":"\\ud800"}'), 2, INVALID, "lone surrogate"),
    (request("3", '"method":"ping","params":' + "[" * 50_000 + "]" * 50_000), 3, PARSE, "nested too deeply"),
    (request("4", '"method":"ping","params":{"a":' + "[" * 50_000), 4, PARSE, "Parse error"),
    (request('{"a":1}'), None, INVALID, "id must be a string or an integer"),
    (request("true"), None, INVALID, "id must be a string or an integer"),
    (b'[{"jsonrpc":"2.0","id":6,"method":"ping"}]', 6, INVALID, "not a batch"),
    (b"[]", None, INVALID, "not a batch"),
    (b"hello, is this MCP?", None, PARSE, "Parse error"),
    (b'"just a string"', None, INVALID, "a message is a JSON object"),
    (request('"seven"', '"method":7'), "seven", INVALID, "method must be a string"),
    (b'{"jsonrpc":"1.0","id":8,"method":"ping"}', 8, INVALID, 'jsonrpc must be "2.0"'),
    (b"\xff\xfe not UTF-8", None, PARSE, "Parse error"),
]


def test_every_request_with_an_id_gets_an_answer(tmp_path):
    wire = Wire(tmp_path / "data")
    try:
        for raw, answer_id, code, words in CASES:
            wire.send(raw)
            answer = wire.answer()
            assert answer["id"] == answer_id and answer["error"]["code"] == code, (raw[:80], answer)
            assert words in answer["error"]["message"], (raw[:80], answer)
        # what must not be answered: notifications (even malformed), responses, blank lines
        for raw in (
            b'{"jsonrpc":"2.0","method":"notifications/x","params":"x"}',
            b'{"jsonrpc":"2.0","id":9,"result":"x"}',
            b"   ",
        ):
            wire.send(raw)
        wire.nothing_more()
        # and the session goes on: a real request after all that is served
        wire.send(request("10", '"method":"ping"'))
        assert wire.answer() == {"jsonrpc": "2.0", "id": 10, "result": {}}
    finally:
        stderr = wire.close()
    assert "Traceback" not in stderr, stderr


def test_an_overlong_line_is_answered_without_being_held(monkeypatch):
    monkeypatch.setattr(neurons_mcp, "MAX_LINE", 64)

    screen = neurons_mcp._Screen(io.BufferedReader(io.BytesIO(b"x" * 500 + b"\n" + b'{"a":1}\n')))
    assert screen._read_line() is neurons_mcp._OVERLONG
    assert screen._read_line() == b'{"a":1}\n'
    assert screen._read_line() is None


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ('{"jsonrpc":"2.0","params":{"id":5},"id":7,"method":"x"', 7),
        ('{"id":"abc","params":[[[', "abc"),
        ('{"params":{"id":1}', None),
        ('{"id":{"nested":1}', None),
        ("[[[", None),
    ],
)
def test_the_id_of_a_line_that_does_not_parse(line, found):
    assert neurons_mcp._shallow_id(line) == found
