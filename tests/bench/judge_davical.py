"""The sync judged against DAViCal (Debian's `davical`: PHP on PostgreSQL, written apart from
Radicale and Xandikos): test_sync.py's two-way cases and test_sync_clients.py's chain of clients
again, with DAViCal as the server, and what only DAViCal does.

Never collected by CI's suite (its name is no test_*.py, and CI has no DAViCal); what it found
became fixes whose tests run in CI against Radicale, Xandikos or the hostile server. Rerun:

    apt-get install -y --no-install-recommends davical php-cgi     # once, as root
    python -m tests.bench.judge_davical setup --dir /tmp/davical --os-user pgjudge
    #   a PostgreSQL 15 cluster of its own in DIR (as that OS user), DAViCal's database made by
    #   its own create-database.sh, /etc/davical/127.0.0.1-conf.php naming it, and DAViCal's
    #   caldav.php served unchanged by `php -S` (well-known URLs rewritten as Debian's Apache
    #   site does); prints the two variables below
    NEURONS_DAVICAL=http://127.0.0.1:58080/ NEURONS_DAVICAL_DB='host=... dbname=davical ...' \\
        python -m tests.bench.judge_davical run [-k NAME]     # pytest on this file
    python -m tests.bench.judge_davical stop --dir /tmp/davical
"""

# ruff: noqa: F811 - the cases take the fixtures imported below

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from core.model import Kind, State
from tests.core.dav_server import Phone, kept  # noqa: F401 - a fixture of the imported cases
from tests.core.test_sync import (  # noqa: F401 - fixtures, and the cases collected here against DAViCal
    account,
    memory,
    neurons,
    of_kind,
    sync,
    test_a_conflicting_edit_keeps_both_texts,
    test_a_phones_rule_without_end_or_that_never_occurs_costs_bounded_work,
    test_a_recurring_series_with_exceptions_and_its_zone,
    test_a_reminder_captured_here_appears_as_a_vtodo_with_its_due_time,
    test_contacts_go_out_in_the_version_the_server_prefers_and_a_first_sync_merges_by_email,
    test_deletes_both_ways,
    test_done_here_on_a_weekly_task_from_the_phone_moves_it_on_the_phone,
    test_done_on_either_side_is_done_on_both,
    test_notes_stay_here_unless_a_calendar_is_picked_for_them,
    test_snooze_here_goes_out_as_a_later_due,
    test_status_and_remove,
    test_the_newer_edit_here_wins_and_goes_to_the_server,
    test_time_zones_both_ways,
    test_two_machines_editing_seconds_apart_keep_the_newer_edit_on_both,
    test_what_the_phone_makes_appears_and_a_second_sync_moves_nothing,
    test_without_a_keyring_sync_goes_through_the_running_app,
    todo,
)
from tests.core.test_sync_clients import (  # noqa: F401 - the chain of clients' cases, here on DAViCal
    Chain,
    test_a_note_edit_here_reaches_khard_as_a_new_note_only,
    test_a_title_edit_here_reaches_todoman_as_a_new_title_only,
    test_rounds_of_edits_on_both_sides_converge_with_the_newer_edit_winning,
)

PG = Path("/usr/lib/postgresql/15/bin")
DBA = Path("/usr/share/davical/dba")
HTDOCS = Path("/usr/share/davical/htdocs")
# DAViCal reads /etc/davical/<SERVER_NAME>-conf.php before config.php: `php -S 127.0.0.1:PORT`'s
CONF = Path("/etc/davical/127.0.0.1-conf.php")
PG_PORT, HTTP_PORT = 55432, 58080
ROUTER = """<?php
// As Debian's Apache site for DAViCal rewrites them: /.well-known/* to caldav.php.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (preg_match('{^/\\.well-known/}', $path)) {
  $_SERVER['PATH_INFO'] = $path;
  $_SERVER['SCRIPT_NAME'] = '/caldav.php';
  chdir('/usr/share/davical/htdocs');
  require '/usr/share/davical/htdocs/caldav.php';
  return true;
}
return false;
"""


