"""iCalendar in and out: tasks and events as reminders. The occurrences a reminder fires are
checked against recurring-ical-events (an independent reading of the same file), across daylight
saving, with EXDATE, RDATE, COUNT, UNTIL and moved instances; todoman reads the export."""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events
import tzlocal

from core import commands, remind
from core.commands.reminders import reminder_json, when_words
from core.interop import files as interop
from core.interop import ical
from core.interop.report import ImportRefused, Skip
from core.model import InvalidInput, Kind, Neuron, State

FILES = Path(__file__).parent / "interop_files"
NOW = datetime(2027, 1, 10, 12, 0, tzinfo=UTC)
LISBON = ZoneInfo("Europe/Lisbon")


def items_of(path: Path) -> dict[str, ical.Item]:
    return {i.uid: i for i in ical.read(path.read_bytes(), NOW) if isinstance(i, ical.Item)}


def items(name: str) -> dict[str, ical.Item]:
    return items_of(FILES / name)


def reminders(memory) -> dict[str, object]:
    states = [State.ACTIVE, State.DONE, State.ARCHIVED]
    return {n.attrs["uid"]: n for n in memory.list(Kind.REMINDER, states, limit=500)}


def calendar_starts(path: Path, start: datetime, end: datetime) -> list[datetime]:
    """What a calendar shows, computed by recurring-ical-events."""
    cal = icalendar.Calendar.from_ical(path.read_bytes())
    found = recurring_ical_events.of(cal, components=["VEVENT", "VTODO"]).between(start, end)
    return sorted(
        _aware(e.get("DTSTART").dt if e.get("DTSTART") else e.get("DUE").dt)
        for e in found
        if str(e.get("STATUS", "")).upper() != "CANCELLED"
    )


def _aware(value) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=remind.local_zone())
    return datetime.combine(value, ical.ALL_DAY_AT, tzinfo=remind.local_zone())


def fired(memory, neuron_id, until: datetime) -> list[datetime]:
    """Run the reminder as the scheduler does, each alarm at its moment: the occurrences shown."""
    shown = []
    while True:
        alarm = remind.next_alarm(memory.get(neuron_id))
        if alarm is None or alarm.fire_at > until:
            return shown
        done = memory.mark_notified(neuron_id, alarm.fire_at)
        shown.append(done.due_at)


# -- reading ---------------------------------------------------------------------------------------


def test_nextcloud_tasks_keep_zones_dates_status_and_extras():
    found = items("nextcloud-tasks.ics")
    rent = found["nc-task-pay-rent"]
    assert rent.body == "Pay the rent\n\nTransfer to the landlord, reference FLAT-5.\nKeep the receipt."
    assert rent.attrs["tz"] == "Europe/Lisbon"
    assert remind.parse_time(rent.attrs["due_at"]) == datetime(2027, 4, 1, 19, 30, tzinfo=LISBON)
    assert (rent.attrs["priority"], rent.attrs["tags"], rent.attrs["location"]) == (
        1,
        ["home", "money"],
        "Online banking",
    )
    assert rent.attrs["alarm_offsets"] == [-1800]
    passport = found["nc-task-passport"]
    assert passport.attrs["all_day"] is True and passport.attrs["ical_extra"] == ["X-NEXTCLOUD-PINNED:1"]
    due = remind.parse_time(passport.attrs["due_at"]).astimezone(remind.local_zone())
    assert (due.date().isoformat(), due.hour) == ("2027-03-15", 9)
    photos = found["nc-task-photos"]
    assert photos.attrs["floating"] is True and "tz" not in photos.attrs
    assert photos.attrs["ical_extra"] == ["RELATED-TO:nc-task-passport", "PERCENT-COMPLETE:40"]
    bank = found["nc-task-call-bank"]
    assert bank.state is State.DONE and bank.attrs["done_at"] == "2027-03-09T10:15:00+00:00"
    assert bank.attrs["tz"] == "UTC"


