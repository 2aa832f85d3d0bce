"""A second step for a question whose answer is spread over several items ("what activities
does Melanie do?", "when does Rui move and what does he need from us?"): after `rank`, the
rare words the best answers share lift what else holds them into the ranks below the first few.

Only a question that asks for several things (`asks_for_several`) takes the step, and only
ranks KEEP.. change: the first answers stay as `rank` put them, the superseded rule still holds,
and a question mostly of a time (its window first, in date order) is left as it is. No model,
no store: the index's lexemes of the rows already ranked (`follow_shared`).

The constants were chosen by leaving one space out over every eval set (the step tried on the
ranked tables of every question; docs/measurements/2026-12-05-spread-second-step.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from core.recall import ranking
from core.recall.index import RecallIndex

KEEP = 4  # the first answers stay where `rank` put them
POOL = 40  # ... the step orders the ranks KEEP..POOL again
FROM = 3  # the best answers whose rare words are followed
RARE = 3  # a word at most this many neurons hold is rare (a name, a place, a thing)
SHARED = 0.1  # a row gains this (a share of the best score) for each rare word it shares ...
SHARED_MAX = 2  # ... for at most this many

_WH = (
    r"what|when|where|which|who|how|why"
    r"|o que|quanto|quanta|onde|quando|qual|quem|como"
    r"|was|wann|wo|wie|wer|welche[rsnm]?|warum"
    r"|qué|cuándo|dónde|cuánto|quién"
    r"|quoi|quand|où|combien|qui|comment|pourquoi"
)
# two questions in one: "what did the cardiologist find and what ...", "Lenas Kurs: wann, wo und was"
_TWO = re.compile(
    rf"\b(?:{_WH})\b.*?(?:,|\band\b|\bund\b|\be\b|\by\b|\bet\b)\s+(?:\w+\s+)?\b(?:{_WH})\b", re.IGNORECASE
)
_EVERY = re.compile(r"\b(?:everything|tudo|alles|todo|tout)\b", re.IGNORECASE)
_SEVERAL = re.compile(
    r"\b(?:how many|list|all|both|every|ever|so far|ways|things|activities|kinds of|types of)\b",
    re.IGNORECASE,
)
# "what states has Maria vacationed at?": a perfect over a name, things gathered over time
_PERFECT = re.compile(r"\b(?:has|have)\s+[A-Z]\w*\s+\w+(?:ed|en|ne|wn|t)\b")
# "what does Melanie do to destress?": a habit of someone named, done more than once
_HABIT = re.compile(
    r"\b(?i:does|do)\s+[A-Z]\w*(?:'s)?\s+(?:\w+\s+)?(?i:do|like|enjoy|play|write|collect|read|make|use)\b"
)
# "what books ...", "which European countries ...": a plural after the question word
_PLURAL_AFTER = re.compile(r"^\s*(?:what|which)\s+(\w+)(?:\s+(\w+))?", re.IGNORECASE)
_NOT_PLURAL = frozenset(
    "is was does has this his its yes us as always sometimes alias bus plus news whereas thus".split()
)
_WORD = re.compile(r"[^\W\d_]+")


def asks_for_several(question: str) -> bool:
    """Whether `question` asks for several things: a plural after its question word, a count,
    "all"/"both"/"list"/"so far", a perfect over a name, a habit, two questions in one, or
    "everything"."""
    m = _PLURAL_AFTER.match(question)
    for word in (w.lower() for w in (m.groups() if m else ()) if w):
        if word.endswith("s") and not word.endswith("ss") and word not in _NOT_PLURAL:
            return True
    return any(p.search(question) for p in (_SEVERAL, _PERFECT, _HABIT, _TWO, _EVERY))


@dataclass(frozen=True)
class Spread:
    """The step's constants (the tool that chose them tries others through `reorder`)."""

    keep: int = KEEP
    pool: int = POOL
    follow: int = FROM
    rare: int = RARE
    shared: float = SHARED
    shared_max: int = SHARED_MAX


def follow_shared(
    question: str,
    terms: list[str],
    c: ranking.Candidates,
    r: ranking.Ranked,
    idx: RecallIndex,
) -> np.ndarray:
    """The answer order of `question` (its lexemes `terms`, its table `c` ranked `r`): `reorder`
    when it asks for several things and is not mostly a time; any other question's order as it
    is. The caller holds the index's lock."""
    order = r.order
    if not (c.topical and asks_for_several(question)) or r.first:
        return order
    lexemes = [lexemes_of(idx, c, int(i)) for i in order[:POOL]]
    return reorder(order, r, lexemes, idx.frequency, question_words(question, terms))


def reorder(
    order: np.ndarray,
    r: ranking.Ranked,
    lexemes: Sequence[tuple[str, ...]],
    frequency: Callable[[str], int],
    own: set[str],
    s: Spread = Spread(),
) -> np.ndarray:
    """`order` (of the ranked `r`) with the first `s.keep` as they are; ranks keep..pool by
    their share of the best score plus `s.shared` for each rare word (held by at most `s.rare`
    neurons: `frequency`, and not `own`, the question's) they share with the best `s.follow`,
    counted up to `s.shared_max`; the rest as they are; the superseded rule kept. `lexemes`: those
    of the rows of `order`, in its order, at least its first `s.pool`."""
    if len(order) <= s.keep:
        return order
    best = float(r.score[order[0]])
    if best <= 0:
        return order
    rare: set[str] = set()
    for held in lexemes[: s.follow]:
        rare |= {x for x in held if x not in own and frequency(x) <= s.rare}
    if not rare:
        return order
    pool = order[s.keep : s.pool]
    gain = np.asarray(
        [min(len(rare.intersection(held)), s.shared_max) for held in lexemes[s.keep : s.pool]],
        dtype=np.float64,
    )
    if not gain.any():
        return order
    value = r.score[pool] / best + s.shared * gain
    moved = np.concatenate([order[: s.keep], pool[np.argsort(-value, kind="stable")], order[s.pool :]])
    return ranking.defer_superseded(moved, r.superseded_by >= 0)


def lexemes_of(idx: RecallIndex, c: ranking.Candidates, row: int) -> tuple[str, ...]:
    slot = idx.slot(c.ids[row])
    return (idx.lexemes[slot] or ()) if slot is not None else ()


def question_words(question: str, terms: list[str]) -> set[str]:
    """What the question says itself: its lexemes, and what a word of it begins with (a stem
    up to three letters short of the word)."""
    words = [w.lower() for w in _WORD.findall(question)]
    own = set(terms)
    for w in words:
        own.update(w[: len(w) - k] for k in range(4) if len(w) - k >= 3)
    return own
