"""The detail pane: edit a neuron in place, act on it, see and change its links; for a contact,
the answer to "what do you know about X" as a timeline."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core import remind
from core.actions import actions_for
from core.model import Edit, Kind, Neuron, NeuronsError, Schedule, State
from core.vocabulary import ItemAction
from desktop.capture import inputs
from desktop.detail import card
from desktop.detail.links import LinksPanel, section_label
from desktop.items import reads
from desktop.items.rows import RowList
from desktop.look import keys, theme
from desktop.look.widgets import ErrorLine
from desktop.runtime.context import Context

if TYPE_CHECKING:
    from core.memory import Memory

log = logging.getLogger(__name__)

CONTACT_FIELDS = [
    ("name", "Name"),
    ("aliases", "Also called"),
    ("phones", "Phones"),  # one field for the list and the single value an older card holds
    ("emails", "Emails"),
    ("birthday", "Birthday"),
    ("org", "Organisation"),
]
LIST_KEYS = {"aliases", "phones", "emails", "tags"}
SINGLE = {"phones": "phone", "emails": "email"}  # the single value a list field replaces
ALWAYS_SHOWN = {"name", "aliases", "phones", "emails"}
ON_REQUEST = ["birthday", "org"]  # offered by "More fields" when empty
# The restore button says what it undoes.
RESTORE_LABELS = {
    State.DONE: ("Not done", "Make it active again: not done after all"),
    State.ARCHIVED: ("Unarchive", "Bring it back from the archive"),
    State.TRASHED: ("Restore", "Take it out of the trash"),
}
# The window's Item menu names its actions so (a repeating reminder's "done this time" is its Done).
MENU_NAMES = {
    ItemAction.DONE: "done",
    ItemAction.DONE_THIS_TIME: "done",
    ItemAction.SNOOZE: "snooze",
    ItemAction.ARCHIVE: "archive",
    ItemAction.TRASH: "trash",
}
SNOOZES = [timedelta(minutes=10), timedelta(hours=1), timedelta(hours=3)]
DUE_HINT_TICK_MS = 1000


class DetailPane(QWidget):
    open_neuron = Signal(str)  # show another item
    saved = Signal(str)
    showing = Signal(bool)  # it shows an item (False: nothing to show)
    item_changed = Signal()  # what it shows, or whether it is edited, changed
    back = Signal()  # Esc with nothing to cancel: back to the list

    def __init__(self, ctx: Context, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("detail")
        self.neuron: Neuron | None = None
        self.detail: reads.Detail | None = None
        self._fields: dict[str, QLineEdit] = {}
        self._dirty = False
        # the window's filter that lets item shortcuts through text fields
        self.item_keys: QObject | None = None
        self._loading_id: str | None = None
        self._generation = 0
        self._due_hint: tuple[QLabel, datetime | None] | None = None  # "in 5 min" beside Due
        self._due_preview = False  # the Due field was edited: its hint says what it understood
        self._due_unread = ""  # why what the Due field says cannot be read ("" when it can)
        self._due_doubt: str | None = None  # how what the Due field says may be misread ("05/06 …")
        self._tick = QTimer(self)
        self._tick.setInterval(DUE_HINT_TICK_MS)
        self._tick.timeout.connect(self._tick_due_hint)
        self._tick.start()

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
        self.error = ErrorLine()
        save_row.addWidget(self.save_button)
        save_row.addWidget(self.save_note)
        save_row.addStretch(1)
        lay.addLayout(save_row)
        lay.addWidget(self.error)

        # actions
        actions = QHBoxLayout()
        self.done_button = self._action_button("Done", f"Mark done ({keys.label('done')})", self.mark_done)
        self.snooze_button = QToolButton()
        self.snooze_button.setText("Snooze ▾")
        self.snooze_button.setAccessibleName("Snooze")
        self.snooze_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.snooze_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.snooze_button.setMenu(QMenu(self.snooze_button))
        self.update_snooze_labels()
        self.archive_button = self._action_button(
            "Archive",
            f"Archive: keep it out of the lists ({keys.label('archive')})",
            lambda: self.set_state(State.ARCHIVED),
        )
        self.trash_button = self._action_button(
            "Trash", "Move to the trash (Delete in the list)", lambda: self.set_state(State.TRASHED)
        )
        self.restore_button = self._action_button(
            "Restore", "Make it active again", lambda: self.set_state(State.ACTIVE)
        )
        for w in (
            self.done_button,
            self.snooze_button,
            self.archive_button,
            self.trash_button,
            self.restore_button,
        ):
            actions.addWidget(w)
        actions.addStretch(1)
        lay.addLayout(actions)

        # contact timeline
        self.timeline_title = section_label("Timeline")
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
        self.linker = LinksPanel(ctx)
        self.linker.open_neuron.connect(self.open_neuron)
        self.linker.act.connect(self._link_act)
        lay.addWidget(self.linker)
        lay.addStretch(1)

        # Esc: close the link suggestions, else cancel the edit, else back to the list
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(self.escape)
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

    def shows(self, nid: str) -> bool:
        """It shows that item and is not about to show another."""
        return self.current_id == nid and self._loading_id in (None, nid)

    @property
    def dirty(self) -> bool:
        return self._dirty

    def clear(self) -> None:
        self.neuron = None
        self.detail = None
        self._dirty = False
        self.stack.setCurrentIndex(0)
        self.showing.emit(False)
        self.item_changed.emit()

    def capabilities(self) -> set[str]:
        """What can be done to the item shown now, by the names of the window's Item menu."""
        n = self.neuron
        if n is None:
            return set()
        caps = {MENU_NAMES[a] for a in actions_for(n) if a in MENU_NAMES}
        return (caps | {"save"}) if self._dirty else caps

    def escape(self) -> None:
        if self.linker.close_suggestions():
            pass
        elif self._dirty and self.detail is not None:
            self.cancel_edit()
        else:
            self.back.emit()

    def cancel_edit(self) -> None:
        """Put back what is saved (the edit is dropped)."""
        if self.detail is None:
            return
        focused = self.focusWidget()
        key = (
            next((k for k, w in self._fields.items() if w is focused or w.isAncestorOf(focused)), None)
            if focused is not None
            else None
        )
        self._dirty = False
        self.body.blockSignals(True)
        self.body.setPlainText(self.detail.neuron.body)
        self.body.blockSignals(False)
        self._fill(self.detail)
        self.save_note.setText("")
        self.ctx.report("Changes cancelled")
        (self._fields[key] if key in self._fields else self.body).setFocus()

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

        def loaded(detail: reads.Detail) -> None:
            if generation == self._generation:
                self._loading_id = None
                self._fill(detail)

        def missing(exc: BaseException) -> None:
            if generation == self._generation:
                self._loading_id = None
                if isinstance(exc, NeuronsError):
                    self.clear()
                else:
                    self.ctx.failed(exc, "detail")

        (
            self.ctx.read(lambda m: reads.detail(m, neuron_id))
            .on_success(loaded)
            .on_failure(missing)
            .run("detail")
        )

    def reload(self) -> None:
        """Show again what is shown (or about to be): the store changed."""
        target = self._loading_id or self.current_id
        if target and not self._dirty:
            self.show_id(target, force=True)

    def _fill(self, detail: reads.Detail) -> None:
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
            state = theme.word("overdue")
        self.state_label.setText(state)
        self.state_label.setStyleSheet(f"color: {theme.OVERDUE};" if overdue else "")
        self.created_label.setText(
            theme.word("created").format(theme.when_text(n.created_at, now)) if n.created_at else ""
        )
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
        offered = actions_for(n)
        self.done_button.setVisible(bool(offered & {ItemAction.DONE, ItemAction.DONE_THIS_TIME}))
        self.done_button.setText("Done (this time)" if ItemAction.DONE_THIS_TIME in offered else "Done")
        self.snooze_button.setVisible(ItemAction.SNOOZE in offered)
        self.archive_button.setVisible(ItemAction.ARCHIVE in offered)
        self.trash_button.setVisible(ItemAction.TRASH in offered)
        self.restore_button.setVisible(ItemAction.RESTORE in offered)
        label, tip = RESTORE_LABELS.get(n.state, ("Restore", "Make it active again"))
        self.restore_button.setText(label)
        self.restore_button.setAccessibleName(label)
        self.restore_button.setToolTip(tip)

        self.linker.show_links(detail, now)

        is_contact = n.kind is Kind.CONTACT
        for w in (self.timeline_title, self.timeline_note, self.timeline):
            w.setVisible(is_contact)
        if is_contact:
            self.timeline_title.setText(f"What you know about {n.title}")
            if not same:
                self.timeline.set_rows([])
                self.timeline_note.setText("Loading…")
            self._load_timeline(n)
        self._set_tab_order()
        self.stack.setCurrentIndex(1)
        self.showing.emit(True)
        self.item_changed.emit()

    def _fit_body(self) -> None:
        """As tall as its text (3 to 9 lines)."""
        fm = self.body.fontMetrics()
        width = max(self.body.viewport().width() - 12, 200)
        text = self.body.toPlainText() or " "
        rect = fm.boundingRect(0, 0, width, 100000, int(Qt.TextFlag.TextWordWrap), text)
        lines = max(3, min(9, rect.height() // max(fm.lineSpacing(), 1) + 1))
        self.body.setFixedHeight(lines * fm.lineSpacing() + 18)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit_body()

    def _load_timeline(self, contact: Neuron) -> None:
        generation = self._generation

        def shown(tl: reads.Timeline) -> None:
            if generation != self._generation:
                return
            self.timeline.set_rows(tl.entries)
            if not tl.entries:
                self.timeline_note.setText("Nothing mentions them yet.")
            else:
                count = len(tl.entries)
                self.timeline_note.setText(f"{count} thing{'s' if count != 1 else ''}")

        self.ctx.read(lambda m: reads.timeline(m, contact)).on_success(shown).run("timeline")

    def _tick_due_hint(self) -> None:
        """The due hint moves on with the clock (the rest of the pane with the next change)."""
        if self._due_hint is not None and self.isVisible():
            self._render_due_hint()

    def _preview_due(self, text: str) -> None:
        """As the Due field is typed: what the capture grammar reads in it, beside it ("?" and the
        reason in the tooltip when it reads nothing); saved with Enter or Save."""
        if self._due_hint is None or self.neuron is None:
            return
        label = self._due_hint[0]
        try:
            due, self._due_unread = inputs.parse_due(text, self.ctx.now()), ""
        except NeuronsError as exc:
            due, self._due_unread = None, str(exc)
        self._due_hint = (label, due)
        self._due_preview = text.strip() != inputs.due_field_text(remind.current_due(self.neuron))
        self._due_doubt = inputs.due_doubt(text, self.ctx.now()) if due is not None else None
        said = self._due_unread or self._due_doubt or ""
        label.setToolTip(said)
        label.setAccessibleDescription(said)
        self._render_due_hint()

    def _render_due_hint(self) -> None:
        """How far off the due time is; while edited, first the time it read, in words."""
        if self._due_hint is None:
            return
        label, due = self._due_hint
        now = self.ctx.now()
        if self._due_unread:
            label.setText("?")
            return
        if due is None:
            label.setText(theme.word("no_due") if self._due_preview else "")
            return
        relative = theme.relative(due, now)
        said = f"{theme.when_text(due, now)} · {relative}" if self._due_preview else relative
        if self._due_preview and self._due_doubt:  # "05/06": said which way it was read
            said += f" ({self._due_doubt})"
        label.setText(said)

    def _build_form(self, n: Neuron) -> None:
        self._due_hint = None  # its label goes with the rows
        while self.form.rowCount():
            self.form.removeRow(0)
        self._fields = {}
        now = self.ctx.now()
        if ItemAction.RESCHEDULE in actions_for(n):
            due = QLineEdit(inputs.due_field_text(remind.current_due(n)))
            due.setPlaceholderText(inputs.due_example(self.ctx.now()))
            due.setAccessibleName("Due")
            due.textEdited.connect(self._touched)
            due.textEdited.connect(self._preview_due)
            due.returnPressed.connect(self.save)
            self._keys_through(due)
            self._fields["due_at"] = due
            due_hint = QLabel()
            due_hint.setObjectName("hint")
            self._due_hint = (due_hint, remind.current_due(n))  # ticks (see _tick)
            self._due_preview, self._due_unread, self._due_doubt = False, "", None
            self._render_due_hint()
            row = QHBoxLayout()
            row.addWidget(due, 1)
            row.addWidget(due_hint)
            self.form.addRow("Due", row)
            repeat = QComboBox()
            repeat.setEditable(True)
            repeat.setAccessibleName("Repeat")
            for label, _ in inputs.REPEATS:
                repeat.addItem(label)
            repeat.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)  # Enter saves, adds no entry
            repeat.setCurrentText(inputs.repeat_label(n.attrs.get("rrule")))
            repeat.currentTextChanged.connect(self._touched)
            line = repeat.lineEdit()
            if line is not None:
                line.returnPressed.connect(self.save)
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
            from core.capture import contact_values  # noqa: PLC0415 - loaded after the window's first paint

            for key, label in CONTACT_FIELDS:
                if key not in ALWAYS_SHOWN and key not in n.attrs:
                    continue
                self._add_field(key, label, self._stored_value(n, key))
                if key in SINGLE:
                    labels = n.attrs.get(f"{key[:-1]}_labels")
                    said = card.labelled(
                        contact_values(n.attrs, key),
                        labels if isinstance(labels, dict) else {},
                        theme.contact_shown(n.attrs, key),
                    )
                    if said:
                        self.form.addRow("", _read_only(said, "hint"))
            for label, text in card.rows(n.attrs):
                self.form.addRow(label, _read_only(text))
            hidden = [k for k in ON_REQUEST if k not in self._fields]
            if hidden:
                more = QPushButton(
                    "More fields: " + ", ".join(dict(CONTACT_FIELDS)[k].lower() for k in hidden)
                )
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

    @staticmethod
    def _stored_value(n: Neuron, key: str) -> Any:
        return (
            theme.contact_shown(n.attrs, key)
            if key in SINGLE and n.kind is Kind.CONTACT
            else n.attrs.get(key)
        )

    def _add_field(self, key: str, label: str, value: Any) -> None:
        edit = QLineEdit(_attr_text(value))
        self._keys_through(edit)
        edit.setAccessibleName(label)
        if key in LIST_KEYS:
            edit.setPlaceholderText("separate with commas")
        edit.textEdited.connect(self._touched)
        edit.returnPressed.connect(self.save)  # Enter saves, as the Due field
        self._fields[key] = edit
        self.form.addRow(label, edit)

    def _keys_through(self, edit: QLineEdit) -> None:
        if self.item_keys is not None:
            edit.installEventFilter(self.item_keys)

    def _set_tab_order(self) -> None:
        """Text, then every field in the form's order, the buttons, the links: as they read."""
        chain: list[QWidget] = [self.body]
        for row in range(self.form.rowCount()):
            item = self.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if item is None:
                continue
            widget = item.widget()
            inner = item.layout()
            first = inner.itemAt(0) if inner is not None and inner.count() else None
            if widget is None and first is not None:
                widget = first.widget()
            if isinstance(widget, (QLineEdit, QComboBox, QPushButton)):
                chain.append(widget)
        chain += [
            self.save_button,
            self.done_button,
            self.snooze_button,
            self.archive_button,
            self.trash_button,
            self.restore_button,
            self.timeline,
            *self.linker.tab_chain(),
        ]
        for a, b in itertools.pairwise(chain):
            QWidget.setTabOrder(a, b)

    def _stored_text(self, key: str) -> str:
        """What a field shows for the item as it is saved."""
        n = self.neuron
        assert n is not None
        if key == "due_at":
            return inputs.due_field_text(remind.current_due(n))
        if key == "rrule":
            return inputs.repeat_label(n.attrs.get("rrule"))
        return _attr_text(self._stored_value(n, key))

    def _differs(self) -> bool:
        if self.neuron is None:
            return False
        if self.body.toPlainText() != self.neuron.body:
            return True
        for key, widget in self._fields.items():
            text = widget.currentText() if isinstance(widget, QComboBox) else widget.text()
            if text.strip() != self._stored_text(key).strip():
                return True
        return False

    def _touched(self, *_: object) -> None:
        """Edited means: differs from what is saved (typing undone is not an edit)."""
        if self.neuron is None:
            return
        dirty = self._differs()
        if dirty != self._dirty or dirty:
            self._dirty = dirty
            self.save_button.setEnabled(dirty)
            self.save_note.setText("edited" if dirty else "")
            self.item_changed.emit()

    # -- saving ------------------------------------------------------------------------------------

    def _changes(self) -> Edit:
        """What the fields say differs from the saved item. Raises InvalidInput."""
        n = self.neuron
        assert n is not None
        text = self.body.toPlainText()
        new_text = text if text != n.body else None
        attrs: dict[str, Any] = {}
        schedule: Schedule | None = None
        if ItemAction.RESCHEDULE in actions_for(n):
            due_edit: QLineEdit = self._fields["due_at"]
            repeat: QComboBox = self._fields["rrule"]  # type: ignore[assignment]
            old_due = remind.current_due(n)
            due_text = due_edit.text().strip()
            if due_text == inputs.due_field_text(old_due):
                due = old_due
            else:
                due = inputs.parse_due(due_text, self.ctx.now())
            stored_rule = n.attrs.get("rrule")
            rule = inputs.repeat_value(repeat.currentText(), stored_rule)
            if rule:
                remind.validate_rrule(rule, due or self.ctx.now())
            old_rule = inputs.repeat_value(inputs.repeat_label(stored_rule), stored_rule)
            if due != old_due or rule != old_rule:
                schedule = Schedule(due, rule or None)
            if due != old_due and new_text is None:  # the old time words would contradict the new time
                from core.when import retimed  # noqa: PLC0415 - loaded after the window's first paint

                new_text = retimed(n.body, n.created_at or n.updated_at) or None
                if new_text is not None and n.attrs.get("title"):
                    attrs["title"] = n.attrs["title"]  # it had no time words: it stays as it was
        else:
            for key, widget in self._fields.items():
                raw = widget.text().strip()
                if key in LIST_KEYS:
                    value: Any = inputs.split_list(raw) or None
                else:
                    value = raw or None
                old = self._stored_value(n, key)
                if (value or None) != (old or None):
                    attrs[key] = value
                    if key in SINGLE:
                        attrs[SINGLE[key]] = None  # the list says it now
        return Edit(new_text, attrs, schedule)

    def save(self) -> None:
        if self.neuron is None or not self._dirty:
            return
        try:
            edit = self._changes()
        except NeuronsError as exc:
            self.error.setText(str(exc))
            return
        nid = str(self.neuron.id)
        if edit.text is not None and not edit.text.strip():
            self.error.setText("The text cannot be empty: trash it instead.")
            return

        def write(m: Memory) -> tuple[Neuron, reads.Detail]:
            before = m.get(nid)
            m.update(nid, edit)
            return before, reads.detail(m, nid)

        def written(result: tuple[Neuron, reads.Detail]) -> None:
            before, detail = result
            self.saved.emit(nid)
            if self.shows(nid):
                if self._dirty:  # typed on while it saved: keep that typing, compare with the saved
                    self.neuron, self.detail = detail.neuron, detail
                    self._touched()
                else:
                    self._fill(detail)
                    self.save_note.setText("Saved ✓")
            self.ctx.undoable(f"Saved “{detail.neuron.title}”", before, detail.neuron)

        def refused(exc: BaseException) -> None:
            if self.shows(nid):
                self._dirty = True
                self.save_button.setEnabled(True)
                self.save_note.setText("not saved")
                self.error.setText(str(exc))
            else:
                self.ctx.failed(exc, "save")

        self._dirty = False
        self.save_button.setEnabled(False)
        self.save_note.setText("Saving…")
        self.item_changed.emit()
        self.ctx.write(write).on_success(written).on_failure(refused).run("save")

    # -- actions -----------------------------------------------------------------------------------

    def _act(self, fn: Callable, say: Callable[[Neuron], str]) -> None:
        """An undoable action on the item shown (its edit saved first)."""
        if self.neuron is None:
            return
        if self._dirty:
            self.save()
        nid = str(self.neuron.id)

        def done(_after: Neuron) -> None:
            if self.shows(nid):
                self.show_id(nid, force=True)

        self.ctx.change(nid, lambda m: fn(m, nid), say, done)

    def mark_done(self) -> None:
        if "done" not in self.capabilities():
            return
        now = self.ctx.now()
        self._act(
            lambda m, nid: m.complete(nid, now),
            lambda n: (
                f"Done: {n.title}"
                if n.state is State.DONE
                else f"Done this time: {n.title}, next {theme.when_text(remind.current_due(n), now)}"
            ),
        )

    def snooze_default(self) -> None:
        if "snooze" in self.capabilities():
            self.snooze_for(self._snooze())

    def _snooze(self) -> timedelta:
        return self.ctx.prefs.snooze if self.ctx.prefs is not None else remind.SNOOZE_DEFAULT

    def snooze_for(self, delta: timedelta) -> None:
        now = self.ctx.now()
        self._act(
            lambda m, nid: m.snooze(nid, now, delta), lambda n: f"Snoozed for {_duration(delta)}: {n.title}"
        )

    def snooze_tomorrow(self) -> None:
        now = self.ctx.now()
        local = now.astimezone(remind.local_zone())
        until = (local + timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
        self._act(
            lambda m, nid: m.snooze(nid, now, until=until), lambda n: f"Snoozed to tomorrow 9:00: {n.title}"
        )

    def update_snooze_labels(self) -> None:
        """The snooze menu: the time set in Preferences first (Ctrl+L), then the others."""
        menu = self.snooze_button.menu()
        menu.clear()
        default = self._snooze()
        choices = [default] + [d for d in SNOOZES if d != default]
        for delta in choices:
            text = _duration(delta) + (f"\t{keys.label('snooze')}" if delta == default else "")
            act = QAction(text, menu)
            act.triggered.connect(lambda _=False, d=delta: self.snooze_for(d))
            menu.addAction(act)
        tomorrow = QAction("Tomorrow morning", menu)
        tomorrow.triggered.connect(self.snooze_tomorrow)
        menu.addAction(tomorrow)
        self.snooze_button.setToolTip(f"Snooze ({keys.label('snooze')}: {_duration(default)})")

    def set_state(self, state: State) -> None:
        words = {
            State.ARCHIVED: "Archived",
            State.TRASHED: "Moved to the trash",
            State.ACTIVE: "Restored",
            State.DONE: "Done",
        }
        if self.neuron is None or self.neuron.state is state:
            return
        self._act(lambda m, nid: m.set_state(nid, state), lambda n: f"{words[state]}: {n.title}")

    # -- links -------------------------------------------------------------------------------------

    def _link_act(self, fn: Callable, message: str) -> None:
        if self.neuron is None:
            return
        nid = str(self.neuron.id)

        def done(_: object) -> None:
            self.ctx.report(message)
            if self.shows(nid):
                self.show_id(nid, force=True)

        self.ctx.write(lambda m: fn(m, nid)).on_success(done).run(message)


def _read_only(text: str, name: str = "subtle") -> QLabel:
    """A field the card shows, not edits: selectable, to copy."""
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def _attr_text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return "" if value is None else str(value)


def _duration(delta: timedelta) -> str:
    minutes = int(delta.total_seconds() // 60)
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minutes"
