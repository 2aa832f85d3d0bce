"""Small widgets the window and quick capture share."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QSizePolicy, QStyle

from desktop.look import theme


class ElidedLabel(QLabel):
    """A one-line label that ends in … when it does not fit (the full text in its tooltip)."""

    def __init__(self, text: str = ""):
        super().__init__()
        self._full = ""
        self.setMinimumWidth(40)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:
        self._full = text
        self.setToolTip(text)
        self.setAccessibleName(text)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(self.width(), 40)
        super().setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, width))


class ErrorLine(QLabel):
    """Red text on a line of its own that takes no room while empty; `resized` is called when it
    appears or goes (a box that fits its content grows instead of squeezing what is above)."""

    def __init__(self, resized: Callable[[], None] = lambda: None) -> None:
        super().__init__()
        self.resized = resized
        self.setStyleSheet(f"color: {theme.OVERDUE};")
        self.setWordWrap(True)
        self.setAccessibleName("Error")
        self.hide()

    def setText(self, text: str) -> None:
        had = bool(self.text())
        super().setText(text)
        self.setVisible(bool(text))
        if had or text:
            self.resized()

    def clear(self) -> None:
        self.setText("")


def fit_placeholder(edit: QLineEdit) -> QLineEdit:
    """Wide enough for its placeholder, whatever the font and the scale (never cut off)."""
    metrics = edit.fontMetrics()
    frame = 2 * edit.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth)
    padding = metrics.horizontalAdvance("MMMM")  # the style sheet's padding, the cursor's room
    edit.setMinimumWidth(metrics.horizontalAdvance(edit.placeholderText()) + frame + padding)
    return edit
