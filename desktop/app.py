"""`neurons-desktop`: the window, the tray, quick capture, reminders that fire, one instance.

    neurons-desktop [--data-dir DIR] [--dsn DSN] [--capture TEXT] [--quick] [--ask TEXT]
                    [--screenshot FILE.png]

A second launch never opens the database: it hands its request (show the window, capture a
text, open quick capture) to the running app over the data dir's socket and exits 0.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from core import __version__, remind
from core.changes import started_by
from core.model import Kind, NeuronsError
from core.settings import Settings, check_install

log = logging.getLogger("desktop")

# How long a second launch waits for the first to start listening.
FORWARD_WAIT_S = 20.0
# How long the app waits for a data dir held by a short-lived process (a `neurons` command).
OPEN_RETRY_S = 30.0
# Notices of more than this many reminders at once become one "N reminders" notice.
GROUP_OVER = 3
MISSED_LISTED = 6


# -- the controller ------------------------------------------------------------------------------

def _qt():
    """Qt imports, late: a forwarding second launch never loads Qt."""
    from PySide6 import QtCore, QtWidgets  # noqa: PLC0415

    return QtCore, QtWidgets


class App:
    """Owns the Memory, the worker, the window, the tray, the scheduler and the notifiers.

    Tests build one with an open `memory`, a fake `notifier` and a fake `clock`.
    """

    def __init__(self, settings: Settings | None = None, *, memory=None, notifier=None,
                 clock: remind.Clock | None = None, use_tray: bool = True, reminders: bool = True,
                 dbus: bool = True):
        QtCore, QtWidgets = _qt()
        from desktop import theme  # noqa: PLC0415
        from desktop.detail import Context  # noqa: PLC0415
        from desktop.quick import QuickCapture  # noqa: PLC0415
        from desktop.scheduler import ReminderScheduler  # noqa: PLC0415
        from desktop.window import BannerNotifier, MainWindow  # noqa: PLC0415
        from desktop.worker import Worker  # noqa: PLC0415

        self.settings = settings
        self.qapp = QtWidgets.QApplication.instance()
        self.clock = clock or remind.Clock()
        self.memory = None
        self.owns_memory = memory is None
        self.ready_event = threading.Event()
        self.open_error: BaseException | None = None
        self.quitting = False
        self.missed: list[remind.Alarm] = []

        from desktop.bridge import Bridge  # noqa: PLC0415

        self.bridge = Bridge()
        self.worker = Worker()
        self.ctx = Context(self.worker, self.clock)
        self.ctx.report = lambda text: self.window.report(text)
        self.ctx.failed = self._failed
        self.worker.failed.connect(lambda label, exc: self._failed(exc))

        self.tray = None
        if use_tray:
            from desktop.tray import Tray  # noqa: PLC0415

            if Tray.available():
                self.tray = Tray()
                self.tray.quick_capture.connect(lambda: self.quick_capture())
                self.tray.open_window.connect(lambda: self.show_window())
                self.tray.pause_toggled.connect(self.set_paused)
                self.tray.quit.connect(self.quit)
                self.tray.show()

        self.window = MainWindow(self.ctx, keep_in_tray=lambda: self.tray is not None and self.tray.visible)
        self.window.quick_capture.connect(lambda: self.quick_capture())
        self.window.closing.connect(self.quit)
        self.window.quit_requested.connect(self.quit)
        self.window.pause_toggled.connect(self.set_paused)
        self.window.reindex_requested.connect(self.reindex)
        from desktop import profile  # noqa: PLC0415

        profile.install(self)  # Profile and storage… in the menu (desktop/profile.py)
        self.worker.busy_changed.connect(self.window.set_busy)
        self.worker.progress.connect(self.window.set_progress)
        self.quick = QuickCapture(self.ctx)
        self.quick.saved.connect(self._captured)

        self.banner = BannerNotifier(self.window)
        if notifier is None:
            notifier = self._default_notifier(dbus)
        self.notifier = notifier
        self.notifier.action.connect(self.on_action)

        self.scheduler = ReminderScheduler(self.worker, lambda: self.memory, self.clock)
        self.scheduler.fired.connect(self.on_fired)
        self.scheduler.missed.connect(self.on_missed)
        self.scheduler.planned.connect(
            lambda at: self.window.set_next_reminder(at, self.scheduler.paused))
        self.reminders_enabled = reminders
        self.bridge.changed.connect(self._store_changed)
        theme.apply(self.qapp)

        if memory is not None:
            self._opened(memory)

    def _default_notifier(self, dbus: bool):
        from desktop.notify import DBusNotifier, Notifications, TrayNotifier  # noqa: PLC0415
        from desktop.theme import icon_path  # noqa: PLC0415

        d = None
        if dbus and os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            d = DBusNotifier(icon_path("neurons-128.png"))
            d.probe()
        t = TrayNotifier(self.tray.icon) if self.tray is not None else None
        return Notifications(d, t, self.banner)

    # -- opening ---------------------------------------------------------------------------------

    def open(self) -> None:
        """Open the store on the worker (retrying while a short-lived process holds it)."""
        settings = self.settings

        def opening():
            from core.memory import Memory  # noqa: PLC0415
            from core.store.lock import LockHeld  # noqa: PLC0415

            deadline = time.monotonic() + OPEN_RETRY_S
            while True:
                try:
                    return Memory.open(settings)
                except LockHeld:
                    if time.monotonic() > deadline or self.quitting:
                        raise
                    time.sleep(0.5)

        self.window.report("Opening your memory…")
        self.worker.run(opening, self._opened, self._open_failed, label="open")

    def _opened(self, memory) -> None:
        self.memory = memory
        self.ctx.memory = memory
        memory.listeners.append(self._listener)
        self.ready_event.set()
        self.window.set_ready()
        if self.reminders_enabled:
            self.scheduler.start()
        # Build the recall index and load the model now, so the first question answers at once.
        self.worker.run(memory.recall.warm, lambda _count: None, lambda exc: log.warning(
            "the search index could not be prepared ahead: %s", exc), label="index")

    def _open_failed(self, exc: BaseException) -> None:
        self.open_error = exc
        self.ready_event.set()
        log.error("cannot open the memory: %s", exc)
        self.window.empty.setText(f"Neurons could not open your memory:\n\n{exc}")
        self.window.report("Could not open your memory")
        self.window.bring_up()

    def _listener(self, change) -> None:  # any thread
        self.bridge.notify_changed(change)

    def _store_changed(self, change) -> None:
        if change.action == "captured" and change.origin == "socket" and change.ids:
            # saved by another program (a forwarded `neurons capture`, a second launch): say so
            self.ctx.run(lambda m: m.get(change.ids[0]), self._captured, "captured")
        self.window.store_changed()
        if self.reminders_enabled:
            self.scheduler.changed()

    def _failed(self, exc: BaseException) -> None:
        text = str(exc) if isinstance(exc, NeuronsError) else f"{type(exc).__name__}: {exc}"
        log.error("%s", text)
        self.window.report(text)

    # -- showing -----------------------------------------------------------------------------------

    def show_window(self, ask: str | None = None) -> None:
        self.window.bring_up()
        if ask:
            self.window.set_question(ask)

    def quick_capture(self, text: str = "") -> None:
        self.quick.open(text)

    def _captured(self, neuron) -> None:
        what = {Kind.REMINDER: "reminder", Kind.CONTACT: "contact"}.get(neuron.kind, "note")
        extra = ""
        due = remind.current_due(neuron)
        if due is not None:
            from desktop import theme  # noqa: PLC0415

            extra = f", due {theme.when_text(due, self.clock.now())}"
        self.window.report(f"Saved {what}: {neuron.title}{extra}")
        if self.tray is not None:
            self.tray.set_tooltip(f"Neurons — saved: {neuron.title[:60]}")

    # -- reminders -------------------------------------------------------------------------------

    def set_paused(self, paused: bool) -> None:
        if self.scheduler.paused == paused:
            return
        self.scheduler.set_paused(paused)
        self.window.set_next_reminder(self.scheduler.next_at, paused)
        if self.tray is not None and self.tray.pause_action.isChecked() != paused:
            self.tray.pause_action.setChecked(paused)
        if self.window.pause_action.isChecked() != paused:
            self.window.pause_action.setChecked(paused)

    def reindex(self) -> None:
        """Compute every vector again, with progress in the window (the GUI stays free)."""
        if self.memory is None:
            return
        memory = self.memory
        self.window.reindex_action.setEnabled(False)

        def done(total: int) -> None:
            self.window.reindex_action.setEnabled(True)
            self.window.report(f"Search index rebuilt: {total:,} neurons")

        def failed(exc: BaseException) -> None:
            self.window.reindex_action.setEnabled(True)
            self._failed(exc)

        self.window.report("Rebuilding the search index…")
        self.worker.run(lambda report: memory.reindex(progress=report), done, failed,
                        label="Indexing", progress=True)

    def on_fired(self, alarms: list) -> None:
        from desktop import theme  # noqa: PLC0415
        from desktop.notify import Notice  # noqa: PLC0415

        now = self.clock.now()
        if len(alarms) > GROUP_OVER:
            self.notifier.show(Notice("due", f"{len(alarms)} reminders are due",
                                      _listing(alarms), [], urgent=True))
            self.window.set_missed([str(a.id) for a in alarms])
            return
        for alarm in alarms:
            body = f"due {theme.when_text(alarm.due_at, now)}"
            rest = alarm.neuron.body.strip()[len(alarm.title):].strip()
            if rest:
                body += "\n" + rest[:200]
            self.notifier.show(Notice(str(alarm.id), alarm.title, body,
                                      [("done", "Done"), ("snooze", "Snooze 10 min")], urgent=True))

    def on_missed(self, alarms: list) -> None:
        from desktop.notify import Notice  # noqa: PLC0415

        self.missed = alarms
        self.window.set_missed([str(a.id) for a in alarms])
        n = len(alarms)
        title = f"{n} missed reminder{'s' if n != 1 else ''}"
        self.notifier.show(Notice("missed", title, _listing(alarms), [], urgent=False))
        if self.notifier is not self.banner and getattr(self.notifier, "active", None) is not self.banner:
            self.banner.show(Notice("missed", title + " while Neurons was closed", ""))

    def on_action(self, key: str, action: str) -> None:
        """An answer to a notification (or the banner): done, snooze or open."""
        now = self.clock.now()
        if key in ("missed", "due"):
            self.show_window()
            self.window.show_section("missed")
            return
        if action == "open":
            self.show_window()
            self.window.open_neuron(key)
            return
        if action == "done":
            fn, message = (lambda m: m.complete(key, now)), "Done"
        elif action == "snooze":
            fn, message = (lambda m: m.snooze(key, now)), "Snoozed for 10 minutes"
        else:
            log.warning("unknown notification action %r", action)
            return
        self.notifier.withdraw(key)

        def done(neuron) -> None:
            self.window.report(f"{message}: {neuron.title}")

        self.ctx.run(fn, done, message)

    # -- the instance socket -------------------------------------------------------------------

    def handle(self, message: dict[str, Any]) -> dict[str, Any]:
        """Answer a request from another process (runs on the socket's thread)."""
        op = message.get("op")
        if op == "show":
            ask = message.get("ask")
            self.bridge.gui(lambda: self.show_window(ask if isinstance(ask, str) else None))
            return {}
        if op == "quick_capture":
            text = message.get("text") or ""
            self.bridge.gui(lambda: self.quick_capture(str(text)))
            return {}
        if op == "quit":
            self.bridge.gui(lambda: _qt()[0].QTimer.singleShot(0, self.quit))
            return {}
        if op == "status":
            return self.bridge.gui(self.status)
        memory = self._wait_memory()
        if op == "capture":
            text, kind, attrs = message.get("text"), message.get("kind"), message.get("attrs")
            with started_by("socket"):
                neuron = memory.capture(text, kind=kind or None, attrs=attrs or None)
            return {"neuron": neuron.to_json(edges=memory.edges(neuron.id))}
        if op == "search":
            found = memory.search(str(message.get("text") or ""), limit=int(message.get("limit") or 20))
            return {"neurons": [n.to_json() for n in found]}
        if op == "ask":
            results = memory.ask(str(message.get("text") or ""), limit=int(message.get("limit") or 10))
            return {"results": [r.to_json() for r in results]}
        if op == "command":  # `neurons list/show/ask/...` while the app owns the data dir
            from core import commands  # noqa: PLC0415

            argv = message.get("argv")
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                raise NeuronsError("a command request carries its command line as a list of strings")
            # (changes reach the window through the memory's listeners, as for any other call)
            with started_by("socket"):
                return commands.execute(memory, argv)
        raise NeuronsError(f"unknown request {op!r}")

    def _wait_memory(self):
        if not self.ready_event.wait(timeout=120):
            raise NeuronsError("the app is still opening its memory")
        if self.memory is None:
            raise NeuronsError(f"the app could not open its memory: {self.open_error}")
        return self.memory

    def status(self) -> dict[str, Any]:
        """What the app shows now (for the end-to-end test and `--status`)."""
        tray = self.tray
        geo = tray.icon.geometry() if tray is not None else None
        active = getattr(self.notifier, "active", self.notifier)
        return {
            "ready": self.memory is not None,
            "tray": bool(tray is not None and tray.visible),
            "tray_geometry": [geo.x(), geo.y(), geo.width(), geo.height()] if geo is not None else None,
            "menu_visible": bool(tray is not None and tray.menu.isVisible()),
            "menu_actions": [a.text() for a in tray.menu.actions() if a.text()] if tray else [],
            "quick_visible": self.quick.isVisible(),
            "quick_text": self.quick.text.text(),
            "quick_kind": self.quick.kind.currentData(),
            "quick_due": self.quick.due.text(),
            "window_visible": self.window.isVisible(),
            "notifier": getattr(active, "kind", "?"),
            "paused": self.scheduler.paused,
            "next_reminder": self.scheduler.next_at.isoformat() if self.scheduler.next_at else None,
            "missed": len(self.missed),
            "banner": self.window.banner.text.text() if self.window.banner.isVisible() else None,
        }

    # -- quitting --------------------------------------------------------------------------------

    def quit(self) -> None:
        if self.quitting:
            return
        self.quitting = True
        if self.window.detail.dirty:
            self.window.detail.save()
        self.quick.hide()
        self.window.hide()
        if self.tray is not None:
            self.tray.hide()
        self.qapp.quit()

    def close(self) -> None:
        """After the event loop: stop timers and threads, then close the store."""
        self.scheduler.stop()
        self.worker.close()
        self.notifier.close()
        if self.memory is not None:
            try:
                self.memory.listeners.remove(self._listener)
            except ValueError:
                pass
            if self.owns_memory:
                self.memory.close()
        self.memory = None
        self.quick.deleteLater()
        self.window.deleteLater()
        if self.tray is not None:
            self.tray.menu.deleteLater()


def _listing(alarms: list) -> str:
    lines = [f"• {a.title}" for a in alarms[:MISSED_LISTED]]
    if len(alarms) > MISSED_LISTED:
        lines.append(f"and {len(alarms) - MISSED_LISTED} more")
    return "\n".join(lines)


# -- the command ---------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="neurons-desktop",
                                description="Neurons: the desktop app (window, tray, reminders).")
    p.add_argument("--data-dir", help="the data directory (env NEURONS_DATA_DIR)")
    p.add_argument("--dsn", help="use a server Postgres (env NEURONS_DSN)")
    p.add_argument("--capture", metavar="TEXT", help="save TEXT (through the running app if any)")
    p.add_argument("--quick", action="store_true", help="open the quick capture box")
    p.add_argument("--ask", metavar="TEXT", help="open the window asking TEXT")
    p.add_argument("--screenshot", metavar="FILE.png",
                   help="render the main window with its data offscreen to FILE.png and exit")
    p.add_argument("--no-tray", action="store_true", help="do not use the tray (closing quits)")
    p.add_argument("--hidden", action="store_true", help="start in the tray, without the window")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--version", action="version", version=f"neurons-desktop {__version__}")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        check_install()
    except NeuronsError as exc:
        print(f"neurons-desktop: {exc}", file=sys.stderr)
        return 2
    settings = Settings.from_env(data_dir=args.data_dir, dsn=args.dsn)
    if args.screenshot:
        settings.embed_in_background = False  # the screenshot writes nothing
        return screenshot(settings, Path(args.screenshot), ask=args.ask)

    from core import instance  # noqa: PLC0415

    lock = instance.InstanceLock(settings.data_dir)
    if not lock.try_acquire():
        return forward(settings, args)
    try:
        return run(settings, args, lock)
    finally:
        lock.release()


