"""A question's way through recall (docs/architecture.md, "How a question travels"), one named
step after another in `Search.ask`:

1. Understand the question (question.py): its time words become a window (core.when), what is
   left is its topic; a window around an event ("the week Mãe moved in") is placed on the best
   match of the event's words. The topic's vector starts on a thread of its own while one read
   transaction takes the change stamp and the topic's lexemes, and the in-process index
   (index.py) catches up with the store if anything changed.
2. A question that only names a person ("what do you know about Ana?") is answered by `about`
   (about.py) -- an early answer, returned as it is. A question for a person's detail ("what's
   Ana's number") is answered with their card first (details.py).
3. Gather the candidates and score them (candidates.py): BM25 and the cosine of every neuron,
   fused; the best LEXICAL_K + VECTOR_K (+ the window's neurons) are the candidates.
4. Expand one hop: open relates_to/concerns/same_person edges from the HOP_SEEDS best, the
   neurons noted in the same sitting, the supersedes edges around the pool; a person named
   beside a topic ("Mãe's heart") lifts what is linked to them; a code of the question
   ("2WPK71") lifts the neurons that hold it. Additive: if it fails, the base ranking is
   returned and a warning logged.
5. Rank (ranking.py): one score of named parts, the superseded rule, the window first when the
   question is mostly a time. A question asking for several things ("what activities ...")
   has the ranks below its first few ordered again by the rare words its best answers share
   (spread.py).
6. Answer (answer.py): one more round trip reads the rows of the answer; why each result is
   there, and the relevance bar (`Result.loose`).
"""

from __future__ import annotations

import logging
import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from functools import partial

import numpy as np

from core.capture.names import NameIndex
from core.recall import ranking
from core.recall.about import about_intent, defer_outdated, only_names, outdated
from core.recall.answer import answer, more_like, one_signal
from core.recall.candidates import Ahead, CandidateRows, Signals
from core.recall.details import asked_field, cards_first, detail_asked
from core.recall.index import RecallIndex
from core.recall.question import (
    Asking,
    EmbedderSource,
    Question,
    Understood,
    people_beside_a_topic,
    place_window,
    understand,
)
from core.recall.result import Result
from core.recall.spread import follow_shared
from core.recall.stopwords import language_of
from core.store.reader import Reader
from core.vocabulary import Fusion, Mode

log = logging.getLogger(__name__)

_WORD = re.compile(r"[^\W\d_]+")


@dataclass
class Scored:
    """A question's candidates as a table, with what answering it needs beside: the weights of
    its model, that model, and each row's BM25."""

    table: ranking.Candidates
    weights: ranking.Weights
    model: str | None
    bm25: np.ndarray


@dataclass
class ForFitting:
    """What `ask` would rank (`table`, and the `model` of the question's vector); or, for a
    question no weight plays a part in, its `answer` as it is."""

    table: ranking.Candidates | None = None
    model: str | None = None
    answer: list[Result] | None = None


