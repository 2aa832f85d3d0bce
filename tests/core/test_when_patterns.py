"""The date grammar's alternations of words: written as a tree of their shared beginnings, they
match what the plain list of the words (longest first) matches, in the same order, so every
pattern of the grammar reads every text as it did with the lists."""

from __future__ import annotations

import re

import pytest

from core.when import fold, words
from core.when import patterns as p
from core.when.languages import LANGUAGES
from tests.bench.when_sameness import texts as texts_not_ours


@pytest.fixture
def as_lists(monkeypatch):
    """`any_of` as it was: the plain list of the words, longest first."""
    monkeypatch.setattr(p, "_tree", lambda words: None)


def test_words_sharing_a_beginning_are_written_once():
    assert p.any_of(["aaa1", "aa2", "aa3", "ab", "a"]) == "(?:a(?:a(?:a1|2|3)|b)?)"
    assert p.any_of(["mondays", "monday", "month", "mon", "mo"]) == "(?:mo(?:n(?:days?|th)?)?)"
    assert len(p.any_of(words.NUMBERS)) < len("|".join(words.NUMBERS)) * 0.8


def test_letters_re_reads_as_one_letter_keep_the_list():
    for letters in (
        ["zzzz", "ſa", "sb", "sc", "z"],
        ["zzzz", "Ka", "kb", "kc", "z"],
        ["zzzz", "ıa", "ib", "ic", "z"],
    ):
        assert p.any_of(letters) == "(?:" + "|".join(sorted(letters, key=len, reverse=True)) + ")"


def test_blanks_that_are_not_one_space_keep_the_list():
    for spaced in (
        ["zzzzz", "a  b", "a b", "ab", "b"],
        ["zzzzz", "a b", "a ", "ab", "z"],
        ["zzzzz", "a\tb", "a b", "z"],
    ):
        assert p.any_of(spaced) == "(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in spaced) + ")"


def test_a_pattern_beside_an_alternation_binds_to_every_word():
    # "quinze" is an hour only before "heures": a look-ahead written beside the hours in words
    # once bound to the last of them alone, and every other hour was one without its mark
    hours = p.any_of(["treize", "quatorze", "quinze", "seize", "vingt"])
    beside = re.compile(hours + r"(?=\s*heures)")
    assert beside.match("quinze moins le quart") is None
    assert beside.match("quinze heures").group(0) == "quinze"
    lead = re.compile(r"(?:" + p.any_of(["in", "during", "em"]) + r"\s+)?march")
    assert lead.fullmatch("during march") and lead.fullmatch("in march") and not lead.fullmatch("inmarch")


WORD_SETS = [
    ["mon", "monday", "month", "mo", "tue", "tuesday", "tues", "t"],
    ["de", "de la", "del", "de las", "dela", "d'", "des", "de l'"],
    ["next week", "next", "next weekend", "nex", "week", "weekend", "week end"],
    ["dreißig", "dreissig", "drei", "dreizehn", "dr", "ß", "ss"],
    ["2ª", "2ª feira", "2", "22", "2-feira", "segunda-feira", "segunda"],
    ["", "a", "ab", "abc", "b", "bc"],
    list(words.NUMBERS),
    list(words.MONTHS),
    list(words.WEEKDAYS),
]
TEXTS = [
    "monday month mon mo tuesday tue tues t montag",
    "de la de las del dela d'hier de l'an des  de   la del.",
    "next  week next weekend next week end nex weekend week-end",
    "dreißig DREISSIG dreizehn drei dr ß ss ẞ",
    "2ª feira 2ª 22 2-feira segunda-feira segundas",
    "a ab abc b bc abcd",
    "twenty-two vinte e dois quarante-cinq dreiundzwanzig 4 e meia quinze",
    "March mar marzo Mai may jan. january enero septembre sept sep",
    "Mon, tue. quarta-feira SAMEDI sábado sab do so mi",
]


@pytest.mark.parametrize("words_", WORD_SETS, ids=range(len(WORD_SETS)))
def test_an_alternation_matches_as_the_list_of_its_words(words_, monkeypatch):
    tree = p.any_of(words_)
    monkeypatch.setattr(p, "_tree", lambda words: None)
    listed = p.any_of(words_)
    assert tree != listed or len(words_) < 5 or "" in words_  # no tree holds the empty word
    # alone, in a group, and beside a neighbour that binds to its first or last word only
    for form in ("{}", "(?<!\\w)(?:{})(?!\\w)", "(?P<x>{})\\s*(?P<y>\\w+)?", "x{}", "{}(?=\\s)", "(?:{})+"):
        for flags in (0, re.I):
            a, b = re.compile(form.format(tree), flags), re.compile(form.format(listed), flags)
            for text in [*TEXTS, *(fold(t) for t in TEXTS)]:
                assert _read(a, text) == _read(b, text), (form, flags, text)


def _read(pattern: re.Pattern[str], text: str) -> list:
    """Every match found, and what a match at each place would be (the grammar reads both)."""
    found = [(m.span(), m.groups()) for m in pattern.finditer(text)]
    at = [(m.span(), m.groups()) if (m := pattern.match(text, i)) else None for i in range(len(text))]
    return [found, at]


def _patterns(grammar: p.Grammar) -> dict[str, re.Pattern[str]]:
    out = {}
    for name, value in vars(grammar).items():
        values = (
            value
            if isinstance(value, (tuple, list))
            else value.values()
            if isinstance(value, dict)
            else [value]
        )
        for i, pattern in enumerate(values):
            if isinstance(pattern, re.Pattern):
                out[f"{name}[{i}]"] = pattern
    return out


def test_every_pattern_of_the_grammar_reads_texts_not_ours_as_with_lists(monkeypatch):
    """A sample of the texts `python -m tests.bench.when_sameness` reads whole (date judges' phrases,
    the shared eval sets, calendars' and cards' lines), folded as the grammar reads them."""
    tree = p.Grammar(LANGUAGES)
    tree.compile()
    monkeypatch.setattr(p, "_tree", lambda words: None)
    listed = p.Grammar(LANGUAGES)
    listed.compile()
    a, b = _patterns(tree), _patterns(listed)
    assert a.keys() == b.keys()
    written_otherwise = [name for name in a if a[name].pattern != b[name].pattern]
    assert len(written_otherwise) > 100
    sample = [fold(text) for text, _, _ in texts_not_ours()[::40]]
    assert len(sample) > 500
    for name in written_otherwise:
        for text in sample:
            x = [(m.span(), m.groups()) for m in a[name].finditer(text)]
            y = [(m.span(), m.groups()) for m in b[name].finditer(text)]
            assert x == y, (name, text)
