"""Build tests/eval/tatoeba-cross.json from pairs.tsv (see SOURCE.md): one memory of short
everyday sentences in German, Portuguese, Spanish and French, each sentence stored in one
language and asked for in the other one of its pair. Deterministic; run from the repository root:

    python tests/eval/tatoeba/build.py
"""

from __future__ import annotations

import csv
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).parent
# one memory of all 180 notes: a note's rivals are the other notes in the question's own language
SPACES = {
    "tatoeba-de-pt-es-fr": [
        ("deu", "por"),
        ("deu", "spa"),
        ("por", "spa"),
        ("fra", "por"),
        ("fra", "spa"),
        ("deu", "fra"),
    ],
}


def build() -> dict:
    rows: dict[tuple[str, str], list[tuple[str, str]]] = {}
    with (HERE / "pairs.tsv").open(encoding="utf-8", newline="") as f:
        for a, b, left, right in csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            rows.setdefault((a, b), []).append((left, right))
    start = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
    spaces = []
    for name, files in SPACES.items():
        neurons, queries = [], []
        for pair in files:
            for j, (left, right) in enumerate(rows[pair]):
                # alternate which side is kept: each memory holds both languages of every pair file
                note, ask = (left, right) if j % 2 == 0 else (right, left)
                lang_note, lang_ask = pair if j % 2 == 0 else pair[::-1]
                nid = f"{pair[0]}-{pair[1]}-{j:02d}"
                when = start + timedelta(hours=13 * len(neurons))
                neurons.append({"id": nid, "kind": "note", "text": note, "created_at": when.isoformat()})
                queries.append(
                    {
                        "id": f"{name}-{nid}",
                        "text": ask,
                        "category": "cross-language",
                        "gold": [nid],
                        "languages": f"{lang_ask}->{lang_note}",
                    }
                )
        now = start + timedelta(hours=13 * len(neurons) + 24)
        space = {"id": name, "now": now.isoformat(), "neurons": neurons, "edges": [], "queries": queries}
        spaces.append(space)
    return {
        "format": "memory-eval/1",
        "name": "tatoeba-cross",
        "description": (
            "A judge not written here: 180 sentence pairs of the Tatoeba corpus (CC-BY 2.0 FR) as kept in "
            "the Tatoeba Translation Challenge's test sets (Helsinki-NLP/Tatoeba-Challenge, data/test/"
            "{deu-por,deu-spa,por-spa,fra-por,fra-spa,deu-fra}/test.txt). One memory; each sentence is "
            "stored in one language of its pair and asked for by the other "
            "(see tests/eval/tatoeba/SOURCE.md)."
        ),
        "spaces": spaces,
    }


if __name__ == "__main__":
    out = HERE.parent / "tatoeba-cross.json"
    out.write_text(json.dumps(build(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(out)
