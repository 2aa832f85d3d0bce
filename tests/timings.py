"""A pytest plugin that logs each test's setup, call and teardown: wall and CPU seconds.

Load it with `-p tests.timings` and name a folder in NEURONS_TEST_TIMES; each process (the
serial run, or each pytest-xdist worker) appends JSON lines to its own file there:
`{"worker", "test", "phase", "start", "wall", "cpu", "tree"}`. `cpu` is this process's user +
system time; `tree` adds its children's, live (psutil) and reaped (getrusage), which holds the
embedded engine, the `neurons` commands and the apps a test starts (not a daemon that left the
tree, such as the server Postgres). `python -m tests.timings FOLDER` sums them per file and
per worker; with `--costs` it also writes each file's tree seconds to tests/costs.json, the order
in which tests/conftest.py hands files to parallel workers. Figures only, never a gate.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path

import psutil
import pytest


def _tree_cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime
    tree = cpu + reaped.ru_utime + reaped.ru_stime
    try:
        children = psutil.Process().children(recursive=True)
    except psutil.Error:
        children = []
    for child in children:
        try:
            t = child.cpu_times()
        except psutil.Error:
            continue
        tree += t.user + t.system + t.children_user + t.children_system
    return cpu, tree


class _Timings:
    def __init__(self, folder: Path, worker: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.out = (folder / f"{worker}.jsonl").open("a", encoding="utf-8")
        self.worker = worker

    def _phase(self, item, phase):
        start = time.time()
        cpu0, tree0 = _tree_cpu()
        try:
            yield
        finally:
            cpu1, tree1 = _tree_cpu()
            record = {
                "worker": self.worker,
                "test": item.nodeid,
                "phase": phase,
                "start": round(start, 3),
                "wall": round(time.time() - start, 3),
                "cpu": round(cpu1 - cpu0, 3),
                "tree": round(tree1 - tree0, 3),
            }
            self.out.write(json.dumps(record) + "\n")
            self.out.flush()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_setup(self, item):
        yield from self._phase(item, "setup")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item):
        yield from self._phase(item, "call")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item):
        yield from self._phase(item, "teardown")


def pytest_configure(config):
    folder = os.environ.get("NEURONS_TEST_TIMES")
    if folder:
        worker = getattr(config, "workerinput", {}).get("workerid", "main")
        config.pluginmanager.register(_Timings(Path(folder), worker), "neurons-timings")


def summary(folder: Path, costs: Path | None = None) -> None:
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    workers: dict[str, list] = defaultdict(list)
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            name = r["test"].split("::")[0]
            f = files[name]
            f[0] += r["wall"]
            f[1] += r["cpu"]
            f[2] += r["tree"]
            f[3] += r["phase"] == "call"
            workers[r["worker"]].append((r["start"], r["start"] + r["wall"], name))
    if costs is not None:
        table = {name: round(f[2], 1) for name, f in sorted(files.items(), key=lambda kv: -kv[1][2])}
        costs.write_text(json.dumps(table, indent=0) + "\n", encoding="utf-8")
    first = min(s for runs in workers.values() for s, _, _ in runs)
    print(f"{'file':60} {'tests':>5} {'wall':>8} {'cpu':>8} {'tree':>8}")
    for name, (wall, cpu, tree, n) in sorted(files.items(), key=lambda kv: -kv[1][2]):
        print(f"{name:60} {n:5d} {wall:8.1f} {cpu:8.1f} {tree:8.1f}")
    total = [sum(f[i] for f in files.values()) for i in range(3)]
    tests = sum(f[3] for f in files.values())
    print(f"{'all':60} {tests:5d} {total[0]:8.1f} {total[1]:8.1f} {total[2]:8.1f}")
    for worker, runs in sorted(workers.items()):
        runs.sort()
        print(f"\n{worker}: busy until {runs[-1][1] - first:.0f} s")
        order: list[list] = []
        for s, e, name in runs:
            if order and order[-1][0] == name:
                order[-1][2] = e
            else:
                order.append([name, s, e])
        for name, s, e in order:
            print(f"  {s - first:7.0f} {e - first:7.0f}  {name}")


if __name__ == "__main__":
    summary(Path(sys.argv[1]), Path(__file__).with_name("costs.json") if "--costs" in sys.argv else None)
