"""Reminders that fire: the scheduler on the real store with a fake clock and a fake notification
daemon; Done and Snooze answered from the notification; missed reminders at start, once."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from core import remind
from core.model import Kind, Neuron, State
from desktop.look import theme
from desktop.reminders.notices import tomorrow_morning
from desktop.reminders.notifiers import Notice, Notifications, Notifier
from tests.desktop.conftest import WAIT_MS, FakeNotifier, make_app, settle


def fire(qtbot, app) -> None:
    """What the scheduler's timer does when it wakes: check what is due at the clock's now."""
    app.scheduler.check()
    settle(qtbot, app)


def planned(qtbot, app) -> None:
    app.scheduler.replan()
    settle(qtbot, app)


def test_a_due_reminder_notifies_once_with_done_and_snooze(app, embedded_memory, clock, notifier, qtbot):
    rem = embedded_memory.capture(
        "take the bins out", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(minutes=5))}
    )
    planned(qtbot, app)
    assert app.scheduler.next_at == clock.now() + timedelta(minutes=5)
    fire(qtbot, app)
    assert notifier.keys() == []  # not yet due
    clock.advance(minutes=5, seconds=1)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id)]
    notice = notifier.shown[0]
    assert notice.title == "take the bins out"
    assert [a for a, _ in notice.actions] == ["done", "snooze", "later", "tomorrow", "pick"]
    assert remind.parse_time(embedded_memory.get(rem.id).attrs["notified_at"]) == clock.now()
    fire(qtbot, app)
    clock.advance(minutes=1)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id)]  # nothing fires twice
    notifier.answer(str(rem.id), "done")
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).state is State.DONE, timeout=WAIT_MS)
    assert str(rem.id) in notifier.withdrawn


def test_the_notification_snoozes_to_later_today_or_tomorrow_morning(
    app, embedded_memory, clock, notifier, qtbot
):
    rem = embedded_memory.capture(
        "call the plumber", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    planned(qtbot, app)
    fire(qtbot, app)
    notifier.answer(str(rem.id), "tomorrow")
    qtbot.waitUntil(lambda: "snoozed_until" in embedded_memory.get(rem.id).attrs, timeout=WAIT_MS)
    until = remind.parse_time(embedded_memory.get(rem.id).attrs["snoozed_until"])
    assert until == tomorrow_morning(clock.now())
    local = until.astimezone(remind.local_zone())
    assert (local.hour, local.minute) == (9, 0) and local.date() > clock.now().astimezone(
        remind.local_zone()
    ).date()


def test_pick_a_time_asks_until_when_and_snoozes_to_it(app, embedded_memory, clock, notifier, qtbot):
    """ "Pick a time…" on the notification opens a small window that reads the time as the Due
    field does, says it, and snoozes the reminder to it; the notification stays until then."""
    rem = embedded_memory.capture(
        "renew the passport", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    planned(qtbot, app)
    fire(qtbot, app)
    key = str(rem.id)
    notifier.answer(key, "pick")
    qtbot.waitUntil(lambda: key in app.notices.picking, timeout=WAIT_MS)
    dialog = app.notices.picking[key]
    qtbot.waitExposed(dialog)
    assert "renew the passport" in " ".join(label.text() for label in dialog.findChildren(QLabel))
    assert key not in notifier.withdrawn and not dialog.ok.isEnabled()
    qtbot.keyClicks(dialog.when, "whenever suits")
    assert not dialog.ok.isEnabled() and dialog.said.text()  # a sentence, not a time
    dialog.when.clear()
    qtbot.keyClicks(dialog.when, "in 2 hours")
    expected = clock.now() + timedelta(hours=2)
    assert dialog.ok.isEnabled() and theme.when_text(expected, clock.now()) in dialog.said.text()
    qtbot.keyClick(dialog.when, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "snoozed_until" in embedded_memory.get(rem.id).attrs, timeout=WAIT_MS)
    until = remind.parse_time(embedded_memory.get(rem.id).attrs["snoozed_until"])
    assert abs(until - expected) < timedelta(minutes=1)
    assert key in notifier.withdrawn and key not in app.notices.picking
    assert app.window.detail.current_id != key  # it did not just open the item


def test_snooze_from_the_notification_fires_again_later(app, embedded_memory, clock, notifier, qtbot):
    rem = embedded_memory.capture(
        "call the plumber", kind="reminder", attrs={"due_at": remind.iso(clock.now())}
    )
    planned(qtbot, app)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id)]
    notifier.answer(str(rem.id), "snooze")
    qtbot.waitUntil(lambda: "snoozed_until" in embedded_memory.get(rem.id).attrs, timeout=WAIT_MS)
    assert (
        remind.parse_time(embedded_memory.get(rem.id).attrs["snoozed_until"])
        == clock.now() + remind.SNOOZE_DEFAULT
    )
    settle(qtbot, app)
    planned(qtbot, app)
    assert app.scheduler.next_at == clock.now() + remind.SNOOZE_DEFAULT
    clock.advance(minutes=5)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id)]
    clock.advance(minutes=5, seconds=1)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id), str(rem.id)]
    assert embedded_memory.get(rem.id).state is State.ACTIVE


def test_done_on_a_recurring_reminder_moves_it_to_the_next_time(app, embedded_memory, clock, notifier, qtbot):
    rem = embedded_memory.capture(
        "water the plants", kind="reminder", attrs={"due_at": remind.iso(clock.now()), "rrule": "FREQ=DAILY"}
    )
    planned(qtbot, app)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id)]
    notifier.answer(str(rem.id), "done")
    qtbot.waitUntil(
        lambda: embedded_memory.get(rem.id).attrs["due_at"] != rem.attrs["due_at"], timeout=WAIT_MS
    )
    after = embedded_memory.get(rem.id)
    assert after.state is State.ACTIVE
    assert remind.parse_time(after.attrs["due_at"]) == clock.now() + timedelta(days=1)
    settle(qtbot, app)
    planned(qtbot, app)
    clock.advance(days=1)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id), str(rem.id)]


def test_an_ignored_recurring_reminder_fires_at_its_next_occurrence(
    app, embedded_memory, clock, notifier, qtbot
):
    rem = embedded_memory.capture(
        "weekly review", kind="reminder", attrs={"due_at": remind.iso(clock.now()), "rrule": "FREQ=WEEKLY"}
    )
    planned(qtbot, app)
    fire(qtbot, app)
    clock.advance(days=7)
    planned(qtbot, app)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id), str(rem.id)]
    assert remind.parse_time(embedded_memory.get(rem.id).attrs["due_at"]) == clock.now()


def test_paused_reminders_wait_until_resumed(app, embedded_memory, clock, notifier, qtbot):
    rem = embedded_memory.capture("stand up", kind="reminder", attrs={"due_at": remind.iso(clock.now())})
    app.set_paused(True)
    planned(qtbot, app)
    fire(qtbot, app)
    assert notifier.keys() == []
    assert "paused" in app.window.next_label.text()
    app.set_paused(False)
    settle(qtbot, app)
    assert notifier.keys() == [str(rem.id)]


def test_many_due_at_once_make_one_notice(app, embedded_memory, clock, notifier, qtbot):
    for i in range(5):
        embedded_memory.capture(
            f"task {i}", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(minutes=1))}
        )
    planned(qtbot, app)
    clock.advance(minutes=2)
    fire(qtbot, app)
    assert notifier.keys() == ["due"]
    assert "5 reminders" in notifier.shown[0].title


def test_missed_reminders_appear_once_as_n_missed(qtbot, embedded_memory, clock):
    gone = [
        embedded_memory.capture(
            f"missed {i}", kind="reminder", attrs={"due_at": remind.iso(clock.now() - timedelta(hours=i + 1))}
        )
        for i in range(2)
    ]
    later = embedded_memory.capture(
        "later", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(hours=1))}
    )
    first = FakeNotifier()
    app = make_app(qtbot, embedded_memory, clock, first)
    app.window.show()
    qtbot.waitUntil(lambda: first.keys() == ["missed"], timeout=WAIT_MS)
    assert first.shown[0].title == "2 missed reminders"
    assert "missed 0" in first.shown[0].body and "missed 1" in first.shown[0].body
    assert app.window.banner.isVisible() and "2 missed" in app.window.banner.text.text()
    # the window lists them
    first.answer("missed", "open")
    qtbot.waitUntil(
        lambda: (
            app.window.section == "missed"
            and {str(r.neuron.id) for r in app.window.rows.rows()} == {str(g.id) for g in gone}
        ),
        timeout=WAIT_MS,
    )
    assert all("notified_at" in embedded_memory.get(g.id).attrs for g in gone)
    assert "notified_at" not in embedded_memory.get(later.id).attrs
    settle(qtbot, app)
    app.close()

    # a restart: nothing is missed again
    second = FakeNotifier()
    clock.advance(minutes=1)
    app2 = make_app(qtbot, embedded_memory, clock, second)
    settle(qtbot, app2)
    qtbot.waitUntil(lambda: app2.scheduler.next_at is not None, timeout=WAIT_MS)
    settle(qtbot, app2)
    assert second.keys() == []
    assert app2.scheduler.next_at == remind.parse_time(later.attrs["due_at"])
    app2.close()


def test_without_a_notification_server_the_banner_shows_done_and_snooze(app, embedded_memory, clock, qtbot):
    """The chain falls back to the window's banner (no D-Bus server, no tray)."""
    app.notices.use(Notifications(None, None, app.banner))
    rem = embedded_memory.capture("feed the cat", kind="reminder", attrs={"due_at": remind.iso(clock.now())})
    planned(qtbot, app)
    fire(qtbot, app)
    banner = app.window.banner
    assert banner.isVisible() and "feed the cat" in banner.text.text()
    done = next(b for b in banner._buttons if b.text() == "Done")
    qtbot.mouseClick(done, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: embedded_memory.get(rem.id).state is State.DONE, timeout=WAIT_MS)
    assert not banner.isVisible()