def test_windows_zone_names_and_moved_or_cancelled_instances():
    review = items("outlook.ics")["040000008200E00074C5B7101A82E00800000000"]
    assert review.attrs["tz"] == "Europe/Berlin" and review.attrs["ical_component"] == "VEVENT"
    assert review.attrs["duration_seconds"] == 5400
    choir = items("thunderbird.ics")["tb-choir-practice"]
    assert choir.attrs["exdates"] == ["2027-03-18T19:30:00+00:00"]  # its own EXDATE only
    # the changed occurrences stay overrides (RFC 5545 3.8.4.4), with their own title and length
    moved, cancelled = choir.attrs["overrides"]
    assert moved == {
        "recurrence_id": "2027-04-08T19:30:00+01:00",
        "start": "2027-04-09T19:30:00+01:00",  # moved to the Friday
        "title": "Choir practice (moved to Friday)",
        "duration_seconds": 5400,
    }
    assert cancelled["recurrence_id"] == "2027-04-15T19:30:00+01:00" and cancelled["start"] is None


def test_bad_components_are_named_and_the_rest_read():
    found = ical.read((FILES / "broken.ics").read_bytes(), NOW)
    items = [i for i in found if isinstance(i, ical.Item)]
    # a task without a UID gets one from its content (the same every time the file is read); a
    # zone no one knows, with no VTIMEZONE to read offsets from, loses its zone, not the task
    assert [i.uid for i in items][::2] == ["good-one", "mars-time", "good-two"]
    assert items[1].uid.startswith("neurons-") and items[1].attrs["title"] == "Task without a UID"
    assert (
        items[1].uid
        == [i for i in ical.read((FILES / "broken.ics").read_bytes(), NOW) if isinstance(i, ical.Item)][1].uid
    )
    assert items[2].attrs["floating"] is True
    # a line that is not UTF-8 is read as Windows-1252 (what Outlook writes), the task kept
    assert items[3].uid == "bad-bytes" and items[3].attrs["title"] == "Caf\u00e9"
    assert {(s.item, s.why) for s in found if isinstance(s, ical.Dropped)} == {
        (
            "VTODO 'Call the rover' (line 13)",
            "unknown time zone 'Mars/Olympus_Mons' (the file does not define it): read as local time",
        ),
        (
            "VTODO 'Caf\u00e9' (line 18)",
            "line 20 is not valid UTF-8: read as Windows-1252 (Western European)",
        ),
    }
    assert {(s.item, s.why) for s in found if type(s) is Skip} == {
        ("VTODO at line 27", "it is not finished (no END:VTODO): the file is truncated"),
    }


# -- what fires is what a calendar shows -----------------------------------------------------------


@pytest.mark.parametrize("local", ["Europe/Lisbon", "America/New_York", "Asia/Tokyo"])
def test_a_lisbon_series_keeps_its_wall_clock_and_exceptions_wherever_the_computer_is(local, monkeypatch):
    monkeypatch.setattr(tzlocal, "get_localzone", lambda: ZoneInfo(local))  # the one place it is read
    choir = items("thunderbird.ics")["tb-choir-practice"]
    series = remind.Series.of(choir.attrs)
    start = remind.parse_time(choir.attrs["due_at"])
    ours = remind.occurrences(series, start, datetime(2027, 6, 1, tzinfo=UTC))
    theirs = calendar_starts(
        FILES / "thunderbird.ics", datetime(2027, 1, 1, tzinfo=LISBON), datetime(2027, 6, 1, tzinfo=LISBON)
    )
    theirs = [t for t in theirs if t.date().month != 7]  # the yearly event is another reminder
    assert ours == theirs
    walls = [(o.astimezone(LISBON).strftime("%a %d %b %H:%M")) for o in ours]
    assert walls == [
        "Thu 04 Mar 19:30",
        "Thu 11 Mar 19:30",
        "Thu 25 Mar 19:30",
        "Sat 27 Mar 11:00",
        "Thu 01 Apr 19:30",
        "Fri 09 Apr 19:30",
        "Thu 22 Apr 19:30",
        "Thu 29 Apr 19:30",
    ]
    # 19:30 in Lisbon is 19:30 GMT before 28 March and 18:30 GMT after it
    assert (ours[0].astimezone(UTC).hour, ours[-1].astimezone(UTC).hour) == (19, 18)


def test_the_alarms_that_fire_are_the_calendars_occurrences(embedded_memory):
    interop.import_path(embedded_memory, FILES / "thunderbird.ics", now=NOW)
    choir = reminders(embedded_memory)["tb-choir-practice"]
    shown = fired(embedded_memory, choir.id, datetime(2027, 6, 1, tzinfo=UTC))
    expected = [
        t
        for t in calendar_starts(
            FILES / "thunderbird.ics",
            datetime(2027, 1, 1, tzinfo=LISBON),
            datetime(2027, 6, 1, tzinfo=LISBON),
        )
        if t.month != 7
    ]
    assert shown == expected
    # each alarm came 15 minutes before its occurrence (the VALARM)
    alarm = remind.next_alarm(reminders(embedded_memory)["tb-choir-practice"])
    assert alarm is None  # UNTIL has passed: nothing is left to fire


