"""`neurons eval DATASET`: score recall on a memory-eval/1 file (shared/eval/FORMAT.md).

Each space is ingested under its own device identity (one store for all), with the dataset's
created_at, its ids mapped to uuids, and its edges as given, as derived by capture, or both; then
the vectors are filled, and every query is asked through `Memory.ask` -- the call the app makes --
in each mode. Prints FORMAT.md's JSON with --json (and nothing else on stdout), else a table.
"""

from __future__ import annotations

import json
import logging
import math
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.commands.base import Answer
from core.memory import Memory
from core.model import Identity, InvalidInput, Kind, Relation
from core.settings import Settings
from core.validate import parse_instant
from core.vocabulary import Mode

log = logging.getLogger(__name__)

FORMAT = "memory-eval/1"
EDGE_SOURCES = ("given", "derived", "both")
METRICS = (
    "R@5",
    "R@10",
    "recall_all@5",
    "recall_all@10",
    "recall_any@5",
    "recall_any@10",
    "P@5",
    "hit@5",
    "MRR",
    "nDCG@10",
    "avoid@5",
)
K = 10


# -- metrics ---------------------------------------------------------------------------------------


def score_query(
    ranked: list[str | None], gold: list[str], avoid: list[str] | None = None
) -> dict[str, float]:
    """The metrics of one query: `ranked` ids best first (None for rows that are not in the set).

    Beside R@k (the share of the gold found), the two the field reports (LongMemEval's
    recall_all@k / recall_any@k): every gold id in the first k, and at least one."""
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("a query without gold is not scored")
    top10 = ranked[:K]
    hits5 = len(gold_set.intersection(top10[:5]))
    hits10 = len(gold_set.intersection(top10))
    first = next((i for i, r in enumerate(top10) if r in gold_set), None)
    dcg = sum(1.0 / math.log2(i + 2) for i, r in enumerate(top10) if r in gold_set)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(gold_set), K)))
    return {
        "R@5": hits5 / len(gold_set),
        "R@10": hits10 / len(gold_set),
        "recall_all@5": 1.0 if hits5 == len(gold_set) else 0.0,
        "recall_all@10": 1.0 if hits10 == len(gold_set) else 0.0,
        "recall_any@5": 1.0 if hits5 else 0.0,
        "recall_any@10": 1.0 if hits10 else 0.0,
        "P@5": hits5 / 5,
        "hit@5": 1.0 if hits5 else 0.0,
        "MRR": 1.0 / (first + 1) if first is not None else 0.0,
        "nDCG@10": dcg / ideal,
        "avoid@5": 1.0 if avoid and set(avoid).intersection(top10[:5]) else 0.0,
    }