class Broken(Notifier):
    kind = "broken"

    def show(self, notice: Notice) -> None:
        raise RuntimeError("the daemon went away")


def test_a_failing_notifier_falls_back_to_the_banner(app, qtbot):
    chain = Notifications(None, None, app.banner)
    chain.dbus = Broken()  # type: ignore[assignment]
    chain.dbus.available = True  # type: ignore[attr-defined]
    chain.show(Notice("x", "hello", "", [("done", "Done")]))
    assert app.window.banner.isVisible() and "hello" in app.window.banner.text.text()


@pytest.mark.parametrize("action", ["open"])
def test_clicking_a_notification_opens_the_reminder(app, embedded_memory, clock, notifier, qtbot, action):
    rem = embedded_memory.capture("buy stamps", kind="reminder", attrs={"due_at": remind.iso(clock.now())})
    app.window.hide()
    notifier.answer(str(rem.id), action)
    qtbot.waitUntil(
        lambda: app.window.isVisible() and app.window.detail.current_id == str(rem.id), timeout=WAIT_MS
    )


# -- sleep, clock and time-zone changes (the fake clock stands for the wall clock) -----------------


def woke(qtbot, app) -> None:
    """What the scheduler's timer does on every wake: look at the clocks, then fire what is due."""
    app.scheduler.watch()
    settle(qtbot, app)
    fire(qtbot, app)


