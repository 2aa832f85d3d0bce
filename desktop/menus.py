"""The window's menu bar (File, Edit, View, Item, Tools, Help), bound from the shortcut table,
and the dialogs it opens: Preferences, Keyboard shortcuts, About, Problems."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from core import autostart
from core.model import State
from desktop import keys, theme
from desktop.problems import ProblemsDialog
from desktop.sections import LABELS, SECTION_KEYS

if TYPE_CHECKING:
    from core.settings import Settings
    from desktop.detail import DetailPane
    from desktop.prefs import Prefs
    from desktop.problems import Problems
    from desktop.statusbar import StatusLine


class WindowMenus(QMainWindow):
    """MainWindow's menus: it builds and answers them. What it uses of the window is declared
    here and made by MainWindow (window.py): the detail pane, the preferences, the signals."""

    detail: DetailPane
    prefs: Prefs
    settings: Settings | None
    problems: Problems
    status: StatusLine
    about_facts: Callable[[], dict]
    menu_actions: dict[str, QAction]  # by the name in the shortcut table (keys.py)
    preference_pages: list[Callable[[], tuple[str, QWidget]]]  # more pages of Preferences
    _dialogs: dict[str, QWidget]
    quick_capture: SignalInstance
    pause_toggled: SignalInstance
    quit_requested: SignalInstance
    reindex_requested: SignalInstance
    undo_requested: SignalInstance
    prefs_changed: SignalInstance
    report: Callable[..., None]
    refresh: Callable[[], None]
    show_section: Callable[..., None]
    focus_ask: Callable[[], None]

    def _action(self, menu: QMenu, name: str, text: str, slot, *, checkable: bool = False) -> QAction:
        action = QAction(text, self)
        if name in keys.BY_NAME:
            action.setShortcuts(keys.sequences(name))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(checkable)
        (action.toggled if checkable else action.triggered).connect(slot)
        menu.addAction(action)
        self.addAction(action)  # shortcuts work while the menu bar is hidden or closed
        self.menu_actions[name] = action
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(file, "capture", "Quick capture…", self.quick_capture.emit)
        file.addSeparator()
        # (import and export land here: `file_menu` and `file_menu_at` are their place)
        self.file_menu = file
        self.file_menu_at = file.addSeparator()
        self._action(file, "close", "Close window", self.close)
        self._action(file, "quit", "Quit Neurons", self.quit_requested.emit)

        edit = bar.addMenu("&Edit")
        self.undo_action = self._action(edit, "undo", "Undo", self.undo_requested.emit)
        self.undo_action.setEnabled(False)
        edit.addSeparator()
        self._action(edit, "ask", "Ask…", self.focus_ask)
        edit.addSeparator()
        self._action(edit, "preferences", "Preferences…", self.show_preferences)

        view = bar.addMenu("&View")
        for key in SECTION_KEYS:
            self._action(
                view,
                f"section_{key}",
                LABELS[key],
                lambda _=False, k=key: self.show_section(k, by_person=True),
            )
        view.addSeparator()
        self._action(view, "refresh", "Refresh", self.refresh)

        item = bar.addMenu("&Item")
        self._action(item, "save", "Save changes", self.detail.save)
        item.addSeparator()
        self._action(item, "done", "Done", self.detail.mark_done)
        self._action(item, "snooze", "Snooze", self.detail.snooze_default)
        self._action(item, "archive", "Archive", lambda: self.detail.set_state(State.ARCHIVED))
        self._action(item, "trash", "Move to the trash", lambda: self.detail.set_state(State.TRASHED))
        self.item_menu = item

        tools = bar.addMenu("&Tools")
        self.pause_action = self._action(
            tools, "pause", "Pause reminders", self.pause_toggled.emit, checkable=True
        )
        self.autostart_action = self._action(
            tools, "autostart", "Start at login", self._set_autostart, checkable=True
        )
        tools.addSeparator()
        self.reindex_action = self._action(
            tools, "reindex", "Rebuild the search index", self.reindex_requested.emit
        )
        tools.aboutToShow.connect(self._sync_autostart)
        self.tools_menu = tools

        helpm = bar.addMenu("&Help")
        self._action(helpm, "help_keys", "Keyboard shortcuts", self.show_shortcuts)
        self._action(helpm, "problems", "Problems…", self.show_problems)
        helpm.addSeparator()
        self._action(helpm, "about", "About Neurons", self.show_about)
        # Delete trashes from the list (RowList); shown in the menu without stealing the key
        self.menu_actions["trash"].setText(f"Move to the trash\t{keys.BY_NAME['trash'].keys[0]}")
        self.menu_actions["trash"].setShortcuts([])
        self._sync_autostart()

    def _update_item_actions(self) -> None:
        caps = self.detail.capabilities()
        for name in ("save", "done", "snooze", "archive", "trash"):
            self.menu_actions[name].setEnabled(name in caps)

    def _sync_autostart(self) -> None:
        self.autostart_action.blockSignals(True)
        self.autostart_action.setChecked(autostart.is_enabled())
        self.autostart_action.blockSignals(False)

    def _set_autostart(self, on: bool) -> None:
        try:
            autostart.set_enabled(on, self.settings)
        except OSError as exc:
            self.report(f"Start at login could not be changed: {exc}")
        else:
            self.report(
                "Neurons will start in the tray when you log in"
                if on
                else "Neurons will not start when you log in"
            )
        self._sync_autostart()

    def _dialog(self, name: str, make: Callable[[], QWidget]) -> QWidget:
        dialog = self._dialogs.get(name)
        if dialog is None:
            dialog = self._dialogs[name] = make()
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def show_preferences(self) -> QWidget:
        from desktop.dialogs import PreferencesDialog  # noqa: PLC0415 - built on first use

        def make() -> QWidget:
            pages = [make_page() for make_page in self.preference_pages]
            dialog = PreferencesDialog(self.prefs, self.settings, self, pages=pages)
            dialog.changed.connect(self._prefs_changed)
            return dialog

        return self._dialog("preferences", make)

    def _prefs_changed(self, what: str) -> None:
        if what == "theme":
            theme.apply(theme.gui_app(), self.prefs.theme)
        elif what == "language":
            theme.set_language(theme.gui_app(), self.prefs.language)
            self.status.retell()
            self.refresh()
        elif what == "autostart":
            self._sync_autostart()
        self.detail.update_snooze_labels()
        self.prefs_changed.emit(what)

    def show_shortcuts(self) -> QWidget:
        from desktop.dialogs import ShortcutsDialog  # noqa: PLC0415 - built on first use

        return self._dialog("shortcuts", lambda: ShortcutsDialog(self))

    def show_about(self) -> QWidget:
        from desktop.dialogs import AboutDialog  # noqa: PLC0415 - built on first use

        return self._dialog("about", lambda: AboutDialog(self.about_facts, self))

    def show_problems(self) -> QWidget:
        return self._dialog("problems", lambda: ProblemsDialog(self.problems, self))
