"""The freedesktop notifier on a real session bus: no server there means it says so (and the chain
falls back); with a server it sends Notify with the actions and maps ActionInvoked back."""

from __future__ import annotations

import os
import shutil
import subprocess
from datetime import timedelta

import pytest

from core import remind
from desktop.items.sections import Section
from desktop.reminders.notifiers import DBusNotifier, Notice, Notifications
from tests.desktop.conftest import WAIT_MS, FakeNotifier, make_app, settle
from tests.notification_bus import owns_notifications

pytestmark = pytest.mark.skipif(
    shutil.which("dbus-run-session") is None, reason="needs dbus-run-session (apt: dbus)"
)


@pytest.fixture
def session_bus(monkeypatch):
    # the bus lives while its child (cat) reads stdin; closing stdin ends both (a SIGTERM to
    # dbus-run-session would leave its dbus-daemon behind)
    proc = subprocess.Popen(
        ["dbus-run-session", "--", "sh", "-c", 'echo "$DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null'],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    address = proc.stdout.readline().strip()
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
    yield address
    proc.stdin.close()
    proc.wait(10)


def test_no_server_on_the_bus_means_unavailable_and_the_banner_is_used(qtbot, session_bus):
    dbus = DBusNotifier()
    banner = FakeNotifier()
    chain = Notifications(dbus, None, banner)
    with qtbot.waitSignal(dbus.ready, timeout=WAIT_MS) as ready:
        dbus.probe()
    assert ready.args == [False]
    assert dbus.available is False
    chain.show(Notice("k", "hello"))
    assert banner.keys() == ["k"]
    chain.close()


def test_a_notice_shown_before_the_probe_answers_is_not_lost(qtbot, session_bus):
    dbus = DBusNotifier()
    banner = FakeNotifier()
    chain = Notifications(dbus, None, banner)
    chain.show(Notice("early", "shown while probing"))
    with qtbot.waitSignal(dbus.ready, timeout=WAIT_MS):
        dbus.probe()
    qtbot.waitUntil(lambda: banner.keys() == ["early"], timeout=WAIT_MS)
    chain.close()


@pytest.fixture
def dunst(qtbot, session_bus, tmp_path):
    """A real notification server (dunst on a virtual X screen) on the session bus; its dmenu
    is a script that picks "Snooze" and keeps the menu it was shown. Yields dunstctl's env."""
    if shutil.which("dunst") is None or shutil.which("Xvfb") is None:
        pytest.skip("needs dunst and Xvfb (apt: dunst xvfb)")
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL
    )
    os.close(write)
    with os.fdopen(read) as f:
        display = ":" + f.readline().strip()
    menu = tmp_path / "menu.sh"
    menu.write_text(f'#!/bin/sh\ncat > "{tmp_path}/menu.txt"\ngrep -m1 "^#Snooze" "{tmp_path}/menu.txt"\n')
    menu.chmod(0o755)
    # every notification the server times out on its own does so after a second; one whose
    # title starts "Expires" it times out after a second even when asked to keep it
    (tmp_path / "dunstrc").write_text(
        f"[global]\ndmenu = {menu}\n[urgency_low]\ntimeout = 1\n[urgency_normal]\ntimeout = 1\n"
        '[expires]\nsummary = "Expires*"\noverride_dbus_timeout = 1\n'
    )
    env = {**os.environ, "DISPLAY": display}
    server = subprocess.Popen(
        ["dunst", "-config", str(tmp_path / "dunstrc")], env=env, stderr=subprocess.DEVNULL
    )
    try:
        qtbot.waitUntil(lambda: owns_notifications(env), timeout=WAIT_MS)  # before anyone calls it
        qtbot.waitUntil(
            lambda: subprocess.run(["dunstctl", "is-paused"], env=env, capture_output=True).returncode == 0,
            timeout=WAIT_MS,
        )
        yield env
    finally:
        server.terminate()
        xvfb.terminate()
        server.wait(10)
        xvfb.wait(10)


def displayed(env) -> str:
    return subprocess.run(
        ["dunstctl", "count", "displayed"], env=env, capture_output=True, text=True
    ).stdout.strip()


def closed(env) -> str:
    """How many notifications the server has closed (its history)."""
    return subprocess.run(
        ["dunstctl", "count", "history"], env=env, capture_output=True, text=True
    ).stdout.strip()


