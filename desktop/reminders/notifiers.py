"""Desktop notifications with actions: freedesktop over D-Bus, else the tray's balloon, else a
banner in the window.

Every notifier takes a `Notice` and emits `action(key, action)` when the person answers it:
`key` is what the notice was about (a neuron id, or "missed"), `action` one of its action keys
("done", "snooze") or "open" for a click on the notice itself; and `unseen(key)` when a notice
that was to stay was closed by someone else than the person (the server let it expire, another
program closed it): the person never answered it.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QSystemTrayIcon

from core.validate import visible

log = logging.getLogger(__name__)

APP_NAME = "Neurons"
DBUS_TIMEOUT_S = 3.0
URGENCY_NORMAL = 1  # (critical would be red and never expire: never ours)
# NotificationClosed's reasons (the freedesktop spec): 1 expired, 2 dismissed by the person,
# 3 closed by a CloseNotification call, 4 undefined. Only 2 is an answer.
CLOSED_BY_THE_PERSON = 2
EXPIRE_AS_SERVER_SAYS = -1
EXPIRE_NEVER = 0  # a reminder stays until it is answered (or done, moved, deleted elsewhere)
TRAY_MESSAGE_MS = 15000


@dataclass
class Notice:
    key: str
    title: str
    body: str = ""
    actions: list[tuple[str, str]] = field(default_factory=list)  # (action key, label)
    resident: bool = False  # a reminder: stays on screen (and in the list) until answered

    def __post_init__(self) -> None:  # a right-to-left override in a title is shown, not obeyed
        self.title, self.body = visible(self.title), visible(self.body)


class Notifier(QObject):
    """The interface (and a notifier that shows nothing, for when nothing else works)."""

    action = Signal(str, str)
    unseen = Signal(str)  # a resident notice closed, but not by the person
    kind = "none"

    def show(self, notice: Notice) -> None:
        log.info("notice (not shown): %s: %s", notice.title, notice.body)

    def withdraw(self, key: str) -> None:
        pass

    def close(self) -> None:
        pass


# -- freedesktop notifications over D-Bus (jeepney: no libdbus, no Qt D-Bus typing trouble) ----


class DBusNotifier(Notifier):
    """org.freedesktop.Notifications with Done/Snooze actions.

    All D-Bus traffic runs on this notifier's own thread; `available` is settled by `probe()` (a
    GetServerInformation call) and `ready(bool)` reports it.
    """

    kind = "dbus"
    ready = Signal(bool)
    _signal = Signal(str, object)

    def __init__(self, icon_path: str = "", parent: QObject | None = None):
        super().__init__(parent)
        self.icon_path = icon_path
        self.available: bool | None = None
        self.server: tuple[str, ...] | None = None
        self.capabilities: list[str] = []
        # jeepney's router and connection, once connected (jeepney ships no types)
        self._router: Any = None
        self._conn: Any = None
        self._jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
        self._ids: dict[int, str] = {}  # notification id -> key
        self._by_key: dict[str, int] = {}
        self._resident: dict[int, bool] = {}  # notification id -> whether it was to stay
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._signals: queue.Queue = queue.Queue()
        self._signal.connect(self._on_signal, Qt.ConnectionType.QueuedConnection)

    def probe(self) -> None:
        """Connect and ask the server who it is, on the notifier's thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="neurons-dbus", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        ok = False
        try:
            from jeepney import DBusAddress, MatchRule, message_bus, new_method_call  # noqa: PLC0415 - only where a session bus is (jeepney: Linux)
            from jeepney.io.threading import DBusRouter, Proxy, open_dbus_connection  # noqa: PLC0415 - only where a session bus is (jeepney: Linux)

            self._addr = DBusAddress(
                "/org/freedesktop/Notifications",
                bus_name="org.freedesktop.Notifications",
                interface="org.freedesktop.Notifications",
            )
            self._new_call = new_method_call
            self._conn = open_dbus_connection(bus="SESSION")
            self._router = DBusRouter(self._conn)
            rule = MatchRule(
                type="signal",
                interface="org.freedesktop.Notifications",
                path="/org/freedesktop/Notifications",
            )
            Proxy(message_bus, self._router, timeout=DBUS_TIMEOUT_S).AddMatch(rule)
            self._filter = self._router.filter(rule, queue=self._signals)
            reply = self._router.send_and_get_reply(
                new_method_call(self._addr, "GetServerInformation"), timeout=DBUS_TIMEOUT_S
            )
            if reply.header.message_type.name != "method_return":
                raise RuntimeError(f"GetServerInformation failed: {reply.body}")
            self.server = tuple(reply.body)
            caps = self._router.send_and_get_reply(
                new_method_call(self._addr, "GetCapabilities"), timeout=DBUS_TIMEOUT_S
            )
            self.capabilities = list(caps.body[0]) if caps.body else []
            ok = True
            log.info("notifications by %s (%s)", self.server, ", ".join(self.capabilities))
        except Exception as exc:  # noqa: BLE001 - no session bus, no server: the caller falls back
            log.info("no freedesktop notification server: %s", exc)
        self.available = ok
        self.ready.emit(ok)
        if not ok:
            self._shutdown_connection()
            return
        threading.Thread(target=self._listen, name="neurons-dbus-signals", daemon=True).start()
        while True:
            job = self._jobs.get()
            if job is None:
                break
            try:
                job()
            except Exception:
                log.exception("a notification could not be sent")
        self._shutdown_connection()

    def _listen(self) -> None:
        while True:
            msg = self._signals.get()
            if msg is None:
                return
            member = msg.header.fields.get(_member_field(), None)
            self._signal.emit(str(member), tuple(msg.body))

    @Slot(str, object)
    def _on_signal(self, member: str, body: tuple) -> None:
        if member == "ActionInvoked" and len(body) >= 2:
            nid, action = int(body[0]), str(body[1])
            with self._lock:
                key = self._ids.get(nid)
                self._resident[nid] = False  # answered: however the server closes it then
            if key is not None:
                self.action.emit(key, "open" if action == "default" else action)
        elif member == "NotificationClosed" and body:
            nid = int(body[0])
            reason = int(body[1]) if len(body) >= 2 else 0
            with self._lock:
                key = self._ids.pop(nid, None)
                resident = self._resident.pop(nid, False)
                # still ours to close: not withdrawn by us (withdraw takes it out of _by_key first)
                current = key is not None and self._by_key.get(key) == nid
                if key is not None and current:
                    del self._by_key[key]
            if key is not None and current and resident and reason != CLOSED_BY_THE_PERSON:
                self.unseen.emit(key)

    def show(self, notice: Notice) -> None:
        if not self.available:
            raise RuntimeError("no notification server")
        actions: list[str] = []
        if "actions" in self.capabilities:
            actions = ["default", "Open"]
            for key, label in notice.actions:
                actions += [key, label]
        hints: dict[str, tuple[str, Any]] = {
            "urgency": ("y", URGENCY_NORMAL),
            "desktop-entry": ("s", "neurons"),
            "category": ("s", "x-neurons.reminder"),
        }
        if notice.resident:
            hints["resident"] = ("b", True)

        def send() -> None:
            with self._lock:
                replaces = self._by_key.get(notice.key, 0)
            msg = self._new_call(
                self._addr,
                "Notify",
                "susssasa{sv}i",
                (
                    APP_NAME,
                    replaces,
                    self.icon_path,
                    notice.title,
                    notice.body,
                    actions,
                    hints,
                    EXPIRE_NEVER if notice.resident else EXPIRE_AS_SERVER_SAYS,
                ),
            )
            reply = self._router.send_and_get_reply(msg, timeout=DBUS_TIMEOUT_S)
            if reply.header.message_type.name != "method_return":
                raise RuntimeError(f"Notify failed: {reply.body}")
            nid = int(reply.body[0])
            with self._lock:
                self._ids[nid] = notice.key
                self._by_key[notice.key] = nid
                self._resident[nid] = notice.resident

        self._jobs.put(send)

    def withdraw(self, key: str) -> None:
        if not self.available:
            return

        def close() -> None:  # looked up when it runs: a Notify still queued has its id by then
            with self._lock:
                nid = self._by_key.pop(key, None)
            if nid is not None:
                self._close_notification(nid)

        self._jobs.put(close)

    def _close_notification(self, nid: int) -> None:
        self._router.send_and_get_reply(
            self._new_call(self._addr, "CloseNotification", "u", (nid,)), timeout=DBUS_TIMEOUT_S
        )

    def close(self) -> None:
        """Take every notification still shown off the screen, then disconnect."""
        if self.available:

            def close_all() -> None:
                with self._lock:
                    shown, self._by_key = list(self._by_key.values()), {}
                for nid in shown:
                    self._close_notification(nid)

            self._jobs.put(close_all)
        self._jobs.put(None)
        self._signals.put(None)
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _shutdown_connection(self) -> None:
        try:
            if self._router is not None:
                self._router.close()
            if self._conn is not None:
                self._conn.close()
        except Exception:
            log.debug("closing the D-Bus connection", exc_info=True)
        self._router = self._conn = None


