"""Quick capture: a small always-on-top box. Type; it shows what it understood (kind, due time,
people), which can be corrected; Enter saves, Esc cancels."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from core import remind
from core.model import InvalidInput, Kind, Neuron, NeuronsError, Relation
from desktop.capture import inputs
from desktop.look import theme
from desktop.look.widgets import ErrorLine
from desktop.runtime.context import Context

if TYPE_CHECKING:
    from core.capture import Update

log = logging.getLogger(__name__)

PREVIEW_DEBOUNCE_MS = 200
HINT_TICK_MS = 1000  # "in 40 s" counts down while the box is open
KINDS = [Kind.NOTE, Kind.REMINDER, Kind.CONTACT]


@dataclass
class Preview:
    text: str
    kind: Kind
    attrs: dict[str, Any]
    people: list[tuple[str, str]] = field(default_factory=list)  # (id, label) of what it links to
    updates: list[Update] = field(default_factory=list)  # contact cards it offers to update
    doubt: str | None = None  # how the due time may have been misread ("05/06 read day first: …")
    no_day: str | None = None  # a date no calendar has, so no due time was read ("30 February is no day")


def understand(memory, text: str, now: datetime | None = None) -> Preview:
    """What capture would make of the text, without saving anything."""
    from core.when import local_now  # noqa: PLC0415 - loaded after the window's first paint

    understanding = memory.preview(text, now=now)
    # the edges capture would insert for this text, seen from a neuron not yet saved
    draft = Neuron(id=uuid.uuid4(), kind=understanding.kind, body=text, attrs=dict(understanding.attrs))
    relation_of: dict[uuid.UUID, Relation] = {}
    for edge in understanding.edges_for(draft):
        other = edge.other(draft.id)
        if other != draft.id:
            relation_of.setdefault(other, edge.relation)
    people: list[tuple[str, str]] = []
    updated = {u.contact_id for u in understanding.updates}
    if relation_of:
        found = memory.get_many(list(relation_of))
        ordered = sorted(found.values(), key=lambda n: (n.kind is not Kind.CONTACT, n.title.lower()))
        for n in ordered:
            if relation_of[n.id] is Relation.SUPERSEDES and n.id in updated:
                continue  # offered as an update of the card instead (below)
            label = n.title if relation_of[n.id] is not Relation.SUPERSEDES else f"replaces: {n.title}"
            people.append((str(n.id), label))
    doubt = inputs.due_doubt(text, now or local_now()) if understanding.attrs.get("due_at") else None
    no_day = None if understanding.attrs.get("due_at") else inputs.no_day(text, now or local_now())
    return Preview(
        text,
        understanding.kind,
        dict(understanding.attrs),
        people,
        list(understanding.updates),
        doubt,
        no_day,
    )


class QuickCapture(QWidget):
    saved = Signal(object)  # the Neuron
    previewed = Signal(object)  # the Preview shown

    def __init__(self, ctx: Context, parent: QWidget | None = None):
        super().__init__(
            parent,
            Qt.WindowType.Window | Qt.WindowType.WindowStaysOnTopHint | Qt.WindowType.FramelessWindowHint,
        )
        self.ctx = ctx
        self.setWindowTitle("Neurons — quick capture")
        self.setWindowIcon(theme.app_icon())
        self.setAccessibleName("Quick capture")
        self.setAttribute(Qt.WidgetAttribute.WA_TranslucentBackground, False)
        self.preview: Preview | None = None
        self._pinned: set[str] = set()
        self._generation = 0
        self._saving = False
        self._hint_due: datetime | None = None  # the moment the hint beside Due counts to
        self._doubt: str | None = None  # the grammar's doubt about the due time shown
        self._no_day: str | None = None  # "30 February is no day": why no due time was read
        self._people_boxes: list[QCheckBox] = []
        self._update_boxes: list[tuple[QCheckBox, Update]] = []

        frame = QFrame(self)
        frame.setObjectName("quickFrame")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(frame)
        lay = QVBoxLayout(frame)
        lay.setContentsMargins(16, 14, 16, 12)
        lay.setSpacing(8)

        self.text = QLineEdit()
        self.text.setObjectName("askBox")
        self.text.setPlaceholderText("What's on your mind?  e.g. “call Ana tomorrow at 10”")
        self.text.setAccessibleName("Capture text")
        self.text.setMinimumWidth(620)
        self.text.textEdited.connect(self._edited)
        self.text.installEventFilter(self)
        lay.addWidget(self.text)

        row = QHBoxLayout()
        row.setSpacing(8)
        understood = QLabel("Understood as")
        understood.setObjectName("subtle")
        row.addWidget(understood)
        self.kind = QComboBox()
        self.kind.setAccessibleName("Kind")
        for k in KINDS:
            self.kind.addItem(theme.KIND_LABELS[k], k.value)
        self.kind.activated.connect(lambda _: self._pin("kind"))
        row.addWidget(self.kind)
        self.due_label = QLabel("due")
        self.due_label.setObjectName("subtle")
        row.addWidget(self.due_label)
        self.due = QLineEdit()
        self.due.setAccessibleName("Due")
        self.due.setPlaceholderText("no due time")
        self.due.setMinimumWidth(150)
        self.due.textEdited.connect(lambda _: self._pin("due"))
        self.due.installEventFilter(self)
        row.addWidget(self.due)
        self.repeat = QComboBox()
        self.repeat.setEditable(True)
        self.repeat.setAccessibleName("Repeat")
        for label, _ in inputs.REPEATS:
            self.repeat.addItem(label)
        self.repeat.activated.connect(lambda _: self._pin("repeat"))
        repeat_text = self.repeat.lineEdit()
        assert repeat_text is not None, "the repeat box is editable"
        repeat_text.textEdited.connect(lambda _: self._pin("repeat"))
        row.addWidget(self.repeat)
        self.due_hint = QLabel()
        self.due_hint.setObjectName("hint")
        row.addWidget(self.due_hint)
        row.addStretch(1)
        lay.addLayout(row)
        # a numeric date either way round ("05/06"): what was read, and that it could be the other
        self.due_doubt = QLabel()
        self.due_doubt.setObjectName("hint")
        self.due_doubt.setWordWrap(True)
        self.due_doubt.setAccessibleName("Due time doubt")
        self.due_doubt.hide()
        lay.addWidget(self.due_doubt)

        self.people_row = QHBoxLayout()
        self.people_label = QLabel("Links to")
        self.people_label.setObjectName("subtle")
        self.people_row.addWidget(self.people_label)
        self.people_row.addStretch(1)
        lay.addLayout(self.people_row)

        self.error = ErrorLine(resized=self._fit)
        lay.addWidget(self.error)
        bottom = QHBoxLayout()
        self.hint = QLabel("Enter saves · Esc cancels · Tab to correct")
        self.hint.setObjectName("hint")
        bottom.addWidget(self.hint)
        bottom.addStretch(1)
        lay.addLayout(bottom)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(PREVIEW_DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh_preview)
        self._hint_timer = QTimer(self)
        self._hint_timer.setInterval(HINT_TICK_MS)
        self._hint_timer.timeout.connect(self._render_due_hint)
        self._update_kind_fields()
        self.kind.currentIndexChanged.connect(lambda _: self._update_kind_fields())
        frame.setStyleSheet(
            "#quickFrame { border: 1px solid palette(mid); border-radius: 12px;"
            " background: palette(window); }"
        )

    # -- showing -----------------------------------------------------------------------------------

    def _fit(self) -> None:
        """Grow (or shrink back) to what it shows, at the same width: never squeeze the text."""
        width = self.width()
        self.adjustSize()
        self.resize(max(width, self.width()), self.height())

    def open(self, text: str = "") -> None:
        self.reset()
        if text:
            self.text.setText(text)
            self._edited(text)
        screen = QGuiApplication.primaryScreen()
        self.adjustSize()
        if screen is not None:
            geo = screen.availableGeometry()
            self.move(geo.center().x() - self.width() // 2, geo.top() + geo.height() // 4)
        self.show()
        self.raise_()
        self.activateWindow()
        self.text.setFocus(Qt.FocusReason.ActiveWindowFocusReason)

    def reset(self) -> None:
        self._generation += 1
        self._pinned.clear()
        self._saving = False
        self.preview = None
        self.text.clear()
        self.text.setEnabled(True)
        self.due.clear()
        self.kind.setCurrentIndex(0)
        self.repeat.setCurrentIndex(0)
        self.error.clear()
        self._hint_due = None
        self.due_hint.clear()
        self._doubt = None
        self._no_day = None
        self._show_doubt()
        self._set_people([])

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._hint_timer.start()

    def hideEvent(self, event) -> None:
        self._hint_timer.stop()
        super().hideEvent(event)

    def cancel(self) -> None:
        self.hide()
        self.reset()

    # -- understanding -----------------------------------------------------------------------------

    def _edited(self, _text: str) -> None:
        self.error.clear()
        self._timer.start()

    def _pin(self, what: str) -> None:
        self._pinned.add(what)
        self.error.clear()
        self._update_kind_fields()
        if what == "due":
            self._show_due_hint()

    def refresh_preview(self) -> None:
        text = self.text.text()
        if not text.strip():
            self.preview = None
            self._set_people([])
            return
        self._generation += 1
        generation = self._generation

        def shown(preview: Preview) -> None:
            if generation != self._generation:
                return
            self.preview = preview
            if "kind" not in self._pinned:
                self.kind.setCurrentIndex(KINDS.index(preview.kind))
            if "due" not in self._pinned:
                try:
                    due = remind.parse_time(preview.attrs.get("due_at"))
                except InvalidInput:
                    due = None
                self.due.setText(inputs.due_field_text(due))  # to the minute; the hint to the second
                self._hint_due = due
                self._doubt = preview.doubt
                self._no_day = preview.no_day
            if "repeat" not in self._pinned:
                self.repeat.setCurrentText(inputs.repeat_label(preview.attrs.get("rrule")))
            self._set_people(preview.people, preview.updates)
            self._update_kind_fields()
            self._show_due_hint()
            self.previewed.emit(preview)

        def failed(exc: BaseException) -> None:
            if generation == self._generation:
                log.warning("could not preview the capture: %s", exc)
                self.error.setText(f"(no preview: {exc})")

        now = self.ctx.now()  # the clock the hint is read against, not another one
        self.ctx.read(lambda m: understand(m, text, now)).on_success(shown).on_failure(failed).run("preview")

    def _update_kind_fields(self) -> None:
        is_rem = self.kind.currentData() == Kind.REMINDER.value
        for w in (self.due_label, self.due, self.repeat, self.due_hint):
            w.setVisible(is_rem)
        self._show_doubt()

    def _show_due_hint(self) -> None:
        """The hint beside Due: how far off the due time is. What the preview understood counts to
        its exact moment (the field shows it to the minute); what the person typed, as read."""
        if "due" in self._pinned:
            try:
                self._hint_due = inputs.parse_due(self.due.text(), self.ctx.now())
            except InvalidInput:
                self._hint_due = None
                self._doubt = None
                self._no_day = inputs.no_day(self.due.text(), self.ctx.now())
                self._show_doubt()
                self.due_hint.setText("?")
                return
            self._doubt = inputs.due_doubt(self.due.text(), self.ctx.now()) if self._hint_due else None
            self._no_day = None
            self.due_hint.clear()
        self._show_doubt()
        self._render_due_hint()

    def _show_doubt(self) -> None:
        """Under the due time, when the grammar could have read it otherwise: what it read and why
        it may be wrong ("Read as Sat 5 Jun 2027 10:00 (05/06 read day first: …)")."""
        due, doubt = self._hint_due, self._doubt
        is_rem = self.kind.currentData() == Kind.REMINDER.value
        if due is None and self._no_day:  # "30 February is no day": why there is no due time
            self.due_doubt.setText(self._no_day)
            self.due_doubt.show()
            self.due.setAccessibleDescription(self._no_day)
            return
        if due is None or not doubt or not is_rem:
            self.due_doubt.clear()
            self.due_doubt.hide()
            self.due.setAccessibleDescription("")
            return
        rrule = (
            None if "repeat" in self._pinned else (self.preview.attrs.get("rrule") if self.preview else None)
        )
        said = inputs.read_as(due, rrule, doubt, self.ctx.now())
        self.due_doubt.setText(said)
        self.due_doubt.show()
        self.due.setAccessibleDescription(said)

    def _render_due_hint(self) -> None:
        due = self._hint_due
        if due is not None:
            self.due_hint.setText(theme.relative(due, self.ctx.now()))
        elif self.due_hint.text() != "?":
            self.due_hint.clear()

    def _set_people(self, people: list[tuple[str, str]], updates: Sequence[Update] = ()) -> None:
        for box in [*self._people_boxes, *(b for b, _ in self._update_boxes)]:
            box.deleteLater()
        self._people_boxes, self._update_boxes = [], []
        for update in updates:
            box = QCheckBox(update.label)
            box.setChecked(True)
            box.setAccessibleName(update.label)
            box.setToolTip("Uncheck to keep the card as it is (the note still mentions them)")
            self.people_row.insertWidget(self.people_row.count() - 1, box)
            self._update_boxes.append((box, update))
        for nid, title in people:
            box = QCheckBox(title)
            box.setChecked(True)
            box.setProperty("neuronId", nid)
            box.setAccessibleName(f"Link to {title}")
            box.setToolTip("Uncheck to not link it")
            self.people_row.insertWidget(self.people_row.count() - 1, box)
            self._people_boxes.append(box)
        self.people_label.setVisible(bool(people) or bool(updates))

    @property
    def people(self) -> list[tuple[str, bool]]:
        return [(str(b.property("neuronId")), b.isChecked()) for b in self._people_boxes]

    @property
    def updates(self) -> list[tuple[Update, bool]]:
        return [(u, b.isChecked()) for b, u in self._update_boxes]

    # -- saving ------------------------------------------------------------------------------------

    def request(self) -> tuple[str, str | None, dict[str, Any], set[str]]:
        """(text, kind or None, attrs, ids not to link) from the box; raises InvalidInput."""
        text = self.text.text()
        if not text.strip():
            raise InvalidInput("Type something first")
        kind = self.kind.currentData()
        attrs: dict[str, Any] = {}
        now = self.ctx.now()
        if kind == Kind.REMINDER.value:
            due = inputs.parse_due(self.due.text(), now)
            shown = self.preview.attrs.get("rrule") if self.preview is not None else None
            rule = inputs.repeat_value(self.repeat.currentText(), shown)
            if rule:
                if due is None:
                    raise InvalidInput("A repeating reminder needs a due time")
                remind.validate_rrule(rule, due)
            if "due" in self._pinned or "kind" in self._pinned:
                if due is not None:
                    attrs["due_at"] = remind.iso(due)
            if rule and ("repeat" in self._pinned or "kind" in self._pinned):
                attrs["rrule"] = rule
        # what was not corrected is left to capture, which reads the text again when saving
        explicit_kind = kind if "kind" in self._pinned else None
        unlinked = {nid for nid, checked in self.people if not checked}
        return text, explicit_kind, attrs, unlinked

    def accepted_updates(self, text: str, kind: str | None) -> list[Update]:
        """The card updates kept checked, when the preview shown is of this very text and kind."""
        if self.preview is None or self.preview.text != text or kind not in (None, self.preview.kind.value):
            return []
        return [u for u, checked in self.updates if checked]

    def save(self) -> None:
        if self._saving:
            return
        try:
            text, kind, attrs, unlinked = self.request()
        except NeuronsError as exc:
            self.error.setText(str(exc))
            return
        accept = self.accepted_updates(text, kind)
        self._saving = True
        self.text.setEnabled(False)
        self.hint.setText("Saving…")

        def write(m) -> Neuron:
            neuron = m.capture(text, kind=kind, attrs=attrs or None, accept=accept)
            if unlinked:
                for edge in m.edges(neuron.id, open_only=True):
                    if str(edge.other(neuron.id)) in unlinked:
                        m.unlink(edge.id)
            return neuron

        def written(neuron: Neuron) -> None:
            self.hint.setText("Enter saves · Esc cancels · Tab to correct")
            self.saved.emit(neuron)
            self.cancel()

        def refused(exc: BaseException) -> None:
            self._saving = False
            self.text.setEnabled(True)
            self.text.setFocus()
            self.hint.setText("Enter saves · Esc cancels · Tab to correct")
            self.error.setText(str(exc) if isinstance(exc, NeuronsError) else f"Not saved: {exc}")

        if not self.ctx.write(write).on_success(written).on_failure(refused).run("capture"):
            refused(NeuronsError("Neurons is closing; try again once it is open"))
        elif self.ctx.memory is None:  # held until the memory is open (Context.write)
            self.hint.setText("Saving once your memory is open…")

    # -- keys --------------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancel()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.save()
            return
        super().keyPressEvent(event)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if obj in (self.text, self.due):
                if self._timer.isActive() and obj is self.text:
                    self._timer.stop()  # save what was typed; capture reads it again anyway
                self.save()
                return True
        return super().eventFilter(obj, event)
