"""Help ▸ Keyboard shortcuts (the table of desktop/look/keys.py) and Help ▸ About."""

from __future__ import annotations

import platform
from collections.abc import Callable
from itertools import groupby

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core import __version__
from desktop.look import keys, theme


class ShortcutsDialog(QDialog):
    """Help ▸ Keyboard shortcuts: the table of desktop.look.keys, grouped by where each works."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts — Neurons")
        self.setAccessibleName("Keyboard shortcuts")
        self.resize(620, 600)
        lay = QVBoxLayout(self)
        self.tree = QTreeWidget()
        self.tree.setAccessibleName("Keyboard shortcuts")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels(["Keys", "What they do"])
        self.tree.setRootIsDecorated(False)
        for where, group in groupby(keys.SHORTCUTS, key=lambda k: k.where):
            head = QTreeWidgetItem([where, ""])
            font = head.font(0)
            font.setBold(True)
            head.setFont(0, font)
            head.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.tree.addTopLevelItem(head)
            for key in group:
                text = " or ".join(
                    QKeySequence(k).toString(QKeySequence.SequenceFormat.NativeText) for k in key.keys
                )
                self.tree.addTopLevelItem(QTreeWidgetItem([text, key.what]))
        self.tree.resizeColumnToContents(0)
        lay.addWidget(self.tree, 1)
        hint = QLabel(
            "From anywhere on your desktop: give your system a shortcut that runs "
            "<code>neurons-desktop --quick</code> (it opens quick capture)."
        )
        hint.setObjectName("hint")
        hint.setWordWrap(True)
        lay.addWidget(hint)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)


class AboutDialog(QDialog):
    def __init__(self, facts: Callable[[], dict], parent: QWidget | None = None):
        """`facts()` -> {"data_dir": ..., "engine": ...} of the open memory (or {})."""
        super().__init__(parent)
        self.setWindowTitle("About Neurons")
        self.setAccessibleName("About Neurons")
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        icon = QLabel()
        icon.setPixmap(theme.app_icon().pixmap(72, 72))
        top.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        words = QVBoxLayout()
        self.title = QLabel(f"<b style='font-size:15pt'>Neurons</b> &nbsp; {__version__}")
        words.addWidget(self.title)
        words.addWidget(
            QLabel(
                "An offline memory assistant: reminders, contacts and notes,\n"
                "found again by asking. No account, no network, no cloud."
            )
        )
        info = facts() or {}
        where = info.get("data_dir") or "—"
        self.where = QLabel(f"Your memory: {where} ({info.get('engine', 'not open')})")
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.where.setWordWrap(True)
        words.addWidget(self.where)
        versions = QLabel(
            f"Python {platform.python_version()} · Qt for Python {pyside_version} · MIT licence"
        )
        versions.setObjectName("subtle")
        words.addWidget(versions)
        top.addLayout(words, 1)
        lay.addLayout(top)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        if info.get("data_dir") and info.get("engine") == "embedded":
            folder = QPushButton("Open the data folder")
            folder.setAccessibleName("Open the data folder")
            folder.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(where))))
            buttons.addButton(folder, QDialogButtonBox.ButtonRole.ActionRole)
        lay.addWidget(buttons)
