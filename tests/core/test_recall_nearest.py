"""The quick step of the search by meaning (core/recall/nearest.py): it finds the exact nearest of
real vectors, every cosine a ranking reads is exact whatever the step found, it keeps up with
vectors written after it was made, it is made only past its size, and it is made again from the
vectors, which are the truth (after a crash, or from codes gone wrong)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from core.embed.runtime import QUERY
from core.memory import Memory
from core.model import Kind, Neuron
from core.recall import nearest, saved
from core.recall.candidates import top_slots
from core.recall.index import VECTOR_BLOCK, RecallIndex
from core.settings import Settings
from core.store import Store
from tests.core.fake_reader import FakeReader

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2024, 9, 1, tzinfo=UTC)


def _texts(n: int) -> list[str]:
    """Real notes: the frozen eval sets' (every language), each once."""
    out: list[str] = []
    for path in sorted((ROOT / "tests" / "eval").glob("*.json")):
        for space in json.loads(path.read_text())["spaces"]:
            out += [x["text"] for x in space["neurons"] if x.get("text")]
    return list(dict.fromkeys(out))[:n]


def _questions() -> list[str]:
    out: list[str] = []
    for path in sorted((ROOT / "tests" / "eval").glob("*.json")):
        for space in json.loads(path.read_text())["spaces"]:
            out += [q["text"] for q in space["queries"]]
    return out[::9]


@pytest.fixture(scope="module")
def real(sentence_model):
    """600 real notes' vectors and 60-odd real questions' vectors, from the app's model."""
    emb = sentence_model.get()
    texts = _texts(600)
    return emb.name, emb.embed(texts), emb.embed(_questions(), QUERY)


def _index(model: str, vecs: np.ndarray) -> tuple[RecallIndex, FakeReader, list[uuid.UUID]]:
    reader = FakeReader()
    ids = []
    for i, v in enumerate(vecs):
        neuron = reader.add(f"note {i}", created_at=NOW - timedelta(hours=i))
        reader.vectors[neuron.id] = (v, model)
        ids.append(neuron.id)
    idx = RecallIndex(reader.identity)
    idx.refresh(reader, None)
    idx.nearest_min = 100  # the step from 100 vectors on
    idx.nearest_candidates = lambda n: n // 10  # 10% of them scored exactly (6% in the app)
    return idx, reader, ids


def test_the_quick_step_finds_the_exact_nearest_of_real_vectors(real):
    model, vecs, questions = real
    idx, _, _ = _index(model, vecs)
    assert idx.build_nearest(model)
    assert idx.nearest is not None and idx.nearest.nbytes < sum(b.nbytes for b in idx.blocks) / 2
    found = []
    for q in questions:
        exact = idx.cosine(q, model)
        approx, settled = idx.nearest_cosine(q, model)
        assert exact is not None and settled is not None
        assert settled.sum() == len(vecs) // 10
        # what it calls exact is the exact scan's cosine, to the bit
        assert np.array_equal(approx[settled], exact[settled])
        # the others are estimates below every neighbour it found: none ranks above one by meaning
        assert approx[~settled].max() <= approx[settled].min()
        last = np.sort(exact)[-10]
        found.append(np.mean(exact[top_slots(approx, 10)] >= last))
    assert np.mean(found) >= 0.95, np.mean(found)


def test_below_its_size_the_search_scans_every_vector(real):
    model, vecs, questions = real
    idx, _, _ = _index(model, vecs)
    idx.nearest_min = nearest.NEAREST_MIN  # as in the app: far more than 600
    assert not idx.build_nearest(model)
    assert idx.nearest is None
    cos, settled = idx.nearest_cosine(questions[0], model)
    assert settled is None
    assert np.array_equal(cos, idx.cosine(questions[0], model))


def test_a_vector_written_after_the_step_was_made_is_found(real):
    model, vecs, questions = real
    idx, reader, _ = _index(model, vecs)
    idx.build_nearest(model)
    fitted = idx.nearest
    grown = len(vecs) + 2 * VECTOR_BLOCK  # past the blocks the step was made with
    for i in range(len(vecs), grown):
        neuron = reader.add(f"note {i}", created_at=NOW)
        reader.vectors[neuron.id] = (vecs[i % len(vecs)], model)
    answer = reader.add("the question's own answer", created_at=NOW)
    reader.vectors[answer.id] = (questions[3], model)
    idx.refresh(reader, reader.change_stamp())
    assert idx.nearest is fitted  # kept current, not made again
    approx, settled = idx.nearest_cosine(questions[3], model)
    assert settled is not None
    best = int(np.nanargmax(approx))
    assert best == idx.slot(answer.id) and settled[best]
    # made again once the store has more than doubled since it was fitted
    assert idx.build_nearest(model) and idx.nearest is not fitted


