"""Which actions a neuron offers, decided once: the detail pane's buttons and the window's menu
both read `actions_for` (a pure function of the neuron, so a table test pins every rule)."""

from __future__ import annotations

from core.model import Kind, Neuron, State
from core.vocabulary import ItemAction


def actions_for(neuron: Neuron) -> frozenset[ItemAction]:
    """What can be done to `neuron` as it is stored now."""
    offered: set[ItemAction] = set()
    reminder = neuron.kind is Kind.REMINDER
    if reminder:
        offered.add(ItemAction.RESCHEDULE)
    if reminder and neuron.state is State.ACTIVE:
        offered.add(ItemAction.DONE_THIS_TIME if neuron.attrs.get("rrule") else ItemAction.DONE)
        if neuron.attrs.get("due_at"):
            offered.add(ItemAction.SNOOZE)
    if neuron.state in (State.ACTIVE, State.DONE):
        offered.add(ItemAction.ARCHIVE)
    if neuron.state is not State.TRASHED:
        offered.add(ItemAction.TRASH)
    if neuron.state is not State.ACTIVE:
        offered.add(ItemAction.RESTORE)
    return frozenset(offered)
