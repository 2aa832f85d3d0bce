"""Help ▸ Problems: this session's problems (desktop/runtime/problems.py keeps them), the one
selected in full, with Copy details for a bug report."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop.runtime.problems import Problem, Problems


class ProblemsDialog(QDialog):
    """The list of this session's problems; the one selected in full, with Copy details."""

    def __init__(self, problems: Problems, parent: QWidget | None = None):
        super().__init__(parent)
        self.problems = problems
        self.setWindowTitle("Problems — Neurons")
        self.setAccessibleName("Problems")
        self.resize(760, 460)
        lay = QVBoxLayout(self)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        lay.addWidget(self.intro)
        self.split = split = QSplitter(Qt.Orientation.Vertical)
        self.list = QListWidget()
        self.list.setAccessibleName("Problems")
        self.list.currentRowChanged.connect(self._show)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setAccessibleName("Details")
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        split.addWidget(self.list)
        split.addWidget(self.details)
        split.setSizes([140, 300])
        lay.addWidget(split, 1)
        row = QHBoxLayout()
        self.copy_button = QPushButton("Copy details")
        self.copy_button.setAccessibleName("Copy details")
        self.copy_button.clicked.connect(self.copy)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setAccessibleName("Clear the problems")
        self.clear_button.clicked.connect(problems.clear)
        row.addWidget(self.copy_button)
        row.addWidget(self.clear_button)
        row.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        row.addWidget(close)
        lay.addLayout(row)
        problems.changed.connect(self.fill)
        self.fill()

    def fill(self) -> None:
        self.list.clear()
        for problem in reversed(self.problems.items):
            item = QListWidgetItem(problem.text)
            item.setToolTip(problem.summary)
            self.list.addItem(item)
        any_ = bool(self.list.count())
        self.intro.setText(  # "went wrong" only when something did
            "Something went wrong that you did not cause. Your memory is safe; what was "
            "not saved says so. Copy the details into a bug report if it happens again."
            if any_
            else "No problems in this session: everything went as it should."
        )
        self.intro.setAlignment(Qt.AlignmentFlag.AlignLeft if any_ else Qt.AlignmentFlag.AlignCenter)
        self.split.setVisible(any_)
        if any_:
            self.list.setCurrentRow(0)
        else:
            self.details.clear()
        for button in (self.copy_button, self.clear_button):  # nothing to copy or clear
            button.setVisible(any_)

    def _show(self, row: int) -> None:
        if 0 <= row < len(self.problems.items):
            self.details.setPlainText(self._problem(row).details)

    def _problem(self, row: int) -> Problem:
        return self.problems.items[len(self.problems.items) - 1 - row]

    def copy(self) -> None:
        row = self.list.currentRow()
        if 0 <= row < len(self.problems.items):
            p = self._problem(row)
            QGuiApplication.clipboard().setText(f"{p.text}\n{p.details}")

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.problems.seen()
