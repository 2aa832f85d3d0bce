"""Sync in the background: the syncer, and the status bar's sync line.

The syncer runs core/sync on the worker's background lane (never on the GUI thread, never
blocking what the person does): when something syncable changes here (a few seconds after the
last change), every 15 minutes while the server answers, and sooner again after it did not
(1, 2, 4 … minutes, up to 15). A `neurons sync` run while the app is open goes through its socket
and waits for the syncer's turn (one sync of a memory at a time, core/sync/engine.py).
Preferences ▸ Accounts is desktop/dialogs/accounts.py.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from PySide6.QtCore import QObject, QTimer, Signal

from core.model import Kind
from core.vocabulary import Action, Origin
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
