"""ask(question): keyword + vector candidates, fusion, one hop, the superseded rule, time windows.

The pipeline (DESIGN.md "Retrieval"), in round trips to the store:
1. `recall_sql.candidates`: BM25 over the tsvector, the nearest vectors, the neurons of the
   question's time window and the contacts it may name -- one statement.
2. If the question is only a person's name ("what do you know about Ana?"), the answer is `about`.
3. Fusion of the two scores; `recall_sql.expansion` (one statement) brings the neurons one hop
   along open edges from the top results, their neighbours in the same sitting, and the
   supersedes edges of everything found. The expansion is additive: if it fails, the base ranking
   is returned and a warning logged.
4. The superseded rule, the time window, the order, and why each result is there.
"""

from __future__ import annotations

import logging
import re
import threading
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from core.model import EXPANDING_RELATIONS, InvalidInput, Kind, Neuron, State
from core.recall import ranking as R
from core.recall.timewords import TimeWindow, find_window
from core.store import recall_sql
from core.store.queries import neuron_from_row

if TYPE_CHECKING:
    from core.memory import Memory

log = logging.getLogger(__name__)

MODES = ("default", "keyword", "vector", "hybrid")

# Words of a question that ask for something rather than name it: left out of the keyword part.
QUESTION_FILLER = (
    "anything everything something thing things stuff know knew tell remind reminder reminders "
    "need needs want wanted going got get info information please show list find look "
    "whats what's hey thanks"
)
# English stop words (Postgres' english list) plus the filler: what is left names a topic.
STOPWORDS = frozenset("""
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she
    her hers herself it its itself they them their theirs themselves what which who whom this that
    these those am is are was were be been being have has had having do does did doing a an the and
    but if or because as until while of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then once here
    there when where why how all any both each few more most other some such no nor not only own
    same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn
    doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn
    whats what's who's where's when's how's it's i'm i've i'd let let's would could shall may might
    must also ever still
    """.split()) | frozenset(QUESTION_FILLER.split())
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


def content_words(text: str) -> list[str]:
    return [w for w in (m.group(0).lower() for m in _WORD.finditer(text)) if w not in STOPWORDS]


@dataclass
class Result:
    neuron: Neuron
    score: float
    why: str
    parts: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"id": str(self.neuron.id), "kind": self.neuron.kind.value, "title": self.neuron.title,
                "score": round(float(self.score), 4), "why": self.why, "neuron": self.neuron.to_json()}


# -- the model -------------------------------------------------------------------------------------

_embedders: dict[str, Any] = {}
_embedders_lock = threading.Lock()


def embedder_of(memory: Memory):
    """The memory's embedder, or None (with one warning) when the model is unavailable."""
    getter = getattr(memory, "embedder", None)
    if callable(getter):
        return getter()
    key = str(memory.store.settings.model_dir)
    with _embedders_lock:
        if key not in _embedders:
            from core.embed.runtime import Embedder, ModelUnavailable  # noqa: PLC0415

            try:
                _embedders[key] = Embedder.load(memory.store.settings.model_dir, threads=1)
            except ModelUnavailable as exc:
                log.warning("semantic search is off, keyword search only: %s", exc)
                _embedders[key] = None
        return _embedders[key]


def embed_question(memory: Memory, text: str) -> tuple[np.ndarray | None, str | None]:
    emb = embedder_of(memory)
    if emb is None:
        return None, None
    return emb.embed([text])[0], emb.name


# -- scoring ---------------------------------------------------------------------------------------

@dataclass
class _Cand:
    neuron: Neuron
    bm25: float = 0.0
    idf_sum: float = 0.0
    cos: float | None = None
    due: datetime | None = None
    base: float = 0.0
    sitting: float = 0.0
    hop: float = 0.0
    hop_from: Neuron | None = None
    sitting_with: Neuron | None = None
    replaces: Neuron | None = None
    superseded_by: Neuron | None = None
    in_window: bool = False
    score: float = 0.0


def _cand_from_row(row: dict[str, Any]) -> _Cand:
    return _Cand(neuron=neuron_from_row(row), bm25=float(row.get("bm25") or 0.0),
                 idf_sum=float(row.get("idf_sum") or 0.0),
                 cos=None if row.get("cos") is None else float(row["cos"]), due=row.get("due"))


def _fuse(cands: dict[uuid.UUID, _Cand], mode: str, fusion: str) -> None:
    best_bm = max((c.bm25 for c in cands.values()), default=0.0)
    if mode == "keyword":
        for c in cands.values():
            c.base = c.bm25
        return
    if mode == "vector":
        for c in cands.values():
            c.base = c.cos if c.cos is not None else -1.0
        return
    if fusion == "rrf":
        by_bm = sorted((c for c in cands.values() if c.bm25 > 0), key=lambda c: -c.bm25)
        by_cos = sorted((c for c in cands.values() if c.cos is not None), key=lambda c: -c.cos)
        for c in cands.values():
            c.base = 0.0
        for ranked in (by_bm, by_cos):
            for i, c in enumerate(ranked):
                c.base += 1.0 / (R.RRF_K + i + 1)
        return
    for c in cands.values():
        c.base = _base(c, best_bm)


