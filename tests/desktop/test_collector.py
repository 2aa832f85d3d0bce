"""The cycle collector runs on the GUI thread only while the app runs (desktop/runtime/collector.py): a
worker that allocates past every threshold frees no cycle; the app's timer does, on the GUI
thread; closing the app gives automatic collection back."""

from __future__ import annotations

import gc
import threading

from tests.desktop.conftest import make_app


class Cycle:
    freed_in: list[str] = []

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        Cycle.freed_in.append(threading.current_thread().name)


def test_cycles_are_freed_on_the_gui_thread_only(qtbot, embedded_memory, clock, notifier):
    was = gc.isenabled()
    app = make_app(qtbot, embedded_memory, clock, notifier)
    try:
        assert not gc.isenabled()
        gc.collect()
        Cycle.freed_in.clear()
        Cycle()  # garbage at once, freed only by a collection

        kept: list = []

        def allocate() -> None:  # far past every threshold: automatic collection would run here
            kept.append([{"a": [], "b": {}} for _ in range(50_000)])

        worker = threading.Thread(target=allocate, name="worker")
        worker.start()
        worker.join()
        assert Cycle.freed_in == []
        qtbot.waitUntil(lambda: app.collector.collect_due() >= 0 and Cycle.freed_in != [], timeout=10_000)
        assert Cycle.freed_in == [threading.main_thread().name]
        kept.clear()
    finally:
        app.close()
    assert gc.isenabled() == was