def test_a_reminder_due_while_the_machine_slept_fires_once_on_waking(
    app, embedded_memory, clock, notifier, qtbot
):
    one = embedded_memory.capture(
        "call the dentist", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(hours=1))}
    )
    daily = embedded_memory.capture(
        "take the pills",
        kind="reminder",
        attrs={"due_at": remind.iso(clock.now() + timedelta(hours=2)), "rrule": "FREQ=DAILY"},
    )
    planned(qtbot, app)
    clock.advance(days=3)  # the lid was closed: the monotonic clock stood still
    app.scheduler.watch()  # the first wake after it: the jump is noticed
    qtbot.waitUntil(lambda: sorted(notifier.keys()) == sorted([str(one.id), str(daily.id)]), timeout=WAIT_MS)
    for _ in range(3):  # and nothing fires twice after it
        woke(qtbot, app)
    assert sorted(notifier.keys()) == sorted([str(one.id), str(daily.id)])
    # three missed days of a daily reminder are one notice; the next day's comes on time
    clock.advance(days=1)
    woke(qtbot, app)
    assert notifier.keys().count(str(daily.id)) == 2


def test_a_clock_set_back_neither_loses_nor_doubles(app, embedded_memory, clock, notifier, qtbot):
    rem = embedded_memory.capture("stretch", kind="reminder", attrs={"due_at": remind.iso(clock.now())})
    later = embedded_memory.capture(
        "walk", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(minutes=30))}
    )
    planned(qtbot, app)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id)]
    clock.advance(hours=-1)  # the clock is set back an hour
    woke(qtbot, app)
    assert notifier.keys() == [str(rem.id)]  # not again
    clock.advance(minutes=91)  # past the other one's time on the new clock
    woke(qtbot, app)
    assert notifier.keys() == [str(rem.id), str(later.id)]
    clock.advance(hours=1)
    woke(qtbot, app)
    assert notifier.keys() == [str(rem.id), str(later.id)]


