"""Real clients beside Neurons on one server: todoman (tasks) and khard (contacts) write and read a
folder that vdirsyncer syncs with the server, as a phone would; Neurons syncs the same collections.

An edit in Neurons changes only what was edited, as the client reads it back: the version, the
PRODID, the numbers as written, TYPE=INTERNET and every property Neurons does not model stay; and
over rounds of edits on both sides nothing is lost or duplicated and the newer edit wins. Against
Radicale and Xandikos.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urljoin

import pytest

from core.model import Kind, State
from tests.core.dav_server import Phone
from tests.core.test_sync import memory, neurons, of_kind, sync  # noqa: F401 - a fixture, and helpers

BIN = Path(sys.executable).parent

# A card as DAVx5 writes one from an Android phone: 3.0, its PRODID, TYPE=INTERNET, the number as
# the person typed it, a labelled group, and properties Neurons does not model.
PHONE_CARD = (
    "BEGIN:VCARD\r\nVERSION:3.0\r\nPRODID:-//bitfire web engineering//DAVx5 4.3//EN\r\n"
    "UID:phone-rita\r\nFN:Rita Lopes\r\nN:Lopes;Rita;;;\r\n"
    "TEL;TYPE=CELL:912 345 678\r\nitem1.TEL:+44 20 7946 0958\r\nitem1.X-ABLabel:Office\r\n"
    "EMAIL;TYPE=INTERNET;TYPE=HOME:rita@example.com\r\nBDAY:1988-04-02\r\n"
    "X-PHONETIC-FIRST-NAME:Hita\r\nX-SIP:sip:rita@example.com\r\nIMPP:xmpp:rita@example.com\r\n"
    "NOTE:first note\r\nREV:20200101T000000Z\r\nEND:VCARD\r\n"
)


class Chain:
    """todoman and khard on a folder of their own, synced with the server by vdirsyncer."""

    def __init__(self, root: Path, phone: Phone, tasks_url: str, book_url: str, user: str, password: str):
        self.root, self.phone, self.tasks_url, self.book_url = root, phone, tasks_url, book_url
        self.tasks = root / "tasks" / "list"
        self.cards = root / "cards" / "book"
        self.tasks.mkdir(parents=True)
        self.cards.mkdir(parents=True)
        (root / "vdirsyncer").write_text(
            f'[general]\nstatus_path = "{root / "status"}/"\n'
            '[pair tasks]\na = "tasks_here"\nb = "tasks_there"\ncollections = null\n'
            f'[storage tasks_here]\ntype = "filesystem"\npath = "{self.tasks}/"\nfileext = ".ics"\n'
            f'[storage tasks_there]\ntype = "caldav"\nurl = "{tasks_url}"\n'
            f'username = "{user}"\npassword = "{password}"\n'
            '[pair cards]\na = "cards_here"\nb = "cards_there"\ncollections = null\n'
            f'[storage cards_here]\ntype = "filesystem"\npath = "{self.cards}/"\nfileext = ".vcf"\n'
            f'[storage cards_there]\ntype = "carddav"\nurl = "{book_url}"\n'
            f'username = "{user}"\npassword = "{password}"\n'
        )
        (root / "todoman.py").write_text(
            f'path = "{self.tasks.parent}/*"\ndate_format = "%Y-%m-%d"\ntime_format = "%H:%M"\n'
            f'default_list = "list"\ncache_path = "{root / "todoman.sqlite3"}"\n'
        )
        (root / "edit.sh").write_text('#!/bin/sh\nsed -i -e "s/^Note *:.*/Note : $KHARD_NOTE/" "$1"\n')
        (root / "edit.sh").chmod(0o755)
        (root / "khard.conf").write_text(
            f"[addressbooks]\n[[book]]\npath = {self.cards}\n[general]\n"
            f"editor = {root / 'edit.sh'}\nmerge_editor = /bin/true\n[vcard]\npreferred_version = 4.0\n"
        )
        self.run("vdirsyncer", "-c", str(root / "vdirsyncer"), "discover")

    def run(self, program: str, *argv: str, stdin: str = "", **env: str) -> str:
        done = subprocess.run(
            [str(BIN / program), *argv],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=60,
            env={"HOME": str(self.root), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **env},
        )
        assert done.returncode == 0, (program, argv, done.stdout, done.stderr)
        return done.stdout

    def vdirsyncer(self) -> None:
        self.run("vdirsyncer", "-c", str(self.root / "vdirsyncer"), "sync")

    def todo(self, *argv: str, stdin: str = "") -> str:
        return self.run("todo", "--config", str(self.root / "todoman.py"), *argv, stdin=stdin)

    def khard(self, *argv: str, note: str = "") -> str:
        return self.run("khard", "-c", str(self.root / "khard.conf"), *argv, KHARD_NOTE=note)

    def todos(self) -> dict[str, dict]:
        """What todoman reads: each task by its summary (todoman's id and list left out)."""
        listed = json.loads(self.todo("--porcelain", "list", "--status", "ANY"))
        return {t["summary"]: {k: v for k, v in t.items() if k not in ("id", "list")} for t in listed}

    def contact(self, name: str) -> dict[str, str]:
        """What khard shows of a contact, field by field (its YAML, comments and blanks left out)."""
        shown = self.khard("show", "--format", "yaml", name)
        return dict(re.findall(r"(?m)^(\S[^:\n]*):[ \t]*(.*)$", shown)) | {"all": shown}

    def lines(self, folder: Path, uid: str) -> set[str]:
        """The unfolded lines of the item with this UID in the clients' folder."""
        return self._lines([path.read_text() for path in folder.iterdir()], uid, folder)

    def served(self, collection: str, uid: str) -> set[str]:
        """The unfolded lines of the item with this UID as the server serves it (Radicale serves
        what it was given in a form of its own: the one a client is then sent)."""
        listing = self.phone.client.request(collection, "PROPFIND", None, {"Depth": "1"}).raw
        hrefs = re.findall(r"<(?:\w+:)?href>([^<]+\.(?:ics|vcf))</", listing)
        texts = [
            self.phone.client.request(urljoin(collection, h), "GET", headers={"Accept": accept}).raw
            for h in hrefs
            for accept in ["text/vcard" if h.endswith(".vcf") else "text/calendar"]
        ]
        return self._lines(texts, uid, collection)

    @staticmethod
    def _lines(texts: list[str], uid: str, where: object) -> set[str]:
        for text in texts:
            if f"UID:{uid}" in text:
                return set(re.sub(r"\r?\n[ \t]", "", text.replace("\r\n", "\n")).splitlines())
        raise AssertionError(f"no item {uid} in {where}")


@pytest.fixture(params=["radicale", "xandikos"])
def chain(request, kept, memory, monkeypatch, tmp_path):  # noqa: F811 - the fixture imported above
    """A server with a task list and an address book, added to Neurons, and the clients' chain."""
    server = request.getfixturevalue(request.param)
    user, password = server.new_user()
    phone = Phone(server.url, user, password)
    tasks = str(phone.task_list().url)
    book = phone.address_book()
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    assert neurons(memory, "sync", "add", server.url, "--user", user, "--all")["code"] == 0
    monkeypatch.delenv("NEURONS_SYNC_PASSWORD")
    monkeypatch.setenv("NEURONS_PHONE_REGION", "PT")  # "912 345 678" could go out as +351912345678
    return Chain(tmp_path / "clients", phone, tasks, book, user, password)


def only(memory, kind: Kind, title: str):  # noqa: F811 - the fixture imported above
    [found] = [n for n in of_kind(memory, kind) if n.title == title]
    return found


CLOCKS = {"DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "REV"}


def changed(before: set[str], after: set[str]) -> set[str]:
    """The properties whose lines differ, less those that say when the item was written."""
    names = {re.split(r"[;:]", line, maxsplit=1)[0].split(".")[-1] for line in before ^ after}
    return names - CLOCKS


def test_a_title_edit_here_reaches_todoman_as_a_new_title_only(chain, memory):  # noqa: F811 - the fixture imported above
    chain.todo(
        "new", "-l", "list", "-r", "--due", "2031-03-10 15:00", "--priority", "high", "-c", "health",
        "--location", "Rua A", "Call the dentist", stdin="bring the insurance card",
    )  # fmt: skip
    chain.vdirsyncer()
    assert sync(memory)["pulled"] == 1
    before = chain.todos()["Call the dentist"]
    [uid] = [
        line[4:]
        for line in next(iter(chain.tasks.iterdir())).read_text().splitlines()
        if line.startswith("UID:")
    ]
    lines = chain.served(chain.tasks_url, uid)

    task = only(memory, Kind.REMINDER, "Call the dentist")
    assert neurons(memory, "edit", str(task.id), "--title", "Call the orthodontist")["code"] == 0
    assert memory.get(task.id).body == "Call the orthodontist\n\nbring the insurance card"
    assert sync(memory)["pushed"] == 1
    chain.vdirsyncer()

    after = chain.todos()
    assert list(after) == ["Call the orthodontist"]
    assert {k for k in before if before[k] != after["Call the orthodontist"][k]} == {"summary"}
    now = chain.lines(chain.tasks, uid)
    assert changed(lines, now) == {"SUMMARY"}  # the description as todoman wrote it, its PRODID
    assert "PRODID:nl.whynothugo.todoman" in now


def test_a_note_edit_here_reaches_khard_as_a_new_note_only(chain, memory):  # noqa: F811 - the fixture imported above
    (chain.root / "ana.yaml").write_text(
        "Formatted name : Ana Silva\nFirst name : Ana\nLast name : Silva\nBirthday : 1990-06-12\n"
        "Phone :\n    cell : 912 000 111\n    work : +44 20 7946 0000\nEmail :\n    home : ana@example.com\n"
        "Note : first note\n"
    )
    chain.khard("new", "-a", "book", "-i", str(chain.root / "ana.yaml"), "--vcard-version", "4.0")
    (chain.cards / "phone-rita.vcf").write_text(PHONE_CARD)  # from a phone, as DAVx5 saves it
    chain.vdirsyncer()
    assert sync(memory)["pulled"] == 2
    before = {name: chain.contact(name) for name in ("Ana Silva", "Rita Lopes")}
    [ana_uid] = [
        line[4:]
        for path in chain.cards.iterdir()
        if "Ana" in path.read_text()
        for line in path.read_text().splitlines()
        if line.startswith("UID:")
    ]
    lines = {
        "Ana Silva": chain.served(chain.book_url, ana_uid),
        "Rita Lopes": chain.served(chain.book_url, "phone-rita"),
    }

    for name in ("Ana Silva", "Rita Lopes"):
        contact = only(memory, Kind.CONTACT, name)
        edit = neurons(memory, "edit", str(contact.id), "--attrs", json.dumps({"note": "edited here"}))
        assert edit["code"] == 0, edit
    assert sync(memory)["pushed"] == 2
    chain.vdirsyncer()

    for name, uid in (("Ana Silva", ana_uid), ("Rita Lopes", "phone-rita")):
        after = chain.contact(name)
        assert after["Note"] == "edited here"
        assert {k for k in before[name] if k != "all" and before[name][k] != after.get(k)} == {"Note"}
        now = chain.lines(chain.cards, uid)
        assert changed(lines[name], now) == {"NOTE"}, lines[name] ^ now
    rita = chain.lines(chain.cards, "phone-rita")
    assert {
        "VERSION:3.0",
        "PRODID:-//bitfire web engineering//DAVx5 4.3//EN",
        "TEL;TYPE=CELL:912 345 678",
        "X-SIP:sip:rita@example.com",
    } <= rita
    assert [line for line in rita if line.startswith("EMAIL") and "INTERNET" in line]
    assert "VERSION:4.0" in chain.lines(chain.cards, ana_uid)


@pytest.mark.slow  # some forty runs of the clients, a second or so each
def test_rounds_of_edits_on_both_sides_converge_with_the_newer_edit_winning(chain, memory):  # noqa: F811 - the fixture imported above
    """todoman and khard on one side, Neurons on the other, vdirsyncer between the clients' folder
    and the server: what each side makes reaches the other once, done and deletes cross, each
    conflict keeps the newer edit (the older archived beside it in Neurons), and the phone's own
    properties survive every round."""
    # round 1: the clients make a task and a contact; Neurons makes one of each
    chain.todo("new", "-l", "list", "--due", "2031-03-10 15:00", "Renew the passport")
    (chain.cards / "phone-rita.vcf").write_text(PHONE_CARD)
    memory.capture("Buy stamps", kind="reminder", attrs={"due_at": "2031-03-11T09:00:00+00:00"}, derive=False)
    memory.capture("Bo Chen", kind="contact", attrs={"name": "Bo Chen", "emails": ["bo@example.com"]})
    chain.vdirsyncer()
    first = sync(memory)
    assert (first["pulled"], first["pushed"], first["errors"]) == (2, 2, [])
    chain.vdirsyncer()
    assert set(chain.todos()) == {"Renew the passport", "Buy stamps"}
    assert "Bo Chen" in chain.khard("list")

    # round 2: each side edits something of the other's; done in todoman; nothing conflicts
    passport = only(memory, Kind.REMINDER, "Renew the passport")
    memory.edit(passport.id, attrs={"title": "Renew the passport and ID"}, merge=True)
    stamps_id = next(t for t in json.loads(chain.todo("--porcelain", "list")) if t["summary"] == "Buy stamps")
    chain.todo("done", str(stamps_id["id"]))
    chain.khard("edit", "-a", "book", "Bo Chen", note="met at the fair")
    chain.vdirsyncer()
    second = sync(memory)
    assert (second["pulled"], second["pushed"], second["conflicts"]) == (2, 1, 0), second
    chain.vdirsyncer()
    assert only(memory, Kind.REMINDER, "Buy stamps").state is State.DONE
    assert only(memory, Kind.CONTACT, "Bo Chen").attrs["note"] == "met at the fair"
    assert set(chain.todos()) == {"Renew the passport and ID", "Buy stamps"}

    # round 3: the same task edited on both sides, todoman seconds later: todoman's edit wins
    passport = only(memory, Kind.REMINDER, "Renew the passport and ID")
    memory.edit(passport.id, "Renew the passport and ID\n\nthe older edit, here")
    time.sleep(1.1)  # the items' clocks count seconds
    number = next(
        t["id"] for t in json.loads(chain.todo("--porcelain", "list")) if "passport" in t["summary"]
    )
    chain.todo("edit", str(number), "-r", stdin="the newer edit, in todoman")
    chain.vdirsyncer()
    third = sync(memory)
    assert third["conflicts"] == 1, third
    chain.vdirsyncer()
    assert memory.get(passport.id).body == "Renew the passport and ID\n\nthe newer edit, in todoman"
    assert chain.todos()["Renew the passport and ID"]["description"].strip() == "the newer edit, in todoman"

    # round 4: the same contact edited on both sides, Neurons seconds later: Neurons' edit wins
    chain.khard("edit", "-a", "book", "Rita Lopes", note="the older edit, in khard")
    time.sleep(1.1)
    rita = only(memory, Kind.CONTACT, "Rita Lopes")
    memory.update_attrs(rita.id, note="the newer edit, here")
    chain.vdirsyncer()
    fourth = sync(memory)
    assert (fourth["conflicts"], fourth["pushed"]) == (1, 1), fourth
    chain.vdirsyncer()
    assert chain.contact("Rita Lopes")["Note"] == "the newer edit, here"

    # round 5: deletes both ways
    memory.trash(only(memory, Kind.CONTACT, "Bo Chen").id)
    gone = next(
        t["id"]
        for t in json.loads(chain.todo("--porcelain", "list", "--status", "ANY"))
        if t["summary"] == "Buy stamps"
    )
    chain.todo("delete", "--yes", str(gone))
    chain.vdirsyncer()
    fifth = sync(memory)
    assert (fifth["deleted"], fifth["errors"]) == (2, []), fifth
    chain.vdirsyncer()

    # converged: one of each on both sides, and another round moves nothing
    assert set(chain.todos()) == {"Renew the passport and ID"}
    assert [line for line in chain.khard("list").splitlines() if "Lopes" in line or "Chen" in line] == [
        line for line in chain.khard("list").splitlines() if "Rita Lopes" in line
    ]
    assert len(list(chain.cards.iterdir())) == 1 and len(list(chain.tasks.iterdir())) == 1
    active = {
        n.title
        for k in (Kind.REMINDER, Kind.CONTACT)
        for n in of_kind(memory, k, (State.ACTIVE,))
        if not n.attrs.get("birthday_of")  # Rita's birthday, which Neurons reminds of
    }
    assert active == {"Renew the passport and ID", "Rita Lopes"}
    again = sync(memory)
    assert (again["pulled"], again["pushed"], again["deleted"], again["conflicts"]) == (0, 0, 0, 0)
    rita_lines = chain.lines(chain.cards, "phone-rita")
    assert {
        "X-SIP:sip:rita@example.com",
        "IMPP:xmpp:rita@example.com",
        "X-PHONETIC-FIRST-NAME:Hita",
    } <= rita_lines
    assert "PRODID:-//bitfire web engineering//DAVx5 4.3//EN" in rita_lines
