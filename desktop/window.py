"""The main window: ask box, lists, results with why, the detail pane, banners and progress."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QMainWindow, QMenu,
    QProgressBar, QPushButton, QSizePolicy, QSplitter, QStackedWidget, QToolButton, QVBoxLayout, QWidget,
)

from core.model import State
from desktop import ops, theme, transfer
from desktop.detail import Context, DetailPane
from desktop.notify import Notice, Notifier
from desktop.rows import RowList

log = logging.getLogger(__name__)

ASK_DEBOUNCE_MS = 250
REFRESH_DEBOUNCE_MS = 150

# (key, label, empty-state text); None marks a heading
SIDEBAR: list[tuple[str, str, str] | tuple[None, str, str]] = [
    ("results", "Answers", "Nothing matches. Try other words, or fewer."),
    ("missed", "Missed", "Nothing was missed."),
    (None, "Reminders", ""),
    ("overdue", "Overdue", "Nothing overdue. Well done."),
    ("upcoming", "Upcoming", "No reminders coming up.\nPress Ctrl+N and type “call Ana tomorrow at 10”."),
    ("done", "Done", "Nothing done yet."),
    (None, "Memory", ""),
    ("notes", "Notes", "No notes yet.\nPress Ctrl+N to capture a thought."),
    ("contacts", "Contacts", "No contacts yet.\nCapture “Ana Lopes, ana@example.com” as a contact."),
    ("archive", "Archive", "The archive is empty."),
    ("trash", "Trash", "The trash is empty."),
]
TITLES = {"results": "Answers", "missed": "Missed while Neurons was closed", "overdue": "Overdue",
          "upcoming": "Upcoming reminders", "done": "Done reminders", "notes": "Notes",
          "contacts": "Contacts", "archive": "Archive", "trash": "Trash"}
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


class ElidedLabel(QLabel):
    """A one-line label that ends in … when it does not fit (the full text in its tooltip)."""

    def __init__(self, text: str = ""):
        super().__init__()
        self._full = ""
        self.setMinimumWidth(40)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._full = text
        self.setToolTip(text)
        self.setAccessibleName(text)
        self._elide()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = max(self.width(), 40)
        super().setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, width))


class Banner(QFrame):
    """A line at the top of the window for notices: missed reminders, reminders without a
    notification server, errors. Its buttons answer like a notification's actions."""

    action = Signal(str, str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("banner")
        self.setAccessibleName("Notice")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(12, 8, 8, 8)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.text, 1)
        self._buttons: list[QPushButton] = []
        self._lay = lay
        self.key: str | None = None
        close = QPushButton("×")
        close.setFlat(True)
        close.setAccessibleName("Dismiss")
        close.setToolTip("Dismiss")
        close.setFixedWidth(30)
        close.clicked.connect(self.dismiss)
        lay.addWidget(close)
        self._close = close
        self.hide()

    def show_notice(self, notice: Notice) -> None:
        for b in self._buttons:
            b.deleteLater()
        self._buttons = []
        self.key = notice.key
        self.text.setText(notice.title + (f" — {notice.body}" if notice.body else ""))
        actions = notice.actions or []
        for key, label in [("open", "Show")] + list(actions):
            b = QPushButton(label)
            b.setAccessibleName(label)
            b.clicked.connect(lambda _=False, k=notice.key, a=key: self._answer(k, a))
            self._lay.insertWidget(self._lay.count() - 1, b)
            self._buttons.append(b)
        self.show()

    def _answer(self, key: str, action: str) -> None:
        if action != "open":
            self.dismiss()
        self.action.emit(key, action)

    def dismiss(self) -> None:
        self.key = None
        self.hide()


class BannerNotifier(Notifier):
    """The last resort: notices in the window's banner (and the window raised)."""

    kind = "banner"

    def __init__(self, window: MainWindow):
        super().__init__(window)
        self.window = window
        window.banner.action.connect(self.action)

    def show(self, notice: Notice) -> None:
        self.window.banner.show_notice(notice)
        if notice.urgent:
            self.window.bring_up()

    def withdraw(self, key: str) -> None:
        if self.window.banner.key == key:
            self.window.banner.dismiss()


