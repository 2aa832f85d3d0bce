"""What a Memory call changed, told to its listeners (the window refreshes only what it shows).

One `Change` per committed call. `origin` says who started it -- "window", "quick", "socket",
"scheduler", "mcp", "cli" -- when the caller said so with `started_by(...)` around the call (a
context variable: it follows the call on whichever thread runs it); None otherwise.
"""

from __future__ import annotations

import contextlib
import contextvars
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

from core.model import Kind

# What happened. "captured" and "imported" add neurons; "edited" and "state" change them;
# "linked"/"unlinked" change edges; "claimed" moves rows to another identity; "engine_restarted":
# the store's engine died and was started again (nothing acknowledged was lost; tell the person
# once, and reload what is shown).
ACTIONS = ("captured", "edited", "state", "linked", "unlinked", "imported", "claimed", "engine_restarted")

_origin: contextvars.ContextVar[str | None] = contextvars.ContextVar("neurons_origin", default=None)


@dataclass(frozen=True)
class Change:
    action: str
    ids: tuple[uuid.UUID, ...] = ()  # the neurons it touched (both ends of a link)
    kinds: frozenset[Kind] = field(default_factory=frozenset)
    origin: str | None = None

    @property
    def edges_only(self) -> bool:
        return self.action in ("linked", "unlinked")

    def touches(self, neuron_id: uuid.UUID | str | None) -> bool:
        return neuron_id is not None and str(neuron_id) in {str(i) for i in self.ids}


@contextlib.contextmanager
def started_by(origin: str) -> Iterator[None]:
    """Mark the Memory calls made inside as started by `origin`."""
    token = _origin.set(origin)
    try:
        yield
    finally:
        _origin.reset(token)


def current_origin() -> str | None:
    return _origin.get()
