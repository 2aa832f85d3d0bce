"""Capture and recall behind the façade, on a fake reader: they need no database, only the
narrow Reader protocol (and, for recall, a model source -- here none: keyword search)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from core import capture
from core.model import Kind, Relation
from core.recall import Asking, Recall
from tests.core.fake_reader import FakeReader

NOW = datetime(2026, 5, 4, 10, 0, tzinfo=UTC)


def at(days: float) -> datetime:
    return NOW + timedelta(days=days)


def test_capture_reads_people_and_dates_through_the_reader():
    reader = FakeReader()
    ana = reader.add("Ana Silva", Kind.CONTACT, {"name": "Ana Silva"}, created_at=at(-30))
    u = capture.read(reader, "lunch with Ana tomorrow at 1pm", None, {}, now=NOW)
    assert u.kind is Kind.REMINDER
    assert datetime.fromisoformat(u.attrs["due_at"]) == datetime(2026, 5, 5, 13, 0, tzinfo=UTC)
    assert u.mentions == [ana.id]


def test_a_moved_appointment_replaces_the_older_reminder():
    reader = FakeReader()
    old = reader.add(
        "dentist appointment checkup", Kind.REMINDER, {"due_at": at(2).isoformat()}, created_at=at(-3)
    )
    u = capture.read(reader, "dentist appointment checkup moved to Friday at 10", Kind.REMINDER, {}, now=NOW)
    assert u.replaces == [(old.id, capture.DERIVED_MOVED)]


def test_recall_asks_and_hops_through_the_reader():
    reader = FakeReader()
    boiler = reader.add("the boiler needs its yearly service", created_at=at(-10))
    plumber = reader.add("Rui the plumber comes on Thursdays", created_at=at(-40))
    reader.add("buy oat milk", created_at=at(-2))
    reader.link(boiler, plumber)
    results = Recall(reader, lambda: None).ask("boiler service", Asking.of(now=NOW))
    assert results[0].neuron.id == boiler.id and results[0].why == "matched the words"
    hop = next(r for r in results if r.neuron.id == plumber.id)
    assert hop.why == f"linked from {boiler.title}"


def test_about_gathers_a_person_through_the_reader():
    reader = FakeReader()
    ana = reader.add("Ana Silva", Kind.CONTACT, {"name": "Ana Silva"}, created_at=at(-30))
    gift = reader.add("a scarf for her birthday", created_at=at(-5))
    reader.link(gift, ana, Relation.CONCERNS)
    named = reader.add("Ana Silva likes green tea", created_at=at(-4))
    reader.add("unrelated note", created_at=at(-1))
    answer = Recall(reader, lambda: None).about("Ana")
    assert answer.contact.id == ana.id
    assert {r.neuron.id for r in answer.timeline} == {ana.id, gift.id, named.id}
