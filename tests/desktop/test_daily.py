"""Smaller things the window shows: the Due field's example is never in the past,
"Next reminder" is written in the dates' language (and follows a change of it), an emptied
question leaves no answer open."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMainWindow

from core import remind
from desktop.capture import inputs
from desktop.items.reads import Row
from desktop.items.rows import ENTRY_ROLE
from desktop.look import theme
from desktop.runtime.problems import Problems
from desktop.window.statusbar import StatusLine
from tests.desktop.conftest import WAIT_MS, settle

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


def test_next_reminder_follows_a_change_of_the_dates_language(app, embedded_memory, clock, qtbot):
    """Changed in Preferences, the status line says it in the new language at once, not at the
    next replan."""
    embedded_memory.capture(
        "water the plants", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(hours=2))}
    )
    app.scheduler.replan()
    label = app.window.status.next_label
    qtbot.waitUntil(lambda: label.text().startswith("Next reminder today"), timeout=WAIT_MS)
    dialog = app.window.dialogs.preferences()
    language = dialog.language
    try:
        language.setCurrentIndex(language.findData("pt"))
        assert label.text().startswith("Próximo lembrete hoje")
    finally:
        language.setCurrentIndex(language.findData("en"))
    assert label.text().startswith("Next reminder today")


def test_an_emptied_question_clears_the_item_pane(app, embedded_memory, qtbot):
    """Esc or deleting the question goes back to the list without the answer it had open."""
    boiler = embedded_memory.capture("boiler service booked for March", kind="note")
    window = app.window
    for empty in ("escape", "backspace"):
        window.ask.setFocus()
        qtbot.keyClicks(window.ask, "boiler service")
        qtbot.keyClick(window.ask, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: window.detail.current_id == str(boiler.id), timeout=WAIT_MS)
        settle(qtbot, app)
        window.ask.setFocus()
        if empty == "escape":
            qtbot.keyClick(window.ask, Qt.Key.Key_Escape)
        else:
            window.ask.selectAll()
            qtbot.keyClick(window.ask, Qt.Key.Key_Backspace)
        settle(qtbot, app)
        assert window.section == "upcoming"
        assert window.detail.current_id is None and not window.detail.isVisible()
        assert window.rows.current_id() == ""


def test_a_time_question_counts_what_its_time_holds_and_says_when_nothing_does(
    app, embedded_memory, clock, qtbot
):
    """The list's count is what the question's time holds (not every row
    shown), and a time that holds nothing says so in words, not "try other words"."""
    # (the window reads a question's time words on its clock: the capture's are read on the same)
    embedded_memory.capture("call the plumber tomorrow at 10", kind="reminder", created_at=clock.now())
    embedded_memory.capture("the plumber's van is blue", kind="note")
    window = app.window

    def asked(text: str) -> None:
        window.ask.setFocus()
        window.ask.selectAll()
        qtbot.keyClicks(window.ask, text)
        qtbot.keyClick(window.ask, Qt.Key.Key_Return)
        settle(qtbot, app)

    asked("what's due tomorrow")
    qtbot.waitUntil(lambda: window.list_hint.text() == "1 tomorrow", timeout=WAIT_MS)
    asked("anything overdue")
    qtbot.waitUntil(lambda: window.empty.text() == "Nothing overdue.", timeout=WAIT_MS)
    asked("zebra xylophone")
    qtbot.waitUntil(lambda: window.empty.text().startswith("Nothing matches"), timeout=WAIT_MS)


def test_a_time_question_in_another_language_is_headed_in_the_apps_words(app, embedded_memory, clock, qtbot):
    """ "was habe ich morgen" counts what tomorrow holds as "1 tomorrow", not "1 morgen", and
    an answer found by its time alone says "in the window tomorrow"."""
    embedded_memory.capture("call the plumber tomorrow at 10", kind="reminder", created_at=clock.now())
    window = app.window
    window.ask.setFocus()
    window.ask.selectAll()
    qtbot.keyClicks(window.ask, "was habe ich morgen")
    qtbot.keyClick(window.ask, Qt.Key.Key_Return)
    settle(qtbot, app)
    qtbot.waitUntil(lambda: window.list_hint.text() == "1 tomorrow", timeout=WAIT_MS)
    whys = [r.why for r in embedded_memory.ask("was habe ich morgen", now=clock.now())]
    assert "in the window tomorrow" in whys and not any("morgen" in w for w in whys)


def test_a_time_question_shows_a_repeat_on_its_day_in_that_time(app, embedded_memory, clock, qtbot):
    """Asked on a Saturday, "what's coming up next week" lists a daily reminder under its
    heading on Monday (its first occurrence there), not as due today; "on Tuesday" on Tuesday."""
    saturday = datetime(2026, 3, 7, 9, 0, tzinfo=UTC)
    clock.current = saturday
    pills = embedded_memory.capture(
        "take the pills",
        kind="reminder",
        attrs={"due_at": remind.iso(saturday + timedelta(hours=11)), "rrule": "FREQ=DAILY"},
    )
    window = app.window

    def shown(question: str) -> tuple[datetime, str]:
        window.ask.setFocus()
        window.ask.selectAll()
        qtbot.keyClicks(window.ask, question)
        qtbot.keyClick(window.ask, Qt.Key.Key_Return)
        settle(qtbot, app)
        qtbot.waitUntil(lambda: any(r.neuron.id == pills.id for r in window.rows.rows()), timeout=WAIT_MS)
        item = next(
            window.rows.item(i)
            for i, entry in enumerate(window.rows.entries())
            if isinstance(entry, Row) and entry.neuron.id == pills.id
        )
        return item.data(ENTRY_ROLE).at, item.data(Qt.ItemDataRole.AccessibleTextRole)

    at, said = shown("what's coming up next week")
    assert at is not None and theme.local(at).weekday() == 0  # Monday
    assert theme.when_text(at, saturday) in said and "today" not in said
    assert window.rows.entries()[0].text == "next week"
    at, said = shown("what do I have on Tuesday")
    assert at is not None and theme.local(at).weekday() == 1 and "today" not in said


def test_a_slow_answer_says_it_is_on_its_way(app, embedded_memory, qtbot):
    """While an answer keeps the person waiting (here: the worker busy with a long read), the list
    says it is looking (and nothing more: the index and the model were prepared when the window
    showed, tests/desktop/test_first_question.py); the answer replaces it."""
    embedded_memory.capture("the spare key is with Maria", kind="note")
    window = app.window
    app.ctx.read(lambda _m: time.sleep(3)).run("slow")  # the memory busy, as on a first start
    window.ask.setFocus()
    qtbot.keyClicks(window.ask, "spare key")
    qtbot.waitUntil(lambda: window.list_hint.text().startswith("Looking…"), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.list_hint.text() == "Looking…", timeout=WAIT_MS)
    settle(qtbot, app)
    qtbot.waitUntil(lambda: not window.asking, timeout=WAIT_MS)
    assert not window.list_hint.text().startswith("Looking")
