"""First use benchmark (printed, never asserted): what a `neurons` command costs without the app,
on a fresh data dir (the engine makes its database) and on one that exists.

    python -m tests.bench.bench_first_use [--runs 3] [--other /tmp/tree-before]

Each command is a fresh process of this venv's Python running what the `neurons` script runs,
timed from spawn to exit: `capture` on a new data dir, then `capture` and `ask` on it again. With
`--other` (a folder holding another version's `core` and a `resources` link, e.g. made by
`git archive COMMIT core desktop | tar -x -C DIR && ln -s $PWD/resources DIR/`), the same runs of
that version are interleaved with this one's, so the machine's other load falls on both alike;
the ratios of the medians are what to read.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STEPS = [
    ("capture, new data dir", ["capture", "call Ana tomorrow at 5 about the library books"]),
    ("capture, existing", ["capture", "the spare key is with Maria next door"]),
    ("ask, existing", ["ask", "where is the spare key"]),
]


def timed(root: Path, data_dir: Path, argv: list[str]) -> float:
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("NEURONS_DSN", None)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from core.cli import main; sys.exit(main())",
         "--data-dir", str(data_dir), *argv],
        cwd=root, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"{argv} in {root} failed: {done.stderr[-2000:]}")
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--other", type=Path, help="another version's tree, measured interleaved")
    args = parser.parse_args(argv)
    trees = {"this": ROOT} | ({"other": args.other} if args.other else {})
    times: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="neurons-first-use-") as tmp:
        for run in range(args.runs):
            for name, root in trees.items():
                data_dir = Path(tmp) / f"{name}-{run}" / "data"
                for step, command in STEPS:
                    times.setdefault((name, step), []).append(timed(root, data_dir, command))
    ratio = "       this/other" if args.other else ""
    print(f"{'step':<24}" + "".join(f"{name:>16}" for name in trees) + ratio)
    for step, _ in STEPS:
        medians = {name: statistics.median(times[(name, step)]) for name in trees}
        line = f"{step:<24}" + "".join(f"{medians[name]:>14.2f} s" for name in trees)
        if args.other:
            line += f"{medians['this'] / medians['other']:>16.2f}"
        print(line)
    print(f"(median of {args.runs} runs each, interleaved)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
