"""Reminders as notifications, like a good citizen of the desktop: normal urgency with the
resident hint, staying until answered (as a calendar's reminders do), the reminder's title as the
title, Done, Snooze, Later today, Tomorrow morning and Pick a time… as actions; a notification is
closed when its reminder is done, snoozed, moved or deleted (here or by any other program) and
when the app quits. One the notification server closes before the person answers it (it let it
expire, another program closed it) moves to Missed, and the next start says it again."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import datetime, time, timedelta

from PySide6.QtCore import QObject, Signal

from core import remind
from core.model import Neuron, State
from desktop.look import theme
from desktop.reminders.notifiers import Notice, Notifier
from desktop.reminders.pick import PickTime
from desktop.runtime.context import Context

log = logging.getLogger(__name__)

# Notices of more than this many reminders at once become one "N reminders" notice.
GROUP_OVER = 3
# Keys of the app's own notices (not reminders): the engine restarted, the last run crashed.
APP_NOTICES = frozenset({"engine", "crash"})
LISTED = 6
BODY_CHARS = 200
# Why a reminder is listed under Missed (the row's second line).
WHILE_CLOSED = "came due while Neurons was closed"
CLOSED_UNSEEN = "its notification closed before you answered it"
WITH_OTHERS = f"came due with others (over {GROUP_OVER} are one notice)"


def listing(alarms: list[remind.Alarm]) -> str:
    lines = [f"• {a.title}" for a in alarms[:LISTED]]
    if len(alarms) > LISTED:
        lines.append(f"and {len(alarms) - LISTED} more")
    return "\n".join(lines)


def still_showing(neuron: Neuron | None, due_at: str | None, now) -> bool:
    """Whether a reminder's notification still says something true: it is active, not snoozed
    past now, and still due when it said."""
    if neuron is None or neuron.state is not State.ACTIVE:
        return False
    snoozed = (
        remind.parse_time(neuron.attrs.get("snoozed_until")) if neuron.attrs.get("snoozed_until") else None
    )
    if snoozed is not None and snoozed > now:
        return False
    return neuron.attrs.get("due_at") == due_at


# "Later today": this many hours on (past midnight: in one hour); "Tomorrow morning": this hour.
LATER_TODAY = timedelta(hours=3)
MORNING_HOUR = 9


def later_today(now: datetime) -> datetime:
    local = now.astimezone(remind.local_zone())
    later = (local + LATER_TODAY).replace(minute=0, second=0, microsecond=0)
    return later if later.date() == local.date() else local + timedelta(hours=1)


def tomorrow_morning(now: datetime) -> datetime:
    local = now.astimezone(remind.local_zone())
    return datetime.combine(local.date() + timedelta(days=1), time(MORNING_HOUR), tzinfo=local.tzinfo)


class ReminderNotices(QObject):
    """What the scheduler fires, shown through `notifier`; answers come back as actions."""

    open_item = Signal(str)  # show this reminder in the window
    open_missed = Signal()  # show the missed (or many due) reminders
    missed_ids = Signal(dict)  # what is listed under Missed: reminder id -> why

    def __init__(
        self, ctx: Context, notifier: Notifier, snooze: Callable[[], timedelta], parent: QObject | None = None
    ):
        super().__init__(parent)
        self.ctx = ctx
        self.snooze = snooze
        self.shown: dict[str, str | None] = {}  # reminder id -> the due_at it was shown for
        self.titles: dict[str, str] = {}  # reminder id -> its title, as its notification said
        self.picking: dict[str, PickTime] = {}  # "Pick a time…" windows open, by reminder id
        self.listed: dict[str, str] = {}  # under Missed: reminder id -> why
        self.grouped: dict[str, list[str]] = {}  # "due", "missed" -> the reminders they name
        self.notifier = notifier
        notifier.action.connect(self.answer)
        notifier.unseen.connect(self.closed_unseen)

    def use(self, notifier: Notifier) -> None:
        """Show through another notifier from now on."""
        self.notifier.action.disconnect(self.answer)
        self.notifier.unseen.disconnect(self.closed_unseen)
        self.notifier = notifier
        notifier.action.connect(self.answer)
        notifier.unseen.connect(self.closed_unseen)

    def list_missed(self, why: dict[str, str]) -> None:
        """List these under Missed (beside those already there)."""
        self.listed.update(why)
        self.missed_ids.emit(dict(self.listed))

    def _snooze_label(self) -> str:
        minutes = int(self.snooze().total_seconds() // 60)
        return f"Snooze {minutes} min" if minutes < 60 else f"Snooze {minutes // 60} h"

    def fired(self, alarms: list[remind.Alarm]) -> None:
        now = self.ctx.now()
        if len(alarms) > GROUP_OVER:
            self.notifier.show(
                Notice("due", f"{len(alarms)} reminders are due", listing(alarms), resident=True)
            )
            self.grouped["due"] = [str(a.id) for a in alarms]
            self.list_missed({str(a.id): WITH_OTHERS for a in alarms})
            return
        for alarm in alarms:
            body = f"due {theme.when_text(alarm.due_at, now)}"
            rest = alarm.neuron.body.strip()
            if rest.startswith(alarm.title):
                rest = rest[len(alarm.title) :].strip()
            if rest and rest != alarm.title:
                body += "\n" + rest[:BODY_CHARS]
            key = str(alarm.id)
            self.shown[key] = alarm.neuron.attrs.get("due_at")
            self.titles[key] = alarm.title
            self.notifier.show(
                Notice(
                    key,
                    alarm.title,
                    body,
                    [
                        ("done", "Done"),
                        ("snooze", self._snooze_label()),
                        ("later", "Later today"),
                        ("tomorrow", "Tomorrow morning"),
                        ("pick", "Pick a time…"),
                    ],
                    resident=True,
                )
            )

    def missed(self, alarms: list[remind.Alarm], unseen: frozenset[str] = frozenset()) -> str:
        """The notice for reminders that came due while the app was closed, or whose notification
        closed unseen (`unseen`, their ids); returns its title."""
        self.grouped["missed"] = [str(a.id) for a in alarms]
        self.list_missed({str(a.id): CLOSED_UNSEEN if str(a.id) in unseen else WHILE_CLOSED for a in alarms})
        n = len(alarms)
        title = f"{n} missed reminder{'s' if n != 1 else ''}"
        self.notifier.show(Notice("missed", title, listing(alarms), resident=True))
        return title

    def answer(self, key: str, action: str) -> None:
        """A click on a notification (or on the banner): open it, Done or Snooze."""
        if key in ("missed", "due"):  # resident: it stays after a click unless taken off
            self.withdraw(key)
            self.open_missed.emit()
            return
        if key in APP_NOTICES:  # the app's own notices in the banner answer elsewhere
            return
        if action == "open":
            self.open_item.emit(key)
            return
        now = self.ctx.now()
        if action == "done":
            fn, say = (lambda m: m.complete(key, now)), (lambda n: f"Done: {n.title}")
        elif action == "snooze":
            delta = self.snooze()
            fn = lambda m: m.snooze(key, now, delta)
            say = lambda n: f"Snoozed for {int(delta.total_seconds() // 60)} min: {n.title}"
        elif action in ("later", "tomorrow"):
            until = later_today(now) if action == "later" else tomorrow_morning(now)
            fn = lambda m: m.snooze(key, now, until=until)
            say = lambda n: f"Snoozed to {theme.when_text(until, now)}: {n.title}"
        elif action == "pick":  # a small window asks until when
            self.pick(key)
            return
        else:
            log.warning("unknown notification action %r", action)
            return
        self.withdraw(key)
        self.ctx.change(key, fn, say)

    def pick(self, key: str) -> PickTime:
        """ "Pick a time…": ask until when, then snooze to it (the notification stays until then)."""
        dialog = self.picking.get(key)
        if dialog is None:
            title = self.titles.get(key, "this reminder")
            dialog = PickTime(key, title, self.ctx.now)
            dialog.picked.connect(self._picked)
            dialog.finished.connect(lambda _result: self.picking.pop(key, None))
            self.picking[key] = dialog
        dialog.show()
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def _picked(self, key: str, until: datetime) -> None:
        now = self.ctx.now()
        self.withdraw(key)
        self.ctx.change(
            key,
            lambda m: m.snooze(key, now, until=until),
            lambda n: f"Snoozed to {theme.when_text(until, now)}: {n.title}",
        )

    def withdraw(self, key: str) -> None:
        self.shown.pop(key, None)
        self.grouped.pop(key, None)  # its closing, coming back, is ours: not unseen
        self.notifier.withdraw(key)

    def closed_unseen(self, key: str) -> None:
        """The server closed a notification the person never answered: its reminder moves to
        Missed, and its showing is marked unseen (the next start says it again). A notice of
        several ("N reminders are due", "N missed") closed so marks each of them."""
        if key in self.grouped:
            ids = self.grouped.pop(key)
        elif key in self.shown:
            self.shown.pop(key)
            ids = [key]
            self.list_missed({key: CLOSED_UNSEEN})
            self.ctx.report(f"Listed under Missed: {self.titles.get(key, 'a reminder')} ({CLOSED_UNSEEN})")
        else:  # the app's own notices, or one answered meanwhile
            return

        def mark(m) -> int:
            return sum(m.mark_unseen(i) is not None for i in ids)

        self.ctx.write(mark).run("missed")

    def changed(self, ids: list[uuid.UUID | str]) -> None:
        """Items changed (here or elsewhere): close the notifications that are no longer true."""
        keys = [str(i) for i in ids if str(i) in self.shown]
        if not keys:
            return
        now = self.ctx.now()

        def read(m) -> dict[str, Neuron]:
            found = m.get_many([uuid.UUID(k) for k in keys])
            return {str(i): n for i, n in found.items()}

        def check(found: dict[str, Neuron]) -> None:
            for key in keys:
                if key in self.shown and not still_showing(found.get(key), self.shown[key], now):
                    self.withdraw(key)

        self.ctx.read(read).on_success(check).run("notices")

    def close(self) -> None:
        """The app quits: take every notification it showed off the screen."""
        for dialog in list(self.picking.values()):
            dialog.close()
        for key in list(self.shown) + ["due", "missed"]:
            self.withdraw(key)
        self.notifier.close()
