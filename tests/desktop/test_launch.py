"""The launcher: what it loads before the window."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_app_loads_the_memorys_modules_before_qt_reads_their_source():
    """PySide6 reads the source of every module imported after it (its `__feature__` check) and
    linecache keeps it: the memory's modules (numpy, psycopg, ours) come first. (It still reads
    those an import statement names after it, once: the desktop's own imports of core.)"""
    code = (
        "import linecache, sys\n"
        "from desktop.launch import app_runner\n"
        "app_runner()\n"
        f"recall = [name for name in linecache.cache if name.startswith({str(ROOT / 'core' / 'recall')!r})]\n"
        "numpy = [name for name in linecache.cache if '/numpy/' in name]\n"
        "print('PySide6.QtWidgets' in sys.modules, 'core.recall' in sys.modules, len(recall), len(numpy))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "0", "0"]


def test_the_app_loads_no_scheduler_or_sync_before_its_window():
    """APScheduler (with the multiprocessing it imports) loads once reminders are planned, the
    sync's client when Preferences opens or a sync runs: neither before the window."""
    code = (
        "import sys\n"
        "from desktop.launch import app_runner\n"
        "app_runner()\n"
        "print(*(name in sys.modules for name in "
        "('desktop.app', 'apscheduler', 'multiprocessing', 'core.sync.accounts', 'http.client')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "False", "False", "False", "False"]
