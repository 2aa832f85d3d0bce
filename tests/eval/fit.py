"""Fit recall's ranking weights on the eval sets, cross-validated across people.

    python -m tests.eval.fit [DATASET ...] [--tables FILE] [--write] [--report FILE] [--folds N] [--band]

Every space of every dataset (one person's memory) is ingested under its own identity, and each of
its questions asked once, the way `ask` does, up to the candidates (`Search.for_fitting`): those
tables are ranked again under other weights by `ranking.rank`, the function `ask` calls, so a fit
costs no re-asking. The fit is a coordinate search over a small grid of each named weight
(`ranking.Weights`), the objective the mean over every (dataset, category) of
(R@5 + R@10 + nDCG@10) / 3 - avoid@5 -- each category of each set counts the same, whatever its size.

Cross-validation: the spaces are split into folds (one space a fold by default: leave one person
out); each fold's questions are scored with weights fitted on the other folds only. The report
gives, per dataset and category, the figures of today's weights, the left-out figures and those
of the fit on everything. `--write` puts the fit on everything into core/recall/fitted.py under
the model's name: re-fitting for another sentence model is this one command once it is the default.

`--band` fits the model's cosine calibration instead (floor and span, `ranking.calibrated`), the
weights held, cross-validated the same way: each table keeps its rows' raw cosines beside the
calibrated ones, so a band costs a re-reading of them, not a re-asking. It reports; it writes nothing.

Without DATASET: ../shared/eval/{dev-personal,locomo-dev}.json and tests/eval/*.json (those that
exist). `--tables FILE` keeps the asked tables (pickle) for the next run with the same files and model.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import pickle
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from core.embed.runtime import QUERY, Calibration
from core.evaluate import METRICS, ingest_space, load_dataset, score_query
from core.recall import ranking
from core.recall.search import Search
from core.validate import parse_instant

ROOT = Path(__file__).resolve().parents[2]
FITTED = ROOT / "core" / "recall" / "fitted.py"
K = 10

# the values tried for each weight (today's value is always tried too)
GRID: dict[str, tuple[float, ...]] = {
    "keyword_share": (0.3, 0.4, 0.5, 0.6, 0.7),
    "weak_keyword": (0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4),
    "link": (0.3, 0.45, 0.6, 0.8, 1.0, 1.25),
    "link_top": (0.45, 0.6, 0.8, 1.0, 1.25, 1.5),
    "link_to_contact": (0.0, 0.15, 0.3, 0.6),
    "link_from_contact": (0.0, 0.15, 0.3, 0.6, 0.9, 1.2),
    "hub_damping": (0.0, 0.25, 0.5, 0.75, 1.0),
    "sitting": (0.0, 0.2, 0.4, 0.6),
    "person": (0.0, 0.1, 0.25, 0.4),
    "person_relevance": (0.0, 0.25, 0.5, 1.0),
    "window": (0.25, 0.5, 0.75, 1.0),
    "said": (0.0, 0.1, 0.25, 0.4, 0.6),
    "exact": (0.5, 1.0, 2.0),
    "contact": (-0.3, -0.2, -0.1, 0.0, 0.1),
    "reminder": (-0.1, 0.0, 0.05, 0.1),
    "recency": (0.0, 0.05, 0.1, 0.2),
}
# weights that act together, also moved in pairs (a value of each, the others held)
PAIRS = (
    ("person", "person_relevance"),
    ("link", "link_top"),
    ("link", "hub_damping"),
    ("window", "said"),
    ("keyword_share", "weak_keyword"),
)
MIN_GAIN = 0.0005  # a move must gain this much: a fit does not chase one question's noise
DROP_PENALTY = 2.0  # R@5 or R@10 of a category falling below today's costs this many times the fall
ROUNDS = 2


def default_datasets() -> list[Path]:
    shared = ROOT.parent / "shared" / "eval"
    found = [shared / "dev-personal.json", shared / "locomo-dev.json"]
    found += sorted((ROOT / "tests" / "eval").glob("*.json"))
    return [p for p in found if p.exists()]


# -- asking once -------------------------------------------------------------------------------------


@dataclass
class Asked:
    """One question: its gold, and either its candidates (ids as the dataset's) or, when no weight
    plays a part in its answer, that answer."""

    dataset: str
    space: str
    category: str
    gold: list[str]
    avoid: list[str]
    table: ranking.Candidates | None
    ids: list[str | None]  # the table's rows as dataset ids, or the fixed answer's
    raw: np.ndarray | None = None  # the table's rows' raw cosines (NaN without a vector): a band's input
    band: Calibration | None = None  # ... and the model's calibration its table was read through


class _QueryRecorder:
    """The embedder, keeping the vectors of a question's texts (its table's cosines are of one)."""

    def __init__(self, source):
        self.source = source
        self.vectors: list[np.ndarray] = []

    def __call__(self):
        emb = self.source()
        return None if emb is None else _Recorded(emb, self)

    def raw(self, index, model: str, table: ranking.Candidates, calibration) -> np.ndarray | None:
        """The table's rows' raw cosines to the vector its cosines are of (the one the model's
        calibration reads as the table's); None when none is."""
        slots = [index.slot_of.get(i) for i in table.ids]
        for qvec in reversed(self.vectors):
            every = index.cosine(qvec, model)
            raw = np.asarray([every[s] if s is not None else np.nan for s in slots])
            read = np.nan_to_num(ranking.calibrated(raw, calibration), nan=0.0)
            if np.allclose(read, table.vec, rtol=0.0, atol=1e-9):
                return raw
        return None


class _Recorded:
    def __init__(self, emb, recorder: _QueryRecorder):
        self.emb, self.recorder = emb, recorder
        self.name, self.calibration = emb.name, emb.calibration

    def embed(self, texts, kind=QUERY):
        out = self.emb.embed(texts, kind)
        if kind == QUERY:
            self.recorder.vectors.append(out[0])
        return out


def ingest_all(memory, paths: list[Path], progress=print) -> list[tuple[str, dict, Any, dict]]:
    """Every space of every set in one memory, each as an identity of its own, vectors filled:
    (the set's name, the space, its view, the neurons' ids back to the set's own)."""
    from core.model import Identity  # noqa: PLC0415 - the tool is light until it runs

    spaces = []
    for path in paths:
        data = load_dataset(path)
        for space in data["spaces"]:
            view = memory.as_identity(Identity(device_id=uuid.uuid4()))
            ids = ingest_space(view, space, "given")
            spaces.append((data.get("name") or path.stem, space, view, {v: k for k, v in ids.items()}))
        progress(f"ingested {path.name}")
    memory.fill_vectors()
    return spaces


def ask_all(paths: list[Path], progress=print) -> tuple[list[Asked], str | None]:
    """Ingest every space of `paths`, ask every question up to its candidates; (asked, model)."""
    from core.memory import Memory  # noqa: PLC0415 - the tool is light until it runs
    from core.settings import Settings  # noqa: PLC0415 - as above

    asked: list[Asked] = []
    model = None
    with tempfile.TemporaryDirectory(prefix="neurons-fit-") as tmp:
        settings = Settings.from_env(data_dir=Path(tmp) / "data")
        settings.embed_in_background = False
        memory = Memory.open(settings)
        try:
            spaces = ingest_all(memory, paths, progress)
            progress("vectors filled")
            for name, space, view, back in spaces:
                now = parse_instant(space["now"], f"space {space['id']} now")
                assert now is not None  # load_dataset checked every space has one
                rec = view.recall
                recorder = _QueryRecorder(rec.embedder)
                for query in space["queries"]:
                    if not query.get("gold"):
                        continue
                    recorder.vectors = []
                    got = Search(rec.reader, rec.index, recorder).for_fitting(query["text"], now)
                    base = dict(
                        dataset=name,
                        space=space["id"],
                        category=query.get("category") or "uncategorised",
                        gold=list(query["gold"]),
                        avoid=list(query.get("avoid") or []),
                    )
                    if got.table is None:
                        answer = got.answer or []
                        asked.append(Asked(**base, table=None, ids=[back.get(r.neuron.id) for r in answer]))
                    else:
                        table, model = got.table, got.model or model
                        emb = rec.embedder()
                        raw = None
                        if got.model and emb is not None and table.meaning:
                            raw = recorder.raw(rec.index, got.model, table, emb.calibration)
                        band = emb.calibration if raw is not None and emb is not None else None
                        ids = [back.get(i) for i in table.ids]
                        asked.append(Asked(**base, table=table, ids=ids, raw=raw, band=band))
                progress(f"asked {name}/{space['id']}")
        finally:
            memory.close()
    return asked, model


def tables(paths: list[Path], cache: Path | None, progress=print) -> tuple[list[Asked], str | None]:
    """The asked questions, from `cache` when it was made from the same files (and code)."""
    digest = hashlib.sha256()
    recall = ROOT / "core" / "recall"
    for p in [
        *paths,
        *(
            recall / f
            for f in (
                "search.py",
                "question.py",
                "candidates.py",
                "answer.py",
                "about.py",
                "result.py",
                "windows.py",
                "index.py",
            )
        ),
    ]:
        digest.update(p.read_bytes())
    digest.update(repr([f.name for f in fields(ranking.Candidates)]).encode())
    digest.update(repr([f.name for f in fields(Asked)]).encode())
    key = digest.hexdigest()
    if cache is not None and cache.exists():
        with cache.open("rb") as src:
            saved = pickle.load(src)
        if saved.get("key") == key:
            progress(f"tables from {cache}")
            return saved["asked"], saved["model"]
    asked, model = ask_all(paths, progress)
    if cache is not None:
        with cache.open("wb") as out:
            pickle.dump({"key": key, "asked": asked, "model": model}, out)
    return asked, model


# -- scoring -------------------------------------------------------------------------------------------


def ranked_ids(a: Asked, w: ranking.Weights) -> list[str | None]:
    if a.table is None:
        return a.ids
    order = ranking.rank(a.table, w).order[:K]
    return [a.ids[i] for i in order]


def metrics(asked: list[Asked], w: ranking.Weights) -> dict[str, dict[str, dict[str, float]]]:
    """dataset -> category (and ALL) -> mean metrics, each question ranked under `w`."""
    return summarise([(a, score_query(ranked_ids(a, w), a.gold, a.avoid)) for a in asked])


def summarise(scored: list[tuple[Asked, dict[str, float]]]) -> dict[str, dict[str, dict[str, float]]]:
    cells: dict[str, dict[str, list[dict[str, float]]]] = defaultdict(lambda: defaultdict(list))
    for a, m in scored:
        cells[a.dataset][a.category].append(m)
        cells[a.dataset]["ALL"].append(m)
    return {
        ds: {
            cat: {"n": len(rows), **{k: float(np.mean([r[k] for r in rows])) for k in METRICS}}
            for cat, rows in sorted(cats.items(), key=lambda kv: (kv[0] != "ALL", kv[0]))
        }
        for ds, cats in sorted(cells.items())
    }


def cells(asked: list[Asked], w: ranking.Weights) -> dict[tuple[str, str], tuple[float, int]]:
    """(dataset, category) -> ((R@5 + R@10 + nDCG@10) / 3 - avoid@5, questions)."""
    per = metrics(asked, w)
    return {
        (ds, cat): ((m["R@5"] + m["R@10"] + m["nDCG@10"]) / 3 - m["avoid@5"], int(m["n"]))
        for ds, cats in per.items()
        for cat, m in cats.items()
        if cat != "ALL"
    }


def objective(asked: list[Asked], w: ranking.Weights, before: dict | None = None) -> float:
    """The mean of every (dataset, category)'s figure, each weighed by the root of its questions
    (a category of four counts, but less than one of forty), less DROP_PENALTY times what any fell
    below `before` (today's weights on the same questions)."""
    now = cells(asked, w)
    if not now:
        return 0.0
    weight = {k: float(np.sqrt(n)) for k, (_, n) in now.items()}
    total = sum(weight.values())
    score = sum(weight[k] * v for k, (v, _) in now.items()) / total
    if before:
        score -= (
            DROP_PENALTY * sum(weight[k] * max(before[k][0] - v, 0.0) for k, (v, _) in now.items()) / total
        )
    return score


def fit(asked: list[Asked], start: ranking.Weights = ranking.DEFAULT, progress=None) -> ranking.Weights:
    """Coordinate search: each weight in turn takes the grid value (or its own) that scores best
    with the others held, then the PAIRS together; ROUNDS times or until nothing moves. A move
    must gain MIN_GAIN over `start` (the model's weights today: a move that only equals them is
    not taken), and a category falling below its figure under `start` costs DROP_PENALTY.
    Deterministic: ties keep the value held, else the one nearest today's."""
    before = cells(asked, start)
    w, best = start, objective(asked, start, before)
    for rnd in range(ROUNDS):
        moved = False
        for name, grid in GRID.items():
            held = getattr(w, name)
            values = sorted(set(grid) | {held}, key=lambda v: (abs(v - getattr(start, name)), v))
            for v in values:
                if v == held:
                    continue
                score = objective(asked, replace(w, **{name: v}), before)
                if score > best + MIN_GAIN:
                    w, best, moved = replace(w, **{name: v}), score, True
            if progress and getattr(w, name) != held:
                progress(f"  round {rnd + 1}: {name} {held} -> {getattr(w, name)} ({best:.4f})")
        for a, b in PAIRS:
            held = (getattr(w, a), getattr(w, b))
            for va in GRID[a]:
                for vb in GRID[b]:
                    if va == held[0] or vb == held[1]:
                        continue  # single moves were tried above
                    score = objective(asked, replace(w, **{a: va, b: vb}), before)
                    if score > best + MIN_GAIN:
                        w, best, moved = replace(w, **{a: va, b: vb}), score, True
            if progress and (getattr(w, a), getattr(w, b)) != held:
                progress(f"  round {rnd + 1}: {a}, {b} {held} -> {getattr(w, a), getattr(w, b)} ({best:.4f})")
        if not moved:
            break
    return w


def folds_of(asked: list[Asked], n: int | None) -> list[set[tuple[str, str]]]:
    """The spaces in folds: n folds of spaces dealt in turn; by default one person a fold, but a
    dataset of many spaces (LoCoMo's conversations, the multilingual set's four people) in two."""
    spaces = list(dict.fromkeys((a.dataset, a.space) for a in asked))
    if n:
        return [set(spaces[i::n]) for i in range(min(n, len(spaces)))]
    folds = []
    for ds in dict.fromkeys(d for d, _ in spaces):
        own = [s for s in spaces if s[0] == ds]
        folds += [{s} for s in own] if len(own) <= 3 else [set(own[0::2]), set(own[1::2])]
    return folds


def cross_validate(
    asked: list[Asked],
    folds: list[set[tuple[str, str]]],
    progress=print,
    start: ranking.Weights = ranking.DEFAULT,
):
    """Each fold's questions ranked under weights fitted without it (from `start`): (metrics,
    weights per fold)."""
    scored: list[tuple[Asked, dict[str, float]]] = []
    fitted = []
    for i, fold in enumerate(folds):
        train = [a for a in asked if (a.dataset, a.space) not in fold]
        test = [a for a in asked if (a.dataset, a.space) in fold]
        t = time.monotonic()
        w = fit(train, start)
        fitted.append((sorted(fold), w))
        scored += [(a, score_query(ranked_ids(a, w), a.gold, a.avoid)) for a in test]
        names = ", ".join(s for _, s in sorted(fold))
        progress(f"fold {i + 1}/{len(folds)} ({names}): {time.monotonic() - t:.0f}s")
    return summarise(scored), fitted


# -- the model's cosine band ---------------------------------------------------------------------------

# the bands tried for the model's calibration (`--band`): floor and span on the model's raw cosines
BAND_FLOORS = (0.76, 0.77, 0.78, 0.785, 0.79, 0.795, 0.80, 0.81)
BAND_SPANS = (0.08, 0.10, 0.12, 0.137, 0.16, 0.19, 0.22, 0.26)


def banded(asked: list[Asked], band: Calibration) -> list[Asked]:
    """The questions with their tables' cosines read through `band` (those without raw cosines,
    or without the model, as they were asked)."""
    out = []
    for a in asked:
        if a.table is not None and a.raw is not None:
            vec = np.nan_to_num(ranking.calibrated(a.raw, band), nan=0.0)
            a = replace(a, table=replace(a.table, vec=vec))
        out.append(a)
    return out


def fit_band(asked: list[Asked], w: ranking.Weights, start: Calibration) -> Calibration:
    """The band (of BAND_FLOORS x BAND_SPANS) that scores best under weights `w`, by the weights'
    objective: it must gain MIN_GAIN over `start` (the manifest's), a category falling below its
    figure under `start` costing DROP_PENALTY. Ties keep the band nearest `start`."""
    before = cells(banded(asked, start), w)
    band, best = start, objective(banded(asked, start), w, before)
    tried = sorted(
        (Calibration(floor=f, span=s) for f in BAND_FLOORS for s in BAND_SPANS),
        key=lambda b: (abs(b.floor - start.floor) + abs(b.span - start.span), b.floor, b.span),
    )
    for b in tried:
        score = objective(banded(asked, b), w, before)
        if score > best + MIN_GAIN:
            band, best = b, score
    return band


def cross_validate_band(asked, folds, w: ranking.Weights, start: Calibration, progress=print):
    """Each fold's questions read through the band fitted without it: (metrics, band per fold)."""
    scored: list[tuple[Asked, dict[str, float]]] = []
    per_fold = []
    for i, fold in enumerate(folds):
        train = [a for a in asked if (a.dataset, a.space) not in fold]
        test = [a for a in asked if (a.dataset, a.space) in fold]
        band = fit_band(train, w, start)
        per_fold.append((sorted(fold), band))
        scored += [(a, score_query(ranked_ids(a, w), a.gold, a.avoid)) for a in banded(test, band)]
        progress(f"fold {i + 1}/{len(folds)} ({', '.join(s for _, s in sorted(fold))}): {band}")
    return summarise(scored), per_fold


# -- the report and the constants ---------------------------------------------------------------


def table_text(before, left_out, fitted_all) -> str:
    cols = ("R@5", "R@10", "MRR", "avoid@5")
    lines = [
        "| set | category | n | " + " | ".join(f"{c} before / left-out / all" for c in cols) + " |",
        "|---|---|---|" + "---|" * len(cols),
    ]
    for ds, cats in before.items():
        for cat, m in cats.items():
            lo, fa = left_out.get(ds, {}).get(cat), fitted_all.get(ds, {}).get(cat)
            cells = [f"{m[c]:.3f} / {lo[c]:.3f} / {fa[c]:.3f}" if lo and fa else f"{m[c]:.3f}" for c in cols]
            lines.append(f"| {ds} | {cat} | {m['n']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_fitted(model: str, w: ranking.Weights, path: Path = FITTED) -> None:
    """Put `w` under `model` in fitted.py, keeping the other models' entries."""
    head, _, rest = path.read_text(encoding="utf-8").partition("FITTED:")
    table = dict(ast.literal_eval(rest.split("=", 1)[1].strip())) if rest else {}
    table[model] = w.to_json()
    head = head.rstrip() + "\n\n"
    body = "FITTED: dict[str, dict[str, float]] = {\n"
    for name in sorted(table):
        body += f"    {json.dumps(name)}: {{\n"
        body += "".join(f"        {json.dumps(k)}: {v!r},\n" for k, v in table[name].items())
        body += "    },\n"
    path.write_text(head + body + "}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.eval.fit", description=__doc__.split("\n\n")[0])
    parser.add_argument("datasets", nargs="*", type=Path)
    parser.add_argument("--tables", type=Path, help="keep the asked questions here (pickle)")
    parser.add_argument("--folds", type=int, help="folds of spaces (default: one space a fold)")
    parser.add_argument("--write", action="store_true", help="write the fit on everything to fitted.py")
    parser.add_argument("--report", type=Path, help="write the figures as JSON here")
    parser.add_argument("--no-cv", action="store_true", help="skip cross-validation (fit on everything)")
    parser.add_argument(
        "--band", action="store_true", help="fit the model's cosine band (weights held), not the weights"
    )
    args = parser.parse_args(argv)

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    paths = args.datasets or default_datasets()
    asked, model = tables(paths, args.tables, say)
    say(f"{len(asked)} questions of {len({(a.dataset, a.space) for a in asked})} spaces, model {model}")
    start = ranking.weights_for(model)
    before = metrics(asked, start)
    report: dict[str, Any] = {"model": model, "before": before}
    if args.band:
        return fit_the_band(asked, start, args, report, say)
    if not args.no_cv:
        left_out, per_fold = cross_validate(asked, folds_of(asked, args.folds), say, start)
        report["left_out"] = left_out
        report["folds"] = [{"spaces": [s for _, s in f], "weights": w.to_json()} for f, w in per_fold]
    w_all = fit(asked, start, progress=say)
    report["fitted_all"] = metrics(asked, w_all)
    report["weights"] = w_all.to_json()
    report["weights_before"] = start.to_json()
    print(table_text(before, report.get("left_out", report["fitted_all"]), report["fitted_all"]))
    print("\nfitted on everything:", json.dumps(w_all.to_json()))
    if args.report:
        args.report.write_text(json.dumps(report, indent=1), encoding="utf-8")
    if args.write:
        if not model:
            say("no sentence model answered: nothing written")
            return 2
        write_fitted(model, w_all)
        say(f"wrote the weights for {model} to {FITTED}")
    return 0


def fit_the_band(asked: list[Asked], w: ranking.Weights, args, report: dict[str, Any], say) -> int:
    """`--band`: the model's calibration fitted like the weights, cross-validated; reported only
    (the manifest's band stays the model's until a fitted one holds on the left-out folds)."""
    manifest = next((a.band for a in asked if a.band is not None), None)
    if manifest is None:
        say("no question has its raw cosines (no sentence model answered): nothing to fit")
        return 2
    say(f"manifest band: {manifest}; {sum(a.raw is not None for a in asked)} questions read through it")
    if not args.no_cv:
        left_out, per_fold = cross_validate_band(asked, folds_of(asked, args.folds), w, manifest, say)
        report["left_out"] = left_out
        report["folds"] = [{"spaces": [s for _, s in f], "band": vars(b)} for f, b in per_fold]
    band = fit_band(asked, w, manifest)
    report["fitted_all"] = metrics(banded(asked, band), w)
    report["band"], report["band_before"] = vars(band), vars(manifest)
    print(table_text(report["before"], report.get("left_out", report["fitted_all"]), report["fitted_all"]))
    print("\nband fitted on everything:", json.dumps(vars(band)))
    if args.report:
        args.report.write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":  # through the module's own name: the tables' pickle names its classes
    from tests.eval.fit import main as _main

    sys.exit(_main())
