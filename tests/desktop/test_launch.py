"""The launcher: what it loads before the window."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_app_loads_the_stores_modules_before_qt_reads_their_source():
    """PySide6 reads the source of every module imported after it (its `__feature__` check) and
    linecache keeps it: the store's modules (numpy, psycopg, ours), which the engine's thread
    imports meanwhile, come first; the date grammar and capture, which the window does not show
    before the memory opens, are not loaded at all."""
    code = (
        "import linecache, sys\n"
        "from desktop.launch import app_runner\n"
        "app_runner()\n"
        f"ours = [n for n in linecache.cache if n.startswith({str(ROOT / 'core' / 'store')!r})]\n"
        "numpy = [name for name in linecache.cache if '/numpy/' in name]\n"
        "print('PySide6.QtWidgets' in sys.modules, 'core.store' in sys.modules, len(ours), len(numpy))\n"
        "print(*(name in sys.modules for name in ('core.when', 'core.capture', 'core.interop')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True", "0", "0", "False", "False", "False"]


def test_the_window_is_on_screen_before_the_memorys_modules_load(tmp_path):
    """The real app on a new data dir: at the window's first paint, the memory's own modules
    (core.memory: recall, embed, backup), the date grammar and capture are not loaded yet; the
    opening after it loads them."""
    code = f"""
import sys
from desktop import launch

MODULES = ("core.memory", "core.recall", "core.embed", "core.when", "core.capture")

def runner(app_runner=launch.app_runner):
    run = app_runner()
    from desktop import app

    def painted(self, obj, event, real=app._Painted.eventFilter):
        if event.type() == app.QtCore.QEvent.Type.Paint and self.then is not None:
            print("painted", *(name in sys.modules for name in MODULES))
        return real(self, obj, event)

    def opened(self, memory, real=app.App._opened):
        real(self, memory)
        print("opened", *(name in sys.modules for name in MODULES))
        self.quit()

    app._Painted.eventFilter, app.App._opened = painted, opened
    return run

launch.app_runner = runner
sys.exit(launch.main(["--data-dir", {str(tmp_path / "data")!r}, "--no-tray"]))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=240, check=True
    )
    assert done.stdout.splitlines() == [
        "painted False False False False False",
        "opened True True True True True",
    ], done.stderr


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
