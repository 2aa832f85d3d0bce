"""A list of items drawn as two- or three-line rows: title, the date that matters, why it is
there; the kind's badge only where kinds are mixed. Answers come in groups: a time question's
window under its heading, then what is related; below the relevance bar, folded under
"N loosely related" (Enter or a click unfolds them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPalette,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from core.model import Kind, State
from desktop.items.reads import Row
from desktop.look import theme

# Every item holds exactly one entry under ENTRY_ROLE -- a Row, a Heading or the Fold switch -- so
# the delegate never asks Qt for a role an item lacks: a binding that hands back the None of an
# unset role without its reference (PySide6 6.12.0 on CPython 3.11) freed None itself after
# enough paints (`none_dealloc`). tests/desktop/test_crash.py counts the references.
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 1


@dataclass
class Heading:
    """A group's heading: not selectable."""

    text: str


@dataclass
class Fold:
    """The "N loosely related" switch."""

    count: int
    unfolded: bool = False

    @property
    def text(self) -> str:
        return f"{'▾' if self.unfolded else '▸'}  {self.count} loosely related"


Entry = Row | Heading | Fold


class RowDelegate(QStyledItemDelegate):
    def __init__(self, now: Callable, parent=None):
        super().__init__(parent)
        self.now = now
        self.show_kind = True  # the list mixes kinds
        self.show_state = True  # the list mixes states

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        fm = QFontMetrics(option.font)
        entry = index.data(ENTRY_ROLE)
        if not isinstance(entry, Row):
            return QSize(200, fm.height() + 16)
        lines = 3 if entry.why or _snippet(entry) else 2
        return QSize(200, 14 + fm.height() * lines + 4 * (lines - 1))

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        entry = index.data(ENTRY_ROLE)
        if isinstance(entry, (Heading, Fold)):
            self._paint_marker(painter, option, entry)
            return
        if not isinstance(entry, Row):
            super().paint(painter, option, index)
            return
        row = entry
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

        # the badge on the right: the kind where kinds are mixed, the state where states are
        chip_font = QFont(base)
        chip_font.setPointSizeF(max(base.pointSizeF() * 0.8, 6))
        chip_font.setBold(True)
        cfm = QFontMetrics(chip_font)
        label = self.badge(n)
        chip = QRect(r.right() + 1, r.top() + 1, 0, cfm.height() + 2)
        if label:
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
        title = QFontMetrics(title_font).elidedText(
            n.title or "(empty)", Qt.TextElideMode.ElideRight, title_rect.width()
        )
        painter.drawText(title_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)

        # the second line: its date, overdue in red
        painter.setFont(base)
        sub, overdue = theme.subtitle(n, now, row.at)
        second = QRect(tx, r.top() + line_h, r.right() - tx, fm.height() + 2)
        painter.setPen(QColor(theme.OVERDUE) if overdue else subtle)
        if overdue:
            sub = f"{theme.word('overdue')} · {sub}"
        painter.drawText(
            second,
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            fm.elidedText(sub, Qt.TextElideMode.ElideRight, second.width()),
        )

        # the third line: why it is in the answer, else more of the text
        third = QRect(tx, r.top() + 2 * line_h, r.right() - tx, fm.height() + 2)
        if row.why:
            why_font = QFont(base)
            why_font.setItalic(True)
            painter.setFont(why_font)
            painter.setPen(QColor(theme.ACCENT).lighter(140) if theme.dark_now() else QColor(theme.ACCENT))
            painter.drawText(
                third,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                QFontMetrics(why_font).elidedText("↳ " + row.why, Qt.TextElideMode.ElideRight, third.width()),
            )
        elif _snippet(row):
            painter.setPen(subtle)
            painter.drawText(
                third,
                Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                fm.elidedText(_snippet(row), Qt.TextElideMode.ElideRight, third.width()),
            )
        painter.restore()

    def badge(self, n) -> str:
        parts = []
        if self.show_kind:
            parts.append(theme.KIND_LABELS[n.kind].upper())
        if self.show_state and n.state is not State.ACTIVE:
            parts.append(n.state.value.upper())
        return " · ".join(parts)

    def _paint_marker(self, painter: QPainter, option: QStyleOptionViewItem, entry: Heading | Fold) -> None:
        """A group's heading, or the fold switch (which can be selected and opened)."""
        widget = option.widget
        if isinstance(entry, Fold) and widget is not None:
            widget.style().drawPrimitive(
                QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, widget
            )
        painter.save()
        font = QFont(option.font)
        font.setBold(True)
        r = option.rect.adjusted(14, 0, -12, 0)
        if isinstance(entry, Heading):
            font.setPointSizeF(max(font.pointSizeF() * 0.85, 6))
            font.setCapitalization(QFont.Capitalization.AllUppercase)
            colour = QColor(option.palette.color(QPalette.ColorRole.Text))
            colour.setAlpha(150)
        else:
            colour = QColor(theme.ACCENT).lighter(140) if theme.dark_now() else QColor(theme.ACCENT)
        painter.setFont(font)
        painter.setPen(colour)
        painter.drawText(
            r,
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            QFontMetrics(font).elidedText(entry.text, Qt.TextElideMode.ElideRight, r.width()),
        )
        painter.restore()


