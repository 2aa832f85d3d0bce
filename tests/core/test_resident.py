"""The long-running app's resident memory (core/resident.py): malloc settings, and the sentence
model let go when idle -- then loaded again, the same, without hashing its 90 MB again."""

from __future__ import annotations

import shutil
import sys
import time
from datetime import timedelta
from types import SimpleNamespace

import numpy as np
import pytest

from core import resident
from core.embed import SentenceModel, runtime
from core.recall import Recall
from core.settings import default_model_dir
from tests.core.fake_reader import FakeReader

MODEL = default_model_dir()


def test_malloc_is_told_to_give_memory_back():
    assert resident.keep_small() is sys.platform.startswith("linux")
    resident.trim()  # does nothing harmful, anywhere


def test_the_model_goes_when_idle_and_comes_back_the_same(monkeypatch):
    model = SentenceModel(MODEL)
    first = model.require().embed_one("the dentist is on Rua Augusta")
    assert not model.release_if_idle(60)  # just used
    hashed = []
    real = runtime._sha256_file
    monkeypatch.setattr(runtime, "_sha256_file", lambda path: hashed.append(path) or real(path))
    time.sleep(0.05)
    assert model.release_if_idle(0.01) and not model.release_if_idle(0.01)
    again = model.require().embed_one("the dentist is on Rua Augusta")
    np.testing.assert_array_equal(first, again)
    assert model.loads == 2 and hashed == []  # the reload trusts the digests of unchanged files


def test_tidy_lets_the_idle_model_go(monkeypatch):
    model = SentenceModel(MODEL)
    model.require()
    reader = FakeReader()
    # (a recall index that lets its memory go: tests/core/test_scale.py)
    memory = SimpleNamespace(model=model, recall=Recall(reader, model.get))
    assert not resident.tidy(memory)
    monkeypatch.setattr(resident, "MODEL_IDLE", timedelta(0))
    assert resident.tidy(memory)
    assert model.require() is not None


@pytest.mark.parametrize("changed", ["size", "content"])
def test_a_model_file_changed_since_is_hashed_again(tmp_path, changed):
    """rehash=False trusts a digest only while the file's stat is the one it was made for."""
    folder = tmp_path / "model"
    shutil.copytree(MODEL, folder)
    model = SentenceModel(folder)
    model.require()
    model.release_if_idle(0)
    tokenizer = folder / "tokenizer-frame.json"  # a file the runtime reads (e5's tokenizer)
    data = tokenizer.read_bytes()
    tokenizer.write_bytes(data + b" " if changed == "size" else data[:-2] + b"  ")
    with pytest.raises(runtime.ModelUnavailable, match="corrupt"):
        model.require()
