"""File → Import… / Export… and dropping a file on the window (core/interop does the work).

`install(window, ctx, menu, before)` adds Import and Export to `menu` (the File menu, before the
action it keeps for them), and the drop handler on `window`. An import
runs on the worker with a progress dialog (it appears only when an import takes a while), then a
summary says what was created, updated and left as it was, and every skipped item with the reason.
Export asks for a format (JSON, vCard 4.0 or 3.0, iCalendar, a Markdown vault), which kind of
neurons, and whether to write one file per item (a vdir), then for where.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QDropEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QListWidget,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QVBoxLayout,
    QWidget,
)

from core.model import NeuronsError
from desktop.runtime.context import Context

IMPORT_LABEL = "Importing"
# What a drop or the file chooser may bring (a folder is chosen with "Import a Folder…").
IMPORTABLE = (".vcf", ".vcard", ".ics", ".ical", ".md", ".markdown", ".json")
OPEN_FILTER = (
    "Contacts, calendars, notes (*.vcf *.vcard *.ics *.ical *.md *.json);;"
    "vCard contacts (*.vcf *.vcard);;iCalendar tasks and events (*.ics *.ical);;"
    "Markdown notes (*.md);;Neurons JSON export (*.json)"
)
# The export dialog's choices: (label, format, vCard version, the kind it holds or None, suffix)
EXPORTS = [
    ("Everything, as a Neurons JSON file", "json", "4.0", None, ".json"),
    ("Contacts as vCard 4.0", "vcard", "4.0", "contact", ".vcf"),
    ("Contacts as vCard 3.0 (older apps)", "vcard", "3.0", "contact", ".vcf"),
    ("Reminders as iCalendar", "ics", "4.0", "reminder", ".ics"),
    ("Everything, as a Markdown vault (Obsidian)", "markdown", "4.0", None, ""),
]
KINDS = [("All kinds", None), ("Notes", "note"), ("Reminders", "reminder"), ("Contacts", "contact")]
# The progress dialog shows only for an import that lasts longer than this.
PROGRESS_AFTER_MS = 400


def install(window: QWidget, ctx: Context, menu: QMenu, before: QAction) -> Transfer:
    """Import and Export in `menu` before `before`, and the drop handler on `window` (one call
    from MainWindow)."""
    return Transfer(window, ctx, menu, before)


class Transfer(QObject):
    def __init__(self, window: QWidget, ctx: Context, menu: QMenu, before: QAction):
        super().__init__(window)
        self.window = window  # the dialogs' parent, where files are dropped
        self.ctx = ctx
        self.summary: Summary | None = None
        self.progress: QProgressDialog | None = None

        def add(text: str, slot) -> QAction:
            action = QAction(text, menu)
            action.triggered.connect(slot)
            menu.insertAction(before, action)
            return action

        self.import_action = add("&Import…", self.choose_import)
        self.import_folder_action = add("Import a &Folder…", self.choose_import_folder)
        self.import_folder_action.setToolTip("A folder of .vcf or .ics files, or a Markdown vault")
        self.export_action = add("&Export…", self.choose_export)
        self.ctx.worker.progress.connect(self._progress)
        window.setAcceptDrops(True)
        window.installEventFilter(self)

    # -- import ------------------------------------------------------------------------------------

    def choose_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Import into Neurons", str(Path.home()), OPEN_FILTER
        )
        if path:
            self.start_import(path)

    def choose_import_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self.window, "Import a folder into Neurons", str(Path.home()))
        if path:
            self.start_import(path)

    def start_import(self, path: str | Path) -> bool:
        """Import on the worker; False when the memory is not open yet or an import is running."""
        if self.ctx.memory is None or not self.import_action.isEnabled():
            return False
        name = Path(path).name
        memory = self.ctx.memory
        self._busy(True)
        self.progress = QProgressDialog(f"Importing {name}…", "", 0, 0, self.window)
        self.progress.setWindowTitle("Import")
        self.progress.setCancelButton(None)  # an import is one transaction: it completes or not
        self.progress.setMinimumDuration(PROGRESS_AFTER_MS)
        self.progress.setAutoClose(False)
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)

        def done(report) -> None:
            self._busy(False)
            self.show_summary(name, report)

        def failed(exc: BaseException) -> None:
            self._busy(False)
            text = str(exc) if isinstance(exc, NeuronsError) else f"{type(exc).__name__}: {exc}"
            self.ctx.report(f"Nothing was imported from {name}")
            QMessageBox.warning(self.window, "Nothing was imported", f"{name}: {text}")

        self.ctx.worker.run(
            lambda report: _import(memory, path, report), done, failed, label=IMPORT_LABEL, progress=True
        )
        self.ctx.report(f"Importing {name}…")
        return True

    def _progress(self, label: str, done: int, total: int) -> None:
        if label == IMPORT_LABEL and self.progress is not None:
            self.progress.setMaximum(max(total, 1))
            self.progress.setValue(max(done, self.progress.value()))  # never backwards

    def _busy(self, busy: bool) -> None:
        for action in (self.import_action, self.import_folder_action):
            action.setEnabled(not busy)
        if not busy and self.progress is not None:
            self.progress.close()
            self.progress.deleteLater()
            self.progress = None

    def show_summary(self, name: str, report) -> None:
        self.summary = Summary(self.window, name, report)
        self.summary.open()
        self.ctx.report(self.summary.headline)

    # -- export ------------------------------------------------------------------------------------

    def choose_export(self) -> None:
        dialog = ExportChoice(self.window)
        dialog.accepted.connect(lambda: self._export_to(dialog.choice()))
        dialog.open()

    def _export_to(self, choice: dict[str, Any]) -> None:
        fmt, suffix = choice["format"], choice["suffix"]
        if choice["per_item"] or fmt == "markdown":
            path = QFileDialog.getExistingDirectory(self.window, "Export into a folder", str(Path.home()))
            path = path and path.rstrip("/") + "/"
        else:
            default = str(Path.home() / f"neurons{suffix}")
            path, _ = QFileDialog.getSaveFileName(self.window, "Export", default)
        if path:
            self.start_export(path, fmt, choice["kind"], choice["version"])

    def start_export(self, path: str, fmt: str, kind: str | None, version: str = "4.0") -> bool:
        if self.ctx.memory is None:
            return False
        memory = self.ctx.memory
        self.export_action.setEnabled(False)

        def done(result: dict[str, Any]) -> None:
            self.export_action.setEnabled(True)
            self.ctx.report(f"Exported {result['items']:,} items to {result['path']}")

        def failed(exc: BaseException) -> None:
            self.export_action.setEnabled(True)
            QMessageBox.warning(self.window, "Export failed", str(exc))

        self.ctx.worker.run(
            lambda: _export(memory, path, fmt, kind, version), done, failed, label="Exporting"
        )
        return True

    # -- dropping a file on the window -------------------------------------------------------------

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if not isinstance(event, QDropEvent):  # QDragEnterEvent and QDragMoveEvent are drop events too
            return super().eventFilter(watched, event)
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if _dropped(event):
                event.acceptProposedAction()
                return True
        elif kind == QEvent.Type.Drop:
            paths = _dropped(event)
            if paths:
                event.acceptProposedAction()
                self.start_import(paths[0])  # one at a time: each import is one transaction
                if len(paths) > 1:
                    self.ctx.report(f"Importing {Path(paths[0]).name}; drop the others one by one")
                return True
        return super().eventFilter(watched, event)


def _import(memory, path, report):
    from core.interop.files import import_path  # noqa: PLC0415 - the parsers load on the worker

    return import_path(memory, path, progress=report)


def _export(memory, path, fmt, kind, version):
    from core.interop.files import export_path  # noqa: PLC0415 - the parsers load on the worker

    return export_path(memory, path, fmt, kind=kind, vcard_version=version)


def _dropped(event) -> list[str]:
    """The local files of a drag that Neurons can import."""
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    return [
        u.toLocalFile()
        for u in mime.urls()
        if u.isLocalFile() and Path(u.toLocalFile()).suffix.lower() in IMPORTABLE
    ]


class Summary(QDialog):
    """What an import did: the counts, and each skipped item with the reason."""

    def __init__(self, parent: QWidget, name: str, report):
        super().__init__(parent)
        self.setWindowTitle("Import finished")
        self.setMinimumWidth(520)
        layout = QVBoxLayout(self)
        parts = [f"{report.created:,} new", f"{report.updated:,} updated", f"{report.unchanged:,} unchanged"]
        if report.birthdays:
            parts.append(f"{report.birthdays:,} birthday reminder" + ("s" if report.birthdays != 1 else ""))
        self.headline = f"Imported {name}: " + ", ".join(parts)
        if report.skipped:
            self.headline += f"; {len(report.skipped):,} skipped"
        self.title = QLabel(self.headline)
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        layout.addWidget(self.title)
        self.skipped = QListWidget()
        self.skipped.setAccessibleName("Skipped items")
        self.skipped.setWordWrap(True)
        for item in report.skipped:
            self.skipped.addItem(f"{item['item']}: {item['why']}")
        if report.skipped:
            layout.addWidget(QLabel("Not imported, each with the reason (the rest was):"))
            layout.addWidget(self.skipped)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class ExportChoice(QDialog):
    """What to export: the format, which kind, one file or one per item."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setWindowTitle("Export")
        form = QFormLayout(self)
        self.format = QComboBox()
        for label, *_ in EXPORTS:
            self.format.addItem(label)
        self.kind = QComboBox()
        for label, _ in KINDS:
            self.kind.addItem(label)
        self.per_item = QCheckBox("One file per item (a folder that khard, todoman or a sync tool reads)")
        form.addRow("Format", self.format)
        form.addRow("Which", self.kind)
        form.addRow("", self.per_item)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export…")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.format.currentIndexChanged.connect(self._fit)
        self._fit()

    def _fit(self) -> None:
        """vCard and iCalendar hold one kind; only they have a one-file-per-item layout to choose."""
        _, fmt, _, kind, _ = EXPORTS[self.format.currentIndex()]
        self.kind.setEnabled(kind is None)
        if kind is not None:
            self.kind.setCurrentIndex([k for _, k in KINDS].index(kind))
        self.per_item.setEnabled(fmt in ("vcard", "ics"))
        if fmt not in ("vcard", "ics"):
            self.per_item.setChecked(fmt == "markdown")

    def choice(self) -> dict[str, Any]:
        _, fmt, version, kind, suffix = EXPORTS[self.format.currentIndex()]
        return {
            "format": fmt,
            "version": version,
            "suffix": suffix,
            "kind": kind or KINDS[self.kind.currentIndex()][1],
            "per_item": self.per_item.isChecked(),
        }