def test_the_index_answers_while_the_step_is_made_and_what_is_written_meanwhile_is_in_it(real, monkeypatch):
    # the step takes seconds on a busy machine: a question meanwhile scans exactly, it does not wait
    model, vecs, questions = real
    idx, reader, _ = _index(model, vecs)
    started, go = threading.Event(), threading.Event()
    build = nearest.build

    def held(*args, **kwargs):
        started.set()
        assert go.wait(60)
        return build(*args, **kwargs)

    monkeypatch.setattr(nearest, "build", held)
    made: list[bool] = []
    making = threading.Thread(target=lambda: made.append(idx.build_nearest(model)))
    making.start()
    try:
        assert started.wait(60)
        assert idx.lock.acquire(timeout=5)  # the index is not held while the step is made
        idx.lock.release()
        cos, settled = idx.nearest_cosine(questions[3], model)
        assert settled is None and np.array_equal(cos, idx.cosine(questions[3], model))
        answer = reader.add("the question's own answer", created_at=NOW)
        reader.vectors[answer.id] = (questions[3], model)
        idx.refresh(reader, reader.change_stamp())  # written while the step is made
    finally:
        go.set()
        making.join(60)
    assert made == [True] and idx.nearest is not None
    approx, settled = idx.nearest_cosine(questions[3], model)
    assert settled is not None
    best = int(np.nanargmax(approx))
    assert best == idx.slot(answer.id) and settled[best]


def test_a_step_made_for_an_index_let_go_meanwhile_is_dropped(real, monkeypatch):
    model, vecs, _ = real
    idx, _, _ = _index(model, vecs)
    build = nearest.build

    def let_go_meanwhile(*args, **kwargs):
        made = build(*args, **kwargs)
        idx.take(RecallIndex(idx.identity))  # let go while it was made (the tray)
        return made

    monkeypatch.setattr(nearest, "build", let_go_meanwhile)
    assert not idx.build_nearest(model)
    assert idx.nearest is None and idx.size == 0


def test_codes_gone_wrong_cost_neighbours_never_a_wrong_cosine(real):
    model, vecs, questions = real
    idx, _, _ = _index(model, vecs)
    idx.build_nearest(model)
    assert idx.nearest is not None
    rng = np.random.default_rng(2)
    for block in idx.nearest.blocks:  # every code scrambled
        block[:] = rng.integers(-127, 128, size=block.shape, dtype=np.int8)
    for q in questions[:10]:
        exact = idx.cosine(q, model)
        approx, settled = idx.nearest_cosine(q, model)
        assert exact is not None and settled is not None
        assert np.array_equal(approx[settled], exact[settled])
    idx.nearest = None  # what a start finds: made again from the vectors
    assert idx.build_nearest(model)
    q = questions[0]
    exact = idx.cosine(q, model)
    approx, _ = idx.nearest_cosine(q, model)
    assert exact is not None
    assert int(np.nanargmax(approx)) == int(np.nanargmax(exact))


def test_the_build_tells_how_far_it_is_once_it_takes_a_second(monkeypatch):
    rng = np.random.default_rng(0)
    vecs = rng.standard_normal((3 * VECTOR_BLOCK, 384)).astype(np.float32)
    told: list[tuple[int, int]] = []

    def rows(slots: np.ndarray) -> np.ndarray:
        time.sleep(0.4)  # a slow machine
        return vecs[slots]

    slots = np.arange(len(vecs))
    nearest.build(rows, slots, len(vecs), 0, VECTOR_BLOCK, progress=lambda d, t: told.append((d, t)))
    assert told and told[-1] == (len(vecs), len(vecs))
    assert all(t == len(vecs) for _, t in told)
    told.clear()
    # a build within its second, whatever the machine's load: its clock stands still
    monkeypatch.setattr(nearest, "time", SimpleNamespace(monotonic=lambda: 0.0))
    nearest.build(
        lambda s: vecs[s], slots, len(vecs), 0, VECTOR_BLOCK, progress=lambda d, t: told.append((d, t))
    )
    assert told == []  # quick: nothing to tell


def _notes(memory: Memory, texts: list[str]) -> list[Neuron]:
    neurons = [
        Neuron(
            id=uuid.uuid4(),
            kind=Kind.NOTE,
            body=t,
            created_at=NOW - timedelta(days=i),
            updated_at=NOW - timedelta(days=i),
        )
        for i, t in enumerate(texts)
    ]
    memory.apply_import(neurons, [], [])
    memory.fill_vectors()
    return neurons


def _answers(memory: Memory, questions: list[str]) -> list:
    return [
        [(r.neuron.id, round(r.score, 9), r.why) for r in memory.ask(q, limit=10, now=NOW)] for q in questions
    ]


ASKED = [
    "when did I go to the dentist",
    "what did I do last week",
    "how is the garden doing",
    "anything about money",
    "what happened in August",
]


