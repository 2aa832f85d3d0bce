"""Backups in a second place (core/backup_elsewhere.py): sealed with a passphrase kept in a real
keyring backend (the tests' in-memory one: there is no secure OS keyring headless), readable by
no one without it, restored exactly on a fresh data dir, refused with a wrong passphrase or a
damaged file; an unplugged or full folder is reported once and retried, never fatal; a process
killed with SIGKILL while it writes one leaves no file that looks complete."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core import backup, config
from core import backup_elsewhere as elsewhere
from core.backup import CorruptBackup, PassphraseNeeded
from core.memory import Memory
from core.settings import Settings, default_model_dir
from core.store import secrets
from tests.conftest import ROOT, run_cli
from tests.core.test_backup import fill, rows_of

MODEL = default_model_dir()
PASSPHRASE = "correct horse battery staple"


def choose_folder(data_dir: Path, folder: Path) -> None:
    config.save(data_dir, dataclasses.replace(config.load(data_dir), backup_dir=str(folder)))


@pytest.fixture(scope="module")
def mem(tmp_path_factory):
    memory = Memory.open(
        Settings(
            data_dir=tmp_path_factory.mktemp("elsewhere") / "data", model_dir=MODEL, embed_in_background=False
        )
    )
    fill(memory)
    yield memory
    memory.close()


def strip_device(rows: dict) -> dict:
    return {
        table: [{k: v for k, v in r.items() if k != "device_id"} for r in items]
        for table, items in rows.items()
    }


def test_a_sealed_copy_holds_nothing_readable_and_restores_exactly_on_a_fresh_data_dir(mem, tmp_path, kept):
    data_dir = mem.store.settings.data_dir
    usb = tmp_path / "usb"
    usb.mkdir()
    choose_folder(data_dir, usb)
    secrets.save_backup_passphrase(data_dir, PASSPHRASE)
    assert list(kept.items.values()) == [PASSPHRASE]  # in the keyring, nowhere else
    theirs = rows_of(mem)
    local = mem.backup()
    outcome = mem.backup_elsewhere()
    made = outcome.made
    assert outcome.problem is None and made is not None and made.sealed
    assert made.path.parent == elsewhere.subfolder(usb, mem.store.device_id())
    assert made.path.name == local.path.name + ".age"
    assert stat.S_IMODE(made.path.stat().st_mode) == 0o600
    raw = made.path.read_bytes()
    first, _, rest = raw.partition(b"\n")
    assert first == b"neurons-sealed-backup/1 age-encryption.org/v1 neurons/" + backup.__version__.encode()
    assert rest.startswith(b"age-encryption.org/v1\n-> scrypt ")
    # nothing of the memory in the clear: no text, name, number, count, id or format of the rows
    for secret in (b"Ana", b"Silva", b"912", b"dentist", b"Rosa", b"counts", b"neurons_edges", b"gzip"):
        assert secret.lower() not in raw.lower(), secret
    assert str(mem.store.device_id()).encode() not in raw
    assert mem.backup_elsewhere().made is None  # up to date: not sealed twice
    status = elsewhere.status(data_dir)
    assert status["problem"] is None and status["last_ok"]["neurons"] == len(theirs["neurons"])
    assert "read back whole" in mem.doctor()["backup_elsewhere"]

    with Memory.open(
        Settings(data_dir=tmp_path / "new-machine", model_dir=MODEL, embed_in_background=False)
    ) as fresh:
        before = rows_of(fresh)
        for wrong in ("not the passphrase", None):
            with pytest.raises(PassphraseNeeded):
                fresh.restore_backup(str(made.path), passphrase=wrong)
        assert rows_of(fresh) == before  # refused: nothing changed
        done = fresh.restore_backup(str(made.path), passphrase=PASSPHRASE)
        assert done["neurons"] == len(theirs["neurons"])
        mine = rows_of(fresh)
        assert strip_device(mine) == strip_device(theirs)  # every row, link, state and date
        assert {r["device_id"] for r in mine["neurons"] if r["device_id"]} == {str(fresh.identity.device_id)}
        assert fresh.count() == mem.count()
        # vectors are made again for the restored text
        assert fresh.fill_vectors() > 0 and fresh.pending_vectors() == 0


def test_a_damaged_sealed_copy_is_refused_in_one_line(mem, tmp_path, kept):
    data_dir = mem.store.settings.data_dir
    secrets.save_backup_passphrase(data_dir, PASSPHRASE)
    mem.backup()
    made = mem.backup_elsewhere(to=tmp_path).made
    assert made is not None
    raw = made.path.read_bytes()
    damaged = {
        "truncated": raw[: len(raw) - 40],
        "a flipped byte in the payload": raw[:-20] + bytes([raw[-20] ^ 1]) + raw[-19:],
        "a flipped byte in the header": raw.replace(b"-> scrypt ", b"-> scrypt X", 1),
        "no first line": raw.partition(b"\n")[2],
    }
    before = rows_of(mem)
    for what, data in damaged.items():
        path = tmp_path / f"damaged-{len(data)}.json.gz.age"
        path.write_bytes(data)
        with pytest.raises(CorruptBackup) as refused:
            mem.restore_backup(str(path), passphrase=PASSPHRASE)
        message = str(refused.value)
        assert "\n" not in message and "nothing was restored" in message, (what, message)
    assert rows_of(mem) == before


def test_an_unplugged_folder_is_reported_once_and_retried(mem, tmp_path, kept, caplog):
    data_dir = mem.store.settings.data_dir
    secrets.save_backup_passphrase(data_dir, PASSPHRASE)
    usb = tmp_path / "usb"
    usb.mkdir()
    choose_folder(data_dir, usb)
    usb.rmdir()  # unplugged
    auto = backup.AutoBackup(mem)
    mem.capture("a change to back up", kind="note")
    t = datetime.now(UTC) + timedelta(hours=1)
    caplog.set_level(logging.INFO, logger="core.backup")
    assert auto.run(t) is not None  # the backup in the data dir is made all the same
    assert auto.run(t + timedelta(minutes=5)) is None  # nothing due here: only the retry
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and r.name == "core.backup"]
    assert len(warnings) == 1 and str(usb) in warnings[0].getMessage()
    assert "unplugged" in warnings[0].getMessage()
    status = elsewhere.status(data_dir)
    assert "unplugged" in status["problem"]["message"]
    assert "failing since" in mem.doctor()["backup_elsewhere"]
    usb.mkdir()  # plugged in again
    auto.run(t + timedelta(minutes=10))
    copies = backup.listing_in(elsewhere.subfolder(usb, mem.store.device_id()))
    assert [c.path.name for c in copies] == [backup.listing(data_dir)[0].path.name + ".age"]
    assert elsewhere.status(data_dir)["problem"] is None
    assert len([r for r in caplog.records if r.levelno == logging.WARNING and r.name == "core.backup"]) == 1
    assert any("works again" in r.getMessage() for r in caplog.records)


def test_without_a_passphrase_nothing_is_written_elsewhere(mem, tmp_path, kept):
    data_dir = mem.store.settings.data_dir
    secrets.forget_backup_passphrase(data_dir)
    usb = tmp_path / "usb"
    usb.mkdir()
    choose_folder(data_dir, usb)
    mem.backup()
    outcome = mem.backup_elsewhere()
    assert outcome.made is None and "no backup passphrase is set" in (outcome.problem or "")
    assert list(usb.iterdir()) == []


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_a_full_folder_is_a_problem_not_a_failure(mem, small_disk, kept):
    data_dir = mem.store.settings.data_dir
    secrets.save_backup_passphrase(data_dir, PASSPHRASE)
    choose_folder(data_dir, small_disk)
    with open(small_disk / "filler", "wb", buffering=0) as f:  # the disk full
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    made = mem.backup()
    outcome = mem.backup_elsewhere()
    assert made.path.exists() and outcome.made is None
    assert "is full" in (outcome.problem or ""), outcome.problem
    place = elsewhere.subfolder(small_disk, mem.store.device_id())
    assert not place.exists() or backup.listing_in(place) == []  # nothing half-written looks whole
    assert not place.exists() or not any(p.name.endswith(".tmp") for p in place.iterdir())
    (small_disk / "filler").unlink()
    assert mem.backup_elsewhere().made is not None  # retried: space is back


# -- the command line ------------------------------------------------------------------------------


def test_the_commands_back_up_elsewhere_and_restore_on_a_fresh_data_dir(tmp_path):
    data, fresh, usb = tmp_path / "data", tmp_path / "fresh", tmp_path / "usb"
    usb.mkdir()
    env = {secrets.PASSPHRASE_ENV: PASSPHRASE}
    assert run_cli("capture", "Buy lemons for Ana", "--kind", "note", data_dir=data).returncode == 0
    inside = run_cli("config", "set", "backup-dir", str(data / "pgdata"), data_dir=data)
    assert inside.returncode == 2 and "inside the data dir" in inside.stderr
    missing = run_cli("config", "set", "backup-dir", str(tmp_path / "nowhere"), data_dir=data)
    assert missing.returncode == 2 and "no folder" in missing.stderr
    said = run_cli(
        "config", "set", "backup-passphrase", "--passphrase-stdin", data_dir=data, input="secret12\n"
    )
    assert said.returncode == 2 and "no secure OS keyring" in said.stderr  # none headless: never a file
    refused = run_cli("backup", "--to", str(usb), data_dir=data)  # no passphrase: nothing done
    assert refused.returncode == 2 and "no backup passphrase" in refused.stderr
    assert backup.listing(data) == [] and list(usb.iterdir()) == []
    made = run_cli("backup", "--to", str(usb), "--json", data_dir=data, env=env)
    assert made.returncode == 0, made.stderr
    sealed = Path(json.loads(made.stdout)["elsewhere"]["path"])
    assert sealed.is_file() and sealed.parent.parent == usb
    assert run_cli("config", "set", "backup-dir", str(usb), data_dir=data).returncode == 0
    listed = json.loads(run_cli("backups", "--json", data_dir=data).stdout)
    assert [(b["place"], b["sealed"]) for b in listed] == [("data dir", False), ("backup folder", True)]
    assert "read back whole" in run_cli("doctor", data_dir=data).stdout

    wrong = run_cli("restore", str(sealed), "--passphrase-stdin", data_dir=fresh, input="wrong passphrase\n")
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "does not open" in wrong.stderr
    asked = run_cli("restore", str(sealed), data_dir=fresh, input="")  # no terminal, no passphrase
    assert asked.returncode == 2 and "--passphrase-stdin" in asked.stderr
    assert json.loads(run_cli("list", "--json", data_dir=fresh).stdout) == []
    done = run_cli("restore", str(sealed), "--passphrase-stdin", data_dir=fresh, input=PASSPHRASE + "\n")
    assert done.returncode == 0, done.stderr
    rows = json.loads(run_cli("list", "--json", data_dir=fresh).stdout)
    assert [r["body"] for r in rows] == ["Buy lemons for Ana"]


# -- kill -9 while a sealed copy is written --------------------------------------------------------

# The child: the real `neurons backup --to`, on a disk that writes the backup folder slowly (each
# write there sleeps), so that the test can kill it in the middle of one.
SLOW_DISK = textwrap.dedent(
    """
    import os, sys, time
    folder = sys.argv[1]
    real_write = os.write
    def slow_write(fd, data):
        try:
            where = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            where = ""
        if where.startswith(folder):
            data = bytes(data[:512])
            time.sleep(0.05)
        return real_write(fd, data)
    os.write = slow_write
    from core.cli import main
    sys.exit(main(sys.argv[2:]))
    """
)


def test_a_kill_while_a_sealed_copy_is_written_leaves_no_file_that_looks_whole(tmp_path):
    data, usb = tmp_path / "data", tmp_path / "usb"
    usb.mkdir()
    with Memory.open(Settings(data_dir=data, model_dir=MODEL, embed_in_background=False)) as memory:
        for i in range(40):  # a backup of a few kilobytes: many slow writes
            memory.capture(f"note number {i} " + os.urandom(100).hex(), kind="note")
    env = {**os.environ, secrets.PASSPHRASE_ENV: PASSPHRASE, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW_DISK, str(usb), "--data-dir", str(data), "backup", "--to", str(usb)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    place, deadline, seen = None, time.monotonic() + 120, []
    try:
        while time.monotonic() < deadline and child.poll() is None:
            places = list(usb.glob("neurons-*"))
            seen = [p for p in places[0].iterdir() if p.stat().st_size > 0] if places else []
            if seen:
                place = places[0]
                break
            time.sleep(0.01)
        assert child.poll() is None, "the child ended before it wrote the copy"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.kill()
        child.wait()
    assert place is not None
    assert backup.listing_in(place) == []  # no file that looks like a whole backup
    assert all(p.name.endswith(".tmp") for p in place.iterdir())  # only the temp it was writing
    # the next backup there is whole, and the dead process's temp file is gone
    again = run_cli("backup", "--to", str(usb), data_dir=data, env={secrets.PASSPHRASE_ENV: PASSPHRASE})
    assert again.returncode == 0, again.stderr
    (whole,) = backup.listing_in(place)
    assert [p.name for p in place.iterdir()] == [whole.path.name]
    assert len(backup.load(whole.path, PASSPHRASE)["neurons"]) == 40
