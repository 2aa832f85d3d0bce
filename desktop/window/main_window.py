"""The main window: the ask box, the sections, answers with why, the detail pane, the menus, the
banner and the status bar."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from core.changes import Change
from core.model import Kind, State
from core.vocabulary import Origin
from desktop.detail.pane import DetailPane
from desktop.dialogs import transfer
from desktop.items import reads
from desktop.items.rows import RowList
from desktop.items.sections import EMPTY, LABELS, SECTION_KIND, SIDEBAR, TITLES, Section
from desktop.look import keys, theme
from desktop.look.widgets import ElidedLabel
from desktop.runtime.context import Context
from desktop.runtime.prefs import Prefs
from desktop.runtime.problems import Problems
from desktop.runtime.worker import BACKGROUND
from desktop.window.banner import Banner
from desktop.window.menus import DialogOpener, MenuDoors, WindowMenus
from desktop.window.statusbar import StatusLine, items

log = logging.getLogger(__name__)

ASK_DEBOUNCE_MS = 250
SLOW_ASK_MS = 600  # an answer later than this says it is on its way
WAITING_SAID_MS = 250  # then what it waits for is said again this often
REFRESH_DEBOUNCE_MS = 150
PENDING_POLL_MS = 3000  # while vectors are being computed, how often to say how many are left

KEY_ROLE = Qt.ItemDataRole.UserRole + 7


class AskBox(QLineEdit):
    down = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Down:
            self.down.emit()
            return
        if event.key() == Qt.Key.Key_Escape and self.text():
            self.clear()
            self.textEdited.emit("")
            return
        super().keyPressEvent(event)


class MainWindow(QMainWindow):
    quick_capture = Signal()
    closing = Signal()
    pause_toggled = Signal(bool)
    quit_requested = Signal()
    reindex_requested = Signal()
    undo_requested = Signal()
    summary_loaded = Signal(object)  # reads.Summary, after every load of the counts
    prefs_changed = Signal(str)  # what changed in Preferences

    def __init__(
        self,
        ctx: Context,
        prefs: Prefs,
        problems: Problems,
        keep_in_tray: Callable[[], bool] = lambda: False,
        about: Callable[[], dict] = dict,
        settings=None,
    ):
        super().__init__()
        self.ctx = ctx
        self.prefs = prefs
        self.settings = settings
        self.keep_in_tray = keep_in_tray
        self.problems = problems
        self.setWindowTitle("Neurons")
        self.setWindowIcon(theme.app_icon())
        self.resize(1280, 800)
        self.section = Section.UPCOMING
        self.previous_section = Section.UPCOMING
        self.navigated = False  # the person chose a section (the app no longer picks one)
        self.missed: dict[str, str] = {}  # listed under Missed: reminder id -> why
        self.ready = False
        # what a question asked now still waits for ("loading the language model"), said while
        # it waits; the app tells (desktop/app.py)
        self.waiting_on: Callable[[], str] = lambda: ""
        self.page: reads.Page | None = None
        self.summary: reads.Summary | None = None
        self._ask_generation = 0
        self._answered_generation = 0
        # what to do with the answer once it is there: "select" its first row, or "focus" the list
        # there (Down was pressed while asking), or "open" it to edit (Enter)
        self._after_answer: str | None = None
        self._list_generation = 0
        self._last_query = ""
        self.sections_loaded = 0  # how many list loads finished (tests and screenshots wait on it)
        self.changes_applied = 0  # how many rounds of store changes were looked at (tests wait on it)
        self.dialogs = DialogOpener(self, prefs, settings, problems, about, self._prefs_changed)

        central = QWidget()
        self.setCentralWidget(central)
        root = QVBoxLayout(central)
        root.setContentsMargins(0, 0, 0, 0)
        root.setSpacing(0)

        top = QHBoxLayout()
        top.setContentsMargins(14, 12, 14, 10)
        self.ask = AskBox()
        self.ask.setObjectName("askBox")
        self.ask.setPlaceholderText(
            "Ask anything — “what do I know about Ana?”, “dentist”, “next week”   (Ctrl+K)"
        )
        self.ask.setAccessibleName("Ask")
        self.ask.setAccessibleDescription("Type a question; answers appear as you type")
        self.ask.setClearButtonEnabled(True)
        self.new_button = QPushButton("+  Capture")
        self.new_button.setObjectName("primary")
        self.new_button.setAccessibleName("Capture")
        self.new_button.setToolTip("Quick capture (Ctrl+N)")
        self.new_button.setMinimumHeight(38)
        self.new_button.clicked.connect(self.quick_capture)
        top.addWidget(self.ask, 1)
        top.addWidget(self.new_button)
        root.addLayout(top)

        self.banner = Banner()
        banner_wrap = QHBoxLayout()
        banner_wrap.setContentsMargins(14, 0, 14, 8)
        banner_wrap.addWidget(self.banner)
        root.addLayout(banner_wrap)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.setHandleWidth(1)
        split.setChildrenCollapsible(False)
        root.addWidget(split, 1)
        self.splitter = split

        self.sidebar = self._build_sidebar()
        split.addWidget(self.sidebar)

        middle = QWidget()
        middle.setMinimumWidth(320)
        mid = QVBoxLayout(middle)
        mid.setContentsMargins(0, 0, 0, 0)
        mid.setSpacing(0)
        head = QHBoxLayout()
        head.setContentsMargins(16, 10, 16, 6)
        self.list_title = ElidedLabel("Upcoming reminders")
        self.list_title.setObjectName("listTitle")
        self.list_hint = QLabel()
        self.list_hint.setObjectName("subtle")
        head.addWidget(self.list_title, 1)
        head.addWidget(self.list_hint)
        mid.addLayout(head)
        self.list_stack = QStackedWidget()
        self.rows = RowList(ctx.now)
        self.rows.currentItemChanged.connect(lambda *_: self._row_selected())
        self.rows.opened.connect(self._row_opened)
        self.rows.escape.connect(self.focus_ask)
        self.rows.delete.connect(self._trash)
        self.empty = QLabel("Opening your memory…")
        self.empty.setObjectName("emptyState")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setAccessibleName("Empty list")
        self.list_stack.addWidget(self.empty)
        self.list_stack.addWidget(self.rows)
        mid.addWidget(self.list_stack, 1)
        self.more_button = QPushButton("Show more")
        self.more_button.setAccessibleName("Show more")
        self.more_button.clicked.connect(self._more)
        self.more_button.hide()
        mid.addWidget(self.more_button)
        split.addWidget(middle)

        self.detail = DetailPane(ctx)
        self.detail.open_neuron.connect(self.open_neuron)
        self.detail.showing.connect(self._detail_showing)
        self.detail.back.connect(self.focus_rows)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 4)
        split.setSizes([190, 480, 610])
        self.detail.hide()  # until there is something to show: the list has the room

        self.status = StatusLine(self.statusBar(), self.problems, ctx.now)
        self.status_text, self.next_label, self.progress = (
            self.status.text,
            self.status.next_label,
            self.status.progress,
        )
        self.status.problems_clicked.connect(self.dialogs.problems)

        self._ask_timer = QTimer(self)
        self._ask_timer.setSingleShot(True)
        self._ask_timer.setInterval(ASK_DEBOUNCE_MS)
        self._ask_timer.timeout.connect(self.run_ask)
        # an answer that keeps the person waiting says what it waits for (the first one may wait
        # for the memory, the sentence model, the recall index), said again as that changes
        self._slow_ask = QTimer(self)
        self._slow_ask.setSingleShot(True)
        self._slow_ask.setInterval(SLOW_ASK_MS)
        self._slow_ask.timeout.connect(self._still_asking)
        self.ask.textEdited.connect(self._ask_edited)
        self.ask.returnPressed.connect(self._ask_enter)
        self.ask.down.connect(self._ask_down)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(REFRESH_DEBOUNCE_MS)
        self._refresh_timer.timeout.connect(self._apply_changes)
        self._changes: list[Change] = []
        self._pending_timer = QTimer(self)
        self._pending_timer.setSingleShot(True)
        self._pending_timer.setInterval(PENDING_POLL_MS)
        self._pending_timer.timeout.connect(self.load_pending)

        self.menus = self._build_menus()
        self.item_keys = keys.ItemKeys(self)
        # (in the item's own fields; the ask box keeps its keys for typing)
        for w in (self.detail.body, self.detail.linker.link_search):
            w.installEventFilter(self.item_keys)
        self.detail.item_keys = self.item_keys
        self.detail.item_changed.connect(self.menus.update_item_actions)
        self.menus.update_item_actions()

        self.setTabOrder(self.ask, self.new_button)
        self.setTabOrder(self.new_button, self.rows)
        self.setTabOrder(self.rows, self.detail.body)
        self.sidebar.blockSignals(True)
        self.sidebar.setCurrentItem(self._sidebar_items[Section.UPCOMING])
        self.sidebar.blockSignals(False)
        # File > Import/Export, and files dropped here
        self.transfer = transfer.install(self, ctx, self.menus.file_menu, self.menus.file_menu_at)
        self.restore_geometry()

    def _build_sidebar(self) -> QListWidget:
        """The sections, under their headings; Answers and Missed hidden until they have rows."""
        sidebar = QListWidget()
        sidebar.setObjectName("sidebar")
        sidebar.setAccessibleName("Sections")
        sidebar.setMinimumWidth(170)
        sidebar.setMaximumWidth(240)
        # its rows' heights come from the style sheet's padding: polished before they are laid
        # out, or they keep the unpadded heights until a row's text changes (the memory opened)
        sidebar.ensurePolished()
        self._sidebar_items: dict[Section, QListWidgetItem] = {}
        for key, label, _ in SIDEBAR:
            item = QListWidgetItem(label if key else label.upper())
            if key is None:
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                font = item.font()
                font.setBold(True)
                font.setPointSizeF(max(font.pointSizeF() * 0.8, 7))
                item.setFont(font)
                item.setSizeHint(QSize(100, 30))
            else:
                item.setData(KEY_ROLE, key.value)
                item.setData(Qt.ItemDataRole.AccessibleTextRole, label)
                self._sidebar_items[key] = item
            sidebar.addItem(item)
        self._sidebar_items[Section.RESULTS].setHidden(True)
        self._sidebar_items[Section.MISSED].setHidden(True)
        sidebar.currentItemChanged.connect(self._sidebar_changed)
        return sidebar

    def _build_menus(self) -> WindowMenus:
        """The menu bar, handed what its actions do."""
        return WindowMenus(
            self,
            MenuDoors(
                quick_capture=self.quick_capture.emit,
                quit=self.quit_requested.emit,
                undo=self.undo_requested.emit,
                ask=self.focus_ask,
                show_section=lambda key: self.show_section(key, by_person=True),
                refresh=self.refresh,
                pause=self.pause_toggled.emit,
                reindex=self.reindex_requested.emit,
                report=self.report,
            ),
            self.detail,
            self.dialogs,
            self.settings,
        )

    # -- lifecycle ---------------------------------------------------------------------------------

    def question_waiting(self) -> bool:
        """A question is typed in the ask field (one typed while the memory opened is answered
        once it is ready)."""
        return bool(self.ask.text().strip())

    def set_ready(self) -> None:
        self.ready = True
        self.empty.setText("")
        if self.question_waiting():
            # a question typed while the memory opened is answered first: its answers take the
            # list, so the section is not loaded for it
            self.run_ask()
            self.load_counts()
            self.detail.reload()
        else:
            self.refresh()
        self.load_pending()

    def bring_up(self) -> None:
        self.show()
        self.setWindowState(
            (self.windowState() & ~Qt.WindowState.WindowMinimized) | Qt.WindowState.WindowActive
        )
        self.raise_()
        self.activateWindow()

    def restore_geometry(self) -> None:
        geometry, splitter = self.prefs.window_state()
        if geometry is not None:
            self.restoreGeometry(geometry)
        if splitter is not None:
            self.splitter.restoreState(splitter)

    def save_geometry(self) -> None:
        self.prefs.save_window_state(self.saveGeometry(), self.splitter.saveState())

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.detail.dirty:
            self.detail.save()
        self.save_geometry()
        if self.keep_in_tray():
            event.ignore()
            self.hide()
            self.report("Neurons keeps running in the tray")
            return
        event.accept()
        self.closing.emit()

    def _prefs_changed(self, what: str) -> None:
        """Preferences changed `what`: the look, the dates' language, start at login."""
        if what == "theme":
            theme.apply(theme.gui_app(), self.prefs.theme)
        elif what == "language":
            theme.set_language(theme.gui_app(), self.prefs.language)
            self.status.retell()
            self.refresh()
        elif what == "autostart":
            self.menus.sync_autostart()
        self.detail.update_snooze_labels()
        self.prefs_changed.emit(what)

    # -- status --------------------------------------------------------------------------------

    def report(self, text: str, undo: bool = False) -> None:
        self.status.report(text, undo)

    def set_busy(self, busy: int) -> None:
        self.status.set_busy(busy)

    def set_progress(self, label: str, done: int, total: int) -> None:
        self.status.set_progress(label, done, total)

    def set_next_reminder(self, at: datetime | None, paused: bool) -> None:
        self.status.set_next_reminder(at, paused)

    def load_pending(self) -> None:
        """Say how many items still wait for their vector; look again while some do."""

        def shown(progress) -> None:
            if progress is None:
                self.status.set_pending(0)
                return
            self.status.set_pending(progress.pending, progress.total, progress.upgrading)
            if progress.pending:
                self._pending_timer.start()

        # (only while the filler runs: without it nothing is being prepared)
        (
            self.ctx.read(lambda m: m.vector_progress() if m.filler is not None else None)
            .on_success(shown)
            .on_failure(lambda exc: log.warning("cannot count the items still to index: %s", exc))
            .run("pending vectors", lane=BACKGROUND)
        )

    # -- sections ----------------------------------------------------------------------------------

    def _sidebar_changed(self, item: QListWidgetItem | None, _prev=None) -> None:
        if item is None:
            return
        value = item.data(KEY_ROLE)
        if value:
            key = Section(value)
            if key is not Section.RESULTS:
                self.navigated = True
            self._switch(key)

    def show_section(self, name: Section | str, by_person: bool = False) -> None:
        """`name`: a Section, or its value (as the tests say it)."""
        key = Section(name)
        item = self._sidebar_items[key]
        self.navigated = self.navigated or by_person
        item.setHidden(False)
        if self.sidebar.currentItem() is not item:
            self.sidebar.blockSignals(True)
            self.sidebar.setCurrentItem(item)
            self.sidebar.blockSignals(False)
        self._switch(key)

    def _switch(self, key: Section) -> None:
        if key is not Section.RESULTS:
            self.previous_section = key
        self.section = key
        answers = key is Section.RESULTS
        self.list_title.setText(f"Answers for “{self._last_query}”" if answers else TITLES[key])
        self.load_section()

    def load_section(self, offset: int = 0) -> None:
        if not self.ready:
            return
        if self.section is Section.RESULTS:
            self.run_ask()
            return
        self._list_generation += 1
        generation = self._list_generation
        key = self.section
        now = self.ctx.now()
        missed = dict(self.missed)

        def shown(page: reads.Page) -> None:
            if generation != self._list_generation or key != self.section:
                return
            if offset and self.page is not None:
                page.rows = self.page.rows + page.rows
            self._show_page(page)

        (
            self.ctx.read(lambda m: reads.section(m, key, now, offset, missed))
            .on_success(shown)
            .run(f"load {key}")
        )

    def _more(self) -> None:
        if self.page is not None:
            self.load_section(offset=len(self.page.rows))

    def _show_page(self, page: reads.Page, keep: str | None = None) -> None:
        self.page = page
        if keep is None:
            keep = self.rows.current_id() or self.detail.current_id
        self.rows.set_rows(page.rows, keep=keep, window_label=page.window_label)
        self.more_button.setVisible(page.more)
        n = len(page.rows)
        inside = sum(r.group == "window" for r in page.rows)
        if inside and page.window_label:  # the count of what the question's time holds
            more = f", {n - inside} related" if n > inside else ""
            self.list_hint.setText(f"{inside} {page.window_label}{more}")
        else:
            self.list_hint.setText(f"{n}{'+' if page.more else ''} " + ("item" if n == 1 else "items"))
        if page.rows:
            self.list_stack.setCurrentWidget(self.rows)
        else:
            text = EMPTY[page.section]
            if page.section is Section.RESULTS and page.window_label:
                text = f"Nothing {page.window_label}."
            elif page.section is Section.RESULTS and self._last_query:
                text = f"Nothing matches “{self._last_query}”.\nTry other words, or fewer."
            self.empty.setText(text)
            self.list_stack.setCurrentWidget(self.empty)
        self.sections_loaded += 1

    def refresh(self) -> None:
        """Load again what is shown (after a change in the store)."""
        if not self.ready:
            return
        self.load_section()
        self.load_counts()
        self.detail.reload()

    def store_changed(self, change: Change) -> None:
        """The store changed (here or elsewhere): soon, load again only what shows it."""
        self._changes.append(change)
        self._refresh_timer.start()

    def _apply_changes(self) -> None:
        changes, self._changes = self._changes, []
        if not self.ready or not changes:
            return
        self.changes_applied += 1
        if any(c.affects.everything for c in changes):
            self.refresh()
            return
        shown = {str(r.neuron.id) for r in self.rows.rows()}
        if any(self._list_sees(c, shown) for c in changes):
            self.load_section()
        if any(self._counts_see(c) for c in changes):
            self.load_counts()
        if any(self._detail_sees(c) for c in changes):
            self.detail.reload()
        if any(c.affects.texts for c in changes) and not self._pending_timer.isActive():
            self.load_pending()

    def _list_sees(self, change: Change, shown: set[str]) -> bool:
        touched = {str(i) for i in change.ids}
        if self.section is Section.RESULTS:
            return change.affects.added or bool(touched & shown)
        if change.edges_only:
            return False
        if touched & shown:
            return True
        kind = SECTION_KIND.get(self.section)
        if kind is not None:
            return kind in change.kinds
        return self.section in (Section.ARCHIVE, Section.TRASH) and change.affects.states

    @staticmethod
    def _counts_see(change: Change) -> bool:
        return not change.edges_only and (
            Kind.REMINDER in change.kinds or change.affects.added or change.affects.states
        )

    def _detail_sees(self, change: Change) -> bool:
        current = self.detail.current_id
        if current is None:
            return False
        if change.touches(current):
            # the pane already shows what it just did, but not what an undo wrote back
            return change.origin is not Origin.WINDOW or change.affects.earlier
        linked = {str(o.id) for _, o in (self.detail.detail.links if self.detail.detail else [])}
        if linked & {str(i) for i in change.ids}:
            return True
        contact = self.detail.neuron is not None and self.detail.neuron.kind is Kind.CONTACT
        return contact and (change.affects.neurons or change.affects.edges)

    def load_counts(self) -> None:
        now = self.ctx.now()

        def shown(summary: reads.Summary) -> None:
            self.summary = summary
            for key, n in ((Section.OVERDUE, summary.overdue), (Section.UPCOMING, summary.upcoming)):
                label = LABELS[key]
                self._sidebar_items[key].setText(f"{label}   {n}" if n else label)
                self._sidebar_items[key].setData(Qt.ItemDataRole.AccessibleTextRole, f"{label}, {n}")
            self.status.set_idle(items(summary.total))
            if summary.overdue and not self.navigated and self.section is Section.UPCOMING:
                self.show_section(Section.OVERDUE)  # what needs doing first
            self.summary_loaded.emit(summary)

        self.ctx.read(lambda m: reads.summary(m, now)).on_success(shown).run("counts")

    def set_missed(self, ids: dict[str, str]) -> None:
        self.missed = ids
        item = self._sidebar_items[Section.MISSED]
        item.setHidden(not ids)
        item.setText(f"Missed   {len(ids)}" if ids else "Missed")
        if self.section is Section.MISSED:
            self.load_section()

    # -- asking ------------------------------------------------------------------------------------

    def focus_ask(self) -> None:
        if not self.isVisible():
            self.bring_up()
        self.ask.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.ask.selectAll()

    def focus_rows(self) -> None:
        """To the list, on its first row (never on a row left from an earlier list)."""
        if self.list_stack.currentWidget() is self.rows and self.rows.first_row() >= 0:
            self.rows.setFocus()
            if self.rows.currentRow() < 0 or self.rows.currentItem().isHidden():
                self.rows.select_first()

    def _still_asking(self) -> None:
        if self.asking:
            waiting = self.waiting_on()
            self.list_hint.setText(f"Looking… ({waiting})" if waiting else "Looking…")
            self._slow_ask.start(WAITING_SAID_MS)

    @property
    def asking(self) -> bool:
        """A question was typed whose answer is not shown yet."""
        return self._ask_timer.isActive() or self._answered_generation != self._ask_generation

    def _ask_down(self) -> None:
        if self.asking:
            self._after_answer = self._after_answer or "focus"  # go there once it is answered
            return
        self.focus_rows()
        self.rows.select_first()

    def set_question(self, text: str) -> None:
        self.ask.setText(text)
        self._ask_edited(text)

    def _ask_edited(self, text: str) -> None:
        if text.strip():
            self._ask_timer.start()
        else:
            self._ask_timer.stop()
            if not self.ready:
                self.list_hint.setText("")  # (no question waits any more)
            self._ask_generation += 1
            self._answered_generation = self._ask_generation
            self._after_answer = None
            self._last_query = ""
            self._sidebar_items[Section.RESULTS].setHidden(True)
            if self.section is Section.RESULTS:
                self._leave_answers()
                self.show_section(self.previous_section)

    def _leave_answers(self) -> None:
        """The question emptied: no answer stays open (its edit saved first) nor selected."""
        if self.detail.dirty:
            self.detail.save()
        self.detail.clear()
        self.rows.blockSignals(True)
        self.rows.clearSelection()
        self.rows.setCurrentRow(-1)
        self.rows.blockSignals(False)

    def _ask_enter(self) -> None:
        if self.asking:
            self._after_answer = "open"
            if self._ask_timer.isActive():
                self._ask_timer.stop()
                self.run_ask()
            return
        self._open_first()

    def _open_first(self) -> None:
        """Enter in the ask box: the first answer in the pane (shown from the fold when it is
        only loosely related), the keys on the list."""
        self.focus_rows()
        first = self.rows.rows()[0] if self.rows.rows() else None
        if first is not None and not self.rows.current_id():
            self.rows.select_id(str(first.neuron.id))
        self._row_opened(self.rows.current_id())

    def run_ask(self, open_first: bool = False) -> None:
        text = self.ask.text().strip()
        if text and not self.ready:  # asked once the memory is open (set_ready): say what it waits for
            waiting = self.waiting_on()
            self.list_hint.setText(f"Looking… ({waiting})" if waiting else "Looking…")
            return
        if not text:
            return
        self._ask_generation += 1
        generation = self._ask_generation
        if open_first:
            self._after_answer = self._after_answer or "select"

        def answered(page: reads.Page) -> None:
            if generation != self._ask_generation:
                return
            self._answered_generation = generation
            self._slow_ask.stop()
            new_question = text != self._last_query
            self._last_query = text
            if self.section is not Section.RESULTS:
                self.section = Section.RESULTS
                self._sidebar_items[Section.RESULTS].setHidden(False)
                self.sidebar.blockSignals(True)
                self.sidebar.setCurrentItem(self._sidebar_items[Section.RESULTS])
                self.sidebar.blockSignals(False)
            self.list_title.setText(f"Answers for “{text}”")
            # a new question starts from the top: no row of an earlier answer stays selected
            self._show_page(page, keep="" if new_question else None)
            if new_question:
                self.rows.setCurrentRow(-1)
            then, self._after_answer = self._after_answer, None
            if then and page.rows:
                if then != "select":  # (select: show the first answer, the focus stays)
                    self.focus_rows()
                self.rows.select_first()
                if then == "open":
                    self._open_first()

        def failed(exc: BaseException) -> None:
            if generation == self._ask_generation:
                self._answered_generation = generation
                self._slow_ask.stop()
                self.list_hint.setText("")
                self._after_answer = None
                self.report(f"Could not answer: {exc}")

        now = self.ctx.now()
        self._slow_ask.start(SLOW_ASK_MS)
        ask = self.ctx.read(lambda m: reads.ask(m, text, now=now))
        ask.on_success(answered).on_failure(failed).run("ask")

    # -- selection ---------------------------------------------------------------------------------

    def _row_selected(self) -> None:
        nid = self.rows.current_id()
        if nid and nid != self.detail.current_id:
            self.detail.show_id(nid)

    def _row_opened(self, nid: str) -> None:
        """Enter on a row (or in the ask box): the item in the pane, the keys staying on the list,
        where the item's shortcuts act on it; never the cursor in its text (Tab goes there)."""
        if nid:
            self.detail.show_id(nid)

    def _detail_showing(self, showing: bool) -> None:
        self.detail.setVisible(showing)

    def open_neuron(self, nid: str) -> None:
        """Show an item in the detail pane (selecting it in the list when it is there)."""
        if not self.isVisible():
            self.bring_up()
        if not self.rows.select_id(nid):
            self.rows.blockSignals(True)
            self.rows.clearSelection()
            self.rows.setCurrentRow(-1)
            self.rows.blockSignals(False)
        self.detail.show_id(nid)

    def _trash(self, nid: str) -> None:
        if nid and nid == self.detail.current_id:
            self.detail.set_state(State.TRASHED)
