"""Recall: ask a question, get what you know -- keyword + vector search, fusion, one hop along
the links, the superseded rule, time windows -- and `about` a person (docs/architecture.md, "How a
question travels"). `Recall` (recall.py) is the room's door; `Asking` how a question is asked.
"""

from core.recall.about import About
from core.recall.question import Asking
from core.recall.recall import Recall
from core.recall.result import Result

__all__ = ["About", "Asking", "Recall", "Result"]
