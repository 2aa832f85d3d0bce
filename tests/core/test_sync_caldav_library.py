"""What the caldav library recorded from real servers (iCloud, Nextcloud with jtx Board, Zimbra,
MDaemon: tests/core/caldav_library, from python-caldav's own tests, Apache-2.0), read by Neurons'
multistatus and iCalendar reader as the caldav library's tests expect it read; the whole
exchanges served by a real HTTP server (tests/core/dav_server.py's HostileDav giving each
recorded answer as it is), then synced."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core import cli
from core.interop import ical
from core.model import Kind, State
from core.store.sync_sql import Collection
from core.sync import accounts, dav, items
from core.sync.dav import CALDAV, DAV, q
from tests.core.test_sync import neurons, of_kind

RECORDED = Path(__file__).with_name("caldav_library")
BASE = "https://caldav.example.com/"
ICLOUD_ITEMS = "/17149682/calendars/testcalendar-84439d0b-ce46-4416-b978-7b4009122c64/"
TASKS = "/p/tasks/"


def recorded(name: str, moved: dict[str, str] | None = None) -> bytes:
    """A recorded answer; `moved`: its paths where the server of the test has them."""
    text = (RECORDED / name).read_text(encoding="utf-8")
    if name.endswith(".in"):  # the attachment's line, as many times as it was recorded
        text = text.replace("@REPEAT@\n", ATTACHMENT_LINE * 153_490)
    for old, new in (moved or {}).items():
        text = text.replace(old, new)
    return text.encode("utf-8")


ATTACHMENT_LINE = "gIyIoLTkwKCo2KyIjM4444449QEBAJjBGS0U+Sjk/QD3/2wBDAQsLCw8NDx0QEB09KSMpPT09\n"


def responses(name: str) -> tuple[list[dav.Response], dav.ET.Element]:
    """A recorded multistatus as Client.multistatus reads it."""
    root = dav.parse_xml(recorded(name), "the server")
    return [dav._response(BASE, r) for r in root.findall(q(DAV, "response"))], root


def href_in(response: dav.Response, prop: str) -> str:
    found = response.props[prop].findtext(q(DAV, "href"))
    assert found is not None
    return dav.normal_href(BASE, found)


# -- the reader, as the caldav library's tests expect ------------------------------------------------


def test_a_principal_is_read_from_icloud_and_from_a_server_that_answers_twice():
    [icloud], _ = responses("icloud-principal.xml")
    assert icloud.href == BASE and href_in(icloud, q(DAV, "current-user-principal")) == (
        BASE + "17149682/principal/"
    )
    twice, _ = responses("duplicated-response.xml")  # the same response twice (as caldav recorded it)
    assert {r.href for r in twice} == {BASE + "principals/users/frank/"}
    assert {href_in(r, q(DAV, "current-user-principal")) for r in twice} == {BASE + "principals/users/frank/"}


def test_icloud_names_its_calendar_home_on_another_host():
    [principal], _ = responses("icloud-home-on-another-host.xml")
    home = href_in(principal, q(CALDAV, "calendar-home-set"))
    assert home == "https://p62-caldav.icloud.com:443/17149682/calendars/"
    assert dav.origin(home) != dav.origin(BASE)  # so the password does not go there


def test_a_property_the_server_has_not_is_absent_not_empty():
    # iCloud answers an asked calendar-data it has not with a 404 propstat beside an empty 200 one
    [collection], _ = responses("icloud-calendar-data-not-found.xml")
    assert collection.status == 200 and q(CALDAV, "calendar-data") not in collection.props
    home, _ = responses("icloud-home-listing.xml")
    inbox = next(r for r in home if r.href.endswith("/inbox/"))
    assert inbox.text(q(DAV, "displayname")) is None  # 404 there: no name, not ""
    kinds = {r.href.rsplit("/", 2)[-2]: [c.tag for c in r.props[q(DAV, "resourcetype")]] for r in home}
    assert kinds["06888b87-397f-11eb-943b-3af9d3928d42"] == [q(DAV, "collection"), q(CALDAV, "calendar")]
    assert kinds["inbox"] == [q(DAV, "collection"), q(CALDAV, "schedule-inbox")]


def test_an_item_address_is_one_key_whether_its_at_sign_is_encoded_or_not():
    [collection, item], _ = responses("icloud-item-and-empty-collection.xml")
    assert item.href == BASE[:-1] + ICLOUD_ITEMS + "20010712T182145Z-123401@example.com.ics"
    assert dav.outside(collection.href, item.href) is None
    data = item.text(q(CALDAV, "calendar-data"))
    assert data is not None and data.startswith("BEGIN:VCALENDAR\nVERSION:2.0")  # LF alone, as sent


def test_a_sync_collection_answer_gives_each_etag_and_the_token_after_them():
    found, root = responses("icloud-sync-collection.xml")
    assert [r.text(q(DAV, "getetag")) for r in found] == ['"kkkgopik"', '"kkkgorwx"', '"kkkgoqqu"']
    assert (root.findtext(q(DAV, "sync-token")) or "").startswith("HwoQEgwAAAh4yw8ntwAAAAAY")


def test_zimbra_gives_the_status_before_the_properties():
    found, _ = responses("zimbra-home-listing.xml")
    names = {r.text(q(DAV, "displayname")): r.status for r in found}
    assert names == {
        "USER_ROOT": 200,
        "Inbox": 200,
        "Emailed Contacts": 200,
        "Calendarc5f1a47c-2d92-11e3-b654-0016eab36bf4.ics": 200,
        "Yep": 200,
    }


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "nextcloud-mixed-todos.xml",
            {
                "Pending 1": State.ACTIVE,
                "Pending 2": State.ACTIVE,
                "Completed 1": State.DONE,
                "Completed 2": State.DONE,
            },
        ),
        ("nextcloud-jtx-recurring-task.xml", {"Clean Rosie filter": State.ACTIVE}),
        ("icloud-item-and-empty-collection.xml", {"Bastille Day Party": State.DONE}),  # an event of 2006
        ("mdaemon-huge-attachment.xml.in", {"This a summary of a very bug event": State.DONE}),
    ],
)
def test_recorded_calendar_items_are_read(name, expected):
    found, _ = responses(name)
    collection = Collection(BASE + "c/", "Tasks", Kind.REMINDER, "VTODO")
    now = datetime(2025, 5, 23, tzinfo=UTC)
    read = {}
    for r in found:
        data = r.text(q(CALDAV, "calendar-data"))
        if data:
            item = items.read(collection, r.href, r.text(q(DAV, "getetag")), data.encode(), now)
            read[item.body.split("\n")[0]] = item.state
    assert read == expected


# -- whole exchanges, served ----------------------------------------------------------------------------


@pytest.fixture
def memory(embedded_memory):
    return embedded_memory


def test_a_zimbra_home_offers_its_calendar_and_its_address_book_only(hostile, kept):
    hostile.recorded[("PROPFIND", "/p/", "depth:1")] = recorded(
        "zimbra-home-listing.xml", {"/dav/tobias%40redpill-linpro.com/": "/p/"}
    )
    found = accounts.find(hostile.url, "ana", "secret")
    # caldav's test finds the one calendar; the address book is CardDAV's, which Neurons syncs too
    assert sorted((f.name, f.what) for f in found.collections) == [
        ("Emailed Contacts", "address book"),
        ("Yep", "calendar"),
    ]


def test_an_icloud_home_on_another_host_is_refused_in_one_line(hostile, kept, tmp_path, capsys, monkeypatch):
    hostile.recorded[("PROPFIND", "/p/", "depth:0")] = recorded(
        "icloud-home-on-another-host.xml", {"/17149682/principal/": "/p/"}
    )
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", "secret")
    argv = ["--data-dir", str(tmp_path / "d"), "sync", "add", hostile.url, "--user", "ana", "--all"]
    for choice in ("refuse", "follow-without-password"):  # not a redirect: no choice sends it there
        assert cli.main([*argv, "--redirects", choice]) == 2
        lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
        assert len(lines) == 1 and "p62-caldav.icloud.com" in lines[0] and "another server" in lines[0], lines
    assert not kept.items


def serve_recorded_items(hostile, name: str) -> list[str]:
    """The recorded items listed in the task list, and the recorded multiget answer given for them."""
    text = recorded(name).decode()
    paths = sorted({h for h in re.findall(r"<(?:d:)?href>([^<]+\.ics)</", text)})
    prefix = paths[0].rsplit("/", 1)[0] + "/"
    for path in paths:
        hostile.put(TASKS, path.rsplit("/", 1)[-1], path.encode())
    hostile.recorded[("REPORT", TASKS, "calendar-multiget")] = recorded(name, {prefix: TASKS})
    return paths


def test_a_jtx_board_series_with_done_and_cancelled_occurrences_keeps_them_through_an_edit(
    hostile, kept, memory, monkeypatch
):
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", "secret")
    assert neurons(memory, "sync", "add", hostile.url, "--user", "ana", "--all")["code"] == 0
    [path] = serve_recorded_items(hostile, "nextcloud-jtx-recurring-task.xml")
    out = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
    assert out["pulled"] == 1 and out["failures"] == 0, out
    [task] = of_kind(memory, Kind.REMINDER)
    assert task.attrs["rrule"] == "FREQ=WEEKLY;BYDAY=TU,FR" and len(task.attrs["overrides"]) == 6
    memory.edit(task.id, "Clean Rosie's filter")
    assert neurons(memory, "sync")["code"] == 0
    written = hostile.items[TASKS + path.rsplit("/", 1)[-1]].decode()
    [pushed] = [
        i for i in ical.read(written.encode(), datetime(2025, 5, 23, tzinfo=UTC)) if isinstance(i, ical.Item)
    ]
    # what jtx Board wrote of each occurrence: three done, three cancelled, none of them undone
    done = sorted(o["recurrence_id"][:10] for o in pushed.attrs["overrides"] if o.get("done_at"))
    cancelled = sorted(o["recurrence_id"][:10] for o in pushed.attrs["overrides"] if o["start"] is None)
    assert done == ["2025-04-15", "2025-04-25", "2025-05-02"], written
    assert cancelled == ["2025-04-18", "2025-04-22", "2025-04-29"]
    assert written.count("STATUS:COMPLETED") == 3 and "SUMMARY:Clean Rosie's filter" in written


@pytest.mark.parametrize(
    ("name", "titles"),
    [
        ("nextcloud-mixed-todos.xml", ["Completed 1", "Completed 2", "Pending 1", "Pending 2"]),
        ("mdaemon-huge-attachment.xml.in", ["This a summary of a very bug event"]),
    ],
)
def test_recorded_answers_sync_through_a_server(hostile, kept, memory, monkeypatch, name, titles):
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", "secret")
    assert neurons(memory, "sync", "add", hostile.url, "--user", "ana", "--all")["code"] == 0
    serve_recorded_items(hostile, name)
    out = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
    assert out["failures"] == 0, out
    assert sorted(n.title for n in of_kind(memory, Kind.REMINDER)) == titles
    assert json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]["pulled"] == 0