class Search:
    """One identity's questions: the store's reader, its recall index and the sentence model."""

    def __init__(self, reader: Reader, index: RecallIndex, embedder: EmbedderSource):
        self.reader, self.index, self.embedder = reader, index, embedder

    def ask(self, question: str, how: Asking | None = None) -> list[Result]:
        """What the memory knows about `question`, best first, asked `how` (`Asking.of()`: every
        signal, ten answers, now)."""
        return self._ask(question, how if how is not None else Asking.of())

    def everything_about(self, topic: str, limit: int = 50, now: datetime | None = None) -> list[Result]:
        """Everything written about a thing or linked to what is ("the kitchen renovation"): the
        answer to the thing as a question, without what only loosely matches it."""
        how = Asking.of(limit, now=now, people=False)
        return [r for r in self._ask(topic, how) if not r.loose or r.why.startswith("linked from")]

    def _ask(self, question: str, how: Asking) -> list[Result]:
        q = understand(question, how, self.reader, self.index, self.embedder)
        started = self._start_embedding(q)
        try:
            # one read session up to the scoring, each statement in one round trip (no
            # transaction: the change stamp is read before the rows it vouches for); the
            # answer's rows come after
            with self.reader.session(alone=True):
                self._read(q)
                names, orgs = self._names()
                early = self._person_answer(q, names, orgs)
                if early is not None:
                    return early
                people = self._people_beside_a_topic(q, names)
                cards = self._details_asked(q, names)
            ahead = self._ahead(q, people)
            q.topic.embed()
            if self._cannot_answer(q):
                return []
            scored = self._candidates(q, people, ahead)
        finally:  # a vector thrown away still finishes before the answer returns
            started.settle()
        results = self._answer(q, scored)
        return (
            cards_first(self.reader, results, cards, q.how.limit, asked_field(q.text)) if cards else results
        )

    def for_fitting(self, question: str, now: datetime) -> ForFitting:
        """What `ask` would rank for `question` (default mode), with the links of more seeds than it
        follows (ranking.FIT_SEEDS: those any weights could pick), and the model of the question's
        vector; or the answer itself when no weight plays a part in it (a question only naming
        people). The fitting tool ranks these under other weights with `ranking.rank`, as `ask`
        does."""
        how = Asking.of(10, now=now, collect=ranking.FIT_SEEDS)
        q = understand(question, how, self.reader, self.index, self.embedder)
        started = self._start_embedding(q)
        try:
            with self.reader.session():
                self._read(q)
                names, orgs = self._names()
                early = self._person_answer(q, names, orgs)
                if early is not None:
                    return ForFitting(answer=early)
                people = self._people_beside_a_topic(q, names)
            q.topic.embed()
            if self._cannot_answer(q):
                return ForFitting(answer=[])
            scored = self._candidates(q, people)
        finally:
            started.settle()
        return ForFitting(table=scored.table, model=scored.model)

    # -- the steps ---------------------------------------------------------------------------------

    def _start_embedding(self, q: Understood) -> Question:
        """The topic's vector, started on a thread of its own (a question about a person, as of
        the index's last look, needs none); the question to settle before the answer returns."""
        if q.how.full:
            with self.index.reading():
                if q.window is not None or not only_names(q.text, self.index.names()):
                    q.topic.start_embedding()
        return q.topic

    def _read(self, q: Understood) -> None:
        """The topic's lexemes and the index caught up; a window around an event placed on it (the
        question is all topic when no event matches the event's words)."""
        q.topic.read()
        if q.window is not None and q.window.anchor:
            q.window = place_window(q.topic, q.window, q.window.anchor)
            if q.window is None:
                q.topic = Question(self.reader, self.index, self.embedder, q.how.mode, q.text)
                q.topic.read()

    def _names(self) -> tuple[NameIndex, dict[str, int]]:
        """The contacts' names and how many contacts give each organisation, as the index has them."""
        with self.index.reading():
            return self.index.names(), self.index.org_counts()

    def _person_answer(self, q: Understood, names: NameIndex, orgs: dict[str, int]) -> list[Result] | None:
        """A question that only names people ("what do you know about Ana?"): their answer from
        `about`, then what is most like it (loosely related); None for any other question."""
        if not (q.how.full and q.window is None and q.how.people):
            return None
        head = about_intent(self.reader, self.index, q.text, names, limit=q.how.limit, orgs=orgs) or []
        if not head:
            return None
        if len(head) >= q.how.limit:
            return head
        return defer_outdated(
            self.index,
            head + more_like(self.reader, self.index, self.embedder, head, q.how.limit - len(head)),
        )

    def _people_beside_a_topic(self, q: Understood, names: NameIndex) -> list[uuid.UUID]:
        """The people a question names beside a topic ("Mãe's heart"): what is linked to them is lifted."""
        if not (q.how.full and q.topic.topical):
            return []
        return people_beside_a_topic(names, q.text, q.topic.topic)

    def _details_asked(self, q: Understood, names: NameIndex) -> list[uuid.UUID]:
        """The people whose detail the question asks for ("what's Ana's number"): their cards
        come first -- unless a newer neuron supersedes a card (a new number written in a note and
        not taken into it): the current value is the note's, and the card gives way to it."""
        if not (q.how.full and q.how.people and q.window is None):
            return []
        people = detail_asked(q.text, names)
        if not people:
            return []
        with self.index.reading():
            replaced = outdated(self.index, people)
        return [p for p in people if p not in replaced]

    def _ahead(self, q: Understood, people: list[uuid.UUID]) -> Ahead | None:
        """While the topic's vector is computed: what the candidates take that it does not
        decide (`candidates.Ahead`); None when no vector is on its way."""
        if not q.topic.embedding:
            return None
        with self.index.reading():
            return Ahead.of(self.index, q.topic.terms, q.window, q.how.now, people if q.how.expand else None)

    def _cannot_answer(self, q: Understood) -> bool:
        """The vector alone, without a model to embed the topic with."""
        return q.how.mode is Mode.VECTOR and q.topic.topical and q.topic.qvec is None

    def _candidates(self, q: Understood, people: list[uuid.UUID], ahead: Ahead | None = None) -> Scored:
        """Score every neuron, gather the candidates, expand one hop: the table `ranking.rank`
        orders (as of one look at the index; what was made `ahead` of the vector is used when no
        row changed since)."""
        how, t, idx = q.how, q.topic, self.index
        weights = ranking.weights_for(t.model)
        with idx.reading():
            if ahead is not None and not ahead.fits(idx):
                ahead = None
            bm, idf_sum = (
                (ahead.bm, ahead.idf_sum)
                if ahead is not None
                else idx.bm25(t.terms, ranking.BM25_K1, ranking.BM25_B)
            )
            signals, raw_of = Signals.of(bm, idf_sum, None), None
            if how.mode is not Mode.KEYWORD and t.qvec is not None and t.model is not None:
                signals, scanned = self._meaning(bm, idf_sum, t, how.mode)
                # the full scan's cosines are the exact ones: read, not computed again
                raw_of = (
                    scanned.__getitem__
                    if scanned is not None
                    else partial(idx.cosines_of, t.qvec, model=t.model)
                )
            rows = CandidateRows(idx, signals, q.window, how.now, t.terms, ahead)
            rows.pick(how.mode, how.fusion, weights, t.topical)
            if how.full and raw_of is not None and how.fusion is Fusion.RELATIVE:
                rows.across_languages(raw_of, language_of(_WORD.findall(q.text)), t.calibration)
            if how.full:
                if how.expand:
                    self._expand(rows, q, weights, people)
                rows.mark_exact(t.terms)
            total = max(int(idx.non_contacts().sum()), 1)
            table = rows.table(t.topical, len(t.words), total)
        return Scored(table, weights, t.model, bm[rows.slots] if rows.slots else bm[:0])

    def _meaning(
        self, bm: np.ndarray, idf_sum: float, t: Question, mode: Mode
    ) -> tuple[Signals, np.ndarray | None]:
        """The signals with the question's meaning: the cosine of every slot, on the one scale
        the fusion reads (raw for the vector alone), exact where the approximate step found the
        nearest (`Signals.settle` makes any other exact before it is ranked); and the raw cosine
        of every slot when the exact scan made them all (None after the approximate step)."""
        idx, qvec, model = self.index, t.qvec, t.model
        assert qvec is not None and model is not None

        def scale(c: np.ndarray) -> np.ndarray:
            out = c if mode is Mode.VECTOR else ranking.calibrated(c, t.calibration)
            assert out is not None
            return out

        cos, exact = idx.nearest_cosine(qvec, model)
        signals = Signals.of(
            bm, idf_sum, scale(cos), exact, lambda slots: scale(idx.cosines_of(qvec, slots, model))
        )
        return signals, cos if exact is None else None

    def _expand(
        self, rows: CandidateRows, q: Understood, weights: ranking.Weights, people: list[uuid.UUID]
    ) -> None:
        """One hop along the links, the sittings, the supersedes edges: additive -- if it fails,
        the base ranking stands, and says so."""
        try:
            if q.topic.topical:
                rows.follow(weights, q.how.collect, people)
            rows.supersedes()
        except Exception:
            log.warning("one-hop expansion failed; returning the base results", exc_info=True)
            rows.drop_expansion()

    def _answer(self, q: Understood, scored: Scored) -> list[Result]:
        """Rank the table and answer: the rows read, why each is there, the relevance bar (one
        signal alone: by that signal)."""
        how = q.how
        if not how.full:
            return one_signal(self.reader, scored.table, scored.weights, how.mode, scored.bm25, how.limit)
        ranked = ranking.rank(scored.table, scored.weights)
        with self.index.reading():  # an answer spread over several items: what the best share
            ranked.order = follow_shared(q.text, q.topic.terms, scored.table, ranked, self.index)
        return answer(self.reader, scored.table, ranked, scored.weights, q.window, scored.bm25, how.limit)
