"""A full disk: a capture fails within seconds with "the disk holding ... is
full", loses nothing acknowledged, and works again when space returns. A real small file system
(tmpfs, mounted here: needs root, as in CI)."""

from __future__ import annotations

import os
import subprocess
import time
import uuid

import pytest

from core.files import DiskFull
from core.memory import Memory
from core.model import Identity
from core.settings import Settings
from core.store import Store
from core.store.durable import MIN_FREE_BYTES, free_bytes
from tests.conftest import cli, run_cli

DISK_MB = 160


@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small file system needs root")
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_MB}m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk, leave: int) -> None:
    """Leave about `leave` bytes free on `disk`."""
    with open(disk / "filler", "ab") as f:
        f.write(b"\0" * max(0, free_bytes(disk) - leave))


def test_a_capture_on_a_full_disk_fails_fast_and_works_again(small_disk):
    settings = Settings(data_dir=small_disk / "data", embed_in_background=False)
    with Store(settings) as store:
        memory = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
        kept = [memory.capture(f"before the disk filled {i}", kind="note").id for i in range(3)]
        fill(small_disk, MIN_FREE_BYTES // 2)
        t0 = time.monotonic()
        with pytest.raises(DiskFull, match=r"the disk holding .* is full"):
            memory.capture("while the disk is full", kind="note")
        assert time.monotonic() - t0 < 10
        assert sorted(n.id for n in memory.list()) == sorted(kept)  # reads still work
        (small_disk / "filler").unlink()
        kept.append(memory.capture("space is back", kind="note").id)
        device = memory.identity
    with Store(settings) as store:
        assert sorted(n.id for n in Memory(store, device, owns_store=False).list()) == sorted(kept)


@pytest.mark.slow  # `neurons` processes, each starting the engine
def test_the_cli_on_a_nearly_full_disk_says_so_instead_of_hanging(small_disk):
    data = small_disk / "data"
    first = cli("capture", "before", "--kind", "note", data_dir=data)
    assert first.returncode == 0, first.stderr
    fill(small_disk, 300 * 1024)  # a few hundred KB: the engine used to hang checkpointing
    for _ in range(3):
        done = run_cli("capture", "x" * 20000, "--kind", "note", data_dir=data, timeout=60)
        assert done.returncode == 2
        assert "the disk holding" in done.stderr and "is full" in done.stderr
        assert "Traceback" not in done.stderr
    fill(small_disk, 0)  # nothing left: not even the lock record can be written
    done = run_cli("capture", "nothing left", "--kind", "note", data_dir=data, timeout=60)
    assert done.returncode == 2 and "is full" in done.stderr and "Traceback" not in done.stderr
    (small_disk / "filler").unlink()
    again = cli("capture", "after", "--kind", "note", data_dir=data)
    assert again.returncode == 0, again.stderr
    listing = cli("list", data_dir=data)
    assert "before" in listing.stdout and "after" in listing.stdout
