"""The app: the window, the tray, quick capture, reminders that fire, one instance.

`desktop/launch.py` (`neurons-desktop`) starts it with `run` once it knows a window will show;
until then nothing loads Qt or the database driver. Here they are imported like in any module.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6 import QtCore, QtWidgets
from PySide6 import __version__ as qt_binding

from core import commands, config, instance, remind, resident
from core.changes import started_by
from core.model import Kind, Neuron, NeuronsError
from core.opening import APP_WAIT_S, Opening
from core.settings import Settings
from core.vocabulary import Action, Origin
from desktop.capture.quick import QuickCapture
from desktop.dialogs import profile
from desktop.items.sections import Section
from desktop.look import theme
from desktop.look.widgets import ScreenFit
from desktop.reminders.notices import ReminderNotices
from desktop.reminders.notifiers import DBusNotifier, Notice, Notifications, TrayNotifier
from desktop.reminders.scheduler import ReminderScheduler
from desktop.runtime.bridge import Bridge
from desktop.runtime.collector import GuiCollector
from desktop.runtime.context import Context
from desktop.runtime.crash import CrashWatch, Report, UnexpectedCloseError, binding_keeps_none
from desktop.runtime.prefs import Prefs
from desktop.runtime.problems import NOT_A_PROBLEM, Problems, ProblemsLog, is_persons, summary_of
from desktop.runtime.steps import Steps
from desktop.runtime.syncer import Syncer
from desktop.runtime.undo import UndoStack
from desktop.runtime.worker import BACKGROUND, Worker
from desktop.window.banner import BannerNotifier
from desktop.window.main_window import MainWindow
from desktop.window.statusbar import items
from desktop.window.tray import Tray

if TYPE_CHECKING:
    from core.memory import Memory

log = logging.getLogger("desktop")

# What the status bar says while the memory opens; withdrawn once it is open.
OPENING = "Opening your memory…"
# What the status bar says while the quick step of the search by meaning is made (a big memory).
NEAREST_LABEL = "Preparing quick search by meaning"
# The memory opens once the window is painted; if it never is (shown on another desktop, say),
# after this long anyway.
FIRST_PAINT_WAIT_MS = 3000


class _Painted(QtCore.QObject):
    """Calls `then` once, right after the watched window's first paint (it is on screen)."""

    def __init__(self, then: Callable[[], None]):
        super().__init__()
        self.then: Callable[[], None] | None = then

    def eventFilter(self, obj: QtCore.QObject, event: QtCore.QEvent) -> bool:
        if event.type() == QtCore.QEvent.Type.Paint and self.then is not None:
            then, self.then = self.then, None
            obj.removeEventFilter(self)
            QtCore.QTimer.singleShot(0, then)  # after this paint
        return False


