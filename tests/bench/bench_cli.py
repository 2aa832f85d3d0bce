"""CLI benchmark (printed, never asserted): what a `neurons` command costs, with and without the app.

    python -m tests.bench.bench_cli [--runs 20] [--data-dir DIR]

Each command is a fresh process of this venv's Python running what the `neurons` script runs
(`from core.cli import main`), timed from spawn to exit; runs of the variants are interleaved so
the machine's other load falls on all of them alike. Prints min / median per variant and the
ratios the issue sets goals on:
  forwarded   a command answered by the running desktop app (real app, offscreen), against a
              bare `python -c pass` of the same venv (goal: <= 5x)
  here        the same command when no app runs (the CLI starts the engine itself; goal <= 1.5 s)
and the imports of the forwarding path that cost the most (python -X importtime).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.apps import env, start_app  # noqa: E402 - after the path

ENTRY = "import sys; from core.cli import main; sys.exit(main())"
HERE_GOAL_S = 1.5
SEED = (
    "Call Ana tomorrow at 10",
    "Ana Silva +351 912 345 678",
    "The dentist is on Rua Augusta 12",
    "Buy flour, butter and lemons",
    "Renew the passport before June",
)


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of `argv` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(
        argv, cwd=ROOT, env=env(), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def neurons(data_dir: Path, *argv: str) -> list[str]:
    return [sys.executable, "-c", ENTRY, "--data-dir", str(data_dir), *argv]


def interleaved(variants: dict[str, list[str]], runs: int) -> dict[str, list[tuple[float, float]]]:
    for argv in variants.values():
        timed(argv)  # writes the bytecode, warms the page cache
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for _ in range(runs):
        for name, argv in variants.items():
            times[name].append(timed(argv))
    return times


def warm_app(data_dir: Path) -> subprocess.Popen:
    app, _ = start_app(data_dir)
    time.sleep(2)  # let it finish warming the index
    return app


def import_costs(data_dir: Path, top: int = 12) -> list[tuple[int, str]]:
    """(cumulative µs, module) of the forwarding path's most expensive top-level imports."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", ENTRY, "--data-dir", str(data_dir), "list"],
        cwd=ROOT,
        env=env(),
        capture_output=True,
        text=True,
    ).stderr
    rows = []
    for line in out.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line[len("import time:") :].split("|")
        if cumulative.strip().isdigit() and name.startswith(" ") and not name.startswith("   "):
            rows.append((int(cumulative), name.strip()))
    return sorted(rows, reverse=True)[:top]


def show(
    label: str,
    runs: list[tuple[float, float]],
    base: list[tuple[float, float]] | None = None,
) -> str:
    wall = [w for w, _ in runs]
    cpu = [c for _, c in runs]
    line = (
        f"{label:<30} wall min {min(wall) * 1000:7.1f} median {statistics.median(wall) * 1000:7.1f}"
        f" ms  client CPU median {statistics.median(cpu) * 1000:6.1f} ms"
    )
    if base:
        ratio = statistics.median(wall) / statistics.median(w for w, _ in base)
        line += f"  {ratio:4.1f}x bare python"
    return line


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--here-runs", type=int, default=5)
    p.add_argument("--data-dir", type=Path)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-clibench-") as tmp:
        data = (args.data_dir or Path(tmp) / "data").resolve()
        for text in SEED:
            subprocess.run(
                neurons(data, "capture", text), cwd=ROOT, env=env(), check=True, capture_output=True
            )
        here = interleaved(
            {"list": neurons(data, "list"), "ask": neurons(data, "ask", "when is the dentist")},
            args.here_runs,
        )
        app = warm_app(data)
        try:
            forwarded = interleaved(
                {
                    "bare": [sys.executable, "-c", "pass"],
                    "list": neurons(data, "list"),
                    "list --json": neurons(data, "list", "--json"),
                    "ask": neurons(data, "ask", "when is the dentist"),
                    "capture": neurons(data, "capture", "Bench: water the plants"),
                },
                args.runs,
            )
            costs = import_costs(data)
        finally:
            app.terminate()
            app.wait(timeout=60)
    bare = forwarded["bare"]
    print(f"{args.runs} runs interleaved; `neurons` = python -c '{ENTRY}'; ratios of medians")
    print(show("python -c pass", bare))
    for name in ("list", "list --json", "ask", "capture"):
        print(show(f"forwarded: neurons {name}", forwarded[name], bare) + " (goal <= 5x)")
    for name, runs in here.items():
        goal = statistics.median(w for w, _ in runs) / HERE_GOAL_S
        print(show(f"no app: neurons {name}", runs) + f"  {goal:4.2f}x the {HERE_GOAL_S} s goal")
    print("forwarding path, costliest top-level imports (cumulative ms):")
    for micro, name in costs:
        print(f"  {micro / 1000:6.1f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
