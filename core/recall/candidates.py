"""Gathering a question's candidates and their signals, in named steps (`CandidateRows`):

- `Signals`: every neuron's keyword and meaning parts, scored once for the question;
- `Rows`: the neurons taken as candidates, in the order they came;
- `pick`: the question's own candidates -- the best keyword and vector matches, the window's;
- `Hop`: what one hop adds -- the links of the best, the same sitting, the supersedes edges
  around them, what is linked to a person named beside a topic;
- `exact_rows`: the rows holding the question's codes;
- `Window`: what the question's time window makes of each row;

made into the table `ranking.rank` orders (`ranking.Candidates`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import numpy as np

from core.model import EXPANDING_RELATIONS, Relation
from core.recall import ranking, windows
from core.recall.index import Entry, RecallIndex, RowIds
from core.recall.stopwords import written_in
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


def _meaning_part(cos: np.ndarray) -> np.ndarray:
    return np.nan_to_num(np.clip(cos, 0.0, None), nan=0.0)


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


@dataclass
class Signals:
    """Every slot's signals for one question: its BM25 (`bm`), calibrated cosine (`cos`, None
    without a vector), keyword part (`kw`), keyword strength and meaning part (`vec`)."""

    bm: np.ndarray
    cos: np.ndarray | None
    kw: np.ndarray
    strength: np.ndarray
    vec: np.ndarray
    # Which slots' cosines are exact (None: all of them), and how a slot's exact cosine is had on
    # the scale `cos` reads (the approximate step of the vector search: core/recall/nearest.py)
    exact: np.ndarray | None = None
    exact_of: Callable[[np.ndarray], np.ndarray] | None = None
    ranks: bool = False  # `vec` holds reciprocal ranks (fusion="rrf"), not the cosines

    @classmethod
    def of(
        cls,
        bm: np.ndarray,
        idf_sum: float,
        cos: np.ndarray | None,
        exact: np.ndarray | None = None,
        exact_of: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> Signals:
        return cls(
            bm=bm,
            cos=cos,
            kw=normalised_bm25(bm, idf_sum),
            strength=np.minimum(bm / idf_sum, 1.0) if idf_sum > 0 else np.zeros_like(bm),
            vec=_meaning_part(cos) if cos is not None else np.zeros(bm.size),
            exact=exact if cos is not None else None,
            exact_of=exact_of,
        )

    def settle(self, slots) -> None:
        """The exact cosines of `slots` in place of their estimates: every slot a ranking reads
        is settled first."""
        if self.exact is None or self.cos is None or self.exact_of is None:
            return
        slots = np.asarray(slots, dtype=np.int64)
        slots = slots[~self.exact[slots]]
        if not slots.size:
            return
        cos = self.exact_of(slots)
        self.cos[slots] = cos
        if not self.ranks:
            self.vec[slots] = _meaning_part(cos)
        self.exact[slots] = True

    @property
    def meaning(self) -> bool:
        return self.cos is not None

    def reciprocal_ranks(self, lex: np.ndarray, near: np.ndarray) -> Signals:
        """`fusion="rrf"`: each list's reciprocal rank stands for its part."""
        kw, vec = np.zeros(self.bm.size), np.zeros(self.bm.size)
        kw[lex] = 2.0 / (ranking.RRF_K + np.arange(lex.size) + 1)
        vec[near] = 2.0 / (ranking.RRF_K + np.arange(near.size) + 1)
        return replace(self, kw=kw, vec=vec, ranks=True)

    def fused(self, weights: ranking.Weights, slots: np.ndarray | None = None) -> np.ndarray:
        """The base score (keyword and meaning parts by the weights' share) of `slots`, or of
        every slot: what seeds and a big window's candidates are chosen by."""
        kw, vec, strength = (
            (self.kw, self.vec, self.strength)
            if slots is None
            else (self.kw[slots], self.vec[slots], self.strength[slots])
        )
        return ranking.fused(
            ranking.keyword_part(kw, strength, self.meaning, weights), vec, self.meaning, weights
        )