def test_every_cosine_the_ranking_reads_is_exact_with_the_quick_step(memory):
    # Fewer notes than the vector candidates: every note is a candidate, so only the cosines the
    # ranking reads can move an answer -- and with the step they are the exact ones still, even
    # when the step scored only two of them exactly itself and its codes are scrambled.
    _notes(memory, _texts(80))
    exact = _answers(memory, ASKED)
    idx = memory.recall.index
    idx.nearest_min, idx.nearest_candidates = 10, lambda n: 2
    assert memory.prepare_nearest()
    assert _answers(memory, ASKED) == exact
    assert idx.nearest is not None
    for block in idx.nearest.blocks:
        block[:] = np.random.default_rng(1).integers(-127, 128, size=block.shape, dtype=np.int8)
    assert _answers(memory, ASKED) == exact


@pytest.mark.parametrize("damage", ["missing", "truncated"])
def test_after_a_crash_the_quick_step_is_made_again_from_the_vectors(
    fresh_data_dir, sentence_model, monkeypatch, damage
):
    monkeypatch.setattr(saved, "MIN_NEURONS", 50)
    monkeypatch.setattr(nearest, "NEAREST_MIN", 50)
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        _notes(memory, _texts(120))
        memory.recall.warm()
        assert memory.prepare_nearest()
        before = _answers(memory, ASKED)
        path = memory.recall.saved_at
        memory.recall.keep()  # (the warm-up saved it already, having read the store)
    # nothing of the step is on disk: the index file holds the vectors it is made from
    assert path.exists()
    if damage == "missing":
        path.unlink()
    else:
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with Memory(Store(settings), model=sentence_model) as memory:
        memory.recall.warm()
        assert memory.recall.index.nearest is None
        assert memory.prepare_nearest()
        assert not memory.prepare_nearest()  # made once, current since
        assert _answers(memory, ASKED) == before
        # the desktop prepares it now and then: that is no use of the index, which an idle
        # app still lets go
        time.sleep(0.3)
        memory.prepare_nearest()
        assert memory.recall.release_if_idle(0.25)


def test_below_its_size_the_levelling_of_languages_reads_the_scan_cosines(memory, monkeypatch):
    # Notes in five languages (the eval sets'): the levelling across languages reads each
    # candidate's exact cosine; below the step's size the full scan has made them all, so none
    # is computed again -- and the answers are those of the step, whose cosines are exact too.
    _notes(memory, _texts(80))
    asked = [*ASKED, "o que fiz no fim de semana", "¿qué pasó con el coche?", "was war beim Arzt?"]
    idx = memory.recall.index
    again: list[int] = []
    real_cosines_of = RecallIndex.cosines_of

    def counted(self, qvec, slots, model):
        again.append(len(slots))
        return real_cosines_of(self, qvec, slots, model)

    monkeypatch.setattr(RecallIndex, "cosines_of", counted)
    scanned = _answers(memory, asked)
    assert again == []
    idx.nearest_min, idx.nearest_candidates = 10, lambda n: 2
    assert memory.prepare_nearest()
    assert _answers(memory, asked) == scanned
    assert again  # the step's candidates, and the levelling's, scored exactly on demand


def test_the_languages_of_a_memory_are_read_from_a_sample_that_stays_put(monkeypatch):
    # How far a question leans to a language is read over a sample of the memory's notes: all of
    # a small memory's (not its cards), every k-th slot of a larger one -- the same slots while
    # it grows.
    from core.recall import candidates, ranking  # noqa: PLC0415 - the unit under test

    reader = FakeReader()
    card = reader.add("Ana Lopes", Kind.CONTACT, {"name": "Ana Lopes"}, created_at=NOW)
    pt = [reader.add(f"a mãe foi ao médico e o pai ficou em casa {i}", created_at=NOW) for i in range(4)]
    de = [
        reader.add(f"die Mutter war beim Arzt und der Vater ist zu Hause {i}", created_at=NOW)
        for i in range(4)
    ]
    en = [reader.add(f"bought bread and milk {i}", created_at=NOW) for i in range(4)]
    idx = RecallIndex(reader.identity)
    idx.refresh(reader, None)
    slots, written = candidates.language_sample(idx)
    assert idx.slot(card.id) not in set(slots.tolist())
    by = dict(zip(slots.tolist(), written.tolist(), strict=True))
    assert {by[idx.slot(n.id)] for n in pt} == {"pt"}
    assert {by[idx.slot(n.id)] for n in de} == {"de"}
    assert {by[idx.slot(n.id)] for n in en} == {"en"}
    monkeypatch.setattr(ranking, "LANGUAGE_SAMPLE", 4)
    idx.languages_sampled = None  # sampled again at the smaller size
    first, _ = candidates.language_sample(idx)
    assert 0 < first.size <= 4
    reader.add("one more note", created_at=NOW)
    idx.refresh(reader, reader.change_stamp())
    assert idx.size == 14  # every 4th slot still
    grown, _ = candidates.language_sample(idx)
    assert set(first.tolist()) <= set(grown.tolist())
