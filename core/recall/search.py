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
from core.recall.about import about_intent, only_names
from core.recall.index import Entry, Link, RecallIndex
from core.recall.result import QUESTION_FILLER, Result, content_words
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


@dataclass
class _Cand:
    slot: int
    entry: Entry
    bm25: float = 0.0
    cos: float | None = None
    kw: float = 0.0
    base: float = 0.0
    sitting: float = 0.0
    hop: float = 0.0
    hop_from: uuid.UUID | None = None
    sitting_with: uuid.UUID | None = None
    replaces: uuid.UUID | None = None
    superseded_by: uuid.UUID | None = None
    in_window: bool = False
    says_window: bool = False
    person: float = 0.0
    exact: float = 0.0
    score: float = 0.0

    @property
    def id(self) -> uuid.UUID:
        return self.entry.id


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


def _why(c: _Cand, titles: dict[uuid.UUID, str], window: TimeWindow | None) -> str:
    kw = ranking.W_KEYWORD * c.kw
    vec = ranking.W_VECTOR * max(c.cos or 0.0, 0.0)
    own = c.base
    if c.superseded_by is not None:
        return f"replaced by {titles.get(c.superseded_by, 'a newer neuron')}"
    if c.replaces is not None and own < c.hop and own < c.sitting:
        return f"replaces {titles.get(c.replaces, 'an older neuron')}"
    if c.hop_from is not None and c.hop > max(own, ranking.SITTING_WEIGHT * c.sitting):
        return f"linked from {titles.get(c.hop_from, 'a linked neuron')}"
    if c.sitting_with is not None and ranking.SITTING_WEIGHT * c.sitting > own:
        return f"noted together with {titles.get(c.sitting_with, 'a neuron')}"
    if c.replaces is not None and c.bm25 == 0:
        return f"replaces {titles.get(c.replaces, 'an older neuron')}"
    if c.in_window and kw == 0 and (vec < 0.35 or own < 0.2):
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
    mode, fusion, limit = Mode.parse(mode), Fusion.parse(fusion), parse_limit(limit)
    if now is None:
        now = local_now()
    elif now.tzinfo is None:
        raise InvalidInput("now needs a time zone offset")
    full = mode is Mode.DEFAULT
    window, topic = find_window(question, now) if full else (None, question)
    if window is not None and window.anchor and not content_words(topic):
        topic = window.anchor  # "what was going on the week X": X is the topic too
    q = _Question(reader, idx, embedder, mode, topic)
    if full:
        with idx.lock:  # as of the last look: a question about a person needs no vector
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
            with idx.lock:
                names, orgs = idx.names(), idx.org_counts()
            if full and window is None and _about:
                head = about_intent(reader, idx, question, names, limit=limit, orgs=orgs) or []
                if len(head) >= limit:
                    return head
                if head:  # the person's answer first, then what is most like it (loosely related)
                    return head + _more_like(reader, idx, embedder, head, limit - len(head))
            people = _people_beside_a_topic(names, question, q.topic) if full and q.topical else []
        q.embed()
        if mode is Mode.VECTOR and q.topical and q.qvec is None:
            return []
        with idx.lock:
            version = idx.version
            bm, idf_sum = idx.bm25(q.terms, ranking.BM25_K1, ranking.BM25_B)
            cos = idx.cosine(q.qvec, q.model) if mode is not Mode.KEYWORD else None
            if mode is not Mode.VECTOR:  # the fusion reads the model's cosines on its one scale
                cos = ranking.calibrated(cos, q.calibration)
            held = windows.masks(idx, window) if window is not None else None
            cands, base_arr, kw_arr = _score(
                idx, mode, fusion, bm, idf_sum, cos, window, held, q.topical, now
            )
            if full:
                _mark_exact(idx, cands, q.terms)
            recurring = idx.date_arrays()[3]
            for c in cands.values():
                # what the window holds, as `masks` found it (a repeat rule: as `holds` reads it)
                c.in_window = (
                    held is not None
                    and window is not None
                    and bool(held[0][c.slot] or recurring[c.slot] and windows.holds(c.entry, window))
                )
                c.says_window = window is not None and window.dates == "any" and windows.says(c.entry, window)
        if not full:
            ranked = sorted(cands.values(), key=lambda c: (-c.base, -c.entry.created))[:limit]
            neurons = reader.neurons([c.id for c in ranked])
            return [
                Result(neurons[c.id], c.base, _why(c, {}, None), {"bm25": c.bm25, "cos": c.cos or 0.0})
                for c in ranked
                if c.id in neurons
            ]

        if expand:
            try:
                with idx.lock:
                    _expand(idx, version, cands, bm, cos, base_arr, kw_arr, q.topical, window, people)
            except Exception:  # additive: the base ranking stands, and says so
                log.warning("one-hop expansion failed; returning the base results", exc_info=True)
                for c in cands.values():
                    c.hop = c.sitting = 0.0
                    c.hop_from = c.sitting_with = c.replaces = c.superseded_by = None
        with idx.lock:
            total = max(int(idx.non_contacts().sum()), 1)
        # the part of the memory the window holds (not only of the candidates: a big window's
        # candidates are its best, WINDOW_CANDIDATES)
        inside = int(held[0].sum()) if held is not None else 0
        inside += sum(1 for c in cands.values() if c.in_window and not (held is not None and held[0][c.slot]))
        share = inside / total
        ranked, first = _order(cands, window, q, now, share)
        ranked = _defer_superseded(ranked)[:limit]
        # the one round trip after the scoring: the answer's rows, and those its reasons name
        named = [i for c in ranked for i in (c.hop_from, c.sitting_with, c.replaces, c.superseded_by) if i]
        rows = reader.neurons(list(dict.fromkeys([c.id for c in ranked] + named)))
        titles = {nid: n.title for nid, n in rows.items()}
        results = [
            Result(
                rows[c.id],
                c.score,
                _why(c, titles, window),
                {
                    "bm25": c.bm25,
                    "cos": c.cos or 0.0,
                    "base": c.base,
                    "hop": c.hop,
                    "sitting": c.sitting,
                    "person": c.person,
                    "exact": c.exact,
                },
                group="window" if first and c.in_window else None,
                window_label=window.label if window and first and c.in_window else None,
            )
            for c in ranked
            if c.id in rows
        ]
        return _bar(results)
    finally:  # a vector thrown away still finishes before the answer returns
        started.settle()


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
    with q.idx.lock:
        bm, idf_sum = q.idx.bm25(event.terms, ranking.BM25_K1, ranking.BM25_B)
        cos = ranking.calibrated(q.idx.cosine(event.qvec, event.model), event.calibration)
        vec = np.nan_to_num(np.clip(cos, 0.0, None), nan=0.0) if cos is not None else 0.0
        fused = ranking.W_KEYWORD * _keyword_part(bm, idf_sum) + ranking.W_VECTOR * vec
        return windows.place(window, np.asarray(fused, dtype=np.float64), q.idx)


