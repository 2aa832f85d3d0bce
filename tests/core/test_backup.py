"""Backups (core/backup.py): tiers and the trigger on a fake clock; on a real embedded store of
its own, a restore gives back exactly the same memory, refuses a damaged file and changes
nothing when it fails; the command line, here and through a running app's socket."""

from __future__ import annotations

import gzip
import json
import os
import stat
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from core import backup, commands, instance
from core.backup import Backup, CorruptBackup
from core.memory import Memory
from core.model import Identity
from core.settings import Settings, default_model_dir
from core.store import queries as q
from core.store import snapshot
from tests.conftest import cli, run_cli

LISBON = ZoneInfo("Europe/Lisbon")
MODEL = default_model_dir()


# -- tiers and the trigger: pure, on a fake clock --------------------------------------------------


def fake(taken: datetime) -> Backup:
    return Backup(
        Path(f"/backups/neurons-{taken.astimezone(UTC):%Y%m%d-%H%M%S}Z.json.gz"),
        taken.astimezone(UTC),
    )


def test_a_year_of_half_hourly_backups_keeps_recent_daily_weekly_monthly():
    start = datetime(2025, 1, 1, 9, 0, tzinfo=LISBON)
    kept: list[Backup] = []
    at = start
    while at < start + timedelta(days=400):  # the app's life: take one, prune, half an hour on
        now = at
        kept.append(fake(now))
        tiers = backup.tiers(kept, now)
        kept = [b for b in kept if b.path in tiers]
        at += timedelta(minutes=30) if at.hour < 22 else timedelta(hours=11)  # nights off
    tiers = backup.tiers(kept, now)
    assert len(kept) == len(tiers) <= backup.KEEP_RECENT + 7 + 5 + 13
    newest = sorted(kept, key=lambda b: b.taken_at, reverse=True)
    assert [tiers[b.path] for b in newest[: backup.KEEP_RECENT]] == ["recent"] * backup.KEEP_RECENT
    local = [b.taken_at.astimezone(LISBON) for b in kept]
    days = {d.date() for d in local}
    assert all((now - timedelta(days=i)).date() in days for i in range(7))  # one a day, a week
    weeks = {d.isocalendar()[:2] for d in local}
    assert all((now - timedelta(weeks=i)).isocalendar()[:2] in weeks for i in range(4))
    months = {(d.year, d.month) for d in local}
    for i in range(12):
        month = now.year * 12 + now.month - 1 - i
        assert (month // 12, month % 12 + 1) in months
    assert min(local) > now - timedelta(days=367)  # nothing older than a year
    # each kept day holds its newest backup (the last of that local day)
    for b in kept:
        if tiers[b.path] == "daily":
            d = b.taken_at.astimezone(LISBON)
            assert d.hour == 22 or d.date() == now.date()


def test_days_are_the_local_days_of_now():
    """00:30 in Lisbon on the 26th of October is still the 25th in UTC: kept by local days, the
    25th's newest is 23:30 local, and 00:30 belongs to the 26th (which has newer backups)."""
    evening = [
        datetime(2025, 10, 25, 20, 0, tzinfo=LISBON) + timedelta(minutes=30 * i) for i in range(8)
    ]  # ... 23:30
    after_midnight = datetime(2025, 10, 26, 0, 30, tzinfo=LISBON)
    next_day = [
        datetime(2025, 10, 26, 9, 0, tzinfo=LISBON) + timedelta(minutes=30 * i)
        for i in range(backup.KEEP_RECENT)
    ]
    tiers = backup.tiers(
        [fake(t) for t in (*evening, after_midnight, *next_day)], next_day[-1] + timedelta(minutes=1)
    )
    assert tiers[fake(evening[-1]).path] == "daily"
    assert fake(after_midnight).path not in tiers
    assert not any(fake(t).path in tiers for t in evening[:-1])


def test_a_backup_is_due_when_something_changed_at_most_every_half_hour():
    t = datetime(2025, 6, 1, 12, tzinfo=UTC)
    assert backup.is_due(None, True, t)
    assert not backup.is_due(None, False, t)
    assert not backup.is_due(t, True, t + timedelta(minutes=29))
    assert backup.is_due(t, True, t + timedelta(minutes=30))
    assert not backup.is_due(t, False, t + timedelta(days=3))
    assert backup.is_due(t, True, t - timedelta(hours=2))  # the clock went back


# -- a real store of its own -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def mem(tmp_path_factory):
    memory = Memory.open(
        Settings(
            data_dir=tmp_path_factory.mktemp("backup") / "data", model_dir=MODEL, embed_in_background=False
        )
    )
    yield memory
    memory.close()


def rows_of(memory) -> dict:
    with memory.store.reading() as cur:
        return {table: json.loads(rows) for table, (_, rows) in snapshot.read(cur).items()}


def fill(memory) -> None:
    """Every kind, attrs, state, links open and closed with their dates, a profile."""
    ana = memory.capture(
        "Ana Silva", kind="contact", attrs={"name": "Ana Silva", "phones": ["+351 912 345 678"], "n": 3.25}
    )
    call = memory.capture("Call Ana tomorrow at 10")
    note = memory.capture("The dentist is on Rua Augusta 12 ✨", kind="note", attrs={"tags": ["x"]})
    memory.done(call.id)
    old = memory.capture("An old idea", kind="note")
    memory.archive(old.id)
    gone = memory.capture("A mistake", kind="note")
    memory.trash(gone.id)
    memory.link(note.id, ana.id, "concerns")
    closed = memory.link(old.id, note.id, "relates_to")
    memory.unlink(closed.id)
    other = Memory(memory.store, Identity(device_id=uuid.uuid4()), owns_store=False, model=memory.model)
    other.capture("someone else's note", kind="note")
    other.claim("Rosa")


def test_restore_gives_back_exactly_the_same_memory(mem):
    fill(mem)
    before = rows_of(mem)
    made = mem.backup()
    assert made.path.parent == mem.store.settings.data_dir / "backups"
    assert stat.S_IMODE(made.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(made.path.parent.stat().st_mode) == 0o700
    # what changes after the backup: edits, new rows, states, links, a neuron gone for good
    first = next(n for n in before["neurons"] if n["body"] == "Ana Silva")  # not the other profile's
    mem.edit(first["id"], text="Ana Silva (edited)")
    extra = mem.capture("captured after the backup", kind="note")
    mem.link(extra.id, first["id"], "relates_to")
    assert extra.id in [r.neuron.id for r in mem.ask("captured after the backup", mode="keyword")]
    open_edge = next(e for e in before["neurons_edges"] if e["valid_to"] is None)
    mem.unlink(open_edge["id"])
    assert rows_of(mem) != before

    done = mem.restore_backup(str(made.path))
    after = rows_of(mem)
    assert after == before  # every column of every row: owners, attrs, states, dates
    assert done["neurons"] == len(before["neurons"]) and done["edges"] == len(before["neurons_edges"])
    assert Path(done["before"]).exists() and Path(done["before"]) != made.path
    # the state before the restore was backed up first
    assert "captured after the backup" in {n["body"] for n in backup.load(done["before"])["neurons"]}
    # recall sees the restored memory at once: a neuron the backup does not hold is gone
    assert extra.id not in [r.neuron.id for r in mem.ask("captured after the backup", mode="keyword")]


def test_a_snapshot_read_in_small_pages_is_the_same(mem, monkeypatch):
    whole = rows_of(mem)
    assert len(whole["neurons"]) > 3
    monkeypatch.setattr(snapshot, "PAGE_ROWS", 2)
    assert rows_of(mem) == whole
    made = mem.backup()
    assert {n["id"] for n in backup.load(made.path)["neurons"]} == {n["id"] for n in whole["neurons"]}


def test_a_restore_keeps_the_vectors_of_unchanged_text_only(mem):
    a = mem.capture("vector kept: unchanged text", kind="note")
    b = mem.capture("vector dropped: text edited", kind="note")
    vec = [0.0] * 383 + [1.0]
    with mem.store.transaction() as cur:
        q.save_embeddings(cur, [(a.id, vec), (b.id, vec)], "test-model")
    made = mem.backup()
    mem.edit(b.id, text="vector dropped: text edited, then restored")
    mem.restore_backup(str(made.path))
    with mem.store.reading() as cur:
        cur.execute("SELECT id, embedding_model FROM neurons WHERE id = ANY(%s)", ([a.id, b.id],))
        models = {r["id"]: r["embedding_model"] for r in cur.fetchall()}
    assert models == {a.id: "test-model", b.id: None}


def damaged_copies(good: Path, tmp: Path) -> dict[str, Path]:
    raw = good.read_bytes()
    data = json.loads(gzip.decompress(raw))
    out = {}
    out["truncated"] = tmp / "truncated.json.gz"
    out["truncated"].write_bytes(raw[: len(raw) // 2])
    out["garbage"] = tmp / "garbage.json.gz"
    out["garbage"].write_bytes(os.urandom(2000))
    flipped = bytearray(raw)
    flipped[len(raw) // 2] ^= 0xFF
    out["flipped"] = tmp / "flipped.json.gz"
    out["flipped"].write_bytes(bytes(flipped))
    out["not ours"] = tmp / "export.json.gz"
    out["not ours"].write_bytes(gzip.compress(json.dumps({"format": "neurons-export/1"}).encode()))
    edge = dict(data, neurons_edges=[dict(data["neurons_edges"][0], to_node_id=str(uuid.uuid4()))])
    edge["counts"] = dict(data["counts"], neurons_edges=1)
    out["dangling link"] = tmp / "dangling.json.gz"
    out["dangling link"].write_bytes(gzip.compress(json.dumps(edge).encode()))
    short = dict(data, neurons=data["neurons"][1:])
    out["a row missing"] = tmp / "short.json.gz"
    out["a row missing"].write_bytes(gzip.compress(json.dumps(short).encode()))
    return out


def test_a_damaged_backup_is_refused_and_changes_nothing(mem, tmp_path):
    good = mem.backup()
    mem.capture("written after the good backup", kind="note")
    before = rows_of(mem)
    count = len(backup.listing(mem.store.settings.data_dir))
    for what, path in damaged_copies(good.path, tmp_path).items():
        with pytest.raises(CorruptBackup) as refused:
            mem.restore_backup(str(path))
        message = str(refused.value)
        assert str(path) in message and "nothing was restored" in message, (what, message)
    with pytest.raises(CorruptBackup, match="there is no backup"):
        mem.restore_backup(str(tmp_path / "missing.json.gz"))
    assert rows_of(mem) == before
    assert len(backup.listing(mem.store.settings.data_dir)) == count  # no backup taken either


def test_a_failed_restore_leaves_the_store_as_it_was(mem, monkeypatch):
    made = mem.backup()
    mem.capture("must survive the failed restore", kind="note")
    before = rows_of(mem)
    real = snapshot.upsert

    def fails_at_the_links(cur, table, rows):
        real(cur, table, rows)  # the neurons deleted and written ...
        if table == "neurons_edges":
            raise RuntimeError("the disk went away")  # ... and then the transaction fails

    monkeypatch.setattr(snapshot, "upsert", fails_at_the_links)
    with pytest.raises(RuntimeError):
        mem.restore_backup(str(made.path))
    assert rows_of(mem) == before


def test_a_backup_of_another_device_becomes_this_devices(mem, fresh_data_dir):
    made = mem.backup()
    theirs = rows_of(mem)
    with Memory.open(Settings(data_dir=fresh_data_dir, model_dir=MODEL, embed_in_background=False)) as fresh:
        fresh.restore_backup(str(made.path))
        mine = rows_of(fresh)
        here = fresh.identity.device_id
        assert len(mine["neurons"]) == len(theirs["neurons"])
        assert {r["device_id"] for r in mine["neurons"] if r["device_id"]} == {str(here)}
        assert fresh.count() == mem.count()  # this device sees what that device saw
        strip = lambda rs: [{k: v for k, v in r.items() if k != "device_id"} for r in rs]
        assert strip(mine["neurons"]) == strip(theirs["neurons"])
        assert strip(mine["neurons_edges"]) == strip(theirs["neurons_edges"])


def test_the_trigger_backs_up_only_what_changed_at_most_every_half_hour(fresh_data_dir):
    with Memory.open(Settings(data_dir=fresh_data_dir, model_dir=MODEL, embed_in_background=False)) as memory:
        auto = backup.AutoBackup(memory)
        t = datetime.now(UTC)
        assert not auto.due(t)  # an empty memory needs no backup
        memory.capture("the first note", kind="note")
        first = auto.run(t)
        assert first is not None and not auto.due(t + timedelta(hours=5))  # nothing changed
        memory.capture("the second note", kind="note")
        assert not auto.due(t + timedelta(minutes=29))
        assert auto.run(t + timedelta(minutes=31)) is not None
        assert len(backup.listing(fresh_data_dir)) == 2


def test_server_stores_are_not_backed_up_here(server_store, sentence_model):
    memory = Memory(server_store, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
    with pytest.raises(Exception, match="pg_dump"):
        memory.backup()
    assert not backup.AutoBackup(memory).due(datetime.now(UTC))


# -- the commands ----------------------------------------------------------------------------------


def test_the_commands_without_an_app(fresh_data_dir, tmp_path):
    data = fresh_data_dir
    assert cli("capture", "Buy lemons", "--kind", "note", data_dir=data).returncode == 0
    made = run_cli("backup", "--json", data_dir=data)  # a real process; the others in this one
    assert made.returncode == 0, made.stderr
    path = Path(json.loads(made.stdout)["path"])
    assert path.is_file() and path.parent == data / "backups"
    listed = cli("backups", "--json", data_dir=data)
    assert [b["path"] for b in json.loads(listed.stdout)] == [str(path)]
    assert json.loads(listed.stdout)[0]["tier"] == "recent"
    added = cli("capture", "Buy flour", "--kind", "note", data_dir=data).stdout.strip()
    done = cli("restore", path.name, "--json", data_dir=data)  # a name in backups/ will do
    assert done.returncode == 0, done.stderr
    assert "as it was before" in done.stderr
    assert json.loads(done.stdout)["neurons"] == 1
    assert cli("show", added, data_dir=data).returncode == 2  # gone with the restore
    bad = tmp_path / "bad.json.gz"
    bad.write_bytes(b"not a backup")
    refused = cli("restore", str(bad), data_dir=data)
    assert refused.returncode == 2 and "damaged" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_restore_goes_through_the_running_app(mem, tmp_path):
    """With an app listening on the data dir's socket, `neurons restore` runs on its Memory."""
    data = mem.store.settings.data_dir
    made = mem.backup()
    extra = mem.capture("made after the backup, in the app", kind="note")
    lock = instance.InstanceLock(data)
    assert lock.try_acquire()
    server = instance.InstanceServer(data, lambda m: commands.execute(mem, m["argv"]), lock)
    server.start()
    try:
        done = run_cli("restore", str(made.path), "--json", data_dir=data)
        assert done.returncode == 0, done.stderr
        listed = cli("backups", "--json", data_dir=data)
        assert str(made.path) in listed.stdout
    finally:
        server.stop()
        lock.release()
    assert json.loads(done.stdout)["restored"] == str(made.path)
    assert extra.id not in {r["id"] for r in rows_of(mem)["neurons"]}
    # and the id form of restore is unchanged: a trashed neuron becomes active again
    note = mem.capture("trashed, then restored", kind="note")
    mem.trash(note.id)
    again = commands.execute(mem, ["restore", "--json", "--", str(note.id)])
    assert again["code"] == 0 and json.loads(again["stdout"])["state"] == "active"
