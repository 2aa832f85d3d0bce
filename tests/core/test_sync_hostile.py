"""Sync with a server that answers as a careless or hostile one may (tests/core/dav_server.py's
HostileDav, a real HTTP server on loopback): a redirect to another server, item addresses outside
the collection, a sync token it no longer knows, characters XML cannot hold, writes it refuses.
The password goes only where the person added; nothing outside the collection is written to or
deleted; one collection's failure stops neither the others nor the count of what failed."""

from __future__ import annotations

import json

import pytest

from core import cli
from core.model import Kind, State
from tests.core.dav_server import HostileDav
from tests.core.test_sync import card, neurons, of_kind, todo

TASKS, BOOK = "/p/tasks/", "/p/book/"


@pytest.fixture
def memory(embedded_memory):
    return embedded_memory


def add(memory, server: HostileDav, monkeypatch) -> dict:
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", "secret")
    out = neurons(memory, "sync", "add", server.url, "--user", "ana", "--all")
    assert out["code"] == 0, out
    return out


def sync(memory) -> tuple[int, dict, str]:
    out = neurons(memory, "sync", "--json")
    return out["code"], json.loads(out["stdout"])["accounts"][0], out["stderr"]


def status(memory) -> str:
    return neurons(memory, "sync", "status")["stdout"]


# -- the password goes only where the person added ------------------------------------------------


def test_a_redirect_to_another_server_is_refused_in_one_line_without_the_password(
    hostile, kept, tmp_path, capsys, monkeypatch
):
    elsewhere = HostileDav()
    try:
        for path in ("/", "/.well-known/caldav", "/.well-known/carddav"):
            hostile.redirect[path] = elsewhere.url + "p/"
        monkeypatch.setenv("NEURONS_SYNC_PASSWORD", "secret")
        code = cli.main(
            ["--data-dir", str(tmp_path / "d"), "sync", "add", hostile.url, "--user", "ana", "--all"]
        )
        err = capsys.readouterr().err
        assert code == 2
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1 and "another server" in lines[0], err
        assert elsewhere.seen == []  # not one request, so no password
        assert not kept.items
    finally:
        elsewhere.close()


# -- item addresses stay inside the collection ------------------------------------------------------


OUTSIDE = [
    "http://127.0.0.1:1/p/tasks/elsewhere.ics",  # another host
    "/p/tasks/../book/climb.vcf",  # climbing out into the address book
    "/p/tasks/%2e%2e/%2e%2e/etc/passwd",  # climbing out, encoded
    "/etc/passwd",
    "file:///etc/passwd",
    "/p/tasks/sub/deeper.ics",  # not a member of the collection
]


def test_item_addresses_outside_the_collection_are_skipped_and_never_written(
    hostile, kept, memory, monkeypatch
):
    add(memory, hostile, monkeypatch)
    hostile.put(TASKS, "fine.ics", todo("fine", "A fine task", "DUE:20310310T150000Z\r\n"))
    for i, href in enumerate(OUTSIDE):
        hostile.items[href] = todo(f"out-{i}", f"Outside {i}", "DUE:20310310T150000Z\r\n").encode()
        hostile.listing[TASKS].append(href)
    code, out, said = sync(memory)
    assert [n.title for n in of_kind(memory, Kind.REMINDER)] == ["A fine task"]
    assert code == 2 and out["failures"] == len(OUTSIDE) == len(out["errors"])
    assert all("skipped" in e for e in out["errors"])
    assert "another server" in status(memory) and "outside the collection" in status(memory)
    # every later edit and trash goes only to the item inside
    [fine] = of_kind(memory, Kind.REMINDER)
    memory.edit(fine.id, "A fine task, edited")
    sync(memory)
    memory.trash(fine.id)
    sync(memory)
    assert hostile.written() == [("PUT", TASKS + "fine.ics"), ("DELETE", TASKS + "fine.ics")]


# -- RFC 6578: a token the server no longer knows ------------------------------------------------------


