"""Every parser is linear on any input up to the size limit (once, one 100,000-char
word took 115 s in the e-mail pattern). A complexity check, not a timing: each parser runs on an
input and on one ten times longer, built from the same unit; linear work grows ~10x, quadratic
~100x, and the bound sits between them. The units are the shapes that break regexes (long runs
of one class of characters, repeated cue words) and a few hypothesis draws."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import capture, when
from core.interop.json import parse_export
from core.model import InvalidInput
from core.validate import parse_json
from tests.core.fake_reader import FakeReader

NOW = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)
SMALL, GROWTH = 5_000, 10
# Linear work grows by GROWTH, quadratic by GROWTH**2: refuse anything nearer the latter.
MAX_RATIO = GROWTH * 3.5

PARSERS = {
    "capture.read": lambda text: capture.read(FakeReader(), text, None, {}, now=NOW),
    "find_when": lambda text: when.find_when(text, NOW),
    "find_window": lambda text: when.find_window(text, NOW),
    "parse_json": lambda text: _refusal_ok(
        lambda: parse_json('{"a": "' + text.replace("\\", "").replace('"', "") + '"}', "x")
    ),
    "parse_export": lambda text: _refusal_ok(
        lambda: parse_export(
            {"format": "neurons-export/1", "neurons": [{"id": "x", "kind": "note", "body": text}]}
        )
    ),
}
UNITS = [
    "a",
    "1",
    ".",
    "-",
    "@",
    " ",
    "a.",
    "1 ",
    "a@",
    "on may ",
    "1st ",
    "a'",
    "+1 ",
    "at 5 ",
    "every ",
    "Ana ",
    "é",
    "\n",
]


def _refusal_ok(call):
    try:
        call()
    except InvalidInput:
        pass


def cost(parse, text: str) -> float:
    """This process's CPU time (not the wall clock: a busy machine does not inflate it), best of 3.
    Only the growth between two sizes is compared, never a time against a limit."""
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        parse(text)
        best = min(best, time.process_time() - t0)
    return max(best, 1e-4)  # below 0.1 ms the clock's noise is all there is


def ratio(parse, unit: str) -> float:
    small = (unit * (SMALL // len(unit) + 1))[:SMALL]
    large = (unit * (SMALL * GROWTH // len(unit) + 1))[: SMALL * GROWTH]
    return cost(parse, large) / cost(parse, small)


@pytest.mark.parametrize("name", sorted(PARSERS))
@pytest.mark.parametrize("unit", UNITS)
def test_shapes_that_break_regexes(name, unit):
    grew = ratio(PARSERS[name], unit)
    assert grew < MAX_RATIO, f"{name} on {unit!r} runs: {GROWTH}x the text took {grew:.0f}x the time"


@given(unit=st.text(min_size=1, max_size=6))
@settings(max_examples=15)
def test_drawn_shapes(unit):
    for name, parse in PARSERS.items():
        grew = ratio(parse, unit)
        assert grew < MAX_RATIO, f"{name} on {unit!r} runs: {GROWTH}x the text took {grew:.0f}x"