class RowEntries:
    """The rows' entries, each made when it is first read: most rows are only read through the
    index's columns (their kind, date, id), and an `Entry` a row was most of a question's cost of
    gathering them."""

    __slots__ = ("_idx", "_made", "_slots")

    def __init__(self, idx: RecallIndex, slots: list[int]):
        self._idx, self._slots = idx, slots
        self._made: dict[int, Entry] = {}

    def __len__(self) -> int:
        return len(self._slots)

    def __getitem__(self, row: int) -> Entry:
        entry = self._made.get(row)
        if entry is None:
            entry = self._made[row] = self._idx.at(self._slots[row])
        return entry

    def __iter__(self) -> Iterator[Entry]:
        return (self[row] for row in range(len(self._slots)))

    def forget_from(self, row: int) -> None:
        """The rows from `row` on are gone (`Rows.keep_own`)."""
        for r in [r for r in self._made if r >= row]:
            del self._made[r]


class Rows:
    """The neurons taken as candidates, one row each in the order they came: the question's own
    (`seedable`, first) and then what the hop reached."""

    def __init__(self, idx: RecallIndex, size: int):
        self.idx, self.size = idx, size
        self.slots: list[int] = []
        self.entries = RowEntries(idx, self.slots)
        self.row_of: dict[int, int] = {}
        self.seedable: list[bool] = []

    def __len__(self) -> int:
        return len(self.slots)

    def add(self, slot: int, seedable: bool = False) -> int | None:
        row = self.row_of.get(slot)
        if row is not None:
            return row
        if slot >= self.size or not self.idx.cols["live"][slot]:
            return None
        row = self.row_of[slot] = len(self.slots)
        self.slots.append(slot)
        self.seedable.append(seedable)
        return row

    def add_all(self, slots: list[int], seedable: bool = False) -> None:
        """`add` each of `slots`, in order (whether each is live read in one pass)."""
        at = np.asarray(slots, dtype=np.int64)
        live = at < self.size
        live[live] = self.idx.cols["live"][at[live]]
        row_of, taken = self.row_of, self.slots
        for slot, ok in zip(slots, live.tolist(), strict=True):
            if ok and slot not in row_of:
                row_of[slot] = len(taken)
                taken.append(slot)
                self.seedable.append(seedable)

    def add_id(self, nid: uuid.UUID) -> int | None:
        slot = self.idx.slot(nid)
        return self.add(slot) if slot is not None else None

    def column(self, name: str) -> np.ndarray:
        """The index's column `name` of every row, in row order."""
        return self.idx.cols[name][np.asarray(self.slots, dtype=np.int64)]

    def keep_own(self) -> None:
        """Back to the question's own candidates (what the hop reached goes)."""
        keep = sum(self.seedable)
        for slot in self.slots[keep:]:
            del self.row_of[slot]
        del self.slots[keep:], self.seedable[keep:]
        self.entries.forget_from(keep)


def pick(
    rows: Rows,
    signals: Signals,
    how: tuple[Mode, Fusion],
    weights: ranking.Weights,
    window: Window | None,
    topical: bool,
) -> Signals:
    """The question's own candidates into `rows`: the best lexical and vector matches, the
    window's; the signals they are ranked by (reciprocal ranks under `fusion="rrf"`)."""
    mode, fusion = how
    bm, cos = signals.bm, signals.cos
    if mode is Mode.KEYWORD:
        chosen = top_slots(bm, ranking.LEXICAL_K, bm > 0)
    elif mode is Mode.VECTOR:
        chosen = (
            top_slots(cos, ranking.VECTOR_K, ~np.isnan(cos))
            if cos is not None
            else np.zeros(0, dtype=np.int64)
        )
    else:
        lex = top_slots(bm, ranking.LEXICAL_K, bm > 0)
        signals.settle(lex)
        near = top_slots(signals.vec, ranking.VECTOR_K, ~np.isnan(cos)) if cos is not None else lex[:0]
        chosen = np.union1d(lex, near)
        if fusion is Fusion.RRF:
            signals = signals.reciprocal_ranks(lex, near)
    rows.add_all(chosen.tolist(), seedable=True)
    if window is not None:
        lifts = (weights.window, weights.said)
        if topical and signals.exact is not None:  # a big window's best are chosen by their exact score
            signals.settle(np.nonzero(window.held[0] | window.held[1])[0])
        base = signals.fused(weights)
        rows.add_all(
            window_candidates(rows.idx, window.window, window.held, base, topical, window.now, lifts),
            seedable=True,
        )
    signals.settle(rows.slots)
    return signals


