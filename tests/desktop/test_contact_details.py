"""Asking the window for a person's detail ("what's Ana's number") shows their card first, shown
(not folded under "loosely related"), in the order `Memory.ask` gives the command line and MCP."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.desktop.conftest import WAIT_MS, settle


def test_whats_anas_number_shows_her_card_first_and_unfolded(app_on_own_store, qtbot):
    # on a store of its own: filling vectors computes every identity's, and the worker's shared
    # store holds what every earlier desktop test captured (~85 CPU s of them)
    app, memory = app_on_own_store, app_on_own_store.memory
    ana = memory.capture("Ana Silva +351 912 345 678")
    memory.capture("the plumber's number is on the fridge")
    memory.capture("order number 44812 for the new desk")
    text = "Ana's new number is +351 966 000 111"
    memory.capture(text, accept=memory.preview(text).updates)
    memory.fill_vectors()
    window = app.window
    window.ask.setFocus()
    qtbot.keyClicks(window.ask, "What's Ana's number")
    qtbot.keyClick(window.ask, Qt.Key.Key_Return)
    settle(qtbot, app)
    qtbot.waitUntil(lambda: bool(window.rows.rows()), timeout=WAIT_MS)
    shown = window.rows.shown_rows()
    assert shown[0].neuron.id == ana.id and not shown[0].loose
    assert "+351 966 000 111" in shown[0].neuron.attrs["phones"]
    # the command line's order, the loosely related folded below the rest
    asked = memory.ask("What's Ana's number", limit=30)
    close = [r.neuron.id for r in asked if not r.loose]
    assert [r.neuron.id for r in window.rows.rows()] == close + [r.neuron.id for r in asked if r.loose]
