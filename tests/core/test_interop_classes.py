"""The classes of file other programs write, each pinned by the smallest file that shows it (the corpus test,
test_interop_corpus.py, judges them on other projects' real files): what Outlook, Google, Apple,
Thunderbird, Evolution and CardBook write, read as they mean it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

from core import remind
from core.interop import files, ical, vcard
from core.model import Kind, Neuron, State

NOW = datetime(2027, 1, 10, 12, 0, tzinfo=UTC)
BERLIN = ZoneInfo("Europe/Berlin")


def cal(*lines: str) -> bytes:
    return ("\r\n".join(["BEGIN:VCALENDAR", "VERSION:2.0", *lines, "END:VCALENDAR"]) + "\r\n").encode()


def read(data: bytes) -> list:
    return ical.read(data, NOW)


def items(data: bytes) -> dict[str, ical.Item]:
    return {i.uid: i for i in read(data) if isinstance(i, ical.Item)}


def fires(item: ical.Item, until: datetime) -> list[datetime]:
    series = remind.Series.of(item.attrs)
    assert series is not None
    return remind.occurrences(series, datetime(2000, 1, 1, tzinfo=UTC), until)


def exported(item: ical.Item) -> icalendar.Calendar:
    neuron = Neuron(id=uuid.uuid4(), kind=Kind.REMINDER, body=item.body, attrs=item.attrs)
    return icalendar.Calendar.from_ical(ical.calendar([neuron], NOW))


WEEKLY = [
    "BEGIN:VEVENT",
    "UID:w",
    "SUMMARY:Weekly",
    "DTSTART;TZID=Europe/Berlin:20270104T100000",
    "RRULE:FREQ=WEEKLY;COUNT=4",
]


def test_an_occurrence_edited_in_place_stays_and_goes_out_as_a_recurrence_id_component():
    data = cal(
        *WEEKLY,
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:w",
        "SUMMARY:Weekly (agenda changed)",
        "RECURRENCE-ID;TZID=Europe/Berlin:20270111T100000",
        "DTSTART;TZID=Europe/Berlin:20270111T100000",
        "END:VEVENT",
    )
    item = items(data)["w"]
    assert [t.day for t in fires(item, datetime(2027, 3, 1, tzinfo=UTC))] == [4, 11, 18, 25]
    out = exported(item)
    changed = [c for c in out.walk("VEVENT") if c.get("RECURRENCE-ID") is not None]
    assert [str(c["SUMMARY"]) for c in changed] == ["Weekly (agenda changed)"]
    assert not any(c.get("EXDATE") for c in out.walk("VEVENT"))  # not as EXDATE plus RDATE


def test_outlooks_date_exdate_and_a_floating_one_remove_the_occurrence_of_a_zoned_series():
    for exdate in ("EXDATE;VALUE=DATE:20270111", "EXDATE:20270111T100000"):
        item = items(cal(*WEEKLY, exdate, "END:VEVENT"))["w"]
        assert [t.day for t in fires(item, datetime(2027, 3, 1, tzinfo=UTC))] == [4, 18, 25], exdate


def test_a_task_with_dtstart_and_due_repeats_from_its_start_and_keeps_both():
    data = cal(
        "BEGIN:VTODO",
        "UID:t",
        "SUMMARY:Bins",
        "DTSTART;TZID=Europe/Berlin:20271217T080000",
        "DUE;TZID=Europe/Berlin:20271217T200000",
        "RRULE:FREQ=WEEKLY;COUNT=3",
        "EXDATE;TZID=Europe/Berlin:20271224T080000",
        "END:VTODO",
    )
    item = items(data)["t"]
    assert [t.day for t in fires(item, datetime(2028, 2, 1, tzinfo=UTC))] == [17, 31]
    todo = exported(item).walk("VTODO")[0]
    assert todo["DTSTART"].dt == datetime(2027, 12, 17, 8, tzinfo=BERLIN)
    assert todo["DUE"].dt == datetime(2027, 12, 17, 20, tzinfo=BERLIN)


def test_several_rrules_and_this_and_future_as_recurring_ical_events_reads_them():
    data = cal(
        *WEEKLY[:-1],
        "RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=MO",
        "RRULE:FREQ=WEEKLY;COUNT=3;BYDAY=WE",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:w",
        "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20270111T100000",
        "DTSTART;TZID=Europe/Berlin:20270111T120000",
        "END:VEVENT",
    )
    ours = fires(items(data)["w"], datetime(2027, 3, 1, tzinfo=UTC))
    theirs = sorted(
        e["DTSTART"].dt
        for e in recurring_ical_events.of(icalendar.Calendar.from_ical(data)).between(
            (2027, 1, 1), (2027, 3, 1)
        )
    )
    assert ours == theirs and len(ours) == 6


def test_the_highest_sequence_of_one_uid_is_the_item():
    old = [
        "BEGIN:VEVENT",
        "UID:s",
        "SEQUENCE:3",
        "SUMMARY:New time",
        "DTSTART:20270301T090000Z",
        "END:VEVENT",
    ]
    new = [
        "BEGIN:VEVENT",
        "UID:s",
        "SEQUENCE:1",
        "SUMMARY:Old time",
        "DTSTART:20270201T090000Z",
        "END:VEVENT",
    ]
    found = [i for i in read(cal(*old, *new)) if isinstance(i, ical.Item)]
    assert [(i.uid, i.attrs["title"]) for i in found] == [("s", "New time")]


def test_zones_the_file_defines_by_offsets_windows_names_and_evolution_paths():
    vtimezone = [
        "BEGIN:VTIMEZONE",
        "TZID:Mitteleuropäische Zeit",
        "BEGIN:STANDARD",
        "DTSTART:16011028T030000",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10",
        "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100",
        "END:STANDARD",
        "BEGIN:DAYLIGHT",
        "DTSTART:16010325T020000",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3",
        "TZOFFSETFROM:+0100",
        "TZOFFSETTO:+0200",
        "END:DAYLIGHT",
        "END:VTIMEZONE",
    ]
    data = cal(
        *vtimezone,
        "BEGIN:VEVENT",
        "UID:a",
        "DTSTART;TZID=Mitteleuropäische Zeit:20270601T100000",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:b",
        "DTSTART;TZID=W. Europe Standard Time:20270601T100000",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:c",
        "DTSTART;TZID=/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires:20270601T100000",
        "END:VEVENT",
    )
    found = items(data)
    assert remind.parse_time(found["a"].attrs["due_at"]) == datetime(2027, 6, 1, 10, tzinfo=BERLIN)
    assert found["b"].attrs["tz"] == "Europe/Berlin"
    assert found["c"].attrs["tz"] == "America/Argentina/Buenos_Aires"


def test_an_outlook_zone_whose_tzid_escapes_its_comma_is_the_zone_the_events_name():
    data = cal(
        "BEGIN:VTIMEZONE",
        "TZID:Kuala Lumpur\\, Singapore",
        "BEGIN:STANDARD",
        "DTSTART:16010101T000000",
        "TZOFFSETFROM:+0800",
        "TZOFFSETTO:+0800",
        "END:STANDARD",
        "END:VTIMEZONE",
        "BEGIN:VEVENT",
        "UID:reboot",
        'DTSTART;TZID="Kuala Lumpur, Singapore":20271029T093000',
        "RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=3",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:reboot",
        'RECURRENCE-ID;TZID="Kuala Lumpur, Singapore":20271105T093000',
        'DTSTART;TZID="Kuala Lumpur, Singapore":20271105T110000',
        "END:VEVENT",
    )
    entries = read(data)
    assert [e.why for e in entries if not isinstance(e, ical.Item)] == []
    (item,) = [e for e in entries if isinstance(e, ical.Item)]
    assert not item.attrs.get("floating")
    assert fires(item, datetime(2028, 1, 1, tzinfo=UTC)) == [
        datetime(2027, 10, 29, 1, 30, tzinfo=UTC),
        datetime(2027, 11, 5, 3, 0, tzinfo=UTC),
        datetime(2027, 11, 12, 1, 30, tzinfo=UTC),
    ]


def test_spaces_after_a_value_are_no_part_of_it_but_a_folded_lines_are():
    data = cal(
        "BEGIN:VEVENT ",
        "UID:plant ",
        "SUMMARY:Water the ",
        " aloe plant ",
        "DTSTART;TZID=Europe/Berlin:20270104T095000 ",
        "DURATION:PT10M ",
        "RRULE:FREQ=MONTHLY;INTERVAL=1;BYDAY=1MO ",
        "END:VEVENT ",
    )
    entries = read(data)
    assert [e.why for e in entries if not isinstance(e, ical.Item)] == []
    (item,) = entries
    assert (item.uid, item.body, item.attrs["duration_seconds"]) == ("plant", "Water the aloe plant", 600)
    assert fires(item, datetime(2027, 3, 2, tzinfo=UTC)) == [
        datetime(2027, 1, 4, 9, 50, tzinfo=BERLIN),
        datetime(2027, 2, 1, 9, 50, tzinfo=BERLIN),
        datetime(2027, 3, 1, 9, 50, tzinfo=BERLIN),
    ]


def test_a_zone_the_file_defines_is_built_once_for_all_the_years_its_times_fall_in(monkeypatch):
    built = []
    from_ical = icalendar.Timezone.from_ical
    monkeypatch.setattr(icalendar.Timezone, "from_ical", lambda text: built.append(1) or from_ical(text))
    events = [
        line
        for year in range(2001, 2031)
        for line in ("BEGIN:VEVENT", f"UID:{year}", f"DTSTART;TZID=Zeit:{year}0601T100000", "END:VEVENT")
    ]
    vtimezone = ["BEGIN:VTIMEZONE", "TZID:Zeit", "BEGIN:STANDARD", "DTSTART:16010101T000000"]
    data = cal(*vtimezone, "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE", *events)
    found = items(data)
    assert len(found) == 30 and all(not i.attrs.get("floating") for i in found.values())
    assert len(built) == 1  # not once a year: each walks its rules from 1601


def test_a_zone_the_file_defines_that_no_iana_zone_keeps_is_not_said_to_be_undefined():
    vtimezone = ["BEGIN:VTIMEZONE", "TZID:Odd", "BEGIN:STANDARD", "DTSTART:16010101T000000"]
    offsets = ["TZOFFSETFROM:+0017", "TZOFFSETTO:+0017", "END:STANDARD", "END:VTIMEZONE"]
    event = ["BEGIN:VEVENT", "UID:odd", "DTSTART;TZID=Odd:20270601T100000", "END:VEVENT"]
    assert [e.why for e in read(cal(*vtimezone, *offsets, *event)) if not isinstance(e, ical.Item)] == [
        "unknown time zone 'Odd' (its VTIMEZONE matches no IANA zone in 2027): read as local time"
    ]


def test_a_broken_end_ends_its_component_and_a_bad_value_loses_only_itself():
    data = cal(
        "BEGIN:VEVENT",
        "UID:one",
        "DTSTART:20270301T090000Z",
        "BEGIN:VALARM",
        "TRIGGER:-PT5M",
        "END:VEVENT",  # the VALARM never ends: the event does
        "BEGIN:VEVENT",
        "UID:two",
        "DTSTART;VALUE=DATE:20270301",
        "RRULE:",  # an empty rule (a German holiday calendar): the day stays
        "PRIORITY:",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:three",
        "DTSTART;VALUE=DATE:20270301",
        "RRULE:FREQ=YEARLY",
        "RDATE:20131210Z",  # Google's date with a Z
        "DURATION:P1D ",  # phpicalendar's trailing space
        "END:VEVENT",
    )
    found = read(data)
    assert sorted(i.uid for i in found if isinstance(i, ical.Item)) == ["one", "three", "two"]
    assert not [s for s in found if type(s) is not ical.Item and not isinstance(s, ical.Dropped)]


def test_events_without_uid_or_master_are_kept_with_a_stable_identity():
    data = cal(
        "BEGIN:VEVENT",
        "SUMMARY:No UID",
        "DTSTART;VALUE=DATE:20270409",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "UID:google-series",
        "RECURRENCE-ID:20270410T090000Z",
        "DTSTART:20270410T110000Z",
        "SUMMARY:Only the change was shared",
        "END:VEVENT",
    )
    first, again = sorted(items(data)), sorted(items(data))
    assert first == again and len(first) == 2
    assert first[0] == "google-series/20270410T090000Z" and first[1].startswith("neurons-")


def test_alarm_actions_and_stamps_go_back_out():
    data = cal(
        "BEGIN:VEVENT",
        "UID:al",
        "SEQUENCE:4",
        "CREATED:20200101T000000Z",
        "DTSTART:20270301T090000Z",
        "BEGIN:VALARM",
        "ACTION:AUDIO",
        "TRIGGER:-PT10M",
        "ATTACH:file:///bell.aud",
        "END:VALARM",
        "END:VEVENT",
    )
    event = exported(items(data)["al"]).walk("VEVENT")[0]
    assert [str(a["ACTION"]) for a in event.walk("VALARM")] == ["AUDIO"]
    assert int(event["SEQUENCE"]) == 4 and event["CREATED"].dt == datetime(2020, 1, 1, tzinfo=UTC)


def test_cardbooks_year_1604_is_no_year_and_a_lone_cr_ends_a_line():
    data = b"BEGIN:VCARD\rVERSION:3.0\rFN:Ana Silva\rBDAY:16040101\rTEL;TYPE=CELL:+351912345678\rEND:VCARD\r"
    (card,) = vcard.split_cards(data)
    attrs = vcard.to_attrs(card)
    assert attrs["birthday"] == "--01-01" and attrs["phones"] == ["+351912345678"]
    assert "BDAY:--0101" in vcard.from_attrs(attrs, uid="u", version="4.0")


def test_a_card_without_uid_email_or_phone_is_found_again_by_name_and_content(memory, tmp_path):
    book = tmp_path / "minimal.vcf"
    book.write_bytes(b"BEGIN:VCARD\r\nVERSION:4.0\r\nFN:minimal contact\r\nEND:VCARD\r\n")
    assert files.import_path(memory, book, now=NOW).created == 1
    again = files.import_path(memory, book, now=NOW)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 1)
    assert len([n for n in memory.snapshot()[0] if n.kind is Kind.CONTACT and n.state is State.ACTIVE]) == 1
