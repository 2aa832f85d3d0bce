"""Memory benchmark (printed, never asserted): what the running app and its engine keep resident.

    python -m tests.bench.bench_memory [--neurons 10000] [--data-dir DIR] [--no-parts]

1. Builds a data dir of N neurons (tests/bench/built.py: the recall bench's texts, links,
   reminders, contacts, real vectors) owned by the data dir's own device, so the app shows them
   (kept with --data-dir; the recall index it saved at the last quit, if any, is used).
2. Runs the real desktop app offscreen (desktop.launch's main, --no-tray), waits until its memory is
   open and the recall index warm ("idle"), forwards a few commands (ask, about, list, capture)
   and waits until it is idle again ("used"), then until its now-and-then let the unused model go
   ("quiet": MODEL_IDLE shortened to RELEASE_AFTER_S), and prints the RSS and PSS of the app and
   of its Node engine, with the resident memory by kind (the PGlite WASM heap, Node's binary,
   malloc, the rest).
3. Unless --no-parts: the same steps in one plain process (imports, Qt, the store, the model, the
   recall index, questions; malloc set as the app sets it), with what each step adds to its RSS.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402 - after the path

from tests.bench.apps import env, start_app  # noqa: E402 - after the path
from tests.bench.built import ensure  # noqa: E402 - after the path

QUESTIONS = (
    "what did Ana say about the dentist",
    "birthday presents",
    "when is the flight",
    "the plumber's phone",
    "notes from last week",
    "what do I know about Lisbon",
)
# The app is idle when its CPU time grows by less than this over IDLE_WINDOW_S.
IDLE_CPU_S = 0.05
IDLE_WINDOW_S = 2.0
MIB = 2**20
# The real app, with its now-and-then (core/backup.py CHECK_EVERY) and the model's idle time
# (core/resident.py MODEL_IDLE) shortened to this, so the bench sees the model let go.
RELEASE_AFTER_S = 10
APP = (
    "import sys; from datetime import timedelta; import core.backup, core.resident; "
    "core.backup.CHECK_EVERY = core.resident.MODEL_IDLE = timedelta(seconds=float(sys.argv.pop(1))); "
    "from desktop.launch import main; sys.exit(main())"
)


def build_data_dir(data_dir: Path, n: int) -> None:
    """N neurons owned by the data dir's own device (what the app opens): tests/bench/built.py."""
    ensure(data_dir, n)


# -- reading a process's memory ---------------------------------------------------------------------


def _regions(pid: int) -> list[dict]:
    out: list[dict] = []
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            head = re.match(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$", line)
            if head:
                out.append(
                    {
                        "lo": int(head[1], 16),
                        "hi": int(head[2], 16),
                        "perm": head[3],
                        "name": head[4],
                        "Rss": 0,
                        "Pss": 0,
                    }
                )
            elif line.startswith(("Rss:", "Pss:")):
                key, value = line.split(":")
                out[-1][key] = int(value.split()[0]) * 1024
    return out


def breakdown(pid: int) -> dict[str, float]:
    """Resident MiB by kind. V8 reserves the address space after a WASM memory (>= 1 GiB of
    PROT_NONE guard): the committed region just before such a reservation is the WASM heap."""
    regions = _regions(pid)
    kinds: dict[str, float] = {}
    for i, r in enumerate(regions):
        after = regions[i + 1] if i + 1 < len(regions) else None
        guard = after is not None and after["perm"] == "---p" and after["lo"] == r["hi"]
        if r["name"].startswith("/"):
            kind = "files (code, libraries)"
        elif r["name"] == "[heap]":
            kind = "malloc heap"
        elif r["name"]:
            kind = "other"
        elif guard and after["hi"] - after["lo"] >= 2**30 and r["perm"].startswith("rw"):
            kind = "WASM heap"
        elif guard and (r["hi"] - r["lo"]) + (after["hi"] - after["lo"]) == 64 * MIB:
            kind = "thread malloc arenas"
        else:
            kind = "other anonymous"
        kinds[kind] = kinds.get(kind, 0.0) + r["Rss"] / MIB
    return kinds


def usage(pid: int) -> tuple[float, float]:
    """(RSS, PSS) in MiB."""
    values = {}
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("Rss", "Pss"):
                values[key] = int(rest.split()[0]) / 1024
    return values["Rss"], values["Pss"]


# -- the real app ---------------------------------------------------------------------------------


def _cli(data_dir: Path, *argv: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "core.cli", "--data-dir", str(data_dir), *argv],
        cwd=ROOT,
        env=env(),
        check=True,
        capture_output=True,
    )


