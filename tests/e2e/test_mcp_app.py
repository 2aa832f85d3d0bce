"""`neurons mcp` while the desktop app runs (both real processes, the app offscreen): the tools
go through the app, whose scheduler and memory see what the assistant saved; when the app quits
the server opens the data dir itself, and when the server has been idle an app can start."""

from __future__ import annotations

import json
import time
from datetime import datetime

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from core import instance
from core.mcp import IDLE_RELEASE_S
from core.memory import Memory
from core.settings import Settings
from core.store.lock import DataDirLock
from tests.conftest import run_cli
from tests.core.test_mcp import call, in_two_hours, stdio
from tests.desktop.test_single_instance import launch, stop, wait_ready

pytestmark = [pytest.mark.slow, pytest.mark.e2e]


def next_reminder_becomes(data_dir, expected, timeout: float = 30.0) -> None:
    """The app's scheduler replans on its own threads: wait until it plans `expected`."""
    deadline = time.monotonic() + timeout
    while True:
        planned = instance.request(data_dir, {"op": "status"})["next_reminder"]
        if (datetime.fromisoformat(planned) if planned else None) == expected:
            return
        assert time.monotonic() < deadline, f"the app plans {planned}, not {expected}"
        time.sleep(0.2)


def through_app(data_dir, *argv: str):
    """A command answered by the running app (what its memory holds)."""
    reply = instance.request(data_dir, {"op": "command", "argv": [*argv, "--json"]})
    assert reply is not None and reply["code"] == 0, reply
    return json.loads(reply["stdout"])


def test_mcp_goes_through_the_running_app_and_takes_over_when_it_quits(tmp_path, monkeypatch):
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    data_dir = tmp_path / "data"
    app = launch(data_dir, runtime)
    due = in_two_hours()
    try:
        wait_ready(app, data_dir)

        async def with_app():
            async with Client(stdio(data_dir), mode="legacy") as client:
                saved = await call(
                    client, "capture", text=f"remind me to water the plants at {due:%H:%M} on {due:%Y-%m-%d}"
                )
                # the app's own memory holds it, and its scheduler now waits for it
                assert saved["id"] in {n["id"] for n in through_app(data_dir, "list")}
                next_reminder_becomes(data_dir, due)
                found = await call(client, "ask", question="plants")
                assert found["results"][0]["id"] == saved["id"]
                assert (await call(client, "upcoming"))["reminders"][0]["id"] == saved["id"]
                await call(client, "done", id=saved["id"])
                assert saved["id"] in {n["id"] for n in through_app(data_dir, "list", "--state", "done")}
                next_reminder_becomes(data_dir, None)
                # the server never took the data dir: the app has it
                assert DataDirLock(data_dir).read_record()["pid"] == app.pid
                # `profile show` is answered by the app; a profile is not made under its feet
                assert through_app(data_dir, "profile", "show")["profile"] is None
                refused = run_cli("profile", "create", "Maria", data_dir=data_dir)
                assert refused.returncode == 2 and "Traceback" not in refused.stderr
                assert through_app(data_dir, "profile", "show")["profile"] is None

                # the app quits; the next call opens the data dir here
                assert stop(app, data_dir) == 0
                later = await call(client, "capture", text="the spare key is under the blue pot")
                assert DataDirLock(data_dir).read_record() is not None
                found = await call(client, "ask", question="where is the spare key?")
                assert found["results"][0]["id"] == later["id"]
                return saved["id"], later["id"]

        reminder_id, note_id = anyio.run(with_app)
    finally:
        if app.poll() is None:
            stop(app, data_dir)
    # the server has exited and released the data dir: the app starts at once and sees both
    assert DataDirLock(data_dir).read_record() is None
    app = launch(data_dir, runtime)
    try:
        wait_ready(app, data_dir)
        assert note_id in {n["id"] for n in through_app(data_dir, "list")}
        assert through_app(data_dir, "show", reminder_id)["state"] == "done"
    finally:
        stop(app, data_dir)


def test_an_app_started_during_a_session_gets_the_data_dir_once_the_server_is_idle(tmp_path, monkeypatch):
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    data_dir = tmp_path / "data"
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)):
        pass  # the data dir exists, so the session's first call does not wait for initdb

    async def session():
        async with Client(stdio(data_dir), mode="legacy") as client:
            first = await call(client, "capture", text="buy oat milk")
            assert DataDirLock(data_dir).read_record() is not None  # the server holds it now
            app = launch(data_dir, runtime)
            try:
                # the app waits for the data dir (30 s) and gets it when the server goes idle
                wait_ready(app, data_dir)
                # from now on the server's calls go through the app
                second = await call(client, "capture", text="buy rye bread")
                held = DataDirLock(data_dir).read_record()
                assert held["pid"] == app.pid
                listed = {n["id"] for n in through_app(data_dir, "list")}
                assert {first["id"], second["id"]} <= listed
            finally:
                stop(app, data_dir)

    assert IDLE_RELEASE_S < 25  # within the app's wait for a held data dir (APP_WAIT_S = 30)
    anyio.run(session)


def test_the_bundle_serves_mcp_with_no_python_node_or_network(bundle, bare_env, offline, tmp_path):
    """What an MCP host configured with the bundle's `neurons mcp` gets."""
    data_dir = tmp_path / "data"
    command = [*offline, str(bundle / "neurons"), "--data-dir", str(data_dir), "mcp"]
    params = StdioServerParameters(command=command[0], args=command[1:], env=bare_env, cwd=bare_env["HOME"])

    async def session():
        async with Client(params, mode="legacy") as client:
            assert {t.name for t in (await client.list_tools()).tools} >= {"capture", "ask"}
            saved = await call(client, "capture", text="the bike lock code is 4711")
            found = await call(client, "ask", question="bike lock")
            assert found["results"][0]["id"] == saved["id"]

    t0 = time.monotonic()
    anyio.run(session)
    print(f"\nbundled mcp session (start, initdb, capture, ask, exit): {time.monotonic() - t0:.1f}s")
    assert DataDirLock(data_dir).read_record() is None
