"""Sync with a server that answers as a careless or hostile one may (tests/core/dav_server.py's
HostileDav, a real HTTP server on loopback): a redirect to another server, item addresses outside
the collection, a sync token it no longer knows, characters XML cannot hold, writes it refuses.
The password goes only where the person added; nothing outside the collection is written to or
deleted; one collection's failure stops neither the others nor the count of what failed."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from core import cli
from core.model import Kind, State
from tests.core.dav_server import HostileDav, Recorder, never_given_the_password
from tests.core.test_sync import card, neurons, of_kind, todo

TASKS, BOOK = "/p/tasks/", "/p/book/"


@pytest.fixture
def memory(embedded_memory):
    return embedded_memory


def add(memory, server: HostileDav, monkeypatch, *more: str) -> dict:
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", "secret")
    out = neurons(memory, "sync", "add", server.url, "--user", "ana", "--all", *more)
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
        hostile.send_discovery_to(elsewhere.url + "p/")
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


def test_well_known_addresses_sent_to_another_name_of_the_server_leave_the_address_typed_to_answer(
    hostile, kept, memory, monkeypatch
):
    """DAViCal redirects /.well-known/caldav to the name it is configured with (127.0.0.1 for a
    server typed as localhost): not followed, the address typed still finds the principal."""
    port = hostile.server.server_port
    for path in ("/.well-known/caldav", "/.well-known/carddav"):
        hostile.redirect[path] = f"http://localhost:{port}/caldav.php/"
    add(memory, hostile, monkeypatch)
    assert [c.href for c in memory.sync_accounts()[0].collections] == [
        hostile.url + "p/tasks/",
        hostile.url + "p/book/",
    ]
    assert [p for m, p, _ in hostile.seen if m == "PROPFIND"][:3] == [
        "/.well-known/caldav",
        "/.well-known/carddav",
        "/",
    ]


FOLLOW = "follow-without-password"


@pytest.fixture
def elsewhere(tmp_path, request):
    """The other server a hostile one redirects to, in its own process (tests/core/recording_server.py)."""
    recorder = Recorder(tmp_path / "elsewhere", request.param)
    yield recorder
    recorder.close()


def test_a_redirect_followed_by_choice_sends_the_password_only_to_the_server_added(
    hostile, kept, memory, monkeypatch, tmp_path
):
    # the well-known address sends Neurons to another server, which names the principal back here
    recorder = Recorder(tmp_path / "elsewhere", f"principal:{hostile.url}p/")
    try:
        hostile.send_discovery_to(recorder.url + "principals/")
        add(memory, hostile, monkeypatch, "--redirects", FOLLOW)
        assert recorder.requests(), "the redirect was followed"
        never_given_the_password(recorder)
        assert all(auth for method, path, auth in hostile.seen if path.startswith("/p/"))
        hostile.put(TASKS, "a.ics", todo("a", "Task A", "DUE:20310310T150000Z\r\n"))
        code, out, said = sync(memory)
        assert code == 0 and out["pulled"] == 1, said
        never_given_the_password(recorder)
        assert "redirects to another server are followed without the password" in status(memory)
        shown = json.loads(neurons(memory, "sync", "status", "--json")["stdout"])
        assert shown["accounts"][0]["redirects"] == FOLLOW
    finally:
        recorder.close()


@pytest.mark.parametrize("elsewhere", ["password"], indirect=True)
def test_a_followed_redirect_to_a_server_that_asks_for_the_password_stops_in_one_line(
    hostile, kept, elsewhere, tmp_path, capsys, monkeypatch
):
    hostile.send_discovery_to(elsewhere.url + "dav/")
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", "secret")
    argv = ["--data-dir", str(tmp_path / "d"), "sync", "add", hostile.url, "--user", "ana", "--all"]
    code = cli.main([*argv, "--redirects", FOLLOW])
    err = capsys.readouterr().err
    assert code == 2
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "asks for a password" in lines[0], err
    assert str(elsewhere.port) in lines[0]
    assert elsewhere.requests()
    never_given_the_password(elsewhere)
    assert not kept.items


def test_redirects_are_refused_unless_chosen_and_another_choice_is_refused(
    hostile, kept, memory, monkeypatch, tmp_path, capsys
):
    add(memory, hostile, monkeypatch)
    shown = json.loads(neurons(memory, "sync", "status", "--json")["stdout"])
    assert shown["accounts"][0]["redirects"] == "refuse"
    argv = ["--data-dir", str(tmp_path / "d"), "sync", "add", hostile.url, "--user", "bob", "--all"]
    asked, keyring = len(hostile.seen), dict(kept.items)
    assert cli.main([*argv, "--redirects", "always"]) == 2
    said = capsys.readouterr().err
    assert "--redirects" in said.splitlines()[0] and "follow-without-password" in said, said
    assert len(hostile.seen) == asked and kept.items == keyring  # nothing asked, nothing kept


@pytest.mark.parametrize("elsewhere", ["moved"], indirect=True)
@pytest.mark.parametrize("choice", ["refuse", FOLLOW])
@pytest.mark.parametrize("listing", ["sync-collection", "etags"])
@pytest.mark.parametrize("to", ["another server", "this server"])
def test_a_collection_that_moves_is_reported_and_never_taken_as_its_new_address(
    hostile, kept, memory, monkeypatch, elsewhere, choice, listing, to
):
    hostile.sync_collection = listing == "sync-collection"
    hostile.put(TASKS, "a.ics", todo("a", "Task A", "DUE:20310310T150000Z\r\n"))
    add(memory, hostile, monkeypatch, *(["--redirects", choice] if choice != "refuse" else []))
    assert sync(memory)[0] == 0
    # the task list answers "moved for good" (to another host, or to another place on this one)
    hostile.redirect[TASKS] = (elsewhere.url if to == "another server" else hostile.url) + "q/tasks/"
    hostile.put(BOOK, "joe.vcf", card("joe", "Joe Bloggs"))
    code, out, said = sync(memory)
    assert code == 2 and out["failures"] == 1, out
    assert [n.title for n in of_kind(memory, Kind.CONTACT)] == ["Joe Bloggs"]  # the others sync
    [task] = of_kind(memory, Kind.REMINDER)
    assert task.state is State.ACTIVE  # nothing there was taken as deleted
    shown = status(memory)
    assert "Tasks: reminders\n    its last sync failed:" in shown and "moved" in shown
    assert "q/tasks/" in shown
    assert elsewhere.requests() == []  # the new address is not where Neurons syncs
    # edits here still go only to the address it was added with: never to the new one
    memory.edit(task.id, "Task A, edited")
    sync(memory)
    assert elsewhere.requests() == []
    assert not [path for _, path, _ in hostile.seen if "/q/" in path]


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


def test_a_token_a_week_old_is_not_sent_so_what_was_deleted_meanwhile_is_found(
    hostile, kept, memory, monkeypatch
):
    """DAViCal forgets a token a week after the collection next changes and answers a forgotten
    one with every item it holds, as if that were what changed: a token that old is not sent."""
    add(memory, hostile, monkeypatch)
    hostile.put(TASKS, "a.ics", todo("a", "Task A", "DUE:20310310T150000Z\r\n"))
    hostile.put(TASKS, "b.ics", todo("b", "Task B", "DUE:20310310T150000Z\r\n"))
    assert sync(memory)[0] == 0
    hostile.token, hostile.refuse_token = "token-2", None  # token-1 forgotten, and not said so
    hostile.listing[TASKS].remove(TASKS + "b.ics")  # deleted on the phone meanwhile
    [account] = memory.sync_accounts()
    memory.sync_tried(account.id, account.synced_at - timedelta(days=8), None)  # a week away
    code, out, said = sync(memory)
    assert code == 0, said
    assert {n.title: n.state for n in of_kind(memory, Kind.REMINDER)} == {
        "Task A": State.ACTIVE,
        "Task B": State.TRASHED,
    }
    sync(memory)  # the next, within the week, sends the token it was given
    # (the task list's and the address book's, a sync each): none, none a week later, the new one
    assert hostile.tokens_given == ["", "", "", "", "token-2", "token-2"]


def test_a_write_refused_as_changed_there_makes_the_next_sync_compare_the_whole_list(
    hostile, kept, memory, monkeypatch
):
    """An edit here of an item deleted there, whose delete the changes listed never said (what
    DAViCal's answer to a token it forgot leaves out): refused at each sync, until a whole
    list shows it gone."""
    add(memory, hostile, monkeypatch)
    hostile.put(TASKS, "a.ics", todo("a", "Task A", "DUE:20310310T150000Z\r\n"))
    hostile.put(TASKS, "b.ics", todo("b", "Task B", "DUE:20310310T150000Z\r\n"))
    sync(memory)
    hostile.refuse_token = None
    hostile.listing[TASKS].remove(TASKS + "a.ics")  # deleted there; the changes listed do not say so
    hostile.status[("PUT", TASKS + "a.ics")] = 412  # If-Match on what is not there any more
    [a] = [n for n in of_kind(memory, Kind.REMINDER) if n.title == "Task A"]
    memory.edit(a.id, "Task A, edited here")
    code, out, said = sync(memory)
    assert code == 2 and "changed on the server meanwhile" in out["errors"][0], out
    code, out, said = sync(memory)
    assert code == 0 and out["deleted"] == 1, out
    assert memory.get(a.id).state is State.TRASHED  # as any item deleted there: restorable here
    assert hostile.tokens_given[-2:] == ["", "token-1"]  # the task list whole, the book as before


@pytest.mark.parametrize("refusal", [400, 403, 501])
def test_a_server_that_offers_sync_collection_but_refuses_it_is_listed_by_etag(
    hostile, kept, memory, monkeypatch, refusal
):
    # what the caldav library's server notes call an ungraceful sync-collection (Posteo, GMX)
    add(memory, hostile, monkeypatch)
    hostile.sync_collection_refused = refusal
    hostile.put(TASKS, "a.ics", todo("a", "Task A", "DUE:20310310T150000Z\r\n"))
    code, out, said = sync(memory)
    assert code == 0 and out["pulled"] == 1, said
    hostile.listing[TASKS].remove(TASKS + "a.ics")  # deleted there, and another one made
    hostile.put(TASKS, "b.ics", todo("b", "Task B", "DUE:20310310T150000Z\r\n"))
    code, out, said = sync(memory)
    assert code == 0, said
    assert {n.title: n.state for n in of_kind(memory, Kind.REMINDER)} == {
        "Task A": State.TRASHED,
        "Task B": State.ACTIVE,
    }


def test_one_collections_failure_does_not_block_the_others(hostile, kept, memory, monkeypatch):
    add(memory, hostile, monkeypatch)
    hostile.status[("REPORT", TASKS)] = hostile.status[("PROPFIND", TASKS)] = 403
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


def test_attrs_given_as_objects_never_reach_the_server_as_a_python_repr(hostile, kept, memory, monkeypatch):
    add(memory, hostile, monkeypatch)
    memory.capture(
        "Water the plants",
        kind="reminder",
        attrs={
            "due_at": "2031-03-10T15:00:00+00:00",
            "tags": [{"name": "home"}, "garden"],
            "location": {"name": "Balcony"},
        },
        derive=False,
    )
    code, out, said = sync(memory)
    assert code == 0 and out["pushed"] == 1, said
    [(method, path)] = hostile.written()
    sent = hostile.items[path].decode()
    assert "{" not in sent and "'name'" not in sent, sent
    assert "CATEGORIES:garden" in sent and "LOCATION" not in sent