class App:
    """Owns the Memory, the worker, the window, the tray, the scheduler and the notifiers.

    It starts in named steps (`self.steps`), each registering the cleanup of what it started;
    `close()` runs them in reverse. Given `settings` (and no `memory`), it opens that data dir's
    memory on its worker, and loads the model, while the window is built. Tests build one with
    an open `memory`, a fake `notifier` and a fake `clock`.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        memory=None,
        notifier=None,
        clock: remind.Clock | None = None,
        use_tray: bool = True,
        reminders: bool = True,
        dbus: bool = True,
        opening: Opening | None = None,
    ):

        self.settings = settings
        qapp = QtWidgets.QApplication.instance()
        assert isinstance(qapp, QtWidgets.QApplication), "the App lives in a QApplication"
        self.qapp = qapp
        self.clock = clock or remind.Clock()
        self.memory = None
        self.owns_memory = memory is None
        self.opening = False  # the memory is being opened on the worker
        # at a start, the opening job, queued once the window is on screen (_start_opening)
        self._after_first_paint: Callable[[], None] | None = None
        self._quit_when_open = False  # quit asked while captures waited for the memory
        # the store, its engine started by the launcher before Qt loaded (core/opening.py)
        self._early = opening
        self._cancel_early: Callable[[], None] = lambda: None
        self.ready_event = threading.Event()
        self.open_error: BaseException | None = None
        self.quitting = False
        self.missed: list[remind.Alarm] = []
        self.reminders_enabled = reminders
        self.tray: Tray | None = None
        self.steps = Steps()
        self.crashed: Report | None = None  # the last run's crash report, when it died (runtime/crash.py)
        self.steps.run("problems", self._start_problems)
        self.steps.run("crash report", self._start_crash_watch)
        self.steps.run("garbage collector", self._start_collector)
        self.steps.run("preferences and look", self._start_look)
        self.steps.run("worker", self._start_worker)
        if memory is None:  # the store, the model and the index take longer than the window
            self.steps.run("open", self._start_opening)
        self.steps.run("tray", lambda: self._start_tray(use_tray))
        self.steps.run("window", self._start_window)
        self.steps.run("quick capture", self._start_quick)
        self.steps.run("undo", self._start_undo)
        self.steps.run("notifications", lambda: self._start_notifications(notifier, dbus))
        self.steps.run("reminders", self._start_reminders)
        self.steps.run("sync", self._start_sync)
        self._say_crash()
        if memory is not None:
            self._opened(memory)
        elif self._after_first_paint is not None:
            # a window not shown (a start in the tray, a test's app) has no paint to wait for
            window = self.window
            QtCore.QTimer.singleShot(0, window, lambda: None if window.isVisible() else self._begin_opening())
            QtCore.QTimer.singleShot(FIRST_PAINT_WAIT_MS, window, self._begin_opening)

    # -- the steps -------------------------------------------------------------------------------

    def _start_problems(self) -> None:
        """Help ▸ Problems: errors handed to it, and every warning logged from now on (a failed
        automatic backup, a notifier that broke) with its details to copy."""
        self.problems = Problems()
        self.problems_log = ProblemsLog(self.problems)
        self.problems_log.install()
        self.steps.register_cleanup("problems", self.problems_log.remove)  # last: until the end

    def _start_crash_watch(self) -> None:
        """A fatal error leaves a report in the data dir; the last run's, if it died, is kept to
        say once (`_say_crash`). Only a real run (with its data dir) watches."""
        if self.settings is None:
            return

        watch = CrashWatch(self.settings.data_dir)
        self.crashed = watch.start()
        self.steps.register_cleanup("crash report", watch.stop)  # a clean quit (only Problems after)

    def _say_crash(self) -> None:

        if not binding_keeps_none():
            log.error(
                "PySide6 %s on Python %s frees None: Neurons will close unexpectedly; "
                "run bash packaging/setup.sh again (it installs a PySide6 that does not)",
                qt_binding,
                sys.version.split()[0],
            )
        if self.crashed is None:
            return
        self.problems.add(UnexpectedCloseError(self.crashed), "the last run", details=self.crashed.text)
        self.window.banner.action.connect(
            lambda key, _action: self.window.dialogs.problems() if key == "crash" else None
        )
        self.banner.show(
            Notice(
                "crash",
                "Neurons closed unexpectedly last time",
                "Nothing you saved was lost; the report is under Help ▸ Problems.",
                [("problems", "Show the report")],
            )
        )

    def _start_collector(self) -> None:

        self.collector = GuiCollector()
        self.steps.register_cleanup("garbage collector", self.collector.stop)

    def _start_look(self) -> None:

        self.prefs = Prefs()
        theme.apply(self.qapp, self.prefs.theme)
        theme.set_language(self.qapp, self.prefs.language)
        self.screen_fit = ScreenFit()  # every window and dialog kept on its screen, at any scale
        self.qapp.installEventFilter(self.screen_fit)
        self.steps.register_cleanup("screen fit", lambda: self.qapp.removeEventFilter(self.screen_fit))
        if not theme.has_emoji_font():
            log.warning(  # a hint about the machine, said at launch: not a problem of the session
                "no colour emoji font: emoji show as boxes (install fonts-noto-color-emoji)",
                extra=NOT_A_PROBLEM,
            )

    def _start_worker(self) -> None:

        self.bridge = Bridge()
        self.bridge.changed.connect(self._store_changed)
        self.worker = Worker()
        self.worker.failed.connect(lambda label, exc: self._failed(exc, label))
        self.ctx = Context(
            self.worker,
            self.clock,
            report=self._report,
            failed=self._failed,
            undoable=self._undoable,
            prefs=self.prefs,
        )
        self.steps.register_cleanup("worker", self.worker.close)

    def _start_tray(self, use_tray: bool) -> None:
        if not use_tray:
            return

        if not Tray.available():
            return
        self.tray = tray = Tray()
        tray.quick_capture.connect(lambda: self.quick_capture())
        tray.open_window.connect(lambda: self.show_window())
        tray.pause_toggled.connect(self.set_paused)
        tray.quit.connect(self.quit)
        tray.show()

        def close_tray() -> None:
            tray.hide()
            tray.menu.deleteLater()

        self.steps.register_cleanup("tray", close_tray)

    def _start_window(self) -> None:

        self.window = MainWindow(
            self.ctx,
            self.prefs,
            self.problems,
            settings=self.settings,
            about=self._about,
            keep_in_tray=lambda: self.tray is not None and self.tray.visible,
        )
        self.window.quick_capture.connect(lambda: self.quick_capture())
        self.window.closing.connect(self.quit)
        self.window.quit_requested.connect(self.quit)
        self.window.pause_toggled.connect(self.set_paused)
        self.window.reindex_requested.connect(self.reindex)
        self.window.summary_loaded.connect(self._summary)
        self.window.waiting_on = self.waiting_on
        self.worker.busy_changed.connect(self.window.set_busy)
        self.worker.progress.connect(self.window.set_progress)
        if self.opening:  # since the worker started
            self.window.set_busy(self.worker.busy)
            self.window.status.report(OPENING, until_withdrawn=True)
        self.steps.register_cleanup("window", self.window.deleteLater)
        self._painted = _Painted(self._begin_opening)
        self.window.installEventFilter(self._painted)

        # Profile and storage… in Tools (desktop/dialogs/profile.py)
        self.profile_action = profile.install(
            self.window.menus.tools_menu,
            self.window.menus.reindex_action,
            lambda: profile.ProfileDialog(self, self.window).open(),
        )

    def _start_quick(self) -> None:

        self.quick = QuickCapture(self.ctx)
        self.quick.saved.connect(self._captured)
        self.steps.register_cleanup("quick capture", self.quick.deleteLater)

    def _start_undo(self) -> None:

        self.undo = UndoStack(self.ctx)

        def offer() -> None:
            last = self.undo.last
            self.window.menus.undo_action.setEnabled(last is not None)
            self.window.menus.undo_action.setText(f"Undo “{last.text}”" if last else "Undo")

        self.undo.changed.connect(offer)
        self.window.undo_requested.connect(self.undo.undo)
        self.window.status.undo_clicked.connect(self.undo.undo)

    def _report(self, text: str, undo: bool = False) -> None:
        self.window.report(text, undo)

    def _undoable(self, text: str, before: Neuron, after: Neuron) -> None:
        """A change the person may undo: kept on the stack and offered in the status line."""
        self.undo.push(text, before, after)
        self.window.report(text, undo=True)

    def _start_notifications(self, notifier, dbus: bool) -> None:

        self.banner = BannerNotifier(self.window.banner, self.window.bring_up, self.window)
        notifier = notifier if notifier is not None else self._default_notifier(dbus)
        self.notices = ReminderNotices(self.ctx, notifier, lambda: self.prefs.snooze)
        self.notices.open_item.connect(self._open_item)
        self.notices.open_missed.connect(self._open_missed)
        self.notices.missed_ids.connect(self.window.set_missed)
        self.steps.register_cleanup("notifications", self.notices.close)

    @property
    def notifier(self):
        return self.notices.notifier

    def _default_notifier(self, dbus: bool):

        d = None
        if dbus and os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
            d = DBusNotifier(theme.icon_path("neurons-128.png"))
            d.probe()
        t = TrayNotifier(self.tray.icon) if self.tray is not None else None
        return Notifications(d, t, self.banner)

    def _start_reminders(self) -> None:

        self.scheduler = ReminderScheduler(self.worker, lambda: self.memory, self.clock)
        self.scheduler.fired.connect(self.notices.fired)
        self.scheduler.missed.connect(self.on_missed)
        self.scheduler.planned.connect(lambda at: self.window.set_next_reminder(at, self.scheduler.paused))
        self.steps.register_cleanup("reminders", self.scheduler.stop)

    def _start_sync(self) -> None:

        self.syncer = Syncer(self.worker, self.clock, lambda: self.memory, self.window)
        self.syncer.status.connect(self.window.status.set_sync)
        self.syncer.said.connect(self.window.report)
        self.window.dialogs.pages.append(self._accounts_page)
        self.steps.register_cleanup("sync", self.syncer.stop)

    def _accounts_page(self) -> tuple[str, QtWidgets.QWidget]:
        """Preferences ▸ Accounts, made when Preferences opens: the sync's modules (its WebDAV
        client, XML, HTTP) load then, not before the window."""
        from desktop.dialogs.accounts import AccountsPage  # noqa: PLC0415 - as said

        return "Accounts", AccountsPage(self.ctx, self.syncer)

    # -- opening ---------------------------------------------------------------------------------

    def open(self) -> None:
        """Open the store again on the worker (a reopen)."""
        self._start_opening(at_once=True)
        self.window.status.report(OPENING, until_withdrawn=True)

    def _start_opening(self, at_once: bool = False) -> None:
        """Open the store on the worker (retrying while a short-lived process holds it), the
        model loading beside it. At a start, once the window is on screen: the memory, the model
        and the index are ~1 s of CPU at 100k that held the window back (the GIL and two shared
        cores); the engine itself (Node) started before Qt loaded, in the launcher."""
        settings = self.settings
        self.opening = True
        early, self._early = self._early, None  # (a reopen opens the data dir itself)
        if early is not None:  # closed at quit unless the memory took it
            self.steps.register_cleanup("early opening", early.close)
            self._cancel_early = early.cancel

        def opening():
            # The memory's own modules (recall, embed, backup: ~0.1 s of CPU) load here, once
            # the window is on screen, while the engine finishes starting; the window imports
            # only what it shows.
            from core.memory import Memory  # noqa: PLC0415 - after the window's first paint
            from core.when.window import compile_questions  # noqa: PLC0415 - as above

            # a question's date patterns compile (~0.15 s of CPU, core/when/window.py) while the
            # engine finishes starting; the index's reading waits for them if not done by then.
            # Capture text's (~0.45 s) compile in the background, after the first answer.
            threading.Thread(target=compile_questions, name="neurons-grammar", daemon=True).start()
            # the model loads meanwhile, on a thread of its own (mostly onnxruntime's own work),
            # and the recall index's file is read here while the engine finishes starting
            if early is not None:
                memory = Memory.open(settings, store=early.result, load_model=True, read_ahead=True)
            else:
                memory = Memory.open(
                    settings,
                    wait_s=APP_WAIT_S,
                    give_up=lambda: self.quitting,
                    load_model=True,
                    read_ahead=True,
                )
            # the recall index from its file now, before the window takes the memory (the
            # warm-up waits for that: a second or two at 100k)
            try:
                memory.recall.read_back(memory.model.name)
            except Exception as exc:  # noqa: BLE001 - the warm-up reads the store instead
                log.warning("the search index could not be read from its file: %s", exc)
            return memory

        def start() -> None:
            if not self.quitting:
                self.worker.run(opening, self._opened, self._open_failed, label="open")

        if at_once:
            start()
        else:
            self._after_first_paint = start

    def _begin_opening(self) -> None:
        """The opening that waited for the window's first paint, started (once)."""
        start, self._after_first_paint = self._after_first_paint, None
        if start is not None:
            start()

    def _opened(self, memory) -> None:
        self.opening = False
        self.memory = memory
        self.ctx.opened(memory)  # the captures typed meanwhile are written first
        memory.listeners.append(self._listener)
        # registered after the worker's: runs before it, and drains the work on the memory first
        self.steps.register_cleanup("memory", self._close_memory)
        self.ready_event.set()
        self.window.status.withdraw(OPENING)
        asked = self.window.question_waiting()
        self.window.set_ready()
        unfinished = config.unfinished_move(memory.store.settings.data_dir)
        if unfinished:  # a move-to stopped before its switch: where the memory is
            self.banner.show(Notice("move", "A move to a server stopped before the switch", unfinished))
        if asked:
            # A question typed while the memory opened is answered first: what starts in the
            # background now (the reminders' catch-up, a sync, the index's warm-up) waits until
            # the interactive lane has answered it. It would share the one engine with the
            # question, and the catch-up's writes would send the question back to the store.
            self.worker.run(
                lambda: None,
                lambda _: self._start_background(memory),
                label="after the first answer",
                droppable=True,
            )
        else:
            self._start_background(memory)
        if self._quit_when_open:
            self.quit()

    def _start_background(self, memory: Memory) -> None:
        """What the open memory starts in the background: the reminders, a sync, the index's
        warm-up, the backups now and then."""
        if self.memory is not memory:
            return  # let go meanwhile (a reopen opens another)
        if self.reminders_enabled:
            self.scheduler.start()
        self.syncer.start()  # with the server, in the background (desktop/runtime/syncer.py)
        from core.when.patterns import GRAMMAR  # noqa: PLC0415 - loaded after the window's first paint

        # capture text's date patterns, ready before quick capture first reads what is typed
        self.worker.run(GRAMMAR.compile, label="date grammar", lane=BACKGROUND, droppable=True)
        # Build the recall index and load the model now, so the first question answers at once.

        def warmed(_count: int) -> None:
            resident.trim()
            self.prepare_nearest(memory)

        self.worker.run(
            memory.recall.warm,
            warmed,
            lambda exc: log.warning("the search index could not be prepared ahead: %s", exc),
            label="index",
            lane=BACKGROUND,
            droppable=True,
        )
        # Now and then, on the worker: a backup if one is due, the model let go if unused.
        from core import backup  # noqa: PLC0415 - loaded with the memory (core.memory imports it)

        self.auto_backup: backup.AutoBackup = backup.AutoBackup(memory)
        timer = QtCore.QTimer(self.window)
        timer.timeout.connect(self.now_and_then)
        timer.start(int(backup.CHECK_EVERY.total_seconds() * 1000))

    def waiting_on(self) -> str:
        """What a question asked now still waits for before it can be answered, in the person's
        words ("" when nothing): said in the window while the answer keeps them waiting."""
        memory = self.memory
        if memory is None:
            return "opening your memory"
        waits = []
        if not memory.model.loaded and memory.model.error is None:
            waits.append("loading the language model")
        if not memory.recall.warmed:
            waits.append("reading the search index")
        return ", ".join(waits)

    def prepare_nearest(self, memory) -> None:
        """On the worker: the quick step of the search by meaning in a big memory, made (again)
        when it is missing or stale (core/recall/nearest.py); the status bar shows how far when
        it takes more than a second."""
        self.worker.run(
            lambda report: memory.prepare_nearest(report),
            None,
            lambda exc: log.warning("the quick search by meaning could not be prepared: %s", exc),
            label=NEAREST_LABEL,
            progress=True,
            lane=BACKGROUND,
            droppable=True,
        )

    def now_and_then(self) -> None:
        """On the worker: a backup if one is due (core/backup.py; a failure is a warning, kept in
        Help ▸ Problems), and the model let go if unused for a while (core/resident.py)."""
        auto, memory = self.auto_backup, self.memory
        if memory is None:
            return  # let go (a reopen): the next round has the memory again
        self.worker.run(
            lambda: auto.run(self.clock.now().astimezone()),
            lambda made: resident.trim() if made else None,
            lambda exc: log.warning("the automatic backup failed: %s", exc, exc_info=exc),
            label="backup",
            lane=BACKGROUND,
            droppable=True,
        )
        self.worker.run(lambda: resident.tidy(memory), label="tidy", lane=BACKGROUND, droppable=True)
        self.prepare_nearest(memory)  # (after the index was let go and read back, say)

    def reopen(self) -> None:
        """Let go of the open memory and open it again from the data dir's settings (a profile
        or the engine changed, desktop/dialogs/profile.py); what the app opens now is its own."""
        old, owned = self.memory, self.owns_memory
        self.scheduler.stop()
        self.memory = self.ctx.memory = None
        self.ready_event.clear()
        if old is not None and self._listener in old.listeners:
            old.listeners.remove(self._listener)
        self.owns_memory = True
        assert self.settings is not None, "only an app that opened its data dir opens it again"
        self.settings = Settings.from_env(
            data_dir=self.settings.data_dir, embed_in_background=self.settings.embed_in_background
        )

        def let_go() -> None:
            if old is not None and owned:
                old.close()

        self.worker.run(let_go, lambda _: self.open(), self._failed, label="reopen")

    def _close_memory(self) -> None:
        memory, self.memory = self.memory, None
        if memory is None:
            return  # let go already (reopen opens it again)
        self.ctx.memory = None
        self.worker.close()  # every write queued before quitting lands first
        if self._listener in memory.listeners:
            memory.listeners.remove(self._listener)
        if self.owns_memory:
            memory.close()

    def _open_failed(self, exc: BaseException) -> None:
        self.opening = False
        self.open_error = exc
        self.ready_event.set()
        self.window.empty.setText(f"Neurons could not open your memory:\n\n{exc}")
        self.window.report("Could not open your memory")
        self.problems.add(exc, "opening your memory")
        self.ctx.open_failed(exc)  # (a capture typed meanwhile stays in its box, with why)
        if self._quit_when_open:
            self.quit()
            return
        self.window.bring_up()

    def _listener(self, change) -> None:  # any thread
        self.bridge.notify_changed(change)

    def _store_changed(self, change) -> None:
        if change.action is Action.ENGINE_RESTARTED:  # the store restarted its engine: say so once
            self.banner.show(
                Notice(
                    "engine", "The database engine stopped and was restarted", "Nothing you saved was lost."
                )
            )
        if change.action is Action.CAPTURED and change.origin is Origin.SOCKET and change.ids:
            # saved by another program (a forwarded `neurons capture`, a second launch): say so
            self.ctx.write(lambda m: m.get(change.ids[0])).on_success(self._captured).run("captured")
        self.window.store_changed(change)
        self.notices.changed(list(change.ids))
        self.syncer.changed(change)
        if self.reminders_enabled and (
            Kind.REMINDER in change.kinds or not (change.kinds or change.edges_only)
        ):
            self.scheduler.changed()

    def _failed(self, exc: BaseException, what: str = "") -> None:
        """An error: the person's to fix is said in the status line; any other is kept in
        Problems (with the details to copy), and the status line points there."""

        if is_persons(exc):
            self.window.report(summary_of(exc))
            return
        self.problems.add(exc, what)
        self.window.report(f"Something went wrong: {summary_of(exc)} (see Help ▸ Problems)")

    def _about(self) -> dict[str, str]:
        settings = self.settings
        if settings is None:
            return {}
        return {
            "data_dir": settings.dsn and "a server Postgres" or str(settings.data_dir),
            "engine": settings.engine,
        }

    # -- showing -----------------------------------------------------------------------------------

    def show_window(self, ask: str | None = None) -> None:
        self.window.bring_up()
        if ask:
            self.window.set_question(ask)

    def _open_item(self, nid: str) -> None:
        self.show_window()
        self.window.open_neuron(nid)

    def _open_missed(self) -> None:
        self.show_window()
        self.window.show_section(Section.MISSED)

    def quick_capture(self, text: str = "") -> None:
        self.quick.open(text)

    def _captured(self, neuron) -> None:

        what = {Kind.REMINDER: "reminder", Kind.CONTACT: "contact"}.get(neuron.kind, "note")
        extra = ""
        due = remind.current_due(neuron)
        if due is not None:
            extra = f", due {theme.when_text(due, self.clock.now())}"
        self.window.report(f"Saved {what}: {neuron.title}{extra}")

    def _summary(self, summary) -> None:
        if self.tray is not None:
            self.tray.set_tooltip(tray_tooltip(summary, self.scheduler.paused, self.clock.now()))

    # -- reminders -------------------------------------------------------------------------------

    def set_paused(self, paused: bool) -> None:
        if self.scheduler.paused == paused:
            return
        self.scheduler.set_paused(paused)
        self.window.set_next_reminder(self.scheduler.next_at, paused)
        if self.tray is not None and self.tray.pause_action.isChecked() != paused:
            self.tray.pause_action.setChecked(paused)
        if self.window.menus.pause_action.isChecked() != paused:
            self.window.menus.pause_action.setChecked(paused)
        if self.window.summary is not None:
            self._summary(self.window.summary)

    def reindex(self) -> None:
        """Compute every vector again, with progress in the window (the GUI stays free)."""
        if self.memory is None:
            return

        memory = self.memory
        self.window.menus.reindex_action.setEnabled(False)

        def done(total: int) -> None:
            self.window.menus.reindex_action.setEnabled(True)
            self.window.report(f"Search index rebuilt: {items(total)}")

        def failed(exc: BaseException) -> None:
            self.window.menus.reindex_action.setEnabled(True)
            self._failed(exc, "rebuilding the search index")

        self.window.report("Rebuilding the search index…")
        self.worker.run(
            lambda report: memory.reindex(progress=report),
            done,
            failed,
            label="Indexing",
            progress=True,
            lane=BACKGROUND,
        )

    def on_missed(self, alarms: list, unseen: frozenset[str] = frozenset()) -> None:

        self.missed = alarms
        title = self.notices.missed(alarms, unseen)
        if self.notifier is not self.banner and getattr(self.notifier, "active", None) is not self.banner:
            self.banner.show(Notice("missed", title + " while Neurons was closed", ""))

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
            self.bridge.gui(lambda: QtCore.QTimer.singleShot(0, self.quit))
            return {}
        if op == "status":
            return self.bridge.gui(self.status)
        memory = self._wait_memory()
        if op == "command":  # `neurons capture/list/ask/...` while the app owns the data dir
            argv = message.get("argv")
            if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
                raise NeuronsError("a command request carries its command line as a list of strings")
            # (changes reach the window through the memory's listeners, as for any other call)
            with started_by(Origin.SOCKET):
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
        if self.ctx.held and self.memory is None and self.opening:
            # a capture typed before the memory opened is written first (quit then, from _opened)
            self._quit_when_open = True
            self._begin_opening()
            self.quick.hide()
            self.window.hide()
            return
        self.quitting = True
        self._cancel_early()  # no longer waiting for a data dir another process holds
        if self.window.detail.dirty:
            self.window.detail.save()
        self.window.save_geometry()
        self.quick.hide()
        self.window.hide()
        if self.tray is not None:
            self.tray.hide()
        self.qapp.quit()

    def close(self) -> None:
        """After the event loop: every step's cleanup, in reverse (the store closes last of what
        uses it, after its queued writes)."""
        self.steps.cleanup()


