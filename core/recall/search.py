"""ask(question): keyword + vector candidates, fusion, one hop, the superseded rule, time windows.

The pipeline (docs/architecture.md, "How a question travels"):
1. The question's time words become a window (core.when); what is left is its topic. A window
   around an event ("the week Mãe moved in") is placed on the best match of the event's words.
2. One round trip reads the change stamp and the topic's lexemes; the in-process index (index.py)
   catches up with the store if anything changed, then scores BM25 and the cosine of every neuron.
3. A question that only names a person ("what do you know about Ana?") is answered by `about`.
4. Relative-score fusion of the two; the best LEXICAL_K + VECTOR_K (+ the window's neurons) are
   the candidates. The expansion -- one hop along open relates_to/concerns/same_person edges from
   the HOP_SEEDS best, the neurons noted in the same sitting, the supersedes edges around the pool
   -- reads the index's edges, and is additive: if it fails, the base ranking is returned and a
   warning logged.
5. A person named beside a topic ("Mãe's heart") lifts what is linked to them; a code of the
   question ("2WPK71") lifts the neurons that hold it.
6. The superseded rule, the window (first, under its label, when the question is mostly a
   time), the order, why each result is there, and the relevance bar (`Result.loose`); one more
   round trip reads the rows of the answer.
"""

from __future__ import annotations

import logging
import re
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import numpy as np

from core.capture.kinship import relations_of
from core.embed.runtime import QUERY, Calibration
from core.model import EXPANDING_RELATIONS, InvalidInput, Relation
from core.recall import ranking, windows
from core.recall.about import about_intent, defer_outdated, only_names
from core.recall.index import Entry, RecallIndex
from core.recall.result import QUESTION_FILLER, Result, content_words, gathering
from core.store.reader import Reader
from core.validate import parse_limit
from core.vocabulary import Fusion, Mode
from core.when import TimeWindow, find_window, local_now

log = logging.getLogger(__name__)


# -- the model -------------------------------------------------------------------------------------


class QuestionEmbedder(Protocol):
    """What recall asks of the loaded model (core.embed's Embedder)."""

    @property
    def name(self) -> str: ...

    @property
    def calibration(self) -> Calibration | None: ...

    def embed(self, texts: Sequence[str], kind: str = ...) -> np.ndarray: ...


# The loaded model, or None when it is unavailable (keyword search still answers).
EmbedderSource = Callable[[], QuestionEmbedder | None]


def embed_question(
    embedder: EmbedderSource, text: str
) -> tuple[np.ndarray | None, str | None, Calibration | None]:
    """The question's vector, the model it is of (only that model's vectors are compared with it),
    and that model's cosine calibration (ranking.calibrated)."""
    emb = embedder()
    if emb is None:
        return None, None, None
    return emb.embed([text], QUERY)[0], emb.name, emb.calibration


# -- scoring ---------------------------------------------------------------------------------------


def _keyword_part(bm: np.ndarray, idf_sum: float) -> np.ndarray:
    best = float(bm.max()) if bm.size else 0.0
    if ranking.KEYWORD_NORMALISATION == "idf":
        scale = idf_sum
    elif ranking.KEYWORD_NORMALISATION == "max":
        scale = best
    else:
        scale = max(best, ranking.KEYWORD_IDF_FLOOR * idf_sum)
    if scale <= 0:
        return np.zeros_like(bm)
    return np.minimum(bm / scale, 1.0)


def _top(values: np.ndarray, k: int, mask: np.ndarray | None = None) -> np.ndarray:
    """Slots of the k highest values (where mask), best first."""
    idx = np.nonzero(mask)[0] if mask is not None else np.arange(values.size)
    if idx.size == 0 or k <= 0:
        return idx[:0]
    vals = values[idx]
    if idx.size > k:
        part = np.argpartition(-vals, k - 1)[:k]
        idx, vals = idx[part], vals[part]
    return idx[np.argsort(-vals, kind="stable")]


