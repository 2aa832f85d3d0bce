"""Preferences ▸ Accounts: the sync accounts (core/sync/accounts.py keeps them), adding one
(finding its calendars and address book) and removing one. The background syncer is
desktop/runtime/syncer.py."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
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

from core.sync import FOLLOW, REFUSE, accounts
from core.sync.accounts import is_calendar
from desktop.look.widgets import fit_placeholder
from desktop.runtime.syncer import Syncer, ago


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
        self.follow = QCheckBox("Follow a redirect to another server, without the password")
        self.follow.setAccessibleName("Follow redirects to another server")
        self.follow.setToolTip(
            "Off: a server that sends Neurons elsewhere stops the sync, saying where. On: Neurons "
            "goes there without your password, which it sends only to the server above."
        )
        lay.addWidget(self.follow)
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
        redirects = self.redirects
        self.message.setText("Looking…")
        self.find_button.setEnabled(False)
        self.ctx.worker.run(
            lambda: accounts.find(url, user, password, redirects),
            self._found,
            self._refused,
            label="find calendars",
        )

    @property
    def redirects(self) -> str:
        return FOLLOW if self.follow.isChecked() else REFUSE

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
        principal, redirects = self.principal, self.redirects
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
            self.ctx.write(lambda m: accounts.add(m, url, user, principal, chosen, redirects))
            .on_success(saved)
            .on_failure(self._refused)
            .run("add account")
        )