def _order(cands: dict, window: TimeWindow | None, q: _Question, now: datetime, share: float):
    """The candidates in answer order, and whether the window's neurons come first. `share`: the
    part of the memory the window holds -- a window that holds much of it says little ("last
    year" over two years of notes): its boost shrinks, and it never comes first."""
    # mostly a time: the window first ("while ...", an event's stretch guessed from its words,
    # only lifts what is in it)
    first = (
        window is not None
        and (not q.topical or len(q.words) <= ranking.MOSTLY_TIME_WORDS)
        and window.anchor_kind != "while"
        and (share <= ranking.WINDOW_FIRST_MAX_SHARE or not q.topical)
    )
    boost = ranking.WINDOW_BOOST * max(1.0 - share, 0.0)
    for c in cands.values():
        c.score = c.base + ranking.SITTING_WEIGHT * c.sitting + c.hop + c.person + c.exact
        if c.in_window and not first:
            c.score += boost
        elif c.says_window and not c.in_window:
            c.score += ranking.SAID_BOOST
    if window is not None and not q.topical:
        # a question of dates alone: what is in the window, and only that, in the order of its
        # dates (soonest first ahead, latest first behind); a replaced neuron's date no longer holds
        ahead = window.dates == "due" or window.start >= now
        held = [c for c in cands.values() if c.in_window and c.superseded_by is None]
        return sorted(held, key=lambda c: windows.when_in(c.entry, window) * (1 if ahead else -1)), True
    ranked = sorted(cands.values(), key=lambda c: (-c.score, -c.entry.created))
    if first:  # mostly a time: the window's neurons first, then what is related
        inside = [c for c in ranked if c.in_window and c.superseded_by is None]
        ranked = inside + [c for c in ranked if not (c.in_window and c.superseded_by is None)]
    return ranked, first


