"""Recall's ranking: one scoring function over named features, its weights fitted on data.

What a question's candidates are, and how they are found, is candidates.py's; how they are ordered is
here, in `rank`, the one function both the app (through `ask`) and the fitting tool
(`python -m tests.eval.fit`) call. Each candidate's score is a sum of named parts:

    base    = keyword_share * keyword + (1 - keyword_share) * meaning
    score   = base + hop + sitting * (sitting neighbour's base) + person parts + window parts
              + exact + kind priors + recency

where `hop` is what a link lends: a share (`link`, `link_to_contact`, `link_from_contact`: by who
is at either end) of the linked seed's base, over the seed's links ** `hub_damping`. The weights
(`Weights`) are fitted per sentence model (a cosine means something else for each) and kept in
`fitted.py`, written by the fitting tool, cross-validated across people (tests/eval/fit.py).
The rules that are not weights stay rules: the superseded rule, a time question's window first and
in date order, the candidate counts.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields

import numpy as np

# -- candidates ------------------------------------------------------------------------------------
LEXICAL_K = 100  # best BM25 matches taken as candidates
VECTOR_K = 100  # nearest vectors taken as candidates (exact cosine, in process)
WINDOW_CANDIDATES = 1000  # at most this many of a time window's neurons: its best (a cost bound,
# not a weight: no eval memory's window holds more, a year of 100k neurons holds 25,000)
BM25_K1 = 1.2  # BM25 saturation (over term presence: tf = 1)
BM25_B = 0.4  # BM25 length normalisation (short notes: weak)

# The keyword part is BM25 over the best BM25 of the question ("max"), over the question's total
# idf ("idf": the share of the question's information a neuron matches), or ("blend") over the
# best BM25 but at least KEYWORD_IDF_FLOOR of the total idf: when even the best match holds little
# of what the question says (common words only), the keyword part counts for less.
KEYWORD_NORMALISATION = "blend"
KEYWORD_IDF_FLOOR = 0.7
RRF_K = 60  # kept for `fusion="rrf"`, the design's baseline (measured lower than the weighted fusion)

# -- expansion -------------------------------------------------------------------------------------
HOP_SEEDS = 10  # the best candidates whose links are followed one hop (both directions)
FIT_SEEDS = 30  # ... collected for fitting: the seeds any weights could choose are among these
SITTING_SECONDS = 600  # neurons captured within 10 minutes of each other are one sitting

# -- across languages --------------------------------------------------------------------------
# The model finds a note in the question's own language more alike than one in another, whatever
# either says: a question's candidates in each language are moved by how far the question leans
# to that language's notes -- its mean cosine to every note of the memory written in it (up to
# LANGUAGE_SAMPLE of them, every k-th slot), not to the candidates alone, which are also there for
# what they say -- set level with its own language's (`CandidateRows.across_languages`), so a
# note in another language competes on what it says. A language of few candidates moves less:
# by n / (n + LANGUAGE_SHRINK).
LANGUAGE_SHRINK = 3
LANGUAGE_SAMPLE = 2000

# -- about a person, through ask ---------------------------------------------------------------
LIKE_WEIGHT = 0.1  # the score of a neuron added for being like what is about them

# -- the superseded rule ---------------------------------------------------------------------------
SUPERSEDED_AFTER = 5  # an outdated neuron never ranks in the first five (it stays findable below)

# -- time windows ----------------------------------------------------------------------------------
WINDOW_FIRST_MAX_SHARE = 0.25  # the window comes first only while it holds at most this share of
# the memory (its boost is `Weights.window` times the share it does not hold)
MOSTLY_TIME_WORDS = 2  # a question with at most this many topic words beside its time words is
# mostly a time: the window's neurons come first, then what is related
# A mostly-time question's window: what answers it (within LOOSE_SHARE of the best there) in date
# order, then the rest of the window by score. (All of the window in date order measured worse:
# own-personal temporal R@5 0.843 -> 0.694; by score alone, no better than this.)
PLACE_KEYWORD_SHARE = 0.5  # placing a window on an event ("the week X"): its words' fused score

# -- exact tokens ----------------------------------------------------------------------------------
EXACT_MIN_LENGTH = 3  # a question's word holding a digit, this long or longer, is a code
EXACT_MAX_DF = 3  # ... when at most this many neurons hold it: those come first

# -- the relevance bar ------------------------------------------------------------------------------
LOOSE_SHARE = 0.5  # below this share of the best score an answer is loosely related
LOOSE_FLOOR = 0.25  # ... and always below this score (a base is at most 1)

# -- results ---------------------------------------------------------------------------------------
WHY_VECTOR_MARGIN = 0.0  # "matched the meaning" when the vector part beats the keyword part by this

# -- the model's cosine scale ------------------------------------------------------------------------
# Every constant above reads a cosine on one scale: 0 unrelated, 1 the same meaning (MiniLM's raw
# cosine, clipped at 0, is that scale). Another model's cosines live in another band (e5: ~0.78 for
# an unrelated note, 0.83-0.92 for an answer); its manifest says the band (core.embed.Calibration) and
# the fusion reads every cosine through it, here, and nowhere else.


def calibrated(cos: np.ndarray | None, calibration) -> np.ndarray | None:
    """`cos` (NaN where a neuron has no vector of the question's model) on recall's scale:
    clip((cos - floor) / span, 0, 1), NaN kept. No calibration: clipped at 0 and 1."""
    if cos is None:
        return None
    floor, span = (calibration.floor, calibration.span) if calibration is not None else (0.0, 1.0)
    return np.clip((cos - floor) / span, 0.0, 1.0)


# -- recency ---------------------------------------------------------------------------------------
FRESH_DAYS = 180.0  # a neuron's freshness: exp(-age / FRESH_DAYS), age as of the question's now


@dataclass(frozen=True)
class Weights:
    """The fitted weights of `rank`, each a named part of a candidate's score."""

    keyword_share: float = 0.5  # of the base: the keyword part's share (the cosine has the rest)
    weak_keyword: float = 0.0  # a keyword hit matching less than this share of the question's idf
    # counts for less (`weighed_keyword`)
    link: float = 0.6  # a neuron linked to a seed gains this share of the seed's base ...
    link_top: float = 0.6  # ... linked to the best match (the thing asked about) ...
    link_to_contact: float = 0.6  # ... a contact linked from a seed
    link_from_contact: float = 0.6  # ... a neuron linked from a contact seed (their neighbourhood)
    hub_damping: float = 0.5  # ... over (the seed's links) ** this
    sitting: float = 0.4  # a neuron gains this share of its neighbour's base in the sitting
    person: float = 0.25  # added to what is linked to a person named beside a topic, not naming them
    person_relevance: float = 0.0  # what is linked to them (naming them or not) gains this share of its base
    window: float = 0.5  # added to what falls in the question's window (times the share it leaves)
    said: float = 0.25  # ... to a note that says it is about a time in the window
    exact: float = 1.0  # added to the neurons holding the question's code
    contact: float = 0.0  # added to a contact card (a card is loosely like many questions)
    reminder: float = 0.0  # added to a reminder
    recency: float = 0.0  # times a neuron's freshness

    def to_json(self) -> dict[str, float]:
        return {k: round(float(v), 4) for k, v in asdict(self).items()}

    @classmethod
    def from_json(cls, data: dict[str, float]) -> Weights:
        known = {f.name for f in fields(cls)}
        return cls(**{k: float(v) for k, v in data.items() if k in known})


DEFAULT = Weights()


def weights_for(model: str | None) -> Weights:
    """The weights fitted for `model` (the name stored beside its vectors); without a fit for it,
    those of the default model; keyword-only (no model) uses the same."""
    from core.recall.fitted import DEFAULT_MODEL, FITTED  # noqa: PLC0415 - generated; read once

    entry = FITTED.get(model or "") or FITTED.get(DEFAULT_MODEL)
    return Weights.from_json(entry) if entry else DEFAULT


# -- a question's candidates ---------------------------------------------------------------------

# who is at the ends of a link, for its weight
LINK_NOTES, LINK_TO_CONTACT, LINK_FROM_CONTACT = 0, 1, 2


@dataclass
class Candidates:
    """One question's candidates as `rank` sees them: one row per neuron, arrays of its signals,
    and the links, sittings and supersedes between rows. Built by candidates.py (and, with more
    seeds' links, by the fitting tool)."""

    ids: Sequence[uuid.UUID]  # a list, or the rows' ids made when read (`index.RowIds`)
    kw: np.ndarray  # keyword part, 0..1
    vec: np.ndarray  # cosine (clipped at 0; 0 without a vector)
    created: np.ndarray  # POSIX seconds
    contact: np.ndarray  # bool
    reminder: np.ndarray  # bool
    seedable: np.ndarray  # bool: a candidate of the question itself (not only reached by a link)
    in_window: np.ndarray  # bool
    says_window: np.ndarray  # bool
    when: np.ndarray  # the moment that puts it in the window (date order); its creation otherwise
    exact: np.ndarray  # bool: holds the most of the question's codes
    person: np.ndarray  # bool: linked to a person named beside a topic, without naming them
    person_linked: np.ndarray  # bool: linked to a person named beside a topic
    degree: np.ndarray  # its open links that expand (a seed's hub size)
    # how strong its keyword match is: its BM25 over the question's total idf (the share of what
    # the question says that it matches, 0..1); None: every match counts as strong
    strength: np.ndarray | None = None
    link_seed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    link_other: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    link_weight: np.ndarray = field(default_factory=lambda: np.zeros(0))
    link_class: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sit_seed: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sit_other: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sup_newer: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    sup_older: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    # the question
    now: float = 0.0
    meaning: bool = True  # the question has a vector (the model answered)
    topical: bool = True
    window: bool = False  # the question has a time window
    first: bool = False  # ... and is mostly a time: the window's neurons come first
    ahead: bool = True  # ... looking ahead (soonest first) rather than back (latest first)
    share: float = 0.0  # the part of the memory the window holds

    def __len__(self) -> int:
        return len(self.ids)


@dataclass
class Ranked:
    """`rank`'s answer: row indices best first, and every row's parts (for `why`)."""

    order: np.ndarray
    score: np.ndarray
    base: np.ndarray
    keyword: np.ndarray  # the keyword part in `base`, before its share (`keyword`)
    hop: np.ndarray
    hop_from: np.ndarray  # row of the seed that lent the hop, -1 for none
    sitting: np.ndarray  # the sitting neighbour's base (before its weight)
    sitting_with: np.ndarray
    person: np.ndarray
    exact: np.ndarray
    replaces: np.ndarray  # row of the neuron it supersedes, -1 for none
    superseded_by: np.ndarray
    first: bool


def keyword(c: Candidates, w: Weights) -> np.ndarray:
    """The candidates' keyword parts under `w` (`keyword_part`)."""
    return keyword_part(c.kw, c.strength, c.meaning, w)


def keyword_part(kw: np.ndarray, strength: np.ndarray | None, meaning: bool, w: Weights) -> np.ndarray:
    """Keyword parts under `w` (`weighed_keyword`; with no model the keyword part is all there is,
    and stays as it is)."""
    if strength is None or not meaning:
        return kw
    return weighed_keyword(kw, strength, w)


def fused(kw_part: np.ndarray, vec: np.ndarray, meaning: bool, w: Weights) -> np.ndarray:
    """The base score: keyword parts (`keyword_part`) and meaning parts by the weights' share;
    without the model the keyword part is all."""
    share = w.keyword_share if meaning else 1.0
    return share * kw_part + (1.0 - share) * vec


def weighed_keyword(kw: np.ndarray, strength: np.ndarray, w: Weights) -> np.ndarray:
    """Keyword parts weighed by how much of the question each hit matches: below `weak_keyword` of
    its idf, by the square of its share of that (one common word of a long question no longer
    outweighs a near meaning; a hit of half that share keeps a quarter). Squared, not pro rata: pro
    rata took a softer step, which the left-out folds did not agree on (0 to 0.2) and which cost
    LoCoMo's multi-hop questions; squared, every fold chose 0.15."""
    if not w.weak_keyword:
        return kw
    return kw * np.minimum(strength / w.weak_keyword, 1.0) ** 2


def rank(c: Candidates, w: Weights) -> Ranked:
    """The candidates in answer order under weights `w`, with the parts of every score."""
    n = len(c)
    kw = keyword(c, w)
    base = fused(kw, c.vec, c.meaning, w)
    # the seeds: the best candidates of the question itself
    seeds = np.zeros(n, dtype=bool)
    best = -1  # the best match: the thing asked about
    if c.topical and n:
        eligible = np.nonzero(c.seedable)[0]
        if eligible.size:
            top = eligible[np.argsort(-base[eligible], kind="stable")[:HOP_SEEDS]]
            seeds[top] = True
            best = int(top[0])
    # one hop along the seeds' links
    hop = np.zeros(n)
    hop_from = np.full(n, -1, dtype=np.int64)
    if c.link_seed.size:
        live = seeds[c.link_seed] & (c.link_other != c.link_seed)
        lent = np.choose(c.link_class, (w.link, w.link_to_contact, w.link_from_contact))
        lent = np.where((c.link_seed == best) & (c.link_class == LINK_NOTES), w.link_top, lent)
        damp = np.maximum(c.degree[c.link_seed], 1.0) ** w.hub_damping
        gain = np.where(live, lent * base[c.link_seed] * c.link_weight / damp, 0.0)
        _best_of(gain, c.link_seed, c.link_other, hop, hop_from)
    sitting = np.zeros(n)
    sitting_with = np.full(n, -1, dtype=np.int64)
    if c.sit_seed.size:
        live = seeds[c.sit_seed] & (c.sit_other != c.sit_seed)
        _best_of(np.where(live, base[c.sit_seed], 0.0), c.sit_seed, c.sit_other, sitting, sitting_with)
    # supersedes: the replacement takes over what the outdated neuron was found for
    replaces = np.full(n, -1, dtype=np.int64)
    superseded_by = np.full(n, -1, dtype=np.int64)
    if c.sup_newer.size:
        replaces[c.sup_newer] = c.sup_older
        superseded_by[c.sup_older] = c.sup_newer
        carried = base[c.sup_older] + w.sitting * sitting[c.sup_older] + hop[c.sup_older]
        lift = np.zeros(n)
        np.maximum.at(lift, c.sup_newer, carried - base[c.sup_newer])
        hop = np.maximum(hop, lift)
    # (what names them has the name's words already: a lift on top would count the name twice
    # and let everything about them crowd out what is linked to the thing asked about; the fit
    # agreed -- 0 for it was as good as today's 0.25 on every set, and better on two)
    person = c.person * w.person + c.person_linked * w.person_relevance * base
    exact = c.exact * w.exact
    score = base + w.sitting * sitting + hop + person + exact
    score = score + w.contact * c.contact + w.reminder * c.reminder
    # the card prior is for a card's own loose likeness to many questions: a card a link the
    # person made brought never sinks below what matches nothing (a hundredth of its lift stays)
    linked_card = c.contact & (hop_from >= 0)
    score = np.where(linked_card, np.maximum(score, 0.01 * hop), score)
    if w.recency:
        age_days = np.maximum(c.now - c.created, 0.0) / 86400.0
        score = score + w.recency * np.exp(-age_days / FRESH_DAYS)
    if c.window and not c.first:
        score = score + w.window * max(1.0 - c.share, 0.0) * c.in_window
    if c.window:
        score = score + w.said * (c.says_window & ~c.in_window)
    old = superseded_by >= 0
    if c.window and not c.topical:
        # a question of dates alone: what is in the window, and only that, in the order of its
        # dates (soonest first ahead, latest first behind); a replaced neuron's date no longer holds
        held = np.nonzero(c.in_window & ~old)[0]
        key = c.when[held] if c.ahead else -c.when[held]
        order = held[np.argsort(key, kind="stable")]
    else:
        order = np.lexsort((-c.created, -score))  # best first, the newer on ties
        if c.first:  # mostly a time: the window's neurons first, then the rest
            inside = c.in_window & ~old
            held = order[inside[order]]
            if held.size:  # what answers it in date order, then what only falls in it
                near = score[held] >= LOOSE_SHARE * score[held].max()
                key = c.when[held] if c.ahead else -c.when[held]
                held = np.concatenate([held[near][np.argsort(key[near], kind="stable")], held[~near]])
            order = np.concatenate([held, order[~inside[order]]])
        order = defer_superseded(order, old)
    return Ranked(
        order,
        score,
        base,
        kw,
        hop,
        hop_from,
        sitting,
        sitting_with,
        person,
        exact,
        replaces,
        superseded_by,
        c.first,
    )


def _best_of(gain: np.ndarray, source: np.ndarray, target: np.ndarray, best: np.ndarray, by: np.ndarray):
    """best[t] = the largest gain over the pairs (source -> t), and by[t] its source (in place)."""
    order = np.lexsort((-gain, target))  # per target, the largest gain first
    t, g, s = target[order], gain[order], source[order]
    head = np.ones(t.size, dtype=bool)
    head[1:] = t[1:] != t[:-1]
    t, g, s = t[head], g[head], s[head]
    take = g > best[t]
    best[t[take]] = g[take]
    by[t[take]] = s[take]


def defer_superseded(order: np.ndarray, old: np.ndarray) -> np.ndarray:
    """The superseded rule: an outdated neuron gives way -- it is never among the first
    SUPERSEDED_AFTER results; below that it keeps its place (still findable, marked as replaced)."""
    if not old[order].any():
        return order
    current = order[~old[order]]
    head = current[:SUPERSEDED_AFTER]
    rest = order[~np.isin(order, head)]
    return np.concatenate([head, rest])