def ready_notifier(qtbot) -> DBusNotifier:
    dbus = DBusNotifier()
    with qtbot.waitSignal(dbus.ready, timeout=WAIT_MS) as ready:
        dbus.probe()
    assert ready.args == [True] and "actions" in dbus.capabilities
    return dbus


def test_with_a_server_notify_carries_the_actions_and_answers_come_back(qtbot, dunst, tmp_path):
    dbus = ready_notifier(qtbot)
    dbus.show(
        Notice(
            "n-1",
            "Take the bins out",
            "due today 19:00",
            [("done", "Done"), ("snooze", "Snooze 10 min")],
            resident=True,
        )
    )
    qtbot.waitUntil(lambda: displayed(dunst) == "1", timeout=WAIT_MS)
    with qtbot.waitSignal(dbus.action, timeout=WAIT_MS) as answered:
        subprocess.run(["dunstctl", "context"], env=dunst, timeout=30)
    assert answered.args == ["n-1", "snooze"]
    assert "#Done" in (tmp_path / "menu.txt").read_text()
    dbus.close()


def test_a_reminder_is_normal_and_resident_and_is_closed_when_withdrawn_or_at_quit(qtbot, dunst, tmp_path):
    log = tmp_path / "bus.log"
    monitor = subprocess.Popen(
        ["dbus-monitor", "--session", "interface='org.freedesktop.Notifications'"],
        stdout=open(log, "w"),
        stderr=subprocess.DEVNULL,
    )
    try:
        qtbot.waitUntil(lambda: log.stat().st_size > 0, timeout=WAIT_MS)  # it is listening
        dbus = ready_notifier(qtbot)
        dbus.show(Notice("r-1", "Stretch", "due today 10:00", [("done", "Done")], resident=True))
        qtbot.waitUntil(lambda: displayed(dunst) == "1", timeout=WAIT_MS)
        notify = log.read_text().split("member=Notify", 1)[1].split("method return", 1)[0]
        hints = " ".join(notify.split())
        assert 'string "urgency" variant byte 1' in hints  # normal, never critical
        assert 'string "resident" variant boolean true' in hints
        assert 'string "Stretch"' in hints  # the title is the reminder's
        dbus.withdraw("r-1")  # done, snoozed or deleted
        qtbot.waitUntil(lambda: displayed(dunst) == "0", timeout=WAIT_MS)
        assert "member=CloseNotification" in log.read_text()
        dbus.show(Notice("r-2", "Call the bank", "", [("done", "Done")], resident=True))
        qtbot.waitUntil(lambda: displayed(dunst) == "1", timeout=WAIT_MS)
        dbus.close()  # the app quits
        qtbot.waitUntil(lambda: displayed(dunst) == "0", timeout=WAIT_MS)
    finally:
        monitor.terminate()
        monitor.wait(10)


def test_a_reminder_stays_until_answered_where_a_passing_notice_times_out(qtbot, dunst):
    """A reminder's notification never expires (as a calendar's reminders do), even on a server
    that times out every other one after a second; a passing notice still goes."""
    dbus = ready_notifier(qtbot)
    dbus.show(Notice("r-1", "Stretch", "due today 10:00", [("done", "Done")], resident=True))
    dbus.show(Notice("engine", "The engine restarted"))
    qtbot.waitUntil(lambda: displayed(dunst) == "2", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: displayed(dunst) == "1", timeout=WAIT_MS)  # the passing one timed out
    qtbot.wait(3000)  # three times the server's timeout
    assert displayed(dunst) == "1"
    dbus.withdraw("r-1")
    qtbot.waitUntil(lambda: displayed(dunst) == "0", timeout=WAIT_MS)
    dbus.close()


def close_by_another_program(env, nid: int) -> None:
    subprocess.run(
        ["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications"]
        + ["--object-path", "/org/freedesktop/Notifications"]
        + ["--method", "org.freedesktop.Notifications.CloseNotification", str(nid)],
        env=env,
        check=True,
        capture_output=True,
        timeout=30,
    )