def test_count_with_exdates_across_the_march_change(embedded_memory, tmp_path):
    path = tmp_path / "pills.ics"
    path.write_bytes(
        (FILES / "nextcloud-tasks.ics")
        .read_bytes()
        .replace(
            b"RRULE:FREQ=DAILY;COUNT=10",
            b"RRULE:FREQ=DAILY;COUNT=10\r\nEXDATE;TZID=Europe/Lisbon:20270327T083000,20270329T083000",
        )
    )
    interop.import_path(embedded_memory, path, now=NOW)
    pills = reminders(embedded_memory)["nc-task-pills"]
    shown = fired(embedded_memory, pills.id, datetime(2027, 5, 1, tzinfo=UTC))
    expected = calendar_starts(path, datetime(2027, 3, 1, tzinfo=LISBON), datetime(2027, 5, 1, tzinfo=LISBON))
    expected = [t for t in expected if t.astimezone(LISBON).strftime("%H:%M") == "08:30"]
    assert shown == expected and len(shown) == 8  # COUNT counts the excluded two
    assert {t.astimezone(LISBON).hour for t in shown} == {8}


def test_done_on_a_series_moves_past_its_exceptions(embedded_memory):
    interop.import_path(embedded_memory, FILES / "thunderbird.ics", now=NOW)
    choir = reminders(embedded_memory)["tb-choir-practice"]
    moved = embedded_memory.complete(choir.id, datetime(2027, 3, 12, tzinfo=UTC))
    assert remind.parse_time(moved.attrs["due_at"]) == datetime(
        2027, 3, 25, 19, 30, tzinfo=LISBON
    )  # not the 18th
    assert moved.attrs["rrule"] == "FREQ=WEEKLY;UNTIL=20270429T183000Z;BYDAY=TH"  # the anchor stays


def test_an_import_does_not_replay_the_past(embedded_memory):
    later = datetime(2027, 4, 2, 12, 0, tzinfo=UTC)
    interop.import_path(embedded_memory, FILES / "thunderbird.ics", now=later)
    choir = reminders(embedded_memory)["tb-choir-practice"]
    assert remind.parse_time(choir.attrs["due_at"]) == datetime(2027, 4, 1, 19, 30, tzinfo=LISBON)
    assert remind.due([choir], later) == []  # the latest occurrence counts as shown
    assert remind.next_alarm(choir).due_at == datetime(2027, 4, 9, 19, 30, tzinfo=LISBON)
    anniversary = reminders(embedded_memory)["tb-wedding-anniversary"]
    assert anniversary.state is State.ACTIVE  # yearly: it has occurrences to come


# -- importing and exporting -----------------------------------------------------------------------


def test_import_reimport_and_a_changed_task(memory, tmp_path):
    report = interop.import_path(memory, FILES / "nextcloud-tasks.ics", now=NOW)
    assert report.to_json() == {"format": "ics", "created": 5, "updated": 0, "unchanged": 0, "skipped": []}
    found = reminders(memory)
    assert found["nc-task-call-bank"].state is State.DONE
    again = interop.import_path(memory, FILES / "nextcloud-tasks.ics", now=NOW)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 5)
    changed = (FILES / "nextcloud-tasks.ics").read_bytes().replace(b"PRIORITY:5", b"PRIORITY:2")
    (tmp_path / "tasks.ics").write_bytes(changed)
    report = interop.import_path(memory, tmp_path / "tasks.ics", now=NOW)
    assert (report.created, report.updated, report.unchanged) == (0, 1, 4)
    assert reminders(memory)["nc-task-passport"].attrs["priority"] == 2
    assert len(reminders(memory)) == 5


