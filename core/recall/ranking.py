"""Every threshold and weight of recall's ranking, named, in one place (docs/architecture.md, "How a
question travels").

They were chosen on the development sets (shared/eval) as round values over whole categories; the
held-out sets judge the same numbers. Change one only with the eval tables before and after.
"""

from __future__ import annotations

import numpy as np

# -- candidates ------------------------------------------------------------------------------------
LEXICAL_K = 100  # best BM25 matches taken as candidates
VECTOR_K = 100  # nearest vectors taken as candidates (exact cosine, in process)
WINDOW_CANDIDATES = 1000  # at most this many of a time window's neurons: its best (a cost bound,
# not a weight: no eval memory's window holds more, a year of 100k neurons holds 25,000)
BM25_K1 = 1.2  # BM25 saturation (over term presence: tf = 1)
BM25_B = 0.4  # BM25 length normalisation (short notes: weak)

# -- fusion ----------------------------------------------------------------------------------------
# Relative-score fusion: BM25 scaled by the best BM25 of the question, plus the cosine similarity.
# (Reciprocal rank fusion, k = 60, measured lower on both sets: see the closing note of issue 4.)
# The keyword part is BM25 over the best BM25 of the question ("max"), over the question's total
# idf ("idf": the share of the question's information a neuron matches), or ("blend") over the
# best BM25 but at least KEYWORD_IDF_FLOOR of the total idf: when even the best match holds little
# of what the question says (common words only), the keyword part counts for less.
KEYWORD_NORMALISATION = "blend"
KEYWORD_IDF_FLOOR = 0.7
W_KEYWORD = 0.5
W_VECTOR = 0.5
RRF_K = 60  # kept for `fusion="rrf"`, the design's baseline

# -- expansion -------------------------------------------------------------------------------------
POOL = 40  # the best candidates whose rows are read with the expansion
HOP_SEEDS = 10  # the top results whose edges are followed one hop (both directions)
HOP_WEIGHT = 0.6  # a linked neuron gains this share of its best seed's score
HOP_HUB_DAMPING = 0.5  # ... divided by (the seed's number of links) ** this
SITTING_SECONDS = 600  # neurons captured within 10 minutes of each other are one sitting
SITTING_WEIGHT = 0.4  # a neuron gains this share of the score of its neighbour in the sitting

# -- about a person, through ask ---------------------------------------------------------------
LIKE_WEIGHT = 0.1  # the score of a neuron added for being like what is about them

# -- the superseded rule ---------------------------------------------------------------------------
SUPERSEDED_AFTER = 5  # an outdated neuron never ranks in the first five (it stays findable below)

# -- time windows ----------------------------------------------------------------------------------
WINDOW_BOOST = 0.5  # added to a neuron whose due, written or done date falls in the window
SAID_BOOST = 0.25  # ... to a note that says it is about a time in the window ("last year we")
WINDOW_FIRST_MAX_SHARE = 0.25  # ... only while the window holds at most this share of the memory
# (the boost is WINDOW_BOOST times the share it does not hold)
MOSTLY_TIME_WORDS = 2  # a question with at most this many topic words beside its time words is
# mostly a time: the window's neurons come first, then what is related

# -- a person with a topic ("Mãe's heart", "the car" of Kris) --------------------------------------
PERSON_WEIGHT = 0.25  # added to a neuron linked to a person the question names, beside a topic

# -- exact tokens ----------------------------------------------------------------------------------
EXACT_MIN_LENGTH = 3  # a question's word holding a digit, this long or longer, is a code
EXACT_MAX_DF = 3  # ... when at most this many neurons hold it: those come first
EXACT_BOOST = 1.0

# -- the relevance bar ------------------------------------------------------------------------------
LOOSE_SHARE = 0.5  # below this share of the best score an answer is loosely related
LOOSE_FLOOR = 0.25  # ... and always below this score

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
