"""Fires reminders on time: one persistent QTimer, armed for the next alarm computed from the store.

APScheduler's QtScheduler cannot cancel its timers under PySide6, and a thread-based scheduler
would fire off the GUI thread; so the plan is simple: read every active reminder (on the worker),
compute when each fires (core.remind), keep the sorted times, and arm one single-shot QTimer for
the earliest (capped at MAX_WAIT, so a suspended machine or a changed clock is noticed within a
minute). When it fires, the due reminders are read again, marked notified in the store, and
emitted. Any change to the store re-plans.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from core import remind
from core.remind import Alarm, Clock
from desktop.worker import Worker

log = logging.getLogger(__name__)

MAX_WAIT_MS = 60_000
REPLAN_DELAY_MS = 150


class ReminderScheduler(QObject):
    fired = Signal(list)      # [Alarm]: due now, already marked notified in the store
    missed = Signal(list)     # [Alarm]: came due while the app was closed (emitted once, at start)
    planned = Signal(object)  # the next fire time (datetime) or None

    def __init__(self, worker: Worker, memory_fn: Callable[[], object], clock: Clock | None = None,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.worker = worker
        self.memory_fn = memory_fn
        self.clock = clock or Clock()
        self.paused = False
        self.started_at: datetime | None = None
        self.next_at: datetime | None = None
        self._plan: list[tuple[datetime, str]] = []
        self._generation = 0
        self._checking = False
        self._recheck = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.check)
        self._replan_timer = QTimer(self)
        self._replan_timer.setSingleShot(True)
        self._replan_timer.setInterval(REPLAN_DELAY_MS)
        self._replan_timer.timeout.connect(self.replan)

    # -- lifecycle -------------------------------------------------------------------------------

    def start(self) -> None:
        """Rebuild from the store; what came due before now and was never shown is `missed`."""
        self.started_at = self.clock.now()
        started = self.started_at
        memory = self.memory_fn()

        def catch_up() -> tuple[list[Alarm], list[Alarm]]:
            reminders = remind.active_reminders(memory)
            shown: list[Alarm] = []
            for alarm in remind.missed(reminders, started):
                done = remind.mark_notified(memory, alarm.id, started)
                if done is not None:
                    shown.append(done)
            return shown, remind.upcoming(remind.active_reminders(memory), started)

        def caught_up(result: tuple[list[Alarm], list[Alarm]]) -> None:
            shown, upcoming = result
            self._set_plan(upcoming)
            if shown:
                self.missed.emit(shown)

        self.worker.run(catch_up, caught_up, label="reminders")

    def stop(self) -> None:
        self._timer.stop()
        self._replan_timer.stop()
        self._generation += 1

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        if paused:
            self._timer.stop()
        else:
            self.check()

    # -- planning --------------------------------------------------------------------------------

    @Slot()
    def changed(self) -> None:
        """The store changed: plan again shortly (several changes make one plan)."""
        if self.started_at is not None:
            self._replan_timer.start()

    @Slot()
    def replan(self) -> None:
        memory = self.memory_fn()
        now = self.clock.now()
        self._generation += 1
        generation = self._generation

        def plan() -> list[Alarm]:
            reminders = remind.active_reminders(memory)
            return remind.upcoming(reminders, now) + remind.due(reminders, now)

        def planned(alarms: list[Alarm]) -> None:
            if generation == self._generation:
                self._set_plan(alarms)

        self.worker.run(plan, planned, label="reminders")

    def _set_plan(self, alarms: list[Alarm]) -> None:
        self._plan = sorted((a.fire_at, str(a.id)) for a in alarms)
        self._arm()

    def _arm(self) -> None:
        self._timer.stop()
        self.next_at = self._plan[0][0] if self._plan else None
        self.planned.emit(self.next_at)
        if self.paused or self.next_at is None:
            return
        wait_ms = (self.next_at - self.clock.now()).total_seconds() * 1000
        self._timer.start(int(min(max(wait_ms, 0), MAX_WAIT_MS)))

    # -- firing ----------------------------------------------------------------------------------

    @Slot()
    def check(self) -> None:
        """Fire what is due now (the timer calls this; tests call it after moving the clock)."""
        if self.paused or self.started_at is None:
            return
        if self._checking:
            self._recheck = True
            return
        now = self.clock.now()
        due_ids = [nid for at, nid in self._plan if at <= now]
        if not due_ids:
            self._arm()
            return
        self._checking = True
        memory = self.memory_fn()

        def fire() -> tuple[list[Alarm], list[Alarm]]:
            shown = [a for a in (remind.mark_notified(memory, nid, now) for nid in due_ids)
                     if a is not None]
            reminders = remind.active_reminders(memory)
            return shown, remind.upcoming(reminders, now) + remind.due(reminders, now)

        def fired(result: tuple[list[Alarm], list[Alarm]]) -> None:
            self._checking = False
            shown, plan = result
            self._generation += 1
            self._set_plan(plan)
            if shown:
                self.fired.emit(shown)
            if self._recheck:
                self._recheck = False
                self.check()

        def failed(exc: BaseException) -> None:
            self._checking = False
            log.error("reminders could not be checked: %s", exc)
            self._arm()

        self.worker.run(fire, fired, failed, label="reminders")
