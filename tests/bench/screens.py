"""Every dialog and the main window on a private X screen, at a scale: screenshots to look at, and
a report of what does not fit (a window past the screen's edges, a widget narrower or shorter
than its text needs).

    python -m tests.bench.screens --out /tmp/screens --scale 1 --scale 2 --screen 1440x900

Each scale runs in a child process of its own (QT_SCALE_FACTOR is read when Qt starts) on Xvfb
with no window manager, on a fresh data dir filled with a few items of each kind. It writes
`<out>/<scale>x/<name>.png` (the whole screen, so what falls off it shows as missing) and
`<out>/<scale>x/report.json`: for each window its frame on the screen, the screen's size (both in
Qt's scaled pixels) and the widgets it clips. tests/desktop/test_scale.py reads the report.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.bench.xserver import xvfb

ROOT = Path(__file__).resolve().parent.parent.parent


def take(out: Path, scale: float, screen: str, data_dir: Path, timeout: float = 300) -> dict:
    """Screenshots and the report of one scale, from a child on its own X screen."""
    proc, display = xvfb(screen)
    try:
        env = {
            **os.environ,
            "DISPLAY": display,
            "QT_QPA_PLATFORM": "xcb",
            "QT_SCALE_FACTOR": str(scale),
            "XDG_CONFIG_HOME": str(data_dir.parent / f"config-{scale}"),
            "PYTHONPATH": str(ROOT),
        }
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.screens", "--child", str(out), "--data-dir", str(data_dir)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise RuntimeError(f"the screenshots at {scale}x failed:\n{done.stderr[-4000:]}")
        return json.loads((out / "report.json").read_text())
    finally:
        proc.terminate()
        proc.wait(10)


def fill(data_dir: Path) -> None:
    """A few items of each kind, through Memory."""
    from core.memory import Memory  # noqa: PLC0415 - the parent never opens a store
    from core.settings import Settings  # noqa: PLC0415 - the parent never opens a store

    now = datetime.now(UTC)
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
        memory.capture("Ana Silva +351 912 345 678 ana.silva@example.org, works at the library")
        memory.capture("Dr Grace Okafor, dentist, +44 20 7946 0958")
        memory.capture(
            "take the pills",
            kind="reminder",
            attrs={"due_at": (now + timedelta(hours=3)).isoformat(), "rrule": "FREQ=DAILY"},
        )
        memory.capture(
            "renew the car insurance",
            kind="reminder",
            attrs={"due_at": (now - timedelta(days=1)).isoformat()},
        )
        memory.capture("the wifi password at the cabin is on the fridge, under the magnet shaped like a fish")
        memory.capture("dentist appointment moved to Friday at 10, remember to bring the X-rays")  # fmt: skip


# -- the child: one scale on one screen ------------------------------------------------------------


def clipped(root) -> list[str]:
    """The widgets under `root` that show less than their text needs: a button, box or field
    narrower than its size hint, a one-line label narrower than its text, anything shorter than its
    minimum, or a widget reaching past its window's edge."""
    from PySide6.QtCore import Qt  # noqa: PLC0415 - Qt only in the child
    from PySide6.QtWidgets import (  # noqa: PLC0415 - Qt only in the child
        QAbstractButton,
        QAbstractScrollArea,
        QAbstractSpinBox,
        QComboBox,
        QLabel,
        QLineEdit,
        QScrollArea,
        QWidget,
    )

    from desktop.look.widgets import ElidedLabel  # noqa: PLC0415 - Qt only in the child

    off = Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    found = []
    window_rect = root.rect()
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root) or w.width() == 0 or _inner(w):
            continue
        name = f"{type(w).__name__} {w.objectName() or ''} {_text(w)!r}".strip()
        hint, least = w.sizeHint(), w.minimumSizeHint()
        if isinstance(w, (QAbstractButton, QComboBox, QAbstractSpinBox)) and w.width() < hint.width() - 1:
            found.append(f"{name}: {w.width()} wide, needs {hint.width()}")
        elif isinstance(w, QLabel) and not isinstance(w, ElidedLabel) and not w.wordWrap():
            if w.text() and w.pixmap().isNull() and w.width() < hint.width() - 1:
                found.append(f"{name}: {w.width()} wide, needs {hint.width()}")
        elif isinstance(w, QLineEdit) and w.width() < least.width() - 1:
            found.append(f"{name}: {w.width()} wide, needs {least.width()}")
        if isinstance(w, QScrollArea) and w.widget() is not None and w.horizontalScrollBarPolicy() == off:
            if w.widget().width() > w.viewport().width() + 1:
                found.append(f"{name}: its page is {w.widget().width()} wide in {w.viewport().width()}")
        if (
            least.isValid()
            and w.height() < least.height() - 1
            and not isinstance(w, (QLabel, QAbstractScrollArea))
        ):
            found.append(f"{name}: {w.height()} high, needs {least.height()}")
        top_left = w.mapTo(root, w.rect().topLeft())
        bottom_right = w.mapTo(root, w.rect().bottomRight())
        if w.parentWidget() is root or _all_shown(w, root):
            if not (window_rect.contains(top_left) and window_rect.contains(bottom_right)):
                found.append(f"{name}: reaches past its window's edge")
    return found


def _inner(w) -> bool:
    """A part Qt makes inside another widget (a combo box's field, a field's clear button, a
    view's header or viewport): its owner is judged instead."""
    from PySide6.QtWidgets import QAbstractItemView, QComboBox, QHeaderView, QLineEdit  # noqa: PLC0415 - Qt only in the child

    parent = w.parentWidget()
    return (
        w.objectName().startswith("qt_")
        or isinstance(w, QHeaderView)
        or isinstance(parent, (QComboBox, QLineEdit))
        or (parent is not None and isinstance(parent.parentWidget(), QAbstractItemView))
    )


