"""The fitted ranking's promises, on the fake reader (keyword recall, under the weights
shipped for the default model), on `ranking.rank` itself, and the fitting tool's search."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import numpy as np

from core.embed.runtime import DIM, Calibration
from core.model import Kind, Relation
from core.recall import Asking, Recall, ranking
from core.recall.fitted import DEFAULT_MODEL
from core.recall.search import Search
from tests.core.fake_reader import FakeReader
from tests.eval import fit

TZ = ZoneInfo("Europe/London")
NOW = datetime(2025, 3, 18, 20, 30, tzinfo=TZ)  # a Tuesday evening


def at(days: float, hour: int = 12) -> datetime:
    return (NOW + timedelta(days=days)).replace(hour=hour, minute=0)


def ask(reader: FakeReader, question: str, limit: int = 10) -> list:
    return Recall(reader, lambda: None).ask(question, Asking.of(limit, now=NOW))


def fillers(reader: FakeReader, n: int = 30) -> None:
    """A memory, not only the rows under test: unrelated notes over the last year."""
    words = "bread tyres film shoes plumber gym seeds garden paint bike lamp curtains".split()
    for i in range(n):
        reader.add(
            f"{words[i % len(words)]} {words[(i * 5 + 3) % len(words)]} #{i}", created_at=at(-20 - 9 * i)
        )


def dads_memory() -> tuple[FakeReader, dict]:
    """The issue's example: a reminder linked to a note about Dad, among many more notes about him."""
    reader = FakeReader()
    dad = reader.add("Dad", Kind.CONTACT, {"name": "Tom Reid", "aliases": ["Dad"]}, created_at=at(-400))
    test = reader.add("Dad's swallowing test: he needs thickened drinks from now on", created_at=at(-6))
    boxes = reader.add(
        "order two boxes from the pharmacy",
        Kind.REMINDER,
        {"due_at": at(2).isoformat()},
        created_at=at(-6, 13),
    )
    reader.link(test, dad, Relation.CONCERNS)
    reader.link(boxes, test, Relation.RELATES_TO)
    for i, text in enumerate(
        [
            "Dad's birthday lunch at Crown",
            "Dad rang, car insurance",
            "took Dad for a haircut",
            "Dad's new glasses are ready",
            "Dad and next door's hedge again",
            "Dad wants his garden path redone",
            "Dad's hearing appointment moved",
            "watched the match with Dad",
            "Dad lost his bus pass",
            "Dad's flu jab booked",
        ]
    ):
        note = reader.add(text, created_at=at(-30 - 11 * i))
        reader.link(note, dad, Relation.CONCERNS)
    fillers(reader)
    return reader, {"dad": dad, "test": test, "boxes": boxes}


def test_the_shipped_weights_are_the_default_models_fit():
    w = ranking.weights_for(DEFAULT_MODEL)
    assert w != ranking.DEFAULT  # a fit was written for today's model
    assert ranking.weights_for("no-such-model") == w  # another model falls back to it until fitted
    assert ranking.Weights.from_json(w.to_json()) == w


def test_ask_answers_in_the_order_rank_gives_its_candidates():
    """One rule in one place: what the fitting tool ranks is what `ask` answers."""
    reader, rows = dads_memory()
    ana = reader.add("Ana", Kind.CONTACT, {"name": "Ana Lopes"}, created_at=at(-300))
    old = reader.add("Ana's flat is in Alvalade", created_at=at(-200))
    new = reader.add("Ana moved to Benfica, flat 3", created_at=at(-20))
    reader.link(new, old, Relation.SUPERSEDES)
    reader.link(new, ana, Relation.CONCERNS)
    reader.add("pharmacy closes at 7 on Saturdays", created_at=at(-6, 13))  # same sitting as boxes
    recall = Recall(reader, lambda: None)
    for question in [
        "Dad's thickened drinks",
        "where does Ana live, flat?",
        "pharmacy",
        "what's due this week?",
        "what did I write last week about Dad?",
        "bread and seeds",
    ]:
        answer = [r.neuron.id for r in recall.ask(question, Asking.of(now=NOW))]
        got = Search(reader, recall.index, recall.embedder).for_fitting(question, NOW)
        if got.answer is not None:
            assert answer == [r.neuron.id for r in got.answer], question
            continue
        table, model = got.table, got.model
        assert table is not None
        ranked = ranking.rank(table, ranking.weights_for(model))
        assert answer == [table.ids[i] for i in ranked.order[:10]], question


