"""Answering a question from its ranked table: the rows of the answer read in one round trip,
why each is there (`why`), the relevance bar (`relevance_bar`); the answer of one signal alone
(`one_signal`, for `neurons eval`); and what is most like a person's answer (`more_like`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.recall import ranking
from core.recall.candidates import top_slots
from core.recall.index import RecallIndex
from core.recall.question import EmbedderSource
from core.recall.result import Result
from core.store.reader import Reader
from core.vocabulary import Mode
from core.when import TimeWindow


def one_signal(
    reader: Reader, c: ranking.Candidates, w: ranking.Weights, mode: Mode, bm25: np.ndarray, limit: int
) -> list[Result]:
    """The answer of one signal alone (keyword, vector, or the two fused): by it, newest first
    on ties."""
    base = c.kw if mode is Mode.KEYWORD else c.vec
    if mode is Mode.HYBRID:
        base = w.keyword_share * c.kw + (1.0 - w.keyword_share) * c.vec
    order = np.lexsort((-c.created, -base))[:limit]
    rows = reader.neurons([c.ids[i] for i in order])
    return [
        Result(
            rows[c.ids[i]],
            float(base[i]),
            "matched the words" if c.kw[i] > 0 and c.kw[i] >= c.vec[i] else "matched the meaning",
            {"bm25": float(bm25[i]), "cos": float(c.vec[i])},
        )
        for i in order
        if c.ids[i] in rows
    ]


def answer(
    reader: Reader,
    c: ranking.Candidates,
    r: ranking.Ranked,
    w: ranking.Weights,
    window: TimeWindow | None,
    bm25: np.ndarray,
    limit: int,
) -> list[Result]:
    """The first `limit` of the ranked table as results: each with why it is there, the window's
    group, and the relevance bar."""
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
            why(i, c, r, w, titles, c.ids, window),
            {
                "bm25": float(bm25[i]),
                "cos": float(c.vec[i]),
                "base": float(r.base[i]),
                "hop": float(r.hop[i]),
                "sitting": float(r.sitting[i]),
                "person": float(r.person[i]),
                "exact": float(r.exact[i]),
            },
            group="window" if r.first and c.in_window[i] else None,
            window_label=window.label if r.first and c.in_window[i] and window else None,
        )
        for i in top
        if c.ids[i] in rows
    ]
    return relevance_bar(results)


def why(
    i: int,
    c: ranking.Candidates,
    r: ranking.Ranked,
    w: ranking.Weights,
    titles: dict,
    ids: Sequence,
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


def relevance_bar(results: list[Result]) -> list[Result]:
    """The relevance bar: an answer outside the window below LOOSE_SHARE of the best score, or
    below LOOSE_FLOOR, is loosely related (shown folded)."""
    best = max((r.score for r in results), default=0.0)
    for r in results:
        r.loose = r.group != "window" and (
            r.score < ranking.LOOSE_FLOOR or r.score < ranking.LOOSE_SHARE * best
        )
    return results


def more_like(
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
        top = top_slots(best, k, np.isfinite(best))
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