def seeds(rows: Rows, signals: Signals, weights: ranking.Weights, collect: int) -> list[int]:
    """The rows whose links are followed: the best `collect` of the question's own by the fused
    score (for fitting, by the keyword and by the vector part too)."""
    own = np.asarray([r for r, s in enumerate(rows.seedable) if s], dtype=np.int64)
    if not own.size:
        return []
    slots = np.asarray(rows.slots)[own]
    order = [np.argsort(-signals.fused(weights, slots), kind="stable")]
    if collect > ranking.HOP_SEEDS:
        order += [
            np.argsort(-signals.kw[slots], kind="stable"),
            np.argsort(-signals.vec[slots], kind="stable"),
        ]
    return list(dict.fromkeys(int(own[i]) for o in order for i in o[:collect]))


@dataclass
class Hop:
    """What one hop from the question's candidates found, between rows: links (seed row, other
    row, weight, class), sittings (seed row, other row), supersedes (newer row, older row), each
    seed's degree, and the rows linked to a person named beside a topic (`person`: without naming
    them)."""

    links: list[tuple[int, int, float, int]] = field(default_factory=list)
    sittings: list[tuple[int, int]] = field(default_factory=list)
    sups: list[tuple[int, int]] = field(default_factory=list)
    degree: dict[int, int] = field(default_factory=dict)
    person: set[int] = field(default_factory=set)
    person_linked: set[int] = field(default_factory=set)

    def follow(self, rows: Rows, seeds: list[int]) -> None:
        """The links and sittings of the `seeds` (their other ends join the rows)."""
        idx = rows.idx
        contact = idx.cols["contact"]
        seed_slots = [rows.slots[row] for row in seeds]
        for row, slot, found in zip(
            seeds, seed_slots, idx.links_each(idx.ids_at(seed_slots), EXPANDING_RELATIONS), strict=True
        ):
            self.degree[row] = len(found)
            from_contact = bool(contact[slot])
            for link in found:
                other = rows.add_id(link.other)
                if other is None:
                    continue
                if from_contact:
                    cls = ranking.LINK_FROM_CONTACT
                elif contact[rows.slots[other]]:
                    cls = ranking.LINK_TO_CONTACT
                else:
                    cls = ranking.LINK_NOTES
                self.links.append((row, other, link.weight or 1.0, cls))
            for other_slot in idx.sitting(slot, ranking.SITTING_SECONDS):
                other = rows.add(other_slot)
                if other is not None:
                    self.sittings.append((row, other))

    def around_people(self, rows: Rows, linked: list[tuple[int, bool]]) -> None:
        """A person named beside a topic: what is linked to them (`linked_to_people`) joins the
        rows, and what does not name them is lifted."""
        for slot, unnamed in linked:
            row = rows.add(slot)
            if row is None:
                continue
            self.person_linked.add(row)
            if unnamed:
                self.person.add(row)

    def supersedes(self, rows: Rows) -> None:
        """The supersedes edges of every row, both ways: the older gives way, the newer takes
        over what it was found for (their other ends join the rows)."""
        for found in rows.idx.edges_of_slots(list(rows.slots), {Relation.SUPERSEDES.value}):
            for from_id, to_id, _, _ in found:
                if from_id == to_id:
                    continue
                newer, older = rows.add_id(from_id), rows.add_id(to_id)
                if newer is not None and older is not None and (newer, older) not in self.sups:
                    self.sups.append((newer, older))

    def columns(self, n: int) -> dict[str, Any]:
        """The table's columns of what the hop found, over `n` rows."""
        links = np.asarray(self.links, dtype=np.float64).reshape(-1, 4)
        sits = np.asarray(self.sittings, dtype=np.int64).reshape(-1, 2)
        sups = np.asarray(self.sups, dtype=np.int64).reshape(-1, 2)
        return {
            "person": _flags(n, self.person),
            "person_linked": _flags(n, self.person_linked),
            "degree": np.asarray([self.degree.get(r, 0) for r in range(n)], dtype=np.float64),
            "link_seed": links[:, 0].astype(np.int64),
            "link_other": links[:, 1].astype(np.int64),
            "link_weight": links[:, 2],
            "link_class": links[:, 3].astype(np.int64),
            "sit_seed": sits[:, 0],
            "sit_other": sits[:, 1],
            "sup_newer": sups[:, 0],
            "sup_older": sups[:, 1],
        }