def test_a_link_the_person_made_is_not_crowded_out_by_their_wider_neighbourhood():
    reader, rows = dads_memory()
    results = ask(reader, "Dad's thickened drinks")
    found = [r.neuron.id for r in results]
    assert found[0] == rows["test"].id
    assert rows["boxes"].id in found[:3], [r.neuron.body for r in results]
    boxes = results[found.index(rows["boxes"].id)]
    assert boxes.why == f"linked from {rows['test'].title}"


def test_a_link_outranks_a_loose_meaning_match():
    """rank() alone: a neuron linked to the best match comes before candidates only weakly like
    the question (a cosine of 0.3 is what unrelated short notes score with this model)."""
    w = ranking.weights_for(DEFAULT_MODEL)
    n = 12
    kw = np.zeros(n)
    vec = np.full(n, 0.30)  # ten loose matches
    kw[0], vec[0] = 1.0, 0.75  # the note the question is about
    vec[1] = 0.05  # the reminder linked to it, like nothing in the question
    c = ranking.Candidates(
        ids=[uuid.uuid4() for _ in range(n)],
        kw=kw,
        vec=vec,
        created=np.arange(n, dtype=float),
        contact=np.zeros(n, dtype=bool),
        reminder=np.eye(n, dtype=bool)[1],
        seedable=np.ones(n, dtype=bool),
        in_window=np.zeros(n, dtype=bool),
        says_window=np.zeros(n, dtype=bool),
        when=np.arange(n, dtype=float),
        exact=np.zeros(n, dtype=bool),
        person=np.zeros(n, dtype=bool),
        person_linked=np.zeros(n, dtype=bool),
        degree=np.asarray([2.0] + [1.0] * (n - 1)),  # the note: the reminder and its person
        link_seed=np.asarray([0]),
        link_other=np.asarray([1]),
        link_weight=np.ones(1),
        link_class=np.asarray([ranking.LINK_NOTES]),
        now=float(n),
    )
    order = ranking.rank(c, w).order.tolist()
    assert order[:2] == [0, 1]


def test_a_card_the_person_linked_stays_above_what_matches_nothing():
    """The card prior (a card is loosely like many questions) never takes a card a link brought
    below candidates that match the question not at all ("boiler" -> the boiler man's card)."""
    w = ranking.weights_for(DEFAULT_MODEL)
    assert w.contact < 0 and w.link_to_contact * 0.7 / 2**w.hub_damping < -w.contact  # the case
    n = 12
    kw, vec = np.zeros(n), np.zeros(n)  # ten notes that match nothing
    kw[0], vec[0] = 1.0, 0.5  # the boiler note
    c = ranking.Candidates(
        ids=[uuid.uuid4() for _ in range(n)],
        kw=kw,
        vec=vec,
        created=np.arange(n, dtype=float),
        contact=np.eye(n, dtype=bool)[1],
        reminder=np.zeros(n, dtype=bool),
        seedable=np.ones(n, dtype=bool),
        in_window=np.zeros(n, dtype=bool),
        says_window=np.zeros(n, dtype=bool),
        when=np.arange(n, dtype=float),
        exact=np.zeros(n, dtype=bool),
        person=np.zeros(n, dtype=bool),
        person_linked=np.zeros(n, dtype=bool),
        degree=np.asarray([2.0] + [1.0] * (n - 1)),
        link_seed=np.asarray([0]),
        link_other=np.asarray([1]),
        link_weight=np.ones(1),
        link_class=np.asarray([ranking.LINK_TO_CONTACT]),
        now=float(n),
    )
    r = ranking.rank(c, w)
    assert r.order.tolist()[:2] == [0, 1] and r.hop_from[1] == 0
    c.link_seed = c.link_other = np.zeros(0, dtype=np.int64)  # unlinked, the prior holds
    assert ranking.rank(c, w).order.tolist()[-1] == 1


