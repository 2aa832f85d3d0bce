"""MCP benchmark (printed, never asserted): `neurons mcp` driven by the SDK's client over stdio,
on its own memory and through the running desktop app (offscreen).

    .venv/bin/python -m tests.bench.bench_mcp [--rounds 20]

The session start (process start, SDK import, initialize), then each tool's latency (median and
p95 of the rounds; the first call of a session opens the data dir and is shown apart).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import anyio
import numpy as np
from mcp import Client

from core import instance
from tests.core.test_mcp import call, stdio
from tests.desktop.test_single_instance import launch, stop, wait_ready


async def session(data_dir: Path, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}

    async def timed(label: str, tool: str, **arguments):
        t0 = time.perf_counter()
        result = await call(client, tool, **arguments)
        times.setdefault(label, []).append(time.perf_counter() - t0)
        return result

    t0 = time.perf_counter()
    async with Client(stdio(data_dir), mode="legacy") as client:
        times["start"] = [time.perf_counter() - t0]
        first = await timed("first call", "capture", text="the bench starts here")
        for i in range(rounds):
            saved = await timed("capture", "capture", text=f"remind me to water plant {i} tomorrow at 9")
            await timed("ask", "ask", question=f"water plant {i}")
            await timed("about", "about", name="Ana")
            await timed("upcoming", "upcoming", days=2)
            await timed("show", "show", id=first["id"])
            await timed("done", "done", id=saved["id"])
    return times


def report(label: str, times: dict[str, list[float]]) -> None:
    print(f"\n{label}")
    for name, values in times.items():
        ms = np.array(values) * 1000
        spread = (
            f"median {np.median(ms):7.1f} ms  p95 {np.percentile(ms, 95):7.1f} ms"
            if len(ms) > 1
            else f"{ms[0]:7.1f} ms"
        )
        print(f"  {name:<11} {spread}  (n={len(ms)})")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=20)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        runtime = Path(tmp) / "run"
        runtime.mkdir(mode=0o700)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
        own = Path(tmp) / "own"
        anyio.run(session, own, 2)  # the data dir exists: what follows is a warm start
        report("own memory (no app running)", anyio.run(session, own, args.rounds))
        shared = Path(tmp) / "app"
        app = launch(shared, runtime)
        try:
            wait_ready(app, shared)
            report("through the running app", anyio.run(session, shared, args.rounds))
            assert instance.is_running(shared)
        finally:
            stop(app, shared)
    print(f"\n(python {sys.version.split()[0]}, {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