def aggregate(scored: list[tuple[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Means per category and over ALL, from (category, metrics) pairs."""
    groups: dict[str, list[dict[str, float]]] = defaultdict(list)
    for category, m in scored:
        groups["ALL"].append(m)
        groups[category].append(m)
    out: dict[str, dict[str, float]] = {}
    for name in ["ALL", *sorted(g for g in groups if g != "ALL")]:
        rows = groups[name]
        out[name] = {"n": len(rows)}
        for metric in METRICS:
            out[name][metric] = round(float(np.mean([r[metric] for r in rows])), 4)
    return out


def percentiles(values_ms: list[float]) -> dict[str, float]:
    if not values_ms:
        return {"p50": 0.0, "p95": 0.0}
    arr = np.asarray(values_ms, dtype=float)
    return {"p50": round(float(np.percentile(arr, 50)), 2), "p95": round(float(np.percentile(arr, 95)), 2)}


# -- the dataset -----------------------------------------------------------------------------------


def load_dataset(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput(f"{path} is not a {FORMAT} dataset")
    for space in data.get("spaces") or []:
        for key in ("id", "now", "neurons", "queries"):
            if key not in space:
                raise InvalidInput(f"space {space.get('id')!r} of {path} has no {key!r}")
    return data


def ingest_space(memory, space: dict[str, Any], edges: str) -> dict[str, uuid.UUID]:
    """Capture the space's neurons (and link its edges) as `memory`'s identity; dataset id -> uuid."""
    ids: dict[str, uuid.UUID] = {}
    derive = edges in ("derived", "both")
    order = sorted(space["neurons"], key=lambda n: n["created_at"])  # stable: file order on ties
    for item in order:
        neuron = memory.capture(
            item["text"],
            kind=Kind.parse(item["kind"]),
            attrs=dict(item.get("attrs") or {}),
            created_at=parse_instant(item["created_at"], f"{item.get('id')}.created_at"),
            derive=derive,
        )
        ids[item["id"]] = neuron.id
        state = item.get("state") or ("done" if (item.get("attrs") or {}).get("done_at") else None)
        if state and state != "active":  # a done reminder keeps the dataset's done_at
            memory.set_state(neuron.id, state)
            done_at = (item.get("attrs") or {}).get("done_at")
            if state == "done" and done_at:
                memory.update_attrs(neuron.id, done_at=done_at)
    if edges in ("given", "both"):
        for e in space.get("edges") or []:
            if e["from"] not in ids or e["to"] not in ids:
                raise InvalidInput(
                    f"edge {e['from']} -> {e['to']} of space {space['id']} names a "
                    "neuron the space does not hold"
                )
            edge = memory.link(
                ids[e["from"]],
                ids[e["to"]],
                Relation.parse(e["type"]),
                valid_from=parse_instant(e.get("valid_from"), "edge valid_from"),
                derived_by=None,
            )
            if e.get("valid_to"):
                memory.unlink(edge.id, at=parse_instant(e["valid_to"], "edge valid_to"))
    return ids


# -- the run ---------------------------------------------------------------------------------------


def evaluate(
    memory, data: dict[str, Any], modes: Sequence[Mode | str], edges: str, progress=None
) -> dict[str, Any]:
    """Ingest every space, answer every query in every mode, score: FORMAT.md's object."""
    t0 = time.monotonic()
    spaces = []
    for space in data["spaces"]:
        view = memory.as_identity(Identity(device_id=uuid.uuid4()))
        ids = ingest_space(view, space, edges)
        spaces.append((space, view, {v: k for k, v in ids.items()}))
        if progress:
            progress(f"ingested {space['id']}: {len(ids)} neurons")
    memory.fill_vectors()
    ingest_s = time.monotonic() - t0
    if progress:
        progress(f"vectors filled; ingest took {ingest_s:.1f}s")
    latencies: list[float] = []
    by_mode: dict[str, dict[str, dict[str, float]]] = {}
    n_queries = 0
    for mode in map(Mode.parse, modes):
        scored: list[tuple[str, dict[str, float]]] = []
        for space, view, back in spaces:
            now = parse_instant(space["now"], f"space {space.get('id')} now")
            for query in space["queries"]:
                if not query.get("gold"):
                    continue
                t = time.perf_counter()
                results = view.ask(query["text"], limit=K, mode=mode, now=now)
                elapsed = (time.perf_counter() - t) * 1000
                if mode is Mode.DEFAULT:
                    latencies.append(elapsed)
                ranked = [back.get(r.neuron.id) for r in results]
                scored.append(
                    (
                        query.get("category") or "uncategorised",
                        score_query(ranked, query["gold"], query.get("avoid")),
                    )
                )
        by_mode[mode] = aggregate(scored)
        n_queries = len(scored)
        if progress:
            progress(f"mode {mode}: R@10 {by_mode[mode]['ALL']['R@10']:.3f}")
    return {
        "dataset": data.get("name") or "",
        "edges": edges,
        "queries": n_queries,
        "ingest_s": round(ingest_s, 2),
        "latency_ms": percentiles(latencies),
        "modes": by_mode,
    }


def render_table(report: dict[str, Any]) -> str:
    lines = [
        f"{report['dataset']}  edges={report['edges']}  queries={report['queries']}  "
        f"ingest {report['ingest_s']}s  latency p50 {report['latency_ms']['p50']} ms, "
        f"p95 {report['latency_ms']['p95']} ms"
    ]
    width = {m: max(8, len(m)) for m in METRICS}
    header = f"{'mode':<8} {'category':<12} {'n':>4} " + " ".join(f"{m:>{width[m]}}" for m in METRICS)
    lines += ["", header, "-" * len(header)]
    for mode, cats in report["modes"].items():
        for cat, m in cats.items():
            lines.append(
                f"{mode:<8} {cat:<12} {m['n']:>4} " + " ".join(f"{m[k]:>{width[k]}.3f}" for k in METRICS)
            )
    return "\n".join(lines)


def run_eval(args) -> Answer:
    """`neurons eval`: a fresh temporary data dir unless one is given; progress on stderr."""
    named = str(getattr(args, "modes", "") or ",".join(Mode)).split(",")
    modes = [Mode.parse(m.strip()) for m in named if m.strip()]
    edges = getattr(args, "edges", "given") or "given"
    if edges not in EDGE_SOURCES:
        raise InvalidInput(f"unknown edge source {edges!r}: use {', '.join(EDGE_SOURCES)}")
    data = load_dataset(args.dataset)
    tmp = None
    if getattr(args, "data_dir", None) or getattr(args, "dsn", None):
        settings = Settings.from_env(data_dir=args.data_dir, dsn=args.dsn)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="neurons-eval-")
        settings = Settings.from_env(data_dir=Path(tmp.name) / "data")
    settings.embed_in_background = False

    def progress(msg: str) -> None:
        if getattr(args, "verbose", False) or not getattr(args, "json", False):
            print(msg, file=sys.stderr, flush=True)

    try:
        memory = Memory.open(settings)
        try:
            report = evaluate(memory, data, modes, edges, progress=progress)
        finally:
            memory.close()
    finally:
        if tmp is not None:
            tmp.cleanup()
    return Answer(report, render_table(report))
