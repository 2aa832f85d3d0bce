"""The desktop app end to end, as a person uses it, on a virtual screen.

Real processes: Xvfb (the screen), trayer (a tray host), dunst (a freedesktop notification
server), all inside one `dbus-run-session`; the app itself; xdotool for the person's mouse and
keys; `dunstctl` to pick "Done" in the notification's menu. The test reads what the app shows
over its instance socket (`status`) and what the notification server received over D-Bus
(`dbus-monitor`). Nothing is faked; every wait is a poll with a generous limit, never a timing
assertion.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from core import instance
from core.memory import Memory
from core.settings import Settings
from tests.conftest import ROOT
from tests.notification_bus import owns_notifications

TOOLS = ["Xvfb", "trayer", "dunst", "dunstctl", "dbus-run-session", "dbus-monitor", "xdotool"]
MISSING = [t for t in TOOLS if shutil.which(t) is None]

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        bool(MISSING),
        reason=f"the desktop e2e test needs {', '.join(MISSING)} "
        "(apt: xvfb trayer dunst dbus-x11 xdotool; .ci/run installs them)",
    ),
]

LIMIT_S = 120  # an upper bound for any one wait


def poll(what: str, fn, limit: float = LIMIT_S, every: float = 0.2):
    deadline = time.monotonic() + limit
    last = None
    while time.monotonic() < deadline:
        last = fn()
        if last:
            return last
        time.sleep(every)
    raise AssertionError(f"gave up waiting for {what} (last: {last!r})")


class Desktop:
    """A virtual desktop session: X server, session bus, tray host, notification server."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []
        self.logs: list[Path] = []
        run = tmp / "run"
        run.mkdir(mode=0o700)
        self.env = {
            k: v for k, v in os.environ.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY")
        }
        # (preferences and window state of a session of its own, never the person's)
        self.env.update(
            XDG_RUNTIME_DIR=str(run),
            XDG_CONFIG_HOME=str(tmp / "config"),
            QT_QPA_PLATFORM="xcb",
            NO_AT_BRIDGE="1",
        )

    def spawn(self, name: str, args: list[str], **kw) -> subprocess.Popen:
        log = self.tmp / f"{name}.log"
        self.logs.append(log)
        out = open(log, "w")
        proc = subprocess.Popen(
            args,
            env=self.env,
            stdout=kw.pop("stdout", out),
            stderr=kw.pop("stderr", subprocess.STDOUT if "stdout" not in kw else out),
            **kw,
        )
        self.procs.append(proc)
        return proc

    def start(self) -> None:
        read, write = os.pipe()
        self.spawn(
            "xvfb",
            ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
            pass_fds=(write,),
        )
        os.close(write)
        with os.fdopen(read) as f:
            display = f.readline().strip()
        assert display, "Xvfb did not start"
        self.env["DISPLAY"] = f":{display}"
        # a session bus for everything below; it lives while its child (cat) reads stdin, and
        # closing stdin ends it with its dbus-daemon (a SIGTERM would leave the daemon behind)
        bus = self.spawn(
            "dbus",
            ["dbus-run-session", "--", "sh", "-c", 'echo "$DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null'],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(self.tmp / "dbus.err", "w"),
            text=True,
        )
        self.bus = bus
        address = bus.stdout.readline().strip()
        assert address, "dbus-run-session did not start a bus"
        self.env["DBUS_SESSION_BUS_ADDRESS"] = address
        self.spawn(
            "trayer",
            [
                "trayer",
                "--edge",
                "top",
                "--align",
                "right",
                "--widthtype",
                "request",
                "--height",
                "28",
                "--SetDockType",
                "true",
                "--transparent",
                "false",
            ],
        )
        # dunst's menu runs "dmenu": ours is the person choosing "Done" (and keeps what it was shown)
        menu = self.tmp / "choose-done.sh"
        menu.write_text(f'#!/bin/sh\ncat > "{self.tmp}/menu.txt"\ngrep -m1 "^#Done" "{self.tmp}/menu.txt"\n')
        menu.chmod(0o755)
        config = self.tmp / "dunstrc"
        config.write_text(f"[global]\ndmenu = {menu}\n")
        self.spawn("dunst", ["dunst", "-config", str(config)])
        self.monitor_log = self.tmp / "notifications.log"
        self.spawn(
            "monitor",
            ["dbus-monitor", "--session", "interface='org.freedesktop.Notifications'"],
            stdout=open(self.monitor_log, "w"),
        )
        poll("dunst to own the notification service", lambda: owns_notifications(self.env))
        poll("the notification server", lambda: self.run("dunstctl", "is-paused").returncode == 0)

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(list(args), env=self.env, capture_output=True, text=True, timeout=60)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc is getattr(self, "bus", None) and proc.poll() is None:
                proc.stdin.close()
                try:
                    proc.wait(10)
                    continue
                except subprocess.TimeoutExpired:
                    pass
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)

    def dump(self) -> str:
        return "\n".join(
            f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for log in self.logs if log.exists()
        )


