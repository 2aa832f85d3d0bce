"""Understanding a question: how it is asked (`Asking`), its time window and its topic
(`understand`), the topic as the index scores it (`Question`: its lexemes and its vector, the
vector made on a thread of its own while the store is read), the window placed on the event it
names (`place_window`) and the people named beside a topic (`people_beside_a_topic`)."""

from __future__ import annotations

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
from core.model import InvalidInput
from core.recall import ranking, windows
from core.recall.candidates import normalised_bm25, top_slots
from core.recall.index import RecallIndex
from core.recall.result import QUESTION_FILLER, asks_for_everything, content_words
from core.store.reader import Reader
from core.validate import parse_limit
from core.vocabulary import Fusion, Mode
from core.when import TimeWindow, find_window, local_now

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


# -- how it is asked -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Asking:
    """How a question is asked: `mode` (everything, or one signal alone), `fusion`, how many
    answers (`limit`), the moment its time words are read from (`now`), whether links are
    followed (`expand`), whether a question only naming people is answered by `about`
    (`people`), and how many seeds' links are collected (`collect`: more for fitting)."""

    mode: Mode
    fusion: Fusion
    limit: int
    now: datetime
    expand: bool = True
    people: bool = True
    collect: int = ranking.HOP_SEEDS

    @classmethod
    def of(
        cls,
        limit: int = 10,
        *,
        mode: Mode | str = Mode.DEFAULT,
        now: datetime | None = None,
        fusion: Fusion | str = Fusion.RELATIVE,
        expand: bool = True,
        people: bool = True,
        collect: int = ranking.HOP_SEEDS,
    ) -> Asking:
        mode, fusion, limit = Mode.parse(mode), Fusion.parse(fusion), parse_limit(limit)
        if now is None:
            now = local_now()
        elif now.tzinfo is None:
            raise InvalidInput("now needs a time zone offset")
        return cls(mode, fusion, limit, now, expand, people, collect)

    @property
    def full(self) -> bool:
        """Everything plays a part: windows, people, links (not one signal alone)."""
        return self.mode is Mode.DEFAULT


# -- the topic as the index scores it --------------------------------------------------------------


class Question:
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
            if self.topical:
                seq, self.terms = self.reader.stamp_and_terms(self.topic, QUESTION_FILLER)
            else:
                seq, self.terms = self.reader.change_stamp(), []
            self.idx.refresh(self.reader, seq)

    def start_embedding(self) -> None:
        """Embed the topic on a thread of its own while the store is read: onnxruntime and the
        socket both let go of the GIL, so the two overlap (on two cores)."""
        if self.mode is not Mode.KEYWORD and self.topical and self._pending is None:
            self._pending = _Background(embed_question, self.embedder, self.topic)

    @property
    def embedding(self) -> bool:
        """The topic's vector is on its way (started, not yet taken)."""
        return self._pending is not None

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


# -- the question's window and topic ---------------------------------------------------------------


@dataclass
class Understood:
    """A question understood: as asked, how, its time window (None: none, or none placed) and
    its topic as the index scores it."""

    text: str
    how: Asking
    window: TimeWindow | None
    topic: Question


def understand(
    text: str, how: Asking, reader: Reader, idx: RecallIndex, embedder: EmbedderSource
) -> Understood:
    """The question's time words become a window (core.when); what is left is its topic -- the
    event a window is placed around ("the week X") when nothing else is, without the words that
    ask for everything about it ("catch me up on ...")."""
    window, topic = find_window(text, how.now) if how.full else (None, text)
    if window is not None and window.anchor and window.anchor_kind != "since" and not content_words(topic):
        topic = window.anchor  # "what was going on the week X": X is the topic too (not "since X")
    if how.full:  # "catch me up on the kitchen renovation": the asking is no part of the topic
        _, topic = asks_for_everything(topic)
    return Understood(text, how, window, Question(reader, idx, embedder, how.mode, topic))


def place_window(q: Question, window: TimeWindow, anchor: str) -> TimeWindow | None:
    """The window around the event the question names (`anchor`), placed on the best match of the
    event's words (their fused keyword and vector score); None when nothing matches well enough."""
    event = q if q.topic == anchor else Question(q.reader, q.idx, q.embedder, q.mode, anchor)
    if event is not q:
        event.read()
    event.embed()
    if not event.topical:
        return None
    with q.idx.reading():
        bm, idf_sum = q.idx.bm25(event.terms, ranking.BM25_K1, ranking.BM25_B)
        cos = None
        if event.qvec is not None and event.model is not None:
            cos, exact = q.idx.nearest_cosine(event.qvec, event.model)
            if exact is not None:  # the best keyword matches' meaning exact too
                best = top_slots(bm, ranking.LEXICAL_K, bm > 0)
                best = best[~exact[best]]
                cos[best] = q.idx.cosines_of(event.qvec, best, event.model)
        cos = ranking.calibrated(cos, event.calibration)
        vec = np.nan_to_num(np.clip(cos, 0.0, None), nan=0.0) if cos is not None else 0.0
        share = ranking.PLACE_KEYWORD_SHARE
        fused = share * normalised_bm25(bm, idf_sum) + (1.0 - share) * vec
        return windows.place(window, np.asarray(fused, dtype=np.float64), q.idx)


# -- the people it names ---------------------------------------------------------------------------


def people_beside_a_topic(names, question: str, topic: str) -> list[uuid.UUID]:
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
