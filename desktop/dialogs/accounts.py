"""Sync in the app: Preferences ▸ Accounts, the status bar's sync line, and the background syncer.

The syncer runs core/sync on the worker's background lane (never on the GUI thread, never
blocking what the person does): when something syncable changes here (a few seconds after the
last change), every 15 minutes while the server answers, and sooner again after it did not
(1, 2, 4 … minutes, up to 15). A `neurons sync` run while the app is open goes through its socket
and waits for the syncer's turn (one sync of a memory at a time, core/sync/engine.py).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.model import Kind
from core.sync import accounts
from core.sync.accounts import is_calendar
from core.vocabulary import Action, Origin
from desktop.look.widgets import fit_placeholder
from desktop.runtime.worker import BACKGROUND

log = logging.getLogger(__name__)

SYNC_EVERY = timedelta(minutes=15)
# After a change here, the syncer waits this long for the next one before it syncs.
SETTLE = timedelta(seconds=5)
FIRST_RETRY = timedelta(minutes=1)
SYNCED_KINDS = frozenset({Kind.REMINDER, Kind.CONTACT, Kind.NOTE})


def ago(then: datetime, now: datetime) -> str:
    minutes = int((now - then).total_seconds() // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min ago"
    hours = minutes // 60
    if hours < 24:
        return f"{hours} h ago"
    return then.astimezone().strftime("on %d %b")


def status_line(outcomes, synced_at: datetime | None, now: datetime) -> str:
    """The status bar's words for the last sync."""
    if outcomes is None:
        return ""
    if any(o.unreachable for o in outcomes):
        return "Server unreachable, will retry"
    failed = [o for o in outcomes if o.failed]
    if failed:
        return "Sync stopped: see Preferences ▸ Accounts"
    return f"Synced {ago(synced_at, now)}" if synced_at else ""


class Syncer(QObject):
    """Syncs the app's memory in the background; `status` carries the line for the status bar,
    `said` what a sync has to tell once (conflicts, items it could not read)."""

    status = Signal(str)
    said = Signal(str)
    finished = Signal(object)  # the outcomes

    def __init__(self, worker, clock, memory_of, parent: QObject | None = None):
        super().__init__(parent)
        self.worker, self.clock, self.memory_of = worker, clock, memory_of
        self.running = False
        self.again = False  # a change came while a sync ran: one more after it
        self.outcomes = None
        self.synced_at: datetime | None = None
        self.retry = FIRST_RETRY
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.sync_now)
        self.settle = QTimer(self)
        self.settle.setSingleShot(True)
        self.settle.timeout.connect(self.sync_now)
        self.tick = QTimer(self)  # "Synced 3 min ago" stays true
        self.tick.timeout.connect(self._show)
        self.tick.start(60_000)

    def start(self) -> None:
        """The memory is open: sync now, then on the schedule."""
        self.sync_now()

    def stop(self) -> None:
        for timer in (self.timer, self.settle, self.tick):
            timer.stop()

    def changed(self, change) -> None:
        """A Change of the memory: something syncable changed here (not by a sync itself)."""
        if change.origin is Origin.SYNC or change.action is Action.ENGINE_RESTARTED:
            return
        if change.kinds and not (change.kinds & SYNCED_KINDS):
            return
        self.settle.start(int(SETTLE.total_seconds() * 1000))

    def sync_now(self) -> None:
        memory = self.memory_of()
        if memory is None:
            return
        if self.running:
            self.again = True
            return
        self.running = True
        self.settle.stop()
        from core.sync import accounts, engine  # noqa: PLC0415 - the sync loads when it runs

        def run():
            if not memory.sync_accounts():
                return []
            return engine.sync_all(memory, accounts.password_of)

        self.worker.run(run, self._done, self._failed, label="sync", lane=BACKGROUND, droppable=True)

    def _done(self, outcomes) -> None:
        self.running = False
        self.outcomes = outcomes
        now = self.clock.now()
        if outcomes and not any(o.failed for o in outcomes):
            self.synced_at = now
        for o in outcomes:
            for sentence in o.said:
                self.said.emit(sentence)
            if o.failed and not o.unreachable:
                self.said.emit(f"Sync with {o.url} stopped: {o.failed}")
        if any(o.unreachable for o in outcomes):
            wait, self.retry = self.retry, min(self.retry * 2, SYNC_EVERY)
        else:
            wait, self.retry = SYNC_EVERY, FIRST_RETRY
        if outcomes:
            self.timer.start(int(wait.total_seconds() * 1000))
        self._show()
        self.finished.emit(outcomes)
        if self.again:
            self.again = False
            self.sync_now()

    def _failed(self, exc: BaseException) -> None:
        self.running = False
        log.warning("sync failed: %s", exc)
        self.outcomes = None
        self.status.emit("Sync stopped: see Preferences ▸ Accounts")
        self.said.emit(f"Sync stopped: {exc}")
        self.timer.start(int(self.retry.total_seconds() * 1000))
        self.finished.emit([])

    def _show(self) -> None:
        self.status.emit(status_line(self.outcomes, self.synced_at, self.clock.now()))


# -- Preferences ▸ Accounts -----------------------------------------------------------------------


