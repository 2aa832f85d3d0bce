"""The corpus (tests/corpus/: other projects' test calendars and cards, with their sources and
licences) read as an import reads it and judged by readers we did not write: no traceback, no
library warning, every recurring series as recurring-ical-events reads the source (and the export
again), exports icalendar, vobject and recurring-ical-events read, and a second import of each
file through a real store adds nothing (test_interop_corpus_again*.py). The counts before the
importer read these classes of file are in tests/corpus/BEFORE.txt; `python -m tests.corpus.check`
prints them now."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from core import remind
from core.model import Kind, Neuron, State
from tests.corpus import check

FILES = check.files()
# Where our reading and recurring-ical-events' differ on purpose (each one a judgement, named):
KNOWN = {
    # a RECURRENCE-ID;VALUE=DATE on a timed series: recurring-ical-events matches no occurrence
    # and shows the change beside the original; we read the date as that day's occurrence (one
    # meeting, moved), as Radicale's own test of the file expects
    ("radicale/event_mixed_recurrence_id_dt_type.ics", "event_mixed_recurrence_id_dt_type"),
    # a floating DTSTART with a UTC EXDATE: recurring-ical-events reads the whole series as UTC;
    # we keep the wall time the file gives (the EXDATE excludes nothing in either reading)
    ("radicale/event_mixed_datetime_and_date_exdate.ics", "event_mixed_datetime_and_date_exdate"),
    # TZID="LOLOLOL", defined nowhere: recurring-ical-events reads it as UTC, we as local time
    # (as Thunderbird does), with a note in the report
    ("khal/event_dtr_no_tz_exdatez.ics", "5624b646-ba12-4dbd-ba9f-8d66319b0776"),
    # an override that turns one timed occurrence into an all-day one: we keep it on that day at
    # the series' time (a reminder fires at a moment)
    ("recurring-ical-events/recurring_events_changed_duration.ics", "a0c78729-30b1-4ba3-a86e-6aedd995d788"),
    # two different series under one UID with one SEQUENCE (Evolution's test file reuses three
    # UIDs): recurring-ical-events shows both, we keep the last, as a UID names one item and the
    # last copy of equal SEQUENCE is the newer (Thunderbird keeps one too)
    *(("thunderbird/l10n-rrule-details.ics", f"monthlyLastDayOfNth-{n}") for n in (1, 2, 3)),
    # the same for two birthdays under sabre/vobject's test placeholder UID "**ANY**"
    ("sabre-vobject/inline/VObject-BirthdayCalendarGeneratorTest-5.ics", "**ANY**"),
    # a floating UNTIL on a zoned series (RFC 5545 wants it in UTC): recurring-ical-events reads
    # it as UTC and loses the last occurrence; we read it in the series' zone, as sabre/vobject's
    # test of this file did (its name: UntilRespectsTimezone)
    ("sabre-vobject/UntilRespectsTimezoneTest.ics", "10621-1440@ccbchurch.com"),
    # a DTEND before its DTSTART: recurring-ical-events starts the first occurrence at the DTEND;
    # we at the DTSTART, as sabre/vobject's test of the file expects
    (
        "sabre-vobject/inline/VObject-Recur-EventIterator-HandleRDateExpandTest-1.ics",
        "2CD5887F7CF4600F7A3B1F8065099E40-240BDA7121B61224",
    ),
    # an UNTIL before DTSTART: dateutil yields nothing; the DTSTART is the series' first instance
    # (RFC 5545, 3.8.5.3), so it happens once
    *(
        (f"ical4j/samples/valid/{f}.ics", "C1C7B4A3-1ECC-11D7-A916-00306553216E")
        for f in ("lotr", "lotr-updated")
    ),
    # a bare date with a TZID and no VALUE=DATE (Google's holiday feed of 2006, its DTEND the next
    # day): recurring-ical-events reads midnight in that zone; we read the day, an all-day holiday
    *(
        ("ical4j/samples/valid/google_aus_holidays.ics", f"{uid}@google.com")
        for uid in (
            "3ntk4vqd2uik0udl1aj13so3b8",
            "r89a2q1vci41bsh42492qdi8jk",
            "lj4clbc3rr8s5e4bjmdj4vnu64",
            "2p1o8tgvqs9sojhdrm9l8go118",
            "frs5bom08phjhek3rfseulju04",
        )
    ),
}


@pytest.fixture(scope="module")
def results() -> dict[str, check.FileResult]:
    return {r.name: r for r in (check.check_file(p) for p in FILES)}


def test_the_corpus_is_there_with_its_sources():
    assert len(FILES) > 300
    for folder in {p.relative_to(check.CORPUS).parts[0] for p in FILES}:
        sources = (check.CORPUS / folder / "SOURCES.tsv").read_text()
        assert "Licence" in sources, folder
        named = {line.split("\t")[0] for line in sources.splitlines() if line and not line.startswith("#")}
        here = {
            p.relative_to(check.CORPUS / folder).as_posix()
            for p in FILES
            if p.is_relative_to(check.CORPUS / folder)
        }
        assert here <= named, f"{folder}: files without a source line: {sorted(here - named)[:5]}"


def test_no_file_ends_in_a_traceback_or_a_library_warning(results):
    assert [(n, r.traceback) for n, r in results.items() if r.traceback] == []
    assert [(n, r.warnings) for n, r in results.items() if r.warnings] == []


def test_every_series_keeps_the_occurrences_an_independent_reader_sees(results):
    differ = [
        (n, uid, what) for n, r in results.items() for uid, _, what in r.differ if (n, uid) not in KNOWN
    ]
    assert differ == []
    assert sum(r.compared for r in results.values()) >= 250  # the series really are compared
    assert sum(r.series_lost for r in results.values()) <= 5


def test_exports_are_read_by_icalendar_vobject_and_recurring_ical_events(results):
    unread = [(n, why) for n, r in results.items() for why in r.export_unread]
    assert unread == []
    changed = [(n, uid) for n, r in results.items() if r.kind == "ics" for uid in r.export_differ]
    assert [c for c in changed if c not in KNOWN] == []
    assert [(n, r.export_differ) for n, r in results.items() if r.kind == "vcf" and r.export_differ] == []
    assert sum(r.alarms_lost for r in results.values()) == 0


# A second import of each file through a store, on both engines: test_interop_corpus_again*.py,
# a folder a test on a memory of its own (two files for the largest folders, so two workers share them).


def test_each_file_is_judged_as_if_no_other_file_had_been_read():
    # icalendar keeps the zones a file defines for the whole process: a file naming an undefined
    # "foo" was judged by sabre's "foo" when sabre's files were read first in the same worker
    check.check_file(check.CORPUS / "sabre-vobject" / "inline" / "VObject-TimeZoneUtilTest-1.ics")
    alone = check.check_file(check.CORPUS / "khal" / "event_rrule_recuid_invalid_tzid.ics")
    assert alone.differ == [] and alone.export_differ == []


def test_done_on_any_calendar_series_restates_it_and_keeps_every_later_occurrence():
    """Done on an occurrence of a calendar's series: it starts again at the next one (what a
    CalDAV client reads as the ones before it done), and fires exactly what it fired before."""
    restated = 0
    for path in FILES:
        if path.suffix != ".ics":
            continue
        for item in check.ical.read(path.read_bytes(), check.NOW):
            if not isinstance(item, check.ical.Item) or not item.attrs.get("rrule"):
                continue
            before = remind.Series.of(item.attrs)
            anchor = remind.parse_time(item.attrs["dtstart"])
            shown = remind.occurrences(before, anchor, anchor + check.SPAN)
            if len(shown) < 3:
                continue
            attrs = {**item.attrs, "due_at": shown[1].isoformat()}
            neuron = Neuron(uuid.uuid4(), Kind.REMINDER, item.body, attrs, State.ACTIVE, check.NOW, check.NOW)
            changes = remind.completed(neuron, shown[1] + timedelta(seconds=1))
            assert changes is not None, (path.name, item.uid)
            after = {k: v for k, v in {**attrs, **changes}.items() if v is not None}
            if after["dtstart"] != item.attrs["dtstart"]:
                restated += 1
            span = (shown[1] + timedelta(seconds=1), anchor + 2 * check.SPAN)
            assert remind.occurrences(remind.Series.of(after), *span) == remind.occurrences(before, *span), (
                path.name,
                item.uid,
            )
    assert restated > 150, restated


# -- the classes of file other programs write, each on a real file of the corpus ------------------


def _items(name: str) -> list[check.ical.Item | check.Skip]:
    return check.ical.read((check.CORPUS / name).read_bytes(), check.NOW)


def _cards(name: str) -> list:
    return check.vcard.split_cards((check.CORPUS / name).read_bytes())


def test_outlooks_zones_named_with_an_escaped_comma_keep_their_series_and_changes():
    # Exchange's VTIMEZONE says "TZID:Kuala Lumpur\\, Singapore", its events TZID="Kuala Lumpur, Singapore"
    for name in ("ical4j/samples/valid/2207678.ics", "ical4j/transform/outlook2.ics"):
        entries = _items(name)
        assert [e.why for e in entries if isinstance(e, check.Skip)] == []
        assert all(not i.attrs.get("floating") for i in entries if isinstance(i, check.ical.Item))


def test_quoted_printable_labels_go_out_as_vobject_reads_them():
    # vCard 2.1 LABELs with =0D=0A soft-broken lines (ical.js' sample, a Nokia card from Evolution's)
    for name in ("icaljs/vcard21.vcf", "eds/12.vcf"):
        (card,) = [c for c in _cards(name) if isinstance(c, check.vcard.Card)]
        attrs = check.vcard.to_attrs(card)
        (label,) = [x for x in attrs["vcard_extra"] if x.upper().split(";")[0].split(":")[0] == "LABEL"]
        assert "\r" not in label and "\n" not in label and "\\n" in label
        for version in check.vcard.VERSIONS:
            text = check.vcard.from_attrs(attrs, uid="x", version=version)
            (read,) = check.vobject.readComponents(text)
            assert "\n" in read.label.value  # the line breaks are the label's own


def test_audio_and_email_alarms_and_sequence_created_last_modified_go_back_out():
    (taxes,) = [
        i for i in _items("libical/2445.ics") if isinstance(i, check.ical.Item) and i.uid == "uid4@host1.com"
    ]
    out = check.icalendar.Calendar.from_ical(check.ical.calendar([check._neuron(taxes)], check.NOW))
    (alarm,) = out.walk("VALARM")
    assert str(alarm["ACTION"]) == "AUDIO" and "ssbanner.aud" in str(alarm["ATTACH"])
    assert int(out.walk("VTODO")[0]["SEQUENCE"]) == 2
    (most,) = [i for i in _items("ical4android/most-fields1.ics") if isinstance(i, check.ical.Item)]
    todo = check.icalendar.Calendar.from_ical(check.ical.calendar([check._neuron(most)], check.NOW)).walk(
        "VTODO"
    )[0]
    assert int(todo["SEQUENCE"]) == 1
    assert todo["CREATED"].dt.isoformat() == "1996-03-29T13:30:00+00:00"
    assert todo["LAST-MODIFIED"].dt.isoformat() == "1996-08-17T13:30:00+00:00"


def test_a_year_less_birthday_stays_year_less():
    (card,) = [c for c in _cards("icaljs/vcard.vcf") if isinstance(c, check.vcard.Card)]
    attrs = check.vcard.to_attrs(card)
    assert attrs["birthday"] == "--02-03"
    assert "BDAY:--0203" in check.vcard.from_attrs(attrs, uid="x", version="4.0")
    assert "BDAY:--02-03" in check.vcard.from_attrs(attrs, uid="x", version="3.0")


def test_windows_zone_names_and_an_orphan_override_with_periods():
    # Lotus Notes through khal: an override whose series is not in the file, added dates as
    # periods in "W. Europe Standard Time": one event of its own, in Berlin's time
    (corso,) = [i for i in _items("ical4android/npe-test.ics") if isinstance(i, check.ical.Item)]
    assert corso.attrs["tz"] == "Europe/Berlin" and corso.attrs["title"] == "CORSO PYTHON"
    assert corso.attrs["due_at"] == "2022-03-17T08:30:00+01:00"


def test_text_that_is_not_utf8_is_read_as_windows_1252_and_said():
    found = _items("thunderbird/importLatin1.ics")
    assert sorted(i.attrs["title"] for i in found if isinstance(i, check.ical.Item)) == [
        "Event Four",
        "Event One",
        "Event Three",
        "Event Tv\u00e5",
    ]
    assert [s.why for s in found if isinstance(s, check.ical.Dropped)] == [
        "line 20 is not valid UTF-8: read as Windows-1252 (Western European)"
    ]
    (card, note) = _cards("icaljs/vcard21_encoding.vcf")
    assert "speci\u00e4l ch\u00e4racters" in check.vcard.to_attrs(card)["note"]
    assert isinstance(note, check.ical.Dropped) and "read as Windows-1252" in note.why


def test_googles_date_with_a_z_and_uid_less_events_that_read_the_same_twice():
    (birthday,) = [
        i
        for i in _items("icaljs/google_birthday.ics")
        if isinstance(i, check.ical.Item) and i.uid.startswith("2014_")
    ]
    assert [d[:10] for d in birthday.attrs["rdates"]] == ["2013-12-10", "2012-12-10"]  # RDATE:20131210Z
    first = [i.uid for i in _items("thunderbird/import.ics") if isinstance(i, check.ical.Item)]
    assert len(set(first)) == 4 and first == [
        i.uid for i in _items("thunderbird/import.ics") if isinstance(i, check.ical.Item)
    ]
