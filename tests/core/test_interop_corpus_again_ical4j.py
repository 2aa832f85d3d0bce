"""A second import of each file of the corpus's ical4j/ that a second import could find
differently adds nothing, through a real store on both engines (in a file of its own: see
test_interop_corpus_again.py)."""

from __future__ import annotations

from tests.corpus import check


def test_a_second_import_adds_nothing_on_either_engine(bulk_memory):
    changeful = check.changeful(check.files(["ical4j"]))
    assert changeful
    assert check.store_check(bulk_memory, changeful) == {}