def test_a_reminder_the_server_closes_is_unseen_one_the_person_dismisses_is_not(qtbot, dunst):
    """NotificationClosed's reason tells them apart: expired (1) or closed by another program's
    call (3) means the person never answered it; dismissed (2) means they did. Ours withdrawn
    (done elsewhere, the app quits) is neither."""
    dbus = ready_notifier(qtbot)
    unseen: list[str] = []
    dbus.unseen.connect(unseen.append)
    dbus.show(Notice("r-exp", "Expires: renew the domain", "due now", [("done", "Done")], resident=True))
    qtbot.waitUntil(lambda: unseen == ["r-exp"], timeout=WAIT_MS)  # the server timed it out

    dbus.show(Notice("r-call", "Water the plants", "due now", [("done", "Done")], resident=True))
    qtbot.waitUntil(lambda: displayed(dunst) == "1", timeout=WAIT_MS)
    close_by_another_program(dunst, dbus._by_key["r-call"])
    qtbot.waitUntil(lambda: unseen == ["r-exp", "r-call"], timeout=WAIT_MS)

    dbus.show(Notice("r-user", "Call the bank", "due now", [("done", "Done")], resident=True))
    qtbot.waitUntil(lambda: displayed(dunst) == "1", timeout=WAIT_MS)
    subprocess.run(["dunstctl", "close"], env=dunst, check=True, timeout=30)  # the person
    qtbot.waitUntil(lambda: displayed(dunst) == "0", timeout=WAIT_MS)
    dbus.show(Notice("r-ours", "Stretch", "due now", [("done", "Done")], resident=True))
    qtbot.waitUntil(lambda: displayed(dunst) == "1", timeout=WAIT_MS)
    dbus.withdraw("r-ours")
    qtbot.waitUntil(lambda: displayed(dunst) == "0", timeout=WAIT_MS)
    qtbot.wait(500)  # every NotificationClosed has come back
    assert unseen == ["r-exp", "r-call"]
    dbus.close()


def test_a_reminder_whose_notification_the_server_closed_is_missed_now_and_at_next_start(
    qtbot, dunst, embedded_memory, clock
):
    """A reminder asked to stay that the server times out anyway was never answered: it is
    listed under Missed at once and said again at the next start, as one that came due while
    Neurons was closed is; one the person dismissed is not."""
    due = {"due_at": remind.iso(clock.now() + timedelta(minutes=1))}
    expired = embedded_memory.capture("Expires today: the parking permit", kind="reminder", attrs=due)
    dismissed = embedded_memory.capture("Call the bank", kind="reminder", attrs=due)
    app = make_app(qtbot, embedded_memory, clock, ready_notifier(qtbot))
    app.window.show()
    settle(qtbot, app)
    app.scheduler.replan()
    settle(qtbot, app)
    clock.advance(minutes=1)
    app.scheduler.check()
    settle(qtbot, app)
    assert set(app.notices.shown) == {str(expired.id), str(dismissed.id)}
    # both reached the server and it closed one: counting what is displayed alone would also
    # pass while the second is still on its way, and the person would then close the wrong one
    qtbot.waitUntil(lambda: (displayed(dunst), closed(dunst)) == ("1", "1"), timeout=WAIT_MS)
    subprocess.run(["dunstctl", "close"], env=dunst, check=True, timeout=30)  # the person, the other
    qtbot.waitUntil(lambda: displayed(dunst) == "0", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: list(app.window.missed) == [str(expired.id)], timeout=WAIT_MS)
    app.window.show_section(Section.MISSED)
    qtbot.waitUntil(
        lambda: [str(r.neuron.id) for r in app.window.rows.rows()] == [str(expired.id)], timeout=WAIT_MS
    )
    assert app.window.rows.rows()[0].why == "its notification closed before you answered it"
    assert app.window.list_title.text() == "Missed reminders"  # not "while Neurons was closed"
    settle(qtbot, app)
    app.close()

    clock.advance(minutes=5)
    again = FakeNotifier()
    app2 = make_app(qtbot, embedded_memory, clock, again)
    qtbot.waitUntil(lambda: again.keys() == ["missed"], timeout=WAIT_MS)
    assert again.shown[0].title == "1 missed reminder"
    assert "parking permit" in again.shown[0].body and "bank" not in again.shown[0].body
    assert list(app2.window.missed) == [str(expired.id)]
    settle(qtbot, app2)
    app2.close()

    clock.advance(minutes=5)  # said once: the start after that has nothing missed
    third = FakeNotifier()
    app3 = make_app(qtbot, embedded_memory, clock, third)
    settle(qtbot, app3)
    qtbot.wait(300)
    settle(qtbot, app3)
    assert third.keys() == []
    app3.close()


def test_a_notifications_title_shows_a_right_to_left_override():

    shown = Notice("due", "pay invoice \u202egpj.exe", "zero\u200bwidth")
    assert (shown.title, shown.body) == ("pay invoice <U+202E>gpj.exe", "zero<U+200B>width")