def _why(
    i: int,
    c: ranking.Candidates,
    r: ranking.Ranked,
    w: ranking.Weights,
    titles: dict,
    ids: list,
    window: TimeWindow | None,
) -> str:
    kw = w.keyword_share * r.keyword[i]
    vec = (1.0 - w.keyword_share) * c.vec[i]
    own, hop, sitting = r.base[i], r.hop[i], r.sitting[i]

    def title(row: int, fallback: str) -> str:
        return titles.get(ids[row], fallback)

    if r.superseded_by[i] >= 0:
        return f"replaced by {title(r.superseded_by[i], 'a newer neuron')}"
    if r.replaces[i] >= 0 and own < hop and own < sitting:
        return f"replaces {title(r.replaces[i], 'an older neuron')}"
    if r.hop_from[i] >= 0 and hop > max(own, w.sitting * sitting):
        return f"linked from {title(r.hop_from[i], 'a linked neuron')}"
    if r.sitting_with[i] >= 0 and w.sitting * sitting > own:
        return f"noted together with {title(r.sitting_with[i], 'a neuron')}"
    if r.replaces[i] >= 0 and c.kw[i] == 0:
        return f"replaces {title(r.replaces[i], 'an older neuron')}"
    if c.in_window[i] and kw == 0 and (vec < 0.35 or own < 0.2):
        return f"in the window {window.label}" if window else "in the time window"
    if kw > 0 and kw + ranking.WHY_VECTOR_MARGIN >= vec:
        return "matched the words"
    return "matched the meaning"


# -- ask -------------------------------------------------------------------------------------------


def ask(
    reader: Reader,
    idx: RecallIndex,
    embedder: EmbedderSource,
    question: str,
    limit: int = 10,
    *,
    mode: Mode | str = Mode.DEFAULT,
    now: datetime | None = None,
    fusion: Fusion | str = Fusion.RELATIVE,
    expand: bool = True,
    _about: bool = True,
) -> list[Result]:
    prepared = _prepare(
        reader, idx, embedder, question, limit, mode=mode, now=now, fusion=fusion, expand=expand, about=_about
    )
    if isinstance(prepared, list):
        return prepared
    return prepared.answer(reader, limit)


def gather(
    reader: Reader, idx: RecallIndex, embedder: EmbedderSource, topic: str, limit: int = 50, now=None
) -> list[Result]:
    """Everything written about a thing or linked to what is ("the kitchen renovation"): the
    answer to the thing as a question, without what only loosely matches it."""
    prepared = _prepare(reader, idx, embedder, topic, limit, now=now, about=False)
    if isinstance(prepared, list):
        return prepared
    return [r for r in prepared.answer(reader, limit) if not r.loose or r.why.startswith("linked from")]


def candidates(
    reader: Reader, idx: RecallIndex, embedder: EmbedderSource, question: str, now: datetime
) -> tuple[ranking.Candidates, str | None] | list[Result]:
    """What `ask` would rank for `question` (default mode), with the links of more seeds than it
    follows (ranking.FIT_SEEDS: those any weights could pick), and the model of the question's vector;
    or the answer itself when no weight plays a part in it (a question only naming people). The
    fitting tool ranks these under other weights with `ranking.rank`, as `ask` does."""
    prepared = _prepare(reader, idx, embedder, question, 10, now=now, collect=ranking.FIT_SEEDS)
    if isinstance(prepared, list):
        return prepared
    return prepared.cands, prepared.model


