"""At 200% on a laptop's screen, the main window and every dialog fit on the screen and cut
nothing off: each opened by the real app in a process of its own on Xvfb with QT_SCALE_FACTOR=2
(tests/bench/screens.py, which also keeps the screenshots to look at)."""

from __future__ import annotations

import shutil

import pytest

from tests.bench import screens

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (apt: xvfb)"),
]

WINDOWS = {
    "main-window",
    "main-window-answer",
    "preferences",
    "preferences-accounts",
    "shortcuts",
    "about",
    "problems",
    "profile",
    "export",
    "import-summary",
    "quick-capture",
    "pick-a-time",
}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scale") / "data"
    screens.fill(folder)
    return folder


@pytest.mark.parametrize("screen", ["1920x1080", "1440x900"])
def test_every_window_fits_and_cuts_nothing_off_at_200_percent(tmp_path, data_dir, screen):
    report = screens.take(tmp_path / "2x", 2.0, screen, data_dir)
    wide, high = (int(x) for x in screen.split("x"))
    assert report["screen"] == [wide // 2, high // 2]  # Qt's pixels: the scale took
    assert set(report["windows"]) == WINDOWS
    trouble = {
        name: ([] if seen["fits"] else [f"past the screen's edge at {seen['frame']}"]) + seen["clipped"]
        for name, seen in report["windows"].items()
    }
    assert {name: said for name, said in trouble.items() if said} == {}
    for name in WINDOWS:
        assert (tmp_path / "2x" / f"{name}.png").stat().st_size > 0
