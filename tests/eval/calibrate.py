"""Fit a model's cosine band (its manifest's "cosine": floor and span) against the reference scale.

    python -m tests.eval.calibrate MODEL_DIR REFERENCE_DIR DATASET [DATASET ...]

Recall's constants read cosines on one scale, the one they were chosen on: MiniLM's raw cosine
(0 unrelated, 1 the same meaning). Another model puts its cosines elsewhere (e5: a narrow band near
0.8). On the development sets' questions (memory-eval/1 files: each question against its gold
notes, and against every other note of its memory), this finds the affine reading
(c - floor) / span that puts the model's cosines where the reference model puts them at the two
points a ranking decides between: the strongest look-alikes (the 95th percentile of a question's
cosine to a note that does not answer it) and a good answer (the 75th percentile of its cosine to
one that does). (Matching the medians instead spreads the many unrelated notes over the scale the
ranking's constants read: on dev-personal, R@5 0.78 against 0.81.) A development tool: the numbers it
prints are written into the exporter (core/embed/export_e5.py's COSINE), fitted on the development
sets only and judged on the held-out ones.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from core.embed.runtime import PASSAGE, QUERY, Embedder


def cosines(embedder: Embedder, datasets: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    """(cosines of questions to their gold notes, cosines of questions to the other notes)."""
    gold_all: list[np.ndarray] = []
    other_all: list[np.ndarray] = []
    for data in datasets:
        for space in data["spaces"]:
            notes = [n for n in space["neurons"] if n["kind"] != "contact"]
            if not notes:
                continue
            index = {n["id"]: i for i, n in enumerate(notes)}
            vecs = embedder.embed([n["text"] for n in notes], PASSAGE)
            queries = [q for q in space["queries"] if any(g in index for g in q["gold"])]
            if not queries:
                continue
            qvecs = embedder.embed([q["text"] for q in queries], QUERY)
            sims = qvecs @ vecs.T
            for row, q in enumerate(queries):
                gold = np.zeros(len(notes), dtype=bool)
                gold[[index[g] for g in q["gold"] if g in index]] = True
                gold_all.append(sims[row, gold])
                other_all.append(sims[row, ~gold])
    return np.concatenate(gold_all), np.concatenate(other_all)


LOOKALIKE, ANSWER = 95, 75  # the percentiles matched (of the other notes' cosines, of the gold's)


def fit(model: Embedder, reference: Embedder, datasets: list[dict]) -> dict[str, Any]:
    (gm, om), (gr, orf) = (
        (float(np.percentile(g, ANSWER)), float(np.percentile(o, LOOKALIKE)))
        for g, o in (cosines(model, datasets), cosines(reference, datasets))
    )
    span = (gm - om) / (gr - orf)
    return {"floor": om - orf * span, "span": span, "model": (om, gm), "reference": (orf, gr)}


def main(argv: list[str] | None = None) -> int:
    from core.evaluate import load_dataset  # noqa: PLC0415 - a development tool's

    parser = argparse.ArgumentParser(
        prog="python -m tests.eval.calibrate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("model", type=Path)
    parser.add_argument("reference", type=Path)
    parser.add_argument("datasets", nargs="+", type=Path)
    args = parser.parse_args(argv)
    datasets = [load_dataset(p) for p in args.datasets]
    result = fit(Embedder.load(args.model), Embedder.load(args.reference), datasets)
    om, gm = result["model"]
    orf, gr = result["reference"]
    print(
        f"cosine of a look-alike (p{LOOKALIKE}) / an answer (p{ANSWER}): model {om:.4f} / {gm:.4f}, "
        f"reference {orf:.4f} / {gr:.4f}"
    )
    print(f"floor {result['floor']:.4f}  span {result['span']:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