def _wait_idle(proc: psutil.Process, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    before = sum(proc.cpu_times()[:2])
    while time.monotonic() < deadline:
        time.sleep(IDLE_WINDOW_S)
        now = sum(proc.cpu_times()[:2])
        if now - before < IDLE_CPU_S:
            return
        before = now


def measure_app(data_dir: Path) -> dict:
    app, ready_s = start_app(data_dir, ["-c", APP, str(RELEASE_AFTER_S)])
    row: dict = {"ready_s": ready_s}
    try:
        proc = psutil.Process(app.pid)
        _wait_idle(proc)  # the recall index is built and the model loaded on the worker
        engine = next(p for p in proc.children(recursive=True) if "node" in p.name())
        row["idle"] = {"app": usage(app.pid), "engine": usage(engine.pid)}
        for question in QUESTIONS:
            _cli(data_dir, "ask", question)
        _cli(data_dir, "about", "Ana")
        _cli(data_dir, "list")
        _cli(data_dir, "capture", "Memory bench: call the plumber on Friday at 9")
        _wait_idle(proc)
        row["used"] = {"app": usage(app.pid), "engine": usage(engine.pid)}
        row["engine_kinds"] = breakdown(engine.pid)
        row["app_kinds"] = breakdown(app.pid)
        time.sleep(3 * RELEASE_AFTER_S)  # the app's now-and-then lets the unused model go
        row["quiet"] = {"app": usage(app.pid), "engine": usage(engine.pid)}
    finally:
        app.terminate()
        app.wait(timeout=60)
    return row


# -- the parts, one by one --------------------------------------------------------------------------

PARTS = r"""
import json, os, sys  # noqa: E402 - after the path
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) / 1024 for l in f if l.startswith("VmRSS"))
steps, last = [], rss()
def step(label):
    global last
    now = rss(); steps.append((label, now, now - last)); last = now
from core import resident  # noqa: E402 - after the path
resident.keep_small()  # as the app does
step("python")
import numpy; step("import numpy")  # noqa: E402 - after the path
import psycopg; step("import psycopg")  # noqa: E402 - after the path
from PySide6 import QtWidgets; step("import PySide6")  # noqa: E402 - after the path
import core.memory, desktop.app; step("import core, desktop")  # noqa: E402 - after the path
qapp = QtWidgets.QApplication([]); step("QApplication")
from core.memory import Memory  # noqa: E402 - after the path
from core.settings import Settings  # noqa: E402 - after the path
m = Memory.open(Settings.from_env(data_dir=sys.argv[1], embed_in_background=False)); step("open the store")
m.model.get(); step("load the model")
m.recall.warm(); resident.trim(); step("recall index (warm)")
for q in json.loads(sys.argv[2]): m.ask(q)
step("questions")
m.about("Ana"); step("about")
m.model.release_if_idle(0); resident.trim(); step("model let go")
print(json.dumps(steps))
m.close()
"""


def measure_parts(data_dir: Path) -> list:
    out = subprocess.run(
        [sys.executable, "-c", PARTS, str(data_dir), json.dumps(QUESTIONS)],
        cwd=ROOT,
        env=env(),
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--neurons", type=int, default=10_000)
    p.add_argument("--data-dir", type=Path, help="keep (and reuse) the built data dir here")
    p.add_argument("--no-parts", action="store_true", help="skip the step-by-step process")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-membench-") as tmp:
        data_dir = (args.data_dir or Path(tmp) / "data").resolve()
        build_data_dir(data_dir, args.neurons)
        row = measure_app(data_dir)
        parts = None if args.no_parts else measure_parts(data_dir)
    print(f"memory at {args.neurons} neurons (MiB; PSS shares libraries between processes)")
    print(f"app ready in {row['ready_s']:.1f}s")
    # with the model loaded (idle, used): goal 500 MB; in the tray, the model let go: goal 400
    for phase, goal in (("idle", 500), ("used", 500), ("quiet", 400)):
        app, engine = row[phase]["app"], row[phase]["engine"]
        print(
            f"{phase:>5}  app RSS {app[0]:6.0f} PSS {app[1]:6.0f}   engine RSS {engine[0]:6.0f} "
            f"PSS {engine[1]:6.0f}   total RSS {app[0] + engine[0]:6.0f} PSS "
            f"{app[1] + engine[1]:6.0f}   (goal {goal}: {(app[0] + engine[0]) / goal:.2f}x)"
        )
    for who in ("engine", "app"):
        kinds = row[f"{who}_kinds"]
        print(
            f"{who} resident by kind: "
            + ", ".join(f"{k} {v:.0f}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]) if v >= 0.5)
        )
    if parts:
        print("one process, step by step (RSS MiB, what the step added):")
        for label, now, added in parts:
            print(f"  {label:<22} {now:7.1f}  {added:+7.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
