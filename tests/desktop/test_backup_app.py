"""A backup restored through the running app (as `neurons restore` does over its socket): the
window shows the restored memory at once. On a store of its own (a restore is store-wide)."""

from __future__ import annotations

import pytest

from core import commands
from core.memory import Memory
from core.settings import Settings, default_model_dir
from tests.desktop.conftest import WAIT_MS, make_app, settle


@pytest.fixture
def own_memory(tmp_path):
    memory = Memory.open(
        Settings(
            data_dir=tmp_path / "data",
            embed_in_background=False,
            model_dir=default_model_dir(),
        )
    )
    yield memory
    memory.close()


def test_a_restore_through_the_app_shows_in_the_window(qtbot, own_memory, clock, notifier):
    app = make_app(qtbot, own_memory, clock, notifier)
    try:
        app.window.show()
        kept = own_memory.capture("kept: the note the backup holds", kind="note")
        made = own_memory.backup()
        later = own_memory.capture("gone: written after the backup", kind="note")
        app.window.show_section("notes")
        settle(qtbot, app)
        listed = lambda: {r.neuron.id for r in app.window.rows.rows()}
        qtbot.waitUntil(lambda: listed() == {kept.id, later.id}, timeout=WAIT_MS)
        done = commands.execute(own_memory, ["restore", "--", str(made.path)])  # the socket's call
        assert done["code"] == 0, done
        qtbot.waitUntil(lambda: listed() == {kept.id}, timeout=WAIT_MS)
    finally:
        settle(qtbot, app)
        app.close()