def forward(settings: Settings, args: argparse.Namespace) -> int:
    """Another app owns this data dir: hand it the request and exit."""
    from core import instance  # noqa: PLC0415

    if args.capture:
        message: dict[str, Any] = {"op": "capture", "text": args.capture, "kind": None, "attrs": {}}
    elif args.quick:
        message = {"op": "quick_capture"}
    else:
        message = {"op": "show", "ask": args.ask}
    deadline = time.monotonic() + FORWARD_WAIT_S
    while True:
        try:
            reply = instance.request(settings.data_dir, message)
        except NeuronsError as exc:
            print(f"neurons-desktop: {exc}", file=sys.stderr)
            return 2
        if reply is not None:
            if args.capture:
                print(reply["neuron"]["id"], flush=True)
            return 0
        if time.monotonic() > deadline:
            print("neurons-desktop: another Neurons app holds this data dir but does not answer",
                  file=sys.stderr)
            return 2
        time.sleep(0.2)  # the first app is starting: it listens within moments


def run(settings: Settings, args: argparse.Namespace, lock) -> int:
    from core import instance  # noqa: PLC0415

    QtCore, QtWidgets = _qt()
    QtWidgets.QApplication.setApplicationName("Neurons")
    QtWidgets.QApplication.setDesktopFileName("neurons")
    qapp = QtWidgets.QApplication(sys.argv[:1])
    qapp.setQuitOnLastWindowClosed(False)
    from desktop import theme  # noqa: PLC0415

    qapp.setWindowIcon(theme.app_icon())
    app = App(settings, use_tray=not args.no_tray)
    server = instance.InstanceServer(settings.data_dir, app.handle, lock)
    server.start()
    _quit_on_signals(qapp, app)
    app.open()
    if args.capture:
        text = args.capture

        def capture_when_ready() -> None:
            app.ctx.run(lambda m: m.capture(text), app._captured, "capture")

        _when_ready(app, capture_when_ready)
    if args.quick:
        app.quick_capture()
    if not args.hidden or app.tray is None:
        app.show_window(args.ask)
    elif args.ask:
        app.window.set_question(args.ask)
    try:
        code = qapp.exec()
    finally:
        server.stop()
        app.close()
    return code