def _snippet(row: Row) -> str:
    n = row.neuron
    body = " ".join(n.body.split())
    if n.kind is Kind.CONTACT:
        return body if body and body != n.title else ""
    rest = body[len(n.title) :].strip() if body.startswith(n.title) else body
    return rest


def describe(row: Row, now) -> str:
    """What a screen reader says for a row."""
    sub, overdue = theme.subtitle(row.neuron, now, row.at)
    parts = [
        theme.KIND_LABELS[row.neuron.kind],
        row.neuron.title or "(empty)",
        (f"{theme.word('overdue')}, " if overdue else "") + sub,
    ]
    if row.neuron.state is not State.ACTIVE:
        parts.insert(1, row.neuron.state.value)
    if row.why:
        parts.append(row.why)
    return ". ".join(p for p in parts if p)


ROWS_TICK_MS = 30_000  # relative times in rows are to the minute


class RowList(QListWidget):
    """Rows of items; Enter opens, Escape (or Up from the first row) goes back to the ask box,
    Delete trashes."""

    opened = Signal(str)
    escape = Signal()
    delete = Signal(str)

    def __init__(self, now: Callable, parent=None):
        super().__init__(parent)
        self.now = now
        self.setObjectName("rows")
        self.delegate = RowDelegate(now, self)
        self.setItemDelegate(self.delegate)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setUniformItemSizes(False)
        self.setAccessibleName("Results")
        # the fold opens with one click (a double click opens it once, not twice) and Enter or Space
        self.itemActivated.connect(self._open)
        self.itemClicked.connect(self._clicked)
        # "in 5 min" is painted against the clock of the moment: repaint so it moves on
        self._tick = QTimer(self)
        self._tick.setInterval(ROWS_TICK_MS)
        self._tick.timeout.connect(self.viewport().update)
        self._tick.start()

    def set_rows(self, rows: list[Row], keep: str | None = None, *, window_label: str | None = None) -> None:
        """Show rows (in groups when they carry them), keeping `keep` (else the current) selected
        when it is still there."""
        current = keep if keep is not None else self.current_id()
        self.blockSignals(True)
        self.clear()
        self.delegate.show_kind = len({r.neuron.kind for r in rows}) > 1
        self.delegate.show_state = len({r.neuron.state for r in rows}) > 1
        now = self.now()
        windowed = [r for r in rows if r.group == "window"]
        rest = [r for r in rows if r.group != "window"]
        close = [r for r in rest if not r.loose]
        loose = [r for r in rest if r.loose]
        if windowed:
            self._heading(window_label or "In that time")
        select = self._add(windowed, now, current)
        if windowed and close:
            self._heading("Related")
        select = self._add(close, now, current) or select
        if loose:
            switch = Fold(len(loose))
            fold = QListWidgetItem(switch.text)
            fold.setData(ENTRY_ROLE, switch)
            fold.setData(
                Qt.ItemDataRole.AccessibleTextRole,
                f"{len(loose)} loosely related, folded: press Enter to show them",
            )
            self.addItem(fold)
            start = self.count()
            found = self._add(loose, now, current)
            for i in range(start, self.count()):
                self.item(i).setHidden(found is None)
            if found is not None:  # the selected row is among them: show them
                switch.unfolded = True
                fold.setData(ENTRY_ROLE, switch)
                fold.setText(switch.text)
            select = found or select
        self.blockSignals(False)
        if select is not None:
            self.setCurrentItem(select)

    def _heading(self, text: str) -> None:
        item = QListWidgetItem(text)
        item.setData(ENTRY_ROLE, Heading(text))
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        self.addItem(item)

    def _add(self, rows: list[Row], now, current: str | None) -> QListWidgetItem | None:
        select = None
        for row in rows:
            item = QListWidgetItem(describe(row, now))
            item.setData(ENTRY_ROLE, row)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, describe(row, now))
            item.setToolTip(row.neuron.body[:500])
            self.addItem(item)
            if current and str(row.neuron.id) == current:
                select = item
        return select

    def entries(self) -> list[Entry]:
        """Every item's entry (headings, the fold, folded rows too), in order."""
        return [self.item(i).data(ENTRY_ROLE) for i in range(self.count())]

    def toggle_fold(self, item: QListWidgetItem) -> None:
        switch = item.data(ENTRY_ROLE)
        if not isinstance(switch, Fold):
            return
        unfolded = switch.unfolded = not switch.unfolded
        item.setData(ENTRY_ROLE, switch)
        start = self.row(item) + 1
        for i in range(start, self.count()):
            self.item(i).setHidden(not unfolded)
        item.setText(switch.text)
        item.setData(
            Qt.ItemDataRole.AccessibleTextRole,
            f"{self.count() - start} loosely related, {'shown' if unfolded else 'folded'}",
        )

    def _activated(self, item: QListWidgetItem) -> None:
        if isinstance(item.data(ENTRY_ROLE), Fold):
            self.toggle_fold(item)
        else:
            self._open(item)

    def _open(self, item: QListWidgetItem) -> None:
        if self.id_of(item):
            self.opened.emit(self.id_of(item))

    def _clicked(self, item: QListWidgetItem) -> None:
        if isinstance(item.data(ENTRY_ROLE), Fold):
            self.toggle_fold(item)

    def rows(self) -> list[Row]:
        """Every item's row (folded ones too), in order."""
        return [e for e in self.entries() if isinstance(e, Row)]

    def shown_rows(self) -> list[Row]:
        shown = (self.item(i) for i in range(self.count()) if not self.item(i).isHidden())
        return [e for e in (item.data(ENTRY_ROLE) for item in shown) if isinstance(e, Row)]

    def fold_item(self) -> QListWidgetItem | None:
        return next(
            (self.item(i) for i in range(self.count()) if isinstance(self.item(i).data(ENTRY_ROLE), Fold)),
            None,
        )

    def id_of(self, item: QListWidgetItem | None) -> str:
        if item is None:
            return ""
        row = item.data(ENTRY_ROLE)
        return str(row.neuron.id) if isinstance(row, Row) else ""

    def current_id(self) -> str:
        row = self.currentRow()  # an int: never the None an empty list's currentItem() is
        return self.id_of(self.item(row)) if row >= 0 else ""

    def select_id(self, neuron_id: str) -> bool:
        for i in range(self.count()):
            if self.id_of(self.item(i)) == neuron_id:
                if self.item(i).isHidden():
                    fold = self.fold_item()
                    if fold is not None:
                        self.toggle_fold(fold)
                self.setCurrentRow(i)
                return True
        return False

    def first_row(self) -> int:
        """The first row that can be selected (-1 when none)."""
        for i in range(self.count()):
            item = self.item(i)
            if not item.isHidden() and item.flags() & Qt.ItemFlag.ItemIsSelectable:
                return i
        return -1

    def select_first(self) -> None:
        first = self.first_row()
        if first >= 0:
            self.setCurrentRow(first)

    def copy_menu(self, item: QListWidgetItem | None) -> QMenu:
        """A contact row's phone and e-mail to copy (empty for other rows)."""
        menu = QMenu(self)
        row = item.data(ENTRY_ROLE) if item is not None else None
        if isinstance(row, Row) and row.neuron.kind is Kind.CONTACT:
            for field, word in (("phones", "phone"), ("emails", "e-mail")):
                values = theme.contact_shown(row.neuron.attrs, field)
                if values:
                    action = menu.addAction(f"Copy {word} {values[0]}")
                    action.triggered.connect(lambda _=False, v=values[0]: QApplication.clipboard().setText(v))
        return menu

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = self.copy_menu(self.itemAt(event.pos()))
        if menu.actions():
            menu.exec(event.globalPos())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        item = self.currentItem()
        row = item.data(ENTRY_ROLE) if item is not None else None
        if (
            event.matches(QKeySequence.StandardKey.Copy)
            and isinstance(row, Row)
            and theme.primary(row.neuron)
        ):
            QApplication.clipboard().setText(theme.primary(row.neuron)[0])  # a contact's number, else e-mail
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and item is not None:
            self._activated(item)
            return
        if key == Qt.Key.Key_Space and isinstance(row, Fold) and item is not None:
            self.toggle_fold(item)
            return
        if key == Qt.Key.Key_Escape:
            self.escape.emit()
            return
        if key == Qt.Key.Key_Delete and self.current_id():
            self.delete.emit(self.current_id())
            return
        if key == Qt.Key.Key_Up and self.currentRow() <= self.first_row():
            self.escape.emit()
            return
        super().keyPressEvent(event)
