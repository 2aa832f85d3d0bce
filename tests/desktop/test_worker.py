"""The worker's two lanes, and quitting while it is busy: a write is never dropped."""

from __future__ import annotations

import threading

from desktop.runtime.worker import BACKGROUND, INTERACTIVE, Worker
from tests.desktop.conftest import WAIT_MS, settle


def occupy(worker: Worker, lane: str, release: threading.Event) -> None:
    """Fill every thread of a lane with a task that waits for `release`."""
    pool = worker.lanes[lane]
    for _ in range(pool.maxThreadCount()):
        worker.run(lambda: release.wait(WAIT_MS / 1000), lane=lane)


def test_an_edit_saved_at_quit_is_not_lost_while_every_worker_is_busy(app, embedded_memory, qtbot):
    note = embedded_memory.capture("shopping list", kind="note")
    app.window.open_neuron(str(note.id))
    qtbot.waitUntil(lambda: app.window.detail.current_id == str(note.id), timeout=WAIT_MS)
    settle(qtbot, app)
    release = threading.Event()
    for lane in (INTERACTIVE, BACKGROUND):
        occupy(app.worker, lane, release)
    qtbot.waitUntil(
        lambda: all(p.activeThreadCount() == p.maxThreadCount() for p in app.worker.lanes.values()),
        timeout=WAIT_MS,
    )
    app.window.detail.body.setPlainText("shopping list: eggs")
    app.quit()  # saves the edit: queued behind the busy lane
    threading.Timer(0.3, release.set).start()  # the busy tasks end while close() waits
    app.close()
    assert embedded_memory.get(note.id).body == "shopping list: eggs"


def test_reads_not_started_are_dropped_at_close_and_writes_run(qtbot):
    worker = Worker()
    release = threading.Event()
    occupy(worker, INTERACTIVE, release)
    ran: list[str] = []
    worker.run(lambda: ran.append("read"), droppable=True)
    worker.run(lambda: ran.append("write"))
    threading.Timer(0.3, release.set).start()
    worker.close()
    assert ran == ["write"]
    assert not worker.run(lambda: ran.append("late"))  # a closed worker takes nothing
    qtbot.waitUntil(lambda: worker.busy == 0, timeout=WAIT_MS)


def test_interactive_work_does_not_wait_for_background_work(qtbot):
    worker = Worker()
    release = threading.Event()
    occupy(worker, BACKGROUND, release)
    answers: list[int] = []
    worker.run(lambda: 42, answers.append)
    qtbot.waitUntil(lambda: answers == [42], timeout=WAIT_MS)
    release.set()
    worker.close()


def test_the_interactive_lane_keeps_the_order_things_were_asked_in(qtbot):
    worker = Worker()
    seen: list[int] = []
    for i in range(20):
        worker.run(lambda i=i: seen.append(i))
    qtbot.waitUntil(lambda: worker.busy == 0, timeout=WAIT_MS)
    assert seen == list(range(20))
    worker.close()