def test_bad_input_is_named_the_rest_imported_or_with_all_or_nothing_nothing(memory, tmp_path):
    before = memory.snapshot()
    with pytest.raises(ImportRefused, match=r"nothing was imported: VTODO at line 27: it is not finished"):
        interop.import_path(memory, FILES / "broken.ics", all_or_nothing=True, now=NOW)
    assert memory.snapshot() == before
    report = interop.import_path(memory, FILES / "broken.ics", now=NOW)
    assert (report.created, len(report.skipped), len(report.dropped)) == (5, 1, 2)
    junk = tmp_path / "junk.ics"
    with junk.open("wb") as out:  # 50 MB that is not a calendar
        for i in range(50):
            out.write(bytes((i * 7 + j) % 256 for j in range(256)) * 4096)
    with pytest.raises(InvalidInput, match=r"junk.ics holds no task or event"):
        interop.import_path(memory, junk, now=NOW)
    assert len(reminders(memory)) == 5


def test_export_is_valid_and_reads_back_the_same(memory, tmp_path):
    for name in ("nextcloud-tasks.ics", "thunderbird.ics", "outlook.ics"):
        interop.import_path(memory, FILES / name, now=NOW)
    memory.capture("stretch every day at 9", kind="reminder")
    out = tmp_path / "all.ics"
    assert interop.export_path(memory, out)["items"] == 9
    text = out.read_text()
    cal = icalendar.Calendar.from_ical(text)
    assert sorted(str(z["TZID"]) for z in cal.walk("VTIMEZONE")) == sorted(
        {"Europe/Lisbon", "Europe/Berlin", remind.local_zone().key} - {"UTC", "Etc/UTC"}
    )
    assert {str(c["UID"]): c.name for c in cal.walk() if c.name in ("VTODO", "VEVENT")}[
        "tb-choir-practice"
    ] == "VEVENT"
    assert "X-MOZ-GENERATION:3" in text and "X-NEXTCLOUD-PINNED:1" in text
    # an independent reader sees the same occurrences in our file as in Thunderbird's
    window = (datetime(2027, 1, 1, tzinfo=LISBON), datetime(2027, 6, 1, tzinfo=LISBON))
    choir_ours = [  # a cancelled occurrence is written as Thunderbird writes it: STATUS:CANCELLED
        e
        for e in recurring_ical_events.of(cal).between(*window)
        if str(e["UID"]) == "tb-choir-practice" and str(e.get("STATUS", "")).upper() != "CANCELLED"
    ]
    assert sorted(_aware(e["DTSTART"].dt) for e in choir_ours) == [
        t for t in calendar_starts(FILES / "thunderbird.ics", *window) if t.month != 7
    ]
    again = interop.import_path(memory, out, now=NOW)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 9)


