"""File → Import… / Export… and dropping files on the window, in the real App on the real store
(only the file chooser and the message box, which wait for a person, are answered by the test)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from core.model import Kind
from desktop.dialogs import transfer
from tests.desktop.conftest import WAIT_MS, settle

FILES = Path(__file__).parent.parent / "core" / "interop_files"


def menu_texts(window) -> list[str]:
    (file_menu,) = [a.menu() for a in window.menuBar().actions() if a.text() == "&File"]
    return [a.text() for a in file_menu.actions() if a.text()]


def wait_summary(qtbot, app):
    qtbot.waitUntil(lambda: app.window.transfer.summary is not None, timeout=WAIT_MS)
    settle(qtbot, app)
    return app.window.transfer.summary


def drag(window, paths: list[Path], kind=QDragEnterEvent):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    if kind is QDragEnterEvent:
        event = QDragEnterEvent(
            QPoint(50, 50),  # QDragEnterEvent takes a QPoint (PySide6 6.11 refuses a QPointF)
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
    else:
        event = QDropEvent(
            QPointF(50, 50),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
    QApplication.sendEvent(window, event)
    return event


def test_file_menu_import_shows_a_summary(app, qtbot, monkeypatch):
    assert menu_texts(app.window) == [
        "Quick capture…",
        "&Import…",
        "Import a &Folder…",
        "&Export…",
        "Close window",
        "Quit Neurons",
    ]
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(FILES / "google.vcf"), ""))
    )
    app.window.transfer.import_action.trigger()
    summary = wait_summary(qtbot, app)
    assert summary.headline == "Imported google.vcf: 2 new, 0 updated, 0 unchanged, 2 birthday reminders"
    assert summary.isVisible() and summary.skipped.count() == 0
    names = {n.attrs["name"] for n in app.memory.list(Kind.CONTACT)}
    assert names == {"Ana Sofia Ribeiro", "Marco Bianchi"}
    assert app.window.transfer.import_action.isEnabled()


def test_dropping_a_file_imports_it_and_lists_what_was_skipped(app, qtbot):
    enter = drag(app.window, [FILES / "broken.vcf"])
    assert enter.isAccepted()
    not_ours = drag(app.window, [FILES.parent / "test_interop_vcard.py"])
    assert not not_ours.isAccepted()
    drag(app.window, [FILES / "broken.vcf"], kind=QDropEvent)
    summary = wait_summary(qtbot, app)
    assert summary.headline == "Imported broken.vcf: 3 new, 0 updated, 0 unchanged; 3 skipped"
    skipped = [summary.skipped.item(i).text() for i in range(summary.skipped.count())]
    assert "card at line 6 (nameless@example.org): it has no name (neither FN nor N)" in skipped
    assert "card at line 26 (Cut Off): it ends before END:VCARD: the file is truncated" in skipped


def test_a_long_import_reports_progress_and_a_bad_file_says_nothing_was_imported(
    app, qtbot, monkeypatch, tmp_path
):
    big = tmp_path / "many.vcf"
    big.write_bytes(
        b"".join(b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person %d\r\nEND:VCARD\r\n" % i for i in range(400))
    )
    seen: list[tuple[int, int]] = []
    app.worker.progress.connect(
        lambda label, done, total: seen.append((done, total)) if label == transfer.IMPORT_LABEL else None
    )
    assert app.window.transfer.start_import(big)
    assert not app.window.transfer.start_import(big)  # one import at a time
    summary = wait_summary(qtbot, app)
    assert summary.headline == "Imported many.vcf: 400 new, 0 updated, 0 unchanged"
    qtbot.waitUntil(lambda: (400, 400) in seen, timeout=WAIT_MS)
    assert len(seen) == 400 and app.window.transfer.progress is None  # closed when done

    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda parent, title, text: warned.append(text)))
    junk = tmp_path / "junk.ics"
    junk.write_bytes(bytes(range(256)) * 64)
    app.window.transfer.start_import(junk)
    qtbot.waitUntil(lambda: bool(warned), timeout=WAIT_MS)
    assert warned == [
        "junk.ics: junk.ics holds no task or event (BEGIN:VTODO, BEGIN:VEVENT): is it an iCalendar file?"
    ]
    assert app.memory.count() == 400


def test_export_dialog_writes_the_chosen_format(app, qtbot, monkeypatch, tmp_path):
    app.memory.capture("Ana Silva +351 912 345 678", kind="contact")
    dialog = transfer.ExportChoice(app.window)
    dialog.format.setCurrentIndex(2)  # vCard 3.0
    assert not dialog.kind.isEnabled() and dialog.per_item.isEnabled()
    dialog.per_item.setChecked(True)
    assert dialog.choice() == {
        "format": "vcard",
        "version": "3.0",
        "suffix": ".vcf",
        "kind": "contact",
        "per_item": True,
    }
    monkeypatch.setattr(
        QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp_path / "vdir"))
    )
    app.window.transfer._export_to(dialog.choice())
    qtbot.waitUntil(
        lambda: (tmp_path / "vdir").exists() and any((tmp_path / "vdir").iterdir()), timeout=WAIT_MS
    )
    settle(qtbot, app)
    (card,) = list((tmp_path / "vdir").glob("*.vcf"))  # beside the manifest of the export
    assert "VERSION:3.0" in card.read_text() and "TEL:+351912345678" in card.read_text()
    dialog.format.setCurrentIndex(4)  # Markdown vault: always a folder, any kind
    assert dialog.kind.isEnabled() and dialog.choice()["per_item"] is True
