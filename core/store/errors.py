"""What the store reports: each is a NeuronsError whose message says what happened and what to do."""

from __future__ import annotations

from core.model import NeuronsError


class StoreError(NeuronsError):
    pass


class StoreDamaged(StoreError):
    """The engine read something it cannot trust: a damaged page, a truncated or empty file."""

    def __init__(self, where: str, detail: str):
        self.detail = detail
        super().__init__(
            f"the store in {where} is damaged ({detail}); your data may be incomplete: "
            "stop using it, and restore your latest export into a new data dir "
            "(neurons --data-dir NEW import FILE)"
        )


class EngineLost(StoreError):
    """The engine (or the server connection) went away in the middle of a call; it is back now."""
