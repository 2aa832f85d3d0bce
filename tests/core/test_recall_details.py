"""A question for a person's detail ("what's Ana's number") answers with that person's card first,
with the current value, in every language the app reads, the same through `ask`, the command line
and MCP; a superseded value never above the current one."""

from __future__ import annotations

from argparse import Namespace
from datetime import UTC, datetime, timedelta

import anyio
import pytest
from mcp import Client

from core import commands
from core import mcp as neurons_mcp
from core.commands.recall import ask as ask_command
from core.recall.details import asked_field, detail_asked

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _memory_of_ana_and_klaus(memory):
    """Ana's card, her number changed (the update accepted: the old one kept in an archived note
    the card supersedes), Klaus's card, and notes that say "number" about other things."""

    def cap(text, hours, **kw):
        return memory.capture(text, created_at=START + timedelta(hours=hours), **kw)

    ana = cap("Ana Silva +351 912 345 678 ana.silva@example.pt", 0)
    klaus = cap(
        "Klaus Weber",
        1,
        kind="contact",
        attrs={"name": "Klaus Weber", "phone": "+49 30 1234567", "birthday": "1980-04-02"},
    )
    cap("the plumber's number is on the fridge", 2)
    cap("lunch with Ana at the Italian place, she liked the risotto", 3)
    cap("order number 44812 for the new desk", 4)
    text = "Ana's new number is +351 966 000 111"
    news = cap(text, 5, accept=memory.preview(text).updates)
    cap("remember to call the bank about the card number", 6)
    memory.fill_vectors()
    old = [n for e, n in memory.neighbours(ana.id) if e.relation.value == "supersedes"]
    assert len(old) == 1 and "912 345 678" in old[0].body
    return ana, klaus, news, old[0]


@pytest.mark.parametrize(
    "question",
    [
        "What's Ana's number",
        "Ana's phone",
        "ana's new number?",
        "Ana Silva mobile",
        "qual é o número da Ana?",
        "¿cuál es el teléfono de Ana?",
        "Telefonnummer von Ana",
        "le numéro de téléphone d'Ana",
        "Ana's e-mail",
    ],
)
def test_a_question_for_a_persons_detail_answers_with_their_card_first(memory, question):
    ana, _klaus, _news, old = _memory_of_ana_and_klaus(memory)
    answer = memory.ask(question)
    ids = [r.neuron.id for r in answer]
    assert ids[0] == ana.id, [r.neuron.title for r in answer]
    assert not answer[0].loose  # never folded under "loosely related"
    assert "+351 966 000 111" in answer[0].neuron.attrs["phones"]  # the card holds the current value
    assert old.id not in ids or ids.index(old.id) > 0


@pytest.mark.parametrize(
    ("question", "who"),
    [
        ("Anas Telefonnummer", "ana"),
        ("Wie ist Anas neue Handynummer?", "ana"),
        ("Klaus Webers Nummer", "klaus"),
        ("Peters E-Mail", "peter"),
        ("Peters Mailadresse", "peter"),
        ("Klaus' Handynummer", "klaus"),
        ("James' phone number", "james"),
        ("o contacto da Ana", "ana"),
        ("o telemóvel do Peter", "peter"),
        ("el correo electrónico de Peter", "peter"),
        ("el teléfono móvil de Ana", "ana"),
        ("l'anniversaire de Klaus", "klaus"),
        ("l'adresse électronique de Peter", "peter"),
        ("la date de naissance de Klaus", "klaus"),
    ],
)
def test_a_detail_asked_as_each_language_writes_whose_it_is_answers_with_the_card(memory, question, who):
    """The German genitive ("Anas", "Peters", "Klaus Webers", "Klaus'"), an apostrophe after an
    s ("James'"), "o contacto" (her number), "electrónico" beside "correo", and French elision
    before the field ("l'anniversaire") name whose detail is asked, as "Ana's number" does."""
    ana, klaus, _news, _old = _memory_of_ana_and_klaus(memory)
    peter = memory.capture(
        "Peter Brandt",
        kind="contact",
        attrs={"name": "Peter Brandt", "phone": "+49 151 2345678", "email": "peter@example.de"},
        created_at=START + timedelta(hours=7),
    )
    james = memory.capture(
        "James Byrne",
        kind="contact",
        attrs={"name": "James Byrne", "phone": "+353 87 123 4567"},
        created_at=START + timedelta(hours=8),
    )
    memory.fill_vectors()
    person = {"ana": ana, "klaus": klaus, "peter": peter, "james": james}[who]
    assert detail_asked(question, memory.recall.names()) == [person.id]
    answer = memory.ask(question)
    assert answer[0].neuron.id == person.id, [r.neuron.title for r in answer[:3]]
    assert not answer[0].loose


def test_klaus_phone_number_answers_klaus_not_a_note_matching_number(memory):
    ana, klaus, news, old = _memory_of_ana_and_klaus(memory)
    for question in ("Klaus phone number", "when is Klaus's birthday", "Klaus Weber's number"):
        answer = memory.ask(question)
        assert answer[0].neuron.id == klaus.id, (question, [r.neuron.title for r in answer])
        assert not answer[0].loose


