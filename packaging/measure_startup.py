"""How fast the bundle starts: median of a few runs, printed (never asserted anywhere).

    .venv/bin/python packaging/measure_startup.py [--bundle dist/neurons] [--runs 5] [--cold]

For each run, on an existing data dir with a few neurons, in a bare environment (PATH empty, fresh
HOME) under a private Xvfb:
  shown  process start -> the main window is mapped on the X server
  ready  process start -> the memory is open (the app's `status` reply says ready)
and, offscreen, `neurons-desktop --screenshot` from start to exit (open, render, write, quit).
--cold empties the page cache before every run (root only: /proc/sys/vm/drop_caches), so each
run reads the bundle from disk as after a reboot. Needs Xvfb and xwininfo (packages xvfb, x11-utils);
run it from the checkout's venv.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from core import instance  # noqa: E402 - after the path
from tests.bench.xserver import window_viewable, xvfb  # noqa: E402 - after the path


def window_shown(display: str) -> bool:
    return window_viewable(display, r'\("neurons-desktop" ')


def drop_caches() -> None:
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def one_run(bundle: Path, env: dict[str, str], data: Path, display: str, cold: bool) -> tuple[float, float]:
    if cold:
        drop_caches()
    t0 = time.monotonic()
    app = subprocess.Popen(
        [str(bundle / "neurons-desktop"), "--data-dir", str(data), "--no-tray"],
        env={**env, "DISPLAY": display},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    shown = ready = None
    try:
        while (shown is None or ready is None) and time.monotonic() - t0 < 180:
            if app.poll() is not None:
                raise SystemExit(f"the app exited with {app.returncode}")
            if shown is None and window_shown(display):
                shown = time.monotonic() - t0
            if ready is None:
                try:
                    reply = instance.request(data, {"op": "status"})
                except Exception:  # noqa: BLE001 - not listening yet
                    reply = None
                if reply and reply.get("ready"):
                    ready = time.monotonic() - t0
            time.sleep(0.02)
    finally:
        app.send_signal(signal.SIGTERM)
        app.wait(timeout=60)
    return shown, ready


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bundle", type=Path, default=ROOT / "dist" / "neurons")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--cold", action="store_true", help="empty the page cache before each run (root)")
    args = p.parse_args()
    bundle = args.bundle.resolve()
    with tempfile.TemporaryDirectory(prefix="neurons-start-") as tmp:
        tmp = Path(tmp)
        (tmp / "bin").mkdir()
        (tmp / "home").mkdir()
        env = {"PATH": str(tmp / "bin"), "HOME": str(tmp / "home"), "LANG": "C.UTF-8"}
        if "XDG_RUNTIME_DIR" in os.environ:  # where the app's socket is, for the `status` request
            env["XDG_RUNTIME_DIR"] = os.environ["XDG_RUNTIME_DIR"]
        data = tmp / "data"
        for text in (
            "Call Ana tomorrow at 10",
            "Ana Silva +351 912 345 678",
            "The dentist is on Rua Augusta 12",
        ):
            subprocess.run(
                [str(bundle / "neurons"), "--data-dir", str(data), "capture", text],
                env=env,
                check=True,
                capture_output=True,
            )
        server, display = xvfb()
        try:
            runs = [one_run(bundle, env, data, display, args.cold) for _ in range(args.runs)]
        finally:
            server.terminate()
            server.wait()
        shots = []
        for i in range(args.runs):
            if args.cold:
                drop_caches()
            t0 = time.monotonic()
            subprocess.run(
                [
                    str(bundle / "neurons-desktop"),
                    "--data-dir",
                    str(data),
                    "--screenshot",
                    str(tmp / f"shot{i}.png"),
                ],
                env={**env, "QT_QPA_PLATFORM": "offscreen"},
                check=True,
                capture_output=True,
            )
            shots.append(time.monotonic() - t0)
    size = sum(f.stat().st_size for f in bundle.rglob("*") if f.is_file() and not f.is_symlink())
    fmt = lambda xs: " ".join(f"{x:.2f}" for x in xs)
    print(f"{'cold' if args.cold else 'warm'} page cache, {args.runs} runs")
    print(f"bundle        {bundle}: {size / 1e6:.0f} MB ({size / 2**20:.0f} MiB)")
    print(
        f"window shown  median {statistics.median(r[0] for r in runs):.2f}s   runs: {fmt(r[0] for r in runs)}"
    )
    print(
        f"memory ready  median {statistics.median(r[1] for r in runs):.2f}s   runs: {fmt(r[1] for r in runs)}"
    )
    print(f"--screenshot  median {statistics.median(shots):.2f}s   runs: {fmt(shots)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