def _score(
    idx: RecallIndex,
    mode: Mode,
    fusion: Fusion,
    bm: np.ndarray,
    idf_sum: float,
    cos: np.ndarray | None,
    window: TimeWindow | None,
    held: tuple[np.ndarray, np.ndarray] | None = None,
    topical: bool = True,
    now: datetime | None = None,
) -> tuple[dict[int, _Cand], np.ndarray, np.ndarray]:
    """The candidates (the best lexical and vector matches, the window's neurons), and the fused
    score and keyword part of every slot. `held`: the window's `windows.masks`."""
    n = idx.size
    kw = _keyword_part(bm, idf_sum)
    vec = np.nan_to_num(np.clip(cos, 0.0, None), nan=0.0) if cos is not None else np.zeros(n)
    if mode is Mode.KEYWORD:
        base, pick = bm, _top(bm, ranking.LEXICAL_K, bm > 0)
    elif mode is Mode.VECTOR:
        base = np.nan_to_num(cos, nan=-1.0) if cos is not None else np.zeros(n)
        pick = (
            _top(base, ranking.VECTOR_K, ~np.isnan(cos)) if cos is not None else np.zeros(0, dtype=np.int64)
        )
    else:
        lex = _top(bm, ranking.LEXICAL_K, bm > 0)
        near = _top(vec, ranking.VECTOR_K, ~np.isnan(cos)) if cos is not None else lex[:0]
        pick = np.union1d(lex, near)
        if fusion is Fusion.RRF:
            base = np.zeros(n)
            for ranked in (lex, near):
                base[ranked] += 1.0 / (ranking.RRF_K + np.arange(ranked.size) + 1)
        else:
            base = ranking.W_KEYWORD * kw + ranking.W_VECTOR * vec
    slots = set(pick.tolist())
    if window is not None:
        slots.update(_window_candidates(idx, window, held or windows.masks(idx, window), base, topical, now))
    out = {}
    for slot in slots:
        entry = idx.entries[slot]
        if entry is None:
            continue
        out[slot] = _Cand(
            slot,
            entry,
            bm25=float(bm[slot]),
            kw=float(kw[slot]),
            cos=None if cos is None or np.isnan(cos[slot]) else float(cos[slot]),
            base=float(base[slot]),
        )
    return out, base, kw


def _window_candidates(
    idx: RecallIndex,
    window: TimeWindow,
    held: tuple[np.ndarray, np.ndarray],
    base: np.ndarray,
    topical: bool,
    now: datetime | None,
) -> list[int]:
    """The window's neurons as candidates: all of them, or, when it holds more than
    WINDOW_CANDIDATES (a year of a big memory), those that can come first -- the best by their
    own score and the window's boost, or, for a question of dates alone, the first in its
    answer's order of dates -- so the cost of the question follows its answer, not the memory."""
    holds, said_only = held
    inside = np.nonzero(holds | said_only)[0]
    if inside.size <= ranking.WINDOW_CANDIDATES:
        return inside.tolist()
    if topical:
        key = base[inside] + np.where(holds[inside], ranking.WINDOW_BOOST, ranking.SAID_BOOST)
    else:  # only what the window holds is answered, soonest first ahead, latest first behind
        inside = np.nonzero(holds)[0]
        if inside.size <= ranking.WINDOW_CANDIDATES:
            return inside.tolist()
        moments = windows.moments(idx, window, inside)
        ahead = window.dates == "due" or (now is not None and window.start >= now)
        key = -moments if ahead else moments
    return inside[np.argpartition(-key, ranking.WINDOW_CANDIDATES - 1)[: ranking.WINDOW_CANDIDATES]].tolist()


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


def _mark_exact(idx: RecallIndex, cands: dict, terms: list[str]) -> None:
    """A code in the question (a plate, a reference, a number: a rare lexeme with a digit) puts
    the neurons holding the most of the question's codes first."""
    codes = [
        t
        for t in terms
        if len(t) >= ranking.EXACT_MIN_LENGTH
        and any(ch.isdigit() for ch in t)
        and 0 < len(idx.postings.get(t, ())) <= ranking.EXACT_MAX_DF
    ]
    if not codes:
        return
    held = {c.slot: sum(t in c.entry.lexemes for t in codes) for c in cands.values()}
    most = max(held.values(), default=0)
    for c in cands.values():
        if most and held[c.slot] == most:
            c.exact = ranking.EXACT_BOOST


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
    with idx.lock:
        own = [
            idx.slot_of[r.neuron.id]
            for r in head
            if r.neuron.id in idx.slot_of and r.neuron.kind.value != "contact"
        ]
        best, nearest = idx.similar_to(own, emb.name)
        finite = np.isfinite(best)
        best[finite] = ranking.calibrated(best[finite], emb.calibration)
        for r in head:
            slot = idx.slot_of.get(r.neuron.id)
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