def test_a_detail_beside_another_topic_is_no_question_for_the_card(memory):
    """ "Ana's order number" asks about an order: the card does not jump the notes."""
    ana, *_ = _memory_of_ana_and_klaus(memory)
    assert memory.ask("Ana's order number")[0].neuron.id != ana.id


def test_the_command_line_and_mcp_answer_in_the_same_order_with_the_current_number(
    memory, tmp_path, monkeypatch
):
    monkeypatch.setenv("NEURONS_PHONE_REGION", "DE")  # Ana's numbers are foreign: with their code
    ana, _klaus, _news, _old = _memory_of_ana_and_klaus(memory)
    question = "What's Ana's number"
    order = [str(r.neuron.id) for r in memory.ask(question)]
    args = Namespace(question=question, limit=10, mode="default", kind=None, since=None, until=None, tag=None)
    printed = ask_command(memory, args)
    assert [r["id"] for r in printed.data] == order
    first = printed.text.splitlines()[0]
    assert "Ana Silva" in first and "+351 966 000 111" in first and "912 345 678" not in first


def test_the_command_line_writes_a_number_as_people_read_it(memory, monkeypatch):
    """A number kept as an import stores it (+351912345678) is answered grouped, as the window
    shows it, beside one typed with spaces (from Germany: both foreign, with their code)."""
    monkeypatch.setenv("NEURONS_PHONE_REGION", "DE")
    card = memory.capture(
        "Rita Costa",
        kind="contact",
        attrs={"name": "Rita Costa", "phones": ["+351912345678", "+351 966 000 111"]},
    )
    memory.fill_vectors()
    args = Namespace(
        question="Rita's number", limit=10, mode="default", kind=None, since=None, until=None, tag=None
    )
    printed = ask_command(memory, args)
    first = printed.text.splitlines()[0]
    assert printed.data[0]["id"] == str(card.id)
    assert "+351 912 345 678, +351 966 000 111" in first, first


def test_mcp_answers_a_persons_number_with_their_card_first(tmp_path, monkeypatch):
    """Through the MCP server's door, on its own (embedded) data dir."""
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    door = neurons_mcp.Door(tmp_path / "data", None, commands.execute)
    try:
        with door._using() as memory:
            ana, *_ = _memory_of_ana_and_klaus(memory)
            order = [str(r.neuron.id) for r in memory.ask("What's Ana's number")]

        async def session():
            async with Client(neurons_mcp.build(door)) as client:
                result = await client.call_tool("ask", {"question": "What's Ana's number"})
                assert not result.is_error, result.content[0].text
                return result.structured_content

        answered = anyio.run(session)
        assert [r["id"] for r in answered["results"]] == order
        assert answered["results"][0]["id"] == str(ana.id)
    finally:
        door.close()


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("plumber phone number", "phones"),
        ("qual é o e-mail da Rita", "emails"),
        ("Adresse von Klaus", "addresses"),
        ("cumpleaños de Lucía", "birthday"),
        ("lunch with Ana", None),
    ],
)
def test_the_field_a_question_asks_for(question, field):
    assert asked_field(question) == field


def test_a_call_or_a_topic_beside_the_name_asks_for_no_card(memory):
    ana, klaus, *_ = _memory_of_ana_and_klaus(memory)
    names = memory.recall.names()
    assert detail_asked("What's Ana's number", names) == [ana.id]
    assert detail_asked("Ana and Klaus phone numbers", names) == [ana.id, klaus.id]
    assert detail_asked("call Ana about the party", names) == []
    assert detail_asked("Ana's order number", names) == []
    assert detail_asked("the plumber's number", names) == []  # nobody named


def test_a_new_number_the_card_did_not_take_comes_before_the_card(memory):
    """Written in a note that supersedes the card (not taken into it), the new number is the
    note's: the card, with its old number, gives way to the note."""
    kostas = memory.capture(
        "Kostas plumber 07700 900455",
        kind="contact",
        attrs={"name": "Kostas Georgiou", "aliases": ["the plumber"], "phone": "+44 7700 900455"},
        created_at=START,
    )
    news = memory.capture("Kostas has a new number: 07700 900782", created_at=START + timedelta(days=3))
    memory.mark_superseded(news.id, kostas.id)
    memory.fill_vectors()
    ids = [r.neuron.id for r in memory.ask("what's the plumber's number now?")]
    assert ids[0] == news.id and (kostas.id not in ids or ids.index(kostas.id) > ids.index(news.id))


def test_a_card_without_the_field_asked_for_is_not_put_first(memory):
    """Klaus's card has no address: "Klaus's address" is answered where an address is written."""
    _ana, klaus, *_ = _memory_of_ana_and_klaus(memory)
    flat = memory.capture("Klaus moved to the flat at 12 Linden Street", created_at=START + timedelta(days=2))
    memory.fill_vectors()
    answer = memory.ask("Klaus's address")
    assert all(r.why != "the contact asked for" for r in answer)
    assert flat.id in [r.neuron.id for r in answer[:3]]
    assert memory.ask("Klaus's number")[0].neuron.id == klaus.id  # his number is on his card
