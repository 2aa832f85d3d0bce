"""What the benches share: the environment of the processes they start, and the real desktop app
started offscreen and waited for until its memory is open."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from tests.desktop.test_single_instance import wait_ready

ROOT = Path(__file__).resolve().parents[2]


def env() -> dict[str, str]:
    """This checkout first on the path, Qt offscreen, and bytecode written (an installed app has
    its .pyc files; PYTHONDONTWRITEBYTECODE would make every run compile our modules again)."""
    out = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    return out


def start_app(data_dir: Path, argv: list[str] | None = None) -> tuple[subprocess.Popen, float]:
    """The desktop app on `data_dir` (`argv`: how to run it, default `-m desktop.launch`), and the
    seconds until its `status` said ready."""
    t0 = time.monotonic()
    app = subprocess.Popen(
        [sys.executable, *(argv or ["-m", "desktop.launch"]), "--data-dir", str(data_dir), "--no-tray"],
        cwd=ROOT,
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_ready(app, data_dir)
    except AssertionError:
        app.terminate()
        raise
    return app, time.monotonic() - t0
