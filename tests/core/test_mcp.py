"""`neurons mcp`: the SDK's own client drives the real server -- over stdio as a child process
(the way an MCP host runs it), and in-process on both engines for the bad-input cases."""

from __future__ import annotations

import json
import os
import sys
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from core import commands
from core import mcp as neurons_mcp
from core.memory import Memory
from core.model import State
from core.recall import nearest
from core.settings import Settings
from core.store.lock import DataDirLock
from tests.conftest import ROOT

TOOLS = {"capture", "ask", "about", "upcoming", "done", "snooze", "show", "link"}


def stdio(data_dir: Path, *extra: str) -> StdioServerParameters:
    """`neurons mcp` as an MCP host starts it (the venv's python running core.cli)."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "core.cli", "--data-dir", str(data_dir), "mcp", *extra],
        cwd=str(ROOT),
        env={k: v for k, v in os.environ.items() if k.startswith(("XDG_", "NEURONS_"))},
    )


async def call(client: Client, tool: str, **arguments):
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    # the structured result and the text a model reads are the same JSON
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


async def refused(client: Client, tool: str, **arguments) -> str:
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool} {arguments} was accepted: {result.structured_content}"
    return result.content[0].text


def in_two_hours() -> datetime:
    return (datetime.now().astimezone() + timedelta(hours=2)).replace(second=0, microsecond=0)


@pytest.mark.slow
def test_an_mcp_host_saves_and_recalls_through_neurons_mcp(tmp_path, monkeypatch):
    data_dir = tmp_path / "data"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no desktop app listens here
    due = in_two_hours()

    async def session():
        async with Client(stdio(data_dir), mode="legacy") as client:
            info = client.session.initialize_result
            assert info.server_info.name == "neurons" and "memory" in info.instructions
            listed = (await client.list_tools()).tools
            assert {t.name for t in listed} == TOOLS  # and nothing that deletes or trashes
            for t in listed:
                assert len(t.description) > 80, t.name
                assert t.annotations.destructive_hint is False
                assert all(p.get("description") for p in t.input_schema["properties"].values()), t.name

            # a 5 MB text crosses the pipe, is refused with a sentence, and the server goes on
            assert "limit is" in await refused(client, "capture", text="x" * (5 * 1024 * 1024))
            ana = await call(client, "capture", text="Ana Silva +351 912 345 678 ana@example.com")
            assert ana["kind"] == "contact" and ana["title"] == "Ana Silva"
            call_ana = await call(
                client,
                "capture",
                text=f"remind me to call Ana about the boat trip at {due:%H:%M} on {due:%Y-%m-%d}",
            )
            assert call_ana["kind"] == "reminder"
            assert datetime.fromisoformat(call_ana["due_at"]) == due
            assert any(
                link["other_id"] == ana["id"] and link["other_title"] == "Ana Silva"
                for link in call_ana["links"]
            )  # linked to her contact, as quick capture does

            found = await call(client, "ask", question="when is the boat trip?")
            assert found["results"][0]["id"] == call_ana["id"]
            assert found["results"][0]["why"] and found["results"][0]["due_at"] == call_ana["due_at"]
            about = await call(client, "about", name="Ana")
            assert about["contact"]["id"] == ana["id"]
            assert call_ana["id"] in {r["id"] for r in about["timeline"]}
            assert all(r["why"] for r in about["timeline"])
            soon = await call(client, "upcoming", days=1)
            assert [r["id"] for r in soon["reminders"]] == [call_ana["id"]]
            assert soon["reminders"][0]["overdue"] is False

            resource = await client.read_resource(f"neurons://neuron/{call_ana['id']}")
            assert json.loads(resource.contents[0].text)["id"] == call_ana["id"]

            finished = await call(client, "done", id=call_ana["id"])
            assert finished["state"] == "done"
            assert (await call(client, "upcoming", days=1))["reminders"] == []
            return call_ana["id"]

    reminder_id = anyio.run(session)
    # the server has exited: the data dir is free (no stale record to take over) and the
    # reminder is done in the store
    assert DataDirLock(data_dir).read_record() is None
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
        assert memory.get(reminder_id).state is State.DONE


@pytest.fixture
def door(store, tmp_path, request):
    """A Door onto each engine with a fresh data dir, so a fresh identity."""
    data_dir = tmp_path / "data"
    if store.kind == "embedded":
        # the session's embedded store holds its own data dir; this one is the door's own, a
        # store no one has used (a copy of one made once: tests/conftest.py fresh_data_dir)
        data_dir = request.getfixturevalue("fresh_data_dir")
        opened = neurons_mcp.Door(data_dir, None, commands.execute)
    else:
        opened = neurons_mcp.Door(data_dir, store.settings.dsn, commands.execute)
    yield opened
    opened.close()


def test_after_a_question_the_quick_step_is_made_for_the_next(door, tmp_path, monkeypatch):
    # a server's memory answers many questions: past its size the step is made once (in the app
    # too); a single `neurons ask` scans exactly instead
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setattr(nearest, "NEAREST_MIN", 3)  # (20,000 vectors in a real memory)
    for text in ("the wifi password is hunter2", "the spare key is with Maria", "the boiler is serviced"):
        door.run(["capture", text])
    assert door.nearest_thread is None  # not after a capture
    door.run(["ask", "wifi password"])
    assert door.nearest_thread is not None
    door.nearest_thread.join(60)
    with door._using() as memory:
        assert memory.recall.index.nearest is not None
        made = memory.recall.index.nearest
        assert door.run(["ask", "spare key"])[0]
        assert memory.recall.index.nearest is made  # once


def test_bad_input_is_a_tool_error_and_writes_nothing(door, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    server = neurons_mcp.build(door)

    async def session():
        async with Client(server) as client:
            note = await call(client, "capture", text="the wifi password is hunter2")
            missing = str(uuid.uuid4())
            messages = [
                await refused(client, "capture", text="x", bogus=1),
                await refused(client, "capture", text="   "),
                await refused(client, "capture", text="x" * (5 * 1024 * 1024)),
                await refused(client, "capture", text="x", kind="poem"),
                await refused(client, "ask", question="what is it?"),
                await refused(client, "ask", question="wifi", limit=0),
                await refused(client, "about", name=""),
                await refused(client, "show", id="not-an-id"),
                await refused(client, "show", id=missing),
                await refused(client, "done", id=missing),
                await refused(client, "snooze", id=note["id"]),
                await refused(client, "snooze", id=note["id"], until="yesterday", minutes=5),
                await refused(client, "link", from_id=note["id"], to_id=missing),
                await refused(client, "link", from_id=note["id"], to_id=note["id"]),
                await refused(client, "upcoming", days=-1),
            ]
            assert "bogus" in messages[0] and "kind, text" in messages[0]
            assert "empty" in messages[1]
            assert "limit is" in messages[2]
            assert "common words" in messages[4]
            assert missing in messages[8] and missing in messages[9]
            assert "only active reminders snooze" in messages[10] or "not an active reminder" in messages[10]
            assert all("Traceback" not in m for m in messages)
            # the server still answers, and only the one note was ever written
            assert (await call(client, "ask", question="wifi password"))["results"][0]["id"] == note["id"]
            return note["id"]

    note_id = anyio.run(session)
    with door._using() as memory:
        assert memory.count() == 1
        assert memory.get(note_id).attrs == {}  # the refused snooze left it as it was


def test_done_and_snooze_act_as_in_the_window(door, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    server = neurons_mcp.build(door)
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)

    async def session():
        async with Client(server) as client:
            daily = await call(client, "capture", text="take the pills", kind="reminder")
            pills = daily["id"]
            with door._using() as memory:
                memory.reschedule(pills, start, "FREQ=DAILY")
            soon = await call(client, "upcoming")
            assert soon["reminders"][0]["id"] == pills and soon["reminders"][0]["overdue"]
            moved = await call(client, "done", id=pills)
            # a repeating reminder moves to its next time and stays active
            assert moved["state"] == "active" and "next due" in moved["why"]
            assert datetime.fromisoformat(moved["due_at"]) == start + timedelta(days=1)
            # a snooze never moves it before that next time
            later = datetime.fromisoformat(moved["due_at"]).astimezone() + timedelta(hours=3)
            snoozed = await call(client, "snooze", id=pills, until=later.strftime("%Y-%m-%dT%H:%M"))
            assert snoozed["snoozed_until"].startswith(later.strftime("%Y-%m-%dT%H:%M"))
            again = await call(client, "snooze", id=pills, minutes=30)
            assert datetime.fromisoformat(again["fires_at"]) > datetime.now(UTC)
            shown = await call(client, "show", id=pills)
            assert shown["attrs"]["rrule"] == "FREQ=DAILY" and shown["body"] == "take the pills"

    anyio.run(session)
