"""The Memory façade on both engines: every call, identity isolation, bad input, export/import."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from core.memory import Memory
from core.model import Identity, InvalidInput, Kind, NotFound, State
from core.store import queries as q
from core.validate import MAX_BODY_BYTES


def snapshot(memory: Memory) -> str:
    """Everything an identity owns, to prove a refused call changed nothing."""
    data = memory.export()
    data.pop("exported_at")
    return json.dumps(data, sort_keys=True)


def test_engine_kind_and_schema(memory):
    assert memory.store.kind in ("embedded", "server")
    with memory.store.reading() as cur:
        facts = q.engine_facts(cur)
    assert {"vector", "pg_trgm"} <= set(facts["extensions"])
    assert facts["schema"] >= 1


def test_capture_get_edit_and_states(memory):
    note = memory.capture("Buy oat milk", kind="note")
    assert memory.get(note.id).body == "Buy oat milk"
    assert memory.get(str(note.id)).kind is Kind.NOTE

    edited = memory.edit(note.id, text="Buy oat milk and bread")
    assert edited.body == "Buy oat milk and bread"
    assert edited.updated_at >= note.updated_at

    reminder = memory.capture("pay rent", kind="reminder", attrs={"due_at": "2026-12-01T09:00:00+00:00"})
    assert memory.done(reminder.id).state is State.DONE
    assert "done_at" in memory.get(reminder.id).attrs
    assert memory.restore(reminder.id).state is State.ACTIVE
    assert "done_at" not in memory.get(reminder.id).attrs
    memory.archive(note.id)
    assert [n.id for n in memory.list(states=[State.ARCHIVED])] == [note.id]
    memory.trash(note.id)
    assert memory.get(note.id).state is State.TRASHED
    assert [n.id for n in memory.list()] == [reminder.id]
    assert [n.id for n in memory.list(kind=Kind.REMINDER)] == [reminder.id]


def test_edit_clears_the_vector(memory):
    note = memory.capture("a note", kind="note")
    with memory.store.transaction(every_owner=True) as cur:
        q.save_embeddings(cur, [(note.id, [0.1] * 384)], "test-model")
    assert memory.get(note.id).embedding_model == "test-model"
    memory.edit(note.id, attrs={"tags": ["x"]})
    assert memory.get(note.id).embedding_model == "test-model"  # attrs alone keep it
    memory.edit(note.id, text="a changed note")
    assert memory.get(note.id).embedding_model is None


def test_links_are_closed_never_deleted(memory):
    ana = memory.capture("Ana Silva", kind="contact", attrs={"name": "Ana Silva"})
    lunch = memory.capture("lunch on Friday", kind="note")
    since = datetime(2026, 1, 1, tzinfo=UTC)
    edge = memory.link(lunch.id, ana.id, "concerns", valid_from=since)
    assert edge.valid_from == since and edge.is_open
    assert memory.link(lunch.id, ana.id, "concerns").id == edge.id  # no duplicate open link
    [(seen, other)] = memory.neighbours(ana.id)
    assert seen.id == edge.id and other.id == lunch.id
    closed = memory.unlink(edge.id)
    assert closed.valid_to is not None
    assert memory.neighbours(ana.id) == []
    assert [e.id for e in memory.edges(ana.id)] == [edge.id]  # kept, closed


def test_identities_never_see_each_other(memory):
    mine = memory.capture("my secret plan about Ana", kind="note")
    other = memory.as_identity(Identity(device_id=uuid.uuid4()))
    theirs = other.capture("their note", kind="note")
    with pytest.raises(NotFound):
        other.get(mine.id)
    assert [n.id for n in other.list()] == [theirs.id]
    assert other.search("secret plan") == []
    with pytest.raises(NotFound):
        other.link(theirs.id, mine.id)
    with pytest.raises(NotFound):
        other.edit(mine.id, text="taken over")
    with pytest.raises(NotFound):
        other.set_state(mine.id, "trashed")
    edge = memory.link(mine.id, memory.capture("x", kind="note").id)
    with pytest.raises(NotFound):
        other.unlink(edge.id)
    assert other.edges(mine.id) == []
    assert memory.get(mine.id).body == "my secret plan about Ana"


def test_claim_moves_every_row_to_a_profile(memory):
    a = memory.capture("one", kind="note")
    b = memory.capture("two", kind="note")
    memory.link(a.id, b.id)
    profile = memory.claim("Maria")
    assert profile.identity.user_id is not None
    assert {n.id for n in profile.list()} == {a.id, b.id}
    assert len(profile.neighbours(a.id)) == 1
    assert memory.list() == []  # the device owns nothing any more
    with pytest.raises(NotFound):
        memory.get(a.id)


@pytest.mark.parametrize(
    "text",
    [
        "emoji 🧠🔗 and ZWJ 👩‍👩‍👧",
        "עברית: תזכיר לי להתקשר לאנה",  # RTL
        "العربية مع أرقام ١٢٣",
        "combining e\u0301 and \u200f marks",
        "   leading and trailing spaces   \n",
        "tabs\tand\r\nnewlines",
    ],
)
def test_odd_unicode_is_stored_faithfully(memory, text):
    assert memory.get(memory.capture(text, kind="note").id).body == text


def test_one_megabyte_is_stored_faithfully(memory):
    text = ("The quick brown fox jumps over the lazy dog. " * 24000)[: 1024 * 1024]
    neuron = memory.capture(text, kind="note")
    assert memory.get(neuron.id).body == text
    assert len(memory.get(neuron.id).body.encode()) == 1024 * 1024


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("   \n\t ", "empty"),
        ("nul \x00 byte", "NUL"),
        ("lone \ud800 surrogate", "unpaired surrogate"),
        ("x" * (MAX_BODY_BYTES + 1), "limit"),
    ],
)
def test_bad_text_is_refused_and_changes_nothing(memory, text, message):
    memory.capture("existing", kind="note")
    before = snapshot(memory)
    with pytest.raises(InvalidInput, match=message):
        memory.capture(text, kind="note")
    with pytest.raises(InvalidInput, match=message):
        memory.edit(memory.list()[0].id, text=text)
    assert snapshot(memory) == before


def test_bad_kind_relation_ids_and_dates(memory):
    a = memory.capture("a", kind="note")
    before = snapshot(memory)
    with pytest.raises(InvalidInput, match="unknown kind"):
        memory.capture("x", kind="task")
    with pytest.raises(InvalidInput, match="unknown relation"):
        memory.link(a.id, a.id, "loves")
    with pytest.raises(InvalidInput, match="itself"):
        memory.link(a.id, a.id)
    with pytest.raises(NotFound):
        memory.link(a.id, uuid.uuid4())
    with pytest.raises(InvalidInput, match="not a valid id"):
        memory.get("not-an-id")
    with pytest.raises(InvalidInput, match="time zone"):
        memory.capture("x", kind="note", created_at=datetime(2026, 1, 1))
    with pytest.raises(InvalidInput, match="NUL"):
        memory.capture("x", kind="note", attrs={"tags": ["a\x00b"]})
    with pytest.raises(InvalidInput, match="attrs must be"):
        memory.capture("x", kind="note", attrs=["not", "an", "object"])
    with pytest.raises(InvalidInput, match="unknown state"):
        memory.set_state(a.id, "gone")
    assert snapshot(memory) == before


def test_export_import_round_trip_is_lossless(embedded_memory, server_store):
    src = embedded_memory
    ana = src.capture(
        "Ana Silva +351 912 345 678",
        kind="contact",
        attrs={"name": "Ana Silva", "phones": ["+351 912 345 678"], "aliases": ["Aninhas"]},
    )
    rem = src.capture(
        "call Ana 🧠",
        kind="reminder",
        attrs={"due_at": "2026-12-02T15:00:00+00:00", "rrule": "FREQ=WEEKLY"},
        created_at=datetime(2025, 5, 1, 8, 30, tzinfo=UTC),
    )
    src.done(rem.id)
    edge = src.link(rem.id, ana.id, "concerns", valid_from=datetime(2025, 5, 1, tzinfo=UTC))
    src.unlink(edge.id)
    src.link(rem.id, ana.id, "relates_to", derived_by="test")
    exported = src.export()

    dst = Memory(server_store, Identity(device_id=uuid.uuid4()), owns_store=False)
    counts = dst.import_(json.loads(json.dumps(exported)))
    assert counts == {"neurons": 2, "edges": 2, "skipped": 0}
    again = dst.export()
    for data in (exported, again):
        data.pop("exported_at")
    assert again == exported
    assert dst.import_(exported)["skipped"] == 4  # importing twice adds nothing


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"format": "other"}, "not a Neurons export"),
        ([], "not a Neurons export"),
        ({"format": "neurons-export/1", "neurons": "x"}, "lists"),
        (
            {"format": "neurons-export/1", "neurons": [{"id": "nope", "kind": "note", "body": "x"}]},
            "not a valid id",
        ),
        (
            {
                "format": "neurons-export/1",
                "neurons": [{"id": str(uuid.uuid4()), "kind": "task", "body": "x"}],
            },
            "unknown kind",
        ),
        (
            {
                "format": "neurons-export/1",
                "neurons": [{"id": str(uuid.uuid4()), "kind": "note", "body": "\x00"}],
            },
            "NUL",
        ),
        (
            {
                "format": "neurons-export/1",
                "neurons": [
                    {"id": str(uuid.uuid4()), "kind": "note", "body": "x", "created_at": "yesterday"}
                ],
            },
            "ISO 8601",
        ),
        (
            {
                "format": "neurons-export/1",
                "neurons": [],
                "edges": [
                    {
                        "id": str(uuid.uuid4()),
                        "from_id": str(uuid.uuid4()),
                        "to_id": str(uuid.uuid4()),
                        "relation_type": "relates_to",
                    }
                ],
            },
            "does not hold",
        ),
        (
            {
                "format": "neurons-export/1",
                "neurons": [],
                "edges": [
                    {
                        "id": str(uuid.uuid4()),
                        "from_id": str(uuid.uuid4()),
                        "to_id": str(uuid.uuid4()),
                        "relation_type": "relates_to",
                        "weight": "heavy",
                    }
                ],
            },
            "not a number",
        ),
    ],
)
def test_malformed_import_changes_nothing(memory, bad, message):
    memory.capture("existing", kind="note")
    before = snapshot(memory)
    # a valid neuron first, then the broken part: all or nothing
    if isinstance(bad, dict) and isinstance(bad.get("neurons"), list):
        bad = {
            **bad,
            "neurons": [{"id": str(uuid.uuid4()), "kind": "note", "body": "valid"}, *bad["neurons"]],
        }
    with pytest.raises(InvalidInput, match=message):
        memory.import_(bad)
    assert snapshot(memory) == before


def test_import_refuses_ids_of_another_identity(memory):
    exported = memory.export()
    exported["neurons"] = [memory.capture("mine", kind="note").to_json()]
    other = memory.as_identity(Identity(device_id=uuid.uuid4()))
    with pytest.raises(InvalidInput, match="another identity"):
        other.import_(exported)
    assert other.list() == []


def test_keyword_search_finds_words_names_and_typos(memory):
    memory.capture(
        "Dentist appointment on Thursday",
        kind="reminder",
        attrs={"due_at": (datetime.now(UTC) + timedelta(days=2)).isoformat()},
    )
    memory.capture("Guilherme Dantas", kind="contact", attrs={"name": "Guilherme Dantas"})
    assert [n.body for n in memory.search("dentist")] == ["Dentist appointment on Thursday"]
    assert [n.body for n in memory.search("appointments")] == ["Dentist appointment on Thursday"]
    assert [n.title for n in memory.search("Guilherme")] == ["Guilherme Dantas"]
    assert [n.title for n in memory.search("Guilhreme")] == ["Guilherme Dantas"]  # typo: trigram
