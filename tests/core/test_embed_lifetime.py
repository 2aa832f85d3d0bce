"""The loaded model's lifetime: an Embedder owns its onnxruntime session and the token table the
session reads from a mapping of model.onnx (core/embed/mapped.py), and close() frees them in that
order -- never left to the garbage collector, never under an embed in flight. Real ONNX."""

from __future__ import annotations

import gc
import logging
import signal
import subprocess
import sys
import threading
import time
import uuid
import weakref

import numpy as np
import pytest

from core.embed import Embedder, SentenceModel
from core.embed.runtime import ModelClosed, ModelUnavailable
from core.memory import Memory
from core.model import Identity
from core.settings import default_model_dir
from tests.conftest import ROOT, run_cli

MODEL = default_model_dir()
TEXTS = ["the dentist is on Rua Augusta", "call Ana about the flight", "birthday presents", ""]
DEADLINE = 60.0  # generous: the machine is small and noisy; never a timing assertion


def _parts(embedder: Embedder):
    """Weak references to the session and the table, and the mapping (to see it closed)."""
    table = embedder._table
    assert table is not None, "fp32 maps its token table"
    return weakref.ref(embedder._session), weakref.ref(table), table._map


@pytest.fixture
def no_collector():
    """The cycle collector off: what close() frees, it frees by itself."""
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_close_frees_the_session_then_the_mapping_and_embed_after_raises(no_collector):
    embedder = Embedder.load(MODEL)
    before = embedder.embed(TEXTS)
    session, table, mapping = _parts(embedder)
    embedder.close()
    assert embedder.closed and session() is None and table() is None and mapping.closed
    with pytest.raises(ModelClosed, match="was closed") as raised:
        embedder.embed(TEXTS)
    assert isinstance(raised.value, ModelUnavailable)  # recall and the CLI already answer that
    embedder.close()  # twice is fine
    again = Embedder.load(MODEL)
    try:
        np.testing.assert_array_equal(again.embed(TEXTS), before)
    finally:
        again.close()


def test_an_embedder_dropped_unclosed_is_freed_at_once(no_collector):
    """No reference cycle holds the session or the mapping: reference counting frees them where
    the last holder lets go, not the collector some time later in some thread."""
    embedder = Embedder.load(MODEL)
    embedder.embed(TEXTS)
    session, table, _ = _parts(embedder)
    owner = weakref.ref(embedder)
    del embedder
    assert owner() is None and session() is None and table() is None


def test_close_during_an_embed_lets_it_finish_then_frees():
    embedder = Embedder.load(MODEL)
    texts = [f"{i} " + "a long note about the garden and the kitchen " * 40 for i in range(16)]
    want = embedder.embed(texts[:8])
    session, table, mapping = _parts(embedder)
    got: dict = {}
    worker = threading.Thread(target=lambda: got.update(out=embedder.embed(texts)))
    worker.start()
    end = time.monotonic() + DEADLINE
    while embedder._running == 0 and time.monotonic() < end:
        time.sleep(0.001)
    with embedder._guard:
        in_flight = embedder._running
    embedder.close()
    assert in_flight == 1, "the embed on the other thread was not seen running"
    assert not mapping.closed, "unmapped under an embed in flight"
    with pytest.raises(ModelClosed):
        embedder.embed(["a new one is refused"])
    worker.join(DEADLINE)
    np.testing.assert_array_equal(got["out"][:8], want)
    assert mapping.closed and session() is None and table() is None


def test_a_session_held_elsewhere_keeps_its_table(caplog):
    """Against the contract, but not a crash: the table then goes with the session."""
    embedder = Embedder.load(MODEL)
    ids = np.array([[101, 7592, 102]], dtype=np.int64)
    feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
    want = embedder._session.run(None, feeds)[0]
    held = embedder._session
    _, table, mapping = _parts(embedder)
    with caplog.at_level(logging.ERROR):
        embedder.close()
    assert "still referenced" in caplog.text and not mapping.closed
    np.testing.assert_array_equal(held.run(None, feeds)[0], want)
    del held
    assert table() is None


