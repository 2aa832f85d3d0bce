"""core/opening.py: the data dir's store opened on a thread of its own while the rest loads (the
desktop launcher and the CLI start the engine this way), on the real embedded engine."""

from __future__ import annotations

import pytest

from core.memory import Memory
from core.opening import Opening
from core.settings import Settings, default_model_dir
from core.store import open_store
from core.store.lock import LockHeld


def settings_in(data_dir) -> Settings:
    return Settings(data_dir=data_dir, model_dir=default_model_dir(), embed_in_background=False)


def test_a_store_opened_ahead_becomes_the_memorys(fresh_data_dir):
    settings = settings_in(fresh_data_dir)
    opening = Opening(settings)
    with Memory.open(settings, store=opening.result()) as memory:
        memory.capture("the spare key is with Maria", kind="note")
        opening.close()  # taken: the memory's now, closing the opening leaves it open
        assert memory.count() == 1
    with Memory.open(settings) as again:  # closed with its memory: the data dir is free
        assert again.count() == 1


def test_a_store_nobody_took_is_closed_with_the_opening(tmp_path):
    settings = settings_in(tmp_path / "data")  # made here: given up while the engine makes it
    opening = Opening(settings)
    opening.close()  # given up (a quit while the engine started): its store is closed
    open_store(settings).close()  # the data dir is free (a store left open would hold it)


def test_an_opening_that_failed_says_why_to_its_taker(fresh_data_dir):
    settings = settings_in(fresh_data_dir)
    held = open_store(settings)
    try:
        opening = Opening(settings)  # no wait: the data dir is another's
        with pytest.raises(LockHeld):
            opening.result()
        opening.close()
    finally:
        held.close()
