"""Sync in the app: in the background on change, never on the GUI thread; the status
bar's line; Preferences ▸ Accounts; `neurons sync` through the app's socket. Real Radicale."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime

import pytest

from core.sync import engine
from desktop.runtime import syncer as desktop_accounts
from tests.core.dav_server import Cutter, Phone, Recorder, never_given_the_password
from tests.core.test_sync import neurons
from tests.desktop.conftest import WAIT_MS, make_app, settle

FUTURE = datetime(2031, 3, 10, 15, 0, tzinfo=UTC)


@pytest.fixture
def phone(radicale, kept, embedded_memory, monkeypatch):
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    phone.tasks = phone.task_list()
    phone.user, phone.password = user, password
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    assert neurons(embedded_memory, "sync", "add", radicale.url, "--user", user, "--all")["code"] == 0
    monkeypatch.delenv("NEURONS_SYNC_PASSWORD")
    monkeypatch.setattr(desktop_accounts, "SETTLE", desktop_accounts.timedelta(milliseconds=50))
    return phone


def titles(phone) -> list[str]:
    return sorted(str(t.icalendar_component["SUMMARY"]) for t in phone.tasks.todos(include_completed=True))


def test_a_capture_syncs_in_the_background_and_the_status_bar_says_so(qtbot, phone, app, monkeypatch):
    threads: list[threading.Thread] = []
    real = engine.sync_all

    def watched(*args, **kw):
        threads.append(threading.current_thread())
        return real(*args, **kw)

    monkeypatch.setattr(engine, "sync_all", watched)
    app.memory.capture(
        "Buy a new kettle", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False
    )
    qtbot.waitUntil(lambda: "Buy a new kettle" in titles(phone), timeout=WAIT_MS)
    settle(qtbot, app)
    assert threads and all(t is not threading.main_thread() for t in threads)
    label = app.window.status.sync_label
    assert label.isVisible() and label.text() == "Synced just now"
    assert app.syncer.timer.isActive()  # and again in 15 minutes
    assert app.syncer.timer.interval() == int(desktop_accounts.SYNC_EVERY.total_seconds() * 1000)


def test_a_server_that_does_not_answer_is_said_and_retried(
    qtbot, radicale, kept, embedded_memory, clock, notifier, monkeypatch
):
    user, password = radicale.new_user()
    Phone(radicale.url, user, password).task_list()
    relay = Cutter(radicale.port)
    monkeypatch.setenv("NEURONS_SYNC_PASSWORD", password)
    assert neurons(embedded_memory, "sync", "add", relay.url, "--user", user, "--all")["code"] == 0
    monkeypatch.delenv("NEURONS_SYNC_PASSWORD")
    relay.cut_after("REPORT", -1)
    app = make_app(qtbot, embedded_memory, clock, notifier)
    try:
        app.window.show()
        qtbot.waitUntil(
            lambda: app.window.status.sync_label.text() == "Server unreachable, will retry", timeout=WAIT_MS
        )
        assert app.syncer.timer.interval() == int(desktop_accounts.FIRST_RETRY.total_seconds() * 1000)
        assert app.window.isEnabled()  # the window never waited for it
        relay.restore()
        app.syncer.sync_now()
        qtbot.waitUntil(lambda: app.window.status.sync_label.text() == "Synced just now", timeout=WAIT_MS)
        settle(qtbot, app)
    finally:
        app.close()
        relay.close()


def test_preferences_accounts_lists_adds_and_removes(qtbot, app, radicale, kept):
    user, password = radicale.new_user()
    phone = Phone(radicale.url, user, password)
    phone.task_list(name="Errands", cal_id="errands")
    phone.address_book(name="Friends", book_id="friends")
    dialog = app.window.dialogs.preferences()
    tabs = dialog.tabs
    assert [tabs.tabText(i) for i in range(tabs.count())] == ["General", "Accounts"]
    page = tabs.widget(1)
    settle(qtbot, app)
    assert page.list.count() == 0
    add = page.add()
    add.url.setText(radicale.url)
    add.user.setText(user)
    add.password.setText(password)
    add.find_button.click()
    qtbot.waitUntil(lambda: len(add.boxes) == 2, timeout=WAIT_MS)
    assert sorted(box.text() for box, _ in add.boxes) == ["Errands (task list)", "Friends (address book)"]
    add.add_button.click()
    qtbot.waitUntil(lambda: page.list.count() == 1, timeout=WAIT_MS)
    assert user in page.list.item(0).text() and "Errands, Friends" in page.list.item(0).text()
    assert list(kept.items.values()) == [password]  # in the keyring
    settle(qtbot, app)
    page.list.setCurrentRow(0)
    page.remove()
    qtbot.waitUntil(lambda: page.list.count() == 0, timeout=WAIT_MS)
    assert not kept.items
    dialog.close()


def test_an_account_added_in_the_window_may_follow_redirects_without_the_password(
    qtbot, app, hostile, kept, tmp_path
):
    recorder = Recorder(tmp_path / "elsewhere", f"principal:{hostile.url}p/")
    try:
        hostile.send_discovery_to(recorder.url + "principals/")
        page = app.window.dialogs.preferences().tabs.widget(1)
        add = page.add()
        add.url.setText(hostile.url)
        add.user.setText("ana")
        add.password.setText("secret")
        add.find_button.click()  # refused, as by default
        qtbot.waitUntil(lambda: "another server" in add.message.text(), timeout=WAIT_MS)
        assert recorder.requests() == []
        add.follow.setChecked(True)
        add.find_button.click()
        qtbot.waitUntil(lambda: len(add.boxes) == 2, timeout=WAIT_MS)
        add.add_button.click()
        qtbot.waitUntil(lambda: page.list.count() == 1, timeout=WAIT_MS)
        settle(qtbot, app)
        assert [a.redirects for a in app.memory.sync_accounts()] == ["follow-without-password"]
        assert recorder.requests(), "the redirect was followed"
        never_given_the_password(recorder)
    finally:
        recorder.close()


def test_a_wrong_password_is_said_in_the_dialog(qtbot, app, radicale, kept):
    user, _ = radicale.new_user()
    page = app.window.dialogs.preferences().tabs.widget(1)
    add = page.add()
    add.url.setText(radicale.url)
    add.user.setText(user)
    add.password.setText("not it")
    add.find_button.click()
    qtbot.waitUntil(lambda: "refused the user name or password" in add.message.text(), timeout=WAIT_MS)
    assert not add.add_button.isEnabled() and not kept.items


def test_neurons_sync_goes_through_the_app(qtbot, phone, app):
    app.memory.capture("Oil the bike", kind="reminder", attrs={"due_at": FUTURE.isoformat()}, derive=False)
    reply = app.handle({"op": "command", "argv": ["sync", "--json"]})
    assert reply["code"] == 0, reply
    outcome = json.loads(reply["stdout"])["accounts"][0]
    assert outcome["errors"] == [] and "Oil the bike" in titles(phone)
    settle(qtbot, app)