def linked_to_people(idx: RecallIndex, people: list[uuid.UUID], terms: list[str]) -> list[tuple[int, bool]]:
    """What is linked to the people named beside a topic, in order: the slot of each linked
    neuron that is not a contact, and whether it does not name them -- lifted, standing in for
    the name it does not say ("ring her tomorrow" about Mãe); what names them has the name's
    words already: lifting it too would let everything about them crowd out what is linked to
    the thing asked about. (The caller holds the index's lock.)"""
    asked = set(terms)
    contact = idx.cols["contact"]
    out = []
    for person, links in zip(people, idx.links_each(people, EXPANDING_RELATIONS), strict=True):
        card = idx.slot(person)
        name_terms = asked.intersection(idx.lexemes[card] or ()) if card is not None else set()
        for link in links:
            slot = idx.slot(link.other)
            if slot is None or contact[slot]:
                continue
            out.append((slot, not name_terms or not name_terms.intersection(idx.lexemes[slot] or ())))
    return out


def _flags(n: int, rows) -> np.ndarray:
    out = np.zeros(n, dtype=bool)
    out[list(rows)] = True
    return out


def exact_rows(rows: Rows, terms: list[str]) -> set[int]:
    """A code in the question (a plate, a reference, a number: a rare lexeme with a digit) puts
    the rows holding the most of the question's codes first: those rows."""
    idx = rows.idx
    codes = [
        t
        for t in terms
        if len(t) >= ranking.EXACT_MIN_LENGTH
        and any(ch.isdigit() for ch in t)
        and 0 < idx.frequency(t) <= ranking.EXACT_MAX_DF
    ]
    if not codes:
        return set()
    held = [sum(t in e.lexemes for t in codes) for e in rows.entries]
    most = max(held, default=0)
    return {row for row, h in enumerate(held) if h == most} if most else set()


@dataclass
class Window:
    """The question's time window over the index: `windows.masks` over every slot (what it holds,
    what only says it), made once -- at 100k neurons one by one was most of a time question's cost."""

    window: TimeWindow
    held: tuple[np.ndarray, np.ndarray]
    now: datetime

    @classmethod
    def of(cls, idx: RecallIndex, window: TimeWindow | None, now: datetime) -> Window | None:
        return cls(window, windows.masks(idx, window), now) if window is not None else None

    def columns(self, rows: Rows, topical: bool, words: int, total: int) -> dict[str, Any]:
        """What the window makes of each row: in it, only saying it, the moment that puts it there
        (date order); and of the question: the share of the memory it holds, whether it comes
        first, whether it looks ahead."""
        window, holds = self.window, self.held[0]
        idx, n = rows.idx, len(rows)
        slots = np.asarray(rows.slots, dtype=np.int64)
        # what the window holds, as `masks` found it (a row the window's candidates did not
        # bring, with a repeat rule: as `holds` reads it)
        recurring = idx.date_arrays()[3]
        in_window = holds[slots] if n else np.zeros(0, dtype=bool)
        for row in np.nonzero(~in_window & recurring[slots])[0].tolist():
            in_window[row] = windows.holds(rows.entries[row], window)
        # the part of the memory the window holds (not only of the rows: a big window's
        # candidates are its best, WINDOW_CANDIDATES)
        inside = int(holds.sum()) + (int((in_window & ~holds[slots]).sum()) if n else 0)
        share = inside / total
        since = window.anchor_kind == "since"  # "since we moved": on from it, in date order
        first = (
            (not topical or words <= ranking.MOSTLY_TIME_WORDS)
            and window.anchor_kind != "while"
            and (share <= ranking.WINDOW_FIRST_MAX_SHARE or not topical or since)
        )
        # (`windows.says` and `windows.when_in` of every row, in numpy)
        said_from, said_to = idx.date_arrays()[4:6]
        says = (
            (said_from[slots] < window.end.timestamp()) & (said_to[slots] > window.start.timestamp())
            if window.dates == "any"
            else np.zeros(n, dtype=bool)
        )
        when = idx.cols["created"][slots].astype(np.float64)
        inside_rows = np.nonzero(in_window)[0]
        when[inside_rows] = windows.moments(idx, window, slots[inside_rows])
        for row in inside_rows.tolist():  # a reminder with a series (dates of its own, no rule)
            if int(slots[row]) in idx.series:
                when[row] = windows.when_in(rows.entries[row], window)
        return {
            "in_window": in_window,
            "says_window": says,
            "when": when,
            "share": share,
            "first": bool(first),
            "ahead": window.dates == "due" or window.start >= self.now or since,
        }


