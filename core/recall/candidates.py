"""Gathering a question's candidates and their signals: the best keyword and vector matches,
the window's neurons, one hop along the links from the best, the same sitting, the supersedes
edges around them, what is linked to a person named beside a topic, the codes -- as rows
(`CandidateRows`), made into the table `ranking.rank` orders (`ranking.Candidates`)."""

from __future__ import annotations

import uuid
from datetime import datetime

import numpy as np

from core.model import EXPANDING_RELATIONS, Relation
from core.recall import ranking, windows
from core.recall.index import Entry, RecallIndex
from core.vocabulary import Fusion, Mode
from core.when import TimeWindow


def normalised_bm25(bm: np.ndarray, idf_sum: float) -> np.ndarray:
    """BM25 on a 0..1 scale: over the best match, or over the question's total idf
    (ranking.KEYWORD_NORMALISATION), capped at 1 -- the keyword signal before it is weighed."""
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


def top_slots(values: np.ndarray, k: int, mask: np.ndarray | None = None) -> np.ndarray:
    """Slots of the k highest values (where mask), best first."""
    idx = np.nonzero(mask)[0] if mask is not None else np.arange(values.size)
    if idx.size == 0 or k <= 0:
        return idx[:0]
    vals = values[idx]
    if idx.size > k:
        part = np.argpartition(-vals, k - 1)[:k]
        idx, vals = idx[part], vals[part]
    return idx[np.argsort(-vals, kind="stable")]


def window_candidates(
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


class CandidateRows:
    """A question's candidates as rows, from the index (the caller holds its lock)."""

    def __init__(
        self, idx: RecallIndex, bm, idf_sum: float, cos, window: TimeWindow | None, now: datetime, terms=()
    ):
        self.idx, self.window, self.now, self.terms = idx, window, now, list(terms)
        self.bm, self.cos = bm, cos
        self.kw = normalised_bm25(bm, idf_sum)
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
            pick = top_slots(bm, ranking.LEXICAL_K, bm > 0)
        elif mode is Mode.VECTOR:
            pick = (
                top_slots(cos, ranking.VECTOR_K, ~np.isnan(cos))
                if cos is not None
                else np.zeros(0, dtype=np.int64)
            )
        else:
            lex = top_slots(bm, ranking.LEXICAL_K, bm > 0)
            near = top_slots(vec, ranking.VECTOR_K, ~np.isnan(cos)) if cos is not None else lex[:0]
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
            for slot in window_candidates(self.idx, self.window, self.held, base, topical, self.now, lifts):
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

    def table(self, topical: bool, words: int, total: int) -> ranking.Candidates:
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
        since = window is not None and window.anchor_kind == "since"  # "since we moved": on from it
        first = (
            window is not None
            and (not topical or words <= ranking.MOSTLY_TIME_WORDS)
            and window.anchor_kind != "while"
            and (share <= ranking.WINDOW_FIRST_MAX_SHARE or not topical or since)
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
            topical=topical,
            window=window is not None,
            first=bool(first),
            ahead=window is None or window.dates == "due" or window.start >= self.now or since,
            share=share,
        )
