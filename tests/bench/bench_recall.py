"""Recall at 10k neurons on the embedded engine: p50/p95 of ask (default mode) and about.

    python -m tests.bench.bench_recall [--neurons 10000] [--queries 200] [--data-dir DIR]

Builds a store of N neurons in one identity (the dev sets' texts, repeated with variations, with
links, reminders and contacts), real vectors for the distinct texts (a repeated text's vector gets
a little noise), then times `Memory.ask` and `Memory.about` end to end. Prints; asserts nothing
(the machine's other load decides the figures). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from core.memory import Memory
from core.model import Edge, Identity, Kind, Neuron, Relation
from core.settings import Settings
from core.store import queries as q

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT.parent / "shared" / "eval"


def _texts() -> tuple[list[dict], list[str], list[str]]:
    """(neurons, questions, names) from the shared dev sets."""
    neurons, questions, names = [], [], []
    for name in ("dev-personal.json", "locomo-dev.json"):
        path = EVAL / name
        if not path.exists():
            continue
        data = json.loads(path.read_text())
        for space in data["spaces"]:
            neurons += space["neurons"]
            questions += [q["text"] for q in space["queries"]]
            names += [
                n["attrs"]["name"]
                for n in space["neurons"]
                if n["kind"] == "contact" and (n.get("attrs") or {}).get("name")
            ]
    if not neurons:
        raise SystemExit(f"no dev sets under {EVAL}")
    return neurons, questions, names


def build(memory, n: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    base, _, _ = _texts()
    start = datetime(2022, 1, 1, tzinfo=UTC)
    neurons: list[Neuron] = []
    for i in range(n):
        src = base[i % len(base)]
        text = src["text"] if i < len(base) else f"{src['text']} ({i // len(base)})"
        attrs = dict(src.get("attrs") or {})
        kind = Kind(src["kind"])
        name = attrs.get("name")
        if kind is Kind.CONTACT and i >= len(base) and isinstance(name, str) and " " in name:
            # a copy is another person of the same first name ("Meera Shahb"): `about` answers
            # one person, not the candidates of a name given thirty times
            other = name + "bcdefghijklmnopqrstuvwxyz"[(i // len(base) - 1) % 25]
            attrs["name"], text = other, text.replace(name, other)
        if kind is Kind.REMINDER and "due_at" not in attrs:
            attrs["due_at"] = (start + timedelta(days=rng.randint(0, 1400))).isoformat()
        neurons.append(
            Neuron(
                id=uuid.uuid4(),
                kind=kind,
                body=text,
                attrs=attrs,
                created_at=start + timedelta(minutes=7 * i + rng.randint(0, 5)),
            )
        )
    edges = []
    for _ in range(n // 2):
        a, b = rng.sample(range(n), 2)
        edges.append(
            Edge(
                id=uuid.uuid4(),
                from_id=neurons[a].id,
                to_id=neurons[b].id,
                relation=rng.choice([Relation.RELATES_TO, Relation.CONCERNS]),
                valid_from=neurons[max(a, b)].created_at,
            )
        )
    with memory.store.transaction(memory.identity) as cur:
        q.insert_neurons(cur, memory.identity, neurons)
        q.insert_edges(cur, memory.identity, edges)
    emb = memory.embedder()
    if emb is None:
        print("model unavailable: keyword-only figures", file=sys.stderr)
        return
    distinct = sorted({src["text"] for src in base})
    t = time.monotonic()
    vecs = dict(zip(distinct, emb.embed(distinct), strict=True))
    print(f"embedded {len(distinct)} distinct texts in {time.monotonic() - t:.1f}s", file=sys.stderr)
    rows = []
    for i, neuron in enumerate(neurons):
        v = vecs[base[i % len(base)]["text"]].copy()
        if i >= len(base):
            v = v + np.random.default_rng(i).normal(0, 0.02, v.shape).astype(np.float32)
            v /= np.linalg.norm(v)
        rows.append((neuron.id, v))
    for k in range(0, len(rows), 1000):
        with memory.store.transaction(every_owner=True) as cur:
            q.save_embeddings(cur, rows[k : k + 1000], emb.name)


def timed(fn, items) -> list[float]:
    out = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - t) * 1000)
    return out


def report(label: str, ms: list[float]) -> str:
    a = np.asarray(ms)
    return (
        f"{label:<14} n={len(a):4d}  p50 {np.percentile(a, 50):7.1f} ms  "
        f"p95 {np.percentile(a, 95):7.1f} ms  max {a.max():7.1f} ms"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--neurons", type=int, default=10_000)
    p.add_argument("--queries", type=int, default=200)
    p.add_argument("--data-dir", help="reuse/keep a store here (built when empty)")
    args = p.parse_args(argv)
    tmp = None
    if args.data_dir:
        data_dir = Path(args.data_dir)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="neurons-bench-")
        data_dir = Path(tmp.name) / "data"
    marker = data_dir.parent / (data_dir.name + ".bench.json")
    memory = Memory.open(Settings.from_env(data_dir=data_dir))
    try:
        if marker.exists():
            ident = Identity(device_id=uuid.UUID(json.loads(marker.read_text())["device"]))
            me = memory.as_identity(ident)
        else:
            me = memory.as_identity(Identity(device_id=uuid.uuid4()))
            t = time.monotonic()
            build(me, args.neurons)
            print(f"built {args.neurons} neurons in {time.monotonic() - t:.1f}s", file=sys.stderr)
            marker.write_text(json.dumps({"device": str(me.identity.device_id)}))
        print(f"store: {me.count()} neurons, engine {memory.store.kind}")
        _, questions, names = _texts()
        rng = random.Random(3)
        qs = rng.sample(questions, min(args.queries, len(questions)))
        now = datetime(2025, 6, 11, 19, 30, tzinfo=UTC)
        me.ask("warm up", now=now)
        # the two kinds of ask alternate in blocks of 25 questions: both see the same load, and
        # neither runs just after the other's every question
        default, keyword = [], []
        for k in range(0, len(qs), 25):
            default += timed(lambda t: me.ask(t, limit=10, now=now), qs[k : k + 25])
            keyword += timed(lambda t: me.ask(t, limit=10, mode="keyword", now=now), qs[k : k + 25])
        print(report("ask default", default))
        print(report("ask keyword", keyword))
        who = (names * 10)[:50]
        about = timed(lambda name: me.about(name), who)
        print(report("about", about))
        ratio = np.percentile(default, 95) / np.percentile(keyword, 95)
        print(
            f"ask p95 / keyword-only p95: {ratio:.1f}x (goal <= 4x); about p95 "
            f"{np.percentile(about, 95):.1f} ms (goal <= 15 ms)"
        )
        # what a refresh costs when every row changed (vectors filled after an import, a claim):
        # each row put again, in the store's order rather than the index's
        rows, _ = me.recall.reader.index_rows(None)
        rng.shuffle(rows)
        t = time.perf_counter()
        with me.recall.index.lock:
            for row in rows:
                me.recall.index._put(row)
        print(f"refresh of {len(rows)} changed rows: {time.perf_counter() - t:.2f} s")
    finally:
        memory.close()
        if tmp is not None:
            tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
