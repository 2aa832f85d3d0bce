"""A store made with the model before (all-MiniLM-L6-v2) moves to multilingual-e5-small by itself.

Real models, a real embedded store: the shared English development memory is ingested and embedded
with MiniLM, then the data dir is opened with today's default model. Until the filler has re-embedded
a neuron its MiniLM vector is never compared with an e5 question (keyword search answers meanwhile);
the filler moves every vector over in the background, and the same English questions are answered
at least as well as before.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest

from core.embed import MINILM, MODEL_NAME
from core.embed.export import export_model
from core.evaluate import aggregate, ingest_space, load_dataset, parse_instant, score_query
from core.memory import Memory
from core.model import Identity
from core.settings import Settings, default_model_dir
from core.store import queries as q

ROOT = Path(__file__).resolve().parents[2]
DEV = ROOT.parent / "shared" / "eval" / "dev-personal.json"
DEADLINE = 600.0  # the filler on a busy 2-core machine; never a timing assertion


def _score(memory: Memory, spaces) -> dict[str, float]:
    scored = []
    for space, identity, back in spaces:
        view = memory.as_identity(identity)
        now = parse_instant(space["now"], "now")
        for query in space["queries"]:
            if query.get("gold"):
                ranked = [back.get(r.neuron.id) for r in view.ask(query["text"], limit=10, now=now)]
                scored.append(
                    (query.get("category") or "-", score_query(ranked, query["gold"], query.get("avoid")))
                )
    return aggregate(scored)["ALL"]


def _models(memory: Memory) -> dict[str | None, int]:
    with memory.store.reading(every_owner=True) as cur:
        cur.execute("SELECT embedding_model AS m, count(*) AS n FROM neurons GROUP BY 1")
        return {r["m"]: r["n"] for r in cur.fetchall()}


@pytest.mark.slow
def test_a_minilm_store_moves_to_e5_and_answers_at_least_as_well(tmp_path):
    minilm_dir = export_model(model=MINILM, int8=True, echo=None).out_dir
    e5_dir = export_model(default_model_dir(), echo=None).out_dir
    data = load_dataset(DEV)
    folder = tmp_path / "data"

    # -- yesterday: the store made and embedded with MiniLM
    spaces = []
    with Memory.open(Settings(data_dir=folder, model_dir=minilm_dir, embed_in_background=False)) as old:
        for space in data["spaces"]:
            identity = Identity(device_id=uuid.uuid4())
            ids = ingest_space(old.as_identity(identity), space, "given")
            spaces.append((space, identity, {v: k for k, v in ids.items()}))
        old.fill_vectors()
        total = sum(_models(old).values())
        assert _models(old) == {MINILM: total}
        before = _score(old, spaces)

    # -- the upgrade: the same data dir, today's model, the filler not started yet
    with Memory.open(Settings(data_dir=folder, model_dir=e5_dir, embed_in_background=False)) as new:
        assert new.model.name == MODEL_NAME
        progress = new.vector_progress()
        assert (progress.pending, progress.total, progress.old, progress.upgrading) == (
            total,
            total,
            total,
            True,
        )
        # a question now is embedded with e5 and meets no MiniLM vector: keyword search answers
        space, identity, _ = spaces[0]
        view = new.as_identity(identity)
        now = parse_instant(space["now"], "now")
        for query in space["queries"][:15]:
            for r in view.ask(query["text"], limit=10, now=now):
                assert r.parts.get("cos", 0.0) == 0.0, (query["text"], r.neuron.title, r.parts)
        with view.recall.index.lock:
            assert view.recall.index.size and not view.recall.index.with_vector(MODEL_NAME).any()

        # the background filler moves every vector over, newest first, and says how far it is
        new.start_background()
        seen = []
        deadline = time.monotonic() + DEADLINE
        while (p := new.vector_progress()).pending and time.monotonic() < deadline:
            seen.append(p.pending)
            time.sleep(0.5)
        assert new.vector_progress().pending == 0, "the filler did not finish re-embedding"
        assert _models(new) == {MODEL_NAME: total}
        assert not new.vector_progress().upgrading
        assert seen == sorted(seen, reverse=True)  # it only goes down
        with new.store.reading(every_owner=True) as cur:
            assert q.count_pending_embeddings(cur, MODEL_NAME) == 0
        after = _score(new, spaces)

    print(
        f"\n[upgrade] dev-personal, MiniLM store: R@5 {before['R@5']:.3f} R@10 {before['R@10']:.3f}; "
        f"moved to e5: R@5 {after['R@5']:.3f} R@10 {after['R@10']:.3f}"
    )
    assert after["R@5"] >= before["R@5"] and after["R@10"] >= before["R@10"]
