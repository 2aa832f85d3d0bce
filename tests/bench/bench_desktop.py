"""Desktop benchmark (printed, never asserted): how soon the window is on screen and answers, and
what the app costs while it sits idle.

    .venv/bin/python -m tests.bench.bench_desktop [--runs 3] [--idle 30] [--dataset FILE]
                                                  [--neurons N --data-dir DIR]

On a data dir filled with a realistic memory (desktop.demo; or, with --neurons, the benches' store
of N neurons, tests/bench/built.py, kept in --data-dir), under a private Xvfb: for each run,
process start -> the main window is mapped (xwininfo), -> the memory is open (the app's
`status`), and -> the first answer to a question asked through the app's socket as soon as the
window shows; then, in the last run, after the background work has settled, the CPU time the app
and its engine (the Node child) use over `--idle` seconds, as a percentage of one core.
Needs Xvfb and xwininfo (packages xvfb, x11-utils).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

from core import instance
from tests.bench.xserver import window_viewable, xvfb
from tests.conftest import ROOT

SETTLE_S = 20  # after the memory is open: the index warms, the vectors of the demo are computed
FIRST_QUESTION = "what did I plan with Ana for the weekend?"


def mapped(display: str) -> bool:
    """The main window (WM_CLASS "Neurons") is viewable."""
    return window_viewable(display, r'"Neurons": \("[^"]*" "Neurons"\)')


def status(data: Path) -> dict:
    try:
        return instance.request(data, {"op": "status"}, timeout=5) or {}
    except instance.InstanceError:
        return {}


def cpu_seconds(proc: psutil.Process) -> tuple[float, float]:
    """(the app's, its children's) user+system CPU seconds so far."""
    own = proc.cpu_times()
    children = 0.0
    for child in proc.children(recursive=True):
        try:
            t = child.cpu_times()
            children += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return own.user + own.system, children


def first_answer(data: Path, t0: float, result: dict) -> None:
    """Ask through the app's socket as soon as it listens; when the answer came (from t0)."""
    while time.monotonic() - t0 < 300:
        try:
            reply = instance.command(data, ["ask", "--", FIRST_QUESTION], timeout=300)
        except instance.InstanceError:
            reply = None
        if reply is not None:
            result["answered"] = time.monotonic() - t0
            return
        time.sleep(0.02)


def one_run(data: Path, env: dict, display: str, idle_s: float | None) -> dict:
    t0 = time.monotonic()
    app = subprocess.Popen(
        [sys.executable, "-m", "desktop.launch", "--data-dir", str(data)],
        cwd=ROOT,
        env={**env, "DISPLAY": display},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    result: dict = {}
    try:
        while "shown" not in result or "ready" not in result or "answered" not in result:
            if "shown" not in result and mapped(display):
                result["shown"] = time.monotonic() - t0
                threading.Thread(target=first_answer, args=(data, t0, result), daemon=True).start()
            if "ready" not in result and status(data).get("ready"):
                result["ready"] = time.monotonic() - t0
            if time.monotonic() - t0 > 300:
                raise RuntimeError(f"the app did not show its window and answer in 300 s: {result}")
            time.sleep(0.02)
        if idle_s:
            time.sleep(SETTLE_S)
            proc = psutil.Process(app.pid)
            before, wall = cpu_seconds(proc), time.monotonic()
            time.sleep(idle_s)
            after, elapsed = cpu_seconds(proc), time.monotonic() - wall
            result["idle_app_pct"] = 100 * (after[0] - before[0]) / elapsed
            result["idle_engine_pct"] = 100 * (after[1] - before[1]) / elapsed
        instance.request(data, {"op": "quit"}, timeout=10)
        app.wait(60)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.bench_desktop")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--idle", type=float, default=30.0)
    p.add_argument("--dataset", default=str(ROOT.parent / "shared" / "eval" / "dev-personal.json"))
    p.add_argument("--neurons", type=int, help="the benches' store of this many neurons instead")
    p.add_argument("--data-dir", type=Path, help="keep (and reuse) that store here")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-bench-desktop-") as tmp:
        tmp_path = Path(tmp)
        data = (args.data_dir or tmp_path / "data").resolve()
        (tmp_path / "run").mkdir(mode=0o700)
        # (this process finds the app's socket through XDG_RUNTIME_DIR too)
        os.environ.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_RUNTIME_DIR=str(tmp_path / "run"))
        env = {**os.environ, "QT_QPA_PLATFORM": "xcb"}
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        if args.neurons:
            from tests.bench.built import ensure  # noqa: PLC0415 - the store only for --neurons

            ensure(data, args.neurons)
        else:
            subprocess.run(
                [sys.executable, "-m", "desktop.demo", "--data-dir", str(data), "--dataset", args.dataset],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
            )
        server, display = xvfb()
        try:
            runs = [
                one_run(data, env, display, args.idle if i == args.runs - 1 else None)
                for i in range(args.runs)
            ]
        finally:
            server.terminate()
            server.wait(10)
    shown = statistics.median(r["shown"] for r in runs)
    ready = statistics.median(r["ready"] for r in runs)
    answered = statistics.median(r["answered"] - r["shown"] for r in runs)
    each = ", ".join(f"{r['shown']:.2f}" for r in runs)
    print(f"window shown   median {shown:.2f} s over {args.runs} runs ({each}) (goal <= 2 s)")
    print(f"memory open    median {ready:.2f} s")
    each = ", ".join(f"{r['answered'] - r['shown']:.2f}" for r in runs)
    print(f"first answer   median {answered:.2f} s after the window ({each}) (goal <= 1 s)")
    last = runs[-1]
    print(
        f"idle CPU over {args.idle:.0f} s: app {last['idle_app_pct']:.2f} % of a core, "
        f"engine {last['idle_engine_pct']:.2f} %"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