def _all_shown(w, root) -> bool:
    """Whether nothing between `w` and its window scrolls (a scrolled widget may pass an edge)."""
    from PySide6.QtWidgets import QAbstractScrollArea  # noqa: PLC0415 - Qt only in the child

    p = w.parentWidget()
    while p is not None and p is not root:
        if isinstance(p, QAbstractScrollArea):
            return False
        p = p.parentWidget()
    return True


def _text(w) -> str:
    for attr in ("text", "currentText", "title", "placeholderText"):
        fn = getattr(w, attr, None)
        if callable(fn):
            try:
                value = fn()
            except TypeError:
                continue
            if isinstance(value, str) and value:
                return value[:40]
    return ""


def child(out: Path, data_dir: Path) -> int:
    from PySide6 import QtCore, QtWidgets  # noqa: PLC0415 - Qt only in the child

    from core.settings import Settings  # noqa: PLC0415 - Qt only in the child
    from desktop.app import App  # noqa: PLC0415 - Qt only in the child
    from desktop.look import theme  # noqa: PLC0415 - Qt only in the child

    qapp = QtWidgets.QApplication(sys.argv[:1])
    qapp.setWindowIcon(theme.app_icon())
    settings = Settings.from_env(data_dir=data_dir, embed_in_background=False)
    app = App(settings, use_tray=False, reminders=False, dbus=False)
    screen = qapp.primaryScreen()
    report: dict = {
        "scale": float(os.environ.get("QT_SCALE_FACTOR", "1")),
        "screen": [screen.size().width(), screen.size().height()],
        "available": [screen.availableGeometry().width(), screen.availableGeometry().height()],
        "windows": {},
    }
    out.mkdir(parents=True, exist_ok=True)

    def settle(seconds: float = 0.6) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end or app.worker.busy:
            qapp.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.01)

    def shoot(name: str, window) -> None:
        settle()
        frame = window.frameGeometry()
        avail = screen.availableGeometry()
        report["windows"][name] = {
            "frame": [frame.x(), frame.y(), frame.width(), frame.height()],
            "fits": avail.contains(frame),
            "clipped": clipped(window),
        }
        screen.grabWindow(0).save(str(out / f"{name}.png"))

    deadline = time.monotonic() + 120
    app.show_window()
    while not app.window.ready and time.monotonic() < deadline:
        settle(0.1)
    app.window.show_section(app.window.section)
    shoot("main-window", app.window)
    app.window.set_question("what's coming up next week")
    app.window.run_ask(open_first=True)
    settle(1.5)
    shoot("main-window-answer", app.window)

    dialogs = app.window.dialogs
    for name, opened in (
        ("preferences", dialogs.preferences),
        ("shortcuts", dialogs.shortcuts),
        ("about", dialogs.about),
        ("problems", dialogs.problems),
    ):
        dialog = opened()
        shoot(name, dialog)
        if name == "preferences":
            tabs = dialog.findChild(QtWidgets.QTabWidget)
            for i in range(1, tabs.count() if tabs is not None else 0):
                tabs.setCurrentIndex(i)
                shoot(f"preferences-{tabs.tabText(i).lower().replace(' ', '-')}", dialog)
        dialog.close()

    from desktop.dialogs import profile  # noqa: PLC0415 - Qt only in the child
    from desktop.dialogs.transfer import ExportChoice, Summary  # noqa: PLC0415 - Qt only in the child

    made = profile.ProfileDialog(app, app.window)
    made.show()
    shoot("profile", made)
    made.close()
    export = ExportChoice(app.window)
    export.show()
    shoot("export", export)
    export.close()
    from types import SimpleNamespace  # noqa: PLC0415 - only here

    report_of = SimpleNamespace(
        created=3, updated=1, unchanged=12, birthdays=1,
        skipped=[{"item": "Jo Bloggs (line 40)", "why": "a birthday on 31 February cannot be read"}],
    )  # fmt: skip
    summary = Summary(app.window, "contacts.vcf", report_of)
    summary.show()
    shoot("import-summary", summary)
    summary.close()

    app.quick_capture("call Ana tomorrow at 5 and every week after that about the library books")
    settle(1.5)
    shoot("quick-capture", app.quick)
    app.quick.hide()

    from desktop.reminders.pick import PickTime  # noqa: PLC0415 - Qt only in the child

    pick = PickTime("x", "renew the car insurance", app.clock.now)
    pick.show()
    pick.when.setText("tomorrow 3pm")
    shoot("pick-a-time", pick)
    pick.close()

    (out / "report.json").write_text(json.dumps(report, indent=1))
    app.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/neurons-screens"))
    parser.add_argument("--scale", type=float, action="append", help="1, 2 (repeat for several)")
    parser.add_argument("--screen", default="1440x900")
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args.child, args.data_dir)
    data_dir = args.data_dir or args.out / "data"
    if not data_dir.exists():
        fill(data_dir)
    for scale in args.scale or [1.0, 2.0]:
        folder = args.out / f"{scale:g}x"
        report = take(folder, scale, args.screen, data_dir)
        for name, seen in report["windows"].items():
            trouble = ([] if seen["fits"] else ["past the screen's edge"]) + seen["clipped"]
            print(f"{scale:g}x {name:<28} {seen['frame']}  {'; '.join(trouble) or 'fits'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
