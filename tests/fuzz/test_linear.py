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
from core.interop import vcard
from core.interop.json import parse_export
from core.interop.report import Skip
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
    "am ",  # a lead word again and again: "am am am" was quadratic
    "the ",
    "1st ",
    "1st, ",  # a list of positions that no weekday ends
    "a'",
    "+1 ",
    "at 5 ",
    "every ",
    "Ana ",
    "é",
    "\n",
    "sexta desta semana ",  # number words written in figures, each aligned back: was cubic
]


def _refusal_ok(call):
    try:
        call()
    except InvalidInput:
        pass


def _once(parse, text) -> float:
    """This process's CPU time for one parse (not the wall clock: a busy machine does not inflate
    it). Only the growth between two sizes is compared, never a time against a limit."""
    t0 = time.process_time()
    parse(text)
    return max(time.process_time() - t0, 1e-4)  # below 0.1 ms the clock's noise is all there is


def cost(parse, text) -> float:
    """The best of 3."""
    return min(_once(parse, text) for _ in range(3))


def growth(parse, small, large, bound: float) -> float:
    """How many times the large input's cost is the small one's: the best of 3 of each, except
    that the large is parsed again only while its best so far is not yet under `bound` (a later
    try can only lower the best, so the verdict against the bound is the best of 3's, for a third
    of the large input's work when it passes)."""
    base = cost(parse, small)
    best = float("inf")
    for _ in range(3):
        best = min(best, _once(parse, large))
        if best / base < bound:
            break
    return best / base


def ratio(parse, unit: str) -> float:
    small = (unit * (SMALL // len(unit) + 1))[:SMALL]
    large = (unit * (SMALL * GROWTH // len(unit) + 1))[: SMALL * GROWTH]
    return growth(parse, small, large, MAX_RATIO)


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


def _folded_card(size: int, soft_breaks: bool) -> bytes:
    """One card whose PHOTO is `size` bytes folded at 75 octets (RFC 6350), or a 2.1 NOTE as
    quoted-printable soft line breaks ('=' at each line's end)."""
    if soft_breaks:
        lines = "=\r\n".join("=41" * 24 for _ in range(size // 72 + 1))
        prop = f"NOTE;ENCODING=QUOTED-PRINTABLE:{lines}"
    else:
        body = "A" * size
        prop = "PHOTO;ENCODING=b;TYPE=JPEG:" + "\r\n ".join(body[i : i + 74] for i in range(0, size, 74))
    return f"BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Big\r\n{prop}\r\nEND:VCARD\r\n".encode("ascii")


@pytest.mark.parametrize("soft_breaks", [False, True], ids=["folded", "quoted-printable"])
def test_a_folded_card_is_read_in_linear_time(soft_breaks):
    """A folded value is unfolded once (2 MB took 4.6 s, 16 MB 119 s when each fold copied the
    line so far); sizes below the card limit, so the whole card is parsed."""
    small, large = 100_000, 100_000 * GROWTH
    grew = growth(
        vcard.split_cards, _folded_card(small, soft_breaks), _folded_card(large, soft_breaks), MAX_RATIO
    )
    assert grew < MAX_RATIO, f"{GROWTH}x the card took {grew:.0f}x the time"
    (card,) = vcard.split_cards(_folded_card(large, soft_breaks))
    assert isinstance(card, vcard.Card) and len(card.props[-1].value) >= large // 3


def test_a_card_over_the_limit_is_refused_before_it_is_parsed():
    """16 MB of photo: skipped by its size, in well under the 119 s it took to parse it."""
    started = time.process_time()
    (skipped,) = vcard.split_cards(_folded_card(16 * 1024 * 1024, soft_breaks=False))
    assert isinstance(skipped, Skip) and skipped.why.startswith("it is 16.8 MB;")
    assert skipped.item == "card at line 1 (Big)"
    assert time.process_time() - started < 10


@pytest.mark.parametrize(
    "unit", ["1 an et ", "1 year and ", "2 Tage und ", "1 año y ", "1 ano e ", "3 days, "]
)
def test_amounts_joined_many_times_are_read_without_backtracking(unit):
    """Amounts joined by "and" with no "from now" after them: each joint once matched two ways (the
    spaces after a figure, or before a comma), so a failed search took 2**n steps (12 joints: 175 s).
    Twice the joints must cost about twice the time."""
    grew = growth(PARSERS["find_when"], unit * 5, unit * 10, 2 * 3.5)
    assert grew < 2 * 3.5, f"twice the amounts took {grew:.0f}x the time"
