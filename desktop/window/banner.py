"""The line at the top of the window for notices (missed reminders, reminders when no
notification server answers)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from desktop.reminders.notifiers import Notice, Notifier


class Banner(QFrame):
    """Notices at the top of the window; its buttons answer like a notification's actions."""

    action = Signal(str, str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("banner")
        self.setAccessibleName("Notice")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(12, 8, 8, 8)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.text, 1)
        self._buttons: list[QPushButton] = []
        self._lay = lay
        self.key: str | None = None
        close = QPushButton("×")
        close.setFlat(True)
        close.setAccessibleName("Dismiss")
        close.setToolTip("Dismiss")
        close.setFixedWidth(30)
        close.clicked.connect(self.dismiss)
        lay.addWidget(close)
        self._close = close
        self.hide()

    def show_notice(self, notice: Notice) -> None:
        for b in self._buttons:
            b.deleteLater()
        self._buttons = []
        self.key = notice.key
        self.text.setText(notice.title + (f" — {notice.body}" if notice.body else ""))
        actions = notice.actions or []
        for key, label in [("open", "Show")] + list(actions):
            b = QPushButton(label)
            b.setAccessibleName(label)
            b.clicked.connect(lambda _=False, k=notice.key, a=key: self._answer(k, a))
            self._lay.insertWidget(self._lay.count() - 1, b)
            self._buttons.append(b)
        self.show()

    def _answer(self, key: str, action: str) -> None:
        if action != "open":
            self.dismiss()
        self.action.emit(key, action)

    def dismiss(self) -> None:
        self.key = None
        self.hide()


class BannerNotifier(Notifier):
    """The last resort: notices in the window's banner (and the window raised)."""

    kind = "banner"

    def __init__(self, banner: Banner, bring_up: Callable[[], None], parent: QObject | None = None):
        super().__init__(parent)
        self.banner = banner
        self.bring_up = bring_up  # the window to the front
        banner.action.connect(self.action)

    def show(self, notice: Notice) -> None:
        self.banner.show_notice(notice)
        if notice.resident:  # a reminder: the window is where it can be seen
            self.bring_up()

    def withdraw(self, key: str) -> None:
        if self.banner.key == key:
            self.banner.dismiss()