def tray_tooltip(summary, paused: bool, now) -> str:
    """What the tray says on hover, in the dates' language: what is overdue, and what comes next."""
    word = theme.word
    lines = ["Neurons" + (f" — {word('tray_paused')}" if paused else "")]
    if summary.overdue:
        shown = ", ".join(summary.overdue_titles)
        more = summary.overdue - len(summary.overdue_titles)
        line = word("tray_overdue").format(summary.overdue, shown)
        lines.append(line + (" " + word("tray_more").format(more) if more > 0 else ""))
    if summary.next_title and summary.next_at is not None:
        lines.append(word("tray_next").format(summary.next_title, theme.when_text(summary.next_at, now)))
    if len(lines) == 1:
        lines.append(word("tray_nothing"))
    return "\n".join(lines)


def run(
    settings: Settings,
    lock: instance.InstanceLock,
    *,
    capture: str | None = None,
    quick: bool = False,
    ask: str | None = None,
    hidden: bool = False,
    tray: bool = True,
    opening: Opening | None = None,
) -> int:
    """The app on `settings`' data dir, whose instance `lock` the launcher holds, until it quits:
    `capture` a text once the memory is open, open `quick` capture, the window asking `ask`
    (unless `hidden` in the tray)."""
    QtWidgets.QApplication.setApplicationName("Neurons")
    QtWidgets.QApplication.setDesktopFileName("neurons")
    qapp = QtWidgets.QApplication(sys.argv[:1])
    qapp.setQuitOnLastWindowClosed(False)
    qapp.setWindowIcon(theme.app_icon())
    app = App(settings, use_tray=tray, opening=opening)
    server = instance.InstanceServer(settings.data_dir, app.handle, lock)
    server.start()
    _quit_on_signals(qapp, app)
    if capture:  # written once the memory is open (Context.write)
        text = capture
        app.ctx.write(lambda m: m.capture(text)).on_success(app._captured).run("capture")
    if quick:
        app.quick_capture()
    if not hidden or app.tray is None:
        app.show_window(ask)
    elif ask:
        app.window.set_question(ask)
    try:
        code = qapp.exec()
    finally:
        server.stop()
        app.close()
    return code


def _quit_on_signals(qapp, app: App) -> None:
    """SIGTERM/SIGINT quit cleanly (the store checkpoints and stops its engine)."""

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