@pytest.mark.parametrize("refusal", [403, 412, 418])  # 418: Nextcloud before 2024, no reason given
def test_an_unknown_sync_token_restarts_with_a_full_listing(hostile, kept, memory, monkeypatch, refusal):
    add(memory, hostile, monkeypatch)
    hostile.put(TASKS, "a.ics", todo("a", "Task A", "DUE:20310310T150000Z\r\n"))
    hostile.put(TASKS, "b.ics", todo("b", "Task B", "DUE:20310310T150000Z\r\n"))
    assert sync(memory)[0] == 0
    # the collection is restored from a backup: the old token is unknown, B is gone, a card came
    hostile.token, hostile.refuse_token = "token-2", refusal
    hostile.listing[TASKS].remove(TASKS + "b.ics")
    hostile.put(BOOK, "joe.vcf", card("joe", "Joe Bloggs"))
    code, out, said = sync(memory)
    assert code == 0, said
    assert {n.title: n.state for n in of_kind(memory, Kind.REMINDER)} == {
        "Task A": State.ACTIVE,
        "Task B": State.TRASHED,
    }
    assert [n.title for n in of_kind(memory, Kind.CONTACT)] == ["Joe Bloggs"]
    assert sync(memory)[1]["pulled"] == 0


def test_one_collections_failure_does_not_block_the_others(hostile, kept, memory, monkeypatch):
    add(memory, hostile, monkeypatch)
    hostile.status[("REPORT", TASKS)] = 403
    hostile.put(BOOK, "joe.vcf", card("joe", "Joe Bloggs"))
    code, out, said = sync(memory)
    assert code == 2 and out["failures"] == 1 and out["pulled"] == 1
    assert [n.title for n in of_kind(memory, Kind.CONTACT)] == ["Joe Bloggs"]
    shown = status(memory)
    assert "Tasks: reminders\n    its last sync failed:" in shown
    assert "Contacts: contacts\n    its last sync failed" not in shown


# -- what XML cannot hold ----------------------------------------------------------------------------------


def test_an_item_with_a_control_character_or_latin_1_is_skipped_and_the_rest_syncs(
    hostile, kept, memory, monkeypatch
):
    add(memory, hostile, monkeypatch)
    hostile.put(BOOK, "fine.vcf", card("fine", "Fine Person"))
    hostile.put(BOOK, "tab.vcf", card("tab", "Vertical\x0bTab"))
    hostile.put(BOOK, "latin.vcf", card("latin", "José").encode("latin-1"))
    hostile.put(TASKS, "ok.ics", todo("ok", "A fine task", "DUE:20310310T150000Z\r\n"))
    code, out, said = sync(memory)
    assert [n.title for n in of_kind(memory, Kind.CONTACT)] == ["Fine Person"]
    assert [n.title for n in of_kind(memory, Kind.REMINDER)] == ["A fine task"]
    assert out["failures"] == 2, out
    errors = " ".join(out["errors"])
    assert "tab.vcf" in errors and "control character" in errors
    assert "latin.vcf" in errors and "not UTF-8" in errors
    code, again, said = sync(memory)
    assert code == 0 and again["errors"] == []  # said once, until the item changes


# -- reports that count ----------------------------------------------------------------------------------


def test_a_refused_write_counts_and_does_not_stop_the_others(hostile, kept, memory, monkeypatch):
    add(memory, hostile, monkeypatch)
    for name in ("a", "b", "c"):
        hostile.put(TASKS, f"{name}.ics", todo(name, f"Task {name}", "DUE:20310310T150000Z\r\n"))
    sync(memory)
    for n in of_kind(memory, Kind.REMINDER):
        memory.edit(n.id, n.body + " (edited)")
    hostile.status[("PUT", TASKS + "a.ics")] = 412
    hostile.status[("PUT", TASKS + "b.ics")] = 404
    code, out, said = sync(memory)
    assert code == 2
    assert out["pushed"] == 1 and out["failures"] == 2, out
    assert not any("no longer on the server" in e for e in out["errors"])
    assert ("PUT", TASKS + "c.ics") in hostile.written()
