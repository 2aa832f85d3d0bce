"""What a Memory call changed, told to its listeners (the window refreshes only what it shows).

One `Change` per committed call: its `Action`, the neurons it touched and their kinds, and who
started it (`origin`, when the caller said so with `started_by(...)` around the call: a context
variable, so it follows the call on whichever thread runs it; None otherwise). What an action
affects is said once, in `AFFECTS` (as Anki's OpChanges): readers ask `change.affects`, not
which action it was.
"""

from __future__ import annotations

import contextlib
import contextvars
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

from core.model import Kind
from core.vocabulary import Action, Origin


@dataclass(frozen=True)
class Affects:
    """What may differ after a change, for those who show or keep something of the store."""

    everything: bool = False  # anything shown may differ: load it all again
    neurons: bool = False  # neurons were added, or their bodies, attrs or states changed
    added: bool = False  # a neuron was added: an answer to a question may now include it
    texts: bool = False  # a text changed: its vector is pending (the background filler wakes)
    states: bool = False  # a state changed: the archive, the trash, the counts
    edges: bool = False  # links were made or closed
    earlier: bool = False  # an earlier version came back (undo): even the view that asked shows it again


AFFECTS: dict[Action, Affects] = {
    Action.CAPTURED: Affects(neurons=True, added=True, texts=True, edges=True),
    Action.IMPORTED: Affects(everything=True, neurons=True, added=True, texts=True, states=True, edges=True),
    Action.EDITED: Affects(neurons=True, texts=True),
    Action.STATE: Affects(neurons=True, states=True),
    Action.REVERTED: Affects(neurons=True, texts=True, states=True, earlier=True),
    Action.LINKED: Affects(edges=True),
    Action.UNLINKED: Affects(edges=True),
    Action.CLAIMED: Affects(everything=True, neurons=True, states=True, edges=True),
    Action.RESTORED: Affects(everything=True, neurons=True, added=True, texts=True, states=True, edges=True),
    Action.ENGINE_RESTARTED: Affects(),  # nothing acknowledged was lost: the person is told once
}

_origin: contextvars.ContextVar[Origin | None] = contextvars.ContextVar("neurons_origin", default=None)


@dataclass(frozen=True)
class Change:
    action: Action
    ids: tuple[uuid.UUID, ...] = ()  # the neurons it touched (both ends of a link)
    kinds: frozenset[Kind] = field(default_factory=frozenset)
    origin: Origin | None = None

    @property
    def affects(self) -> Affects:
        return AFFECTS[self.action]

    @property
    def edges_only(self) -> bool:
        return self.affects.edges and not self.affects.neurons

    def touches(self, neuron_id: uuid.UUID | str | None) -> bool:
        return neuron_id is not None and str(neuron_id) in {str(i) for i in self.ids}


@contextlib.contextmanager
def started_by(origin: Origin) -> Iterator[None]:
    """Mark the Memory calls made inside as started by `origin`."""
    token = _origin.set(Origin.parse(origin))
    try:
        yield
    finally:
        _origin.reset(token)


def current_origin() -> Origin | None:
    return _origin.get()
