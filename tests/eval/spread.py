"""Choose the constants of recall's second step for answers spread over several items
(core/recall/spread.py), cross-validated across people.

    python -m tests.eval.spread [DATASET ...]

Every space of every dataset is ingested under its own identity and each question asked once up
to its ranked table (`Search.for_fitting`, ranked as `ask` ranks it), keeping beside it the
lexemes of its first POOL rows and how many neurons hold each: `spread.reorder`, the function
`ask` calls, then orders it again under each constant tried, with no re-asking. Leave one space
out: each space's questions are scored under the constants best on the other spaces (the fit's
objective, tests/eval/fit.py: every (dataset, category) counts, a fall below today costs twice).
Prints today's, the left-out and the fit-on-everything figures of every category that moves.
Without DATASET: the sets `python -m tests.eval.fit` reads, and tests/eval/memorybank/.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.evaluate import score_query
from core.recall import ranking, spread
from core.recall.result import QUESTION_FILLER
from core.recall.search import Search
from core.validate import parse_instant
from tests.eval import fit

K = 10
GRID: dict[str, tuple] = {  # Spread's fields tried, in this order
    "keep": (3, 4, 5),
    "shared": (0.05, 0.1, 0.2),
    "follow": (3, 5),
    "rare": (2, 3, 5),
}


@dataclass
class Question:
    asked: fit.Asked
    text: str
    ranked: ranking.Ranked | None = None
    lexemes: list[tuple[str, ...]] | None = None  # of the first POOL rows, in answer order
    held: dict[str, int] | None = None  # how many neurons hold each of those lexemes
    own: set[str] | None = None  # the question's words (`spread._question_words`)

    def ids(self, s: spread.Spread | None) -> list[str | None]:
        a, r = self.asked, self.ranked
        if a.table is None or r is None:
            return a.ids[:K]
        order = r.order
        if s is not None and self.lexemes is not None and self.held is not None and self.own is not None:
            order = spread.reorder(order, r, self.lexemes, self.held.__getitem__, self.own, s)
        return [a.ids[i] for i in order[:K]]


def ask_all(paths: list[Path]) -> list[Question]:
    from core.memory import Memory  # noqa: PLC0415 - the tool is light until it runs
    from core.settings import Settings  # noqa: PLC0415 - as above

    out: list[Question] = []
    with tempfile.TemporaryDirectory(prefix="neurons-spread-") as tmp:
        settings = Settings.from_env(data_dir=Path(tmp) / "data")
        settings.embed_in_background = False
        memory = Memory.open(settings)
        try:
            spaces = fit.ingest_all(memory, paths, lambda said: print(said, file=sys.stderr))
            for name, space, view, back in spaces:
                now = parse_instant(space["now"], f"space {space['id']} now")
                assert now is not None
                rec = view.recall
                for query in space["queries"]:
                    if not query.get("gold"):
                        continue
                    got = Search(rec.reader, rec.index, rec.embedder).for_fitting(query["text"], now)
                    a = fit.Asked(
                        dataset=name,
                        space=space["id"],
                        category=query.get("category") or "uncategorised",
                        gold=list(query["gold"]),
                        avoid=list(query.get("avoid") or []),
                        table=got.table,
                        ids=[back.get(i) for i in got.table.ids]
                        if got.table is not None
                        else [back.get(r.neuron.id) for r in got.answer or []],
                    )
                    q = Question(a, query["text"])
                    c = got.table
                    if c is not None:
                        q.ranked = ranking.rank(c, ranking.weights_for(got.model))
                        if c.topical and not q.ranked.first and spread.asks_for_several(q.text):
                            with rec.reader.session():
                                terms = rec.reader.question_terms(q.text, QUESTION_FILLER)
                            with rec.index.reading():
                                q.lexemes = [
                                    spread.lexemes_of(rec.index, c, int(i))
                                    for i in q.ranked.order[: spread.POOL]
                                ]
                                q.held = {x: rec.index.frequency(x) for held in q.lexemes for x in held}
                            q.own = spread.question_words(q.text, terms)
                    out.append(q)
                print(f"asked {name}/{space['id']}", file=sys.stderr)
        finally:
            memory.close()
    return out


def scored(questions: list[Question], s: spread.Spread | None) -> list[dict[str, float]]:
    return [score_query(q.ids(s), q.asked.gold, q.asked.avoid) for q in questions]


def objective(summary: dict, before: dict) -> float:
    total = score = fall = 0.0
    for ds, cats in summary.items():
        for cat, m in cats.items():
            if cat == "ALL":
                continue
            w = float(np.sqrt(m["n"]))
            b = before[ds][cat]
            v = (m["R@5"] + m["R@10"] + m["nDCG@10"]) / 3 - m["avoid@5"]
            bv = (b["R@5"] + b["R@10"] + b["nDCG@10"]) / 3 - b["avoid@5"]
            total, score, fall = total + w, score + w * v, fall + w * max(bv - v, 0.0)
    return (score - fit.DROP_PENALTY * fall) / total if total else 0.0


def summary(questions: list[Question], metrics: list[dict[str, float]], keep: list[int]) -> dict:
    return fit.summarise([(questions[i].asked, metrics[i]) for i in keep])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.eval.spread")
    p.add_argument("datasets", nargs="*", type=Path)
    args = p.parse_args(argv)
    paths = args.datasets or [*fit.default_datasets(), fit.ROOT / "tests/eval/memorybank/memorybank-en.json"]
    questions = ask_all(paths)
    today = scored(questions, None)
    tried = {
        (keep, shared, follow, rare): scored(
            questions, spread.Spread(keep=keep, shared=shared, follow=follow, rare=rare)
        )
        for keep, shared, follow, rare in itertools.product(*GRID.values())
    }
    every = list(range(len(questions)))
    spaces: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, q in enumerate(questions):
        spaces[(q.asked.dataset, q.asked.space)].append(i)
    left = list(today)
    chosen: Counter = Counter()
    for mine in spaces.values():
        others = [i for i in every if i not in set(mine)]
        before = summary(questions, today, others)
        floor = objective(before, before) + fit.MIN_GAIN
        best, pick = max((objective(summary(questions, m, others), before), v) for v, m in tried.items())
        chosen[pick if best > floor else None] += 1
        for i in mine:
            left[i] = tried[pick][i] if best > floor else today[i]
    before = summary(questions, today, every)
    _, whole = max((objective(summary(questions, m, every), before), v) for v, m in tried.items())
    print(f"folds chose ({', '.join(GRID)}): {dict(chosen)}; on everything: {whole}")
    after, out = summary(questions, left, every), summary(questions, tried[whole], every)
    print("| set | category | n | R@5 today / left-out / fit | R@10 today / left-out / fit |")
    print("|---|---|---|---|---|")
    for ds in sorted(before):
        for cat in before[ds]:
            b, x, f = before[ds][cat], after[ds][cat], out[ds][cat]
            if cat != "ALL" and all(abs(y[k] - b[k]) < 1e-9 for y in (x, f) for k in ("R@5", "R@10")):
                continue
            r5 = f"{b['R@5']:.3f} / {x['R@5']:.3f} / {f['R@5']:.3f}"
            r10 = f"{b['R@10']:.3f} / {x['R@10']:.3f} / {f['R@10']:.3f}"
            print(f"| {ds} | {cat} | {b['n']} | {r5} | {r10} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
