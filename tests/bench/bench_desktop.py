"""Desktop benchmark (printed, never asserted): how soon the window is on screen, and how soon it
answers the first question typed into it.

    .venv/bin/python -m tests.bench.bench_desktop [--runs 5] [--neurons N --data-dir DIR]
                                                  [--against REV|DIR] [--idle S] [--dataset FILE]

The real app (`desktop.launch`), one process per run, under a private Xvfb, on a data dir filled
with a realistic memory (desktop.demo; or, with --neurons, the benches' store of N neurons,
tests/bench/built.py, kept in --data-dir and copied for each side, so no run changes it). A run:
process start -> the main window is viewable (xwininfo), then the question is typed into the
window with real key events (xdotool) and Enter pressed, until the window shows its answers (a
probe in the app's process notes when the list of answers is filled; the app's code is not
changed for it).

`--against` runs another version of the app in the same sitting, alternating with this checkout
run by run (ABBA), on a copy of the same store: a git revision (exported to a temporary folder,
its model and PGlite runtime taken from this checkout) or the folder of another checkout. The
medians of each side and their ratios are printed. `--idle S`: in the last run, after the
background work settled, the CPU the app and its engine use over S seconds.
Needs Xvfb, xwininfo and xdotool (packages xvfb, x11-utils, xdotool).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import psutil

from core import instance
from tests.bench.xserver import window_viewable, xvfb
from tests.conftest import ROOT

SETTLE_S = 20  # after the memory is open: the index warms, the vectors of the demo are computed
FIRST_QUESTION = "what did I plan with Ana for the weekend?"
WAIT_S = 300  # a run that has not shown its window and answered by then failed
TYPE_DELAY_MS = 8  # between two keys of the question (xdotool's default is 12)

# Run in the app's process before desktop.launch: marks (with CLOCK_MONOTONIC, which this process
# reads too) when the main window filled its list with the answers to a question. It patches the
# window's class once its module is imported, and leaves the launch's own import order alone.
PROBE = """
import importlib.abc, importlib.util, os, runpy, sys, time
out = open(os.environ["NEURONS_BENCH_PROBE"], "a", buffering=1)

def patch(module):
    cls = module.MainWindow
    show_page = cls._show_page
    def _show_page(self, *args, **kwargs):
        show_page(self, *args, **kwargs)
        if self.list_title.text().startswith("Answers for"):
            out.write(f"answered {time.monotonic():.4f} {self.rows.count()}\\n")
    cls._show_page = _show_page

class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "desktop.window.main_window":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        load = spec.loader.exec_module
        def exec_module(module):
            load(module)
            patch(module)
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Finder())
sys.argv = ["neurons-desktop", *sys.argv[1:]]
runpy.run_module("desktop.launch", run_name="__main__")
"""


def mapped(display: str) -> bool:
    """The main window (WM_CLASS "Neurons") is viewable."""
    return window_viewable(display, r'"Neurons": \("[^"]*" "Neurons"\)')


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


def answered_at(probe: Path) -> float | None:
    if not probe.exists():
        return None
    for line in probe.read_text().splitlines():
        what, at, *_ = line.split()
        if what == "answered":
            return float(at)
    return None


def said(probe: Path) -> str:
    """The end of what the app wrote on stderr."""
    return (probe.parent / "app.log").read_text()[-3000:]


def type_question(display: str) -> None:
    """The question typed into the window (the ask box has the keys at start), then Enter. With no
    window manager on the screen, the window is given the keyboard first."""
    env = {**os.environ, "DISPLAY": display}
    subprocess.run(
        ["xdotool", "search", "--sync", "--onlyvisible", "--classname", "Neurons", "windowfocus", "--sync"],
        env=env,
        check=True,
        capture_output=True,
    )
    subprocess.run(["xdotool", "type", "--delay", str(TYPE_DELAY_MS), FIRST_QUESTION], env=env, check=True)
    subprocess.run(["xdotool", "key", "Return"], env=env, check=True)


def current(data: Path) -> None:
    """The bench store brought to this checkout's schema, its recall index saved as it is, once
    before it is copied: otherwise every run pays a migration of the whole store (5 s at 100k)
    and reads what its file misses from the store."""
    from core.memory import Memory  # noqa: PLC0415 - the store only for --neurons
    from core.settings import Settings  # noqa: PLC0415 - as above

    with Memory.open(Settings.from_env(data_dir=data, embed_in_background=False)) as memory:
        memory.recall.warm()


def one_run(code: Path, data: Path, env: dict, display: str, probe: Path, idle_s: float | None) -> dict:
    probe.unlink(missing_ok=True)
    t0 = time.monotonic()
    app = subprocess.Popen(
        [sys.executable, "-c", PROBE, "--data-dir", str(data), "--no-tray"],
        cwd=code,
        env={**env, "DISPLAY": display, "PYTHONPATH": str(code), "NEURONS_BENCH_PROBE": str(probe)},
        stdout=subprocess.DEVNULL,
        stderr=(probe.parent / "app.log").open("w"),
    )
    result: dict = {}
    try:
        while not mapped(display):
            if time.monotonic() - t0 > WAIT_S or app.poll() is not None:
                raise RuntimeError(f"the app ({code}) did not show its window: {said(probe)}")
            time.sleep(0.01)
        result["shown"] = time.monotonic() - t0
        type_question(display)
        result["entered"] = time.monotonic() - t0
        while (at := answered_at(probe)) is None:
            if time.monotonic() - t0 > WAIT_S or app.poll() is not None:
                raise RuntimeError(f"the app ({code}) did not answer in the window: {said(probe)}")
            time.sleep(0.01)
        result["answered"] = at - t0
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


def checkout(against: str, into: Path) -> Path:
    """The code to compare with: a folder holding another checkout, or a git revision of this one
    exported into `into` (with this checkout's model and PGlite runtime beside it)."""
    folder = Path(against)
    if (folder / "desktop" / "launch.py").exists():
        return folder.resolve()
    into.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", against, "core", "desktop", "resources"],
        check=True,
        capture_output=True,
    ).stdout
    tar_path = into.parent / "code.tar"
    tar_path.write_bytes(archive)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into, filter="data")
    tar_path.unlink()
    for part in ("resources/model", "resources/pglite/node_modules"):
        target = into / part  # (neither is in git: setup makes them)
        if not target.exists():
            target.symlink_to((ROOT / part).resolve())
    return into