@pytest.mark.skipif(
    shutil.which("todoman") is None, reason="todoman is not installed (packaging/setup.sh test)"
)
def test_todoman_reads_the_exported_vdir(embedded_memory, tmp_path):
    interop.import_path(embedded_memory, FILES / "nextcloud-tasks.ics", now=NOW)
    written = interop.export_path(embedded_memory, f"{tmp_path}/tasks/", "ics")
    assert written["files"] == 5 and (tmp_path / "tasks" / "nc-task-pay-rent.ics").exists()
    config = tmp_path / "todoman.py"
    config.write_text(
        f'path = "{tmp_path}/*"\ndate_format = "%Y-%m-%d"\ntime_format = "%H:%M"\ndefault_list = "tasks"\n'
    )
    done = subprocess.run(
        ["todoman", "--config", str(config), "--porcelain", "list", "--status", "ANY"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TZ": "UTC"},
    )
    assert done.returncode == 0, done.stderr
    listed = {t["summary"]: t for t in json.loads(done.stdout)}
    assert set(listed) == {
        "Pay the rent",
        "Renew passport",
        "Sort holiday photos",
        "Call the bank",
        "Take the pills",
    }
    assert listed["Call the bank"]["completed"] is True
    assert listed["Pay the rent"]["priority"] == 1
    assert listed["Pay the rent"]["due"] == int(datetime(2027, 4, 1, 19, 30, tzinfo=LISBON).timestamp())
    assert listed["Pay the rent"]["description"].startswith("Transfer to the landlord, reference FLAT-5.")


def test_exporting_contacts_as_ics_is_refused(embedded_memory, tmp_path):
    with pytest.raises(InvalidInput, match="an iCalendar export holds reminders only"):
        interop.export_path(embedded_memory, tmp_path / "x.ics", kind="contact")
    assert not (tmp_path / "x.ics").exists()


def test_a_start_outside_its_rule_and_rdates_alone_are_occurrences_as_rfc_5545_says(tmp_path):
    path = tmp_path / "odd.ics"
    path.write_bytes(
        b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
        b"BEGIN:VEVENT\r\nUID:tuesday\r\nSUMMARY:Starts on a Tuesday\r\n"
        b"DTSTART;TZID=Europe/Lisbon:20270302T180000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3\r\nEND:VEVENT\r\n"
        b"BEGIN:VEVENT\r\nUID:rdates\r\nSUMMARY:Only rdates\r\n"
        b"DTSTART;TZID=Europe/Lisbon:20270301T100000\r\n"
        b"RDATE;TZID=Europe/Lisbon:20270305T100000,20270410T100000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    )
    window = (datetime(2027, 1, 1, tzinfo=LISBON), datetime(2027, 12, 31, tzinfo=LISBON))
    cal = icalendar.Calendar.from_ical(path.read_bytes())
    for uid, item in items_of(path).items():
        ours = remind.occurrences(
            remind.Series.of(item.attrs), remind.parse_time(item.attrs["due_at"]), window[1]
        )
        theirs = sorted(
            e["DTSTART"].dt for e in recurring_ical_events.of(cal).between(*window) if str(e["UID"]) == uid
        )
        assert ours == theirs, uid
        assert ours[0] == remind.parse_time(item.attrs["dtstart"])


def test_priority_zero_is_undefined_and_read_without_a_word():
    text = (FILES / "nextcloud-tasks.ics").read_bytes().replace(b"PRIORITY:5", b"PRIORITY:0")
    found = ical.read(text, NOW)
    passport = next(i for i in found if isinstance(i, ical.Item) and i.uid == "nc-task-passport")
    assert "priority" not in passport.attrs  # RFC 5545 3.8.1.9: 0 is "undefined"
    assert not [i for i in found if not isinstance(i, ical.Item)], found


def test_attrs_given_as_objects_are_never_written_as_a_python_repr():
    neuron = Neuron(
        id=uuid.uuid4(),
        kind=Kind.REMINDER,
        body="Water the plants",
        attrs={"tags": [{"name": "home"}, "garden"], "location": {"name": "Balcony"}},
        state=State.ACTIVE,
        created_at=NOW,
        updated_at=NOW,
    )
    text = ical.calendar([neuron], NOW)
    assert "{" not in text and "'" not in text, text
    assert "CATEGORIES:garden" in text and "LOCATION" not in text


THUNDERBIRD_TASK = """BEGIN:VCALENDAR
PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
VERSION:2.0
BEGIN:VTODO
CREATED:20261201T101500Z
LAST-MODIFIED:20261201T101600Z
DTSTAMP:20261201T101600Z
UID:2f7d1c3e-0b8a-4b7e-9d61-car-insurance
SUMMARY:Renew the car insurance
DTSTART;TZID=Europe/Lisbon:20261208T090000
DUE;TZID=Europe/Lisbon:20261210T090000
STATUS:NEEDS-ACTION
END:VTODO
END:VCALENDAR
"""


def test_a_task_that_starts_before_it_is_due_says_both_and_fires_at_its_start(memory, tmp_path, monkeypatch):

    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    (tmp_path / "tasks.ics").write_text(THUNDERBIRD_TASK.replace("\n", "\r\n"))
    interop.import_path(memory, tmp_path / "tasks.ics")
    (task,) = [n for n in memory.list(kind=Kind.REMINDER) if n.title == "Renew the car insurance"]
    lisbon = ZoneInfo("Europe/Lisbon")
    start, due = datetime(2026, 12, 8, 9, 0, tzinfo=lisbon), datetime(2026, 12, 10, 9, 0, tzinfo=lisbon)
    assert remind.next_alarm(task).fire_at == start  # it fires at its start, as before
    assert remind.task_due(task) == due
    now = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    words = when_words(task, now)
    assert words.startswith("starts ") and "8 Dec" in words and "due Thu 10 Dec" in words
    assert not remind.is_overdue(task, datetime(2026, 12, 9, 12, 0, tzinfo=UTC))  # started, not late
    assert remind.is_overdue(task, datetime(2026, 12, 10, 12, 0, tzinfo=UTC))
    item = reminder_json(task, now)
    assert remind.parse_time(item["task_due_at"]) == due and "starts 2026-12-08" in item["why"]
    done = commands.execute(memory, ["ask", "when is the car insurance due"])
    assert done["code"] == 0
    (line,) = [x for x in done["stdout"].splitlines() if "Renew the car insurance" in x]
    assert "due Thu 10 Dec" in line
