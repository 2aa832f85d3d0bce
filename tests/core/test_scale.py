"""A big memory: bulk writes of vectors, no index nothing reads, the recall index read in pages
and kept current without holding a whole import in memory. Speed itself is measured in
tests/bench (printed, never asserted); these tests hold the behaviour the speed relies on."""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from core.embed.runtime import DIM
from core.memory import Memory
from core.model import Edge, Identity, InvalidInput, Kind, Neuron, Relation, State
from core.opening import Opening
from core.recall import Asking, Recall, candidates, ranking, saved, windows
from core.recall.index import VECTOR_BLOCK, RecallIndex
from core.settings import Settings
from core.store import Store, recall_sql
from core.store import queries as q
from core.vocabulary import Fusion, Mode
from core.when import TimeWindow, find_window, fold
from core.when import window as window_module
from tests.conftest import ROOT, copy_data_dir
from tests.core.fake_reader import FakeReader


def _notes(memory, n: int, text: str = "note {i} about the garden") -> list[Neuron]:
    neurons = [Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body=text.format(i=i), attrs={}) for i in range(n)]
    memory.apply_import(neurons, [], [])
    return neurons


def _stored(memory, ids) -> dict[uuid.UUID, np.ndarray]:
    """The vectors as the store holds them (vector_send: exact float4)."""
    with memory.store.reading(memory.identity) as cur:
        cur.execute(
            "SELECT id, vector_send(embedding) AS v, embedding_model FROM neurons WHERE id = ANY(%s)",
            (list(ids),),
        )
        return {
            r["id"]: (np.frombuffer(r["v"], dtype=">f4", offset=4), r["embedding_model"])
            for r in cur.fetchall()
            if r["v"] is not None
        }


def test_the_store_keeps_no_index_on_the_vectors(memory):
    # nothing queries one (recall scores the vectors in process); keeping it cost every vector
    # written a graph insert (migration 008)
    with memory.store.reading(memory.identity) as cur:
        cur.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'neurons' AND indexdef ILIKE '%embedding%'"
            " AND indexdef NOT ILIKE '%WHERE (embedding IS NULL)%'"
        )
        assert [r["indexname"] for r in cur.fetchall()] == []


