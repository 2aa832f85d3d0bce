"""Warnings reach the person: what is logged at WARNING and above, by any room on any thread,
lands in Help ▸ Problems with its details to copy; INFO does not; a flood keeps the newest; the
app installs the handler once and removes it when it closes."""

from __future__ import annotations

import logging
import threading

import pytest
from PySide6.QtGui import QGuiApplication

from core import backup
from core.memory import Memory
from core.settings import Settings, default_model_dir
from desktop.runtime import problems as problems_module
from desktop.runtime.problems import ProblemsLog
from tests.desktop.conftest import WAIT_MS, make_app, settle


def ours(handler_owner: ProblemsLog) -> list[logging.Handler]:
    return [h for h in logging.getLogger().handlers if h is handler_owner.handler]


def test_a_core_warning_shows_in_problems_and_info_does_not(app, qtbot):
    window = app.window
    assert not window.problems.items
    logging.getLogger("core.backup").info("a backup was taken")  # ordinary news: not a problem
    logging.getLogger("core.backup").warning("the store's stamp could not be read: %s", "disk full")
    qtbot.waitUntil(lambda: len(window.problems.items) == 1, timeout=WAIT_MS)
    assert window.status.problems_button.isVisible()
    dialog = window.dialogs.problems()
    assert dialog.list.count() == 1
    assert "the store's stamp could not be read: disk full" in dialog.list.item(0).text()
    details = dialog.details.toPlainText()
    assert "WARNING from core.backup" in details and "Neurons " in details
    assert "a backup was taken" not in details
    dialog.copy()
    copied = QGuiApplication.clipboard().text()
    assert "the store's stamp could not be read: disk full" in copied and "WARNING from core.backup" in copied


def test_warnings_from_another_thread_arrive_and_a_flood_keeps_the_newest(app, qtbot):
    problems = app.window.problems
    count = problems_module.KEEP + 50

    def flood() -> None:
        for i in range(count):
            logging.getLogger("core.recall").warning("warning %d", i)

    thread = threading.Thread(target=flood)
    thread.start()
    thread.join()
    qtbot.waitUntil(
        lambda: bool(problems.items) and problems.items[-1].summary == f"warning {count - 1}", timeout=WAIT_MS
    )
    assert len(problems.items) == problems_module.KEEP
    assert problems.items[0].summary == f"warning {count - problems_module.KEEP}"


def test_an_error_handed_to_problems_is_kept_once(app, qtbot):
    def broken(memory):
        raise RuntimeError("the disk said no")

    app.ctx.read(broken).on_success(lambda _: None).run("load notes")
    settle(qtbot, app)
    qtbot.wait(50)  # a logged copy would arrive through the event loop by now
    assert [p.summary for p in app.window.problems.items] == ["RuntimeError: the disk said no"]


@pytest.fixture
def own_memory(tmp_path):
    memory = Memory.open(
        Settings(data_dir=tmp_path / "data", embed_in_background=False, model_dir=default_model_dir())
    )
    yield memory
    memory.close()


def test_a_failed_automatic_backup_is_in_problems_with_details(qtbot, own_memory, clock, notifier):
    app = make_app(qtbot, own_memory, clock, notifier)
    try:
        own_memory.capture("a note worth a backup", kind="note")
        # the backups' folder cannot be made: a file of the same name is in the way
        backup.folder(own_memory.store.settings.data_dir).write_text("not a folder")
        app.now_and_then()
        settle(qtbot, app)
        problems = app.window.problems
        qtbot.waitUntil(lambda: bool(problems.items), timeout=WAIT_MS)
        (problem,) = problems.items
        assert problem.summary.startswith("the automatic backup failed:")
        dialog = app.window.dialogs.problems()
        assert "Traceback" in dialog.details.toPlainText()  # what to copy into a bug report
    finally:
        settle(qtbot, app)
        app.close()
    assert not ours(app.problems_log)  # removed at exit


def test_the_app_installs_the_handler_once_and_removes_it_when_it_closes(
    qtbot, embedded_memory, clock, notifier
):
    app = make_app(qtbot, embedded_memory, clock, notifier)
    try:
        app.problems_log.install()  # a second install adds nothing
        assert len(ours(app.problems_log)) == 1
    finally:
        settle(qtbot, app)
        app.close()
    assert not ours(app.problems_log)
    logging.getLogger("core").warning("after the app closed")  # nobody is told; nothing breaks
