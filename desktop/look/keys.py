"""Every keyboard shortcut, in one table: the window binds its actions from it and Help ▸
Keyboard shortcuts lists it, so the two never disagree."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent, QKeySequence


@dataclass(frozen=True)
class Key:
    name: str  # the action it triggers ("" for keys a widget handles itself)
    keys: tuple[str, ...]  # QKeySequence strings, the first is the one menus show
    what: str
    where: str


SHORTCUTS: list[Key] = [
    Key("ask", ("Ctrl+K", "Ctrl+F"), "Ask: go to the ask box", "Anywhere"),
    Key("capture", ("Ctrl+N",), "Quick capture", "Anywhere"),
    Key("undo", ("Ctrl+Z",), "Undo the last change to an item (in a text field: undo typing)", "Anywhere"),
    Key("preferences", ("Ctrl+,",), "Preferences", "Anywhere"),
    Key("help_keys", ("Ctrl+/",), "This list of shortcuts", "Anywhere"),
    Key("refresh", ("F5",), "Load the lists again", "Anywhere"),
    Key("close", ("Ctrl+W",), "Close the window (Neurons keeps running in the tray)", "Anywhere"),
    Key("quit", ("Ctrl+Q",), "Quit Neurons", "Anywhere"),
    Key("section_overdue", ("Ctrl+1",), "Overdue", "Lists"),
    Key("section_upcoming", ("Ctrl+2",), "Upcoming", "Lists"),
    Key("section_done", ("Ctrl+3",), "Done", "Lists"),
    Key("section_notes", ("Ctrl+4",), "Notes", "Lists"),
    Key("section_contacts", ("Ctrl+5",), "Contacts", "Lists"),
    Key("section_archive", ("Ctrl+6",), "Archive", "Lists"),
    Key("section_trash", ("Ctrl+7",), "Trash", "Lists"),
    Key("", ("Down",), "From the ask box: to the first answer", "Lists"),
    Key("", ("Up", "Esc"), "From the first row (or any row with Esc): back to the ask box", "Lists"),
    Key("", ("Return",), "In the ask box: show the first answer; in a list: the selected item", "Lists"),
    Key("", ("Esc",), "In the ask box: clear the question", "Lists"),
    Key("save", ("Ctrl+S",), "Save the changes", "The open item"),
    Key("", ("Esc",), "Cancel the changes (back to what is saved)", "The open item"),
    Key("done", ("Ctrl+D",), "Done (a repeating reminder: this time)", "The open item"),
    Key("snooze", ("Ctrl+L",), "Snooze (for the time set in Preferences)", "The open item"),
    Key("archive", ("Ctrl+E",), "Archive", "The open item"),
    Key("trash", ("Delete",), "Move to the trash (outside a text field)", "The open item"),
    Key("", ("Tab", "Shift+Tab"), "Next or previous field (from the list: into the item)", "The open item"),
    Key("", ("Return",), "In a field (Due, Repeat, Phones…): save", "The open item"),
    Key("", ("Return",), "Save", "Quick capture"),
    Key("", ("Esc",), "Cancel", "Quick capture"),
    Key("", ("Tab",), "Correct the kind, due time or repeat", "Quick capture"),
]

BY_NAME = {k.name: k for k in SHORTCUTS if k.name}


def sequences(name: str) -> list[QKeySequence]:
    return [QKeySequence(k) for k in BY_NAME[name].keys]


def label(name: str) -> str:
    """The first shortcut of an action as the platform writes it ("Ctrl+D")."""
    return QKeySequence(BY_NAME[name].keys[0]).toString(QKeySequence.SequenceFormat.NativeText)


# Shortcuts that act on the open item even while one of its text fields has the focus (a line
# edit would otherwise take Ctrl+D as "delete a character" on X11).
ITEM_ACTIONS = ("done", "snooze", "archive")


class ItemKeys(QObject):
    """An event filter for text fields: lets the item actions' shortcuts through."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._keys = {
            QKeySequence(k)[0].toCombined()  # type: ignore[index]  # PySide6's stubs lack QKeySequence[i]
            for n in ITEM_ACTIONS
            for k in BY_NAME[n].keys
        }

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent):
            if event.keyCombination().toCombined() in self._keys:
                return True  # not accepted by the field: the window's shortcut runs
        return False