@dataclass
class _Prepared:
    cands: ranking.Candidates
    weights: ranking.Weights
    model: str | None
    window: TimeWindow | None
    mode: Mode
    bm25: np.ndarray  # of the rows

    def answer(self, reader: Reader, limit: int) -> list[Result]:
        c, w = self.cands, self.weights
        if self.mode is not Mode.DEFAULT:
            base = c.kw if self.mode is Mode.KEYWORD else c.vec
            if self.mode is Mode.HYBRID:
                base = w.keyword_share * c.kw + (1.0 - w.keyword_share) * c.vec
            order = np.lexsort((-c.created, -base))[:limit]
            rows = reader.neurons([c.ids[i] for i in order])
            return [
                Result(
                    rows[c.ids[i]],
                    float(base[i]),
                    "matched the words" if c.kw[i] > 0 and c.kw[i] >= c.vec[i] else "matched the meaning",
                    {"bm25": float(self.bm25[i]), "cos": float(c.vec[i])},
                )
                for i in order
                if c.ids[i] in rows
            ]
        r = ranking.rank(c, w)
        top = [int(i) for i in r.order[:limit]]
        # the one round trip after the scoring: the answer's rows, and those its reasons name
        named = [
            c.ids[j]
            for i in top
            for j in (r.hop_from[i], r.sitting_with[i], r.replaces[i], r.superseded_by[i])
            if j >= 0
        ]
        rows = reader.neurons(list(dict.fromkeys([c.ids[i] for i in top] + named)))
        titles = {nid: n.title for nid, n in rows.items()}
        results = [
            Result(
                rows[c.ids[i]],
                float(r.score[i]),
                _why(i, c, r, w, titles, c.ids, self.window),
                {
                    "bm25": float(self.bm25[i]),
                    "cos": float(c.vec[i]),
                    "base": float(r.base[i]),
                    "hop": float(r.hop[i]),
                    "sitting": float(r.sitting[i]),
                    "person": float(r.person[i]),
                    "exact": float(r.exact[i]),
                },
                group="window" if r.first and c.in_window[i] else None,
                window_label=self.window.label if r.first and c.in_window[i] and self.window else None,
            )
            for i in top
            if c.ids[i] in rows
        ]
        return _bar(results)


def _prepare(
    reader: Reader,
    idx: RecallIndex,
    embedder: EmbedderSource,
    question: str,
    limit: int = 10,
    *,
    mode: Mode | str = Mode.DEFAULT,
    now: datetime | None = None,
    fusion: Fusion | str = Fusion.RELATIVE,
    expand: bool = True,
    about: bool = True,
    collect: int = ranking.HOP_SEEDS,
) -> _Prepared | list[Result]:
    mode, fusion, limit = Mode.parse(mode), Fusion.parse(fusion), parse_limit(limit)
    if now is None:
        now = local_now()
    elif now.tzinfo is None:
        raise InvalidInput("now needs a time zone offset")
    full = mode is Mode.DEFAULT
    window, topic = find_window(question, now) if full else (None, question)
    if window is not None and window.anchor and not content_words(topic):
        topic = window.anchor  # "what was going on the week X": X is the topic too
    if full:  # "catch me up on the kitchen renovation": the asking is no part of the topic
        _, topic = gathering(topic)
    q = _Question(reader, idx, embedder, mode, topic)
    if full:
        with idx.reading():  # as of the last look: a question about a person needs no vector
            if window is not None or not only_names(question, idx.names()):
                q.start_embedding()
    started = q
    try:
        with reader.session():  # one read transaction up to the scoring; the answer's rows come after
            q.read()
            if window is not None and window.anchor:
                window = _place(q, window, window.anchor)
                if window is None:  # no event matches its words: the question is all topic
                    q = _Question(reader, idx, embedder, mode, question)
                    q.read()
            with idx.reading():
                names, orgs = idx.names(), idx.org_counts()
            if full and window is None and about:
                head = about_intent(reader, idx, question, names, limit=limit, orgs=orgs) or []
                if len(head) >= limit:
                    return head
                if head:  # the person's answer first, then what is most like it (loosely related)
                    return defer_outdated(
                        idx, head + _more_like(reader, idx, embedder, head, limit - len(head))
                    )
            people = _people_beside_a_topic(names, question, q.topic) if full and q.topical else []
        q.embed()
        if mode is Mode.VECTOR and q.topical and q.qvec is None:
            return []
        weights = ranking.weights_for(q.model)
        with idx.reading():
            bm, idf_sum = idx.bm25(q.terms, ranking.BM25_K1, ranking.BM25_B)
            cos = idx.cosine(q.qvec, q.model) if mode is not Mode.KEYWORD else None
            if mode is not Mode.VECTOR:  # the fusion reads the model's cosines on its one scale
                cos = ranking.calibrated(cos, q.calibration)
            built = _Build(idx, bm, idf_sum, cos, window, now, q.terms)
            built.pick(mode, fusion, weights, q.topical)
            if full:
                if expand:
                    try:  # additive: if it fails, the base ranking stands, and says so
                        if q.topical:
                            built.follow(weights, collect, people)
                        built.supersedes()
                    except Exception:
                        log.warning("one-hop expansion failed; returning the base results", exc_info=True)
                        built.drop_expansion()
                built.mark_exact(q.terms)
            total = max(int(idx.non_contacts().sum()), 1)
            cands = built.table(q, total)
        return _Prepared(cands, weights, q.model, window, mode, bm[built.slots] if built.slots else bm[:0])
    finally:  # a vector thrown away still finishes before the answer returns
        started.settle()


