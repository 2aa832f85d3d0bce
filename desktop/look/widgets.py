"""Small widgets the window and quick capture share."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QLabel,
    QLineEdit,
    QMainWindow,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QWidget,
)

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


class Scrolling(QScrollArea):
    """A page in a frameless scroll area that scrolls only down: as wide as the page needs, as
    tall as it likes to be, and on a short screen (a laptop at 200%) shorter, scrolling instead
    of cutting the page off."""

    def __init__(self, page: QWidget):
        super().__init__()
        self.setWidget(page)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def _bar(self) -> int:
        return self.verticalScrollBar().sizeHint().width()

    def sizeHint(self) -> QSize:
        page = self.widget()
        return page.sizeHint() + QSize(self._bar(), 0) if page is not None else super().sizeHint()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - the name Qt overrides
        page = self.widget()
        if page is None:
            return super().minimumSizeHint()
        return QSize(page.minimumSizeHint().width() + self._bar(), min(page.minimumSizeHint().height(), 120))


def scrolling(page: QWidget) -> QScrollArea:
    return Scrolling(page)


def fit_on_screen(window: QWidget) -> None:
    """Keep a window on its screen: no larger than the room the screen has (without panels), and
    moved onto it where it reaches past an edge. (A window opened at 1280x800 on a 1440x900 screen
    at 200% had its Capture button and status bar off the screen.)"""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    room = screen.availableGeometry()
    frame = window.frameGeometry()
    extra_w, extra_h = frame.width() - window.width(), frame.height() - window.height()
    width = min(window.width(), max(room.width() - extra_w, window.minimumWidth()))
    height = min(window.height(), max(room.height() - extra_h, window.minimumHeight()))
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    frame = window.frameGeometry()
    x = max(room.left(), min(frame.left(), room.right() + 1 - frame.width()))
    y = max(room.top(), min(frame.top(), room.bottom() + 1 - frame.height()))
    if (x, y) != (frame.left(), frame.top()):
        window.move(x, y)


class ScreenFit(QObject):
    """Installed on the application: every main window and dialog is kept on its screen
    (`fit_on_screen`) each time it is shown, whatever made it and whatever the scale."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.Show
            and isinstance(watched, (QDialog, QMainWindow))
            and watched.isWindow()
        ):
            fit_on_screen(watched)
        return False
