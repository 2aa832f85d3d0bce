"""What a question's answer is made of (Result) and which of its words name a topic."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from core.model import Neuron
from core.recall.stopwords import stopwords_for
from core.when import fold

# Words of a question that ask for something rather than name it: left out of the keyword part.
QUESTION_FILLER = (
    "anything everything something thing things stuff know knew tell remind reminder reminders "
    "need needs want wanted going got get info information please show list find look "
    "whats what's hey thanks"
)
_FILLER = frozenset(QUESTION_FILLER.split())
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


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
