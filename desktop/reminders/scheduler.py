"""Fires reminders on time: APScheduler holds one job per coming alarm, driven by our own QTimer.

APScheduler 3.11's QtScheduler keeps the None that PySide6's static QTimer.singleShot returns and
so can never cancel a timer; a thread-based scheduler would fire off the GUI thread. So
`QtTimerScheduler` (timer_jobs.py) is APScheduler's BaseScheduler with ONE persistent single-shot
QTimer and the synchronous executor, which runs jobs on the GUI thread. The jobs are rebuilt from the store
(core.remind computes when each reminder fires, recurrences included) at start and after every
change; a job's run reads the due reminders again, marks them notified in the store, and emits.

The timer runs on the monotonic clock, which stands still while the machine sleeps, so it wakes
at least every MAX_WAIT_MS (timer_jobs.py) and `watch()` compares the wall clock with the
monotonic one: a jump (the machine slept, or its clock was set) or a new time zone plans again
from the store. What came due meanwhile then fires once (the store's notified_at keeps it from
firing twice, even if the clock is set back).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal, Slot

from core import remind
from core.remind import Alarm, Clock
from desktop.runtime.worker import BACKGROUND, Worker

if TYPE_CHECKING:
    from core.memory import Memory
    from desktop.reminders.timer_jobs import QtTimerScheduler

log = logging.getLogger(__name__)
REPLAN_DELAY_MS = 150
# A difference between the wall clock and the monotonic one larger than this is a jump.
JUMP_S = 10.0


def zone_now() -> tuple:
    """What identifies the local time zone now (read again: it may have changed)."""
    if hasattr(time, "tzset"):
        time.tzset()
    return time.tzname, time.timezone, time.altzone


class ReminderScheduler(QObject):
    fired = Signal(list)  # [Alarm]: due now, already marked notified in the store
    # [Alarm]: came due while the app was closed, or closed unseen before (emitted once, at
    # start); and the ids of those that closed unseen
    missed = Signal(list, frozenset)
    planned = Signal(object)  # the next fire time (datetime) or None

    def __init__(
        self,
        worker: Worker,
        memory_fn: Callable[[], Memory | None],
        clock: Clock | None = None,
        parent: QObject | None = None,
    ):
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
        self._jobs: QtTimerScheduler | None = None  # made when first armed: APScheduler loads then
        self._watched = (self.clock.now(), time.monotonic(), zone_now())
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
        if memory is None:  # not open yet, or being switched: nothing to plan
            return

        def catch_up() -> tuple[list[Alarm], list[Alarm], frozenset[str]]:
            reminders = memory.reminders()
            unseen = frozenset(str(n.id) for n in reminders if remind.unseen(n) is not None)
            shown: list[Alarm] = []
            for alarm in remind.missed(reminders, started, memory.machine):
                done = memory.mark_notified(alarm.id, started)
                if done is not None:
                    shown.append(done)
            return shown, remind.upcoming(memory.reminders(), started, memory.machine), unseen

        def caught_up(result: tuple[list[Alarm], list[Alarm], frozenset[str]]) -> None:
            shown, upcoming, unseen = result
            self._set_plan(upcoming)
            if shown:
                self.missed.emit(shown, unseen)

        self.worker.run(catch_up, caught_up, label="reminders", lane=BACKGROUND)

    @property
    def jobs(self) -> QtTimerScheduler:
        """The timer's jobs, made on first use: APScheduler (and the multiprocessing it imports,
        ~0.05 s of CPU) loads once reminders are planned, not before the window."""
        if self._jobs is None:
            from desktop.reminders.timer_jobs import QtTimerScheduler  # noqa: PLC0415 - as said

            zone = datetime.now().astimezone().tzinfo
            self._jobs = QtTimerScheduler(self, on_wake=self.watch, timezone=zone)
        return self._jobs

    def _running(self) -> bool:
        return self._jobs is not None and self._jobs.running

    def stop(self) -> None:
        if self._running():
            self.jobs.shutdown(wait=False)
        self._replan_timer.stop()
        self._generation += 1

    def set_paused(self, paused: bool) -> None:
        self.paused = paused
        if paused:
            if self._running():
                self.jobs.pause()
        else:
            if self._running():
                self.jobs.resume()
            self.check()

    # -- the clock ---------------------------------------------------------------------------------

    def watch(self) -> None:
        """On every wake: if the wall clock jumped against the monotonic one, or the time zone
        changed, plan again from the store."""
        now, mono, zone = self.clock.now(), time.monotonic(), zone_now()
        last_now, last_mono, last_zone = self._watched
        self._watched = (now, mono, zone)
        jump = (now - last_now).total_seconds() - (mono - last_mono)
        if zone != last_zone:
            log.info("the time zone changed (%s): planning the reminders again", zone[0])
            remind.reload_local_zone()
        elif abs(jump) >= JUMP_S:
            log.info(
                "the clock moved %+.0f s past the time it kept (asleep, or set): planning "
                "the reminders again",
                jump,
            )
        else:
            return
        if self.started_at is not None:
            self.replan()

    # -- planning --------------------------------------------------------------------------------

    @Slot()
    def changed(self) -> None:
        """The store changed: plan again shortly (several changes make one plan)."""
        if self.started_at is not None:
            self._replan_timer.start()

    @Slot()
    def replan(self) -> None:
        memory = self.memory_fn()
        if memory is None:  # not open yet, or being switched: nothing to plan
            return
        now = self.clock.now()
        self._generation += 1
        generation = self._generation

        def plan() -> list[Alarm]:
            return _alarms(memory, now)

        def planned(alarms: list[Alarm]) -> None:
            if generation == self._generation:
                self._set_plan(alarms)

        self.worker.run(plan, planned, label="reminders", lane=BACKGROUND, droppable=True)

    def _set_plan(self, alarms: list[Alarm]) -> None:
        self._plan = sorted((a.fire_at, str(a.id)) for a in alarms)
        self._arm()

    def _arm(self) -> None:
        """One APScheduler job per coming fire time (several reminders at one time share it)."""
        from apscheduler.triggers.date import DateTrigger  # noqa: PLC0415 - loaded with the jobs

        if not self.jobs.running:
            self.jobs.start(paused=self.paused)
        self.jobs.remove_all_jobs()
        self.next_at = self._plan[0][0] if self._plan else None
        self.planned.emit(self.next_at)
        now = self.clock.now()
        for at in sorted({at for at, _ in self._plan}):
            # the jobs run on the real clock; a test's clock may be ahead of it: fire as soon as due
            run_at = datetime.now(at.tzinfo) + (at - now) if at > now else datetime.now(at.tzinfo)
            self.jobs.add_job(
                self._job_due,
                DateTrigger(run_date=run_at),
                id=at.isoformat(),
                misfire_grace_time=None,
                coalesce=True,
                replace_existing=True,
            )

    # -- firing ----------------------------------------------------------------------------------

    def _job_due(self) -> None:
        # Check on the next turn of the event loop, after APScheduler has finished its own
        # bookkeeping of this job: check() rebuilds the jobs, which must not race with it.
        QTimer.singleShot(0, self.check)

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
        if memory is None:  # not open yet, or being switched: nothing to plan
            return

        def fire() -> tuple[list[Alarm], list[Alarm]]:
            shown = [a for a in (memory.mark_notified(nid, now) for nid in due_ids) if a is not None]
            return shown, _alarms(memory, now)

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

        self.worker.run(fire, fired, failed, label="reminders", lane=BACKGROUND)


def _alarms(memory, now: datetime) -> list[Alarm]:
    """What this machine will show, soonest first, then what is due now (a reminder another
    machine on a shared memory showed still shows here)."""
    reminders = memory.reminders()
    return remind.upcoming(reminders, now, memory.machine) + remind.due(reminders, now, memory.machine)
