"""The window's dialogs as a person sees them: nothing cut off, no blank
current choice in a dropdown, Problems says plainly when there are none."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QLabel, QLineEdit, QWidget

from desktop.dialogs.accounts import AddAccountDialog
from desktop.dialogs.problems import ProblemsDialog
from desktop.dialogs.profile import ProfileDialog
from desktop.dialogs.transfer import ExportChoice
from desktop.look import theme
from desktop.runtime.problems import Problems
from tests.desktop.conftest import WAIT_MS


def test_problems_says_no_problems_without_something_went_wrong(qtbot):
    problems = Problems()
    dialog = ProblemsDialog(problems)
    qtbot.addWidget(dialog)
    assert "went wrong" not in dialog.intro.text() and "No problems" in dialog.intro.text()
    assert not dialog.list.isVisibleTo(dialog)
    problems.add(RuntimeError("the index could not be read"), "index")
    assert "went wrong" in dialog.intro.text() and dialog.list.isVisibleTo(dialog)
    problems.clear()
    assert "No problems" in dialog.intro.text()


def test_every_dropdown_of_every_dialog_shows_its_current_choice(app, qtbot):
    window = app.window
    for show in (
        window.dialogs.preferences,
        window.dialogs.shortcuts,
        window.dialogs.about,
        window.dialogs.problems,
    ):
        dialog = show()
        qtbot.waitExposed(dialog)
        for combo in dialog.findChildren(QComboBox):
            assert combo.currentIndex() >= 0 and combo.currentText().strip(), (
                dialog.windowTitle(),
                combo.accessibleName(),
            )
        dialog.close()


def dialogs_of(app, qtbot):
    """(name, dialog) of every dialog the window opens, as it opens it."""
    window = app.window
    yield "preferences", window.dialogs.preferences()
    yield "shortcuts", window.dialogs.shortcuts()
    yield "about", window.dialogs.about()
    yield "problems-none", window.dialogs.problems()
    profile = ProfileDialog(app, window)
    qtbot.waitUntil(lambda: hasattr(profile, "facts"), timeout=WAIT_MS)
    yield "profile", profile
    yield "add-account", AddAccountDialog(app.ctx, window)
    yield "export", ExportChoice(window)


def clipped(dialog) -> list[str]:
    """What a dialog cuts off at its size: a label, button or field narrower (or a wrapped label
    shorter) than its text needs."""
    out = []
    for w in dialog.findChildren(QWidget):
        if not w.isVisibleTo(dialog) or w.width() <= 0:
            continue
        if isinstance(w, QLabel) and w.wordWrap():
            if w.hasHeightForWidth() and w.height() < w.heightForWidth(w.width()) - 1:
                out.append(
                    f"wrapped label cut: {w.text()[:50]!r} {w.height()} < {w.heightForWidth(w.width())}"
                )
        elif isinstance(w, (QLabel, QAbstractButton)):
            hint = w.sizeHint()
            if w.text() and w.width() < hint.width() - 1:
                out.append(f"{type(w).__name__} cut: {w.text()[:50]!r} {w.width()} < {hint.width()}")
        elif isinstance(w, QLineEdit) and w.placeholderText() and not w.text():
            needed = w.fontMetrics().horizontalAdvance(w.placeholderText() + "MM")  # and its padding
            if w.width() < needed:
                out.append(f"placeholder cut: {w.placeholderText()[:50]!r} {w.width()} < {needed}")
    return out


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_no_dialog_cuts_anything_off(app, qtbot, dark):
    """At the scale this runs at (the suite at 100%; QT_SCALE_FACTOR=2 for 200%), in both themes:
    screenshots go to $NEURONS_SHOTS when it is set, to look at."""
    theme.apply(theme.gui_app(), "dark" if dark else "light")
    shots = os.environ.get("NEURONS_SHOTS")
    try:
        cut = {}
        for name, dialog in dialogs_of(app, qtbot):
            dialog.show()
            qtbot.waitExposed(dialog)
            QApplication.processEvents()
            if shots:
                scale = os.environ.get("QT_SCALE_FACTOR", "1")
                dialog.grab().save(str(Path(shots) / f"{name}-{'dark' if dark else 'light'}-{scale}x.png"))
            if clipped(dialog):
                cut[name] = clipped(dialog)
            dialog.close()
        assert cut == {}
    finally:
        theme.apply(theme.gui_app(), "light")


def ink(image, rect) -> int:
    """How many pixels inside `rect` (its frame left out) differ clearly from its commonest
    colour: text drawn there."""
    colours: dict[int, int] = {}
    rect = rect.intersected(image.rect()).adjusted(4, 4, -4, -4)
    for x in range(rect.left(), rect.right()):
        for y in range(rect.top(), rect.bottom()):
            rgb = image.pixel(x, y)
            colours[rgb] = colours.get(rgb, 0) + 1
    back = QColor(max(colours, key=lambda c: colours[c]))

    def far(rgb: int) -> bool:
        c = QColor(rgb)
        return abs(c.red() - back.red()) + abs(c.green() - back.green()) + abs(c.blue() - back.blue()) > 150

    return sum(n for rgb, n in colours.items() if far(rgb))


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_dropdowns_open_list_shows_its_current_choice(app, qtbot, dark):
    """Its current row was once drawn blank in the light theme."""
    theme.apply(theme.gui_app(), "dark" if dark else "light")
    try:
        dialog = app.window.dialogs.preferences()
        qtbot.waitExposed(dialog)
        for combo in dialog.findChildren(QComboBox):
            combo.showPopup()
            view = combo.view()
            qtbot.waitExposed(view)
            QApplication.processEvents()
            popup = view.window()  # as it shows: the list in its frame
            image = popup.grab().toImage()
            scale = image.devicePixelRatio()
            for row in range(combo.count()):
                r = view.visualRect(view.model().index(row, 0))
                r.moveTopLeft(view.viewport().mapTo(popup, r.topLeft()))
                rect = QRect(
                    int(r.left() * scale),
                    int(r.top() * scale),
                    int(r.width() * scale),
                    int(r.height() * scale),
                )
                assert ink(image, rect) > 20, (
                    combo.accessibleName(),
                    combo.itemText(row),
                    row == combo.currentIndex(),
                )
            combo.hidePopup()
    finally:
        theme.apply(theme.gui_app(), "light")


@pytest.mark.skipif(os.environ.get("QT_SCALE_FACTOR") == "2", reason="this run is the one at 200%")
def test_no_dialog_cuts_anything_off_at_200_percent(tmp_path):
    """The check above in a process of its own at twice the scale (a scale is set before Qt
    starts): where Profile and storage cut its sentences and buttons."""
    env = {**os.environ, "QT_SCALE_FACTOR": "2", "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            f"{__file__}::test_no_dialog_cuts_anything_off",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
        ],
        env=env,
        cwd=Path(__file__).parents[2],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]


def test_the_numeric_dates_preference_is_the_data_dirs_region(qtbot, tmp_path, monkeypatch):
    """Preferences ▸ Numeric dates keeps the region in the data dir (where `neurons config
    date-region` reads and writes it) and reads dates that way at once; the environment's
    NEURONS_DATE_REGION, when set, is said to win."""
    from datetime import datetime  # noqa: PLC0415 - only this test
    from zoneinfo import ZoneInfo  # noqa: PLC0415 - only this test

    from core import config  # noqa: PLC0415 - only this test
    from core.settings import Settings  # noqa: PLC0415 - only this test
    from core.when import find_when  # noqa: PLC0415 - only this test
    from desktop.dialogs.preferences import PreferencesDialog  # noqa: PLC0415 - only this test
    from desktop.runtime.prefs import Prefs  # noqa: PLC0415 - only this test

    monkeypatch.setattr(config, "_date_region", None)  # restored after the test
    monkeypatch.delenv("NEURONS_DATE_REGION", raising=False)
    monkeypatch.setenv("LC_ALL", "C")
    now = datetime(2026, 12, 5, 10, 0, tzinfo=ZoneInfo("UTC"))
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    dialog = PreferencesDialog(Prefs(), Settings(data_dir=data_dir))
    qtbot.addWidget(dialog)
    combo = dialog.date_region
    assert combo.currentData() == "" and "May 6" not in dialog.date_region_hint.text()
    assert "English (United States) — 4/22/27" in [combo.itemText(i) for i in range(combo.count())]
    combo.setCurrentIndex(combo.findData("en_US"))
    assert config.load(data_dir).date_region == "en_US"
    assert "May 6" in dialog.date_region_hint.text()
    when = find_when("05/06", now)
    assert when is not None and (when.due.month, when.due.day) == (5, 6)
    combo.setCurrentIndex(combo.findData("de_DE"))
    assert config.load(data_dir).date_region == "de_DE"
    when = find_when("05/06", now)
    assert when is not None and (when.due.month, when.due.day) == (6, 5)
    # a new dialog shows the kept choice; the environment's region is said to win
    monkeypatch.setenv("NEURONS_DATE_REGION", "en_US")
    again = PreferencesDialog(Prefs(), Settings.from_env(data_dir=data_dir))
    qtbot.addWidget(again)
    assert again.date_region.currentData() == "de_DE"
    assert "NEURONS_DATE_REGION=en_US is set and wins" in again.date_region_hint.text()
    again.date_region.setCurrentIndex(0)  # as the computer's locale: forgotten by the data dir
    assert config.load(data_dir).date_region is None
