"""Every eval set with the quick step of the search by meaning (core/recall/nearest.py) forced on,
against the exact scan, on the same ingested memory (printed, never asserted):

    python -m tests.bench.eval_nearest DATASET.json [...] [--share 25]

The eval sets are far below the step's size, where the app scans exactly: here the step is made
for every space whatever its size, and only 1/share of its vectors (4% by default: less than the
app's 6%, and without its floor of 1,000) are scored exactly by the step itself -- harsher than
the app. The default mode's R@5 / R@10 per category, each way, and the largest difference.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

from core.evaluate import K, aggregate, ingest_space, load_dataset, parse_instant, score_query
from core.memory import Memory
from core.model import Identity
from core.settings import Settings


def asked(spaces, forced: bool) -> dict[str, dict[str, float]]:
    scored = []
    for space, view, back in spaces:
        if forced:
            index = view.recall.index
            view.recall.restore()
            with view.reader.session():
                index.refresh(view.reader, view.reader.change_stamp())
            assert view.prepare_nearest() or index.count() == 0, space["id"]
        else:
            view.recall.index.nearest = None
        now = parse_instant(space["now"], "now")
        for query in space["queries"]:
            if not query.get("gold"):
                continue
            results = view.ask(query["text"], limit=K, now=now)
            ranked = [back.get(r.neuron.id) for r in results]
            scored.append(
                (
                    query.get("category") or "uncategorised",
                    score_query(ranked, query["gold"], query.get("avoid")),
                )
            )
    return aggregate(scored)


def judge(path: Path, share: int) -> float:
    data = load_dataset(path)
    with tempfile.TemporaryDirectory(prefix="neurons-eval-nearest-") as tmp:
        settings = Settings.from_env(data_dir=Path(tmp) / "data")
        settings.embed_in_background = False
        with Memory.open(settings) as memory:
            spaces: list[tuple[dict[str, Any], Memory, dict]] = []
            for space in data["spaces"]:
                view = memory.as_identity(Identity(device_id=uuid.uuid4()))
                ids = ingest_space(view, space, "given")
                spaces.append((space, view, {v: k for k, v in ids.items()}))
            memory.fill_vectors()
            for _, view, _ in spaces:
                view.recall.index.nearest_min = 1
                view.recall.index.nearest_candidates = lambda n: max(1, n // share)
            exact = asked(spaces, forced=False)
            quick = asked(spaces, forced=True)
    worst = 0.0
    print(f"{path.name}")
    for cat, m in exact.items():
        q = quick[cat]
        d = max(abs(q["R@5"] - m["R@5"]), abs(q["R@10"] - m["R@10"]))
        worst = max(worst, d)
        print(
            f"  {cat:<14} n={m['n']:4d}  exact {m['R@5']:.3f} / {m['R@10']:.3f}"
            f"  quick step {q['R@5']:.3f} / {q['R@10']:.3f}  diff {d:.3f}"
        )
    print(f"  largest difference {worst:.4f}", flush=True)
    return worst


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("datasets", nargs="+", type=Path)
    p.add_argument("--share", type=int, default=25, help="1/share of the vectors scored exactly by the step")
    args = p.parse_args(argv)
    worst = max(judge(path, args.share) for path in args.datasets)
    print(f"every set: largest difference {worst:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