class DAViCal:
    """A running DAViCal, as the cases' `radicale`: its root URL (what a person types), a user
    made per test in DAViCal's own tables (as its admin page makes one: a usr row and a principal)."""

    def __init__(self, url: str, db: str):
        self.url, self.db = url, db
        self.passwords: dict[str, str] = {}

    def new_user(self, *, home: bool = False) -> tuple[str, str]:
        """A user; `home`: with the calendar and address book DAViCal's admin page makes beside
        one (its CreateHomeCollections: "calendar" for any component, "addresses")."""

        name, password = f"u{uuid.uuid4().hex[:10]}", uuid.uuid4().hex
        with psycopg.connect(self.db, autocommit=True) as conn:
            conn.execute(
                "WITH u AS (INSERT INTO usr (active, username, password, fullname, email) "
                "VALUES (true, %s, %s, %s, %s) RETURNING user_no) "
                "INSERT INTO principal (type_id, user_no, displayname) SELECT 1, user_no, %s FROM u",
                (name, f"**{password}", name, f"{name}@example.net", name),
            )
            for folder, kind in [("calendar", "calendar"), ("addresses", "addressbook")] if home else []:
                ns = "caldav:calendar" if kind == "calendar" else "carddav:addressbook"
                conn.execute(
                    "INSERT INTO collection (user_no, parent_container, dav_name, dav_etag, dav_displayname,"
                    " is_calendar, is_addressbook, created, modified, resourcetypes)"
                    " SELECT user_no, %s, %s, '-1', %s, %s, %s, now(), now(), %s FROM usr"
                    " WHERE username = %s",
                    (f"/{name}/", f"/{name}/{folder}/", f"{name} {kind}", kind == "calendar",
                     kind == "addressbook", f"<DAV::collection/><urn:ietf:params:xml:ns:{ns}/>", name),
                )  # fmt: skip
        self.passwords[name] = password
        return name, password

    def password_of(self, user: str) -> str:
        return self.passwords[user]


@pytest.fixture
def radicale():
    """The server the imported cases call `radicale`: here, the DAViCal NEURONS_DAVICAL names."""
    url, db = os.environ.get("NEURONS_DAVICAL"), os.environ.get("NEURONS_DAVICAL_DB")
    if not url or not db:
        pytest.fail("NEURONS_DAVICAL and NEURONS_DAVICAL_DB name the running DAViCal (see this file's help)")
    return DAViCal(url, db)


@pytest.fixture
def chain(radicale, kept, memory, monkeypatch, tmp_path):
    """test_sync_clients.py's chain (vdirsyncer, todoman, khard) on DAViCal."""
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    tasks = str(phone.task_list().url)
    book = phone.address_book()
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    assert neurons(memory, "sync", "add", radicale.url, "--user", user, "--all")["code"] == 0
    monkeypatch.delenv("NEURONS_SYNC_PASSWORD")
    monkeypatch.setenv("NEURONS_PHONE_REGION", "PT")
    return Chain(tmp_path / "clients", phone, tasks, book, user, password)


# -- what only DAViCal does -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed", ["{root}", "{root}caldav.php/", "{root}caldav.php/{user}/", "{root}caldav.php/{user}"]
)
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_davical_is_found_from_each_address_typed(radicale, kept, memory, monkeypatch, typed, host):
    """Its well-known redirect names the server as configured (127.0.0.1), not as typed."""
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    phone.task_list()
    phone.address_book()
    root = radicale.url.replace("127.0.0.1", host)
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    out = neurons(memory, "sync", "add", typed.format(root=root, user=user), "--user", user, "--all")
    assert out["code"] == 0, out
    found = [c.href for c in memory.sync_accounts()[0].collections]
    assert found == [f"{root}caldav.php/{user}/tasks/", f"{root}caldav.php/{user}/contacts/"]