def _when_ready(app: App, fn: Callable[[], None]) -> None:
    QtCore, _ = _qt()
    timer = QtCore.QTimer(app.window)

    def check() -> None:
        if app.memory is not None:
            timer.stop()
            fn()
        elif app.open_error is not None:
            timer.stop()

    timer.timeout.connect(check)
    timer.start(100)


def _quit_on_signals(qapp, app: App) -> None:
    """SIGTERM/SIGINT quit cleanly (the store checkpoints and stops its engine)."""
    QtCore, _ = _qt()
    read, write = socket.socketpair()
    read.setblocking(False)
    write.setblocking(False)
    signal.set_wakeup_fd(write.fileno())
    notifier = QtCore.QSocketNotifier(read.fileno(), QtCore.QSocketNotifier.Type.Read, qapp)

    def woke() -> None:
        try:
            read.recv(64)
        except OSError:
            pass
        app.quit()

    notifier.activated.connect(woke)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda *_: None)  # the wakeup fd does the work
    qapp._neurons_signal_pipe = (read, write, notifier)  # keep them alive


# -- screenshot mode -----------------------------------------------------------------------------

def screenshot(settings: Settings, path: Path, ask: str | None = None, size=(1360, 860)) -> int:
    """Open the store read-only in spirit (no reminders fire, nothing is written), load the window
    with its data, render it to `path` and exit."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    QtCore, QtWidgets = _qt()
    qapp = QtWidgets.QApplication.instance() or QtWidgets.QApplication(sys.argv[:1])
    from desktop import theme  # noqa: PLC0415

    qapp.setWindowIcon(theme.app_icon())
    from core.memory import Memory  # noqa: PLC0415

    try:
        memory = Memory.open(settings)
    except NeuronsError as exc:
        print(f"neurons-desktop: {exc}", file=sys.stderr)
        return 2
    try:
        app = App(settings, memory=memory, use_tray=False, reminders=False, dbus=False)
        app.window.resize(*size)
        app.window.show()
        app.scheduler.replan()  # read-only: shows when the next reminder is
        if ask:
            app.window.set_question(ask)
            app.window.run_ask(open_first=True)
        code = _render_when_settled(qapp, app, path)
        app.close()
        return code
    finally:
        memory.close()


def _render_when_settled(qapp, app: App, path: Path, timeout_s: float = 60.0) -> int:
    """Wait until the lists, the detail pane and every task are done, then grab the window."""
    QtCore, _ = _qt()
    deadline = time.monotonic() + timeout_s
    selected = False
    while time.monotonic() < deadline:
        qapp.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 50)
        if app.worker.busy or app.window.sections_loaded == 0:
            time.sleep(0.02)
            continue
        if not selected:
            selected = True
            if app.window.rows.count() and app.window.rows.currentRow() < 0:
                app.window.rows.setCurrentRow(0)
            continue
        if app.window.detail.neuron is None and app.window.rows.count():
            time.sleep(0.02)
            continue
        for _ in range(5):
            qapp.processEvents()
        image = app.window.grab()
        path.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(path)):
            print(f"neurons-desktop: cannot write {path}", file=sys.stderr)
            return 2
        print(str(path))
        return 0
    print("neurons-desktop: the window did not finish loading in time", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