def _defer_superseded(ranked: list[_Cand]) -> list[_Cand]:
    """The superseded rule: an outdated neuron gives way -- it is never among the first
    SUPERSEDED_AFTER results, and never above the neuron that replaced it; below that it keeps
    its place (it is still findable, marked as replaced)."""
    order = {id(c): i for i, c in enumerate(ranked)}
    current = [c for c in ranked if c.superseded_by is None]
    old = [c for c in ranked if c.superseded_by is not None]
    if not old:
        return ranked
    head = current[: ranking.SUPERSEDED_AFTER]
    tail = sorted(current[ranking.SUPERSEDED_AFTER :] + old, key=lambda c: order[id(c)])
    return head + tail


def _expand(
    idx: RecallIndex,
    version: int,
    cands: dict,
    bm: np.ndarray,
    cos: np.ndarray | None,
    base_arr: np.ndarray,
    kw_arr: np.ndarray,
    topical: bool,
    window: TimeWindow | None,
    people: list[uuid.UUID],
) -> None:
    """One hop along the edges of the best results, their neighbours in the sitting, the
    supersedes edges around them, and what is linked to the people named beside a topic -- all
    from the index (the caller holds its lock)."""

    def cand(slot: int) -> _Cand | None:
        c = cands.get(slot)
        if c is None:
            if idx.version != version or slot >= base_arr.size:
                return None  # the index changed under us: its slots no longer match the scores
            entry = idx.entries[slot]
            if entry is None:
                return None
            c = cands[slot] = _Cand(
                slot,
                entry,
                bm25=float(bm[slot]),
                kw=float(kw_arr[slot]),
                cos=None if cos is None or np.isnan(cos[slot]) else float(cos[slot]),
                base=float(base_arr[slot]),
            )
            if window is not None:
                c.in_window = windows.holds(entry, window)
        return c

    ranked = sorted(cands.values(), key=lambda c: -c.base)
    seeds = ranked[: ranking.HOP_SEEDS] if topical else []
    for s in seeds:  # neighbours in the sitting
        for other in idx.sitting(s.slot, ranking.SITTING_SECONDS) if idx.version == version else []:
            c = cand(other)
            if c is not None and c is not s and s.base > c.sitting:
                c.sitting, c.sitting_with = s.base, s.id
    pool = sorted(
        cands.values(), key=lambda c: (not c.in_window, -(c.base + ranking.SITTING_WEIGHT * c.sitting))
    )
    pool = pool[: ranking.POOL]
    edges = idx.links([s.id for s in seeds] + people, EXPANDING_RELATIONS)
    supersedes = idx.links([c.id for c in pool], [Relation.SUPERSEDES])
    _apply_links(idx, edges, supersedes, seeds, cand, set(people))


def _apply_links(
    idx: RecallIndex,
    edges: list[Link],
    supersedes: list[Link],
    seeds: list[_Cand],
    cand,
    people: set[uuid.UUID],
) -> None:
    degree: dict[uuid.UUID, int] = {}
    for link in edges:
        degree[link.seed] = degree.get(link.seed, 0) + 1
    # a person named beside a topic: what is linked to them -- naming them or not ("ring her
    # tomorrow" about Mãe) -- is lifted
    for link in (h for h in edges if h.seed in people):
        slot = idx.slot_of.get(link.other)
        other = cand(slot) if slot is not None else None
        if other is not None and other.entry.kind != "contact":
            other.person = ranking.PERSON_WEIGHT
    by_id = {s.id: s for s in seeds}
    for link in edges:
        seed, slot = by_id.get(link.seed), idx.slot_of.get(link.other)
        if seed is None or slot is None:
            continue
        other = cand(slot)
        if other is None or other is seed:
            continue
        gain = (
            ranking.HOP_WEIGHT
            * seed.base
            * (link.weight or 1.0)
            / (max(degree.get(seed.id, 1), 1) ** ranking.HOP_HUB_DAMPING)
        )
        if gain > other.hop:
            other.hop, other.hop_from = gain, seed.id
    # supersedes last: the replacement takes over what the outdated neuron was found for
    for link in supersedes:
        newer_slot, older_slot = idx.slot_of.get(link.from_id), idx.slot_of.get(link.to_id)
        if newer_slot is None or older_slot is None or newer_slot == older_slot:
            continue
        newer, older = cand(newer_slot), cand(older_slot)
        if newer is None or older is None:
            continue
        older.superseded_by, newer.replaces = newer.id, older.id
        carried = older.base + ranking.SITTING_WEIGHT * older.sitting + older.hop
        if carried > newer.base + newer.hop:
            newer.hop = max(newer.hop, carried - newer.base)