def test_save_vectors_writes_many_exactly(bulk_memory):
    # more rows than one statement carries, each vector kept to the last bit of its float32 (on
    # the bulk store: they are another model's, so the session's model would compute them again)
    memory = bulk_memory
    neurons = _notes(memory, q.ROWS_PER_STATEMENT + 237)
    rng = np.random.default_rng(5)
    vecs = rng.normal(size=(len(neurons), 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    memory.save_vectors([(n.id, v) for n, v in zip(neurons, vecs, strict=True)], "bench-model")
    stored = _stored(memory, [n.id for n in neurons])
    assert len(stored) == len(neurons)
    for n, v in zip(neurons, vecs, strict=True):
        got, model = stored[n.id]
        assert model == "bench-model"
        assert np.array_equal(got.astype(np.float32), v)


def test_save_vectors_skips_a_neuron_whose_text_changed(memory):
    a, b = _notes(memory, 2)
    memory.edit(b.id, text="a new text for b")
    memory.save_vectors([(a.id, [0.5] * 384), (b.id, [0.25] * 384)], "m", texts={a.id: a.body, b.id: b.body})
    stored = _stored(memory, [a.id, b.id])
    assert set(stored) == {a.id}


@pytest.mark.parametrize(
    "vec", [[0.1] * 383, [0.1] * 385, [float("nan")] + [0.1] * 383, [float("inf")] * 384, "0.1"]
)
def test_save_vectors_refuses_a_bad_vector_and_writes_nothing(memory, vec):
    a, b = _notes(memory, 2)
    with pytest.raises(InvalidInput):
        memory.save_vectors([(a.id, [0.5] * 384), (b.id, vec)], "m")
    assert _stored(memory, [a.id, b.id]) == {}


def test_save_vectors_needs_a_model_name(memory):
    (a,) = _notes(memory, 1)
    with pytest.raises(InvalidInput):
        memory.save_vectors([(a.id, [0.5] * 384)], " ")


# -- a time window's neurons, at once ---------------------------------------------------------------


def _slots_one_by_one(idx, window) -> list[int]:
    """The window's slots as recall found them before `windows.masks`: every entry read alone."""
    out = []
    for slot, entry in enumerate(idx.entries):
        if entry is not None and (
            windows.holds(entry, window) or window.dates == "any" and windows.says(entry, window)
        ):
            out.append(slot)
    return out


def _random_index(n: int, seed: int):
    rng = random.Random(seed)
    reader = FakeReader()
    start = datetime(2024, 1, 1, tzinfo=UTC)
    heads = ["went to the dentist yesterday", "our trip last year to Porto", "call Ana", "since March", ""]
    rules = [None, None, None, "FREQ=WEEKLY", "FREQ=MONTHLY;COUNT=3", "FREQ=DAILY;INTERVAL=10"]
    for _ in range(n):
        kind = rng.choice([Kind.NOTE, Kind.NOTE, Kind.REMINDER, Kind.REMINDER, Kind.CONTACT])
        created = start + timedelta(hours=rng.randint(0, 24 * 800), minutes=rng.randint(0, 59))
        attrs: dict = {}
        state = State.ACTIVE
        if kind is Kind.REMINDER:
            if rng.random() < 0.9:
                attrs["due_at"] = (created + timedelta(days=rng.randint(-30, 200))).isoformat()
            rule = rng.choice(rules)
            if rule:
                attrs["rrule"] = rule
            if rng.random() < 0.3:
                state = State.DONE
                attrs["done_at"] = (created + timedelta(days=rng.randint(0, 40))).isoformat()
        elif kind is Kind.CONTACT:
            attrs["name"] = f"Person {rng.randint(0, 999)}"
        body = rng.choice(heads) + f" number {rng.randint(0, 9999)}"
        reader.add(body, kind, attrs, created_at=created, state=rng.choice([state, state, State.ARCHIVED]))
    idx = RecallIndex(reader.identity)
    idx.refresh(reader, None)
    return idx


def _windows(now: datetime) -> list:
    found = []
    for question in (
        "what did I do last year",
        "what is due next week",
        "notes from March",
        "what did I finish yesterday",
        "what is overdue",
        "what happened in the summer",
        "what did I write on 3 May 2025",
        "reminders for tomorrow",
        "since Monday",
        "what was going on in 2024",
    ):
        window, _ = find_window(question, now)
        if window is not None:
            found.append(window)
    kinds = ("due", "created", "done", "any")
    for k in range(40):  # and windows of every kind of dates, long and short, over the whole span
        begin = datetime(2024, 1, 1, tzinfo=UTC) + timedelta(days=20 * k)
        found.append(
            TimeWindow(begin, begin + timedelta(days=1 + 7 * (k % 9)), "w", kinds[k % 4], k % 10 == 0)
        )
    return found


def test_a_windows_neurons_at_once_are_those_it_holds_one_by_one():
    idx = _random_index(3000, seed=11)
    now = datetime(2025, 6, 11, 19, 30, tzinfo=UTC)
    windows_ = _windows(now)
    assert len(windows_) > 45
    for window in windows_:
        assert windows.slots(idx, window) == _slots_one_by_one(idx, window), window
        held, _ = windows.masks(idx, window)
        inside = np.nonzero(held)[0]
        expected = [windows.when_in(idx.entries[s], window) for s in inside.tolist()]
        assert windows.moments(idx, window, inside).tolist() == expected


def test_a_big_window_gives_its_best_neurons_as_candidates(monkeypatch):
    # a window holding more than WINDOW_CANDIDATES: the candidates are the best by their own
    # score (a topic), or the first in the answer's order (dates alone) -- and the answer is the
    # one all of them gave
    idx = _random_index(3000, seed=5)
    now = datetime(2026, 6, 1, tzinfo=UTC)
    window, _ = find_window("what did I do last year", now)
    held = windows.masks(idx, window)
    inside = np.nonzero(held[0] | held[1])[0]
    assert inside.size > 300
    base = np.random.default_rng(3).random(idx.size)
    monkeypatch.setattr(ranking, "WINDOW_CANDIDATES", 100)
    best = candidates.window_candidates(idx, window, held, base, True, now)
    key = base + np.where(held[0], ranking.Weights.window, ranking.Weights.said)
    assert sorted(best) == sorted(sorted(inside.tolist(), key=lambda s: -key[s])[:100])
    first = candidates.window_candidates(idx, window, held, base, False, now)
    behind = sorted(np.nonzero(held[0])[0].tolist(), key=lambda s: -windows.when_in(idx.entries[s], window))
    assert sorted(first) == sorted(behind[:100])
    monkeypatch.setattr(ranking, "WINDOW_CANDIDATES", 10_000)
    assert sorted(candidates.window_candidates(idx, window, held, base, True, now)) == inside.tolist()


# -- a question's candidates, read from the index's columns ----------------------------------------


def _linked_index(n: int, seed: int):
    """n/4 notes and reminders and five contacts, linked at random (related, concerning,
    superseding)."""
    rng = random.Random(seed)
    reader = FakeReader()
    start = datetime(2024, 1, 1, tzinfo=UTC)
    kept = [
        reader.add(
            f"garden note {i}",
            Kind.REMINDER if i % 5 == 0 else Kind.NOTE,
            created_at=start + timedelta(hours=i % 40),
        )
        for i in range(n // 4)
    ]
    contacts = [
        reader.add(f"Person {i}", Kind.CONTACT, {"name": f"Person {i}"}, created_at=start) for i in range(5)
    ]
    for _ in range(n // 2):
        a, b = rng.choice(kept), rng.choice(kept + contacts)
        reader.link(a, b, rng.choice([Relation.RELATES_TO, Relation.CONCERNS, Relation.SUPERSEDES]))
    linked = RecallIndex(reader.identity)
    linked.refresh(reader, None)
    return linked, contacts


def _signals(idx, seed: int) -> candidates.Signals:
    rng = np.random.default_rng(seed)
    bm = np.where(rng.random(idx.size) < 0.3, rng.random(idx.size) * 5, 0.0)
    return candidates.Signals.of(bm, 4.0, rng.uniform(-0.2, 0.9, idx.size))


def test_a_questions_candidates_are_read_from_the_index_without_an_entry_a_row(monkeypatch):
    # each row made an Entry (its words as a tuple, its id as a UUID) where only its kind, date
    # and id were read: a question's table now comes from the index's columns
    idx, contacts = _linked_index(2000, seed=7)
    now = datetime(2025, 6, 11, 19, 30, tzinfo=UTC)
    made: list[int] = []
    entry = RecallIndex.entry
    monkeypatch.setattr(RecallIndex, "entry", lambda self, slot: made.append(slot) or entry(self, slot))
    rows = candidates.CandidateRows(idx, _signals(idx, 1), None, now, ["garden"])
    rows.pick(Mode.DEFAULT, Fusion.RELATIVE, ranking.DEFAULT)
    rows.follow(ranking.DEFAULT, ranking.HOP_SEEDS, [c.id for c in contacts])
    rows.supersedes()
    table = rows.table(True, 2, idx.count())
    assert made == []
    entries = [entry(idx, s) for s in rows.slots]
    assert len(entries) > 100 and len(table.link_seed) and len(table.sup_newer) and table.person_linked.any()
    assert list(table.ids) == [e.id for e in entries] and table.ids[-3:] == [e.id for e in entries[-3:]]
    assert table.created.tolist() == table.when.tolist() == [e.created for e in entries]
    assert table.contact.tolist() == [e.kind == "contact" for e in entries]
    assert table.reminder.tolist() == [e.kind == "reminder" for e in entries]
    # every link and supersedes edge between rows is one of the index's, seen from its seed
    for seed, other in zip(table.link_seed.tolist(), table.link_other.tolist(), strict=True):
        assert entries[other].id in {link.other for link in idx.links([entries[seed].id])}
    for newer, older in zip(table.sup_newer.tolist(), table.sup_older.tolist(), strict=True):
        assert (entries[newer].id, entries[older].id) in {
            (link.from_id, link.to_id) for link in idx.links([entries[newer].id], [Relation.SUPERSEDES])
        }


def test_a_windows_columns_of_the_candidates_are_those_each_rows_entry_gives():
    idx = _random_index(3000, seed=11)
    now = datetime(2025, 6, 11, 19, 30, tzinfo=UTC)
    recurring = idx.date_arrays()[3]
    for window in _windows(now):
        rows = candidates.CandidateRows(idx, _signals(idx, 2), window, now, ["number"])
        rows.pick(Mode.DEFAULT, Fusion.RELATIVE, ranking.DEFAULT)
        assert rows.window is not None
        got = rows.window.columns(rows.rows, True, 3, idx.count())
        held = rows.window.held[0]
        entries = [idx.entry(s) for s in rows.slots]
        inside = [
            bool(held[s]) or (bool(recurring[s]) and windows.holds(e, window))
            for s, e in zip(rows.slots, entries, strict=True)
        ]
        assert got["in_window"].tolist() == inside, window
        assert got["says_window"].tolist() == [
            window.dates == "any" and windows.says(e, window) for e in entries
        ]
        assert got["when"].tolist() == [
            windows.when_in(e, window) if h else e.created for e, h in zip(entries, inside, strict=True)
        ]


def test_what_a_question_made_ahead_of_its_vector_serves_only_the_index_it_was_made_for():
    idx, _ = _linked_index(400, seed=3)
    now = datetime(2025, 6, 11, 19, 30, tzinfo=UTC)
    ahead = candidates.Ahead.of(idx, ["garden"], find_window("what did I do last year", now)[0], now)
    assert ahead.fits(idx) and ahead.window is not None
    assert np.array_equal(ahead.bm, idx.bm25(["garden"], ranking.BM25_K1, ranking.BM25_B)[0])
    idx._drop(idx.id_at(int(np.nonzero(ahead.bm)[0][0])))
    idx.changed()
    assert not ahead.fits(idx)


def test_what_is_linked_to_the_people_a_question_names_is_made_ahead_for_the_index_as_it_was():
    reader = FakeReader()
    at = datetime(2024, 3, 1, tzinfo=UTC)
    ana = reader.add("Ana Lima", Kind.CONTACT, {"name": "Ana Lima"}, created_at=at)
    notes = [
        reader.add(f"the car needs tyres {i}" if i % 2 else f"Ana's car {i}", created_at=at) for i in range(6)
    ]
    for note in notes[:4]:
        reader.link(note, ana, Relation.CONCERNS)
    idx = RecallIndex(reader.identity)
    idx.refresh(reader, None)
    now = datetime(2025, 6, 11, 19, 30, tzinfo=UTC)
    ahead = candidates.Ahead.of(idx, ["ana", "car"], None, now, [ana.id])
    assert ahead.people == candidates.linked_to_people(idx, [ana.id], ["ana", "car"])
    assert sorted(unnamed for _, unnamed in ahead.people) == [False, False, True, True]
    assert candidates.Ahead.of(idx, ["car"], None, now).people is None
    reader.link(notes[5], ana, Relation.CONCERNS)  # only an edge: no row changed
    idx.refresh(reader, reader.seq)
    assert not ahead.fits(idx)


def test_a_person_beside_a_topic_is_answered_the_same_with_their_links_made_ahead(memory, monkeypatch):
    """What is linked to a person named beside a topic is gathered while the question's vector
    is computed: the answers are those of the gathering after it, to the last bit."""
    from core.recall import search as search_module  # noqa: PLC0415 - this test only

    at = datetime(2024, 3, 1, tzinfo=UTC)
    people = {n: memory.capture(n, kind="contact") for n in ("Ana Lima", "Rui Costa")}
    notes = [
        Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body=body, attrs={}, created_at=at + timedelta(hours=i))
        for i, body in enumerate(
            [
                "Ana's car needs new tyres",
                "the car is at the garage until friday",
                "book the garage for the brakes",
                "Rui lent us the ladder for the garden",
                "the garden hose leaks again",
                "buy seeds for the garden",
                "the car insurance is due in May",
            ]
        )
    ]
    edges = [
        Edge(id=uuid.uuid4(), from_id=notes[k].id, to_id=people[who].id, relation=Relation.CONCERNS)
        for k, who in ((0, "Ana Lima"), (1, "Ana Lima"), (2, "Ana Lima"), (3, "Rui Costa"), (4, "Rui Costa"))
    ]
    memory.apply_import(notes, [], edges)
    now = datetime(2024, 9, 1, tzinfo=UTC)
    questions = ["Ana's car", "what's going on with Rui's garden", "Ana Lima and the garage", "the car"]

    def answers() -> list:
        return [[(r.neuron.id, r.score, r.why) for r in memory.ask(q, now=now)] for q in questions]

    made = []
    of = candidates.Ahead.of
    monkeypatch.setattr(
        candidates.Ahead, "of", classmethod(lambda cls, *a, **k: made.append(of(*a, **k)) or made[-1])
    )
    ahead = answers()
    assert [m.people is not None for m in made] == [True, True, True, False]
    monkeypatch.setattr(search_module.Search, "_ahead", lambda self, q, people: None)
    assert answers() == ahead
    assert any(r[2].startswith("linked") or r[0] in {n.id for n in notes[1:3]} for r in ahead[0])


def test_a_slots_language_is_read_once_and_again_when_another_text_takes_it():
    reader = FakeReader()
    at = datetime(2024, 3, 1, tzinfo=UTC)
    note = reader.add("the dentist is on friday with my mother", created_at=at)
    idx = RecallIndex(reader.identity)
    idx.refresh(reader, None)
    slot = idx.slot(note.id)
    assert slot is not None and idx.written_in(slot) == "en"
    reader.seq += 1  # the same neuron, its text now in Portuguese
    reader.rows[note.id] = (
        reader.seq,
        replace(note, body="a consulta do dentista é na sexta com a minha mãe"),
    )
    idx.refresh(reader, reader.seq)
    assert idx.slot(note.id) == slot and idx.written_in(slot) == "pt"
    idx._drop(note.id)
    other = reader.add("der Termin beim Zahnarzt ist am Freitag mit meiner Mutter", created_at=at)
    idx.refresh(reader, reader.seq)
    assert idx.slot(other.id) == slot and idx.written_in(slot) == "de"  # the freed slot, taken again


def test_the_languages_of_many_texts_at_once_follow_the_rule_of_one():
    from core.recall import stopwords  # noqa: PLC0415 - this test only

    rng = random.Random(11)
    words = sorted(stopwords._WRITTEN)[::7] + ["garden", "ladder", "the", "and", "la", "de", "die"]
    texts = [tuple(rng.choice(words) for _ in range(rng.randrange(0, 9))) for _ in range(2000)]
    terms = sorted({w for t in texts for w in t})
    code = {w: i for i, w in enumerate(terms)}
    flat = np.asarray([code[w] for t in texts for w in t], dtype=np.int32)
    starts = np.concatenate(([0], np.cumsum([len(t) for t in texts]))).astype(np.int64)
    found, names = stopwords.written_in_each(terms, flat, starts)
    assert [names[k] for k in found.tolist()] == [stopwords.written_in(t) for t in texts]
    assert len({stopwords.written_in(t) for t in texts}) == 5


def test_the_languages_of_an_index_read_from_its_file_are_read_at_once_as_one_by_one(tmp_path, monkeypatch):
    """A question reads the language of each of its candidates; one by one that was a few ms of
    a question's CPU at 100k neurons (each question new slots). Made ready, every slot the file
    holds has its language read at once, the same as `written_in` reads it; a slot written since
    is read as it is asked for."""
    from core.recall import index as index_module  # noqa: PLC0415 - this test only
    from core.recall.stopwords import written_in  # noqa: PLC0415 - this test only

    reader = FakeReader()
    at = datetime(2024, 3, 1, tzinfo=UTC)
    said = [
        "the dentist is on friday with my mother",
        "a consulta do dentista é na sexta com a minha mãe",
        "la cita con el dentista es el viernes con mi madre",
        "der Termin beim Zahnarzt ist am Freitag mit meiner Mutter",
        "le rendez-vous chez le dentiste est vendredi avec ma mère",
        "com la",  # one word of each of two: too little to tell
        "pelo para los las",  # two of each: the first on a tie
        "und der mit les des",
        "",
        "ana",
    ]
    notes = [reader.add(f"{text} {i}", created_at=at) for i in range(30) for text in said]
    index = RecallIndex(reader.identity)
    index.refresh(reader, None)
    key = {"store": "test", "identity": ["device_id", str(reader.identity.value)]}
    assert saved.save(index, tmp_path / "index", key)
    loaded = saved.load(tmp_path / "index", key, reader.identity)
    assert loaded is not None
    changed = notes[3]
    reader.seq += 1
    reader.rows[changed.id] = (reader.seq, replace(changed, body="o meu irmão e a minha irmã"))
    added = reader.add("il est avec les enfants de la voisine", created_at=at)
    loaded.refresh(reader, reader.seq)
    loaded.prepare(None)
    index.refresh(reader, reader.seq)  # (built from the store: read one by one)

    read: list[int] = []
    monkeypatch.setattr(index_module, "written_in", lambda lexemes: read.append(1) or written_in(lexemes))
    live = [loaded.slot(n.id) for n in [*notes, added]]
    assert all(slot is not None for slot in live)
    got = [loaded.written_in(slot) for slot in live]
    assert len(read) == 2  # only the two slots written since the file
    assert got == [written_in(loaded.lexemes[slot] or ()) for slot in live]
    assert got == [index.written_in(index.slot(n.id)) for n in [*notes, added]]
    assert set(got) == {"en", "pt", "es", "de", "fr"} and got[3] == "pt" and got[-1] == "fr"


# -- a name many contacts share ---------------------------------------------------------------------


def test_a_first_name_several_contacts_share_keeps_the_questions_topic(memory):
    # the name was cut out of the question once per contact answering to it, each cut a little
    # further on: with three Johns "John's car?" lost "car" and became a question about John (at
    # 100k neurons, 69 Johns erased whole questions: the slowest of the bench)
    people = [
        Neuron(id=uuid.uuid4(), kind=Kind.CONTACT, body="John", attrs={"name": "John"}) for _ in range(3)
    ]
    car = Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body="John's car is at the garage on Main Street", attrs={})
    other = Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body="John likes the pizza place downtown", attrs={})
    memory.apply_import([*people, car, other], [], [])
    results = memory.ask("John's car?")
    assert results[0].neuron.id == car.id
    # naming only them still asks about them
    about = memory.ask("what about John?")
    assert about and about[0].neuron.kind is Kind.CONTACT


# -- the filler's queue -------------------------------------------------------------------------------


def test_pending_vectors_since_a_change_number(memory):
    a, b = _notes(memory, 2)
    memory.save_vectors([(a.id, [0.5] * 384), (b.id, [0.5] * 384)], "m")
    with memory.store.reading(every_owner=True) as cur:
        stamp = recall_sql.change_stamp(cur)
    c = memory.capture("a new note after the look", kind="note")
    memory.edit(a.id, text="a changed text needs a new vector")
    with memory.store.reading(every_owner=True) as cur:
        since = {nid for nid, _ in q.pending_embeddings(cur, "m", 1000, since=stamp)}
        everything = {nid for nid, _ in q.pending_embeddings(cur, "m", 100_000)}
    assert since == {c.id, a.id}
    assert {a.id, c.id} <= everything and b.id not in everything


def test_the_filler_still_fills_after_a_look_found_nothing(fresh_data_dir, sentence_model):
    # on a store of its own: the filler embeds every identity's neurons, and the session's shared
    # store holds what every earlier test of the worker wrote (thousands of imported items: the
    # wait for an empty queue failed at high load after the corpus's imports)
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        memory.start_background()
        try:
            assert _wait(lambda: memory.pending_vectors() == 0, 120)  # a look finds nothing pending
            note = memory.capture("captured after the queue was empty", kind="note")
            assert _wait(lambda: memory.get(note.id).embedding_model is not None, 60)
            memory.edit(note.id, text="edited after its vector was saved")
            assert memory.get(note.id).embedding_model is None
            assert _wait(lambda: memory.get(note.id).embedding_model is not None, 60)
        finally:
            memory.filler.stop(timeout=30)
            memory.filler = None


def test_a_start_looks_for_missing_vectors_only_among_what_was_written_since(fresh_data_dir, sentence_model):
    # the filler's first look and the pending count start where the last run found every vector
    # there (the store keeps that change number, migration 009), not at the whole table: a scan,
    # ~1 s each at 100k neurons on the embedded engine, on the connection the first question needs
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        old = _notes(memory, 3)  # written with their vectors, as an import or the bench's build
        vectors = memory.embedder().embed([n.body for n in old])
        memory.save_vectors([(n.id, v) for n, v in zip(old, vectors, strict=True)], sentence_model.name)
        with memory.store.reading(every_owner=True) as cur:
            written = recall_sql.change_stamp(cur)
        assert memory.fill_vectors() == 0  # the one look at the whole table
        with memory.store.reading(every_owner=True) as cur:
            assert q.vectors_clean_upto(cur, sentence_model.name) == written
            assert q.vectors_clean_upto(cur, "another model") is None  # a mark is one model's
        # a vector lost behind the change numbers' back: only a look at the whole table sees it
        with memory.store.transaction(every_owner=True) as cur:
            cur.execute("ALTER TABLE neurons DISABLE TRIGGER neurons_touch")
            cur.execute("UPDATE neurons SET embedding = NULL WHERE id = %s", (old[0].id,))
            cur.execute("ALTER TABLE neurons ENABLE TRIGGER neurons_touch")
    with Memory(Store(settings), model=sentence_model) as memory:
        assert memory.pending_vectors() == 0
        assert memory.vector_progress().pending == 0
        new = memory.capture("a note written after the mark", kind="note")
        assert memory.pending_vectors() == 1 and memory.vector_progress().pending == 1
        assert memory.fill_vectors() == 1  # the new one
        assert set(_stored(memory, [new.id, old[0].id])) == {new.id}
        assert memory.pending_vectors() == 0


def _wait(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


# -- the recall index kept between runs ---------------------------------------------------------------


def _occurrences(entry) -> list[datetime] | None:
    """What a recurring reminder's series gives over months (the one engine's answer)."""
    if entry.series is None:
        return None
    return list(entry.series.between(_SPAN[0], _SPAN[1], due=entry.due))


_SPAN = (datetime(2024, 3, 1, tzinfo=UTC), datetime(2025, 3, 1, tzinfo=UTC))


def _state(index) -> dict:
    """Everything the index knows, by id (slots may differ between two builds)."""
    out = {}
    for slot in range(index.size):
        nid = index.id_at(slot)
        if nid is None:
            continue
        e = index.entries[slot]
        out[nid] = (
            e.kind,
            e.state,
            e.created_at,
            e.created_at.utcoffset(),
            e.due,
            e.done,
            e.rrule,
            index.series_attrs.get(slot),
            _occurrences(e),
            e.said,
            e.contact,
            tuple(sorted(e.lexemes)),
            e.model,
            index.vector(slot).tobytes() if index.cols["has_vec"][slot] else None,
            float(index.cols["dl"][slot]),
        )
    postings = {lex: sorted(str(index.id_at(s)) for s in slots) for lex, slots in index.postings.items()}
    return {"neurons": out, "edges": dict(index.edges.items()), "postings": postings}


def _big_memory(memory, n: int):
    """n neurons of every kind, with links and vectors, through Memory."""
    rng = random.Random(4)
    start = datetime(2024, 3, 1, tzinfo=UTC)
    neurons = []
    for i in range(n):
        created = start + timedelta(
            hours=7 * i, seconds=rng.randint(0, 3599), microseconds=rng.randint(0, 999_999)
        )
        if i % 10 == 0:
            kind, body, attrs = (
                Kind.CONTACT,
                f"Person {i} Lastname",
                {"name": f"Person {i} Lastname", "org": f"Org {i % 7}"},
            )
        elif i % 3 == 0:
            kind, body = Kind.REMINDER, f"call the plumber about pipe {i}"
            attrs = {"due_at": (created + timedelta(days=rng.randint(-5, 90))).isoformat()}
            if i % 9 == 0:
                attrs["rrule"] = "FREQ=WEEKLY"
                if i % 2 == 0:  # one occurrence left out: only the series knows it
                    attrs["exdates"] = [
                        (datetime.fromisoformat(attrs["due_at"]) + timedelta(weeks=2)).isoformat()
                    ]
        else:
            kind, body, attrs = (
                Kind.NOTE,
                rng.choice(["went to the dentist yesterday", "garden plans", "a talk last week"]) + f" #{i}",
                {},
            )
        neurons.append(
            Neuron(id=uuid.uuid4(), kind=kind, body=body, attrs=attrs, created_at=created, updated_at=created)
        )
    memory.apply_import(neurons, [], [])
    edges = [
        Edge(id=uuid.uuid4(), from_id=neurons[a].id, to_id=neurons[b].id, relation=Relation.RELATES_TO)
        for a, b in ((rng.randrange(n), rng.randrange(n)) for _ in range(n // 2))
        if a != b
    ]
    memory.apply_import([], [], edges)
    vecs = np.random.default_rng(8).normal(size=(n, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    memory.save_vectors([(x.id, v) for x, v in zip(neurons, vecs, strict=True)], memory.embedder().name)
    return neurons


QUESTIONS = ("the plumber and the pipe", "dentist", "what is due next week", "garden", "Person 40 Lastname")


def _answers(memory) -> list:
    now = datetime(2024, 9, 1, tzinfo=UTC)
    return [
        [(r.neuron.id, round(r.score, 9), r.why) for r in memory.ask(text, now=now)] for text in QUESTIONS
    ]


def test_the_recall_index_kept_between_runs_is_the_one_the_store_gives(fresh_data_dir, sentence_model):
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        neurons = _big_memory(memory, saved.MIN_NEURONS + 500)
        before = _answers(memory)
        path = memory.recall.saved_at
    assert path.exists() and path.stat().st_mode & 0o777 == 0o600

    with Memory(Store(settings), model=sentence_model) as memory:
        assert _answers(memory) == before
        assert memory.recall.index.unsaved_reads == 0  # read from the file, nothing from the store
        # the recurring reminders' series came back with it (made again from what the file keeps)
        assert sum(s is not None for s in memory.recall.index.series.values()) > 20
        # what changes while no one saves it (the app killed): read on top of the file next time
        memory.capture("a new note about the plumber's pipe", kind="note")
        memory.edit(neurons[1].id, text="an edited note about the garden")
        memory.trash(neurons[2].id)
        memory.link(neurons[4].id, neurons[5].id, Relation.CONCERNS)
        memory.recall.saved_at = None  # this run does not save
    with Memory(Store(settings), model=sentence_model) as memory:
        after = _answers(memory)
        kept = _state(memory.recall.index)
        assert 0 < memory.recall.index.unsaved_reads < 10  # only the rows changed above
        fresh = Recall(memory.reader, memory.model.get)  # the same memory read from the store
        assert [
            [
                (r.neuron.id, round(r.score, 9), r.why)
                for r in fresh.ask(t, Asking.of(now=datetime(2024, 9, 1, tzinfo=UTC)))
            ]
            for t in QUESTIONS
        ] == after
        assert kept == _state(fresh.index)


def test_an_idle_recall_index_lets_its_memory_go_and_comes_back_the_same(fresh_data_dir, sentence_model):
    # in the tray, a big index goes like the idle model (core/resident.py): the next use reads it
    # back from its file, with what changed meanwhile from the store
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        neurons = _big_memory(memory, saved.MIN_NEURONS + 500)
        before = _answers(memory)
        index = memory.recall.index
        held = _state(index)
        assert not memory.recall.release_if_idle(60)  # just used
        time.sleep(0.05)
        assert memory.recall.release_if_idle(0.01)
        assert index.count() == 0 and index.blocks == [] and len(index.edges) == 0
        assert not memory.recall.release_if_idle(0.01)  # nothing left to let go
        assert _answers(memory) == before
        assert memory.recall.index is index and index.unsaved_reads == 0  # from the file
        assert _state(index) == held
        # a change after it went back: saved before the index goes again, and there once more
        memory.edit(neurons[1].id, text="an edited note about the garden")
        edited = _answers(memory)
        time.sleep(0.05)
        assert memory.recall.release_if_idle(0.01)
        assert _answers(memory) == edited and index.unsaved_reads == 0
        fresh = Recall(memory.reader, memory.model.get)  # the same memory read from the store
        fresh.ask("garden")
        assert _state(fresh.index) == _state(index)


def test_an_idle_recall_index_keeps_the_contacts_names_for_a_capture(fresh_data_dir, sentence_model):
    # a capture finds the people its text names in the names kept when the index went: it does
    # not wait for the whole index to be read back (~2 s at 100k) unless a contact changed since
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        neurons = _big_memory(memory, saved.MIN_NEURONS + 500)
        person = next(n for n in neurons if n.body == "Person 40 Lastname")
        memory.ask("garden")
        index = memory.recall.index
        time.sleep(0.05)
        assert memory.recall.release_if_idle(0.01)
        assert memory.preview("lunch with Person 40 Lastname on friday").mentions == [person.id]
        note = memory.capture("called Person 40 Lastname about the garden", kind="note")
        assert index.count() == 0  # still let go: the capture read only what changed since
        assert memory.preview("and Person 40 Lastname again").mentions == [person.id]
        assert index.count() == 0
        # a contact written meanwhile: the names are the index's again, read back with it
        other = memory.capture("Ada Newcontact", kind="contact")
        assert memory.preview("tea with Ada Newcontact").mentions == [other.id]
        assert index.count() > saved.MIN_NEURONS
        assert person.id in {r.neuron.id for r in memory.ask("Person 40 Lastname")}
        assert note.id in {r.neuron.id for r in memory.ask("called Person 40 Lastname about the garden")}


class _HeldEmbedder:
    """The real model, whose next question waits until `go` is set (an ask in flight)."""

    def __init__(self, model):
        self.model, self.go, self.waiting = model, threading.Event(), threading.Event()

    def __getattr__(self, name):
        return getattr(self.model, name)

    def embed(self, texts, *args, **kwargs):
        self.waiting.set()
        assert self.go.wait(60)
        return self.model.embed(texts, *args, **kwargs)


def test_an_idle_recall_index_is_not_let_go_under_a_question(fresh_data_dir, sentence_model):
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        _big_memory(memory, saved.MIN_NEURONS + 500)
        before = _answers(memory)
        held = _HeldEmbedder(sentence_model.get())
        memory.recall.embedder = lambda: held
        answer: list = []
        asking = threading.Thread(
            target=lambda: answer.append(memory.ask("garden", now=datetime(2024, 9, 1, tzinfo=UTC)))
        )
        asking.start()
        try:
            assert held.waiting.wait(60)  # the question has read the index and waits for its vector
            time.sleep(0.05)
            assert not memory.recall.release_if_idle(0.0)
        finally:
            held.go.set()
            asking.join(60)
        garden = before[QUESTIONS.index("garden")]
        assert [(r.neuron.id, round(r.score, 9), r.why) for r in answer[0]] == garden
        time.sleep(0.05)
        assert memory.recall.release_if_idle(0.01)  # once it is answered


def _read_back(tmp_path, n: int):
    """An index of n notes (each linked to the one before; every seventh superseding it too,
    every eleventh linked to itself) saved and read back from its file."""
    reader = FakeReader()
    start = datetime(2024, 3, 1, tzinfo=UTC)
    before = None
    for i in range(n):
        note = reader.add(f"note {i} about the garden word{i % 97} word{i % 89}", created_at=start)
        if before is not None:
            reader.link(before, note)
            if i % 7 == 0:
                reader.link(note, before, Relation.SUPERSEDES)
        if i % 11 == 0:
            reader.link(note, note, Relation.CONCERNS)
        before = note
    index = RecallIndex(reader.identity)
    index.refresh(reader, None)
    key = {"store": "test", "identity": ["device_id", str(reader.identity.value)]}
    path = tmp_path / f"index-{n}"
    assert saved.save(index, path, key)
    return index, path, key, reader


def test_an_index_read_from_its_file_makes_no_python_object_a_neuron(tmp_path):
    # at start the file's ids, lexemes, postings and edges stay arrays: what reading it makes
    # does not grow with the neurons (at 100k the objects took ~1 s of a start)
    import gc  # noqa: PLC0415 - this test only

    made = {}
    for n in (1000, 3000):
        _, path, key, reader = _read_back(tmp_path, n)
        gc.collect()
        gc.disable()
        try:
            count = len(gc.get_objects())
            loaded = saved.load(path, key, reader.identity)
            made[n] = len(gc.get_objects()) - count
        finally:
            gc.enable()
        assert loaded is not None and loaded.count() == n
    assert made[3000] - made[1000] < 200, made


def test_an_index_read_from_its_file_answers_as_the_one_it_was_saved_from(tmp_path):
    index, path, key, reader = _read_back(tmp_path, 600)
    loaded = saved.load(path, key, reader.identity)
    assert loaded is not None and _state(loaded) == _state(index)
    ids = [index.id_at(s) for s in range(index.size)]
    assert [loaded.slot(i) for i in ids] == [index.slot(i) for i in ids]
    assert loaded.slot(uuid.uuid4()) is None
    assert loaded.links(ids[:50]) == index.links(ids[:50])
    # the edges of many ids at once, of some relations only, in the order the index gives them
    for relations in (
        [Relation.SUPERSEDES],
        [Relation.CONCERNS, Relation.RELATES_TO],
        [Relation.SAME_PERSON],
    ):
        assert loaded.links(ids + ids[:5], relations) == index.links(ids + ids[:5], relations)
    assert len(index.links(ids, [Relation.SUPERSEDES])) == 2 * len(range(7, 600, 7))
    for relations in (None, [Relation.SUPERSEDES]):
        assert _linked_slots(loaded, ids + ids[:5], relations) == _linked_slots(
            index, ids + ids[:5], relations
        )
    assert np.array_equal(
        loaded.bm25(["garden", "word3"], 1.2, 0.75)[0], index.bm25(["garden", "word3"], 1.2, 0.75)[0]
    )
    # what changes after it was read moves it as it moves the index it was saved from
    for either in (index, loaded):
        for row in reader.index_rows(None)[0][:5]:
            either._drop(row["id"])
        either._drop_edge(reader.edges[10].id)
    reader.add("a new note about the word3 garden", created_at=datetime(2024, 4, 1, tzinfo=UTC))
    reader.link(next(iter(reader.rows.values()))[1], list(reader.rows.values())[-1][1])
    for either in (index, loaded):
        either.refresh(reader, None if either.seen_seq is None else reader.seq)
    assert _state(loaded) == _state(index)
    ids = [index.id_at(s) for s in range(index.size)]
    assert loaded.links([i for i in ids if i is not None]) == index.links([i for i in ids if i is not None])
    live = [i for i in ids if i is not None]
    assert _linked_slots(loaded, live, None) == _linked_slots(index, live, None)


def _linked_slots(idx: RecallIndex, ids: list, relations) -> list[tuple[int, uuid.UUID | None, bool, str]]:
    """`linked_slots` of `ids` as (the place of the id it was found from, the other end's id, going
    out), checked against `links_each`: the same edges in the same order, each end's slot the
    one the index gives its id (-1: no live neuron)."""
    ends = idx.linked_slots([idx.slot(i) for i in ids], relations)
    expected = [
        (
            at,
            -1 if idx.slot(link.other) is None else idx.slot(link.other),
            link.from_id == link.seed,
            link.relation,
        )
        for at, found in enumerate(idx.links_each(ids, relations))
        for link in found
    ]
    assert list(zip(ends.owners, ends.others, ends.outs, ends.relations, strict=True)) == expected
    return [(at, None if other < 0 else idx.id_at(other), out, rel) for at, other, out, rel in expected]


def test_a_persons_answer_makes_ids_only_for_the_rows_it_reads(tmp_path, monkeypatch):
    """What is about a person is gathered on the index's slots: of the hundreds of neurons
    linked to them, naming them or one hop further, only the answer's rows (and what each was
    found from) get an id -- on an index built from the store as on one read from its file --
    and the answer is the same either way."""
    from core.recall import about as about_module  # noqa: PLC0415 - this test only

    reader = FakeReader()
    start = datetime(2024, 3, 1, tzinfo=UTC)
    ana = reader.add("Ana Lima - neighbour", Kind.CONTACT, {"name": "Ana Lima"}, created_at=start)
    rui = reader.add("Rui Costa - plumber", Kind.CONTACT, {"name": "Rui Costa"}, created_at=start)
    before = None
    for i in range(400):
        at = start + timedelta(hours=i)
        note = reader.add(f"Ana Lima lent the ladder {i}" if i % 3 else f"garden note {i}", created_at=at)
        reader.link(note, ana if i % 2 else rui, Relation.CONCERNS)
        if before is not None:
            reader.link(before, note, Relation.SUPERSEDES if i % 13 == 0 else Relation.RELATES_TO)
        before = note
    index = RecallIndex(reader.identity)
    index.refresh(reader, None)
    key = {"store": "test", "identity": ["device_id", str(reader.identity.value)]}
    assert saved.save(index, tmp_path / "index", key)
    loaded = saved.load(tmp_path / "index", key, reader.identity)
    assert loaded is not None
    loaded.refresh(reader, reader.seq)

    made = []
    init = uuid.UUID.__init__

    def counted(self, *args, **kwargs):
        made.append(1)
        init(self, *args, **kwargs)

    answers = []
    for idx in (index, loaded):
        about_module.about(reader, idx, "Ana Lima")  # (their names' lexemes known after)
        monkeypatch.setattr(uuid.UUID, "__init__", counted)
        made.clear()
        answer = about_module.about(reader, idx, "Ana Lima")
        monkeypatch.setattr(uuid.UUID, "__init__", init)
        answers.append(answer.to_json())
        rows = len(answer.timeline)
        assert rows == 50 and answer.contact.id == ana.id
        assert len(made) <= 2 * rows, len(made)  # the rows and what each was found from
    assert answers[0] == answers[1]


@pytest.fixture(scope="module")
def saved_index(made_data_dir, tmp_path_factory, sentence_model) -> tuple[Path, list]:
    """A data dir whose recall index (big enough to be kept) was warmed and saved to its file, and
    the answers to QUESTIONS there: made once for the tests that each take a copy of it."""
    path = copy_data_dir(made_data_dir, tmp_path_factory.mktemp("saved-index") / "data")
    with Memory(
        Store(Settings(data_dir=path, model_dir=sentence_model.model_dir)), model=sentence_model
    ) as memory:
        _big_memory(memory, saved.MIN_NEURONS + 10)
        memory.recall.warm()
        answers = _answers(memory)
    return path, answers


def _with_a_saved_index(saved_index, tmp_path, sentence_model) -> Settings:
    """A copy of `saved_index`'s data dir, the settings to open it with."""
    path = copy_data_dir(saved_index[0], tmp_path / "data")
    return Settings(data_dir=path, model_dir=sentence_model.model_dir)


def test_the_saved_index_is_read_once_as_an_explicit_step(saved_index, tmp_path, sentence_model):
    settings = _with_a_saved_index(saved_index, tmp_path, sentence_model)
    with Memory(Store(settings), model=sentence_model) as memory:
        recall = memory.recall
        assert recall.index.count() == 0
        assert recall.restore()  # the file, before anything is read from the store
        assert recall.index.count() == saved.MIN_NEURONS + 10 and recall.index.unsaved_reads == 0
        assert not recall.restore()  # once
        assert not hasattr(recall.index, "restore")  # the index itself only reads the store


def test_the_index_read_back_as_the_memory_opens_leaves_the_warm_up_nothing_to_read(
    saved_index, tmp_path, sentence_model
):
    settings = _with_a_saved_index(saved_index, tmp_path, sentence_model)
    with Memory(Store(settings), model=sentence_model) as memory:
        before = _answers(memory)
    with Memory(Store(settings), model=sentence_model) as memory:
        assert memory.recall.read_back(memory.model.name)  # the desktop, before its window takes it
        index = memory.recall.index
        assert index._order is not None and index._names is not None
        assert index._mask_key is not None  # the model's vectors' mask, made ahead
        memory.recall.warm()
        assert index.unsaved_reads == 0
        assert _answers(memory) == before


def test_a_small_recall_index_with_no_file_stays(memory):
    _notes(memory, 5)
    memory.ask("garden")
    time.sleep(0.05)
    assert not memory.recall.release_if_idle(0.01)
    assert memory.recall.index.count() == 5


def _negative_lexeme(data: bytes) -> bytes:
    """The file with its first lexeme's number made -1 (a code before its table, not past it)."""
    length = int.from_bytes(data[len(saved.MAGIC) : len(saved.MAGIC) + 8], "little")
    header = json.loads(data[len(saved.MAGIC) + 8 : len(saved.MAGIC) + 8 + length])
    at = saved._aligned(len(saved.MAGIC) + 8 + length) + header["arrays"]["lex_terms"]["offset"]
    return data[:at] + (-1).to_bytes(4, "little", signed=True) + data[at + 4 :]


@pytest.mark.parametrize(
    "damage", ["garbage", "truncated", "other identity", "ahead of the store", "a lexeme before its table"]
)
def test_a_saved_index_that_does_not_fit_is_left_for_the_store(saved_index, tmp_path, sentence_model, damage):
    settings = _with_a_saved_index(saved_index, tmp_path, sentence_model)
    before = saved_index[1]
    with Memory(Store(settings), model=sentence_model) as memory:
        path, ident = memory.recall.saved_at, str(memory.identity.value)
        assert path.exists()
        if damage == "ahead of the store":  # a copy of the store from before the file was made
            assert memory.recall.restore()
            memory.recall.index.seen_seq += 1000
            memory.recall.index.changed()
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(data[:100] + bytes(range(256)) * 50 + data[100 + 256 * 50 :])
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "a lexeme before its table":
        path.write_bytes(_negative_lexeme(data))
    elif damage == "other identity":  # put where another identity's goes: its key says whose it is
        other = Identity(device_id=uuid.uuid4())
        path.with_name(path.name.replace(ident, str(other.device_id))).write_bytes(data)
        with Memory(Store(settings), model=sentence_model) as memory:
            view = memory.as_identity(other)
            assert view.ask("dentist") == []
            assert view.recall.index.count() == 0
    with Memory(Store(settings), model=sentence_model) as memory:
        assert _answers(memory) == before
        if damage != "other identity":  # (its own file is whole)
            assert memory.recall.index.unsaved_reads > saved.MIN_NEURONS  # read from the store


def _opened_reading_ahead(settings: Settings, monkeypatch) -> tuple[Memory, list[str]]:
    """The memory opened as the desktop opens it (the engine started ahead, the index's file read
    while it starts), and the order of the file's reads and the store's answer."""
    seen: list[str] = []
    read_ahead, load = saved.read_ahead, saved.load
    monkeypatch.setattr(saved, "read_ahead", lambda *a: seen.append("read ahead") or read_ahead(*a))
    monkeypatch.setattr(saved, "load", lambda *a: seen.append("read") or load(*a))
    settings = replace(settings, embed_in_background=False)  # no filler: the answers stay as they are
    opening = Opening(settings)

    def engine_up():
        store = opening.result()
        seen.append("store up")
        return store

    return Memory.open(settings, store=engine_up, read_ahead=True), seen


def test_the_index_read_while_the_engine_starts_is_taken_once_the_store_vouches_for_it(
    saved_index, tmp_path, sentence_model, monkeypatch
):
    settings = _with_a_saved_index(saved_index, tmp_path, sentence_model)
    memory, seen = _opened_reading_ahead(settings, monkeypatch)
    with memory:
        assert seen == ["read ahead", "store up"]  # the file read before the store answered
        assert memory.recall.index.count() == 0  # nothing used before the store vouched for it
        assert memory.recall.read_back(memory.model.name)
        assert seen == ["read ahead", "store up"]  # not read again
        memory.recall.warm()
        assert memory.recall.index.unsaved_reads == 0
        assert _answers(memory) == saved_index[1]


def _another_stores(data: bytes) -> bytes:
    """The file as another store would have written it: its key names another cluster (the
    system identifier's digits turned, the header's length kept)."""
    length = int.from_bytes(data[len(saved.MAGIC) : len(saved.MAGIC) + 8], "little")
    head = data[len(saved.MAGIC) + 8 : len(saved.MAGIC) + 8 + length]
    system = json.loads(head)["key"]["store"]["system"]
    other = "".join(str((int(d) + 1) % 10) for d in system)
    assert len(other) == len(system) and other != system
    return data.replace(head, head.replace(system.encode(), other.encode(), 1), 1)


@pytest.mark.parametrize(
    "case",
    ["another store", "ahead of the store", "truncated", "missing", "written after it was read ahead"],
)
def test_an_index_read_ahead_that_the_store_does_not_vouch_for_is_not_used(
    saved_index, tmp_path, sentence_model, monkeypatch, case
):
    settings = _with_a_saved_index(saved_index, tmp_path, sentence_model)
    with Memory(Store(settings), model=sentence_model) as memory:
        path = memory.recall.saved_at
        if case == "ahead of the store":  # a copy of the store from before the file was made
            assert memory.recall.restore()
            memory.recall.index.seen_seq += 1000
            memory.recall.index.changed()
    data = path.read_bytes()
    if case == "another store":
        path.write_bytes(_another_stores(data))
    elif case == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif case in ("missing", "written after it was read ahead"):
        path.unlink()
    memory, seen = _opened_reading_ahead(settings, monkeypatch)
    with memory:
        assert seen[:2] == ["read ahead", "store up"]
        if case == "written after it was read ahead":  # (another process saved it meanwhile)
            path.write_bytes(data)
        memory.recall.read_back(memory.model.name)
        assert _answers(memory) == saved_index[1]
        if case == "written after it was read ahead":
            assert seen == ["read ahead", "store up", "read"]  # the file as it is now
            assert memory.recall.index.unsaved_reads == 0
        else:
            assert memory.recall.index.unsaved_reads > saved.MIN_NEURONS  # read from the store


def test_an_index_read_ahead_older_than_the_store_is_brought_up_to_it(
    saved_index, tmp_path, sentence_model, monkeypatch
):
    settings = _with_a_saved_index(saved_index, tmp_path, sentence_model)
    with Memory(Store(settings), model=sentence_model) as memory:
        memory.capture("a new note about the zeppelin hangar", kind="note")
        gone = memory.ask("dentist")[0].neuron.id
        memory.trash(gone)
        memory.recall.saved_at = None  # written after the file was saved (the app killed)
    memory, seen = _opened_reading_ahead(settings, monkeypatch)
    with memory:
        assert memory.recall.read_back(memory.model.name)
        after = _answers(memory)
        assert 0 < memory.recall.index.unsaved_reads < 10  # only what changed since the file
        assert memory.ask("zeppelin")[0].neuron.body == "a new note about the zeppelin hangar"
        assert all(r.neuron.id != gone for r in memory.ask("dentist"))
        fresh = Recall(memory.reader, memory.model.get)  # the same memory read from the store
        now = datetime(2024, 9, 1, tzinfo=UTC)
        assert [
            [(r.neuron.id, round(r.score, 9), r.why) for r in fresh.ask(t, Asking.of(now=now))]
            for t in QUESTIONS
        ] == after


def test_a_restore_lets_the_saved_indexes_go(fresh_data_dir, sentence_model):
    settings = Settings(data_dir=fresh_data_dir, model_dir=sentence_model.model_dir)
    with Memory(Store(settings), model=sentence_model) as memory:
        neurons = _big_memory(memory, saved.MIN_NEURONS + 10)
        made = memory.backup()
        memory.recall.warm()  # read from the store: saved for the next start
        assert memory.recall.saved_at.exists()
        memory.apply_import(
            [Neuron(id=uuid.uuid4(), kind=Kind.NOTE, body="written after the backup", attrs={})], [], []
        )
        memory.restore_backup(str(made.path))
        assert not memory.recall.saved_at.exists()
        assert all(
            r.neuron.body != "written after the backup" for r in memory.ask("written after the backup")
        )
        assert memory.recall.index.count() == len(neurons)


# -- a note's time words ----------------------------------------------------------------------------


def _said_as_a_question(text: str, written: datetime) -> tuple[float, float] | None:
    """A note's time as `windows.said` read it first: the whole window a question gets."""
    if not text or not windows._TIME_WORD.search(fold(text)):
        return None
    window, _ = find_window(text, written)
    if window is None or window.anchor or window.overdue:
        return None
    return window.start.timestamp(), window.end.timestamp()


def test_a_notes_time_is_the_window_its_words_give_a_question():
    """On texts we did not write, at the moments they were written (the eval sets' own)."""
    read = 0
    paths = [ROOT / "tests" / "eval" / "own-personal.json", ROOT / "tests" / "eval" / "multilingual.json"]
    for path in [*paths, *sorted((ROOT.parent / "shared" / "eval").glob("*.json"))]:
        for space in json.loads(path.read_text())["spaces"]:
            for n in space["neurons"]:
                written = datetime.fromisoformat(n["created_at"])
                said = windows.said(n["text"], written)
                assert said == _said_as_a_question(n["text"], written), n["text"]
                read += said is not None
    assert read > 50


def test_a_notes_time_is_read_without_what_only_a_question_needs(monkeypatch):
    """No label said again in English, no rest of the question: half of reading a store's notes."""

    def asked(*args, **kwargs):
        raise AssertionError("a note's time read as a question's window")

    monkeypatch.setattr(window_module, "_said_in_english", asked)
    monkeypatch.setattr(window_module, "_cut_dangling", asked)
    written = datetime(2026, 3, 4, 10, tzinfo=UTC)
    assert windows.said("went to the support group yesterday", written) == (
        datetime(2026, 3, 3, tzinfo=UTC).timestamp(),
        datetime(2026, 3, 4, tzinfo=UTC).timestamp(),
    )


def _index_with_vectors(n: int, seed: int) -> tuple[RecallIndex, list[uuid.UUID], np.ndarray]:
    """An index of n notes with unit vectors of one model, every tenth a copy of the one before."""
    rng = np.random.default_rng(seed)
    reader = FakeReader()
    vecs = rng.standard_normal((n, DIM)).astype(np.float32)
    vecs[1::10] = vecs[0::10][: len(vecs[1::10])]
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    ids = []
    for i in range(n):
        neuron = reader.add(f"note {i}", created_at=start + timedelta(minutes=i))
        reader.vectors[neuron.id] = (vecs[i], "m")
        ids.append(neuron.id)
    idx = RecallIndex(reader.identity)
    idx.refresh(reader, None)
    return idx, ids, vecs


def test_the_index_keeps_a_vector_in_two_bytes_a_dimension_and_scores_it_as_the_float32_would():
    # 100k vectors as float32 were ~150 MB of the app's memory; as int16 codes and a scale, 77 MB
    idx, ids, vecs = _index_with_vectors(5000, seed=3)
    slots = np.array([idx.slot_of[nid] for nid in ids])
    assert sum(block.nbytes for block in idx.blocks) == len(idx.blocks) * VECTOR_BLOCK * DIM * 2
    rng = np.random.default_rng(5)
    for question in rng.standard_normal((20, DIM)):
        question /= np.linalg.norm(question)
        exact = vecs @ question
        cos = idx.cosine(question, "m")
        assert cos is not None
        got = cos[slots]
        assert np.abs(got - exact).max() < 2e-5
        assert (got[1::10] == got[0::10]).all()  # a copy ties with its original, as before
        # the order holds wherever the exact cosines are apart by more than the codes move them
        order = np.argsort(-exact, kind="stable")[:50]
        apart = np.diff(exact[order]) < -2e-5
        assert (np.diff(got[order])[apart] < 0).all()
    best, nearest = idx.similar_to([int(slots[0]), int(slots[7])], "m")
    want = np.maximum(vecs @ vecs[0], vecs @ vecs[7])
    keep = np.ones(len(ids), dtype=bool)
    keep[[0, 7]] = False
    assert np.abs(best[slots][keep] - want[keep]).max() < 2e-5
    assert nearest[slots[1]] == slots[0]  # the copy of the first finds it
    assert np.allclose(idx.vector(int(slots[2])), vecs[2], atol=1e-5)


def test_restoring_the_saved_index_waits_for_the_store_before_taking_the_index(
    saved_index, tmp_path, sentence_model
):
    """The store first, then the index, as the warm-up and the names take them: a restore that
    held the index's lock while it waited for the store deadlocked an ask against the warm-up."""
    settings = _with_a_saved_index(saved_index, tmp_path, sentence_model)
    with Memory(Store(settings), model=sentence_model) as memory:
        recall = memory.recall
        store_held, release = threading.Event(), threading.Event()

        def hold_the_store() -> None:  # another thread in a read of the store (a warm-up's session)
            with memory.store.reading(memory.identity):
                store_held.set()
                release.wait(30)

        holder = threading.Thread(target=hold_the_store)
        holder.start()
        assert store_held.wait(30)
        restored: list[bool] = []
        restoring = threading.Thread(target=lambda: restored.append(recall.restore()))
        restoring.start()
        time.sleep(0.5)  # the restore is waiting for the store now
        index_free = recall.index.lock.acquire(timeout=2)
        if index_free:
            recall.index.lock.release()
        release.set()
        holder.join(30)
        restoring.join(30)
        assert index_free, "the restore held the index's lock while it waited for the store"
        assert restored == [True] and recall.index.count() == saved.MIN_NEURONS + 10