def test_an_outdated_fact_gives_way_in_a_persons_answer_too():
    reader = FakeReader()
    ana = reader.add("Ana", Kind.CONTACT, {"name": "Ana Lopes", "aliases": ["Ana"]}, created_at=at(-300))
    old = reader.add("Ana's flat is in Alvalade, 2nd floor", created_at=at(-5))
    new = reader.add("Ana moved: Rua do Sol 12, Benfica", created_at=at(-2))
    reader.link(new, old, Relation.SUPERSEDES)
    for i, text in enumerate(
        ["Ana's birthday dinner", "lent Ana the drill", "Ana's cat is called Figo", "Ana's bike"]
    ):
        reader.link(reader.add(text, created_at=at(-40 - 10 * i)), ana, Relation.CONCERNS)
    for note in (old, new):
        reader.link(note, ana, Relation.CONCERNS)
    results = ask(reader, "what's new with Ana?")
    found = [r.neuron.id for r in results]
    assert found[0] == ana.id and found[1] == new.id  # the card first, then the newest
    assert old.id in found and old.id not in found[:5]


def test_whats_due_this_week_comes_back_in_date_order():
    """Not "Friday, tomorrow, tomorrow, Friday": a question of dates, in date order."""
    reader = FakeReader()
    fillers(reader)
    due = {"fri-a": at(3, 9), "wed-a": at(1, 10), "wed-b": at(1, 15), "fri-b": at(3, 18)}
    for name, when in due.items():  # captured in this order: Friday, tomorrow, tomorrow, Friday
        reader.add(name, Kind.REMINDER, {"due_at": when.isoformat()}, created_at=at(-3))
    for question in ("what's due this week?", "anything due this week?", "what's coming up this week?"):
        results = ask(reader, question)
        assert [r.neuron.body for r in results] == ["wed-a", "wed-b", "fri-a", "fri-b"], question
        assert all(r.group == "window" for r in results)


def renovation() -> tuple[FakeReader, dict]:
    reader = FakeReader()
    fillers(reader)
    marco = reader.add(
        "Marco", Kind.CONTACT, {"name": "Marco Ricci", "org": "Ricci Builds"}, created_at=at(-200)
    )
    quote = reader.add("kitchen renovation: Marco quoted 18k, starts in May", created_at=at(-60))
    tiles = reader.add(
        "order tiles from Porcelanosa", Kind.REMINDER, {"due_at": at(-30).isoformat()}, created_at=at(-59)
    )
    skip = reader.add("skip bin booked for 3rd May", created_at=at(-40))
    reader.link(quote, marco, Relation.CONCERNS)
    reader.link(tiles, quote, Relation.RELATES_TO)
    reader.link(skip, quote, Relation.RELATES_TO)
    reader.add("council renovation grant closed", created_at=at(-10))
    return reader, {"marco": marco, "quote": quote, "tiles": tiles, "skip": skip}


def test_catch_me_up_on_a_thing_gathers_what_is_linked_to_it():
    reader, rows = renovation()
    results = ask(reader, "catch me up on the kitchen renovation")
    found = [r.neuron.id for r in results]
    wanted = {rows[k].id for k in ("quote", "tiles", "skip")}
    assert wanted <= set(found[:6]), [r.neuron.body for r in results]
    assert found[0] == rows["quote"].id