def no_window(rows: Rows) -> dict[str, Any]:
    """The window's columns of a question without one."""
    n = len(rows)
    return {
        "in_window": np.zeros(n, dtype=bool),
        "says_window": np.zeros(n, dtype=bool),
        "when": rows.column("created").astype(np.float64),
        "share": 0.0,
        "first": False,
        "ahead": True,
    }


def language_sample(idx: RecallIndex) -> tuple[np.ndarray, np.ndarray]:
    """Up to LANGUAGE_SAMPLE of the memory's notes and reminders (every one of a smaller memory,
    else every k-th slot: the same slots while the store grows) and the language each is written
    in (`written_in`), each slot's read once for its neuron and words. The caller holds the
    index's lock."""
    key = (idx.version, idx.size)
    kept = idx.languages_sampled
    if kept is not None and kept[0] == key:
        return kept[1], kept[2]
    slots = np.nonzero(idx.non_contacts())[0]
    stride = -(-idx.size // ranking.LANGUAGE_SAMPLE)
    if stride > 1:
        slots = slots[slots % stride == 0]
    c = idx.cols
    read = idx.languages_read
    written = []
    for slot, hi, lo, dl in zip(
        slots.tolist(),
        c["id_hi"][slots].tolist(),
        c["id_lo"][slots].tolist(),
        c["dl"][slots].tolist(),
        strict=True,
    ):
        was = read.get(slot)
        if was is None or was[:3] != (hi, lo, dl):
            was = (hi, lo, dl, written_in(idx.lexemes[slot] or ()))
            read[slot] = was
        written.append(was[3])
    sample = (slots, np.asarray(written, dtype=object))
    idx.languages_sampled = (key, *sample)
    return sample


@dataclass
class Ahead:
    """What a question's candidates take that its vector does not decide -- its BM25 and its
    window over every slot, the languages of its best keyword matches and of the memory's
    sample, what is linked to the people it names beside its topic -- made while the vector is
    computed on its own thread (onnxruntime lets go of the GIL), for the index as it was then
    (`fits`: no row or edge changed since)."""

    key: tuple[int, int, int, int]
    bm: np.ndarray
    idf_sum: float
    window: Window | None
    people: list[tuple[int, bool]] | None = None  # `linked_to_people`; None: not made

    @classmethod
    def of(
        cls,
        idx: RecallIndex,
        terms: list[str],
        window: TimeWindow | None,
        now: datetime,
        people: list[uuid.UUID] | None = None,
    ) -> Ahead:
        """(The caller holds the index's lock.)"""
        bm, idf_sum = idx.bm25(terms, ranking.BM25_K1, ranking.BM25_B)
        made = cls(_ahead_key(idx), bm, idf_sum, Window.of(idx, window, now))
        for slot in top_slots(bm, ranking.LEXICAL_K, bm > 0).tolist():
            idx.written_in(slot)
        language_sample(idx)
        if people:
            try:
                made.people = linked_to_people(idx, people, terms)
            except Exception:  # noqa: BLE001 - the expansion makes it again, and says if it fails
                made.people = None
        return made

    def fits(self, idx: RecallIndex) -> bool:
        return self.key == _ahead_key(idx)


def _ahead_key(idx: RecallIndex) -> tuple[int, int, int, int]:
    return (idx.version, idx.generation, idx.size, idx.edges_version)


class CandidateRows:
    """A question's candidates, gathered in named steps from the index (the caller holds its
    lock): `pick` the question's own, `expand` one hop, `mark_exact` the codes, `table`."""

    def __init__(
        self,
        idx: RecallIndex,
        signals: Signals,
        window: TimeWindow | None,
        now: datetime,
        terms: list[str],
        ahead: Ahead | None = None,
    ):
        self.signals, self.now, self.terms = signals, now, list(terms)
        self.rows = Rows(idx, signals.bm.size)
        self.window = ahead.window if ahead is not None else Window.of(idx, window, now)
        self._linked_ahead = ahead.people if ahead is not None else None
        self.hop = Hop()
        self.exact: set[int] = set()

    @property
    def slots(self) -> list[int]:
        return self.rows.slots

    def pick(self, mode: Mode, fusion: Fusion, weights: ranking.Weights, topical: bool = True) -> None:
        """The question's own candidates: the best lexical and vector matches, the window's."""
        self.signals = pick(self.rows, self.signals, (mode, fusion), weights, self.window, topical)

    def across_languages(
        self, raw_of: Callable[[np.ndarray], np.ndarray], language: str, calibration
    ) -> None:
        """The question's own candidates' cosines (the model's, exact: `raw_of(slots)`) set level
        across languages: the candidates in each language moved by the difference between the
        question's mean cosine to the memory's notes in its own `language` and in theirs (the
        mean of the candidates' languages' when the memory holds none in its own), by
        n / (n + LANGUAGE_SHRINK) of n candidates in it; then read through the model's
        `calibration` again. A question whose candidates are all in one language is left as it is."""
        rows = self.rows
        contact = rows.column("contact").tolist()
        own = [r for r, seedable in enumerate(rows.seedable) if seedable and not contact[r]]
        if len(own) < 2:
            return
        raw = raw_of(np.asarray([rows.slots[r] for r in own], dtype=np.int64))
        own = [r for r, c in zip(own, raw, strict=True) if not np.isnan(c)]
        cos = raw[~np.isnan(raw)]
        if len(own) < 2:
            return
        slots = np.asarray([rows.slots[r] for r in own], dtype=np.int64)
        written = np.asarray([rows.idx.written_in(int(s)) for s in slots.tolist()])
        if (written == written[0]).all():
            return
        kinds = np.unique(written)
        # how far the question leans to each language: its mean cosine to the memory's notes in it
        sample, sample_written = language_sample(rows.idx)
        leaning = raw_of(sample) if sample.size else np.zeros(0)
        means = {}
        for k in kinds:
            held = (sample_written == k) & ~np.isnan(leaning)
            means[str(k)] = float(leaning[held].mean()) if held.any() else float(cos[written == k].mean())
        level = means.get(language, float(np.mean(list(means.values()))))
        shift = np.zeros(slots.size)
        for k in kinds:
            held = written == k
            n = int(held.sum())
            shift[held] = (level - means[str(k)]) * n / (n + ranking.LANGUAGE_SHRINK)
        again = ranking.calibrated(cos + shift, calibration)
        if again is None or self.signals.cos is None:
            return
        vec, cal = self.signals.vec.copy(), self.signals.cos.copy()
        vec[slots] = np.clip(again, 0.0, None)
        cal[slots] = again
        if self.signals.exact is not None:  # set from exact cosines: never settled over again
            self.signals.exact[slots] = True
        self.signals = replace(self.signals, vec=vec, cos=cal)

    def follow(self, weights: ranking.Weights, collect: int, people: list[uuid.UUID]) -> None:
        """The links and sittings of the best seeds, and what is linked to the people named beside a topic."""
        self.hop.follow(self.rows, seeds(self.rows, self.signals, weights, collect))
        linked = self._linked_ahead
        if linked is None:
            linked = linked_to_people(self.rows.idx, people, self.terms) if people else []
        self.hop.around_people(self.rows, linked)

    def supersedes(self) -> None:
        self.hop.supersedes(self.rows)

    def drop_expansion(self) -> None:
        """Back to the question's own candidates (what the expansion added goes)."""
        self.rows.keep_own()
        self.hop = Hop()

    def mark_exact(self, terms: list[str]) -> None:
        self.exact = exact_rows(self.rows, terms)

    def table(self, topical: bool, words: int, total: int) -> ranking.Candidates:
        rows, signals = self.rows, self.signals
        signals.settle(rows.slots)  # what the hop reached
        n = len(rows)
        slots = np.asarray(rows.slots, dtype=np.int64)
        cols = rows.idx.cols
        timing = (
            self.window.columns(rows, topical, words, total) if self.window is not None else no_window(rows)
        )
        return ranking.Candidates(
            ids=RowIds(cols["id_hi"][slots], cols["id_lo"][slots]),
            kw=signals.kw[slots] if n else np.zeros(0),
            strength=signals.strength[slots] if n else np.zeros(0),
            vec=signals.vec[slots] if n else np.zeros(0),
            created=cols["created"][slots].astype(np.float64),
            contact=cols["contact"][slots].astype(bool),
            reminder=cols["reminder"][slots].astype(bool),
            seedable=np.asarray(rows.seedable, dtype=bool),
            exact=_flags(n, self.exact),
            now=self.now.timestamp(),
            meaning=signals.meaning,
            topical=topical,
            window=self.window is not None,
            **timing,
            **self.hop.columns(n),
        )
