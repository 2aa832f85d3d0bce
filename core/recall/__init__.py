"""Recall: ask a question, get what you know -- keyword + vector search, fusion, one hop along
the links, the superseded rule, time windows -- and `about` a person. See DESIGN.md "Retrieval".

`ask(memory, question, limit, mode=..., now=...)` -> list[Result];
`about(memory, name, limit)` -> About; `warm(memory)` builds the index ahead of the first
question. Memory.ask / Memory.about delegate here.
"""

from __future__ import annotations

from core.recall.about import About, about
from core.recall.search import MODES, Result, ask, warm

__all__ = ["MODES", "About", "Result", "about", "ask", "warm"]
