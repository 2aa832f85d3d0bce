"""The corpus (tests/corpus/: other projects' test calendars and cards, with their sources and
licences) read as an import reads it and judged by readers we did not write: no traceback, no
library warning, every recurring series as recurring-ical-events reads the source (and the export
again), exports icalendar, vobject and recurring-ical-events read, and a second import of each
file through a real store adds nothing. The counts before the fixes of issue 27 are in
tests/corpus/BEFORE.txt; `python -m tests.corpus.check` prints them now."""

from __future__ import annotations

import pytest

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


# Through a store, on both engines (attrs are jsonb on both, numbers and key order as each keeps
# them): every file whose items a second import could find differently -- cards (matched by UID,
# email, phone or name and content), copies of one UID, overrides, UID-less components.
CHANGEFUL = [
    p
    for p in FILES
    if p.suffix == ".vcf"
    or any(word in p.read_bytes() for word in (b"RECURRENCE-ID", b"SEQUENCE"))
    or p.read_bytes().count(b"BEGIN:VEVENT") + p.read_bytes().count(b"BEGIN:VTODO")
    > p.read_bytes().count(b"UID:")
]


def test_a_second_import_adds_nothing_on_either_engine(memory):
    assert len(CHANGEFUL) > 60
    assert check.store_check(memory, CHANGEFUL) == {}
