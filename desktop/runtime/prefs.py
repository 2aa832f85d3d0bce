"""The desktop's preferences and remembered window state: `<config dir>/desktop.ini` (Qt's INI
format; ~/.config/neurons/desktop.ini on Linux). Start at login is not kept here: the autostart
entry itself is its state (core.autostart)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from core.remind import SNOOZE_DEFAULT
from core.settings import default_config_dir

THEMES = {"system": "Follow the system", "light": "Light", "dark": "Dark"}
SNOOZE_MINUTES = [5, 10, 15, 30, 60]
DEFAULT_SNOOZE_MINUTES = int(SNOOZE_DEFAULT.total_seconds() // 60)
# The languages dates are written in (the capture box reads them all); "" follows the system.
LANGUAGES = {
    "": "Follow the system",
    "en": "English",
    "pt": "Português",
    "es": "Español",
    "de": "Deutsch",
    "fr": "Français",
}


class Prefs:
    def __init__(self, path: Path | None = None):
        self.path = path or default_config_dir() / "desktop.ini"
        self._q = QSettings(str(self.path), QSettings.Format.IniFormat)

    def _set(self, key: str, value) -> None:
        self._q.setValue(key, value)
        self._q.sync()

    @property
    def theme(self) -> str:
        value = str(self._q.value("look/theme", "system"))
        return value if value in THEMES else "system"

    @theme.setter
    def theme(self, value: str) -> None:
        self._set("look/theme", value if value in THEMES else "system")

    @property
    def language(self) -> str:
        value = str(self._q.value("look/language", ""))
        return value if value in LANGUAGES else ""

    @language.setter
    def language(self, value: str) -> None:
        self._set("look/language", value if value in LANGUAGES else "")

    @property
    def snooze_minutes(self) -> int:
        try:
            # whatever the settings file holds: an int, a string, anything a hand put there
            stored: Any = self._q.value("reminders/snooze_minutes", DEFAULT_SNOOZE_MINUTES)
            value = int(stored)
        except (TypeError, ValueError):
            return DEFAULT_SNOOZE_MINUTES
        return value if value in SNOOZE_MINUTES else DEFAULT_SNOOZE_MINUTES

    @snooze_minutes.setter
    def snooze_minutes(self, value: int) -> None:
        self._set("reminders/snooze_minutes", int(value))

    @property
    def snooze(self) -> timedelta:
        return timedelta(minutes=self.snooze_minutes)

    def window_state(self) -> tuple[QByteArray | None, QByteArray | None]:
        """(geometry, splitter) as saved by the last session, or None."""
        geometry, splitter = self._q.value("window/geometry"), self._q.value("window/splitter")
        return (
            geometry if isinstance(geometry, QByteArray) else None,
            splitter if isinstance(splitter, QByteArray) else None,
        )

    def save_window_state(self, geometry: QByteArray, splitter: QByteArray) -> None:
        self._q.setValue("window/geometry", geometry)
        self._set("window/splitter", splitter)
