"""A private X server for the start-up measurements (tests/bench/bench_desktop.py and
packaging/measure_startup.py): Xvfb on a free display, and whether a window is on screen.
Needs Xvfb and xwininfo (packages xvfb, x11-utils)."""

from __future__ import annotations

import os
import re
import subprocess


def xvfb(screen: str = "1400x900") -> tuple[subprocess.Popen, str]:
    """Start Xvfb with a `screen` (WIDTHxHEIGHT) on a display it picks itself; return it and the
    DISPLAY to use."""
    read, write = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{screen}x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as f:
        return proc, ":" + f.readline().strip()


def window_viewable(display: str, pattern: str) -> bool:
    """A window whose line in `xwininfo -tree` matches `pattern` (name and WM_CLASS) is mapped."""
    env = {**os.environ, "DISPLAY": display}
    tree = subprocess.run(
        ["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True, check=False
    ).stdout
    for wid in re.findall(rf"^\s*(0x[0-9a-f]+) .*{pattern}", tree, re.M):
        info = subprocess.run(
            ["xwininfo", "-id", wid], env=env, capture_output=True, text=True, check=False
        ).stdout
        if "IsViewable" in info:
            return True
    return False