def _window_candidates(
    idx: RecallIndex,
    window: TimeWindow,
    held: tuple[np.ndarray, np.ndarray],
    base: np.ndarray,
    topical: bool,
    now: datetime,
    lifts: tuple[float, float] = (ranking.Weights.window, ranking.Weights.said),
) -> list[int]:
    """The window's neurons as candidates: all of them, or, when it holds more than
    WINDOW_CANDIDATES (a year of a big memory), those that can come first -- the best by their
    own score and the window's lift (`lifts`: what it holds, what only says it), or, for a
    question of dates alone, the first in its answer's order of dates -- so the cost of a
    question follows its answer, not the memory."""
    holds, said_only = held
    inside = np.nonzero(holds | said_only)[0]
    if inside.size <= ranking.WINDOW_CANDIDATES:
        return inside.tolist()
    if topical:
        key = base[inside] + np.where(holds[inside], *lifts)
    else:  # only what the window holds is answered, soonest first ahead, latest first behind
        inside = np.nonzero(holds)[0]
        if inside.size <= ranking.WINDOW_CANDIDATES:
            return inside.tolist()
        moments = windows.moments(idx, window, inside)
        ahead = window.dates == "due" or window.start >= now
        key = -moments if ahead else moments
    best = np.argpartition(-key, ranking.WINDOW_CANDIDATES - 1)[: ranking.WINDOW_CANDIDATES]
    return inside[best].tolist()


