"""An item's links in the detail pane: the open ones (open or close each), and linking it to
another item found by typing."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.model import Neuron, Relation
from desktop.items import reads
from desktop.look import theme
from desktop.runtime.context import Context

SEARCH_DEBOUNCE_MS = 200
RELATION_LABELS = {
    Relation.RELATES_TO: "relates to",
    Relation.CONCERNS: "concerns",
    Relation.SAME_PERSON: "same person as",
    Relation.SUPERSEDES: "supersedes",
}


def section_label(title: str) -> QLabel:
    label = QLabel(title)
    label.setObjectName("subtle")
    font = label.font()
    font.setBold(True)
    font.setCapitalization(font.Capitalization.AllUppercase)
    font.setPointSizeF(font.pointSizeF() * 0.85)
    label.setFont(font)
    return label


class LinksPanel(QWidget):
    open_neuron = Signal(str)  # show the linked item
    act = Signal(object, str)  # (fn(memory, id of the item shown), message): the pane runs it

    def __init__(self, ctx: Context, parent: QWidget | None = None):
        super().__init__(parent)
        self.ctx = ctx
        self.detail: reads.Detail | None = None
        self._generation = 0
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(10)
        self.links_title = section_label("Links")
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
        self.links.currentItemChanged.connect(lambda *_: self._update_buttons())
        lay.addWidget(self.links)
        buttons = QHBoxLayout()
        self.open_link_button = _button(
            "Open", "Open the linked item", lambda: self._open_link(self.links.currentItem())
        )
        self.close_link_button = _button(
            "Close link", "The link stops being true now (it is kept, dated)", self.close_link
        )
        buttons.addWidget(self.open_link_button)
        buttons.addWidget(self.close_link_button)
        buttons.addStretch(1)
        lay.addLayout(buttons)

        picker = QHBoxLayout()
        self.link_search = QLineEdit()
        self.link_search.setPlaceholderText("Link to… (type to search)")
        self.link_search.setAccessibleName("Link to another item")
        self.link_search.setClearButtonEnabled(True)
        self.link_relation = QComboBox()
        self.link_relation.setAccessibleName("Relation")
        for rel in (Relation.RELATES_TO, Relation.CONCERNS, Relation.SAME_PERSON, Relation.SUPERSEDES):
            self.link_relation.addItem(RELATION_LABELS[rel], rel.value)
        picker.addWidget(self.link_search, 1)
        picker.addWidget(self.link_relation)
        lay.addLayout(picker)
        self.candidates = QListWidget()
        self.candidates.setAccessibleName("Items to link to")
        self.candidates.setMaximumHeight(160)
        self.candidates.hide()
        self.candidates.itemActivated.connect(self._link_candidate)
        lay.addWidget(self.candidates)

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DEBOUNCE_MS)
        self._search_timer.timeout.connect(self._search_candidates)
        self.link_search.textEdited.connect(lambda _: self._search_timer.start())
        self.link_search.returnPressed.connect(self._link_first)
        self.link_search.installEventFilter(self)

    def tab_chain(self) -> list[QWidget]:
        return [
            self.links,
            self.open_link_button,
            self.close_link_button,
            self.link_search,
            self.link_relation,
        ]

    def show_links(self, detail: reads.Detail, now: datetime) -> None:
        self._generation += 1
        self.detail = detail
        self.links.clear()
        for edge, other in detail.links:
            item = QListWidgetItem(
                f"{RELATION_LABELS[edge.relation]}  ·  {other.title}  "
                f"({theme.KIND_LABELS[other.kind].lower()})"
            )
            item.setData(Qt.ItemDataRole.UserRole, (str(edge.id), str(other.id)))
            item.setToolTip(
                f"{edge.relation.value} since "
                f"{theme.when_text(edge.valid_from or edge.created_at, now)}"
                + (" · derived" if edge.derived_by else "")
            )
            self.links.addItem(item)
        if not detail.links:
            placeholder = QListWidgetItem("No links yet — link it to a person, a note or a reminder below.")
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.links.addItem(placeholder)
        closed = f", {detail.closed} closed" if detail.closed else ""
        self.links_title.setText(f"LINKS ({len(detail.links)} open{closed})")
        self._update_buttons()

    def close_suggestions(self) -> bool:
        """Hide the suggestions if they are shown (Esc); False when there were none."""
        if not self.candidates.isVisible():
            return False
        self.candidates.hide()
        return True

    def _update_buttons(self) -> None:
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
        self.act.emit(lambda m, nid: m.unlink(edge_id), "Link closed")

    def _search_candidates(self) -> None:
        if self.detail is None:
            return
        text = self.link_search.text()
        me = self.detail.neuron.id
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

        self.ctx.read(lambda m: reads.link_candidates(m, text, me)).on_success(found).run("link search")

    def _link_first(self) -> None:
        item = self.candidates.currentItem() or (self.candidates.item(0) if self.candidates.count() else None)
        self._link_candidate(item)

    def _link_candidate(self, item: QListWidgetItem | None) -> None:
        if item is None or self.detail is None or item.data(Qt.ItemDataRole.UserRole) is None:
            return
        other = item.data(Qt.ItemDataRole.UserRole)
        relation = self.link_relation.currentData()
        self.link_search.clear()
        self.candidates.clear()
        self.candidates.hide()
        self.act.emit(lambda m, nid: m.link(nid, other, relation), "Linked")

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        """Up and Down move in the suggestions while typing in the box."""
        if (
            obj is self.link_search
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and self.candidates.isVisible()
        ):
            if event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up):
                row = self.candidates.currentRow() + (1 if event.key() == Qt.Key.Key_Down else -1)
                self.candidates.setCurrentRow(max(0, min(row, self.candidates.count() - 1)))
                return True
        return super().eventFilter(obj, event)


def _button(text: str, tip: str, slot) -> QPushButton:
    b = QPushButton(text)
    b.setToolTip(tip)
    b.setAccessibleName(text)
    b.clicked.connect(slot)
    return b