class MainWindow(QMainWindow):
    quick_capture = Signal()
    closing = Signal()
    pause_toggled = Signal(bool)
    quit_requested = Signal()
    reindex_requested = Signal()

    def __init__(self, ctx: Context, keep_in_tray: Callable[[], bool] = lambda: False):
        super().__init__()
        self.ctx = ctx
        self.keep_in_tray = keep_in_tray
        self.setWindowTitle("Neurons")
        self.setWindowIcon(theme.app_icon())
        self.resize(1280, 800)
        self.section = "upcoming"
        self.previous_section = "upcoming"
        self.missed_ids: list[str] = []
        self.ready = False
        self.page: ops.Page | None = None
        self._ask_generation = 0
        self._list_generation = 0
        self._last_query = ""
        self.sections_loaded = 0   # how many list loads finished (tests and screenshots wait on it)

        central = QWidget()
        self.setCentralWidget(central)
        root = QVBoxLayout(central)
        root.setContentsMargins(0, 0, 0, 0)
        root.setSpacing(0)

        top = QHBoxLayout()
        top.setContentsMargins(14, 12, 14, 10)
        self.ask = AskBox()
        self.ask.setObjectName("askBox")
        self.ask.setPlaceholderText("Ask anything — “what do I know about Ana?”, “dentist”, “next week”   (Ctrl+K)")
        self.ask.setAccessibleName("Ask")
        self.ask.setAccessibleDescription("Type a question; answers appear as you type")
        self.ask.setClearButtonEnabled(True)
        self.new_button = QPushButton("+  Capture")
        self.new_button.setObjectName("primary")
        self.new_button.setAccessibleName("Capture")
        self.new_button.setToolTip("Quick capture (Ctrl+N)")
        self.new_button.setMinimumHeight(38)
        self.new_button.clicked.connect(self.quick_capture)
        self.menu_button = QToolButton()
        self.menu_button.setText("⋯")
        self.menu_button.setAccessibleName("Menu")
        self.menu_button.setToolTip("More")
        self.menu_button.setMinimumHeight(38)
        self.menu_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.menu_button)
        self.reindex_action = menu.addAction("Rebuild the search index")
        self.reindex_action.triggered.connect(self.reindex_requested)
        menu.addSeparator()
        self.pause_action = menu.addAction("Pause reminders")
        self.pause_action.setCheckable(True)
        self.pause_action.toggled.connect(self.pause_toggled)
        menu.addSeparator()
        menu.addAction("Quit Neurons").triggered.connect(self.quit_requested)
        self.menu_button.setMenu(menu)
        top.addWidget(self.ask, 1)
        top.addWidget(self.new_button)
        top.addWidget(self.menu_button)
        root.addLayout(top)

        self.banner = Banner()
        banner_wrap = QHBoxLayout()
        banner_wrap.setContentsMargins(14, 0, 14, 8)
        banner_wrap.addWidget(self.banner)
        root.addLayout(banner_wrap)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.setHandleWidth(1)
        root.addWidget(split, 1)
        self.splitter = split

        self.sidebar = QListWidget()
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setAccessibleName("Sections")
        self.sidebar.setMinimumWidth(170)
        self.sidebar.setMaximumWidth(240)
        self._sidebar_items: dict[str, QListWidgetItem] = {}
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
                item.setData(KEY_ROLE, key)
                item.setData(Qt.ItemDataRole.AccessibleTextRole, label)
                self._sidebar_items[key] = item
            self.sidebar.addItem(item)
        self._sidebar_items["results"].setHidden(True)
        self._sidebar_items["missed"].setHidden(True)
        self.sidebar.currentItemChanged.connect(self._sidebar_changed)
        split.addWidget(self.sidebar)

        middle = QWidget()
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
        split.addWidget(self.detail)
        split.setStretchFactor(0, 0)
        split.setStretchFactor(1, 3)
        split.setStretchFactor(2, 4)
        split.setSizes([190, 480, 610])

        status = self.statusBar()
        self.status_text = QLabel()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(180)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.progress.setAccessibleName("Working")
        self.progress.hide()
        self.next_label = QLabel()
        self.next_label.setObjectName("subtle")
        status.addWidget(self.status_text, 1)
        status.addPermanentWidget(self.next_label)
        status.addPermanentWidget(self.progress)

        self._ask_timer = QTimer(self)
        self._ask_timer.setSingleShot(True)
        self._ask_timer.setInterval(ASK_DEBOUNCE_MS)
        self._ask_timer.timeout.connect(self.run_ask)
        self.ask.textEdited.connect(self._ask_edited)
        self.ask.returnPressed.connect(self._ask_enter)
        self.ask.down.connect(self.focus_rows)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(REFRESH_DEBOUNCE_MS)
        self._refresh_timer.timeout.connect(self.refresh)
        self._status_timer = QTimer(self)
        self._status_timer.setSingleShot(True)
        self._status_timer.setInterval(6000)
        self._status_timer.timeout.connect(lambda: self.status_text.setText(self._idle_status))
        self._idle_status = ""

        QShortcut(QKeySequence("Ctrl+K"), self, activated=self.focus_ask,
                  context=Qt.ShortcutContext.WindowShortcut)
        QShortcut(QKeySequence("Ctrl+F"), self, activated=self.focus_ask)
        QShortcut(QKeySequence("Ctrl+N"), self, activated=self.quick_capture.emit)
        QShortcut(QKeySequence("F5"), self, activated=self.refresh)
        for i, key in enumerate(["overdue", "upcoming", "done", "notes", "contacts", "archive", "trash"], 1):
            QShortcut(QKeySequence(f"Ctrl+{i}"), self, activated=lambda k=key: self.show_section(k))

        self.setTabOrder(self.ask, self.rows)
        self.setTabOrder(self.rows, self.detail)
        self.sidebar.blockSignals(True)
        self.sidebar.setCurrentItem(self._sidebar_items["upcoming"])
        self.sidebar.blockSignals(False)
        self.transfer = transfer.install(self)  # File > Import/Export, and files dropped here

    # -- lifecycle ---------------------------------------------------------------------------------

    def set_ready(self) -> None:
        self.ready = True
        self.empty.setText("")
        self.refresh()
        if self.ask.text().strip():
            self.run_ask()

    def bring_up(self) -> None:
        self.show()
        self.setWindowState((self.windowState() & ~Qt.WindowState.WindowMinimized) | Qt.WindowState.WindowActive)
        self.raise_()
        self.activateWindow()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.detail.dirty:
            self.detail.save()
        if self.keep_in_tray():
            event.ignore()
            self.hide()
            self.report("Neurons keeps running in the tray")
            return
        event.accept()
        self.closing.emit()

    # -- status --------------------------------------------------------------------------------

    def report(self, text: str) -> None:
        self.status_text.setText(text)
        self._status_timer.start()

    def set_idle_status(self, text: str) -> None:
        self._idle_status = text
        if not self._status_timer.isActive():
            self.status_text.setText(text)

    def set_busy(self, busy: int) -> None:
        if busy > 0:
            if self.progress.maximum() != 0 and not self.progress.isVisible():
                self.progress.setRange(0, 0)
            self.progress.show()
        else:
            self.progress.hide()
            self.progress.setRange(0, 0)

    def set_progress(self, label: str, done: int, total: int) -> None:
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.show()
        self.status_text.setText(f"{label} {done:,}/{total:,}")
        if total and done >= total:
            self.report(f"{label}: {total:,} done")

    def set_next_reminder(self, at: datetime | None, paused: bool) -> None:
        if paused:
            self.next_label.setText("Reminders paused")
        elif at is None:
            self.next_label.setText("")
        else:
            self.next_label.setText(f"Next reminder {theme.when_text(at, self.ctx.now())}")

    # -- sections ----------------------------------------------------------------------------------

    def _sidebar_changed(self, item: QListWidgetItem | None, _prev=None) -> None:
        if item is None:
            return
        key = item.data(KEY_ROLE)
        if key:
            self._switch(key)

    def show_section(self, key: str) -> None:
        item = self._sidebar_items.get(key)
        if item is None:
            return
        item.setHidden(False)
        if self.sidebar.currentItem() is item:
            self._switch(key)
        else:
            self.sidebar.setCurrentItem(item)

    def _switch(self, key: str) -> None:
        if key != "results":
            self.previous_section = key
        self.section = key
        self.list_title.setText(TITLES[key] if key != "results" else f"Answers for “{self._last_query}”")
        self.load_section()

    def load_section(self, offset: int = 0) -> None:
        if not self.ready:
            return
        if self.section == "results":
            self.run_ask()
            return
        self._list_generation += 1
        generation = self._list_generation
        key = self.section
        now = self.ctx.now()
        missed = list(self.missed_ids)

        def shown(page: ops.Page) -> None:
            if generation != self._list_generation or key != self.section:
                return
            if offset and self.page is not None:
                page.rows = self.page.rows + page.rows
            self._show_page(page)

        self.ctx.run(lambda m: ops.section(m, key, now, offset, missed), shown, f"load {key}")

    def _more(self) -> None:
        if self.page is not None:
            self.load_section(offset=len(self.page.rows))

    def _show_page(self, page: ops.Page) -> None:
        self.page = page
        keep = self.rows.current_id() or self.detail.current_id
        self.rows.set_rows(page.rows, keep=keep)
        self.more_button.setVisible(page.more)
        n = len(page.rows)
        self.list_hint.setText(f"{n}{'+' if page.more else ''} " + ("item" if n == 1 else "items"))
        if page.rows:
            self.list_stack.setCurrentWidget(self.rows)
        else:
            text = next(t for k, _, t in SIDEBAR if k == page.section)
            if page.section == "results" and self._last_query:
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

    def store_changed(self) -> None:
        self._refresh_timer.start()

    def load_counts(self) -> None:
        now = self.ctx.now()

        def shown(counts: dict[str, int]) -> None:
            for key in ("overdue", "upcoming"):
                n = counts.get(key, 0)
                label = dict((k, lbl) for k, lbl, _ in SIDEBAR)[key]
                self._sidebar_items[key].setText(f"{label}   {n}" if n else label)
                self._sidebar_items[key].setData(Qt.ItemDataRole.AccessibleTextRole, f"{label}, {n}")
            total = counts.get("total", 0)
            self.set_idle_status(f"{total:,} neurons" if total != 1 else "1 neuron")

        self.ctx.run(lambda m: ops.counts(m, now), shown, "counts")

    def set_missed(self, ids: list[str]) -> None:
        self.missed_ids = ids
        item = self._sidebar_items["missed"]
        item.setHidden(not ids)
        item.setText(f"Missed   {len(ids)}" if ids else "Missed")

    # -- asking ------------------------------------------------------------------------------------

    def focus_ask(self) -> None:
        self.bring_up() if not self.isVisible() else None
        self.ask.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.ask.selectAll()

    def focus_rows(self) -> None:
        if self.rows.count():
            self.rows.setFocus()
            if self.rows.currentRow() < 0:
                self.rows.setCurrentRow(0)

    def set_question(self, text: str) -> None:
        self.ask.setText(text)
        self._ask_edited(text)

    def _ask_edited(self, text: str) -> None:
        if text.strip():
            self._ask_timer.start()
        else:
            self._ask_timer.stop()
            self._ask_generation += 1
            self._last_query = ""
            self._sidebar_items["results"].setHidden(True)
            if self.section == "results":
                self.show_section(self.previous_section)

    def _ask_enter(self) -> None:
        if self._ask_timer.isActive():
            self._ask_timer.stop()
            self.run_ask(open_first=True)
        else:
            self.focus_rows()
            if self.rows.count():
                self._row_opened(self.rows.current_id())

    def run_ask(self, open_first: bool = False) -> None:
        text = self.ask.text().strip()
        if not text or not self.ready:
            return
        self._ask_generation += 1
        generation = self._ask_generation

        def answered(page: ops.Page) -> None:
            if generation != self._ask_generation:
                return
            self._last_query = text
            if self.section != "results":
                self.section = "results"
                self._sidebar_items["results"].setHidden(False)
                self.sidebar.blockSignals(True)
                self.sidebar.setCurrentItem(self._sidebar_items["results"])
                self.sidebar.blockSignals(False)
            self.list_title.setText(f"Answers for “{text}”")
            self._show_page(page)
            if open_first and page.rows:
                self.rows.setCurrentRow(0)

        def failed(exc: BaseException) -> None:
            if generation == self._ask_generation:
                self.report(f"Could not answer: {exc}")

        self.ctx.run(lambda m: ops.ask(m, text), answered, "ask", failed)

    # -- selection ---------------------------------------------------------------------------------

    def _row_selected(self) -> None:
        nid = self.rows.current_id()
        if nid and nid != self.detail.current_id:
            self.detail.show_id(nid)

    def _row_opened(self, nid: str) -> None:
        if nid:
            self.detail.show_id(nid)
            self.detail.body.setFocus()

    def open_neuron(self, nid: str) -> None:
        """Show a neuron in the detail pane (selecting it in the list when it is there)."""
        self.bring_up() if not self.isVisible() else None
        if not self.rows.select_id(nid):
            self.rows.blockSignals(True)
            self.rows.clearSelection()
            self.rows.setCurrentRow(-1)
            self.rows.blockSignals(False)
        self.detail.show_id(nid)

    def _trash(self, nid: str) -> None:
        if nid and nid == self.detail.current_id:
            self.detail.set_state(State.TRASHED)