class _Build:
    """A question's candidates as rows, from the index (the caller holds its lock)."""

    def __init__(
        self, idx: RecallIndex, bm, idf_sum: float, cos, window: TimeWindow | None, now: datetime, terms=()
    ):
        self.idx, self.window, self.now, self.terms = idx, window, now, list(terms)
        self.bm, self.cos = bm, cos
        self.kw = _keyword_part(bm, idf_sum)
        self.strength = np.minimum(bm / idf_sum, 1.0) if idf_sum > 0 else np.zeros_like(bm)
        self.vec = np.nan_to_num(np.clip(cos, 0.0, None), nan=0.0) if cos is not None else np.zeros(bm.size)
        self.slots: list[int] = []
        self.entries: list[Entry] = []  # of the rows
        self.row_of: dict[int, int] = {}
        self.seedable: list[bool] = []
        self.links: list[tuple[int, int, float, int]] = []  # seed row, other row, weight, class
        self.sittings: list[tuple[int, int]] = []
        self.sups: list[tuple[int, int]] = []  # newer row, older row
        self.degree: dict[int, int] = {}
        self.person: set[int] = set()  # linked to a person named beside a topic, not naming them
        self.person_linked: set[int] = set()
        self.exact: set[int] = set()
        self.kw_override: np.ndarray | None = None
        # the window's `windows.masks` over every slot, made once (at 100k neurons one by one
        # was most of a time question's cost)
        self.held = windows.masks(idx, window) if window is not None else None

    def add(self, slot: int, seedable: bool = False) -> int | None:
        row = self.row_of.get(slot)
        if row is not None:
            return row
        entry = self.idx.entry(slot) if slot < self.bm.size else None
        if entry is None:
            return None
        row = self.row_of[slot] = len(self.slots)
        self.slots.append(slot)
        self.entries.append(entry)
        self.seedable.append(seedable)
        return row

    def drop_expansion(self) -> None:
        """Back to the question's own candidates (what the expansion added goes)."""
        keep = sum(self.seedable)
        for slot in self.slots[keep:]:
            del self.row_of[slot]
        del self.slots[keep:], self.seedable[keep:], self.entries[keep:]
        self.links, self.sittings, self.sups, self.person, self.person_linked = [], [], [], set(), set()
        self.degree = {}

    def add_id(self, nid: uuid.UUID) -> int | None:
        slot = self.idx.slot(nid)
        return self.add(slot) if slot is not None else None

    def pick(self, mode: Mode, fusion: Fusion, weights: ranking.Weights, topical: bool = True) -> None:
        """The question's own candidates: the best lexical and vector matches, the window's."""
        bm, cos, vec = self.bm, self.cos, self.vec
        if mode is Mode.KEYWORD:
            pick = _top(bm, ranking.LEXICAL_K, bm > 0)
        elif mode is Mode.VECTOR:
            pick = (
                _top(cos, ranking.VECTOR_K, ~np.isnan(cos))
                if cos is not None
                else np.zeros(0, dtype=np.int64)
            )
        else:
            lex = _top(bm, ranking.LEXICAL_K, bm > 0)
            near = _top(vec, ranking.VECTOR_K, ~np.isnan(cos)) if cos is not None else lex[:0]
            pick = np.union1d(lex, near)
            if fusion is Fusion.RRF:  # each list's reciprocal rank stands for its part
                rrf_kw, rrf_vec = np.zeros(bm.size), np.zeros(bm.size)
                rrf_kw[lex] = 2.0 / (ranking.RRF_K + np.arange(lex.size) + 1)
                rrf_vec[near] = 2.0 / (ranking.RRF_K + np.arange(near.size) + 1)
                self.kw, self.vec = rrf_kw, rrf_vec
        for slot in pick.tolist():
            self.add(slot, seedable=True)
        if self.window is not None and self.held is not None:
            lifts = (weights.window, weights.said)
            base = self.fused(weights)
            for slot in _window_candidates(self.idx, self.window, self.held, base, topical, self.now, lifts):
                self.add(slot, seedable=True)

    def fused(self, weights: ranking.Weights, slots: np.ndarray | None = None) -> np.ndarray:
        """The base score (keyword and meaning parts by the weights' share) of `slots`, or of
        every slot: what seeds and a big window's candidates are chosen by."""
        kw, vec, strength = (
            (self.kw, self.vec, self.strength)
            if slots is None
            else (self.kw[slots], self.vec[slots], self.strength[slots])
        )
        meaning = self.cos is not None
        return ranking.fused(ranking.keyword_part(kw, strength, meaning, weights), vec, meaning, weights)

    def follow(self, weights: ranking.Weights, collect: int, people: list[uuid.UUID]) -> None:
        """The links and sittings of the rows that can be seeds (the best `collect` by the fused
        score; for fitting, by the keyword and by the vector part too), and what is linked to the
        people named beside a topic."""
        rows = np.asarray([r for r, s in enumerate(self.seedable) if s], dtype=np.int64)
        if rows.size:
            slots = np.asarray(self.slots)[rows]
            order = [np.argsort(-self.fused(weights, slots), kind="stable")]
            if collect > ranking.HOP_SEEDS:
                order += [
                    np.argsort(-self.kw[slots], kind="stable"),
                    np.argsort(-self.vec[slots], kind="stable"),
                ]
            seeds = list(dict.fromkeys(int(rows[i]) for o in order for i in o[:collect]))
        else:
            seeds = []
        idx = self.idx
        for row in seeds:
            seed = self.entries[row]
            found = idx.links([seed.id], EXPANDING_RELATIONS)
            self.degree[row] = len(found)
            for link in found:
                other = self.add_id(link.other)
                if other is None:
                    continue
                if seed.kind == "contact":
                    cls = ranking.LINK_FROM_CONTACT
                elif self.entries[other].kind == "contact":
                    cls = ranking.LINK_TO_CONTACT
                else:
                    cls = ranking.LINK_NOTES
                self.links.append((row, other, link.weight or 1.0, cls))
            for other_slot in idx.sitting(self.slots[row], ranking.SITTING_SECONDS):
                other = self.add(other_slot)
                if other is not None:
                    self.sittings.append((row, other))
        # a person named beside a topic: what is linked to them without naming them ("ring her
        # tomorrow" about Mãe) is lifted, standing in for the name it does not say (what names
        # them has the name's words already: lifting it too would let everything about them
        # crowd out what is linked to the thing asked about)
        terms = set(self.terms)
        for person in people:
            card = idx.live(person)
            name_terms = terms.intersection(card.lexemes) if card is not None else set()
            for link in idx.links([person], EXPANDING_RELATIONS):
                entry = idx.live(link.other)
                if entry is None or entry.kind == "contact":
                    continue
                linked = self.add_id(link.other)
                if linked is None:
                    continue
                self.person_linked.add(linked)
                if not name_terms.intersection(entry.lexemes):
                    self.person.add(linked)

    def supersedes(self) -> None:
        """The supersedes edges of every row, both ways: the older gives way, the newer takes
        over what it was found for (their other ends join the rows)."""
        for link in self.idx.links([e.id for e in list(self.entries)], [Relation.SUPERSEDES]):
            if link.from_id == link.to_id:
                continue
            newer, older = self.add_id(link.from_id), self.add_id(link.to_id)
            if newer is not None and older is not None and (newer, older) not in self.sups:
                self.sups.append((newer, older))

    def mark_exact(self, terms: list[str]) -> None:
        """A code in the question (a plate, a reference, a number: a rare lexeme with a digit) puts
        the rows holding the most of the question's codes first."""
        idx = self.idx
        codes = [
            t
            for t in terms
            if len(t) >= ranking.EXACT_MIN_LENGTH
            and any(ch.isdigit() for ch in t)
            and 0 < idx.frequency(t) <= ranking.EXACT_MAX_DF
        ]
        if not codes:
            return
        held = [sum(t in e.lexemes for t in codes) for e in self.entries]
        most = max(held, default=0)
        if most:
            self.exact = {row for row, h in enumerate(held) if h == most}

    def table(self, q: _Question, total: int) -> ranking.Candidates:
        window = self.window
        slots = np.asarray(self.slots, dtype=np.int64)
        entries = self.entries
        n = len(entries)

        def flags(rows) -> np.ndarray:
            out = np.zeros(n, dtype=bool)
            out[list(rows)] = True
            return out

        held = self.held
        if window is not None and held is not None:
            # what the window holds, as `masks` found it (a row the window's candidates did not
            # bring, with a repeat rule: as `holds` reads it)
            recurring = self.idx.date_arrays()[3]
            held_rows = held[0][slots] if n else np.zeros(0, dtype=bool)
            in_window = np.asarray(
                [
                    bool(h) or (bool(recurring[s]) and windows.holds(e, window))
                    for h, s, e in zip(held_rows.tolist(), slots.tolist(), entries, strict=True)
                ],
                dtype=bool,
            )
        else:
            in_window = np.zeros(n, dtype=bool)
        says = np.asarray(
            [window is not None and window.dates == "any" and windows.says(e, window) for e in entries],
            dtype=bool,
        )
        when = np.asarray(
            [
                windows.when_in(e, window) if window is not None and h else e.created
                for e, h in zip(entries, in_window, strict=True)
            ],
            dtype=np.float64,
        )
        # the part of the memory the window holds (not only of the rows: a big window's
        # candidates are its best, WINDOW_CANDIDATES)
        inside = int(held[0].sum()) if held is not None else 0
        inside += int((in_window & ~held[0][slots]).sum()) if held is not None and n else 0
        share = inside / total
        first = (
            window is not None
            and (not q.topical or len(q.words) <= ranking.MOSTLY_TIME_WORDS)
            and window.anchor_kind != "while"
            and (share <= ranking.WINDOW_FIRST_MAX_SHARE or not q.topical)
        )
        links = np.asarray(self.links, dtype=np.float64).reshape(-1, 4)
        sits = np.asarray(self.sittings, dtype=np.int64).reshape(-1, 2)
        sups = np.asarray(self.sups, dtype=np.int64).reshape(-1, 2)
        return ranking.Candidates(
            ids=[e.id for e in entries],
            kw=self.kw[slots] if n else np.zeros(0),
            strength=self.strength[slots] if n else np.zeros(0),
            vec=self.vec[slots] if n else np.zeros(0),
            created=np.asarray([e.created for e in entries], dtype=np.float64),
            contact=np.asarray([e.kind == "contact" for e in entries], dtype=bool),
            reminder=np.asarray([e.kind == "reminder" for e in entries], dtype=bool),
            seedable=np.asarray(self.seedable, dtype=bool),
            in_window=in_window,
            says_window=says,
            when=when,
            exact=flags(self.exact),
            person=flags(self.person),
            person_linked=flags(self.person_linked),
            degree=np.asarray([self.degree.get(r, 0) for r in range(n)], dtype=np.float64),
            link_seed=links[:, 0].astype(np.int64),
            link_other=links[:, 1].astype(np.int64),
            link_weight=links[:, 2],
            link_class=links[:, 3].astype(np.int64),
            sit_seed=sits[:, 0],
            sit_other=sits[:, 1],
            sup_newer=sups[:, 0],
            sup_older=sups[:, 1],
            now=self.now.timestamp(),
            meaning=self.cos is not None,
            topical=q.topical,
            window=window is not None,
            first=bool(first),
            ahead=window is None or window.dates == "due" or window.start >= self.now,
            share=share,
        )