def test_davical_a_user_its_admin_page_made_syncs_with_its_home_calendar_and_book(
    radicale, kept, memory, monkeypatch
):
    user, password = radicale.new_user(home=True)
    phone = Phone(radicale.url, user, password)
    home = phone.calendar("calendar")
    home.save_todo(todo("phone-task", "A task from the phone", "DUE:20310310T150000Z\r\n"))
    home.save_event(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VEVENT\r\nUID:phone-event\r\n"
        "DTSTAMP:20300101T000000Z\r\nDTSTART:20310311T090000Z\r\nSUMMARY:An event from the phone\r\n"
        "END:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    memory.capture(
        "A task from here", kind="reminder", attrs={"due_at": "2031-03-12T09:00:00+00:00"}, derive=False
    )
    memory.capture("Rui Costa", kind="contact", attrs={"name": "Rui Costa", "phones": ["+351912000111"]})
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    assert neurons(memory, "sync", "add", radicale.url, "--user", user, "--all")["code"] == 0
    assert [c.name for c in memory.sync_accounts()[0].collections] == [
        f"{user} calendar",
        f"{user} addressbook",
    ]
    out = sync(memory)
    assert (out["pulled"], out["pushed"], out["errors"]) == (2, 2, []), out
    summaries = sorted(str(t.icalendar_component["SUMMARY"]) for t in home.todos())
    assert summaries == ["A task from here", "A task from the phone"]
    assert [
        v for v in phone.cards(f"{radicale.url}caldav.php/{user}/addresses/").values() if "Rui Costa" in v
    ]
    out = sync(memory)
    assert (out["pulled"], out["pushed"], out["conflicts"]) == (0, 0, 0)


def test_davical_a_card_it_rewrites_moves_nothing_after_an_edit_here(account, memory):
    """DAViCal rewrites a card it is given (names and groups in capitals, REV added, its own
    folding) and so gives no ETag for it: an edit here goes out once, then nothing moves."""
    note = "Olá, é a Conceição: ligar às três sobre a reunião de condomínio, 日本語のテキストも少し"
    account.put_card(
        account.book,
        "joao.vcf",
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:joao\r\nFN:João Conceição\r\nN:Conceição;João;;;\r\n"
        "item1.EMAIL;type=INTERNET:joao@example.com\r\nitem1.X-ABLabel:trabalho\r\n"
        f"NOTE:{note}\r\nEND:VCARD\r\n",
    )
    assert sync(memory)["pulled"] == 1
    [joao] = of_kind(memory, Kind.CONTACT)
    assert joao.attrs["note"] == note and joao.attrs["email_labels"] == {"joao@example.com": "trabalho"}
    memory.update_attrs(joao.id, note=note + " (edited)")
    out = sync(memory)
    assert (out["pulled"], out["pushed"], out["errors"]) == (0, 1, [])
    for _ in range(2):
        out = sync(memory)
        assert (out["pulled"], out["pushed"], out["conflicts"], out["errors"]) == (0, 0, 0, [])
    [vcf] = account.cards(account.book).values()
    assert "(edited)" in vcf.replace("\r\n ", "").replace("\n ", "") and "trabalho" in vcf


def test_davical_a_token_it_forgot_after_a_week_loses_no_delete(account, memory, radicale):
    """DAViCal drops a token a week after the collection next changes, then answers it with
    every item it holds (no delete said): a sync after a week away lists the whole collection."""
    account.tasks.save_todo(todo("kept", "A kept task", "DUE:20310310T150000Z\r\n"))
    account.tasks.save_todo(todo("gone", "A task deleted meanwhile", "DUE:20310310T150000Z\r\n"))
    sync(memory)
    account.delete(f"{account.tasks.url}gone.ics")
    path = urlsplit(str(account.tasks.url)).path.removeprefix("/caldav.php")
    with psycopg.connect(radicale.db, autocommit=True) as conn:  # as its clean-up a week on does
        conn.execute(
            "DELETE FROM sync_tokens WHERE collection_id = (SELECT collection_id FROM collection "
            "WHERE dav_name = %s)",
            (path,),
        )
    [synced] = memory.sync_accounts()
    memory.sync_tried(synced.id, synced.synced_at - timedelta(days=8), None)
    out = sync(memory)
    assert (out["deleted"], out["errors"]) == (1, [])
    assert {n.title: n.state for n in of_kind(memory, Kind.REMINDER)} == {
        "A kept task": State.ACTIVE,
        "A task deleted meanwhile": State.TRASHED,
    }


