"""A store made with the model before (all-MiniLM-L6-v2) moves to multilingual-e5-small by itself.

Real models, a real embedded store: the shared English development memory is ingested and embedded
with MiniLM, then the data dir is opened with today's default model. Until the filler has re-embedded
a neuron its MiniLM vector is never compared with an e5 question (keyword search answers meanwhile);
the filler moves every vector over in the background, and the same English questions are answered
at least as well as before, and English on every set stays within 0.02 of e5's figures the day it
became the default for good (MiniLM's export stays, for these tests only).
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest

from core.embed import MINILM, MODEL_NAME
from core.embed.export import export_model
from core.evaluate import aggregate, evaluate, ingest_space, load_dataset, parse_instant, score_query
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


@pytest.fixture(scope="module")
def upgrade(tmp_path_factory) -> dict:
    """The whole story once: made and embedded with MiniLM, opened with e5, moved over by the filler."""
    minilm_dir = export_model(model=MINILM, int8=True, echo=None).out_dir
    e5_dir = export_model(default_model_dir(), echo=None).out_dir
    data = load_dataset(DEV)
    folder = tmp_path_factory.mktemp("upgrade") / "data"
    facts: dict = {}

    # -- yesterday: the store made and embedded with MiniLM
    spaces = []
    with Memory.open(Settings(data_dir=folder, model_dir=minilm_dir, embed_in_background=False)) as old:
        for space in data["spaces"]:
            identity = Identity(device_id=uuid.uuid4())
            ids = ingest_space(old.as_identity(identity), space, "given")
            spaces.append((space, identity, {v: k for k, v in ids.items()}))
        old.fill_vectors()
        facts["total"] = sum(_models(old).values())
        facts["models before"] = _models(old)
        facts["before"] = _score(old, spaces)

    # -- the upgrade: the same data dir, today's model, the filler not started yet
    with Memory.open(Settings(data_dir=folder, model_dir=e5_dir, embed_in_background=False)) as new:
        facts["name"] = new.model.name
        facts["progress at open"] = new.vector_progress()
        # a question now is embedded with e5 and meets no MiniLM vector: keyword search answers
        space, identity, _ = spaces[0]
        view = new.as_identity(identity)
        now = parse_instant(space["now"], "now")
        facts["cosines meanwhile"] = [
            r.parts.get("cos", 0.0)
            for query in space["queries"]
            for r in view.ask(query["text"], limit=10, now=now)
        ]
        with view.recall.index.lock:
            facts["indexed"] = view.recall.index.size
            facts["e5 vectors meanwhile"] = int(view.recall.index.with_vector(MODEL_NAME).sum())
        facts["meanwhile"] = _score(new, spaces)

        # the background filler moves every vector over, newest first, and says how far it is
        new.start_background()
        seen = []
        deadline = time.monotonic() + DEADLINE
        while (p := new.vector_progress()).pending and time.monotonic() < deadline:
            seen.append(p.pending)
            time.sleep(0.5)
        facts["seen"] = seen
        facts["progress after"] = new.vector_progress()
        facts["models after"] = _models(new)
        with new.store.reading(every_owner=True) as cur:
            facts["pending after"] = q.count_pending_embeddings(cur, MODEL_NAME)
        facts["after"] = _score(new, spaces)
    b, m, a = facts["before"], facts["meanwhile"], facts["after"]
    print(
        f"\n[upgrade] dev-personal R@5 / R@10: MiniLM store {b['R@5']:.3f} / {b['R@10']:.3f}; with e5, "
        f"before re-embedding {m['R@5']:.3f} / {m['R@10']:.3f}; moved to e5 {a['R@5']:.3f} / {a['R@10']:.3f}"
    )
    return facts


@pytest.mark.slow
def test_a_minilm_store_moves_to_e5_by_itself(upgrade):
    total = upgrade["total"]
    assert upgrade["models before"] == {MINILM: total}
    assert upgrade["name"] == MODEL_NAME
    progress = upgrade["progress at open"]
    assert (progress.pending, progress.total, progress.old, progress.upgrading) == (total, total, total, True)
    # until re-embedded, no MiniLM vector is compared with an e5 question
    assert upgrade["indexed"] and upgrade["e5 vectors meanwhile"] == 0
    assert upgrade["cosines meanwhile"] and set(upgrade["cosines meanwhile"]) == {0.0}
    # the filler moved every vector, and the count only went down
    assert upgrade["pending after"] == 0 and upgrade["models after"] == {MODEL_NAME: total}
    assert not upgrade["progress after"].upgrading and upgrade["progress after"].pending == 0
    assert upgrade["seen"] == sorted(upgrade["seen"], reverse=True)
    # and meaning counts again: better than the words alone it had meanwhile
    assert upgrade["after"]["R@5"] > upgrade["meanwhile"]["R@5"]


# e5's figures on the English sets the day it became the default for good (`neurons eval SET
# --modes default`, edges given; 2026-12-05, main at 1924559): MiniLM's were within a question or two
# of them on memories nobody here wrote, so these are the figures English keeps from now on. LoCoMo's
# English (R@5 / R@10 / MRR .623 / .697 / .487) is too big a set for the suite: `neurons eval`.
E5_TODAY = {
    "own-personal": {"R@5": 0.8369, "R@10": 0.9698, "MRR": 0.8793},
    "households": {"R@5": 0.8799, "R@10": 0.9551, "MRR": 0.8759},
    "dev-personal": {"R@5": 0.8377, "R@10": 0.9351, "MRR": 0.8544},
}
WITHIN = 0.02
SETS = {"own-personal": ROOT / "tests" / "eval" / "own-personal.json",
        "households": ROOT / "tests" / "eval" / "households.json",
        "dev-personal": DEV}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(E5_TODAY))
def test_english_stays_within_reach_of_e5s_figures(name, fresh_data_dir):
    if not SETS[name].exists():
        pytest.skip(f"{SETS[name]} is not in this checkout")
    settings = Settings(data_dir=fresh_data_dir, embed_in_background=False)
    with Memory.open(settings) as memory:
        assert memory.model.name == MODEL_NAME
        report = evaluate(memory, load_dataset(SETS[name]), ["default"], "given")
    got = report["modes"]["default"]["ALL"]
    print(
        f"\n[english] {name}: "
        + ", ".join(f"{m} {got[m]:.3f} (e5 {v:.3f})" for m, v in E5_TODAY[name].items())
    )
    for metric, figure in E5_TODAY[name].items():
        assert got[metric] >= figure - WITHIN, (name, metric)