class _Question:
    """A question's topic as the index scores it: its lexemes (`read`, in the read transaction)
    and its vector (`embed`, outside it)."""

    def __init__(self, reader: Reader, idx: RecallIndex, embedder: EmbedderSource, mode: Mode, topic: str):
        self.reader, self.idx, self.embedder, self.mode = reader, idx, embedder, mode
        self.topic = topic
        self.words = content_words(topic)
        self.topical = bool(self.words)
        self.qvec: np.ndarray | None = None
        self.model: str | None = None
        self.calibration: Calibration | None = None
        self.terms: list[str] = []
        self._pending: _Background | None = None

    def read(self) -> None:
        """The change stamp, the topic's lexemes, what changed since the index last looked."""
        with self.reader.session():
            seq = self.reader.change_stamp()
            self.terms = self.reader.question_terms(self.topic, QUESTION_FILLER) if self.topical else []
            self.idx.refresh(self.reader, seq)

    def start_embedding(self) -> None:
        """Embed the topic on a thread of its own while the store is read: onnxruntime and the
        socket both let go of the GIL, so the two overlap (on two cores)."""
        if self.mode is not Mode.KEYWORD and self.topical and self._pending is None:
            self._pending = _Background(embed_question, self.embedder, self.topic)

    def settle(self) -> None:
        if self._pending is not None:
            self._pending.wait()

    def embed(self) -> None:
        if self.mode is not Mode.KEYWORD and self.topical and self.qvec is None:
            pending, self._pending = self._pending, None
            self.qvec, self.model, self.calibration = (
                pending.result() if pending else embed_question(self.embedder, self.topic)
            )


