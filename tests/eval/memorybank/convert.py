"""Convert MemoryBank-SiliconFriend's English evaluation data into a memory-eval/1 set.

    python -m tests.eval.memorybank.convert MEMORY_BANK_EN_JSON PROBING_QUESTIONS_EN_JSONL [OUT]

The source (SOURCES.tsv beside this file): fifteen invented users, each chatting with an AI
companion once a day from 2023-04-27 to 2023-05-06, and five to seven probing questions a user
asks afterwards about what was said. One space a user; one note an exchange (the user's line and
the companion's answer, "Emily: ...\nAI companion: ..."), dated that evening, a minute apart;
the user as a contact. The questions are asked on 2023-05-07.

The source gives no answer items: GOLD below was chosen by hand, reading each user's whole
history -- the exchanges whose text holds the answer (for "what did we talk about on April 29th"
every exchange of that day with a topic in it; for a question naming a thing whose answer is in
the next exchange, both). A question whose answer is nowhere in the history (John Zhang has no
exchange on May 5th) keeps an empty gold and is not scored. Category: `spread` when the answer
needs two or more exchanges, `dated` when the question names its day, `single` otherwise.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

NOW = "2023-05-07T09:00:00+00:00"
DATED = re.compile(r"\b(April|May) \d{1,2}(st|nd|rd|th)?\b")

# user -> the gold exchanges ("MM-DD:i", i counted from 0 within the day), one list a question,
# in the order of the probing questions
GOLD: dict[str, list[list[str]]] = {
    "Emily": [
        ["04-30:3"],
        ["05-01:0"],
        ["05-03:2"],
        ["04-28:1"],
        ["04-30:1", "04-30:2"],
        ["05-02:1"],
        ["05-04:1", "05-04:2"],
    ],
    "Frank": [
        ["04-27:2"],
        ["04-28:8"],
        ["04-29:1"],
        ["05-05:1"],
        ["05-06:1"],
        ["04-30:1"],
        ["04-28:2"],
    ],
    "Lucy": [
        ["04-27:3"],
        ["04-29:1", "04-29:2"],
        ["04-28:1"],
        ["04-30:1"],
        ["04-30:2", "05-03:0"],
        ["05-02:1"],
        ["04-28:1"],
    ],
    "Sunny": [
        ["04-28:1"],
        ["04-27:3", "04-27:4"],
        ["05-03:1"],
        ["05-01:1"],
        ["04-27:2", "04-28:1"],
        ["04-30:1"],
        ["05-04:0"],
    ],
    "Jason": [
        ["04-28:2"],
        ["04-29:3"],
        ["04-28:2"],
        ["04-27:4"],
        ["05-01:1"],
        ["05-02:3"],
        ["05-04:1"],
    ],
    "Linda": [
        ["05-06:1"],
        ["05-06:1", "05-06:3"],
        ["04-27:1", "04-27:2", "04-27:3"],
        ["04-28:2", "04-28:3"],
        ["05-02:1"],
        ["05-01:1"],
        ["05-04:1"],
    ],
    "John Zhang": [
        ["04-28:1"],
        ["04-29:0", "04-29:1", "04-29:2"],
        ["04-28:2"],
        ["04-30:0"],
        [],
        ["05-04:0"],
        ["05-06:0"],
    ],
    "Ivy": [
        ["04-27:1", "04-27:2", "04-27:3", "04-27:4"],
        ["05-06:1", "05-06:2"],
        ["05-02:0"],
        ["04-28:1", "04-28:2"],
        ["04-27:2", "04-27:3"],
        ["05-05:0"],
        ["05-02:0"],
    ],
    "Henry": [
        ["04-27:1"],
        ["04-30:0"],
        ["04-30:1"],
        ["05-04:1"],
        ["05-06:0", "05-06:1"],
        ["04-28:2"],
        ["05-02:0"],
    ],
    "Gary": [
        ["04-28:2"],
        ["05-04:0"],
        ["05-05:1"],
        ["05-04:1"],
        ["05-02:0", "05-02:1", "05-02:2"],
        ["04-30:0"],
        ["05-03:0"],
    ],
    "Jack": [
        ["04-27:2"],
        ["04-27:2"],
        ["05-05:2"],
        ["04-30:1"],
        ["05-03:1"],
        ["05-02:1"],
        ["05-04:0"],
    ],
    "Roland": [
        ["04-30:1", "04-30:5"],
        ["04-30:2", "04-30:6"],
        ["04-30:1", "04-30:2", "04-30:5", "04-30:6"],
        ["05-02:1"],
        ["04-28:1", "04-28:2"],
        ["04-27:2"],
    ],
    "Susan": [
        ["04-27:1", "04-27:2"],
        ["04-27:2"],
        ["04-30:0", "04-30:1"],
        ["04-29:0", "04-29:1"],
        ["05-04:1"],
    ],
    "Luna": [
        ["04-28:1", "04-28:2"],
        ["04-30:1", "04-30:2"],
        ["05-04:0"],
        ["05-03:2"],
        ["04-28:4"],
    ],
    "Leo": [
        ["04-27:2"],
        ["05-02:1"],
        ["05-02:1", "05-02:2"],
        ["05-03:1"],
        ["05-03:1"],
        ["05-04:1"],
        ["05-06:0", "05-06:1"],
    ],
}


def _slug(name: str) -> str:
    return re.sub(r"[^a-z]+", "-", name.lower()).strip("-")


def convert(bank: dict, questions: dict[str, list[str]]) -> dict:
    spaces = []
    for raw_name, user in bank.items():
        name = raw_name.strip()
        slug = _slug(name)
        neurons: list[dict] = []
        first = min(user["history"])
        neurons.append(
            {
                "id": f"{slug}:contact",
                "kind": "contact",
                "text": name,
                "created_at": f"{first}T19:59:00+00:00",
                "attrs": {"name": name},
            }
        )
        for day, turns in sorted(user["history"].items()):
            for i, turn in enumerate(turns):
                neurons.append(
                    {
                        "id": f"{slug}:{day[5:]}:{i}",
                        "kind": "note",
                        "text": f"{name}: {turn['query'].strip()}\nAI companion: {turn['response'].strip()}",
                        "created_at": f"{day}T20:{i:02d}:00+00:00",
                    }
                )
        ids = {n["id"] for n in neurons}
        queries = []
        asked = questions[name]
        gold = GOLD[name]
        if len(asked) != len(gold):
            raise SystemExit(f"{name}: {len(asked)} questions, {len(gold)} gold lists")
        for qi, (text, items) in enumerate(zip(asked, gold, strict=True)):
            text = text.strip().strip('"').strip()
            full = [f"{slug}:{x}" for x in items]
            missing = [x for x in full if x not in ids]
            if missing:
                raise SystemExit(f"{name} q{qi}: no exchange {missing}")
            category = "spread" if len(full) > 1 else "dated" if DATED.search(text) else "single"
            queries.append({"id": f"{slug}:q{qi}", "text": text, "category": category, "gold": full})
        spaces.append({"id": slug, "now": NOW, "neurons": neurons, "edges": [], "queries": queries})
    return {"format": "memory-eval/1", "name": "memorybank-en", "spaces": spaces}


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    bank = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    questions: dict[str, list[str]] = {}
    for line in Path(argv[1]).read_text(encoding="utf-8").splitlines():
        if line.strip():
            for name, asked in json.loads(line).items():
                questions[name.strip()] = asked
    out = json.dumps(convert(bank, questions), ensure_ascii=False, indent=1) + "\n"
    if len(argv) == 3:
        Path(argv[2]).write_text(out, encoding="utf-8")
    else:
        sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