def test_about_a_thing_is_a_timeline_of_what_is_written_about_it_or_linked_to_it():
    reader, rows = renovation()
    answer = Recall(reader, lambda: None).about("the kitchen renovation", now=NOW)
    assert answer.contact is None and answer.candidates == []
    got = [r.neuron.id for r in answer.timeline]
    assert {rows[k].id for k in ("quote", "tiles", "skip")} <= set(got)
    assert rows["marco"].id not in got[:4]
    dates = [r.neuron.created_at.timestamp() for r in answer.timeline if r.neuron.created_at]
    assert len(dates) == len(answer.timeline) and dates == sorted(dates, reverse=True)  # newest first
    assert "kitchen renovation" in answer.render()
    nothing = Recall(reader, lambda: None).about("Zebedee", now=NOW)
    assert nothing.timeline == [] and "nothing is written about it" in nothing.render()


# -- the fitting tool ----------------------------------------------------------------------------


def _question(space: str, gold_linked: bool) -> fit.Asked:
    """A question whose gold is reached only by a link (gold_linked) or only by its words."""
    n = 6
    kw = np.asarray([1.0, 0.0, 0.55, 0.5, 0.45, 0.4])
    c = ranking.Candidates(
        ids=[uuid.uuid4() for _ in range(n)],
        kw=kw,
        vec=np.zeros(n),
        created=np.arange(n, dtype=float),
        contact=np.zeros(n, dtype=bool),
        reminder=np.zeros(n, dtype=bool),
        seedable=np.ones(n, dtype=bool),
        in_window=np.zeros(n, dtype=bool),
        says_window=np.zeros(n, dtype=bool),
        when=np.arange(n, dtype=float),
        exact=np.zeros(n, dtype=bool),
        person=np.zeros(n, dtype=bool),
        person_linked=np.zeros(n, dtype=bool),
        degree=np.ones(n),
        link_seed=np.asarray([0]),
        link_other=np.asarray([1]),
        link_weight=np.ones(1),
        link_class=np.asarray([ranking.LINK_NOTES]),
    )
    names: list[str | None] = ["seed", "linked", "a", "b", "c", "d"]
    gold = ["seed", "linked"] if gold_linked else ["seed", "a"]
    return fit.Asked("toy", space, "linked", gold, [], c, names)


def test_the_fit_takes_the_weight_the_questions_need_and_scores_the_left_out_space():
    asked = [_question(f"s{i}", gold_linked=True) for i in range(3)]
    # with no share for a link, the linked gold falls to the last of six: R@5 halves
    unlinked = ranking.Weights(link=0.0, link_top=0.0)
    none = fit.metrics(asked, unlinked)["toy"]["linked"]
    assert none["R@5"] == 0.5
    w = fit.fit(asked, start=unlinked)
    assert w.link_top > 0.4  # half the seed's base beats the fifth loose match's (0.2)
    assert fit.metrics(asked, w)["toy"]["linked"]["R@5"] == 1.0
    folds = fit.folds_of(asked, None)
    assert folds == [{("toy", "s0")}, {("toy", "s1")}, {("toy", "s2")}]
    left_out, per_fold = fit.cross_validate(asked, folds, progress=lambda _: None)
    assert left_out["toy"]["linked"]["n"] == 3 and len(per_fold) == 3


def _near_the_floor(space: str) -> fit.Asked:
    """A question whose gold only means the same (raw cosine 0.80, no word in common), beside five
    notes sharing a word with it but not its meaning (0.70)."""
    a = _question(space, gold_linked=False)
    raw = np.asarray([0.80, 0.70, 0.70, 0.70, 0.70, 0.70])
    band = Calibration(floor=0.79, span=0.137)
    table = replace(
        a.table, kw=np.asarray([0.0, 0.3, 0.3, 0.3, 0.3, 0.3]), link_seed=np.zeros(0, dtype=np.int64)
    )
    table = replace(table, vec=ranking.calibrated(raw, band))
    return replace(a, gold=["seed"], table=table, raw=raw, band=band)