def test_idle_counts_embeds_not_only_gets():
    """A holder embedding now and then (the filler's long drain) keeps the model: it is not closed
    under it for want of a get()."""
    model = SentenceModel(MODEL)
    embedder = model.require()
    model._used -= 3600  # the last get() an hour ago...
    embedder.embed(TEXTS)  # ...but it embedded just now
    assert not model.release_if_idle(60) and not embedder.closed
    time.sleep(0.02)
    assert model.release_if_idle(0.01) and embedder.closed


def test_a_memory_closes_the_model_it_made_not_one_it_was_given(embedded_store):
    own = Memory(embedded_store, Identity(device_id=uuid.uuid4()), owns_store=False)
    view = own.as_identity(Identity(device_id=uuid.uuid4()))
    embedder = own.model.require()
    view.close()
    assert not embedder.closed  # a view shares its owner's model
    own.close()
    assert embedder.closed
    given = SentenceModel(MODEL)
    kept = given.require()
    Memory(embedded_store, Identity(device_id=uuid.uuid4()), owns_store=False, model=given).close()
    assert not kept.closed
    kept.close()


# Released and loaded again in a loop while one thread embeds and another collects garbage: a
# segfault or bus error there is the process's death, so it runs in a child of its own.
STRESS = r"""
import gc, sys, threading, time
import numpy as np
from core.embed import SentenceModel
from core.embed.runtime import ModelClosed

model = SentenceModel(sys.argv[1])
cycles = int(sys.argv[2])
texts = ["the dentist is on Rua Augusta", "call Ana about the flight", "x " * 200]
want = model.require().embed(texts)
stop = threading.Event()
seen = {"embeds": 0, "refused": 0, "collections": 0, "wrong": 0, "in flight": 0}

def embedding():
    while not stop.is_set():
        embedder = model.get()
        try:
            out = embedder.embed(texts)
        except ModelClosed:
            seen["refused"] += 1
            continue
        seen["embeds"] += 1
        seen["wrong"] += not np.array_equal(out, want)

def collecting():
    while not stop.is_set():
        gc.collect()
        seen["collections"] += 1

threads = [threading.Thread(target=embedding), threading.Thread(target=collecting)]
for t in threads:
    t.start()
junk = []
try:
    for i in range(cycles):
        embedder = model.get()
        loop = [embedder]
        loop.append(loop)  # the closed embedder's last reference is a cycle: the collector frees it
        junk.append(loop)
        done = seen["embeds"]
        # let the embedding thread use this one (and be in an embed now)
        while seen["embeds"] < done + 2 and threads[0].is_alive():
            time.sleep(0.001)
        seen["in flight"] += embedder._running
        del embedder, loop
        if i % 2:
            model.close()
        else:
            model.release_if_idle(0)
        if i % 3 == 0:
            junk.clear()
finally:  # whatever failed, the threads end and the process with them
    stop.set()
    for t in threads:
        t.join()
model.close()
print("survived", seen)
assert seen["wrong"] == 0 and seen["embeds"] >= 2 * cycles, seen  # an embedding error ends it early
"""


def test_release_and_reload_under_embeds_and_collections_does_not_crash():
    proc = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", STRESS, str(MODEL), "12"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if proc.returncode < 0:
        pytest.fail(f"the process died of {signal.Signals(-proc.returncode).name}:\n{proc.stderr[-4000:]}")
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert "survived" in proc.stdout, proc.stdout


def test_the_model_writes_nothing_outside_the_data_dir_but_its_digests(tmp_path):
    """onnxruntime's telemetry keeps a device id under ~/.cache/Microsoft/DeveloperTools/ as it
    is imported: a real process with a home of its own loads the model and embeds. The one file
    written there is Neurons' own record of the model files' hashes (core/embed/digests.py)."""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    result = run_cli("ask", "the boiler", data_dir=tmp_path / "data", env=env)
    assert result.returncode == 0, result.stderr
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == [
        ".cache",
        ".cache/neurons",
        ".cache/neurons/model-digests.json",
    ]
