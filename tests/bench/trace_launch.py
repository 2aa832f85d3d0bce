"""Where a launch of the desktop app spends its time, up to its window and past it (printed, never
asserted): each step's start and end, its thread and the process's CPU then, in the app's own
process, beside when the window is mapped on the X server.

    .venv/bin/python -m tests.bench.trace_launch --data-dir DIR [--runs 3] [--after 8]

The real app (`desktop.launch`) on DIR (copied first, so no run changes it), one process per run,
under a private Xvfb. A probe run before the launch wraps the steps below as their modules load
(the app's code is not changed for it) and writes a line for each; the window's first paint is
noted by an event filter. `--after S`: how long each run goes on after the window is shown (the
memory opening, the model and the index behind it). Needs Xvfb and xwininfo.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core import instance
from tests.bench.bench_desktop import mapped
from tests.bench.xserver import xvfb
from tests.conftest import ROOT

PROBE = r"""
import importlib.abc, importlib.util, os, runpy, sys, threading, time
out = open(os.environ["NEURONS_TRACE"], "a", buffering=1)

def note(what):
    out.write(f"{time.monotonic():.4f} {time.process_time():.4f} {threading.current_thread().name} {what}\n")

note("python up")
STEPS = {
    "core.opening": ["Opening._open"],
    "core.store.store": ["Store.__init__"],
    "core.memory": ["Memory.open", "Memory.__init__"],
    "core.embed.runtime": ["Embedder.load"],
    "core.recall.recall": ["Recall.read_back", "Recall.warm"],
    "core.when.patterns": ["Grammar.compile", "Grammar.compile_questions"],
    "desktop.app": ["App.__init__", "App._opened", "App.show_window", "App._begin_opening"],
    "desktop.window.main_window": ["MainWindow.__init__", "MainWindow.set_ready"],
}
IMPORTS = ("desktop.app", "core.memory", "core.store", "PySide6.QtWidgets", "numpy", "onnxruntime", "psycopg")

def wrap(owner, attr, label):
    real = getattr(owner, attr)
    raw = real.__func__ if isinstance(real, classmethod) else real
    def wrapped(*a, **k):
        note(f"start {label}")
        try:
            return raw(*a, **k)
        finally:
            note(f"end {label}")
    setattr(owner, attr, classmethod(wrapped) if isinstance(real, classmethod) else wrapped)

def patch(module):
    for step in STEPS.get(module.__name__, ()):
        cls, _, name = step.rpartition(".")
        owner = getattr(module, cls) if cls else module
        if name in owner.__dict__:
            wrap(owner, name, step)
    if module.__name__ == "desktop.window.main_window":
        from PySide6.QtCore import QEvent, QObject
        class Painted(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint:
                    note("painted window")
                    obj.removeEventFilter(self)
                return False
        cls = module.MainWindow
        init = cls.__init__
        def __init__(self, *a, **k):
            init(self, *a, **k)
            self._trace_filter = Painted()
            self.installEventFilter(self._trace_filter)
        cls.__init__ = __init__

class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in STEPS and name not in IMPORTS:
            return None
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return spec
        load = spec.loader.exec_module
        def exec_module(module):
            note(f"start import {name}")
            load(module)
            note(f"end import {name}")
            patch(module)
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Finder())
sys.argv = ["neurons-desktop", *sys.argv[1:]]
runpy.run_module("desktop.launch", run_name="__main__")
"""


def one_run(code: Path, data: Path, env: dict, display: str, trace: Path, after_s: float) -> list[str]:
    trace.unlink(missing_ok=True)
    t0 = time.monotonic()
    app = subprocess.Popen(
        [sys.executable, "-c", PROBE, "--data-dir", str(data), "--no-tray"],
        cwd=code,
        env={**env, "DISPLAY": display, "PYTHONPATH": str(code), "NEURONS_TRACE": str(trace)},
        stdout=subprocess.DEVNULL,
        stderr=(trace.parent / "app.log").open("w"),
    )
    try:
        while not mapped(display):
            if time.monotonic() - t0 > 300 or app.poll() is not None:
                raise RuntimeError((trace.parent / "app.log").read_text()[-3000:])
            time.sleep(0.01)
        shown = time.monotonic()
        time.sleep(after_s)
        instance.request(data, {"op": "quit"}, timeout=10)
        app.wait(60)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait(10)
    lines = [f"{0.0:8.3f}        - launcher   process started"]
    rows = [(float(at), float(cpu), thread, what) for at, cpu, thread, what in _split(trace)]
    rows.append((shown, float("nan"), "X server", "window mapped (xwininfo)"))
    for at, cpu, thread, what in sorted(rows):
        lines.append(f"{at - t0:8.3f} {cpu:8.3f} {thread[:12]:<12} {what}")
    return lines


def _split(trace: Path):
    for line in trace.read_text().splitlines():
        at, cpu, thread, what = line.split(" ", 3)
        yield at, cpu, thread, what


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.trace_launch")
    p.add_argument("--data-dir", type=Path, required=True, help="a data dir (copied for the runs)")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--after", type=float, default=8.0, help="seconds traced after the window shows")
    p.add_argument("--code", type=Path, default=ROOT, help="the checkout to launch")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-trace-") as tmp:
        tmp_path = Path(tmp)
        (tmp_path / "run").mkdir(mode=0o700)
        os.environ.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_RUNTIME_DIR=str(tmp_path / "run"))
        env = {**os.environ, "QT_QPA_PLATFORM": "xcb"}
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed app has its .pyc files
        data = tmp_path / "data"
        shutil.copytree(args.data_dir, data, symlinks=True)
        server, display = xvfb()
        try:
            one_run(args.code.resolve(), data, env, display, tmp_path / "trace", 2.0)  # unmeasured
            for i in range(args.runs):
                lines = one_run(args.code.resolve(), data, env, display, tmp_path / "trace", args.after)
                print(f"-- run {i + 1} (s from the launch; the process's CPU s)")
                print("\n".join(lines))
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