def test_the_band_fit_reads_the_raw_cosines_through_another_floor():
    asked = [_near_the_floor(f"s{i}") for i in range(3)]
    manifest = asked[0].band
    w = ranking.Weights()
    # through the manifest's band the gold is worth a twentieth of the word matches: sixth of six
    assert fit.metrics(asked, w)["toy"]["linked"]["R@5"] == 0.0
    band = fit.fit_band(asked, w, manifest)
    assert band.floor < 0.79  # the gold's cosine, just above the manifest's floor, counts for more
    assert fit.metrics(fit.banded(asked, band), w)["toy"]["linked"]["R@5"] == 1.0
    left_out, per_fold = fit.cross_validate_band(
        asked, fit.folds_of(asked, None), w, manifest, lambda _: None
    )
    assert left_out["toy"]["linked"]["R@5"] == 1.0 and len(per_fold) == 3
    # the manifest's band re-read from the raw cosines is the table as asked
    again = fit.banded(asked, manifest)
    assert np.array_equal(again[0].table.vec, asked[0].table.vec)


def test_write_fitted_keeps_the_other_models(tmp_path):
    path = tmp_path / "fitted.py"
    path.write_text('"""doc"""\n\nDEFAULT_MODEL = "m"\n\nFITTED: dict[str, dict[str, float]] = {}\n')
    fit.write_fitted("model-a", ranking.Weights(link=0.8), path)
    text = path.read_text()
    scope: dict = {}
    exec(compile(text, str(path), "exec"), scope)
    assert scope["FITTED"]["model-a"]["link"] == 0.8
    assert scope["DEFAULT_MODEL"] == "m" and text.startswith('"""doc"""')


def _loose(kw: np.ndarray, vec: np.ndarray, strength: np.ndarray | None) -> ranking.Candidates:
    n = kw.size
    no = np.zeros(n, dtype=bool)
    return ranking.Candidates(
        ids=[uuid.uuid4() for _ in range(n)],
        kw=kw,
        vec=vec,
        created=np.arange(n, dtype=float),
        contact=no,
        reminder=no,
        seedable=~no,
        in_window=no,
        says_window=no,
        when=np.arange(n, dtype=float),
        exact=no,
        person=no,
        person_linked=no,
        degree=np.ones(n),
        strength=strength,
        now=float(n),
    )


def test_a_weak_keyword_hit_gives_way_to_a_strong_meaning_match():
    """rank() alone: the best keyword match of a question holds one common word of it (a fifth of
    its idf); the answer shares no word but is the nearest meaning. Read as strong, the one word
    wins; `weak_keyword` counts a hit matching less than its share of the question pro rata, and the
    meaning wins. A hit matching all of the question keeps its whole keyword part."""
    kw, vec = np.asarray([1.0, 0.0, 0.6]), np.asarray([0.1, 0.6, 0.1])
    strength = np.asarray([0.2, 0.0, 1.0])
    plain = ranking.Weights(keyword_share=0.5)
    assert ranking.rank(_loose(kw, vec, strength), plain).order.tolist() == [0, 2, 1]
    weighed = replace(plain, weak_keyword=0.5)
    assert ranking.rank(_loose(kw, vec, strength), weighed).order.tolist() == [2, 1, 0]
    assert ranking.keyword(_loose(kw, vec, strength), weighed)[2] == 0.6
    # a table without strengths (made before them) reads every hit as strong
    assert ranking.rank(_loose(kw, vec, None), weighed).order.tolist() == [0, 2, 1]


