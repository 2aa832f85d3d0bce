"""The detail pane: edit a neuron in place, act on it, see and change its links; for a contact,
the answer to "what do you know about X" as a timeline."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QFrame, QHBoxLayout, QLabel, QLineEdit, QListWidget,
    QListWidgetItem, QMenu, QPlainTextEdit, QPushButton, QScrollArea, QStackedWidget,
    QToolButton, QVBoxLayout, QWidget,
)

from core import remind
from core.model import Kind, Neuron, NeuronsError, Relation, State
from desktop import inputs, ops, theme
from desktop.rows import RowList

log = logging.getLogger(__name__)

CONTACT_FIELDS = [("name", "Name"), ("aliases", "Also called"), ("phone", "Phone"),
                  ("phones", "Phones"), ("email", "Email"), ("emails", "Emails"),
                  ("birthday", "Birthday"), ("org", "Organisation")]
LIST_KEYS = {"aliases", "phones", "emails", "tags"}
ALWAYS_SHOWN = {"name", "aliases", "phone", "email"}
ON_REQUEST = ["birthday", "org"]   # offered by "More fields" when empty
RELATION_LABELS = {Relation.RELATES_TO: "relates to", Relation.CONCERNS: "concerns",
                   Relation.SAME_PERSON: "same person as", Relation.SUPERSEDES: "supersedes"}


class Context:
    """What the panes share: the memory (None until open), the worker and the clock."""

    def __init__(self, worker, clock, memory=None):
        self.worker = worker
        self.clock = clock
        self.memory = memory
        self.report: Callable[[str], None] = lambda text: None   # status line
        self.failed: Callable[[BaseException], None] = lambda exc: None

    def run(self, fn, on_done=None, label: str = "", on_error=None) -> bool:
        if self.memory is None:
            return False
        memory = self.memory
        self.worker.run(lambda: fn(memory), on_done, on_error or self.failed, label=label)
        return True

    def now(self) -> datetime:
        return self.clock.now()


class _ErrorLabel(QLabel):
    """Red text that takes no room while empty."""

    def __init__(self) -> None:
        super().__init__()
        self.setStyleSheet(f"color: {theme.OVERDUE};")
        self.setWordWrap(True)
        self.hide()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self.setVisible(bool(text))


def _section(title: str) -> QLabel:
    label = QLabel(title)
    label.setObjectName("subtle")
    font = label.font()
    font.setBold(True)
    font.setCapitalization(font.Capitalization.AllUppercase)
    font.setPointSizeF(font.pointSizeF() * 0.85)
    label.setFont(font)
    return label


class DetailPane(QWidget):
    open_neuron = Signal(str)      # show another neuron
    saved = Signal(str)

    def __init__(self, ctx: Context, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("detail")
        self.neuron: Neuron | None = None
        self.detail: ops.Detail | None = None
        self._fields: dict[str, QLineEdit] = {}
        self._dirty = False
        self._loading_id: str | None = None
        self._generation = 0

        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.stack = QStackedWidget()
        outer.addWidget(self.stack)

        self.empty = QLabel("Select something to see it here.\n\nCtrl+K asks, Ctrl+N captures.")
        self.empty.setObjectName("emptyState")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.stack.addWidget(self.empty)

        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        page = QWidget()
        scroll.setWidget(page)
        self.stack.addWidget(scroll)
        lay = QVBoxLayout(page)
        lay.setContentsMargins(18, 14, 18, 14)
        lay.setSpacing(10)

        # header: kind chip, state, created
        head = QHBoxLayout()
        self.chip = QLabel()
        self.chip.setObjectName("chip")
        self.state_label = QLabel()
        self.state_label.setObjectName("subtle")
        self.created_label = QLabel()
        self.created_label.setObjectName("subtle")
        head.addWidget(self.chip)
        head.addWidget(self.state_label)
        head.addStretch(1)
        head.addWidget(self.created_label)
        lay.addLayout(head)

        self.title = QLabel()
        self.title.setObjectName("detailTitle")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.title)

        self.body = QPlainTextEdit()
        self.body.setAccessibleName("Text")
        self.body.setPlaceholderText("Write it down…")
        self.body.setTabChangesFocus(True)
        self.body.textChanged.connect(self._touched)
        self.body.textChanged.connect(self._fit_body)
        lay.addWidget(self.body)

        self.form_host = QWidget()
        self.form = QFormLayout(self.form_host)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        lay.addWidget(self.form_host)

        save_row = QHBoxLayout()
        self.save_button = QPushButton("Save")
        self.save_button.setObjectName("primary")
        self.save_button.setAccessibleName("Save changes")
        self.save_button.setToolTip("Save (Ctrl+S)")
        self.save_button.clicked.connect(self.save)
        self.save_note = QLabel()
        self.save_note.setObjectName("subtle")
        self.error = _ErrorLabel()
        save_row.addWidget(self.save_button)
        save_row.addWidget(self.save_note)
        save_row.addStretch(1)
        lay.addLayout(save_row)
        lay.addWidget(self.error)

        # actions
        actions = QHBoxLayout()
        self.done_button = self._action_button("Done", "Mark done (Ctrl+D)", self.mark_done)
        self.snooze_button = QToolButton()
        self.snooze_button.setText("Snooze ▾")
        self.snooze_button.setAccessibleName("Snooze")
        self.snooze_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.snooze_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        menu = QMenu(self.snooze_button)
        for label, delta in (("10 minutes", timedelta(minutes=10)), ("1 hour", timedelta(hours=1)),
                             ("3 hours", timedelta(hours=3))):
            act = QAction(label, menu)
            act.triggered.connect(lambda _=False, d=delta: self.snooze_for(d))
            menu.addAction(act)
        tomorrow = QAction("Tomorrow morning", menu)
        tomorrow.triggered.connect(self.snooze_tomorrow)
        menu.addAction(tomorrow)
        self.snooze_button.setMenu(menu)
        self.archive_button = self._action_button("Archive", "Archive: keep it out of the lists",
                                                  lambda: self.set_state(State.ARCHIVED))
        self.trash_button = self._action_button("Trash", "Move to the trash (Delete)",
                                                lambda: self.set_state(State.TRASHED))
        self.restore_button = self._action_button("Restore", "Make it active again",
                                                  lambda: self.set_state(State.ACTIVE))
        for w in (self.done_button, self.snooze_button, self.archive_button, self.trash_button,
                  self.restore_button):
            actions.addWidget(w)
        actions.addStretch(1)
        lay.addLayout(actions)

        # contact timeline
        self.timeline_title = _section("Timeline")
        self.timeline_note = QLabel()
        self.timeline_note.setObjectName("hint")
        self.timeline = RowList(ctx.now)
        self.timeline.setAccessibleName("Timeline")
        self.timeline.setMinimumHeight(220)
        self.timeline.opened.connect(self.open_neuron)
        lay.addWidget(self.timeline_title)
        lay.addWidget(self.timeline_note)
        lay.addWidget(self.timeline)

        # links
        self.links_title = _section("Links")
        lay.addWidget(self.links_title)
        self.links = QListWidget()
        self.links.setObjectName("links")
        self.links.setAccessibleName("Links")
        self.links.setMinimumHeight(90)
        self.links.setMaximumHeight(200)
        self.links.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.links.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.links.setUniformItemSizes(True)
        self.links.itemActivated.connect(self._open_link)
        self.links.currentItemChanged.connect(lambda *_: self._update_link_buttons())
        lay.addWidget(self.links)
        link_buttons = QHBoxLayout()
        self.open_link_button = self._action_button("Open", "Open the linked neuron",
                                                    lambda: self._open_link(self.links.currentItem()))
        self.close_link_button = self._action_button(
            "Close link", "The link stops being true now (it is kept, dated)", self.close_link)
        link_buttons.addWidget(self.open_link_button)
        link_buttons.addWidget(self.close_link_button)
        link_buttons.addStretch(1)
        lay.addLayout(link_buttons)

        picker = QHBoxLayout()
        self.link_search = QLineEdit()
        self.link_search.setPlaceholderText("Link to… (type to search)")
        self.link_search.setAccessibleName("Link to another neuron")
        self.link_search.setClearButtonEnabled(True)
        self.link_relation = QComboBox()
        self.link_relation.setAccessibleName("Relation")
        for rel in (Relation.RELATES_TO, Relation.CONCERNS, Relation.SAME_PERSON, Relation.SUPERSEDES):
            self.link_relation.addItem(RELATION_LABELS[rel], rel.value)
        picker.addWidget(self.link_search, 1)
        picker.addWidget(self.link_relation)
        lay.addLayout(picker)
        self.candidates = QListWidget()
        self.candidates.setAccessibleName("Neurons to link to")
        self.candidates.setMaximumHeight(160)
        self.candidates.hide()
        self.candidates.itemActivated.connect(self._link_candidate)
        lay.addWidget(self.candidates)
        lay.addStretch(1)

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(200)
        self._search_timer.timeout.connect(self._search_candidates)
        self.link_search.textEdited.connect(lambda _: self._search_timer.start())
        self.link_search.returnPressed.connect(self._link_first)
        self.link_search.installEventFilter(self)

        QShortcut(QKeySequence.StandardKey.Save, self, activated=self.save,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence("Ctrl+D"), self, activated=self.mark_done,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.stack.setCurrentIndex(0)

    def _action_button(self, text: str, tip: str, slot) -> QPushButton:
        b = QPushButton(text)
        b.setToolTip(tip)
        b.setAccessibleName(text)
        b.clicked.connect(slot)
        return b

    # -- showing -----------------------------------------------------------------------------------

    @property
    def current_id(self) -> str | None:
        return str(self.neuron.id) if self.neuron is not None else None

    @property
    def dirty(self) -> bool:
        return self._dirty

    def clear(self) -> None:
        self.neuron = None
        self.detail = None
        self._dirty = False
        self.stack.setCurrentIndex(0)

    def show_id(self, neuron_id: str, *, force: bool = False) -> None:
        """Load and show a neuron (saving the one being edited first)."""
        if not neuron_id:
            return
        if self._dirty and not force and self.current_id != neuron_id:
            self.save()
        if self._dirty and self.current_id == neuron_id and not force:
            return  # being edited: do not overwrite the person's typing
        self._generation += 1
        generation = self._generation
        self._loading_id = neuron_id

        def loaded(detail: ops.Detail) -> None:
            if generation == self._generation:
                self._loading_id = None
                self._fill(detail)

        def missing(exc: BaseException) -> None:
            if generation == self._generation:
                self._loading_id = None
                if isinstance(exc, NeuronsError):
                    self.clear()
                else:
                    self.ctx.failed(exc)

        self.ctx.run(lambda m: ops.detail(m, neuron_id), loaded, "detail", missing)

    def reload(self) -> None:
        """Show again what is shown (or about to be): the store changed."""
        target = self._loading_id or self.current_id
        if target and not self._dirty:
            self.show_id(target, force=True)

    def _fill(self, detail: ops.Detail) -> None:
        n = detail.neuron
        same = self.neuron is not None and self.neuron.id == n.id
        self.neuron, self.detail = n, detail
        now = self.ctx.now()
        self.chip.setText(theme.KIND_LABELS[n.kind])
        self.chip.setStyleSheet(f"background: {theme.KIND_COLOURS[n.kind]};")
        self.chip.setAccessibleName(f"Kind: {theme.KIND_LABELS[n.kind]}")
        sub, overdue = theme.subtitle(n, now)
        state = n.state.value if n.state is not State.ACTIVE else ""
        if overdue:
            state = "overdue"
        self.state_label.setText(state)
        self.state_label.setStyleSheet(f"color: {theme.OVERDUE};" if overdue else "")
        self.created_label.setText(f"created {theme.when_text(n.created_at, now)}" if n.created_at else "")
        self.title.setText(n.title or "(empty)")
        if not same or self.body.toPlainText() != n.body:
            self.body.blockSignals(True)
            self.body.setPlainText(n.body)
            self.body.blockSignals(False)
        self._fit_body()
        self._build_form(n)
        self._dirty = False
        self.save_button.setEnabled(False)
        if not same:
            self.save_note.setText("")
        self.error.setText("")
        active = n.state is State.ACTIVE
        is_rem = n.kind is Kind.REMINDER
        self.done_button.setVisible(active and is_rem)
        self.done_button.setText("Done" if not (is_rem and n.attrs.get("rrule")) else "Done (this time)")
        self.snooze_button.setVisible(active and is_rem and bool(n.attrs.get("due_at")))
        self.archive_button.setVisible(n.state in (State.ACTIVE, State.DONE))
        self.trash_button.setVisible(n.state is not State.TRASHED)
        self.restore_button.setVisible(not active)

        self.links.clear()
        for edge, other in detail.links:
            item = QListWidgetItem(f"{RELATION_LABELS[edge.relation]}  ·  {other.title}  "
                                   f"({theme.KIND_LABELS[other.kind].lower()})")
            item.setData(Qt.ItemDataRole.UserRole, (str(edge.id), str(other.id)))
            item.setToolTip(f"{edge.relation.value} since "
                            f"{theme.when_text(edge.valid_from or edge.created_at, now)}"
                            + (" · derived" if edge.derived_by else ""))
            self.links.addItem(item)
        if not detail.links:
            placeholder = QListWidgetItem("No links yet — link it to a person, a note or a reminder below.")
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.links.addItem(placeholder)
        closed = f", {detail.closed} closed" if detail.closed else ""
        self.links_title.setText(f"LINKS ({len(detail.links)} open{closed})")
        self._update_link_buttons()

        is_contact = n.kind is Kind.CONTACT
        for w in (self.timeline_title, self.timeline_note, self.timeline):
            w.setVisible(is_contact)
        if is_contact:
            self.timeline_title.setText(f"What you know about {n.title}")
            if not same:
                self.timeline.set_rows([])
                self.timeline_note.setText("Loading…")
            self._load_timeline(n)
        self.stack.setCurrentIndex(1)

    def _fit_body(self) -> None:
        """As tall as its text (3 to 9 lines)."""
        fm = self.body.fontMetrics()
        width = max(self.body.viewport().width() - 12, 200)
        text = self.body.toPlainText() or " "
        rect = fm.boundingRect(0, 0, width, 100000, int(Qt.TextFlag.TextWordWrap), text)
        lines = max(3, min(9, rect.height() // max(fm.lineSpacing(), 1) + 1))
        self.body.setFixedHeight(lines * fm.lineSpacing() + 18)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit_body()

    def _load_timeline(self, contact: Neuron) -> None:
        generation = self._generation

        def shown(tl: ops.Timeline) -> None:
            if generation != self._generation:
                return
            self.timeline.set_rows(tl.entries)
            if not tl.entries:
                self.timeline_note.setText("Nothing mentions them yet.")
            else:
                count = len(tl.entries)
                self.timeline_note.setText(f"{count} thing{'s' if count != 1 else ''}")

        self.ctx.run(lambda m: ops.timeline(m, contact), shown, "timeline")

    def _build_form(self, n: Neuron) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self._fields = {}
        now = self.ctx.now()
        if n.kind is Kind.REMINDER:
            due = QLineEdit(inputs.due_field_text(remind.current_due(n)))
            due.setPlaceholderText("no due time — e.g. 2025-06-13 10:00, 14:30, in 10 min")
            due.setAccessibleName("Due")
            due.textEdited.connect(self._touched)
            self._fields["due_at"] = due
            due_hint = QLabel()
            due_hint.setObjectName("hint")
            current = remind.current_due(n)
            if current is not None:
                due_hint.setText(theme.relative(current, now))
            row = QHBoxLayout()
            row.addWidget(due, 1)
            row.addWidget(due_hint)
            self.form.addRow("Due", row)
            repeat = QComboBox()
            repeat.setEditable(True)
            repeat.setAccessibleName("Repeat")
            for label, _ in inputs.REPEATS:
                repeat.addItem(label)
            repeat.setCurrentText(inputs.repeat_label(n.attrs.get("rrule")))
            repeat.currentTextChanged.connect(self._touched)
            self._fields["rrule"] = repeat  # type: ignore[assignment]
            self.form.addRow("Repeat", repeat)
            for key, label in (("snoozed_until", "Snoozed until"), ("notified_at", "Shown")):
                value = n.attrs.get(key)
                if value:
                    try:
                        text = theme.when_text(remind.parse_time(value), now)
                    except NeuronsError:
                        text = str(value)
                    info = QLabel(text)
                    info.setObjectName("subtle")
                    self.form.addRow(label, info)
        elif n.kind is Kind.CONTACT:
            for key, label in CONTACT_FIELDS:
                if key not in ALWAYS_SHOWN and key not in n.attrs:
                    continue
                self._add_field(key, label, n.attrs.get(key))
            hidden = [k for k in ON_REQUEST if k not in self._fields]
            if hidden:
                more = QPushButton("More fields: " + ", ".join(dict(CONTACT_FIELDS)[k].lower() for k in hidden))
                more.setAccessibleName("More fields")
                more.setObjectName("linkButton")
                more.setCursor(Qt.CursorShape.PointingHandCursor)

                def reveal() -> None:
                    self.form.removeRow(self.form.rowCount() - 1)
                    for key in hidden:
                        self._add_field(key, dict(CONTACT_FIELDS)[key], None)
                    self._fields[hidden[0]].setFocus()

                more.clicked.connect(reveal)
                self.form.addRow("", more)
        else:
            self._add_field("tags", "Tags", n.attrs.get("tags"))
        self.form_host.setVisible(self.form.rowCount() > 0)

    def _add_field(self, key: str, label: str, value: Any) -> None:
        text = ", ".join(str(v) for v in value) if isinstance(value, list) else ("" if value is None else str(value))
        edit = QLineEdit(text)
        edit.setAccessibleName(label)
        if key in LIST_KEYS:
            edit.setPlaceholderText("separate with commas")
        edit.textEdited.connect(self._touched)
        self._fields[key] = edit
        self.form.addRow(label, edit)

    def _touched(self, *_: object) -> None:
        if self.neuron is None:
            return
        self._dirty = True
        self.save_button.setEnabled(True)
        self.save_note.setText("edited")

    # -- saving ------------------------------------------------------------------------------------

    def _changes(self) -> tuple[str | None, dict[str, Any], tuple | None]:
        """(new text or None, attrs changes, reschedule (due, rrule) or None). Raises InvalidInput."""
        n = self.neuron
        assert n is not None
        text = self.body.toPlainText()
        new_text = text if text != n.body else None
        attrs: dict[str, Any] = {}
        schedule = None
        if n.kind is Kind.REMINDER:
            due_edit: QLineEdit = self._fields["due_at"]
            repeat: QComboBox = self._fields["rrule"]  # type: ignore[assignment]
            old_due = remind.current_due(n)
            due_text = due_edit.text().strip()
            if due_text == inputs.due_field_text(old_due):
                due = old_due
            else:
                due = inputs.parse_due(due_text, self.ctx.now())
            rule = inputs.repeat_value(repeat.currentText())
            if rule:
                remind.validate_rrule(rule, due or self.ctx.now())
            old_rule = inputs.repeat_value(inputs.repeat_label(n.attrs.get("rrule")))
            if due != old_due or rule != old_rule:
                schedule = (due, rule or None)
        else:
            for key, edit in self._fields.items():
                raw = edit.text().strip()
                if key in LIST_KEYS:
                    value: Any = inputs.split_list(raw) or None
                else:
                    value = raw or None
                old = n.attrs.get(key)
                if (value or None) != (old or None):
                    attrs[key] = value
        return new_text, attrs, schedule

    def save(self) -> None:
        if self.neuron is None or not self._dirty:
            return
        try:
            new_text, attrs, schedule = self._changes()
        except NeuronsError as exc:
            self.error.setText(str(exc))
            return
        nid = str(self.neuron.id)
        if new_text is not None and not new_text.strip():
            self.error.setText("The text cannot be empty: trash it instead.")
            return

        def write(m) -> ops.Detail:
            if new_text is not None:
                m.edit(nid, text=new_text)
            if attrs:
                m.update_attrs(nid, **attrs)
            if schedule is not None:
                m.reschedule(nid, schedule[0], schedule[1])
            return ops.detail(m, nid)

        def written(detail: ops.Detail) -> None:
            self.saved.emit(nid)
            if self.current_id == nid:
                self._dirty = False
                self._fill(detail)
                self.save_note.setText("Saved ✓")
            self.ctx.report("Saved")

        def refused(exc: BaseException) -> None:
            if self.current_id == nid:
                self.error.setText(str(exc))
            else:
                self.ctx.failed(exc)

        self._dirty = False
        self.save_button.setEnabled(False)
        self.save_note.setText("Saving…")
        self.ctx.run(write, written, "save", refused)

    # -- actions -----------------------------------------------------------------------------------

    def _act(self, fn: Callable, message: str) -> None:
        if self.neuron is None:
            return
        if self._dirty:
            self.save()
        nid = str(self.neuron.id)

        def done(_: object) -> None:
            self.ctx.report(message)
            if self.current_id == nid:
                self.show_id(nid, force=True)

        self.ctx.run(lambda m: fn(m, nid), done, message)

    def mark_done(self) -> None:
        if self.neuron is None or self.neuron.state is not State.ACTIVE:
            return
        now = self.ctx.now()
        self._act(lambda m, nid: m.complete(nid, now), "Done")

    def snooze_for(self, delta: timedelta) -> None:
        now = self.ctx.now()
        self._act(lambda m, nid: m.snooze(nid, now, delta), "Snoozed")

    def snooze_tomorrow(self) -> None:
        now = self.ctx.now()
        local = now.astimezone(remind.local_zone())
        until = (local + timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
        self._act(lambda m, nid: m.snooze(nid, now, until=until), "Snoozed to tomorrow 9:00")

    def set_state(self, state: State) -> None:
        words = {State.ARCHIVED: "Archived", State.TRASHED: "Moved to the trash",
                 State.ACTIVE: "Restored", State.DONE: "Done"}
        self._act(lambda m, nid: m.set_state(nid, state), words[state])

    # -- links -------------------------------------------------------------------------------------

    def _update_link_buttons(self) -> None:
        item = self.links.currentItem()
        has = item is not None and item.data(Qt.ItemDataRole.UserRole) is not None
        self.open_link_button.setEnabled(has)
        self.close_link_button.setEnabled(has)

    def _open_link(self, item: QListWidgetItem | None) -> None:
        if item is None or item.data(Qt.ItemDataRole.UserRole) is None:
            return
        _, other = item.data(Qt.ItemDataRole.UserRole)
        self.open_neuron.emit(other)

    def close_link(self) -> None:
        item = self.links.currentItem()
        if item is None or item.data(Qt.ItemDataRole.UserRole) is None:
            return
        edge_id, _ = item.data(Qt.ItemDataRole.UserRole)
        self._act(lambda m, nid: m.unlink(edge_id), "Link closed")

    def _search_candidates(self) -> None:
        if self.neuron is None:
            return
        text = self.link_search.text()
        me = self.neuron.id
        generation = self._generation

        def found(neurons: list[Neuron]) -> None:
            if generation != self._generation or text != self.link_search.text():
                return
            self.candidates.clear()
            linked = {str(o.id) for _, o in (self.detail.links if self.detail else [])}
            for n in neurons:
                mark = "  (linked)" if str(n.id) in linked else ""
                item = QListWidgetItem(f"{n.title}  —  {theme.KIND_LABELS[n.kind].lower()}{mark}")
                item.setData(Qt.ItemDataRole.UserRole, str(n.id))
                self.candidates.addItem(item)
            if not neurons and text.strip():
                item = QListWidgetItem(f"Nothing matches “{text.strip()}”")
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                self.candidates.addItem(item)
            self.candidates.setVisible(bool(text.strip()))
            if neurons:
                self.candidates.setCurrentRow(0)

        self.ctx.run(lambda m: ops.link_candidates(m, text, me), found, "link search")

    def _link_first(self) -> None:
        item = self.candidates.currentItem() or (self.candidates.item(0) if self.candidates.count() else None)
        self._link_candidate(item)

    def _link_candidate(self, item: QListWidgetItem | None) -> None:
        if item is None or self.neuron is None or item.data(Qt.ItemDataRole.UserRole) is None:
            return
        other = item.data(Qt.ItemDataRole.UserRole)
        relation = self.link_relation.currentData()
        self.link_search.clear()
        self.candidates.clear()
        self.candidates.hide()
        self._act(lambda m, nid: m.link(nid, other, relation), "Linked")

    def eventFilter(self, obj, event) -> bool:  # arrow keys move in the candidates from the box
        from PySide6.QtCore import QEvent  # noqa: PLC0415

        if obj is self.link_search and event.type() == QEvent.Type.KeyPress and self.candidates.isVisible():
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up):
                row = self.candidates.currentRow() + (1 if event.key() == Qt.Key.Key_Down else -1)
                self.candidates.setCurrentRow(max(0, min(row, self.candidates.count() - 1)))
                return True
            if event.key() == Qt.Key.Key_Escape:
                self.candidates.hide()
                return True
        return super().eventFilter(obj, event)