def table(sides: dict[str, list[dict]]) -> list[str]:
    def med(runs: list[dict], key) -> float:
        return statistics.median(key(r) for r in runs)

    rows = [
        ("window shown after launch", lambda r: r["shown"]),
        ("question typed + Enter", lambda r: r["entered"] - r["shown"]),
        ("answer shown after the window", lambda r: r["answered"] - r["shown"]),
        ("answer shown after Enter", lambda r: r["answered"] - r["entered"]),
    ]
    names = list(sides)
    head = f"{'median over ' + str(len(sides[names[0]])) + ' runs (s)':<34}" + "".join(
        f"{n:>12}" for n in names
    )
    out = [head + ("       ratio" if len(names) == 2 else "")]
    for label, key in rows:
        values = [med(sides[n], key) for n in names]
        line = f"{label:<34}" + "".join(f"{v:>12.2f}" for v in values)
        if len(values) == 2 and values[1] > 0:
            line += f"{values[0] / values[1]:>11.2f}x"
        out.append(line)
    for n in names:
        each = ", ".join(f"{r['answered'] - r['shown']:.2f}" for r in sides[n])
        out.append(f"  {n}: answer after the window, each run: {each}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.bench_desktop")
    p.add_argument("--runs", type=int, default=5, help="launches of each side")
    p.add_argument("--idle", type=float, default=0.0, help="idle CPU over this many seconds (last run)")
    p.add_argument("--dataset", default=str(ROOT.parent / "shared" / "eval" / "dev-personal.json"))
    p.add_argument("--neurons", type=int, help="the benches' store of this many neurons instead")
    p.add_argument("--data-dir", type=Path, help="keep (and reuse) that store here")
    p.add_argument("--against", help="a git revision or another checkout's folder to compare with")
    args = p.parse_args(argv)
    for tool in ("Xvfb", "xwininfo", "xdotool"):
        if shutil.which(tool) is None:
            raise SystemExit(f"bench_desktop needs {tool} (apt: xvfb x11-utils xdotool)")
    with tempfile.TemporaryDirectory(prefix="neurons-bench-desktop-") as tmp:
        tmp_path = Path(tmp)
        data = (args.data_dir or tmp_path / "data").resolve()
        (tmp_path / "run").mkdir(mode=0o700)
        # (this process finds the app's socket through XDG_RUNTIME_DIR too)
        os.environ.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_RUNTIME_DIR=str(tmp_path / "run"))
        env = {**os.environ, "QT_QPA_PLATFORM": "xcb"}
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app has its .pyc files
        if args.neurons:
            from tests.bench.built import ensure  # noqa: PLC0415 - the store only for --neurons

            ensure(data, args.neurons)
            current(data)
        elif not data.exists():
            subprocess.run(
                [sys.executable, "-m", "desktop.demo", "--data-dir", str(data), "--dataset", args.dataset],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
            )
        codes = {"this": ROOT}
        if args.against:
            codes["against"] = checkout(args.against, tmp_path / "against")
        # each side its own copy of the store: neither sees the other's saved index or settings
        datas = {}
        for name in codes:
            datas[name] = tmp_path / f"data-{name}"
            shutil.copytree(data, datas[name], symlinks=True)
        order = list(codes)
        sides: dict[str, list[dict]] = {name: [] for name in codes}
        server, display = xvfb()
        try:
            for name in order:  # unmeasured: the bytecode written, the files in the page cache
                one_run(codes[name], datas[name], env, display, tmp_path / "probe", None)
            for i in range(args.runs):
                for name in order if i % 2 == 0 else order[::-1]:  # ABBA: both see the same load
                    idle = args.idle if i == args.runs - 1 and name == "this" else None
                    run = one_run(codes[name], datas[name], env, display, tmp_path / "probe", idle)
                    sides[name].append(run)
                    print(
                        f"run {i + 1} {name}: window {run['shown']:.2f} s, answer "
                        f"{run['answered'] - run['shown']:.2f} s after it",
                        file=sys.stderr,
                    )
        finally:
            server.terminate()
            server.wait(10)
    if args.against:
        print(f"this: {ROOT}; against: {args.against}")
    print("\n".join(table(sides)))
    last = sides["this"][-1]
    if "idle_app_pct" in last:
        print(
            f"idle CPU over {args.idle:.0f} s: app {last['idle_app_pct']:.2f} % of a core, "
            f"engine {last['idle_engine_pct']:.2f} %"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
