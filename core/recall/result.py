"""What a question's answer is made of (Result) and which of its words name a topic."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from core.model import Neuron

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