def _keyword_part(c: _Cand, best_bm: float) -> float:
    if R.KEYWORD_NORMALISATION == "idf":
        return min(c.bm25 / c.idf_sum, 1.0) if c.idf_sum > 0 else 0.0
    return c.bm25 / best_bm if best_bm > 0 else 0.0


def _base(c: _Cand, best_bm: float) -> float:
    kw = _keyword_part(c, best_bm)
    vec = max(c.cos, 0.0) if c.cos is not None else 0.0
    return R.W_KEYWORD * kw + R.W_VECTOR * vec


def _why(c: _Cand, best_bm: float, window: TimeWindow | None) -> str:
    kw = R.W_KEYWORD * _keyword_part(c, best_bm)
    vec = R.W_VECTOR * max(c.cos or 0.0, 0.0)
    own = c.base
    if c.replaces is not None and own < c.hop and own < c.sitting:
        return f"replaces {c.replaces.title}"
    if c.hop_from is not None and c.hop > max(own, c.sitting):
        return f"linked from {c.hop_from.title}"
    if c.sitting_with is not None and c.sitting > own:
        return f"noted together with {c.sitting_with.title}"
    if c.replaces is not None and c.bm25 == 0:
        return f"replaces {c.replaces.title}"
    if c.in_window and kw == 0 and (vec < 0.35 or own < 0.2):
        return f"in the window {window.label}" if window else "in the time window"
    if kw > 0 and kw + R.WHY_VECTOR_MARGIN >= vec:
        return "matched the words"
    return "matched the meaning"


# -- time windows ----------------------------------------------------------------------------------

def _occurs_in(c: _Cand, window: TimeWindow) -> datetime | None:
    """The due date (or next occurrence of a recurring reminder) that falls in the window."""
    n = c.neuron
    if n.kind is not Kind.REMINDER or c.due is None:
        return None
    if window.dates != "created" and n.state is State.DONE:
        return None
    rule = n.attrs.get("rrule")
    if rule and isinstance(rule, str):
        from core.capture.when import occurrences  # noqa: PLC0415

        try:
            found = occurrences(rule, c.due, window.start, window.end, limit=1)
        except (ValueError, TypeError):
            found = []
        if found:
            return found[0]
        return c.due if window.holds(c.due) else None
    return c.due if window.holds(c.due) else None


def _in_window(c: _Cand, window: TimeWindow) -> bool:
    if window.overdue:
        return (c.neuron.kind is Kind.REMINDER and c.neuron.state is State.ACTIVE
                and c.due is not None and c.due < window.end and not c.neuron.attrs.get("rrule"))
    if window.dates in ("due", "any") and _occurs_in(c, window) is not None:
        return True
    if window.dates in ("created", "any") and window.holds(c.neuron.created_at):
        return True
    return False


# -- ask -------------------------------------------------------------------------------------------