def _member_field():
    from jeepney.low_level import HeaderFields  # noqa: PLC0415 - only where a session bus is (jeepney: Linux)

    return HeaderFields.member


# -- the tray's balloon --------------------------------------------------------------------------


class TrayNotifier(Notifier):
    """QSystemTrayIcon.showMessage: no action buttons, so a click opens the reminder, where Done
    and Snooze are."""

    kind = "tray"

    def __init__(self, tray: QSystemTrayIcon, parent: QObject | None = None):
        super().__init__(parent)
        self.tray = tray
        self._last_key: str | None = None
        tray.messageClicked.connect(self._clicked)

    def show(self, notice: Notice) -> None:
        self._last_key = notice.key
        self.tray.showMessage(
            notice.title, notice.body, QSystemTrayIcon.MessageIcon.Information, TRAY_MESSAGE_MS
        )

    @Slot()
    def _clicked(self) -> None:
        if self._last_key is not None:
            self.action.emit(self._last_key, "open")


# -- the chain -----------------------------------------------------------------------------------


class Notifications(Notifier):
    """Shows each notice with the best notifier that works now: D-Bus, else tray, else banner.

    The banner (a callable that shows a notice in the window) is always the last resort.
    """

    kind = "chain"

    def __init__(
        self,
        dbus: DBusNotifier | None,
        tray: TrayNotifier | None,
        banner: Notifier,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.dbus, self.tray, self.banner = dbus, tray, banner
        for n in (dbus, tray, banner):
            if n is not None:
                n.action.connect(self.action)
                n.unseen.connect(self.unseen)
        self._pending: list[Notice] = []
        if dbus is not None and dbus.available is None:
            dbus.ready.connect(self._dbus_ready)

    @property
    def active(self) -> Notifier:
        if self.dbus is not None and self.dbus.available:
            return self.dbus
        if self.tray is not None and self.tray.tray.isVisible() and QSystemTrayIcon.supportsMessages():
            return self.tray
        return self.banner

    def show(self, notice: Notice) -> None:
        if self.dbus is not None and self.dbus.available is None:
            self._pending.append(notice)  # the probe answers within a few seconds
            return
        notifier = self.active
        try:
            notifier.show(notice)
        except Exception as exc:  # noqa: BLE001 - any failure of a notifier: the banner shows it instead
            log.warning("the %s notifier failed (%s); showing it in the window", notifier.kind, exc)
            self.banner.show(notice)

    @Slot(bool)
    def _dbus_ready(self, ok: bool) -> None:
        pending, self._pending = self._pending, []
        for notice in pending:
            self.show(notice)

    def withdraw(self, key: str) -> None:
        for n in (self.dbus, self.tray, self.banner):
            if n is not None:
                n.withdraw(key)

    def close(self) -> None:
        if self.dbus is not None:
            self.dbus.close()
