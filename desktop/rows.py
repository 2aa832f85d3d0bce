"""A list of neurons drawn as two-line rows: kind, title, the date that matters, why it is there."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView, QListWidget, QListWidgetItem, QStyle, QStyledItemDelegate,
    QStyleOptionViewItem,
)

from core.model import Kind, State
from desktop import theme
from desktop.ops import Row

ROW_ROLE = Qt.ItemDataRole.UserRole + 1


class RowDelegate(QStyledItemDelegate):
    def __init__(self, now: Callable, parent=None):
        super().__init__(parent)
        self.now = now

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        fm = QFontMetrics(option.font)
        row: Row | None = index.data(ROW_ROLE)
        lines = 3 if row is not None and (row.why or _snippet(row)) else 2
        return QSize(200, 14 + fm.height() * lines + 4 * (lines - 1))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        row: Row | None = index.data(ROW_ROLE)
        if row is None:
            return super().paint(painter, option, index)
        widget = option.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, widget)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        n = row.neuron
        now = self.now()
        pal: QPalette = option.palette
        text_colour = pal.color(QPalette.ColorRole.Text)
        subtle = QColor(text_colour)
        subtle.setAlpha(150)
        r = option.rect.adjusted(14, 7, -12, -7)
        base = QFont(option.font)
        fm = QFontMetrics(base)
        line_h = fm.height() + 4

        # the kind's dot (hollow when the neuron is not active)
        dot = QRect(r.left(), r.top() + (fm.height() - 9) // 2 + 1, 9, 9)
        kind_colour = theme.colour(n.kind)
        painter.setPen(kind_colour)
        painter.setBrush(kind_colour if n.state is State.ACTIVE else Qt.BrushStyle.NoBrush)
        painter.drawEllipse(dot)

        # the kind chip on the right
        chip_font = QFont(base)
        chip_font.setPointSizeF(max(base.pointSizeF() * 0.8, 6))
        chip_font.setBold(True)
        cfm = QFontMetrics(chip_font)
        label = theme.KIND_LABELS[n.kind].upper()
        if n.state is not State.ACTIVE:
            label = f"{label} · {n.state.value.upper()}"
        cw = cfm.horizontalAdvance(label) + 12
        chip = QRect(r.right() - cw, r.top() + 1, cw, cfm.height() + 2)
        fill = QColor(kind_colour)
        fill.setAlpha(40)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        painter.drawRoundedRect(chip, 6, 6)
        painter.setFont(chip_font)
        painter.setPen(kind_colour.darker(115) if not theme.dark_now() else kind_colour.lighter(120))
        painter.drawText(chip, Qt.AlignmentFlag.AlignCenter, label)

        # the title
        title_font = QFont(base)
        title_font.setWeight(QFont.Weight.DemiBold)
        painter.setFont(title_font)
        painter.setPen(text_colour)
        tx = dot.right() + 9
        title_rect = QRect(tx, r.top(), chip.left() - tx - 8, fm.height() + 2)
        title = QFontMetrics(title_font).elidedText(n.title or "(empty)", Qt.TextElideMode.ElideRight,
                                                     title_rect.width())
        painter.drawText(title_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)

        # the second line: its date, overdue in red
        painter.setFont(base)
        sub, overdue = theme.subtitle(n, now)
        second = QRect(tx, r.top() + line_h, r.right() - tx, fm.height() + 2)
        painter.setPen(QColor(theme.OVERDUE) if overdue else subtle)
        if overdue:
            sub = "overdue · " + sub
        painter.drawText(second, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         fm.elidedText(sub, Qt.TextElideMode.ElideRight, second.width()))

        # the third line: why it is in the answer, else more of the text
        third = QRect(tx, r.top() + 2 * line_h, r.right() - tx, fm.height() + 2)
        if row.why:
            why_font = QFont(base)
            why_font.setItalic(True)
            painter.setFont(why_font)
            painter.setPen(QColor(theme.ACCENT).lighter(140) if theme.dark_now() else QColor(theme.ACCENT))
            painter.drawText(third, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             QFontMetrics(why_font).elidedText("↳ " + row.why, Qt.TextElideMode.ElideRight,
                                                               third.width()))
        elif _snippet(row):
            painter.setPen(subtle)
            painter.drawText(third, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             fm.elidedText(_snippet(row), Qt.TextElideMode.ElideRight, third.width()))
        painter.restore()


def _snippet(row: Row) -> str:
    n = row.neuron
    body = " ".join(n.body.split())
    if n.kind is Kind.CONTACT:
        return body if body and body != n.title else ""
    rest = body[len(n.title):].strip() if body.startswith(n.title) else body
    return rest


def describe(row: Row, now) -> str:
    """What a screen reader says for a row."""
    sub, overdue = theme.subtitle(row.neuron, now)
    parts = [theme.KIND_LABELS[row.neuron.kind], row.neuron.title or "(empty)",
             ("overdue, " if overdue else "") + sub]
    if row.neuron.state is not State.ACTIVE:
        parts.insert(1, row.neuron.state.value)
    if row.why:
        parts.append(row.why)
    return ". ".join(p for p in parts if p)


class RowList(QListWidget):
    """Rows of neurons; Enter opens, Escape goes back to the ask box, Delete trashes."""

    opened = Signal(str)
    escape = Signal()
    delete = Signal(str)

    def __init__(self, now: Callable, parent=None):
        super().__init__(parent)
        self.now = now
        self.setObjectName("rows")
        self.setItemDelegate(RowDelegate(now, self))
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setUniformItemSizes(False)
        self.setAccessibleName("Results")
        self.itemActivated.connect(lambda item: self.opened.emit(self.id_of(item)))

    def set_rows(self, rows: list[Row], keep: str | None = None) -> None:
        current = keep if keep is not None else self.current_id()
        self.blockSignals(True)
        self.clear()
        now = self.now()
        select = None
        for row in rows:
            item = QListWidgetItem(describe(row, now))
            item.setData(ROW_ROLE, row)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, describe(row, now))
            item.setToolTip(row.neuron.body[:500])
            self.addItem(item)
            if current and str(row.neuron.id) == current:
                select = item
        self.blockSignals(False)
        if select is not None:
            self.setCurrentItem(select)

    def rows(self) -> list[Row]:
        return [self.item(i).data(ROW_ROLE) for i in range(self.count())]

    def id_of(self, item: QListWidgetItem | None) -> str:
        if item is None:
            return ""
        row = item.data(ROW_ROLE)
        return str(row.neuron.id) if row is not None else ""

    def current_id(self) -> str:
        return self.id_of(self.currentItem())

    def select_id(self, neuron_id: str) -> bool:
        for i in range(self.count()):
            if self.id_of(self.item(i)) == neuron_id:
                self.setCurrentRow(i)
                return True
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentItem() is not None:
            self.opened.emit(self.current_id())
            return
        if key == Qt.Key.Key_Escape:
            self.escape.emit()
            return
        if key == Qt.Key.Key_Delete and self.currentItem() is not None:
            self.delete.emit(self.current_id())
            return
        if key == Qt.Key.Key_Up and self.currentRow() <= 0:
            self.escape.emit()
            return
        super().keyPressEvent(event)