def ask(memory: Memory, question: str, limit: int = 10, *, mode: str = "default",
        now: datetime | None = None, fusion: str = "relative", expand: bool = True) -> list[Result]:
    if mode not in MODES:
        raise InvalidInput(f"unknown mode {mode!r}: use one of {', '.join(MODES)}")
    if fusion not in ("relative", "rrf"):
        raise InvalidInput(f"unknown fusion {fusion!r}: use relative or rrf")
    if not isinstance(limit, int) or limit < 1:
        raise InvalidInput("limit must be a positive integer")
    if now is None:
        from core.capture.when import local_now  # noqa: PLC0415

        now = local_now()
    elif now.tzinfo is None:
        raise InvalidInput("now needs a time zone offset")
    full = mode == "default"
    window, topic = find_window(question, now) if full else (None, question)
    topical = bool(content_words(topic))
    qvec = model = None
    if mode != "keyword" and topical:
        qvec, model = embed_question(memory, topic)
        if qvec is None and mode == "vector":
            return []
    with memory.store.reading() as cur:
        rows = recall_sql.candidates(
            cur, memory.identity, text=topic if topical else "", filler=QUESTION_FILLER,
            lexical_k=R.LEXICAL_K, k1=R.BM25_K1, b=R.BM25_B, qvec=qvec, model=model,
            vector_k=R.VECTOR_K if mode != "keyword" else 0,
            window=(window.start, window.end) if window else None,
            window_k=R.WINDOW_K, name_sim=R.NAME_SIMILARITY)
    if full:
        from core.recall.about import about_intent  # noqa: PLC0415

        named = [r for r in rows if r["named"]]
        if named and not window:
            answer = about_intent(memory, question, named, limit=limit)
            if answer is not None:
                return answer
    cands: dict[uuid.UUID, _Cand] = {}
    for row in rows:
        if mode == "keyword" and row["bm25"] <= 0:
            continue
        if mode == "vector" and row["cos"] is None:
            continue
        if mode in ("keyword", "vector", "hybrid") and row["bm25"] <= 0 and row["cos"] is None:
            continue
        cands[row["id"]] = _cand_from_row(row)
    best_bm = max((c.bm25 for c in cands.values()), default=0.0)
    _fuse(cands, mode, fusion)
    if not full:
        ranked = sorted(cands.values(), key=lambda c: (-c.base, _recent_key(c)))
        return [Result(c.neuron, c.base, _why(c, best_bm, None), {"bm25": c.bm25, "cos": c.cos or 0.0})
                for c in ranked[:limit]]

    if expand:
        try:
            _expand(memory, cands, qvec, model, best_bm, topical)
        except Exception:  # additive: the base ranking stands, and says so
            log.warning("one-hop expansion failed; returning the base results", exc_info=True)
            for c in cands.values():
                c.hop = c.sitting = 0.0
    for c in cands.values():
        c.score = c.base + R.SITTING_WEIGHT * c.sitting + c.hop
        if c.superseded_by is not None:
            c.score *= R.SUPERSEDED_FACTOR
        if window is not None:
            c.in_window = _in_window(c, window)
            if c.in_window:
                c.score += R.WINDOW_BOOST
    if window is not None and not topical:
        key = _due_key if window.dates == "due" else _recent_key
        ranked = sorted(cands.values(), key=lambda c: (not c.in_window, c.superseded_by is not None,
                                                       key(c)))
    else:
        ranked = sorted(cands.values(), key=lambda c: (-c.score, _recent_key(c)))
    return [Result(c.neuron, c.score, _why(c, best_bm, window),
                   {"bm25": c.bm25, "cos": c.cos or 0.0, "base": c.base, "hop": c.hop,
                    "sitting": c.sitting})
            for c in ranked[:limit]]


def _recent_key(c: _Cand) -> float:
    t = c.neuron.created_at
    return -t.timestamp() if t else 0.0


def _due_key(c: _Cand) -> float:
    return c.due.timestamp() if c.due else float("inf")


def _expand(memory: Memory, cands: dict[uuid.UUID, _Cand], qvec, model, best_bm: float,
            topical: bool) -> None:
    ranked = sorted(cands.values(), key=lambda c: -c.base)
    seeds = [c.neuron.id for c in ranked[:R.HOP_SEEDS]] if topical else []
    pool = list(cands)
    if not pool:
        return
    with memory.store.reading() as cur:
        rows = recall_sql.expansion(
            cur, memory.identity, seeds=seeds, pool=pool, relations=EXPANDING_RELATIONS,
            sitting_seconds=R.SITTING_SECONDS, qvec=qvec, model=model)
    degree: dict[uuid.UUID, int] = {}
    for row in rows:
        if row["via"] == "edge":
            degree[row["seed"]] = degree.get(row["seed"], 0) + 1
    for row in rows:
        other = row["id"]
        if other not in cands:
            c = _cand_from_row(row)
            c.base = _base(c, best_bm)
            cands[other] = c
    # supersedes last: the replacement takes over what the outdated neuron gained from the rest
    rows = sorted(rows, key=lambda r: r["via"] == "supersedes")
    for row in rows:
        seed, other, via = cands.get(row["seed"]), cands[row["id"]], row["via"]
        if seed is None or seed is other:
            continue
        if via == "edge":
            gain = R.HOP_WEIGHT * seed.base * float(row["weight"] or 1.0) / (
                max(degree.get(seed.neuron.id, 1), 1) ** R.HOP_HUB_DAMPING)
            if gain > other.hop:
                other.hop, other.hop_from = gain, seed.neuron
        elif via in ("before", "after"):
            if seed.base > other.sitting:
                other.sitting, other.sitting_with = seed.base, seed.neuron
        elif via == "supersedes":
            newer_id, older_id = row["from_node_id"], row["to_node_id"]
            newer, older = cands.get(newer_id), cands.get(older_id)
            if newer is None or older is None or newer is older:
                continue
            older.superseded_by = newer.neuron
            newer.replaces = older.neuron
            # the replacement takes over what the outdated neuron was found for
            carried = older.base + R.SITTING_WEIGHT * older.sitting + older.hop
            if carried > newer.base + newer.hop:
                newer.hop = max(newer.hop, carried - newer.base)
