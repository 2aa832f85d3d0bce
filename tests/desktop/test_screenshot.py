"""`neurons-desktop --screenshot` renders the window with its data offscreen, writes nothing, exits;
and the demo importer that fills a store for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from PySide6.QtGui import QImage

from core import remind
from core.memory import Memory
from core.model import Kind, State
from core.settings import Settings
from desktop import demo
from tests.conftest import ROOT


def test_screenshot_renders_the_window_and_writes_nothing(tmp_path):
    data_dir = tmp_path / "data"
    settings = Settings.from_env(data_dir=data_dir, embed_in_background=False)
    with Memory.open(settings) as memory:
        due = memory.capture(
            "overdue: call the landlord", kind="reminder", attrs={"due_at": "2020-01-01T09:00:00+00:00"}
        )
        memory.capture("Lunch ideas: the Thai place on Mare Street", kind="note")
        before = json.dumps(memory.export()["neurons"], sort_keys=True)
    out = tmp_path / "shot.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-m", "desktop.launch", "--data-dir", str(data_dir), "--screenshot", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    image = QImage(str(out))
    assert not image.isNull() and (image.width(), image.height()) == (1360, 860)
    with Memory.open(settings) as memory:
        assert json.dumps(memory.export()["neurons"], sort_keys=True) == before
        assert "notified_at" not in memory.get(due.id).attrs  # no reminder fired


def test_screenshot_of_a_busy_data_dir_says_so(tmp_path, embedded_store):
    busy = embedded_store.settings.data_dir
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "desktop.launch",
            "--data-dir",
            str(busy),
            "--screenshot",
            str(tmp_path / "x.png"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "in use" in done.stderr


@pytest.mark.skipif(not demo.DEFAULT_DATASET.exists(), reason="the dev dataset is not beside the repo")
def test_demo_imports_a_realistic_memory(embedded_memory):
    space = json.loads(demo.DEFAULT_DATASET.read_text())["spaces"][0]
    counts = demo.load(embedded_memory, space)
    assert counts["neurons"] == len(space["neurons"]) and counts["links"] == len(space["edges"])
    reminders = embedded_memory.reminders()
    now = remind.utcnow()
    assert any(remind.next_alarm(r) and remind.next_alarm(r).fire_at > now for r in reminders)
    assert embedded_memory.list(Kind.REMINDER, [State.DONE], limit=500)
    assert remind.missed(reminders, now) == []  # opening the demo does not flood "N missed"
