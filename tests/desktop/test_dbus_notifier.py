"""The freedesktop notifier on a real session bus: no server there means it says so (and the chain
falls back); with a server it sends Notify with the actions and maps ActionInvoked back."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from desktop.reminders.notifiers import DBusNotifier, Notice, Notifications
from tests.desktop.conftest import WAIT_MS, FakeNotifier

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
    # every notification the server times out on its own does so after a second
    (tmp_path / "dunstrc").write_text(
        f"[global]\ndmenu = {menu}\n[urgency_low]\ntimeout = 1\n[urgency_normal]\ntimeout = 1\n"
    )
    env = {**os.environ, "DISPLAY": display}
    server = subprocess.Popen(
        ["dunst", "-config", str(tmp_path / "dunstrc")], env=env, stderr=subprocess.DEVNULL
    )
    try:
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


def test_a_notifications_title_shows_a_right_to_left_override():

    shown = Notice("due", "pay invoice \u202egpj.exe", "zero\u200bwidth")
    assert (shown.title, shown.body) == ("pay invoice <U+202E>gpj.exe", "zero<U+200B>width")
