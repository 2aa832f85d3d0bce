"""Profile… in the window's menu: who owns this memory and where it is kept, and changing either.

It does what `neurons profile` / `config` / `move-to` do (core/commands/profile.py, the same
functions), on the app's own open memory, and says what each step will do before it is taken.
After a change the app opens its memory again from the data dir's settings (`App.reopen`).
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable

from psycopg.conninfo import make_conninfo
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.commands import profile as profiles
from core.model import InvalidInput, NeuronsError
from desktop.look.widgets import fit_on_screen, fit_placeholder, scrolling

log = logging.getLogger(__name__)

REFRESH_MS = 200  # how often a dialog waiting for the memory to open again looks


def install(tools: QMenu, before: QAction, open_dialog: Callable[[], None]) -> QAction:
    """Profile and storage… in the Tools menu, before `before` (the hook app.py calls once)."""
    action = QAction("Profile and storage…", tools)
    tools.insertAction(before, action)
    tools.insertSeparator(before)
    action.triggered.connect(open_dialog)
    return action


class ProfileDialog(QDialog):
    """What this memory is (an anonymous computer's, or a profile's) and where it lives, with the
    one or two changes that make sense from there; each says first what it will do."""

    def __init__(self, app, parent=None):
        super().__init__(parent)
        self.app = app
        self.setWindowTitle("Profile and storage")
        self.setMinimumWidth(560)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setObjectName("profileStatus")
        layout = QVBoxLayout(self)
        page = QWidget()
        self.content = QVBoxLayout(page)  # scrolls on a short screen (a laptop at 200%)
        self.content.setContentsMargins(0, 0, 0, 0)
        self.who = QGroupBox("Whose memory this is")
        self.where = QGroupBox("Where it is kept")
        self.content.addWidget(self.who)
        self.content.addWidget(self.where)
        self.content.addWidget(self.status)
        self.content.addStretch(1)
        self.scrolled = scrolling(page)
        layout.addWidget(self.scrolled, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.buttons: list[QPushButton] = []
        self._ask(_facts, self._show)

    def _refresh(self) -> None:
        """After a change, once the app has opened its memory again: what is now, in place of what
        was (a second click on the old choices failed)."""
        for button in self.buttons:
            button.setEnabled(False)
        if not self.app.ctx.read(_facts).on_success(self._shown_again).run("profile"):
            QTimer.singleShot(REFRESH_MS, self._refresh)  # not open again yet

    def _shown_again(self, facts: dict) -> None:
        for old, title in ((self.who, "Whose memory this is"), (self.where, "Where it is kept")):
            new = QGroupBox(title)
            self.content.replaceWidget(old, new)
            old.deleteLater()
            if old is self.who:
                self.who = new
            else:
                self.where = new
        self.buttons = []
        self._show(facts)

    # -- what is ----------------------------------------------------------------------------------

    def _show(self, facts: dict) -> None:
        self.facts = facts
        who = QVBoxLayout(self.who)
        n = facts["neurons"]
        if facts["profile"] is None:
            who.addWidget(
                _text(
                    f"This memory belongs to this computer (anonymous): {n} neurons. A profile makes "
                    "it yours on any computer: <b>Neurons moves all of them into the profile in one "
                    "step</b>, nothing is lost, and from then on this computer opens the profile."
                )
            )
            self.name = QLineEdit()
            self.name.setPlaceholderText("your name, e.g. Maria")
            self.create_button = self._button("Create profile", self._create)
            who.addLayout(_row(fit_placeholder(self.name), self.create_button))
            if facts["kind"] == "server":
                who.addWidget(
                    _text(
                        "Or join the profile another computer made on this server (its id is in its "
                        "Profile window, or `neurons profile show`):"
                    )
                )
                self.join_id = QLineEdit()
                self.join_id.setPlaceholderText("profile id")
                self.bring = QCheckBox(
                    f"Bring this computer's {n} neurons into it "
                    "(else they stay apart, hidden while the profile is open)"
                )
                self.bring.setChecked(True)
                self.join_button = self._button("Join profile", self._join)
                who.addLayout(_row(self.join_id, self.join_button))
                who.addWidget(self.bring)
        else:
            profile = facts["profile"]
            who.addWidget(_text(f"Profile <b>{html.escape(profile['name'])}</b>: {n} neurons."))
            ident = QLineEdit(profile["id"])
            ident.setReadOnly(True)
            copy = self._button("Copy id", lambda: QApplication.clipboard().setText(profile["id"]))
            who.addLayout(_row(ident, copy))
            who.addWidget(
                _text(
                    "A second computer that uses the same server joins it with this "
                    "id (Profile and storage… there, or `neurons profile join ID`)."
                )
            )
        # a column (a form squeezes the wrapped sentences that span it), the fields in a form inside
        where = QVBoxLayout(self.where)
        if facts["kind"] == "embedded":
            where.addWidget(
                _text(
                    f"On this computer, in {html.escape(facts['data_dir'])}. To use it "
                    "from several "
                    "computers, keep it on a Postgres server (15+, with pgvector)."
                )
            )
            self.dsn = QLineEdit()
            self.dsn.setPlaceholderText("host=… dbname=… user=…")
            self.password = QLineEdit()
            self.password.setEchoMode(QLineEdit.EchoMode.Password)
            self.password.setPlaceholderText("kept in the system keyring, never in a file")
            fields = QFormLayout()
            fields.addRow("Server", fit_placeholder(self.dsn))
            fields.addRow("Password", fit_placeholder(self.password))
            where.addLayout(fields)
            where.addWidget(
                _text(
                    f"<b>Move my memory there</b> copies all {n} neurons and their "
                    "links in one step, checks the copy, then opens the server from "
                    "now on; this computer's copy stays as it was, as a backup."
                )
            )
            self.move_button = self._button("Move my memory to the server", self._move)
            where.addWidget(self.move_button)
        else:
            where.addWidget(_text(f"On the server {html.escape(facts['dsn'])}."))
            where.addWidget(
                _text(
                    "Using this computer's own database again leaves the server's "
                    "memory where it is and opens the one kept in "
                    f"{html.escape(facts['data_dir'])}."
                )
            )
            self.embedded_button = self._button("Use this computer's database", self._embedded)
            where.addWidget(self.embedded_button)
        self.adjustSize()
        QTimer.singleShot(0, self._fit)  # once the new sentences are laid out

    def _fit(self) -> None:
        """As tall as its wrapped sentences need at its width, at any scale (a window's layout
        does not ask its height for its width by itself: they were cut off), where the screen
        has the room; on a shorter screen it scrolls."""
        if not self.content.hasHeightForWidth():
            return
        needed = self.content.totalHeightForWidth(self.scrolled.viewport().width() or self.width())
        screen = self.screen()
        if screen is not None:
            frame = self.frameGeometry().height() - self.height()
            rest = self.height() - self.scrolled.height()  # the buttons, the margins
            needed = min(needed, screen.availableGeometry().height() - frame - rest)
        if self.scrolled.minimumHeight() != needed:
            self.scrolled.setMinimumHeight(needed)
            self.adjustSize()
            if self.isVisible():  # grown after it was shown: still on the screen
                fit_on_screen(self)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    # -- changes ----------------------------------------------------------------------------------

    def _create(self) -> None:
        name = self.name.text().strip()
        if not name:
            self._say("Type a name for the profile first.")
            return
        self._change(
            lambda m: profiles.create_profile(m, name),
            lambda d: f"Profile {d['name']} made: it holds all {d['neurons']} neurons.",
        )

    def _join(self) -> None:
        ident, bring = self.join_id.text().strip(), self.bring.isChecked()
        self._change(
            lambda m: profiles.join_profile(m, ident, bring),
            lambda d: (
                f"This computer now opens profile {d['name']}: {d['neurons']} neurons"
                + (f" ({d['kept_apart']} of its own kept apart)." if d["kept_apart"] else ".")
            ),
        )

    def _move(self) -> None:
        dsn = self.dsn.text().strip()
        if not dsn:
            self._say("Type the server's connection string first.")
            return
        password = self.password.text()
        self._change(
            lambda m: profiles.move(m, _with_password(dsn, password) if password else dsn),
            lambda d: (
                f"Moved {d['neurons']} neurons and {d['edges']} links to the server "
                f"and checked them. The previous copy stays in {d['previous']}."
            ),
        )

    def _embedded(self) -> None:
        data_dir = self.facts["data_dir"]
        self._change(
            lambda _m: profiles.use_embedded(data_dir),
            lambda _d: "This computer's own database is open again.",
        )

    def _change(self, fn, said) -> None:
        """Run `fn(memory)` on the worker; then the app opens its memory again."""

        def done(result) -> None:
            self._say(said(result))
            self.app.reopen()
            self._refresh()

        self._ask(fn, done)

    # -- plumbing ---------------------------------------------------------------------------------

    def _ask(self, fn, on_done) -> None:
        for button in self.buttons:
            button.setEnabled(False)

        def finished(result) -> None:
            for button in self.buttons:
                button.setEnabled(True)
            on_done(result)

        def failed(exc: BaseException) -> None:
            for button in self.buttons:
                button.setEnabled(True)
            self._say(str(exc) if isinstance(exc, NeuronsError) else f"{type(exc).__name__}: {exc}")

        if not self.app.ctx.write(fn).on_success(finished).on_failure(failed).run("profile"):
            self._say("Your memory is not open yet.")

    def _button(self, text: str, slot) -> QPushButton:
        button = QPushButton(text)
        button.clicked.connect(slot)
        self.buttons.append(button)
        return button

    def _say(self, text: str) -> None:
        self.status.setText(text)


def _facts(m) -> dict:
    return {
        "profile": m.profile(),
        "neurons": m.count(),
        "kind": m.store.kind,
        "dsn": m.store.settings.dsn,
        "data_dir": str(m.store.settings.data_dir),
    }


def _with_password(dsn: str, password: str) -> str:
    try:
        return make_conninfo(dsn, password=password)
    except Exception as exc:  # noqa: BLE001 - psycopg's ProgrammingError: not a connection string
        raise InvalidInput(f"not a Postgres connection string: {exc}") from None


def _text(html: str) -> QLabel:
    label = QLabel(html)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    return label


def _row(*widgets) -> QHBoxLayout:
    row = QHBoxLayout()
    for w in widgets:
        row.addWidget(w)
    return row
