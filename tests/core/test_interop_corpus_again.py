"""A second import of each file of the corpus that a second import could find differently (cards,
copies of one UID, overrides, UID-less components: `check.changeful`) adds nothing, through a real
store on both engines: the bulk store (tests/conftest.py), a folder a test, each as a device of its
own. The largest folders are in files of their own (test_interop_corpus_again_<folder>.py), so two
workers share the work."""

from __future__ import annotations

import pytest

from tests.corpus import check

# Each checked in a file of its own, named after it.
OWN_FILES = ("ical4j", "sabre-vobject")
CHANGEFUL = check.changeful(check.files())
FOLDERS = sorted({p.relative_to(check.CORPUS).parts[0] for p in CHANGEFUL} - set(OWN_FILES))


def test_the_files_a_second_import_could_change_are_many():
    assert len(CHANGEFUL) > 60
    assert set(OWN_FILES) < {p.relative_to(check.CORPUS).parts[0] for p in CHANGEFUL}


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_second_import_adds_nothing_on_either_engine(bulk_memory, folder):
    assert check.store_check(bulk_memory, check.changeful(check.files([folder]))) == {}
