"""Vectors through Memory: filled in the background, cleared by edits, rebuilt by reindex."""

from __future__ import annotations

import time
import uuid

import numpy as np

from core.embed import variant_name
from core.memory import Memory
from core.model import Identity
from core.settings import Settings
from core.store import queries as q
from tests.conftest import cli


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def stored_vector(memory, nid):
    with memory.store.reading(memory.identity) as cur:
        cur.execute("SELECT embedding::text AS v FROM neurons WHERE id = %s", (nid,))
        text = cur.fetchone()["v"]
    return None if text is None else np.array([float(x) for x in text.strip("[]").split(",")])


def test_background_filler_gives_captures_their_vector(store):
    memory = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False)
    memory.start_background()
    try:
        note = memory.capture("The blue bicycle is in the garage", kind="note")
        assert note.embedding_model is None  # saved at once, never waits for the model
        assert wait_for(lambda: memory.get(note.id).embedding_model == variant_name("fp32"))
        expected = memory.embedder().embed_one("The blue bicycle is in the garage")
        assert np.allclose(stored_vector(memory, note.id), expected, atol=1e-5)

        memory.edit(note.id, text="The red bicycle is at Ana's")
        assert memory.get(note.id).embedding_model is None
        assert wait_for(lambda: memory.get(note.id).embedding_model is not None)
        expected = memory.embedder().embed_one("The red bicycle is at Ana's")
        assert np.allclose(stored_vector(memory, note.id), expected, atol=1e-5)
    finally:
        memory.close()


def test_stale_vector_is_not_saved_over_an_edit(embedded_memory):
    memory = embedded_memory
    note = memory.capture("first text", kind="note")
    with memory.store.transaction(every_owner=True) as cur:
        q.save_embeddings(cur, [(note.id, [0.5] * 384)], "m", texts={note.id: "another text"})
    assert memory.get(note.id).embedding_model is None


def test_missing_model_keeps_capture_and_keyword_search(tmp_path, fresh_data_dir):
    settings = Settings(data_dir=fresh_data_dir, model_dir=tmp_path / "no-model")
    with Memory.open(settings) as memory:
        note = memory.capture("keyword search still works", kind="note")
        assert [n.id for n in memory.search("keyword")] == [note.id]
        assert memory.embedder() is None
        report = memory.doctor()
        assert report["model"]["ready"] is False and report["model"]["error"]
        assert report["pending_vectors"] == 1


def test_reindex_cli_with_progress(fresh_data_dir):
    data = fresh_data_dir
    for text in ("one", "two", "three"):
        assert cli("capture", text, "--kind", "note", data_dir=data).returncode == 0
    done = cli("reindex", data_dir=data)
    assert done.returncode == 0, done.stderr
    assert "reindexed 3 neurons" in done.stdout
    assert "3/3" in done.stderr  # the progress bar
    doctor = cli("doctor", "--json", data_dir=data)
    assert '"pending_vectors": 0' in doctor.stdout
