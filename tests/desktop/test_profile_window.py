"""Profile and storage… in the window: say first what will happen, make a profile of this
computer's memory, move it to a server and back -- on the app's own open memory, which the app
then opens again from the data dir's settings. And two apps on one profile: reminders."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core import remind
from core.memory import Memory
from core.settings import Settings
from desktop.app import App
from desktop.dialogs.profile import ProfileDialog
from tests.desktop.conftest import T0, WAIT_MS, FakeClock, FakeNotifier, make_app, settle


@pytest.fixture
def owned_app(qtbot, tmp_path, clock, notifier, monkeypatch):
    """The app as it starts for real: it opens (and owns) the memory of its data dir."""
    monkeypatch.delenv("NEURONS_DSN", raising=False)
    settings = Settings.from_env(data_dir=tmp_path / "data", embed_in_background=False)
    app = App(settings, notifier=notifier, clock=clock, use_tray=False, dbus=False)
    qtbot.waitUntil(lambda: app.memory is not None, timeout=WAIT_MS)
    yield app
    settle(qtbot, app)
    app.close()


def dialog_of(qtbot, app) -> ProfileDialog:
    dialog = ProfileDialog(app)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: hasattr(dialog, "facts"), timeout=WAIT_MS)
    return dialog


# Opening again starts the embedded engine anew: on a loaded machine that can take a while.
REOPEN_MS = 4 * WAIT_MS


def reopened(qtbot, app, check) -> None:
    qtbot.waitUntil(lambda: app.memory is not None and check(app.memory), timeout=REOPEN_MS)
    settle(qtbot, app)


def test_after_a_change_the_dialog_shows_what_is_now(qtbot, owned_app):
    """Create profile, then the same dialog says whose memory it now is (not the old offer,
    whose second click failed)."""
    app = owned_app
    dialog = dialog_of(qtbot, app)
    dialog.name.setText("Maria")
    dialog.create_button.click()
    reopened(qtbot, app, lambda m: m.identity.user_id is not None)
    qtbot.waitUntil(lambda: (dialog.facts.get("profile") or {}).get("name") == "Maria", timeout=REOPEN_MS)
    said = " ".join(label.text() for label in dialog.who.findChildren(type(dialog.status)))
    assert "Profile <b>Maria</b>" in said and "anonymous" not in said
    assert all(b.isEnabled() for b in dialog.buttons) and "Create profile" not in [
        b.text() for b in dialog.buttons
    ]
    assert "Maria" in dialog.status.text()


def test_the_window_makes_a_profile_and_moves_it_to_a_server_and_back(qtbot, owned_app, server_dsn):
    app = owned_app
    assert app.profile_action.text() == "Profile and storage…"
    ana = app.memory.capture("Ana Silva +351 912 345 678")
    note = app.memory.capture("Ana keeps the spare key")
    mine = {ana.id, note.id}

    first = dialog_of(qtbot, app)
    said = " ".join(label.text() for label in first.who.findChildren(type(first.status)))
    assert "anonymous" in said and "moves all of them into the profile" in said
    first.create_button.click()  # no name yet: it says so, nothing changes
    assert "name" in first.status.text() and app.memory.identity.user_id is None
    first.name.setText("Maria")
    first.create_button.click()
    reopened(qtbot, app, lambda m: m.identity.user_id is not None)
    assert {n.id for n in app.memory.list()} == mine
    assert "Maria" in first.status.text()

    second = dialog_of(qtbot, app)
    assert second.facts["profile"]["name"] == "Maria" and second.facts["kind"] == "embedded"
    second.dsn.setText(server_dsn)
    second.move_button.click()
    reopened(qtbot, app, lambda m: m.store.kind == "server")
    assert {n.id for n in app.memory.list()} == mine  # the same profile's rows, on the server
    assert app.memory.profile()["name"] == "Maria"

    third = dialog_of(qtbot, app)
    third.embedded_button.click()
    reopened(qtbot, app, lambda m: m.store.kind == "embedded")
    assert {n.id for n in app.memory.list()} == mine  # the copy kept on this computer


def test_two_machines_running_on_one_profile_each_notify_once_and_not_after_done(qtbot, tmp_path, server_dsn):
    """Two apps (two data dirs, one profile on the server), each with its own fake clock and
    notification daemon: a due reminder shows once on each; one done on the laptop shows on
    neither."""

    def machine(name: str) -> Memory:
        return Memory.open(Settings(data_dir=tmp_path / name, dsn=server_dsn, embed_in_background=False))

    laptop_store, desk_store = machine("laptop"), machine("desk")
    laptop = laptop_store.claim("Maria")
    desk, _ = desk_store.join(laptop.identity.user_id, bring_own=False)
    due = remind.iso(T0 + timedelta(minutes=5))
    bins = laptop.capture("take the bins out", kind="reminder", attrs={"due_at": due})
    plumber = laptop.capture("call the plumber", kind="reminder", attrs={"due_at": due})
    apps, notifiers, clocks = [], [], []
    try:
        for memory in (laptop, desk):
            clock, notifier = FakeClock(), FakeNotifier()
            app = make_app(qtbot, memory, clock, notifier)
            apps.append(app), notifiers.append(notifier), clocks.append(clock)
        for app in apps:
            app.scheduler.replan()
            settle(qtbot, app)
            assert app.scheduler.next_at == T0 + timedelta(minutes=5)  # both plan both
        laptop.complete(plumber.id, T0 + timedelta(minutes=1))
        for _ in range(2):  # the moment comes, and a minute later the timers check again
            for app, clock in zip(apps, clocks, strict=True):
                clock.advance(minutes=5, seconds=1)
                app.scheduler.check()
                settle(qtbot, app)
        assert [n.keys() for n in notifiers] == [[str(bins.id)], [str(bins.id)]]
    finally:
        for app in apps:
            settle(qtbot, app)
            app.close()
        laptop_store.close()
        desk_store.close()
