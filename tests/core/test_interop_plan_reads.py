"""An import's plan reads only what its items could match, and plans what it planned when it read
the whole memory: the same neurons, links and report (a sample of tests/bench/import_sameness.py,
against a plan made to read every neuron and link first, on the same store)."""

from __future__ import annotations

import os
import random
import uuid
from datetime import UTC, datetime
from pathlib import Path

from core.interop import files as interop
from core.interop.plan import Plan
from core.model import Kind, Neuron
from tests.bench import import_sameness as judge

FILES = Path(__file__).parent / "interop_files"
CORPUS = Path(__file__).parents[1] / "corpus"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
# each kind of file: cards with uids, emails, phones and birthdays, cards with none (UID-less,
# Latin-1), tasks and events with series
SAMPLE = [
    FILES / "google.vcf",
    FILES / "apple.vcf",
    FILES / "android21.vcf",
    CORPUS / "eds" / "name-only.vcf",
    CORPUS / "ez-vcard" / "gmail-list.vcf",
    FILES / "nextcloud-tasks.ics",
    FILES / "outlook.ics",
]


class WholePlan(Plan):
    """A plan that reads the whole memory first, in its order, as every plan did before."""

    def __init__(self, memory, fmt, now=None, region=None):
        super().__init__(memory, fmt, now, region)
        neurons, _ = memory.snapshot()
        for n in neurons:
            self.want_neuron(n.id)
        self.read()
        self.want_links([n.id for n in neurons])
        self.read()


def _planned(memory, path: Path, plan_class, monkeypatch) -> tuple:
    """What importing `path` would write (nothing is), with ids drawn from one seed."""
    written: list = []
    rng = random.Random(7)
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=rng.getrandbits(128), version=4))
    monkeypatch.setattr(interop, "Plan", plan_class)
    monkeypatch.setattr(memory, "apply_import", lambda *rows: written.append(rows))
    report = interop.import_path(memory, path, now=NOW).to_json()
    monkeypatch.undo()
    [(created, updated, edges)] = written
    return report, created, updated, edges


def test_a_plan_finds_what_a_plan_of_the_whole_memory_finds(memory, monkeypatch):
    paths = SAMPLE
    judge._seed(memory, [str(p) for p in paths], NOW)
    for path in paths:
        interop.import_path(memory, path, now=NOW)
    judge._edit(memory)  # names, numbers, texts changed here; a uid gone; a trash
    for path in paths:
        with monkeypatch.context() as m:
            whole = _planned(memory, path, WholePlan, m)
        with monkeypatch.context() as m:
            asked = _planned(memory, path, Plan, m)
        assert asked == whole, path.name
        assert whole[1] or whole[2] or whole[0]["unchanged"]  # something to compare


def _toast_read(store) -> int:
    """Blocks of the neurons table's out-of-line values read so far (the engine's statistics)."""
    with store.reading(every_owner=True) as cur:
        cur.execute("SELECT pg_stat_force_next_flush()")
    with store.reading(every_owner=True) as cur:
        cur.execute("SELECT pg_stat_clear_snapshot()")
        cur.execute(
            "SELECT coalesce(toast_blks_read, 0) + coalesce(toast_blks_hit, 0) AS n"
            " FROM pg_statio_user_tables WHERE relname = 'neurons'"
        )
        return int(cur.fetchone()["n"])


def test_an_import_reads_the_values_only_of_what_it_could_match(embedded_memory):
    # notes too long to be kept in line (each body out of the table's own pages): the plan of
    # the whole memory read every one of them; an import of a card reads none
    memory = embedded_memory
    memory.apply_import(
        [Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body=os.urandom(4000).hex()) for _ in range(200)], [], []
    )
    interop.import_path(memory, FILES / "apple.vcf", now=NOW)
    before = _toast_read(memory.store)
    again = interop.import_path(memory, FILES / "apple.vcf", now=NOW)
    read = _toast_read(memory.store) - before
    assert again.created == again.updated == 0
    assert read < 20, read  # the whole memory: over 200


def test_a_vault_links_as_against_the_whole_memory(memory, monkeypatch, tmp_path):
    judge._seed(memory, [str(FILES / "google.vcf")], NOW)
    interop.import_path(memory, FILES / "google.vcf", now=NOW)
    vault = judge._vault(tmp_path, memory)  # the memory's own pages, and notes written by hand
    interop.import_path(memory, vault, now=NOW)
    judge._edit(memory)
    with monkeypatch.context() as m:
        whole = _planned(memory, vault, WholePlan, m)
    with monkeypatch.context() as m:
        asked = _planned(memory, vault, Plan, m)
    assert asked == whole
    assert whole[0]["updated"] and whole[0]["unchanged"]
