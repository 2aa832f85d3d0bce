"""The detail pane's buttons and the window's Item menu both say what `actions_for` offers
(tests/core/test_actions.py holds the rules): one table, read in both places."""

from __future__ import annotations

from core.actions import actions_for
from core.vocabulary import ItemAction
from desktop.detail.pane import MENU_NAMES
from tests.core.test_actions import TABLE
from tests.desktop.test_window import open_detail

ITEM_MENU = ("done", "snooze", "archive", "trash")


def test_buttons_and_menu_follow_actions_for(app, embedded_memory, qtbot):
    detail, menu = app.window.detail, app.window.menus.actions
    for kind, state, attrs, _ in TABLE:
        neuron = embedded_memory.capture(f"item {kind} {state}", kind=kind.value, attrs=dict(attrs))
        if state is not neuron.state:
            neuron = embedded_memory.set_state(neuron.id, state)
        open_detail(qtbot, app, neuron)
        offered = actions_for(detail.neuron)
        case = (kind, state, sorted(attrs))
        buttons = {
            ItemAction.DONE: detail.done_button.isVisible() and detail.done_button.text() == "Done",
            ItemAction.DONE_THIS_TIME: detail.done_button.isVisible()
            and detail.done_button.text() == "Done (this time)",
            ItemAction.SNOOZE: detail.snooze_button.isVisible(),
            ItemAction.ARCHIVE: detail.archive_button.isVisible(),
            ItemAction.TRASH: detail.trash_button.isVisible(),
            ItemAction.RESTORE: detail.restore_button.isVisible(),
            ItemAction.RESCHEDULE: "due_at" in detail._fields,
        }
        assert {a for a, shown in buttons.items() if shown} == offered, case
        enabled = {name for name in ITEM_MENU if menu[name].isEnabled()}
        assert enabled == {MENU_NAMES[a] for a in offered if a in MENU_NAMES}, case
