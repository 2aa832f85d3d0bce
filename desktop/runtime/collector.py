"""Python's cycle collector runs on the GUI thread only.

Left automatic, it runs in whichever thread happens to allocate when a threshold is crossed --
often a worker -- and there frees any garbage, Qt wrappers included: a widget, a dialog or a
timer destroyed off the GUI thread can crash the process (seen once as a segfault while a worker
"Garbage-collecting" as a test's app started). So while the app runs, automatic collection is
off and a timer on the GUI thread collects as the thresholds say, the way Qt applications
commonly do it (Anki, Spyder, GitFourchette). Reference counting still frees everything that is
not in a cycle at once, in any thread."""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 5_000  # a collection of the young generation costs well under a millisecond


class GuiCollector(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._was_enabled = gc.isenabled()
        self._thresholds = gc.get_threshold()
        gc.disable()
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.collect_due)
        self.timer.start(INTERVAL_MS)

    def collect_due(self) -> int:
        """Collect the generations whose counts passed their thresholds (what automatic
        collection would have done by now); the number of objects freed."""
        counts = gc.get_count()
        generation = -1
        for g in range(3):
            if counts[g] > self._thresholds[g]:
                generation = g
            else:
                break
        return gc.collect(generation) if generation >= 0 else 0

    def stop(self) -> None:
        """Back to automatic collection, after one full collection here, on the GUI thread."""
        self.timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()