def test_a_time_zone_change_neither_loses_nor_doubles(
    app, embedded_memory, clock, notifier, qtbot, monkeypatch
):
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    time.tzset()
    remind.reload_local_zone()
    app.scheduler.watch()  # (the zone this test starts in)
    daily = embedded_memory.capture(
        "water the plants", kind="reminder", attrs={"due_at": remind.iso(clock.now()), "rrule": "FREQ=DAILY"}
    )
    once = embedded_memory.capture(
        "pick up the parcel", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(hours=6))}
    )
    planned(qtbot, app)
    fire(qtbot, app)
    assert notifier.keys() == [str(daily.id)]
    try:
        monkeypatch.setenv("TZ", "America/New_York")  # the person flew west
        replans = []
        monkeypatch.setattr(
            app.scheduler, "replan", lambda _o=app.scheduler.replan: (replans.append(1), _o())[1]
        )
        woke(qtbot, app)
        assert replans, "the new time zone was not noticed"
        assert notifier.keys() == [str(daily.id)]
        clock.advance(hours=6, seconds=1)  # the parcel: at its instant, once
        woke(qtbot, app)
        woke(qtbot, app)
        assert notifier.keys() == [str(daily.id), str(once.id)]
        clock.advance(hours=24)  # the daily one comes again, once
        woke(qtbot, app)
        woke(qtbot, app)
        assert notifier.keys().count(str(daily.id)) == 2
    finally:
        monkeypatch.undo()
        time.tzset()
        remind.reload_local_zone()


def test_a_reminder_another_machine_showed_first_still_shows_here(
    app, embedded_memory, clock, notifier, qtbot
):
    """Two machines on one memory: the other one's showing, recorded before this app plans
    again, must not take the reminder off this machine's plan."""
    rem = embedded_memory.capture(
        "water the plants", kind="reminder", attrs={"due_at": remind.iso(clock.now() + timedelta(minutes=5))}
    )
    planned(qtbot, app)
    clock.advance(minutes=5, seconds=1)
    changes, _ = remind.notified(embedded_memory.get(rem.id), clock.now(), "the-laptop")
    embedded_memory.update_attrs(rem.id, **changes)  # the laptop showed it a moment ago
    planned(qtbot, app)
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id)]
    fire(qtbot, app)
    assert notifier.keys() == [str(rem.id)]  # and once only


def test_a_tasks_row_says_when_it_is_due_not_when_it_starts():
    """A calendar's task starting 8 Dec and due 10 Dec: its row says the 10th."""

    start = datetime(2026, 12, 8, 9, 0, tzinfo=UTC)
    attrs = {"title": "Car insurance", "due_at": start.isoformat(), "duration_seconds": 2 * 86400}
    task = Neuron(id=uuid.uuid4(), kind=Kind.REMINDER, body="Car insurance", attrs=attrs)
    row, _ = theme.subtitle(task, datetime(2026, 12, 5, 12, 0, tzinfo=UTC))
    assert "10 Dec" in row and "8 Dec" not in row
    row, overdue = theme.subtitle(task, datetime(2026, 12, 9, 12, 0, tzinfo=UTC))
    assert "tomorrow" in row and not overdue  # started, not late
