"""The window's menu bar (File, Edit, View, Item, Tools, Help), bound from the shortcut table,
and the dialogs it opens: Preferences, Keyboard shortcuts, About, Problems.

Both are built from what they are handed (the window's handlers in `MenuDoors`, the detail pane,
the preferences): nothing here reads the window's attributes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from core import autostart
from core.model import State
from desktop.dialogs.problems import ProblemsDialog
from desktop.items.sections import LABELS, SECTION_KEYS, Section
from desktop.look import keys
from desktop.runtime.problems import Problems

if TYPE_CHECKING:
    from core.settings import Settings
    from desktop.detail.pane import DetailPane
    from desktop.runtime.prefs import Prefs

# One more page of Preferences, made when the dialog is: (its title, its widget)
PreferencePage = Callable[[], tuple[str, QWidget]]


class DialogOpener:
    """One of each dialog, made on first use and brought to the front after."""

    def __init__(
        self,
        parent: QWidget,
        prefs: Prefs,
        settings: Settings | None,
        problems: Problems,
        about_facts: Callable[[], dict],
        prefs_changed: Callable[[str], None],
    ):
        self.parent = parent
        self.prefs = prefs
        self.settings = settings
        self.problems_kept = problems
        self.about_facts = about_facts
        self.prefs_changed = prefs_changed  # what changed in Preferences ("theme", "language"…)
        self.pages: list[PreferencePage] = []  # Preferences' pages beyond General
        self.shown: dict[str, QWidget] = {}

    def _open(self, name: str, make: Callable[[], QWidget]) -> QWidget:
        dialog = self.shown.get(name)
        if dialog is None:
            dialog = self.shown[name] = make()
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def preferences(self) -> QWidget:
        from desktop.dialogs.preferences import PreferencesDialog  # noqa: PLC0415 - built on first use

        def make() -> QWidget:
            pages = [make_page() for make_page in self.pages]
            dialog = PreferencesDialog(self.prefs, self.settings, self.parent, pages=pages)
            dialog.changed.connect(self.prefs_changed)
            return dialog

        return self._open("preferences", make)

    def shortcuts(self) -> QWidget:
        from desktop.dialogs.help import ShortcutsDialog  # noqa: PLC0415 - built on first use

        return self._open("shortcuts", lambda: ShortcutsDialog(self.parent))

    def about(self) -> QWidget:
        from desktop.dialogs.help import AboutDialog  # noqa: PLC0415 - built on first use

        return self._open("about", lambda: AboutDialog(self.about_facts, self.parent))

    def problems(self) -> ProblemsDialog:
        dialog = self._open("problems", lambda: ProblemsDialog(self.problems_kept, self.parent))
        assert isinstance(dialog, ProblemsDialog)
        return dialog


@dataclass(frozen=True)
class MenuDoors:
    """What the menus' actions do: the window's handlers, handed in."""

    quick_capture: Callable[[], None]
    quit: Callable[[], None]
    undo: Callable[[], None]
    ask: Callable[[], None]
    show_section: Callable[[Section], None]  # the person chose it
    refresh: Callable[[], None]
    pause: Callable[[bool], None]
    reindex: Callable[[], None]
    report: Callable[[str], None]  # the status line


class WindowMenus:
    """The menu bar of `window`: its actions by the name in the shortcut table (keys.py), and
    the places others add theirs (`file_menu` before `file_menu_at`, `tools_menu`)."""

    def __init__(
        self,
        window: QMainWindow,
        doors: MenuDoors,
        detail: DetailPane,
        dialogs: DialogOpener,
        settings: Settings | None,
    ):
        self.window = window
        self.doors = doors
        self.detail = detail
        self.settings = settings
        self.actions: dict[str, QAction] = {}
        bar = window.menuBar()

        file = bar.addMenu("&File")
        self._action(file, "capture", "Quick capture…", doors.quick_capture)
        file.addSeparator()
        # (import and export land here: `file_menu` and `file_menu_at` are their place)
        self.file_menu = file
        self.file_menu_at = file.addSeparator()
        self._action(file, "close", "Close window", window.close)
        self._action(file, "quit", "Quit Neurons", doors.quit)

        edit = bar.addMenu("&Edit")
        self.undo_action = self._action(edit, "undo", "Undo", doors.undo)
        self.undo_action.setEnabled(False)
        edit.addSeparator()
        self._action(edit, "ask", "Ask…", doors.ask)
        edit.addSeparator()
        self._action(edit, "preferences", "Preferences…", dialogs.preferences)

        view = bar.addMenu("&View")
        for key in SECTION_KEYS:
            self._action(view, f"section_{key}", LABELS[key], lambda _=False, k=key: doors.show_section(k))
        view.addSeparator()
        self._action(view, "refresh", "Refresh", doors.refresh)

        item = bar.addMenu("&Item")
        self._action(item, "save", "Save changes", detail.save)
        item.addSeparator()
        self._action(item, "done", "Done", detail.mark_done)
        self._action(item, "snooze", "Snooze", detail.snooze_default)
        self._action(item, "archive", "Archive", lambda: detail.set_state(State.ARCHIVED))
        self._action(item, "trash", "Move to the trash", lambda: detail.set_state(State.TRASHED))
        self.item_menu = item

        tools = bar.addMenu("&Tools")
        self.pause_action = self._action(tools, "pause", "Pause reminders", doors.pause, checkable=True)
        self.autostart_action = self._action(
            tools, "autostart", "Start at login", self._set_autostart, checkable=True
        )
        tools.addSeparator()
        self.reindex_action = self._action(tools, "reindex", "Rebuild the search index", doors.reindex)
        tools.aboutToShow.connect(self.sync_autostart)
        self.tools_menu = tools

        helpm = bar.addMenu("&Help")
        self._action(helpm, "help_keys", "Keyboard shortcuts", dialogs.shortcuts)
        self._action(helpm, "problems", "Problems…", dialogs.problems)
        helpm.addSeparator()
        self._action(helpm, "about", "About Neurons", dialogs.about)
        # Delete trashes from the list (RowList); shown in the menu without stealing the key
        self.actions["trash"].setText(f"Move to the trash\t{keys.BY_NAME['trash'].keys[0]}")
        self.actions["trash"].setShortcuts([])
        self.sync_autostart()

    def _action(
        self, menu: QMenu, name: str, text: str, slot: Callable[..., object], *, checkable: bool = False
    ) -> QAction:
        action = QAction(text, self.window)
        if name in keys.BY_NAME:
            action.setShortcuts(keys.sequences(name))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(checkable)
        (action.toggled if checkable else action.triggered).connect(slot)
        menu.addAction(action)
        self.window.addAction(action)  # shortcuts work while the menu bar is hidden or closed
        self.actions[name] = action
        return action

    def update_item_actions(self) -> None:
        caps = self.detail.capabilities()
        for name in ("save", "done", "snooze", "archive", "trash"):
            self.actions[name].setEnabled(name in caps)

    def sync_autostart(self) -> None:
        self.autostart_action.blockSignals(True)
        self.autostart_action.setChecked(autostart.is_enabled())
        self.autostart_action.blockSignals(False)

    def _set_autostart(self, on: bool) -> None:
        try:
            autostart.set_enabled(on, self.settings)
        except OSError as exc:
            self.doors.report(f"Start at login could not be changed: {exc}")
        else:
            self.doors.report(
                "Neurons will start in the tray when you log in"
                if on
                else "Neurons will not start when you log in"
            )
        self.sync_autostart()
