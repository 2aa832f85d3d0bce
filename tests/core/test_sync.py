"""Two-way sync against a real Radicale, with the caldav client playing the phone.

Every case of the issue: what the phone makes appears after `neurons sync`; what Neurons captures
appears on the phone with the right due time; done on either side is done on both; a conflicting
edit keeps both texts; a second sync moves nothing; deletes both ways; a recurring series with
exceptions; time zones. Commands run as the app runs them (prepare on the person's side, then
the parsed command line on a Memory), with an in-memory keyring: none exists headless here.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import dateutil.rrule
import icalendar
import keyring
import pytest
import recurring_ical_events
from keyring.backends import fail

from core import commands, remind
from core.memory import Memory
from core.model import Identity, Kind, Relation, State
from tests.core.dav_server import Phone

FUTURE = datetime(2031, 3, 10, 15, 0, tzinfo=UTC)


@pytest.fixture
def memory(embedded_memory):
    """The embedded engine: the server engine's SQL (and its row-level security) has a round trip
    of its own below."""
    return embedded_memory


def neurons(memory, *argv: str) -> dict:
    """Run a `neurons` command line as the CLI does through the app: prepare here, then the
    forwarded command line on the memory. {"code", "stdout", "stderr"}."""
    cmd, args = commands.parse(list(argv))
    cmd.prepare(args)
    if cmd.forwardable(args):
        return commands.execute(memory, commands.forwarded_argv(args))
    answer = cmd.run(memory, args)
    return {"code": answer.code, "stdout": answer.stdout(args.json), "stderr": answer.note}


@pytest.fixture
def account(radicale, kept, memory, monkeypatch):
    """A user on the server with a task list and an address book on the phone, added to Neurons."""
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    phone.tasks = phone.task_list()
    phone.book = phone.address_book()
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    out = neurons(memory, "sync", "add", radicale.url, "--user", user, "--all")
    monkeypatch.delenv("NEURONS_SYNC_PASSWORD")
    assert out["code"] == 0, out
    return phone


def sync(memory) -> dict:
    out = neurons(memory, "sync", "--json")
    assert out["code"] == 0, out
    return json.loads(out["stdout"])["accounts"][0] | {"said": out["stderr"]}


def todo(uid: str, summary: str, extra: str = "") -> str:
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\n"
        f"UID:{uid}\r\nDTSTAMP:20300101T000000Z\r\nSUMMARY:{summary}\r\n{extra}END:VTODO\r\nEND:VCALENDAR\r\n"
    )


def card(uid: str, name: str, extra: str = "") -> str:
    return f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:{uid}\r\nFN:{name}\r\nN:{name};;;;\r\n{extra}END:VCARD\r\n"


def of_kind(memory, kind: Kind, states=(State.ACTIVE, State.DONE, State.ARCHIVED, State.TRASHED)):
    return memory.list(kind, list(states), limit=1000)


def test_what_the_phone_makes_appears_and_a_second_sync_moves_nothing(account, memory):
    due = "DUE:20310310T150000Z\r\n"
    account.tasks.save_todo(todo("phone-task-1", "Call the dentist", due))
    account.put_card(
        account.book, "ana.vcf", card("phone-card-1", "Ana Silva", "TEL;TYPE=CELL:+351912345678\r\n")
    )

    first = sync(memory)
    assert (first["pulled"], first["pushed"], first["conflicts"], first["errors"]) == (2, 0, 0, [])
    [task] = of_kind(memory, Kind.REMINDER)
    assert task.title == "Call the dentist"
    assert datetime.fromisoformat(task.attrs["due_at"]) == FUTURE
    [ana] = of_kind(memory, Kind.CONTACT)
    assert ana.attrs["name"] == "Ana Silva" and ana.attrs["phones"] == ["+351912345678"]

    again = sync(memory)
    assert (again["pulled"], again["pushed"], again["deleted"], again["conflicts"]) == (0, 0, 0, 0)


def test_a_reminder_captured_here_appears_as_a_vtodo_with_its_due_time(account, memory):
    memory.capture("Buy stamps", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
    memory.capture("Rita Lopes", kind="contact", attrs={"name": "Rita Lopes", "emails": ["rita@example.com"]})
    memory.capture("a private thought", kind="note")
    out = sync(memory)
    assert out["pushed"] == 2  # the note stays here: no calendar was picked for notes
    [vtodo] = account.tasks.todos(include_completed=True)
    component = vtodo.icalendar_component
    assert str(component["SUMMARY"]) == "Buy stamps"
    assert component["DUE"].dt == FUTURE
    [vcf] = account.cards(account.book).values()
    assert "FN:Rita Lopes" in vcf and "rita@example.com" in vcf
    assert sync(memory)["pushed"] == 0


def test_done_on_either_side_is_done_on_both(account, memory):
    here = memory.capture(
        "Water the plants", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False
    )
    account.tasks.save_todo(todo("phone-task-2", "Pay the rent", "DUE:20310310T150000Z\r\n"))
    sync(memory)
    memory.done(here.id)
    [phone_made] = [n for n in of_kind(memory, Kind.REMINDER) if n.title == "Pay the rent"]
    for item in account.tasks.todos():
        if str(item.icalendar_component["SUMMARY"]) == "Pay the rent":
            item.complete()
    out = sync(memory)
    assert (out["pulled"], out["pushed"], out["conflicts"]) == (1, 1, 0)
    assert memory.get(phone_made.id).state is State.DONE
    statuses = {
        str(t.icalendar_component["SUMMARY"]): str(t.icalendar_component.get("STATUS"))
        for t in account.tasks.todos(include_completed=True)
    }
    assert statuses == {"Water the plants": "COMPLETED", "Pay the rent": "COMPLETED"}


def test_a_conflicting_edit_keeps_both_texts(account, memory):
    memory.capture("Book the flights", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
    sync(memory)
    [item] = of_kind(memory, Kind.REMINDER)
    memory.edit(item.id, "Book the flights to Lisbon")  # here, first
    [vtodo] = account.tasks.todos()
    vtodo.icalendar_component["SUMMARY"] = "Book the flights to Porto"  # on the phone, later
    vtodo.icalendar_component["LAST-MODIFIED"] = icalendar.vDDDTypes(datetime.now(UTC) + timedelta(minutes=5))
    vtodo.save()
    out = sync(memory)
    assert out["conflicts"] == 1 and "changed both here and on the server" in out["said"]
    kept = memory.get(item.id)
    assert kept.title == "Book the flights to Porto"  # the newer one is the item
    others = [n for e, n in memory.neighbours(item.id) if e.relation is Relation.SUPERSEDES]
    assert [n.body for n in others] == ["Book the flights to Lisbon"] and others[0].state is State.ARCHIVED
    assert any("Lisbon" in r.neuron.body for r in memory.ask("flights to Lisbon"))  # findable
    again = sync(memory)
    assert (again["pulled"], again["pushed"], again["conflicts"]) == (0, 0, 0)
    assert [str(t.icalendar_component["SUMMARY"]) for t in account.tasks.todos()] == [
        "Book the flights to Porto"
    ]


def test_the_newer_edit_here_wins_and_goes_to_the_server(account, memory):
    memory.capture("Renew the passport", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
    sync(memory)
    [item] = of_kind(memory, Kind.REMINDER)
    [vtodo] = account.tasks.todos()
    vtodo.icalendar_component["SUMMARY"] = "Renew the passport (old photo)"
    vtodo.icalendar_component["LAST-MODIFIED"] = icalendar.vDDDTypes(datetime(2020, 1, 1, tzinfo=UTC))
    vtodo.save()
    memory.edit(item.id, "Renew the passport and the ID card")
    out = sync(memory)
    assert (out["conflicts"], out["pushed"]) == (1, 1)
    assert memory.get(item.id).body == "Renew the passport and the ID card"
    [other] = [n for e, n in memory.neighbours(item.id) if e.relation is Relation.SUPERSEDES]
    assert other.title == "Renew the passport (old photo)"
    assert [str(t.icalendar_component["SUMMARY"]) for t in account.tasks.todos()] == [
        "Renew the passport and the ID card"
    ]


def second_machine(memory, radicale, monkeypatch) -> Memory:
    """Another machine of the same person: a memory of its own, on the same server account."""
    other = Memory(memory.store, Identity(device_id=uuid.uuid4()), owns_store=False, model=memory.model)
    account = memory.sync_accounts()[0]
    password = radicale.password_of(account.username)
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    assert neurons(other, "sync", "add", radicale.url, "--user", account.username, "--all")["code"] == 0
    return other


def test_two_machines_editing_seconds_apart_keep_the_newer_edit_on_both(
    account, memory, radicale, monkeypatch
):
    memory.capture("Call the plumber", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
    memory.capture("Ana Lima", kind="contact", attrs={"name": "Ana Lima", "note": "first"})
    sync(memory)
    other = second_machine(memory, radicale, monkeypatch)
    sync(other)
    [task_a] = of_kind(memory, Kind.REMINDER)
    [card_a] = of_kind(memory, Kind.CONTACT)
    [task_b] = of_kind(other, Kind.REMINDER)
    [card_b] = of_kind(other, Kind.CONTACT)
    memory.edit(task_a.id, "Call the plumber about the sink")  # first, here
    memory.update_attrs(card_a.id, note="older")
    time.sleep(1.1)  # the clocks of iCalendar and vCard count seconds
    other.edit(task_b.id, "Call the plumber about the boiler")  # seconds later, there
    other.update_attrs(card_b.id, note="newer")
    sync(other)  # the newer goes to the server first
    out = sync(memory)  # the older meets it: the newer wins here too
    assert out["conflicts"] == 2, out
    sync(other)
    for machine in (memory, other):
        [task] = [n for n in of_kind(machine, Kind.REMINDER) if n.state is State.ACTIVE]
        assert task.body == "Call the plumber about the boiler"
        [card_] = [n for n in of_kind(machine, Kind.CONTACT) if n.state is State.ACTIVE]
        assert card_.attrs["note"] == "newer"
    [vtodo] = account.tasks.todos()
    component = vtodo.icalendar_component
    assert str(component["SUMMARY"]) == "Call the plumber about the boiler"
    assert int(component["SEQUENCE"]) >= 1
    assert component["LAST-MODIFIED"].dt > datetime.now(UTC) - timedelta(minutes=1)
    [vcf] = account.cards(account.book).values()
    assert "REV:" in vcf


def test_deletes_both_ways(account, memory):
    memory.capture("Return the books", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
    account.put_card(account.book, "joe.vcf", card("phone-card-joe", "Joe Bloggs"))
    sync(memory)
    [joe] = of_kind(memory, Kind.CONTACT)
    [books] = of_kind(memory, Kind.REMINDER)
    account.delete(account.book + "joe.vcf")  # on the phone: gone
    memory.trash(books.id)  # here: trashed
    out = sync(memory)
    assert out["deleted"] == 2
    assert memory.get(joe.id).state is State.TRASHED  # restorable, never erased
    assert account.tasks.todos(include_completed=True) == []
    memory.restore(joe.id)  # brought back here: it goes back to the server
    assert sync(memory)["pushed"] == 1
    assert [v for v in account.cards(account.book).values() if "Joe Bloggs" in v]
    assert sync(memory)["pushed"] == 0


def test_a_recurring_series_with_exceptions_and_its_zone(account, memory):
    series = (
        "DTSTART;TZID=Europe/Lisbon:20310303T193000\r\nDUE;TZID=Europe/Lisbon:20310303T193000\r\n"
        "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10\r\nEXDATE;TZID=Europe/Lisbon:20310317T193000\r\n"
    )
    account.tasks.save_todo(todo("phone-series", "Choir practice", series))
    sync(memory)
    [choir] = of_kind(memory, Kind.REMINDER)
    assert choir.attrs["tz"] == "Europe/Lisbon" and "FREQ=WEEKLY" in choir.attrs["rrule"]
    lisbon = ZoneInfo("Europe/Lisbon")
    start = datetime(2031, 3, 1, tzinfo=lisbon)
    shown = remind.occurrences(remind.Series.of(choir.attrs), start, datetime(2031, 4, 8, tzinfo=lisbon))
    days = [o.astimezone(lisbon).strftime("%m-%d %H:%M") for o in shown]
    # 17 March is left out; 19:30 in Lisbon stays 19:30 across the change to summer time (30 March)
    assert days == ["03-03 19:30", "03-10 19:30", "03-24 19:30", "03-31 19:30", "04-07 19:30"]
    memory.edit(choir.id, "Choir practice (bring the scores)")
    assert sync(memory)["pushed"] == 1
    [vtodo] = account.tasks.todos()
    c = vtodo.icalendar_component
    assert str(c["SUMMARY"]) == "Choir practice (bring the scores)"
    assert "COUNT=10" in c["RRULE"].to_ical().decode() and c["EXDATE"] is not None
    assert c["DTSTART"].dt == datetime(2031, 3, 3, 19, 30, tzinfo=lisbon)


def test_done_here_on_a_weekly_task_from_the_phone_moves_it_on_the_phone(account, memory):
    """Done in Neurons on a phone-made weekly task: the phone's task starts again at the next
    occurrence (DTSTART and DUE a week on, COUNT one less), as tasks.org and todoman write it."""
    lisbon = ZoneInfo("Europe/Lisbon")
    now = datetime.now(UTC)
    start = (now - timedelta(days=3)).astimezone(lisbon).replace(hour=9, minute=0, second=0, microsecond=0)
    stamp = start.strftime("%Y%m%dT%H%M%S")
    series = (
        f"DTSTART;TZID=Europe/Lisbon:{stamp}\r\nDUE;TZID=Europe/Lisbon:{stamp}\r\n"
        "RRULE:FREQ=WEEKLY;COUNT=10\r\n"
    )
    account.tasks.save_todo(todo("phone-weekly", "Put the bins out", series))
    sync(memory)
    [bins] = of_kind(memory, Kind.REMINDER)
    assert datetime.fromisoformat(bins.attrs["due_at"]) == start  # this week's, 3 days ago

    memory.complete(bins.id, now)
    week_on = datetime.combine(start.date() + timedelta(days=7), start.timetz())
    assert datetime.fromisoformat(memory.get(bins.id).attrs["due_at"]) == week_on
    out = sync(memory)
    assert (out["pushed"], out["conflicts"], out["errors"]) == (1, 0, [])
    [vtodo] = account.tasks.todos()
    c = vtodo.icalendar_component
    assert c["DTSTART"].dt == week_on and c["DUE"].dt == week_on
    assert c["DTSTART"].params["TZID"] == "Europe/Lisbon"
    assert c["RRULE"].to_ical().decode() == "FREQ=WEEKLY;COUNT=9"
    assert str(c["STATUS"]) == "NEEDS-ACTION"
    # the phone's next occurrence is the following week; the series keeps its remaining nine
    shown = recurring_ical_events.of(icalendar.Calendar.from_ical(vtodo.data), components=["VTODO"]).between(
        now, now + timedelta(days=100)
    )
    assert [o["DTSTART"].dt for o in shown] == [week_on + timedelta(days=7 * i) for i in range(9)]
    assert sync(memory)["pushed"] == 0  # and the next sync moves nothing


def test_time_zones_both_ways(account, memory):
    zoned = "DUE;TZID=America/New_York:20310310T090000\r\n"
    account.tasks.save_todo(todo("phone-ny", "Stand-up in New York", zoned))
    tokyo = datetime(2031, 3, 11, 8, 0, tzinfo=ZoneInfo("Asia/Tokyo"))
    memory.capture(
        "Call Kenji", kind="reminder", attrs={"due_at": tokyo.isoformat(), "tz": "Asia/Tokyo"}, derive=False
    )
    sync(memory)
    [ny] = [n for n in of_kind(memory, Kind.REMINDER) if n.title.startswith("Stand-up")]
    assert datetime.fromisoformat(ny.attrs["due_at"]) == datetime(2031, 3, 10, 13, 0, tzinfo=UTC)
    assert ny.attrs["tz"] == "America/New_York"
    [kenji] = [t for t in account.tasks.todos() if str(t.icalendar_component["SUMMARY"]) == "Call Kenji"]
    due = kenji.icalendar_component["DUE"]
    assert due.params.get("TZID") == "Asia/Tokyo" and due.dt == tokyo
    assert "BEGIN:VTIMEZONE" in kenji.data


def test_snooze_here_goes_out_as_a_later_due(account, memory):
    item = memory.capture("Stretch", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
    sync(memory)
    memory.snooze(item.id, FUTURE, until=FUTURE + timedelta(hours=2))
    sync(memory)
    [vtodo] = account.tasks.todos()
    assert vtodo.icalendar_component["DUE"].dt == FUTURE + timedelta(hours=2)


def test_status_and_remove(account, memory, radicale, kept):
    sync(memory)
    status = json.loads(neurons(memory, "sync", "status", "--json")["stdout"])["accounts"]
    assert [c["holds"] for c in status[0]["collections"]] == ["reminders", "contacts"]
    assert status[0]["synced_at"] is not None and status[0]["last_error"] is None
    assert kept.items  # the password is in the keyring, and nowhere else
    out = neurons(memory, "sync", "remove", radicale.url)
    assert out["code"] == 0 and not kept.items
    assert memory.sync_accounts() == []


def test_contacts_go_out_in_the_version_the_server_prefers_and_a_first_sync_merges_by_email(
    radicale, kept, memory, monkeypatch
):
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    book = phone.address_book()
    phone.put_card(book, "ana.vcf", card("phone-ana", "Ana Silva", "EMAIL:ana@example.com\r\n"))
    here = memory.capture(
        "Ana Silva", kind="contact", attrs={"name": "Ana Silva", "emails": ["ana@example.com"]}
    )
    memory.capture("Bo Chen", kind="contact", attrs={"name": "Bo Chen"})
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    assert (
        neurons(memory, "sync", "add", radicale.url, "--user", user, "--addressbook", "Contacts")["code"] == 0
    )
    out = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
    assert (out["pulled"], out["pushed"]) == (1, 1)  # Ana is one person on both sides; Bo goes out
    assert [n.id for n in of_kind(memory, Kind.CONTACT) if n.attrs["name"] == "Ana Silva"] == [here.id]
    cards = phone.cards(book)
    assert len(cards) == 2
    assert all("VERSION:3.0" in text for text in cards.values())  # Radicale's supported-address-data


def test_notes_stay_here_unless_a_calendar_is_picked_for_them(radicale, kept, memory, monkeypatch):
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    phone.task_list()
    journal = phone.task_list(name="Journal", cal_id="journal", components=("VJOURNAL",))
    memory.capture("The plumber said the boiler needs a new valve", kind="note")
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    out = neurons(memory, "sync", "add", radicale.url, "--user", user, "--all", "--notes", "Journal")
    assert out["code"] == 0, out
    assert json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]["pushed"] == 1
    [entry] = journal.journals()
    assert "new valve" in str(entry.icalendar_component["DESCRIPTION"])
    journal.save_journal(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VJOURNAL\r\nUID:phone-note\r\n"
        "DTSTAMP:20300101T000000Z\r\nSUMMARY:Parking\r\nDESCRIPTION:Parking: level 3\\, space 42\r\n"
        "END:VJOURNAL\r\nEND:VCALENDAR\r\n"
    )
    out = json.loads(neurons(memory, "sync", "--json")["stdout"])["accounts"][0]
    assert (out["pulled"], out["pushed"]) == (1, 0)
    assert "Parking: level 3, space 42" in [n.body for n in of_kind(memory, Kind.NOTE)]


def test_the_round_trip_on_the_server_engine(radicale, kept, server_store, sentence_model, monkeypatch):
    """The server Postgres holds sync state behind row-level security (migration 006): the round
    trip, a second sync, and a conflict there too; another identity sees none of it."""
    memory = Memory(server_store, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    tasks = phone.task_list()
    book = phone.address_book()
    tasks.save_todo(todo("srv-task", "Phone task", "DUE:20310310T150000Z\r\n"))
    phone.put_card(book, "ana.vcf", card("srv-card", "Ana Server"))
    memory.capture("Here task", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    assert neurons(memory, "sync", "add", radicale.url, "--user", user, "--all")["code"] == 0
    monkeypatch.delenv("NEURONS_SYNC_PASSWORD")
    first = sync(memory)
    assert (first["pulled"], first["pushed"]) == (2, 1)
    assert sync(memory)["pulled"] == sync(memory)["pushed"] == 0
    [here] = [n for n in of_kind(memory, Kind.REMINDER) if n.title == "Here task"]
    memory.edit(here.id, "Here task, edited here")
    for t in tasks.todos():
        if str(t.icalendar_component["SUMMARY"]) == "Here task":
            t.icalendar_component["SUMMARY"] = "Here task, edited there"
            t.icalendar_component["LAST-MODIFIED"] = icalendar.vDDDTypes(
                datetime.now(UTC) + timedelta(minutes=5)
            )
            t.save()
    assert sync(memory)["conflicts"] == 1
    assert memory.get(here.id).body == "Here task, edited there"
    stranger = memory.as_identity(Identity(device_id=uuid.uuid4()))
    assert stranger.sync_accounts() == [] and stranger.sync_locals([Kind.REMINDER]) == []


def test_without_a_keyring_sync_goes_through_the_running_app(radicale, memory, monkeypatch):
    """No secure keyring: `sync add` and `NEURONS_SYNC_PASSWORD=… neurons sync` are answered by
    the app that holds the data dir (the forwarded command line it runs), not refused here."""
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        user, password = radicale.new_user()
        phone = Phone(radicale.url, user, password)
        phone.tasks = phone.task_list()
        monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
        for argv in (["sync", "add", radicale.url, "--user", user, "--all"], ["sync"]):
            cmd, args = commands.parse(argv)
            cmd.prepare(args)
            assert cmd.forwardable(args)  # the CLI sends it to the app
            done = commands.execute(memory, commands.forwarded_argv(args))
            assert done["code"] == 0, done
        assert [a.username for a in memory.sync_accounts()] == [user]
        assert memory.sync_accounts()[0].synced_at is not None
    finally:
        keyring.set_keyring(previous)


class Work:
    """What repeat rules made dateutil do, counted (never timed): the occurrences its rules gave
    and the periods (a month or a year of candidates) it looked through to find them."""

    def __init__(self, monkeypatch):
        self.occurrences = self.periods = 0
        walk, rebuild = dateutil.rrule.rrule._iter, dateutil.rrule._iterinfo.rebuild

        def counted_walk(rule):
            for occ in walk(rule):
                self.occurrences += 1
                yield occ

        def counted_rebuild(info, year, month):
            self.periods += 1
            return rebuild(info, year, month)

        monkeypatch.setattr(dateutil.rrule.rrule, "_iter", counted_walk)
        monkeypatch.setattr(dateutil.rrule._iterinfo, "rebuild", counted_rebuild)


def test_a_phones_rule_without_end_or_that_never_occurs_costs_bounded_work(account, memory, monkeypatch):
    start = (remind.utcnow() - timedelta(days=30)).strftime("%Y%m%dT%H%M%SZ")
    account.tasks.save_todo(todo("every-second", "Every second", f"DUE:{start}\r\nRRULE:FREQ=SECONDLY\r\n"))
    account.tasks.save_todo(
        todo(
            "never",
            "On the 30th of February",
            f"DUE:{start}\r\nRRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30\r\n",
        )
    )
    account.tasks.save_todo(todo("undefined", "Priority undefined", "DUE:20310310T150000Z\r\nPRIORITY:0\r\n"))
    work = Work(monkeypatch)
    out = neurons(memory, "sync", "--json")
    for _ in range(3):
        assert neurons(memory, "upcoming")["code"] == 0
    # the work a sync and three looks ahead may take: a few walks to the bound (25,000 steps each),
    # a few years looked through. Unbounded, per second from a month ago was 18 million
    # occurrences; the 30th of February, every month to the year 9999 (72,000 periods)
    assert work.occurrences <= 100_000 and work.periods <= 2_000, vars(work)
    titles = {n.title for n in of_kind(memory, Kind.REMINDER)}
    assert {"On the 30th of February", "Priority undefined"} <= titles
    said = json.loads(out["stdout"])["accounts"][0]["errors"]
    assert "Every second" in titles or any("too many occurrences" in e for e in said), said
    assert sync(memory)["pulled"] == 0