def test_a_hits_strength_is_the_share_of_the_question_it_matches():
    """candidates.py's table: each row's keyword hit over the question's total idf, 0..1 -- a note
    holding every word of the question is the strongest, one holding its commonest word the weakest."""
    reader = FakeReader()
    fillers(reader)
    both = reader.add("dentist appointment for the twins", created_at=at(-3))
    rare = reader.add("the dentist said flossing", created_at=at(-4))
    common = reader.add("appointment at the bank", created_at=at(-5))
    reader.add("gym appointment moved", created_at=at(-6))
    recall = Recall(reader, lambda: None)
    table = Search(reader, recall.index, recall.embedder).for_fitting("dentist appointment", NOW).table
    assert table is not None
    assert table.strength is not None
    strength = dict(zip(table.ids, table.strength.tolist(), strict=True))
    assert all(0.0 <= s <= 1.0 for s in strength.values())
    assert strength[both.id] > strength[rare.id] > strength[common.id] > 0.0


class _OneQuestion:
    """A model that knows one question's vector (the memory's own vectors are given)."""

    name, calibration = "m", None

    def __init__(self, vector: np.ndarray):
        self.vector = vector

    def embed(self, texts, kind="query"):
        return np.asarray([self.vector for _ in texts], dtype=np.float32)


def _written(language: np.ndarray, topic: np.ndarray) -> np.ndarray:
    """A note's vector: what the model makes of its language (0.8) and of what it says (0.6)."""
    v = 0.8 * language + 0.6 * topic
    return v / np.linalg.norm(v)


def test_a_note_in_another_language_competes_on_what_it_says():
    """The model finds every note in the question's language more alike than one in another,
    whatever either says: among the candidates each language's mean is set level, so the English
    note about the laptop comes first for a Portuguese question about it."""
    axes = np.eye(DIM)
    pt, en, topics = axes[0], axes[1], axes[2:]
    reader = FakeReader()
    portuguese = [
        "a máquina de lavar deitou água pela cozinha toda",
        "o senhorio vai aumentar a renda do mês de setembro",
        "plantei manjericão e tomate na varanda com a Rita",
        "a Avó caiu nas escadas da igreja e partiu o pulso",
        "jantar de anos do Miguel na tasca da Ribeira",
        "marcar a revisão do carro para a semana que vem",
    ]
    for i, text in enumerate(portuguese):
        note = reader.add(text, created_at=at(-10 - i))
        reader.vectors[note.id] = (_written(pt, topics[1 + i]), "m")
    laptop = reader.add("my laptop died during the client demo, IT gave me a loaner", created_at=at(-3))
    reader.vectors[laptop.id] = (_written(en, topics[0]), "m")
    for i, text in enumerate(["book train tickets to Milan", "podcast tip from Lena", "passed the B1 exam"]):
        note = reader.add(text, created_at=at(-20 - i))
        reader.vectors[note.id] = (_written(en, topics[10 + i]), "m")
    question = "meu portátil já avariou?"
    model = _OneQuestion(_written(pt, topics[0]))
    answer = Recall(reader, lambda: model).ask(question, Asking.of(now=NOW))
    assert answer[0].neuron.id == laptop.id, [r.neuron.body for r in answer[:3]]
    # one signal alone is the model's own cosine, as it was
    alone = Recall(reader, lambda: model).ask(question, Asking.of(now=NOW, mode="vector"))
    assert laptop.id not in [r.neuron.id for r in alone[:6]]


def test_a_memory_in_one_language_keeps_its_cosines():
    reader = FakeReader()
    axes = np.eye(DIM)
    for i, text in enumerate(
        ["boiler losing pressure again", "rent goes up in July", "bike nicked at the station"]
    ):
        note = reader.add(text, created_at=at(-i))
        reader.vectors[note.id] = (_written(axes[1], axes[2 + i]), "m")
    model = _OneQuestion(_written(axes[1], axes[3]))
    recall = Recall(reader, lambda: model)
    got = Search(reader, recall.index, recall.embedder).for_fitting("what about the rent?", NOW)
    assert got.table is not None
    assert np.allclose(sorted(got.table.vec), sorted([0.64, 0.64 + 0.36, 0.64]))
