"""About a person at 10k or 100k neurons (printed, never asserted): p50/p95 of `Memory.about`,
wall and the asking thread's CPU, over the bench store's contact names.

    .venv/bin/python -m tests.bench.bench_about --neurons 100000 --data-dir DIR
                                                [--runs 3] [--rounds 4] [--against REV|DIR]

Each run is a process of its own on the store (tests/bench/built.py, built once in --data-dir):
the index read back from its file and warmed, every name asked once unmeasured (their names'
lexemes known, as in an app that has answered about them before), then `--rounds` times the
bench's 50 names (the 28 contacts' names, repeated, as bench_recall asks them). `--against` runs
another version of the code in the same sitting, alternating with this checkout run by run
(ABBA): a git revision (exported to a temporary folder, tests/bench/bench_desktop.py's way) or
the folder of another checkout. The medians of each side's runs and their ratios are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.bench.bench_desktop import checkout
from tests.bench.built import ensure, texts
from tests.conftest import ROOT

# Run in a process of its own, on the code in its PYTHONPATH: argv is the data dir, the rounds
# and the names (JSON); prints the times (JSON).
CHILD = """
import json, sys, time
from pathlib import Path
from core.memory import Memory
from core.settings import Settings

data, rounds, names = Path(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
with Memory.open(Settings.from_env(data_dir=data, embed_in_background=False)) as memory:
    memory.recall.warm()
    for name in names:
        memory.about(name)
    wall, cpu = [], []
    for _ in range(rounds):
        for name in names:
            t, c = time.perf_counter(), time.thread_time()
            memory.about(name)
            cpu.append((time.thread_time() - c) * 1000)
            wall.append((time.perf_counter() - t) * 1000)
print(json.dumps({"wall": wall, "cpu": cpu}))
"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def one_run(code: Path, data: Path, rounds: int, names: list[str]) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(data), str(rounds), json.dumps(names)],
        cwd=code,
        env={**os.environ, "PYTHONPATH": str(code)},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    times = json.loads(out.strip().splitlines()[-1])
    wall, cpu = times["wall"], times["cpu"]
    return {
        "wall p50": percentile(wall, 50),
        "wall p95": percentile(wall, 95),
        "wall mean": statistics.fmean(wall),
        "cpu p50": percentile(cpu, 50),
        "cpu p95": percentile(cpu, 95),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench.bench_about")
    p.add_argument("--neurons", type=int, default=10_000)
    p.add_argument("--data-dir", type=Path, help="reuse/keep the bench store here (built when empty)")
    p.add_argument("--runs", type=int, default=3, help="processes of each side")
    p.add_argument("--rounds", type=int, default=4, help="times the 50 names are asked in a run")
    p.add_argument("--against", help="a git revision or another checkout's folder to compare with")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-bench-about-") as tmp:
        data = (args.data_dir or Path(tmp) / "data").resolve()
        ensure(data, args.neurons)
        _, _, names = texts()
        who = (names * 10)[:50]
        codes = {"this": ROOT}
        if args.against:
            codes["against"] = checkout(args.against, Path(tmp) / "against")
        sides: dict[str, list[dict[str, float]]] = {name: [] for name in codes}
        order = list(codes)
        for i in range(args.runs):
            for name in order if i % 2 == 0 else order[::-1]:
                run = one_run(codes[name], data, args.rounds, who)
                sides[name].append(run)
                print(
                    f"run {i + 1} {name}: " + ", ".join(f"{k} {v:.1f}" for k, v in run.items()) + " ms",
                    file=sys.stderr,
                )
    keys = list(sides["this"][0])
    head = f"{'median over ' + str(args.runs) + ' runs (ms)':<28}" + "".join(f"{n:>10}" for n in sides)
    print(head + ("     ratio" if len(sides) == 2 else ""))
    for key in keys:
        values = [statistics.median(r[key] for r in runs) for runs in sides.values()]
        line = f"{'about ' + key:<28}" + "".join(f"{v:>10.1f}" for v in values)
        if len(values) == 2 and values[1] > 0:
            line += f"{values[0] / values[1]:>9.2f}x"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
