"""Damage is never silent: a truncated table file, bad pages, an empty
pg_control -- each named, on a real engine's files."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from core.interop.files import import_path
from core.memory import Memory
from core.model import Identity, Kind, Neuron
from core.settings import Settings
from core.store import Store
from core.store import queries as q
from core.store.errors import StoreDamaged
from tests.conftest import cli, copy_data_dir, run_cli

ROWS = 600
IDENTITY = Identity(device_id=uuid.UUID(int=7))
CARD = Path(__file__).parent / "interop_files" / "apple.vcf"


def make_store(data_dir) -> str:
    """A closed store of ROWS notes; the path of the neurons table file."""
    with Store(Settings(data_dir=data_dir, embed_in_background=False)) as store:
        (data_dir / "device_id").write_text(str(IDENTITY.device_id))  # the CLI's identity too
        with store.transaction() as cur:
            q.insert_neurons(
                cur,
                IDENTITY,
                [Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body=f"note {i} " + "z" * 300) for i in range(ROWS)],
            )
        with store.reading() as cur:
            cur.execute("SELECT pg_relation_filepath('neurons') AS path")
            return str(data_dir / "pgdata" / cur.fetchone()["path"])


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[Path, Path]:
    """The store of ROWS notes, made once: (its data dir, its table file within it)."""
    data = tmp_path_factory.mktemp("damage") / "data"
    return data, Path(make_store(data)).relative_to(data)


@pytest.fixture
def damaged(made, tmp_path) -> tuple[Path, str]:
    """A copy of that store for each test to damage: (its data dir, its table file)."""
    data, table = made
    copy = copy_data_dir(data, tmp_path / "data")
    return copy, str(copy / table)


def test_a_truncated_table_is_found_and_stops_an_export(damaged):
    data, table = damaged
    size = os.path.getsize(table)
    os.truncate(table, size // 2 // 8192 * 8192)
    with Store(Settings(data_dir=data, embed_in_background=False)) as store:
        report = store.check()
        assert not report["ok"]
        [problem] = report["problems"]
        assert problem.startswith("neurons:")
        with pytest.raises(StoreDamaged, match="damaged"):
            Memory(store, IDENTITY, owns_store=False).export()
        # an import plans against the memory it reads: a part of it is refused before a write
        with pytest.raises(StoreDamaged, match="damaged"):
            import_path(Memory(store, IDENTITY, owns_store=False), CARD)
        assert store.check(Identity(device_id=uuid.uuid4()))["rows"]["neurons"] == 0


def test_bad_pages_are_a_sentence_not_a_traceback(damaged):
    data, table = damaged
    with open(table, "r+b") as f:
        f.seek(8192 * 3)
        f.write(os.urandom(8192 * 2))
    with Store(Settings(data_dir=data, embed_in_background=False)) as store:
        memory = Memory(store, IDENTITY, owns_store=False)
        with pytest.raises(StoreDamaged, match="damaged"):
            memory.list(limit=100000)
        report = store.check()
        assert not report["ok"] and report["problems"][0].startswith("neurons:")


def _rows_read(store) -> int:
    """Rows of the neurons table read so far, by any scan (the engine's own statistics)."""
    with store.reading(every_owner=True) as cur:
        cur.execute("SELECT pg_stat_force_next_flush()")
    with store.reading(every_owner=True) as cur:
        cur.execute("SELECT pg_stat_clear_snapshot()")
        cur.execute(
            "SELECT t.seq_tup_read + (SELECT coalesce(sum(i.idx_tup_read), 0)"
            "  FROM pg_stat_user_indexes i WHERE i.relid = t.relid) AS n"
            " FROM pg_stat_user_tables t WHERE t.relname = 'neurons'"
        )
        return int(cur.fetchone()["n"])


def test_an_import_reads_its_own_rows_not_the_whole_store(damaged):
    # the store's whole check reads every table (at 100k neurons, seconds); an import's plan
    # needs only the memory it plans against, counted again by its index
    data, _ = damaged
    with Store(Settings(data_dir=data, embed_in_background=False)) as store:
        memory = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
        import_path(memory, CARD)
        before = _rows_read(store)
        again = import_path(memory, CARD)
        read = _rows_read(store) - before
        assert again.created == again.updated == 0
        assert read < ROWS // 4, read  # the other identity's ROWS notes are not read


def test_a_sound_store_checks_clean(damaged):
    data, _ = damaged
    with Store(Settings(data_dir=data, embed_in_background=False)) as store:
        report = store.check()
        assert report["ok"] and report["problems"] == [] and report["rows"]["neurons"] == ROWS
        assert store.check(IDENTITY)["rows"]["neurons"] == ROWS
        assert store.check(Identity(device_id=uuid.uuid4()))["rows"]["neurons"] == 0


def test_an_empty_pg_control_is_named(damaged):
    data, _ = damaged
    control = data / "pgdata" / "global" / "pg_control"
    control.write_bytes(b"")
    with pytest.raises(StoreDamaged, match=r"pg_control is empty"):
        Store(Settings(data_dir=data, embed_in_background=False))
    done = cli("list", data_dir=data)
    assert done.returncode == 2 and "pg_control is empty" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # `neurons` processes, each starting the engine
def test_the_cli_names_the_damage_and_writes_no_partial_export(damaged, tmp_path):
    data, table = damaged
    os.truncate(table, os.path.getsize(table) // 2 // 8192 * 8192)
    doctor = run_cli("doctor", data_dir=data)
    assert doctor.returncode == 1, doctor.stderr
    assert "damaged" in doctor.stderr and "neurons:" in doctor.stderr and "restore" in doctor.stderr
    assert "Traceback" not in doctor.stderr
    out = tmp_path / "export.json"
    done = cli("export", str(out), data_dir=data)
    assert done.returncode == 2 and "damaged" in done.stderr and "Traceback" not in done.stderr
    assert not out.exists() and not list(tmp_path.glob("export.json*"))
