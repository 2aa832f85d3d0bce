""" "Pick a time…" on a reminder's notification: a small window that asks until when, in the words
the Due field reads ("tomorrow 3pm", "Friday 9:00", "in 2 hours"), says the time it read, and
snoozes the reminder to it (as Thunderbird's "Snooze for…" and a phone's "Remind me later")."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from core.model import InvalidInput
from desktop.capture import inputs
from desktop.look import theme
from desktop.look.widgets import fit_placeholder

EXAMPLES = "e.g. tomorrow 3pm, Friday 9:00, in 2 hours"


class PickTime(QDialog):
    """Until when to snooze one reminder; `picked(key, until)` when the person chose a time."""

    picked = Signal(str, object)

    def __init__(self, key: str, title: str, now: Callable[[], datetime], parent: QWidget | None = None):
        super().__init__(parent)
        self.key, self.now = key, now
        self.until: datetime | None = None
        self.setWindowTitle("Snooze until")
        self.setObjectName("pickTime")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        layout = QVBoxLayout(self)
        what = QLabel(f"Remind me again about “{title}”:")
        what.setWordWrap(True)
        layout.addWidget(what)
        self.when = fit_placeholder(QLineEdit())
        self.when.setPlaceholderText(EXAMPLES)
        self.when.setAccessibleName("Remind me again at")
        self.when.textChanged.connect(self._read)
        layout.addWidget(self.when)
        self.said = QLabel(" ")
        self.said.setObjectName("pickTimeSaid")
        self.said.setWordWrap(True)
        layout.addWidget(self.said)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText("Snooze")
        self.ok.setEnabled(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.when.setFocus()

    def _read(self, text: str) -> None:
        now = self.now()
        self.until = None
        try:
            until = inputs.parse_due(text, now) if text.strip() else None
        except InvalidInput as exc:
            self.said.setText(str(exc))
        else:
            if until is None:
                self.said.setText(" ")
            elif until <= now:
                self.said.setText(f"{theme.when_text(until, now)} has passed: pick a later time.")
            else:
                self.until = until
                self.said.setText(
                    f"Snooze until {theme.when_text(until, now)} ({theme.relative(until, now)})."
                )
        self.ok.setEnabled(self.until is not None)

    def accept(self) -> None:
        if self.until is None:
            return
        self.picked.emit(self.key, self.until)
        super().accept()
