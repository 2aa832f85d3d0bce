"""What a question's answer is made of (Result) and which of its words name a topic."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from core.model import Neuron
from core.recall.stopwords import stopwords_for
from core.when import fold

# Words that ask about a time rather than name a topic ("what's due", "anything booked", "what
# happened"): beside a time, a question of these is a question of dates alone.
TIME_ASKING = (
    "due happening happened happen coming booked planned scheduled "
    "pasó pasa aconteceu passou passiert ansteht erledigen prévu passé"
)
# Words of a question that ask for something rather than name it: left out of the keyword part.
QUESTION_FILLER = (
    "anything everything something thing things stuff know knew tell remind reminder reminders "
    "need needs want wanted going got get info information please show list find look "
    "whats what's hey thanks " + TIME_ASKING
)
_FILLER = frozenset(QUESTION_FILLER.split())
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")

# A question asking for everything about a thing ("catch me up on the kitchen renovation", "the
# school trip - all my notes", "my knee - full history"): the phrase that asks is no part of the
# topic: the answer is what is written about it and what is linked to that.
_PREP = r"(?:\s+(?:on|about|with|for|of|re|regarding|to\s+do\s+with))?"
ASKING_FOR_EVERYTHING = re.compile(
    r"\b(?:"
    rf"catch\s+me\s+up{_PREP}|bring\s+me\s+up\s+to\s+speed{_PREP}|fill\s+me\s+in{_PREP}"
    rf"|(?:get|keep)\s+me\s+up\s+to\s+date{_PREP}|up\s+to\s+date\s+on"
    rf"|give\s+me\s+the\s+(?:whole\s+)?lot\b|the\s+whole\s+lot\b|all\s+of\s+it\b"
    rf"|every(?:thing|\s+(?:single\s+)?note)\s+(?:about|on|re|regarding|to\s+do\s+with|i\s+(?:have|know|wrote)\s+(?:about|on))"
    rf"|every\s+(?:single\s+)?note\b"
    rf"|all\s+(?:of\s+)?(?:my|the)\s+notes{_PREP}|all\s+(?:of\s+)?(?:my|the)\s+stuff\s+(?:on|about|for)"
    rf"|(?:the\s+)?(?:full|whole|complete|entire)\s+(?:history|story|picture|timeline|rundown){_PREP}"
    rf"|(?:the\s+)?history\s+of|(?:as\s+an?\s+|in\s+an?\s+)?timeline{_PREP}"
    rf"|(?:from\s+)?start\s+to\s+finish|from\s+the\s+(?:start|beginning)|the\s+story\s+so\s+far"
    rf"|where\s+(?:are\s+we|am\s+i|are\s+things|do\s+we\s+stand)(?:\s+at)?\s+with"
    rf"|what(?:'s|’s|\s+is)\s+the\s+(?:status|story|latest){_PREP}|recap{_PREP}"
    r"|tudo\s+(?:sobre|acerca\s+d[eoa])|todas\s+as\s+notas(?:\s+sobre)?|o\s+hist[oó]rico\s+d[eoa]"
    r"|todo\s+(?:sobre|acerca\s+de)|todas\s+(?:mis\s+)?(?:las\s+)?notas(?:\s+sobre)?|el\s+historial\s+de"
    r"|alles\s+(?:über|zu|zum|zur)|alle\s+notizen(?:\s+(?:zu|über))?|der\s+verlauf\s+(?:von|der|des)"
    r"|tout\s+(?:sur|à\s+propos\s+d[eu])|toutes\s+(?:mes\s+)?(?:les\s+)?notes(?:\s+sur)?|l['’]historique\s+d[eu]s?"
    r")(?![\w'’])"
    r"|(?:^|[-–—:,]\s*)(?:everything|all\s+of\s+it|where\s+are\s+we(?:\s+at)?)\s*[?.!]*$",
    re.I,
)


def asks_for_everything(text: str) -> tuple[bool, str]:
    """(whether `text` asks for everything about its topic, `text` without the asking phrase)."""
    rest, count = ASKING_FOR_EVERYTHING.subn(" ", text)
    return bool(count), rest


def content_words(text: str) -> list[str]:
    """The words of `text` that name a topic: not stop words of English or of the question's
    own language, not the filler of asking."""
    words = [m.group(0).lower() for m in _WORD.finditer(text)]
    stop = stopwords_for(words)
    return [w for w in words if w not in _FILLER and fold(w) not in stop]


@dataclass
class Result:
    neuron: Neuron
    score: float
    why: str
    parts: dict[str, float] = field(default_factory=dict)
    group: str | None = None  # "window": inside the question's time window (shown first)
    window_label: str | None = None  # the window's words, for the heading of that group
    loose: bool = False  # below the relevance bar: folded under "N loosely related"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.neuron.id),
            "kind": self.neuron.kind.value,
            "title": self.neuron.title,
            "score": round(float(self.score), 4),
            "why": self.why,
            "group": self.group,
            "window_label": self.window_label,
            "loose": self.loose,
            "neuron": self.neuron.to_json(),
        }
