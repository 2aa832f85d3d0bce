"""The rules of capture and recall, on the fake reader (no database, no model:
keyword recall): titles, possessives and contact updates, family words across languages, done
dates, the window first under its label, a window from an event on, a person beside a topic, codes
first, the relevance bar."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from core import capture
from core.model import Kind, Neuron, Relation, State
from core.recall import Asking, Recall
from tests.core.fake_reader import FakeReader

TZ = ZoneInfo("Europe/Lisbon")
NOW = datetime(2025, 3, 18, 20, 30, tzinfo=TZ)  # a Tuesday evening


def at(days: float, hour: int = 12) -> datetime:
    return (NOW + timedelta(days=days)).replace(hour=hour, minute=0)


def ask(reader: FakeReader, question: str) -> list:
    return Recall(reader, lambda: None).ask(question, Asking.of(now=NOW))


# -- capture ---------------------------------------------------------------------------------------


def test_a_reminder_title_leaves_out_the_cue_and_the_time():
    u = capture.read(FakeReader(), "remind me to stretch in 1 minute", None, {}, now=NOW)
    assert u.kind is Kind.REMINDER
    assert datetime.fromisoformat(u.attrs["due_at"]) == NOW + timedelta(minutes=1)
    assert u.attrs["title"] == "Stretch"
    stretch = Neuron(
        id=uuid.uuid4(), kind=Kind.REMINDER, body="remind me to stretch in 1 minute", attrs=u.attrs
    )
    assert stretch.title == "Stretch"
    # the person corrects the due time: the title stays the text without its time words
    u = capture.read(
        FakeReader(),
        "remind me to stretch in 1 minute",
        Kind.REMINDER,
        {"due_at": at(1).isoformat()},
        now=NOW,
    )
    assert u.attrs["title"] == "Stretch" and u.attrs["due_at"] == at(1).isoformat()


def test_reminders_in_five_languages_get_their_due_time():
    for text, due in [
        ("ligar à Mãe amanhã às 15h", at(1, 15)),
        ("llamar a mamá mañana a las 18h", at(1, 18)),
        ("Zahnarzt am Freitag um 9 Uhr", at(3, 9)),
        ("dentiste lundi à 9h", at(6, 9)),
        ("call Mum tomorrow at 3", at(1, 15)),
    ]:
        u = capture.read(FakeReader(), text, None, {}, now=NOW)
        assert u.kind is Kind.REMINDER, text
        assert datetime.fromisoformat(u.attrs["due_at"]) == due, text


def test_a_possessive_names_the_person_and_a_new_number_is_an_update():
    reader = FakeReader()
    ana = reader.add(
        "Ana Lopes", Kind.CONTACT, {"name": "Ana Lopes", "phones": ["+351 911 111 111"]}, created_at=at(-30)
    )
    sam = reader.add("Sam Cole", Kind.CONTACT, {"name": "Sam Cole"}, created_at=at(-30))
    u = capture.read(reader, "Ana's new number is +351 912 000 999", None, {}, now=NOW)
    assert u.kind is Kind.NOTE  # not a contact called "Ana's"
    assert u.mentions == [ana.id]
    assert u.replaces == [(ana.id, capture.DERIVED_NEW_DETAIL)]
    assert [x.label for x in u.updates] == ["Update Ana: phone +351 912 000 999"]
    assert u.updates[0].to_json()["contact_id"] == str(ana.id)
    dinner = capture.read(reader, "dinner with Sam and Ana on Friday", None, {}, now=NOW)
    assert set(dinner.mentions) == {sam.id, ana.id} and dinner.updates == []
    # the number the card already holds is no update
    same = capture.read(reader, "Ana's number is +351 911 111 111", None, {}, now=NOW)
    assert same.updates == []


def test_family_words_name_a_contact_in_any_language():
    reader = FakeReader()
    mae = reader.add(
        "Mãe", Kind.CONTACT, {"name": "Maria de Fátima Medeiros", "aliases": ["Mãe"]}, created_at=at(-90)
    )
    sogra = reader.add(
        "Denise Doyle", Kind.CONTACT, {"name": "Denise Doyle", "aliases": ["sogra"]}, created_at=at(-90)
    )
    assert capture.read(reader, "took my mother to the cardiologist", None, {}, now=NOW).mentions == [mae.id]
    assert capture.read(reader, "my mother-in-law called", None, {}, now=NOW).mentions == [sogra.id]
    assert capture.read(reader, "Kris's mom called", None, {}, now=NOW).mentions == []


# -- recall ----------------------------------------------------------------------------------------


def test_what_got_done_yesterday_counts_done_dates():
    reader = FakeReader()
    reader.add(
        "call the insurance about the bill",
        Kind.REMINDER,
        {"due_at": at(-4).isoformat(), "done_at": at(-1, 10).isoformat()},
        created_at=at(-8),
        state=State.DONE,
    )
    fixed = reader.add("fixed the dripping tap upstairs", created_at=at(-1, 21))
    reader.add("renew the car tax", Kind.REMINDER, {"due_at": at(-1).isoformat()}, created_at=at(-20))
    reader.add("bought bread", created_at=at(-3))
    results = ask(reader, "what did I get done yesterday?")
    # latest first, the done reminder by its done time; nothing else of the store
    assert [r.neuron.body for r in results] == [fixed.body, "call the insurance about the bill"]
    assert all(r.group == "window" and r.window_label == "yesterday" for r in results)


def test_a_mostly_time_question_puts_the_window_first_and_folds_the_loose():
    reader = FakeReader()
    reader.add("work: crash cart checks were a mess", created_at=at(-12))
    reader.add("work: two travel nurses approved", created_at=at(-8))
    old = reader.add("work: the staff party at the Tipsy Seagull", created_at=at(-90))
    for i, text in enumerate(
        [
            "bought bread",
            "the car's tyres",
            "a film to see",
            "Luke's shoes",
            "the plumber came",
            "gym at 7",
            "seeds for the garden",
        ]
    ):
        reader.add(text, created_at=at(-30 - 20 * i))  # a memory, not only the window
    results = ask(reader, "what came up at work in the first half of March?")
    assert [r.group for r in results[:2]] == ["window", "window"]
    assert results[0].window_label == "the first half of March"
    assert results[2].neuron.id == old.id and results[2].group is None
    assert not results[0].loose and not results[1].loose


def test_since_an_event_answers_from_the_event_on_in_date_order():
    reader = FakeReader()
    reader.add("packed the kitchen, the movers come Saturday", created_at=at(-40))
    moved = reader.add("moved house today, boxes everywhere at Willow Lane", created_at=at(-38))
    later = [
        reader.add("broadband set up at the new place", created_at=at(-36)),
        reader.add("registered with the GP near Willow Lane", created_at=at(-33)),
        reader.add("paid the window cleaner", created_at=at(-5)),
    ]
    reader.add("bought bread", created_at=at(-60))
    results = ask(reader, "what have I done since we moved house?")
    # the window runs from the day of the move until now, read on from the move; before it, nothing
    window = [r.neuron.id for r in results if r.group == "window"]
    assert window == [moved.id, *(n.id for n in later)] == [r.neuron.id for r in results[:4]]


def test_a_person_beside_a_topic_finds_what_is_linked_to_them():
    reader = FakeReader()
    mae = reader.add(
        "Mãe", Kind.CONTACT, {"name": "Maria de Fátima Medeiros", "aliases": ["Mãe"]}, created_at=at(-400)
    )
    scan = reader.add(
        "book the echo for her heart, 2nd floor",
        Kind.REMINDER,
        {"due_at": at(9).isoformat()},
        created_at=at(-15),
    )
    reader.link(scan, mae, Relation.CONCERNS)
    reader.add("my own heart rate on the bike was 170", created_at=at(-2))
    results = ask(reader, "Mãe's heart")
    assert results[0].neuron.id == scan.id


def test_a_code_in_the_question_comes_first():
    reader = FakeReader()
    plate = reader.add("Pilot plate 2WPK71 and the policy", created_at=at(-300))
    reader.add("the policy for the house renews in June", created_at=at(-10))
    results = ask(reader, "policy 2WPK71")
    assert results[0].neuron.id == plate.id


def test_the_relevance_bar_marks_what_barely_matches():
    reader = FakeReader()
    reader.add("boiler service: Gil replaced the igniter", created_at=at(-30))
    reader.add("boiler pressure at 1.5 bar", created_at=at(-20))
    reader.add("Gil said the pressure is fine", created_at=at(-10))
    results = ask(reader, "boiler igniter service")
    assert not results[0].loose
    assert results[-1].loose and results[-1].score < 0.5 * results[0].score


def test_the_contacts_name_index_is_rebuilt_only_when_a_contact_changes():
    reader = FakeReader()
    reader.add("Ana Lopes", Kind.CONTACT, {"name": "Ana Lopes"}, created_at=at(-30))
    recall = Recall(reader, lambda: None)
    first = recall.names()
    reader.add("bought bread", created_at=at(-1))
    assert recall.names() is first  # a note changes nothing of the names
    sam = reader.add("Sam Cole", Kind.CONTACT, {"name": "Sam Cole"}, created_at=at(0))
    fresh = recall.names()
    assert fresh is not first and [f.contact_id for f in fresh.find("dinner with Sam")] == [sam.id]
    u = capture.read(reader, "dinner with Sam", None, {}, now=NOW, names=fresh)
    assert u.mentions == [sam.id]


def test_a_person_asked_about_loosely_gets_their_whole_timeline():
    """ "pull up Rosa", "info on my sister", "Rosa - what's in here", "the accountant", "montre-moi
    Rosa": a person asked for in any phrasing is answered as `about` answers them, with what
    is linked to them though it only says "her"."""
    reader = FakeReader()
    rosa = reader.add("Rosa Martins", Kind.CONTACT, {"name": "Rosa Martins"}, created_at=at(-300))
    sister = reader.add(
        "Inês", Kind.CONTACT, {"name": "Inês Costa", "aliases": ["my sister"]}, created_at=at(-300)
    )
    paul = reader.add(
        "Paul Reed", Kind.CONTACT, {"name": "Paul Reed", "aliases": ["the accountant"]}, created_at=at(-300)
    )
    her = reader.add("drop the spare keys at hers before Friday", created_at=at(-20))
    reader.link(her, rosa, Relation.CONCERNS)
    named = reader.add("Rosa recommended the bakery on Rua Augusta", created_at=at(-10))
    inês = reader.add("she starts the new job in May", created_at=at(-5))
    reader.link(inês, sister, Relation.CONCERNS)
    taxes = reader.add("send him the receipts for the tax return", created_at=at(-3))
    reader.link(taxes, paul, Relation.CONCERNS)
    reader.add("pull up the weeds by the gate, and open the shed", created_at=at(-1))
    for question, person, items in [
        ("pull up Rosa", rosa, {her.id, named.id}),
        ("Rosa - what's in here", rosa, {her.id, named.id}),
        ("montre-moi Rosa", rosa, {her.id, named.id}),
        ("fala-me da Rosa", rosa, {her.id, named.id}),
        ("info on my sister", sister, {inês.id}),
        ("details on my sister", sister, {inês.id}),
        ("the rundown on the accountant", paul, {taxes.id}),
    ]:
        results = ask(reader, question)
        assert results[0].neuron.id == person.id and results[0].why == "the contact", question
        assert items <= {r.neuron.id for r in results[1:3]}, question
