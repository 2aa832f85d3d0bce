"""A question whose answer is spread over several items: the rare words its best answers share
lift what else holds them into the ranks below the first few (core/recall/spread.py). On the fake
reader (no database, no model: keyword recall)."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core.recall import Asking, Recall
from core.recall.spread import KEEP, asks_for_several
from tests.core.fake_reader import FakeReader

TZ = ZoneInfo("Europe/Lisbon")
NOW = datetime(2025, 3, 18, 20, 30, tzinfo=TZ)


@pytest.mark.parametrize(
    "question",
    [
        "What activities does Melanie partake in?",
        "What books has Melanie read?",
        "What states has Maria vacationed at?",
        "How many times has Joanna found new hiking trails?",
        "What does Melanie do to destress?",
        "when does Rui move and what does he need from us?",
        "Lenas Schwimmkurs: wann, wo und was kostet er?",
        "quanto custa a visita de estudo da Sofia e para onde vai?",
        "everything about Mum's heart tablets",
        "van troubles - all of it",
    ],
)
def test_a_question_for_several_things_is_told_apart(question):
    assert asks_for_several(question)


@pytest.mark.parametrize(
    "question",
    [
        "what's Ana's number?",
        "When did Caroline go to the LGBTQ support group?",
        "What is Joanna's third screenplay about?",
        "how does my boyfriend make his bread?",
        "quando é a consulta da Mãe?",
        "Wann kommt der Schornsteinfeger?",
        "What did Nate do while Joanna was on her road trip?",
    ],
)
def test_a_question_for_one_thing_is_not(question):
    assert not asks_for_several(question)


def _memory() -> tuple[FakeReader, str]:
    """Two notes about Mia's climbing at the Kestrel wall answer best; a dozen newer notes say
    Mia and nothing else asked; the oldest says Mia and Kestrel (a word three notes hold)."""
    r = FakeReader()
    far = r.add("Mia paid Kestrel membership yearly by bank transfer", created_at=NOW - timedelta(days=40))
    for i in range(12):
        r.add(f"Mia rang {i}", created_at=NOW - timedelta(days=30 - i))
    r.add("Mia does climbing at the Kestrel wall with her club", created_at=NOW - timedelta(days=3))
    r.add("Mia does bouldering at the Kestrel wall, club nights", created_at=NOW - timedelta(days=2))
    r.add("Mia does climbing club and bouldering", created_at=NOW - timedelta(days=1))
    return r, far.id


def _ask(reader: FakeReader, question: str) -> list:
    return [x.neuron.id for x in Recall(reader, lambda: None).ask(question, Asking.of(now=NOW))]


def test_what_the_best_answers_share_rises_into_a_question_for_several_things():
    reader, far = _memory()
    several = _ask(reader, "what does Mia do at the climbing club?")  # a habit: several things
    one = _ask(reader, "what did Mia do at the climbing club?")  # one thing, the same words
    assert far not in one
    assert far in several
    assert several[:KEEP] == one[:KEEP]  # the first answers stay where they were