class AccountsPage(QWidget):
    """The sync accounts: each with what it syncs and when it last did; add, remove, sync now."""

    def __init__(self, ctx, syncer: Syncer, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx, self.syncer = ctx, syncer
        self.setAccessibleName("Accounts")
        lay = QVBoxLayout(self)
        intro = QLabel(
            "Sync reminders and contacts with your own calendar server (Radicale, Nextcloud, "
            "Baïkal, Fastmail, iCloud…), so your phone shows them too. Notes stay on this "
            "computer unless you pick a calendar for them."
        )
        intro.setWordWrap(True)
        intro.setObjectName("hint")
        lay.addWidget(intro)
        self.list = QListWidget()
        self.list.setAccessibleName("Sync accounts")
        lay.addWidget(self.list)
        self.state = QLabel()
        self.state.setWordWrap(True)
        lay.addWidget(self.state)
        row = QHBoxLayout()
        self.add_button = QPushButton("Add account…")
        self.remove_button = QPushButton("Remove")
        self.sync_button = QPushButton("Sync now")
        for button in (self.add_button, self.remove_button, self.sync_button):
            row.addWidget(button)
        row.addStretch(1)
        lay.addLayout(row)
        self.add_button.clicked.connect(self.add)
        self.remove_button.clicked.connect(self.remove)
        self.sync_button.clicked.connect(self.syncer.sync_now)
        self.syncer.finished.connect(lambda _o: self.reload())
        self.syncer.status.connect(self.state.setText)
        self.reload()

    def reload(self) -> None:
        self.ctx.read(lambda m: m.sync_accounts()).on_success(self._show).run("accounts")

    def _show(self, found) -> None:
        self.list.clear()
        for account in found:
            what = ", ".join(c.name for c in account.collections)
            when = (
                f"synced {ago(account.synced_at, self.ctx.now())}" if account.synced_at else "not synced yet"
            )
            text = f"{account.username} at {account.url}\n{what} — {when}"
            if account.last_error:
                text += f"\nLast try: {account.last_error}"
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, account.given_url)
            self.list.addItem(item)
        self.remove_button.setEnabled(bool(found))
        self.sync_button.setEnabled(bool(found))

    def add(self) -> AddAccountDialog:
        dialog = AddAccountDialog(self.ctx, self)
        dialog.added.connect(self._added)
        dialog.open()
        return dialog

    def _added(self) -> None:
        self.reload()
        self.syncer.sync_now()

    def remove(self) -> None:
        item = self.list.currentItem() or self.list.item(0)
        if item is None:
            return
        url = str(item.data(Qt.ItemDataRole.UserRole))
        (
            self.ctx.write(lambda m: accounts.remove(m, url))
            .on_success(lambda _a: self.reload())
            .run("remove account")
        )


class AddAccountDialog(QDialog):
    """The server's address, the user and password; then the calendars and address books it
    holds, to tick. Finding them runs on the worker: the window never waits on the network."""

    added = Signal()

    def __init__(self, ctx, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowTitle("Add a sync account")
        self.principal: Any = None  # what the server holds (core.sync.discover.Principal)
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.url = QLineEdit()
        self.url.setPlaceholderText("https://dav.example.com")
        self.url.setAccessibleName("Server address")
        self.user = QLineEdit()
        self.user.setAccessibleName("User name")
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password.setAccessibleName("Password")
        self.password.setPlaceholderText("kept in the system keyring, never in a file")
        for edit in (self.url, self.password):
            fit_placeholder(edit)
        form.addRow("Server", self.url)
        form.addRow("User", self.user)
        form.addRow("Password", self.password)
        lay.addLayout(form)
        self.find_button = QPushButton("Find calendars")
        self.find_button.clicked.connect(self.look_up)
        lay.addWidget(self.find_button)
        self.choices = QVBoxLayout()
        lay.addLayout(self.choices)
        self.boxes: list[tuple[QCheckBox, Any]] = []  # each with the collection it stands for
        self.message = QLabel()
        self.message.setWordWrap(True)
        lay.addWidget(self.message)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.add_button = self.buttons.addButton("Add", QDialogButtonBox.ButtonRole.AcceptRole)
        self.add_button.setEnabled(False)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    def look_up(self) -> None:
        """Ask the server what it holds, on the worker."""
        url, user, password = self.url.text().strip(), self.user.text().strip(), self.password.text()
        self.message.setText("Looking…")
        self.find_button.setEnabled(False)
        self.ctx.worker.run(
            lambda: accounts.find(url, user, password), self._found, self._refused, label="find calendars"
        )

    def _found(self, principal) -> None:
        self.find_button.setEnabled(True)
        self.principal = principal
        for box, _ in self.boxes:
            box.deleteLater()
        self.boxes = []
        for found in principal.collections:
            if not (is_calendar(found) or found.address_book):
                continue
            box = QCheckBox(f"{found.name} ({found.what})")
            box.setChecked(True)
            self.choices.addWidget(box)
            self.boxes.append((box, found))
        self.message.setText(
            "Tick what to sync." if self.boxes else "The server holds no calendar for this user."
        )
        self.add_button.setEnabled(bool(self.boxes))

    def _refused(self, exc: BaseException) -> None:
        self.find_button.setEnabled(True)
        self.message.setText(str(exc))

    def save(self) -> None:
        picked = [f for box, f in self.boxes if box.isChecked()]
        url, user, password = self.url.text().strip(), self.user.text().strip(), self.password.text()
        principal = self.principal
        if principal is None:
            return
        try:
            chosen = accounts.choose(
                principal,
                calendars=[f.href for f in picked if not f.address_book],
                addressbooks=[f.href for f in picked if f.address_book],
            )
        except Exception as exc:  # noqa: BLE001 - what the choice refuses is said in the dialog
            self.message.setText(str(exc))
            return
        if not accounts.keep_password(url, user, password):
            self.message.setText(
                "This desktop has no secure keyring, so Neurons cannot keep the password: "
                "sync from the command line with NEURONS_SYNC_PASSWORD instead."
            )
            return

        def saved(_account) -> None:
            self.added.emit()
            self.accept()

        (
            self.ctx.write(lambda m: accounts.add(m, url, user, principal, chosen))
            .on_success(saved)
            .on_failure(self._refused)
            .run("add account")
        )
