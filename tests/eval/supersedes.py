"""Count the `supersedes` links capture derives by itself, right and wrong, on the eval sets.

    python -m tests.eval.supersedes [DATASET ...] [--json]

Every space is ingested as `neurons eval --edges derived` does (capture derives its links; none of
the set's are given), without vectors (no link capture derives reads them). A derived link from
a newer neuron to an older one is *right* when the set says so: a `supersedes` edge it gives
between the two, or a superseded question whose gold holds the newer and whose `avoid` the
older (or both older values of one such newer: a price lowered, then sold). Every other derived
`supersedes` link is *wrong* (so a right link the set forgot to annotate counts against us: read
the listed ones). *Missed* are the set's pairs no derived link
joins, directly or through others. Counted per dataset and per what derived the link (`derived_by`).

Without DATASET: ../shared/eval/{dev-personal,locomo-dev}.json and tests/eval/*.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

from core.evaluate import ingest_space, load_dataset
from core.memory import Memory
from core.model import Identity
from core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def default_sets() -> list[Path]:
    shared = ROOT.parent / "shared" / "eval"
    paths = [shared / "dev-personal.json", shared / "locomo-dev.json"]
    return [p for p in paths if p.exists()] + sorted((ROOT / "tests" / "eval").glob("*.json"))


def truth(space: dict[str, Any]) -> set[tuple[str, str]]:
    """(newer, older) pairs the set says are a change: its supersedes edges, and the gold and
    avoid of its superseded questions."""
    pairs = {(e["from"], e["to"]) for e in space.get("edges") or [] if e["type"] == "supersedes"}
    for q in space["queries"]:
        if q.get("category") == "superseded":
            pairs |= {(g, a) for g in q.get("gold") or [] for a in q.get("avoid") or []}
    return pairs


def _reached(joined: dict[str, set[str]], start: str) -> set[str]:
    """What the derived links lead to from `start`, one after another (a price lowered, then sold)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for b in joined.get(todo.pop(), ()):
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return seen


def count(memory: Memory, data: dict[str, Any]) -> dict[str, Any]:
    right: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    listed: list[dict[str, str]] = []
    missed: list[tuple[str, str, str]] = []
    annotated = 0
    for space in data["spaces"]:
        view = memory.as_identity(Identity(device_id=uuid.uuid4()))
        ids = ingest_space(view, space, "derived")
        back = {v: k for k, v in ids.items()}
        with memory.store.reading(every_owner=True) as cur:
            cur.execute(
                "SELECT from_node_id AS a, to_node_id AS b, derived_by AS how FROM neurons_edges"
                " WHERE relation_type = 'supersedes' AND derived_by IS NOT NULL"
                "   AND from_node_id = ANY(%s)",
                (list(back),),
            )
            derived = [(back.get(r["a"]), back.get(r["b"]), r["how"]) for r in cur.fetchall()]
        pairs = truth(space)
        annotated += len(pairs)
        groups = [{x, *(b for a, b in pairs if a == x)} for x in {a for a, _ in pairs}]
        joined: dict[str, set[str]] = {}
        texts = {n["id"]: n["text"] for n in space["neurons"]}
        for a, b, how in derived:
            if a is None or b is None:  # an archived note capture made itself (a card's lost value)
                continue
            joined.setdefault(a, set()).add(b)
            kind = how.rsplit(":", 1)[0] if how.startswith("capture:changed") else how
            if (a, b) in pairs or any(a in g and b in g and (b, a) not in pairs for g in groups):
                right[kind] += 1
            else:
                wrong[kind] += 1
                listed.append(
                    {"space": space["id"], "newer": texts[a][:90], "older": texts[b][:90], "how": how}
                )
        missed += [(space["id"], a, b) for a, b in sorted(pairs) if b not in _reached(joined, a)]
    return {
        "dataset": data.get("name") or "",
        "annotated": annotated,
        "right": dict(right),
        "wrong": dict(wrong),
        "missed": len(missed),
        "wrong_links": listed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    reports = []
    with tempfile.TemporaryDirectory(prefix="neurons-supersedes-") as tmp:
        settings = Settings.from_env(data_dir=Path(tmp) / "data")
        settings.embed_in_background = False
        with Memory.open(settings) as memory:
            for path in args.datasets or default_sets():
                reports.append(count(memory, load_dataset(path)))
    if args.json:
        print(json.dumps(reports, indent=1, ensure_ascii=False))
        return 0
    print(f"{'dataset':<22} {'annotated':>9} {'right':>6} {'wrong':>6} {'missed':>6}  by what")
    for r in reports:
        hows = sorted(set(r["right"]) | set(r["wrong"]))
        by = ", ".join(f"{h} {r['right'].get(h, 0)}/{r['wrong'].get(h, 0)}" for h in hows)
        print(
            f"{r['dataset']:<22} {r['annotated']:>9} {sum(r['right'].values()):>6} "
            f"{sum(r['wrong'].values()):>6} {r['missed']:>6}  {by}"
        )
        for w in r["wrong_links"]:
            print(f"    wrong ({w['how']}): {w['newer']!r} -> {w['older']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
