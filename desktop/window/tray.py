"""The tray icon: Quick capture, Open, Pause reminders, Quit."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from desktop.look import theme


class Tray(QObject):
    quick_capture = Signal()
    open_window = Signal()
    pause_toggled = Signal(bool)
    quit = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.icon = QSystemTrayIcon(theme.tray_icon(), self)
        self.icon.setToolTip("Neurons")
        self.menu = QMenu()
        self.menu.setAccessibleName("Neurons")
        self.capture_action = QAction("Quick capture…", self.menu)
        self.capture_action.triggered.connect(self.quick_capture)
        self.open_action = QAction("Open Neurons", self.menu)
        self.open_action.triggered.connect(self.open_window)
        self.pause_action = QAction("Pause reminders", self.menu)
        self.pause_action.setCheckable(True)
        self.pause_action.toggled.connect(self._paused)
        self.quit_action = QAction("Quit", self.menu)
        self.quit_action.triggered.connect(self.quit)
        self.menu.addAction(self.capture_action)
        self.menu.addAction(self.open_action)
        self.menu.addSeparator()
        self.menu.addAction(self.pause_action)
        self.menu.addSeparator()
        self.menu.addAction(self.quit_action)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)

    @staticmethod
    def available() -> bool:
        return QSystemTrayIcon.isSystemTrayAvailable()

    def show(self) -> None:
        self.icon.show()

    def hide(self) -> None:
        self.icon.hide()

    @property
    def visible(self) -> bool:
        return self.icon.isVisible()

    def set_tooltip(self, text: str) -> None:
        self.icon.setToolTip(text)

    def _paused(self, paused: bool) -> None:
        self.icon.setIcon(theme.tray_icon(paused))
        self.icon.setToolTip("Neurons — reminders paused" if paused else "Neurons")
        self.pause_toggled.emit(paused)

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.open_window.emit()
        elif reason == QSystemTrayIcon.ActivationReason.MiddleClick:
            self.quick_capture.emit()
