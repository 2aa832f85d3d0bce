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


def test_preferences_choose_the_backup_folder_and_keep_the_passphrase(qtbot, tmp_path, kept):
    from core import config  # noqa: PLC0415 - only this test
    from core.store import secrets  # noqa: PLC0415 - only this test
    from desktop.dialogs.preferences import PreferencesDialog  # noqa: PLC0415 - only this test
    from desktop.runtime.prefs import Prefs  # noqa: PLC0415 - only this test

    data_dir, usb = tmp_path / "data", tmp_path / "usb"
    data_dir.mkdir()
    usb.mkdir()
    dialog = PreferencesDialog(Prefs(), Settings(data_dir=data_dir))
    qtbot.addWidget(dialog)
    dialog.backup_dir.setText(str(data_dir))  # inside the data dir: refused, said
    dialog.backup_dir.editingFinished.emit()
    assert "inside the data dir" in dialog.backup_hint.text()
    assert config.load(data_dir).backup_dir is None
    dialog.backup_dir.setText(str(usb))
    dialog.backup_dir.editingFinished.emit()
    assert config.load(data_dir).backup_dir == str(usb)
    assert dialog.passphrase.echoMode() == dialog.passphrase.EchoMode.Password
    dialog.passphrase.setText("short")
    dialog._keep_passphrase()
    assert "at least" in dialog.backup_hint.text() and not kept.items
    dialog.passphrase.setText("a long enough passphrase")
    dialog._keep_passphrase()
    assert secrets.backup_passphrase(data_dir) == "a long enough passphrase"
    assert dialog.passphrase.text() == ""  # not left in the field
    dialog.backup_dir.setText("")
    dialog.backup_dir.editingFinished.emit()
    assert config.load(data_dir).backup_dir is None