class _Background:
    """A call run on a daemon thread; `result()` waits for it and raises what it raised."""

    def __init__(self, fn, *args):
        self._done = threading.Event()
        self._value = self._error = None
        threading.Thread(
            target=self._run, args=(fn, args), name="neurons-embed-question", daemon=True
        ).start()

    def _run(self, fn, args) -> None:
        try:
            self._value = fn(*args)
        except BaseException as e:  # noqa: BLE001 - handed to the caller
            self._error = e
        finally:
            self._done.set()

    def wait(self) -> None:
        self._done.wait()

    def result(self):
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._value


def _place(q: _Question, window: TimeWindow, anchor: str) -> TimeWindow | None:
    """The window around the event the question names (`anchor`), placed on the best match of the
    event's words (their fused keyword and vector score); None when nothing matches well enough."""
    event = q if q.topic == anchor else _Question(q.reader, q.idx, q.embedder, q.mode, anchor)
    if event is not q:
        event.read()
    event.embed()
    if not event.topical:
        return None
    with q.idx.reading():
        bm, idf_sum = q.idx.bm25(event.terms, ranking.BM25_K1, ranking.BM25_B)
        cos = ranking.calibrated(q.idx.cosine(event.qvec, event.model), event.calibration)
        vec = np.nan_to_num(np.clip(cos, 0.0, None), nan=0.0) if cos is not None else 0.0
        share = ranking.PLACE_KEYWORD_SHARE
        fused = share * _keyword_part(bm, idf_sum) + (1.0 - share) * vec
        return windows.place(window, np.asarray(fused, dtype=np.float64), q.idx)


