"""Neurons died without a word: `Fatal Python error: none_dealloc: deallocating None` in the rows'
delegate. The cause: a Qt binding that hands Python a None it does not own (PySide6 6.12.0's
abi3 wheels on CPython 3.11, where None is still reference-counted: every None it returns takes
one reference away, and after enough paints None itself is freed). Each return of None from Qt
is one reference lost, so these tests count None's references around real Qt calls and the real
delegate's painting. And when the app does crash, it leaves a report the next launch points to."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtWidgets import QListWidget, QStyleOptionViewItem

from core.model import Kind, Neuron, State
from core.settings import Settings
from desktop.items.reads import Row
from desktop.items.rows import RowList
from desktop.runtime import crash
from tests.desktop.conftest import FakeNotifier, make_app, settle

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CALLS = 500


def _reminder(title: str, due: str, rule: str | None = None) -> Neuron:
    attrs = {"title": title, "due_at": due}
    if rule:
        attrs["rrule"] = rule
    return Neuron(
        id=uuid.uuid4(), kind=Kind.REMINDER, body=title, attrs=attrs, state=State.ACTIVE, created_at=NOW
    )


def _answer_rows() -> list[Row]:
    """An answer as the window shows one: a window under its heading, related rows, a fold --
    with the reminder whose due time an edit from the command line left unreadable."""
    return [
        Row(_reminder("dentist", (NOW + timedelta(days=1)).isoformat()), why="due tomorrow", group="window"),
        Row(_reminder("pills", NOW.isoformat(), "FREQ=DAILY"), group="window"),
        Row(_reminder("call the bank", "tomorrow 6pm")),  # the bad due time
        Row(_reminder("gym", (NOW + timedelta(days=3)).isoformat()), why="mentions gym"),
        Row(_reminder("old", (NOW - timedelta(days=40)).isoformat()), loose=True),
    ]


def test_qt_hands_python_none_it_owns(qapp):
    """The binding itself: an empty list's current item, an unset role, an option's widget."""
    view = QListWidget()
    view.addItem("x")
    option = QStyleOptionViewItem()
    for call in (view.currentItem, lambda: view.item(0).data(1234), lambda: option.widget):
        call()
        before = sys.getrefcount(None)
        for _ in range(CALLS):
            call()
        assert sys.getrefcount(None) >= before - 5, (
            "this Qt binding drops a reference to None on every return of None: Neurons would "
            "close unexpectedly (see pyproject.toml's PySide6 line)"
        )


def test_painting_rows_keeps_every_reference_to_none(qtbot):
    rows = RowList(lambda: NOW)
    qtbot.addWidget(rows)
    rows.resize(420, 600)
    rows.set_rows(_answer_rows(), window_label="This week")
    rows.toggle_fold(rows.fold_item())  # the loose rows shown too
    rows.show()
    qtbot.waitExposed(rows)
    rows.viewport().grab()
    before = sys.getrefcount(None)
    for _ in range(50):
        rows.viewport().grab()  # paints every row, heading and the fold switch
        rows.rows(), rows.shown_rows(), rows.current_id(), rows.fold_item()
    assert sys.getrefcount(None) >= before - 5


def test_the_list_survives_the_paints_of_a_long_day():
    """The crash itself, in a process of its own: paint the answer until None would have run out
    of references. A binding that loses them dies here with none_dealloc, as the app did."""
    code = textwrap.dedent(
        """
        import os, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from desktop.items.rows import RowList
        from tests.desktop.test_crash import NOW, _answer_rows
        rows = RowList(lambda: NOW)
        rows.resize(420, 600)
        rows.set_rows(_answer_rows(), window_label="This week")
        rows.show()
        app.processEvents()
        rows.viewport().grab()
        start = sys.getrefcount(None)
        rows.viewport().grab()
        lost = max(start - sys.getrefcount(None), 0)
        paints = 200 if lost == 0 else start // lost + 50
        for _ in range(paints):
            rows.viewport().grab()
        print("painted", paints)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "painted" in done.stdout


# -- the report a crash leaves, and the next launch -------------------------------------------


def _die_in(data_dir: Path, how: str) -> subprocess.CompletedProcess:
    code = textwrap.dedent(
        f"""
        import faulthandler, os, sys
        from pathlib import Path
        from desktop.runtime.crash import CrashWatch
        CrashWatch(Path({str(data_dir)!r})).start()
        def paint_the_rows():
            {how}
        paint_the_rows()
        """
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2]
    )


def test_a_fatal_error_leaves_a_report_with_every_stack(tmp_path):
    done = _die_in(tmp_path, "faulthandler._sigsegv()")
    assert done.returncode != 0
    watch = crash.CrashWatch(tmp_path)
    report = watch.start()
    assert report is not None and report.traced
    assert "paint_the_rows" in report.text and "Segmentation fault" in report.text
    assert report.path.name.startswith("report-") and report.path.is_file()
    watch.stop()  # a clean quit: nothing to say next time
    assert crash.CrashWatch(tmp_path).start() is None


def test_a_killed_run_is_reported_without_stacks(tmp_path):
    done = _die_in(tmp_path, "os.kill(os.getpid(), 9)")
    assert done.returncode == -9
    report = crash.CrashWatch(tmp_path).start()
    assert report is not None and not report.traced and "started" in report.text


def test_the_next_launch_says_once_that_neurons_closed_unexpectedly(
    qtbot, embedded_memory, clock, notifier, tmp_path
):
    _die_in(tmp_path, "os.abort()")
    settings = Settings(data_dir=tmp_path)
    app = make_app(qtbot, embedded_memory, clock, notifier, settings=settings)
    settle(qtbot, app)
    assert app.window.banner.isVisibleTo(app.window)
    assert "closed unexpectedly" in app.window.banner.text.text()
    [problem] = app.window.problems.items
    assert "closed unexpectedly" in problem.summary and "Fatal Python error: Aborted" in problem.details
    dialog = app.window.dialogs.problems()
    assert "paint_the_rows" in dialog.details.toPlainText()
    app.quit()
    app.close()
    again = make_app(qtbot, embedded_memory, clock, FakeNotifier(), settings=settings)
    settle(qtbot, again)
    assert again.crashed is None and not again.window.problems.items
    assert not again.window.banner.isVisibleTo(again.window)
    again.close()


def test_the_first_run_in_a_new_data_dir_keeps_a_crash_report(tmp_path):
    data_dir = tmp_path / "new" / "data"  # nothing of it exists yet
    watch = crash.CrashWatch(data_dir)
    watch.start()
    assert watch.running.exists()
    assert (data_dir.stat().st_mode & 0o777, watch.folder.stat().st_mode & 0o777) == (0o700, 0o700)
    watch.stop()