@pytest.fixture
def desktop(tmp_path):
    session = Desktop(tmp_path)
    try:
        session.start()
        yield session
    finally:
        session.stop()


def status(data_dir: Path) -> dict:
    try:
        return instance.request(data_dir, {"op": "status"}, timeout=15) or {}
    except instance.InstanceError:
        return {}


def ask_app(data_dir: Path, command: str, *argv: str) -> Any:
    """A `neurons COMMAND --json ...` answered by the running app (op "command"); None if not."""
    try:
        answer = instance.command(data_dir, [command, "--json", *argv], timeout=30)
    except instance.InstanceError:
        return None
    return json.loads(answer["stdout"]) if answer is not None and answer["code"] == 0 else None


def test_tray_quick_capture_notification_done_and_second_launch(desktop, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", desktop.env["XDG_RUNTIME_DIR"])
    data_dir = tmp_path / "data"
    app = desktop.spawn(
        "app",
        [sys.executable, "-m", "desktop.launch", "--data-dir", str(data_dir), "--hidden", "-v"],
        cwd=ROOT,
    )
    try:
        shown = poll(
            "the app to be ready with a tray",
            lambda: (s := status(data_dir)).get("ready") and s.get("tray") and s,
        )
        assert shown["notifier"] == "dbus"  # dunst answered GetServerInformation

        # the tray menu opens on a right click on the icon
        x, y, w, h = shown["tray_geometry"]
        assert w > 0 and h > 0

        def open_menu():
            desktop.run("xdotool", "mousemove", str(x + w // 2), str(y + h // 2))
            time.sleep(0.3)
            desktop.run("xdotool", "click", "3")
            return poll("the tray menu", lambda: status(data_dir).get("menu_visible"), limit=5)

        for attempt in range(4):
            try:
                open_menu()
                break
            except AssertionError:
                if attempt == 3:
                    raise
        menu = status(data_dir)["menu_actions"]
        assert menu == ["Quick capture…", "Open Neurons", "Pause reminders", "Quit"]

        # Quick capture from the menu; type; correct the kind and the due time; Enter saves
        desktop.run("xdotool", "key", "Down", "Return")
        poll("the quick capture box", lambda: status(data_dir).get("quick_visible"))
        desktop.run("xdotool", "type", "--delay", "20", "Stretch your legs")
        poll("the typed text", lambda: status(data_dir).get("quick_text") == "Stretch your legs")
        desktop.run("xdotool", "key", "Tab")
        desktop.run("xdotool", "type", "r")  # the kind box: Reminder
        poll("the kind correction", lambda: status(data_dir).get("quick_kind") == "reminder")
        desktop.run("xdotool", "key", "Tab")
        desktop.run("xdotool", "type", "--delay", "20", "in 2 s")
        poll("the due correction", lambda: status(data_dir).get("quick_due") == "in 2 s")
        desktop.run("xdotool", "key", "Return")
        poll("the box to close", lambda: status(data_dir).get("quick_visible") is False)

        saved = poll(
            "the reminder in the store",
            lambda: [
                n
                for n in ask_app(data_dir, "list", "--kind", "reminder") or []
                if n["body"] == "Stretch your legs"
            ],
        )
        reminder = saved[0]
        assert reminder["kind"] == "reminder" and reminder["attrs"].get("due_at")

        # it comes due: the notification server is asked to show it, with Done and Snooze
        poll("the notification", lambda: "Stretch your legs" in desktop.monitor_log.read_text())
        log = desktop.monitor_log.read_text()
        assert 'string "done"' in log and 'string "Done"' in log and 'string "snooze"' in log
        poll(
            "dunst showing it",
            lambda: desktop.run("dunstctl", "count", "displayed").stdout.strip() not in ("", "0"),
        )

        # the person picks Done in the notification's menu: the store says done
        desktop.run("dunstctl", "context")
        poll(
            "Done to reach the store",
            lambda: (ask_app(data_dir, "show", reminder["id"]) or {}).get("state") == "done",
        )
        assert "#Done" in (tmp_path / "menu.txt").read_text()

        # a second launch forwards --capture to this one and exits 0
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "desktop.launch",
                "--data-dir",
                str(data_dir),
                "--capture",
                "Buy oat milk",
            ],
            cwd=ROOT,
            env=desktop.env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 0, second.stderr
        oat_id = second.stdout.strip()
        found = ask_app(data_dir, "ask", "--mode", "keyword", "--", "oat milk")
        assert [r["id"] for r in found] == [oat_id]

        instance.request(data_dir, {"op": "quit"}, timeout=30)
        assert app.wait(60) == 0
    except BaseException:
        print(desktop.dump())
        raise

    # after the app is gone, the store has it all (notified, done, the forwarded capture)
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
        done = memory.get(reminder["id"])
        assert done.state.value == "done"
        assert done.attrs.get("notified_at") and done.attrs.get("done_at")
        assert memory.get(oat_id).body == "Buy oat milk"