# -- setting it up ---------------------------------------------------------------------------------


def _as(user: str | None, argv: list[str], **kw) -> subprocess.CompletedProcess:
    if user:
        argv = ["su", user, "-s", "/bin/sh", "-c", " ".join(f"'{a}'" for a in argv)]
    return subprocess.run(argv, check=True, **kw)


def setup(folder: Path, os_user: str | None) -> None:
    if not (HTDOCS / "caldav.php").exists():
        sys.exit("DAViCal is not installed: apt-get install -y --no-install-recommends davical php-cgi")
    folder.mkdir(parents=True, exist_ok=True)
    if os_user:
        shutil.chown(folder, os_user)
    data, owner = folder / "pg", os_user or os.environ.get("USER", "postgres")
    if not data.exists():
        _as(os_user, [str(PG / "initdb"), "-D", str(data), "-U", owner, "--auth=trust", "-E", "UTF8"])
    opts = f"-p {PG_PORT} -k {folder} -c listen_addresses="
    _as(
        os_user,
        [str(PG / "pg_ctl"), "-D", str(data), "-l", str(folder / "pg.log"), "-o", opts, "-w", "start"],
    )
    env = {**os.environ, "PGHOST": str(folder), "PGPORT": str(PG_PORT), "PGUSER": owner}
    made = subprocess.run(
        [str(PG / "psql"), "-qXAt", "-l"], env=env, capture_output=True, text=True, check=True
    )
    if "davical|" not in made.stdout:
        script = (
            f"cd {folder} && PGHOST={folder} PGPORT={PG_PORT} PGUSER={owner} "
            f"DBAOPTS='--dbhost {folder} --dbport {PG_PORT}' sh {DBA}/create-database.sh davical "
            f"{uuid.uuid4().hex}"
        )
        argv = ["su", os_user, "-s", "/bin/sh", "-c", script] if os_user else ["sh", "-c", script]
        subprocess.run(argv, check=True, stdout=open(folder / "create.log", "w"), stderr=subprocess.STDOUT)
    CONF.write_text(
        "<?php\n// The Neurons sync judge's DAViCal (tests/bench/judge_davical.py).\n"
        "$c->pg_connect[] = getenv('NEURONS_DAVICAL_PG');\n$c->admin_email = 'admin@example.net';\n"
    )
    (folder / "router.php").write_text(ROUTER)
    app = f"host={folder} port={PG_PORT} dbname=davical user=davical_app"
    server = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{HTTP_PORT}", "-t", str(HTDOCS), str(folder / "router.php")],
        env={**os.environ, "NEURONS_DAVICAL_PG": app, "PHP_CLI_SERVER_WORKERS": "4"},
        cwd=HTDOCS,
        stdout=open(folder / "php.log", "ab"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        user=os_user,
    )
    (folder / "php.pid").write_text(str(server.pid))
    time.sleep(1)
    print(f"NEURONS_DAVICAL=http://127.0.0.1:{HTTP_PORT}/")
    print(f"NEURONS_DAVICAL_DB='host={folder} port={PG_PORT} dbname=davical user={owner}'")


def stop(folder: Path, os_user: str | None) -> None:
    pid = folder / "php.pid"
    if pid.exists():
        subprocess.run(["kill", "--", f"-{pid.read_text().strip()}"], check=False)
        pid.unlink()
    _as(os_user, [str(PG / "pg_ctl"), "-D", str(folder / "pg"), "-m", "fast", "stop"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("setup", "run", "stop"))
    parser.add_argument("--dir", type=Path, default=Path("/tmp/neurons-davical"))
    parser.add_argument("--os-user", help="the OS user that runs PostgreSQL and PHP (needed as root)")
    args, rest = parser.parse_known_args()
    if args.what == "setup":
        setup(args.dir, args.os_user)
    elif args.what == "stop":
        stop(args.dir, args.os_user)
    else:
        sys.exit(pytest.main(["-p", "no:cacheprovider", "-n", "0", __file__, *rest]))


if __name__ == "__main__":
    main()