def _people_beside_a_topic(names, question: str, topic: str) -> list[uuid.UUID]:
    """The contacts a question names without doubt, when it also names a topic ("Mãe's heart",
    "what's going on with Kris's car"): the topic is to be looked for around them."""
    found = [f for f in names.find(question) if f.strength >= 2 and not _relative_of(question, f)]
    rest = topic
    for f in names.find(topic):
        rest = rest.replace(f.text, " ")
    return list(dict.fromkeys(f.contact_id for f in found)) if found and content_words(rest) else []


# "Jonah's parents", "Bex's little boy": the question is about someone else, near them
_RELATIVES = frozenset(
    """parents parent kids kid children child son sons daughter daughters boy girl
    baby family partner boyfriend girlfriend friend friends boss colleague little""".split()
)


def _relative_of(question: str, f) -> bool:
    if not re.search(r"['’]s?$", f.text):
        return False
    after = re.match(r"\s+([\w-]+)", question[f.end :])
    return after is not None and (after.group(1).lower() in _RELATIVES or bool(relations_of(after.group(1))))


def _bar(results: list[Result]) -> list[Result]:
    """The relevance bar: an answer outside the window below LOOSE_SHARE of the best score, or
    below LOOSE_FLOOR, is loosely related (shown folded)."""
    best = max((r.score for r in results), default=0.0)
    for r in results:
        r.loose = r.group != "window" and (
            r.score < ranking.LOOSE_FLOOR or r.score < ranking.LOOSE_SHARE * best
        )
    return results


def _more_like(
    reader: Reader, idx: RecallIndex, embedder: EmbedderSource, head: list[Result], k: int
) -> list[Result]:
    """The k neurons (not people) closest in meaning to any of `head`'s, best first."""
    emb = embedder()
    if emb is None or k <= 0:
        return []
    with idx.reading():
        own = [
            slot
            for r in head
            if (slot := idx.slot(r.neuron.id)) is not None and r.neuron.kind.value != "contact"
        ]
        best, nearest = idx.similar_to(own, emb.name)
        finite = np.isfinite(best)
        best[finite] = ranking.calibrated(best[finite], emb.calibration)
        for r in head:
            slot = idx.slot(r.neuron.id)
            if slot is not None and slot < best.size:
                best[slot] = -np.inf
        top = _top(best, k, np.isfinite(best))
        picks = [(idx.at(int(s)).id, float(best[s]), idx.at(int(nearest[s])).id) for s in top]
    rows = reader.neurons([p[0] for p in picks])
    titles = {r.neuron.id: r.neuron.title for r in head}
    return [
        Result(
            rows[nid], ranking.LIKE_WEIGHT * sim, f"like {titles.get(near, 'what is about them')}", loose=True
        )
        for nid, sim, near in picks
        if nid in rows
    ]
