"""Issue 23's smaller things the window shows: the Due field's example is never in the past, and
"Next reminder" is written in the dates' language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtWidgets import QMainWindow

from desktop import inputs, theme
from desktop.problems import Problems
from desktop.statusbar import StatusLine

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_the_due_examples_are_never_in_the_past():
    later = NOW + timedelta(days=400)
    for now in (NOW, later):
        example = inputs.due_example(now)
        day = datetime.fromisoformat(example.split("e.g. ")[1].split(",")[0]).replace(tzinfo=UTC)
        assert day > now


def test_next_reminder_is_said_in_the_dates_language(qtbot, qapp):
    window = QMainWindow()
    qtbot.addWidget(window)
    status = StatusLine(window.statusBar(), Problems(window), lambda: NOW)
    theme.set_language(qapp, "pt")
    try:
        status.set_next_reminder(NOW + timedelta(hours=2), paused=False)
        assert status.next_label.text().startswith("Próximo lembrete hoje")
        status.set_next_reminder(None, paused=True)
        assert status.next_label.text() == "Lembretes em pausa"
    finally:
        theme.set_language(qapp, "en")
