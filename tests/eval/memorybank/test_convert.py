"""MemoryBank's English probing questions as a recall set (convert.py): the committed set is a
memory-eval/1 file whose gold items are notes of their own space, and the conversion of a small
bank gives one note an exchange, dated that evening, the gold by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.evaluate import load_dataset
from tests.eval.memorybank import convert

SET = Path(__file__).with_name("memorybank-en.json")


def test_the_committed_set_loads_and_every_gold_item_is_a_note_of_its_space():
    data = load_dataset(SET)
    assert data["format"] == "memory-eval/1" and len(data["spaces"]) == 15
    scored = 0
    for space in data["spaces"]:
        notes = {n["id"] for n in space["neurons"] if n["kind"] == "note"}
        for q in space["queries"]:
            assert set(q["gold"]) <= notes
            scored += bool(q["gold"])
    assert scored == 99


def test_a_bank_converts_to_one_note_an_exchange_with_its_gold(monkeypatch):
    monkeypatch.setitem(convert.GOLD, "Ada", [["04-28:1"], ["04-27:0", "04-28:0"]])
    bank = {
        " Ada ": {
            "history": {
                "2023-04-27": [{"query": "I swim on Mondays.", "response": "Nice!"}],
                "2023-04-28": [
                    {"query": "My badminton group meets Fridays.", "response": "Fun."},
                    {"query": "There are eight of us.", "response": "A big group."},
                ],
            }
        }
    }
    asked = {"Ada": ['"How many are in my badminton group?"', "What sports do I play?"]}
    space = convert.convert(bank, asked)["spaces"][0]
    notes = [n for n in space["neurons"] if n["kind"] == "note"]
    assert [n["id"] for n in notes] == ["ada:04-27:0", "ada:04-28:0", "ada:04-28:1"]
    assert notes[2]["text"] == "Ada: There are eight of us.\nAI companion: A big group."
    assert notes[2]["created_at"] == "2023-04-28T20:01:00+00:00"
    q = space["queries"]
    assert q[0]["text"] == "How many are in my badminton group?" and q[0]["gold"] == ["ada:04-28:1"]
    assert q[0]["category"] == "single" and q[1]["category"] == "spread"


def test_a_gold_item_the_history_does_not_hold_stops_the_conversion(monkeypatch):
    monkeypatch.setitem(convert.GOLD, "Ada", [["05-01:0"]])
    bank = {"Ada": {"history": {"2023-04-27": [{"query": "Hi", "response": "Hello"}]}}}
    with pytest.raises(SystemExit):
        convert.convert(bank, {"Ada": ["What did I say on May 1st?"]})
