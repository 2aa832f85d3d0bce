"""Backup benchmark (printed, never asserted): what a backup of 10k neurons costs and blocks.

    python -m tests.bench.bench_backup [--neurons 10000] [--data-dir DIR] [--runs 3]

Two ways to take a consistent snapshot, on the same store:
  json    what core/backup.py does: every row read in one read transaction (the store is held
          for that read only), then serialised, compressed and written while captures go on
  pgdata  a copy of the engine's files after a CHECKPOINT, the store held for the whole copy
For each: how long the store is held (a capture waits at most that), the total time, the size;
and a capture loop running beside the JSON backups reports its worst latency. Then the cost of
checking and restoring a backup (unchanged rows are left alone; a restore after 100 edits).
Last, plain and sealed side by side (core/backup_elsewhere.py: the copy outside the data dir,
sealed with age/scrypt and read back): the time and the peak memory above the process's size
before (sampled every 5 ms) of a backup and of a restore of each. `--only-sealed` runs just that.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tarfile
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402 - after the path

from core import backup  # noqa: E402 - after the path
from core.memory import Memory  # noqa: E402 - after the path
from core.model import Identity  # noqa: E402 - after the path
from core.settings import Settings  # noqa: E402 - after the path
from core.store import snapshot  # noqa: E402 - after the path
from tests.bench.built import ensure  # noqa: E402 - after the path


def held_json(store) -> float:
    t = time.perf_counter()
    with store.reading() as cur:
        snapshot.read(cur)
        snapshot.stamp(cur)
    return time.perf_counter() - t


def pgdata_copy(store, target: Path) -> tuple[float, float, int, int]:
    """(held s, total s, bytes copied, bytes as tar.gz)."""
    t = time.perf_counter()
    with store._mutex:  # what such a backup must do: no write while the files are copied
        store.conn.execute("CHECKPOINT")
        shutil.copytree(store.engine.pgdata, target / "pgdata")
    held = time.perf_counter() - t
    archive = target / "pgdata.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(target / "pgdata", arcname="pgdata")
    total = time.perf_counter() - t
    copied = sum(f.stat().st_size for f in (target / "pgdata").rglob("*") if f.is_file())
    size = archive.stat().st_size
    shutil.rmtree(target / "pgdata")
    archive.unlink()
    return held, total, copied, size


def capture_latency_during(memory, work) -> tuple[float, float]:
    """(median, worst) ms of captures made in a loop while `work()` runs."""
    other = memory.as_identity(Identity(device_id=uuid.uuid4()))
    stop, lat = threading.Event(), []

    def loop():
        while not stop.is_set():
            t = time.perf_counter()
            other.capture("bench capture during a backup", kind="note")
            lat.append((time.perf_counter() - t) * 1000)
            time.sleep(0.01)

    thread = threading.Thread(target=loop)
    thread.start()
    time.sleep(0.3)
    work()
    stop.set()
    thread.join()
    return statistics.median(lat), max(lat)


PASSPHRASE = "bench passphrase, long enough"


def measured(work) -> tuple[float, float, object]:
    """(seconds, peak MiB above the RSS before, result) of `work()`."""
    me = psutil.Process()
    base = me.memory_info().rss
    peak, stop = [base], threading.Event()

    def sample():
        while not stop.is_set():
            peak[0] = max(peak[0], me.memory_info().rss)
            time.sleep(0.005)

    sampler = threading.Thread(target=sample)
    sampler.start()
    t = time.perf_counter()
    try:
        result = work()
    finally:
        took = time.perf_counter() - t
        stop.set()
        sampler.join()
    return took, (peak[0] - base) / 2**20, result


def plain_and_sealed(memory, folder: Path) -> list[tuple[str, float, float, str]]:
    """(what, seconds, peak MiB, size) of a backup and a restore, plain and sealed."""
    out = []
    took, mib, made = measured(memory.backup)
    out.append(("backup, plain (data dir)", took, mib, f"{made.size / 2**20:.2f} MiB"))
    took, mib, outcome = measured(lambda: memory.backup_elsewhere(to=folder, passphrase=PASSPHRASE))
    sealed = outcome.made
    out.append(("backup, sealed + read back", took, mib, f"{sealed.size / 2**20:.2f} MiB"))
    took, mib, _ = measured(lambda: memory.restore_backup(str(made.path)))
    out.append(("restore, plain", took, mib, ""))
    took, mib, _ = measured(lambda: memory.restore_backup(str(sealed.path), passphrase=PASSPHRASE))
    out.append(("restore, sealed", took, mib, ""))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--neurons", type=int, default=10_000)
    p.add_argument("--data-dir", type=Path, help="keep (and reuse) the built data dir here")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--only-sealed", action="store_true", help="only plain and sealed side by side")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-backupbench-") as tmp:
        data_dir = (args.data_dir or Path(tmp) / "data").resolve()
        ensure(data_dir, args.neurons)
        with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
            load = os.getloadavg()
            (Path(tmp) / "elsewhere").mkdir()
            sides = plain_and_sealed(memory, Path(tmp) / "elsewhere")
            print(
                f"plain and sealed, {memory.count()} neurons (load average {load[0]:.1f} on "
                f"{os.cpu_count()} cores)"
            )
            for what, took, mib, size in sides:
                print(f"  {what:<28} {took:7.2f} s  peak +{mib:6.0f} MiB  {size}")
            if args.only_sealed:
                return 0
            store = memory.store
            rows = {}
            for name in ("json held", "json total", "pgdata held", "pgdata total"):
                rows[name] = []
            sizes = {}
            for _ in range(args.runs):
                rows["json held"].append(held_json(store))
                t = time.perf_counter()
                made = memory.backup()
                rows["json total"].append(time.perf_counter() - t)
                sizes["json"] = made.size
                held, total, copied, packed = pgdata_copy(store, Path(tmp))
                rows["pgdata held"].append(held)
                rows["pgdata total"].append(total)
                sizes["pgdata"], sizes["pgdata.tar.gz"] = copied, packed
            during = capture_latency_during(memory, lambda: [memory.backup() for _ in range(3)])
            alone = capture_latency_during(memory, lambda: time.sleep(1.0))
            t = time.perf_counter()
            backup.load(made.path)
            check = time.perf_counter() - t
            t = time.perf_counter()
            memory.restore_backup(str(made.path))
            same = time.perf_counter() - t
            mine = str(memory.identity.device_id)
            ids = [r["id"] for r in backup.load(made.path)["neurons"] if r["device_id"] == mine][:100]
            for nid in ids:
                memory.edit(nid, text="edited before the restore")
            t = time.perf_counter()
            memory.restore_backup(str(made.path))
            changed = time.perf_counter() - t
            count = memory.count()
    print(f"backup of {count} neurons, {args.runs} runs (median seconds)")
    for name, xs in rows.items():
        print(f"  {name:<14} {statistics.median(xs):7.3f} s")
    ratio = statistics.median(rows["pgdata held"]) / statistics.median(rows["json held"])
    print(f"  the store is held {ratio:.1f}x longer by a pgdata copy than by the JSON read")
    print(
        f"  sizes: json.gz {sizes['json'] / 2**20:.2f} MiB, pgdata {sizes['pgdata'] / 2**20:.1f} MiB"
        f" ({sizes['pgdata.tar.gz'] / 2**20:.1f} MiB as tar.gz)"
    )
    print(
        f"  a capture beside 3 JSON backups: median {during[0]:.1f} ms, worst {during[1]:.0f} ms"
        f" (alone: median {alone[0]:.1f} ms, worst {alone[1]:.0f} ms)"
    )
    print(
        f"  check a backup {check:.2f} s; restore it unchanged {same:.2f} s, after 100 edits"
        f" {changed:.2f} s (both include the backup taken first)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
