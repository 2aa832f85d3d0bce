"""Preferences: the look, language, reminders and start at login, and the pages others add
(Accounts...). Help ▸ Keyboard shortcuts and About are desktop/dialogs/help.py."""

from __future__ import annotations

import dataclasses
import os
from datetime import date

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core import autostart, config
from core import backup_elsewhere as elsewhere
from core.model import NeuronsError
from desktop.look.widgets import scrolling
from desktop.runtime import prefs


class PreferencesDialog(QDialog):
    """Every choice applies at once (and is kept); Close leaves."""

    changed = Signal(str)  # the name of what changed: autostart, snooze, theme, language

    def __init__(
        self,
        store: prefs.Prefs,
        settings=None,
        parent: QWidget | None = None,
        pages: list[tuple[str, QWidget]] | None = None,
    ):
        super().__init__(parent)
        self.store, self.settings = store, settings
        self.setWindowTitle("Preferences — Neurons")
        self.setAccessibleName("Preferences")
        outer = QVBoxLayout(self)
        general = QWidget()
        lay = QVBoxLayout(general)
        lay.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()  # General, then the pages other rooms add (Accounts)
        self.tabs.addTab(scrolling(general), "General")  # scrolls on a short screen
        for title, page in pages or []:
            self.tabs.addTab(page, title)
        outer.addWidget(self.tabs)
        form = QFormLayout()
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)

        self.autostart = QCheckBox("Start Neurons in the tray when I log in")
        self.autostart.setAccessibleName("Start at login")
        self.autostart.setChecked(autostart.is_enabled())
        self.autostart.toggled.connect(self._autostart)
        self.autostart_error = QLabel()
        self.autostart_error.setObjectName("hint")
        self.autostart_error.setWordWrap(True)
        self.autostart_error.hide()
        form.addRow("Start", self.autostart)
        form.addRow("", self.autostart_error)

        self.snooze = QComboBox()
        self.snooze.setAccessibleName("Snooze for")
        for minutes in prefs.SNOOZE_MINUTES:
            self.snooze.addItem(_minutes(minutes), minutes)
        self.snooze.setCurrentIndex(self.snooze.findData(store.snooze_minutes))
        self.snooze.currentIndexChanged.connect(self._snooze)
        form.addRow("Snooze for", self.snooze)

        self.theme = QComboBox()
        self.theme.setAccessibleName("Theme")
        for key, text in prefs.THEMES.items():
            self.theme.addItem(text, key)
        self.theme.setCurrentIndex(self.theme.findData(store.theme))
        self.theme.currentIndexChanged.connect(self._theme)
        form.addRow("Theme", self.theme)

        self.language = QComboBox()
        self.language.setAccessibleName("Language of dates")
        for key, text in prefs.LANGUAGES.items():
            self.language.addItem(text, key)
        self.language.setCurrentIndex(self.language.findData(store.language))
        self.language.currentIndexChanged.connect(self._language)
        form.addRow("Dates in", self.language)
        note = QLabel(
            "Days, months and times are written in this language. Capture and questions "
            "understand all five, whichever you choose."
        )
        note.setObjectName("hint")
        note.setWordWrap(True)
        form.addRow("", note)
        if settings is not None:
            self._date_region_rows(form, settings.data_dir)
            self._backup_rows(form, settings.data_dir)
        lay.addLayout(form)
        lay.addStretch(1)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)

    def _date_region_rows(self, form: QFormLayout, data_dir) -> None:
        """Whose conventions read a numeric date (05/06: 5 June or May 6), kept in the data dir
        where the command line reads it too (`neurons config set date-region`)."""
        self.data_dir = data_dir
        self.date_region = QComboBox()
        self.date_region.setAccessibleName("Numeric dates")
        for tag, text in date_regions():
            self.date_region.addItem(text, tag)
        chosen = config.load(data_dir).date_region or ""
        if self.date_region.findData(chosen) < 0:  # kept by the command line: shown as it is
            self.date_region.addItem(chosen, chosen)
        self.date_region.setCurrentIndex(self.date_region.findData(chosen))
        self.date_region.currentIndexChanged.connect(self._date_region)
        form.addRow("Numeric dates", self.date_region)
        self.date_region_hint = QLabel()
        self.date_region_hint.setObjectName("hint")
        self.date_region_hint.setWordWrap(True)
        form.addRow("", self.date_region_hint)
        self._say_date_region()

    def _date_region(self) -> None:
        tag = str(self.date_region.currentData() or "") or None
        try:
            saved = config.load(self.data_dir)
            config.save(self.data_dir, dataclasses.replace(saved, date_region=tag))
        except NeuronsError as exc:
            self.date_region_hint.setText(str(exc))
            return
        config.choose_date_region(tag)
        self._say_date_region()
        self.changed.emit("date_region")

    def _say_date_region(self) -> None:
        from core.when.region import REGION_ENV, current_region  # noqa: PLC0415 - the grammar loads on use

        region = current_region()
        said = f"05/06 is read as {'5 June' if region.day_first else 'May 6'}; 22/04 and 4/22 either way."
        if os.environ.get(REGION_ENV):
            said += f" {REGION_ENV}={os.environ[REGION_ENV]} is set and wins over this choice."
        self.date_region_hint.setText(said)

    def _backup_rows(self, form: QFormLayout, data_dir) -> None:
        """Backups also go to a folder outside the data dir, encrypted with a passphrase kept
        in the keyring (core/backup_elsewhere.py; `neurons config set backup-dir` does the same)."""
        self.data_dir = data_dir
        self.backup_dir = QLineEdit(config.load(data_dir).backup_dir or "")
        self.backup_dir.setAccessibleName("Backup folder")
        self.backup_dir.setPlaceholderText("only in the data dir")
        self.backup_dir.editingFinished.connect(self._backup_folder)
        choose = QPushButton("Choose…")
        choose.clicked.connect(self._choose_backup_folder)
        row = QHBoxLayout()
        row.addWidget(self.backup_dir, 1)
        row.addWidget(choose)
        form.addRow("Backups also to", row)
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setAccessibleName("Backup passphrase")
        self.passphrase.setPlaceholderText("the passphrase that encrypts them")
        keep = QPushButton("Keep")
        keep.clicked.connect(self._keep_passphrase)
        row = QHBoxLayout()
        row.addWidget(self.passphrase, 1)
        row.addWidget(keep)
        form.addRow("Passphrase", row)
        self.backup_hint = QLabel(
            "Encrypted copies there survive a dead disk. Write the passphrase down: without it "
            "they cannot be opened."
        )
        self.backup_hint.setObjectName("hint")
        self.backup_hint.setWordWrap(True)
        form.addRow("", self.backup_hint)

    def _choose_backup_folder(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Backups also to", self.backup_dir.text())
        if chosen:
            self.backup_dir.setText(chosen)
            self._backup_folder()

    def _backup_folder(self) -> None:
        try:
            folder = elsewhere.choose_folder(self.data_dir, self.backup_dir.text().strip() or None)
        except NeuronsError as exc:
            self.backup_hint.setText(str(exc))
            return
        self.backup_hint.setText(
            f"Encrypted copies go to {folder}." if folder else "Backups stay in the data dir."
        )
        self.changed.emit("backup")

    def _keep_passphrase(self) -> None:
        try:
            elsewhere.keep_passphrase(self.data_dir, self.passphrase.text())
        except NeuronsError as exc:
            self.backup_hint.setText(str(exc))
            return
        self.passphrase.clear()
        self.backup_hint.setText("The passphrase is kept in this computer's keyring. Write it down too.")
        self.changed.emit("backup")

    def _autostart(self, on: bool) -> None:
        try:
            autostart.set_enabled(on, self.settings)
        except OSError as exc:
            self.autostart_error.setText(f"Could not change it: {exc}")
            self.autostart_error.show()
            self.autostart.blockSignals(True)
            self.autostart.setChecked(autostart.is_enabled())
            self.autostart.blockSignals(False)
            return
        self.autostart_error.hide()
        self.changed.emit("autostart")

    def _snooze(self) -> None:
        self.store.snooze_minutes = int(self.snooze.currentData())
        self.changed.emit("snooze")

    def _theme(self) -> None:
        self.store.theme = str(self.theme.currentData())
        self.changed.emit("theme")

    def _language(self) -> None:
        self.store.language = str(self.language.currentData())
        self.changed.emit("language")


# the regions offered for numeric dates; any other one: `neurons config set date-region`
DATE_REGIONS = ("en_US", "en_GB", "pt_PT", "pt_BR", "es_ES", "es_MX", "de_DE", "fr_FR", "fr_CA")


def date_regions() -> list[tuple[str, str]]:
    """("", "As this computer's locale"), then each region with its name and how it writes 22 April
    2027 ("English (United States) — 4/22/27"), from Babel's data."""
    from babel import Locale  # noqa: PLC0415 - only when Preferences open
    from babel.dates import format_date  # noqa: PLC0415 - only when Preferences open

    day = date(2027, 4, 22)
    out = [("", "As this computer's locale writes them")]
    for tag in DATE_REGIONS:
        locale = Locale.parse(tag)
        out.append((tag, f"{locale.get_display_name('en')} — {format_date(day, 'short', locale=locale)}"))
    return out


def _minutes(n: int) -> str:
    return "1 hour" if n == 60 else f"{n} minutes"
