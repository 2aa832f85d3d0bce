"""The benches' store of N neurons, built once through Memory and kept between runs (`--data-dir`).

    from tests.bench.built import ensure, texts
    ensure(data_dir, 100_000)      # builds it when empty; refuses one built at another size

The dev sets' texts (../shared/eval), repeated with variations, owned by the data dir's own
device (what the app opens): links (one per two neurons), reminders with due dates, contacts (a
copy is another person: "Meera Shahb"), and real vectors for the distinct texts (a repeated
text's vector gets a little noise). Written the way an import writes: `Memory.apply_import` one
batch per transaction, then `Memory.save_vectors` in batches -- the vectors in pgvector's binary
form, with no vector index to keep (migration 008). A marker beside the data dir,
`<data dir>.bench.json`, says it is finished, how big, and whose vectors it holds (a store of
another model's vectors would answer keyword-only). The distinct texts' vectors are computed once
per model and kept in the machine's temporary folder (`vectors_cached`): a store of another size
is then built in minutes.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from core.memory import Memory
from core.model import Edge, Kind, Neuron, Relation
from core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
# the shared dev sets beside the checkout (NEURONS_EVAL_DIR elsewhere: a git worktree, say)
EVAL = Path(os.environ.get("NEURONS_EVAL_DIR") or ROOT.parent / "shared" / "eval")
# Neurons (or links) per transaction of the build; vectors per transaction.
BATCH = 5000
VECTOR_BATCH = 5000
EMBED_BATCH = 256  # distinct texts embedded per call (the progress said between)
MARKER_VERSION = 3  # 3: the model of the vectors


def texts() -> tuple[list[dict], list[str], list[str]]:
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


def plan(n: int, seed: int = 7):
    """The N neurons and N/2 links of the bench store (plain objects, not yet written)."""
    rng = random.Random(seed)
    base, _, _ = texts()
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
        created = start + timedelta(minutes=7 * i + rng.randint(0, 5))
        neurons.append(
            Neuron(id=uuid.uuid4(), kind=kind, body=text, attrs=attrs, created_at=created, updated_at=created)
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
    return base, neurons, edges


def vectors_cached(model: str, distinct: list[str]) -> Path:
    """Where the vectors of the dev sets' distinct texts are kept between builds (outside the
    repository: the machine's temporary folder), by model and by the texts themselves."""
    digest = hashlib.sha256("\n".join(distinct).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"neurons-bench-vectors-{model}-{digest}.npy"


def distinct_vectors(emb, distinct: list[str]) -> np.ndarray:
    """The vectors of `distinct` (sorted texts): from the cache when an earlier build of any
    size made them with this model, else computed in batches and kept there."""
    cache = vectors_cached(emb.name, distinct)
    if cache.exists():
        vecs = np.load(cache)
        if vecs.shape[0] == len(distinct):
            return vecs
    out = []
    for k in range(0, len(distinct), EMBED_BATCH):
        out.append(np.asarray(emb.embed(distinct[k : k + EMBED_BATCH]), dtype=np.float32))
        print(f"embedded {min(k + EMBED_BATCH, len(distinct))}/{len(distinct)}", file=sys.stderr)
    vecs = np.concatenate(out)
    part = cache.with_suffix(".part.npy")
    np.save(part, vecs)
    part.replace(cache)
    return vecs


def build(memory, n: int, seed: int = 7) -> dict[str, float]:
    """Write the bench store into `memory`'s identity; the seconds each part took."""
    base, neurons, edges = plan(n, seed)
    took: dict[str, float] = {}
    t = time.monotonic()
    for k in range(0, len(neurons), BATCH):
        memory.apply_import(neurons[k : k + BATCH], [], [])
    for k in range(0, len(edges), BATCH):
        memory.apply_import([], [], edges[k : k + BATCH])
    took["rows"] = time.monotonic() - t
    emb = memory.embedder()
    if emb is None:
        print("model unavailable: keyword-only figures", file=sys.stderr)
        return took
    distinct = sorted({src["text"] for src in base})
    t = time.monotonic()
    vecs = dict(zip(distinct, distinct_vectors(emb, distinct), strict=True))
    took["embedding"] = time.monotonic() - t
    t = time.monotonic()
    for k in range(0, len(neurons), VECTOR_BATCH):
        rows = []
        for i in range(k, min(k + VECTOR_BATCH, len(neurons))):
            v = vecs[base[i % len(base)]["text"]].copy()
            if i >= len(base):
                v = v + np.random.default_rng(i).normal(0, 0.02, v.shape).astype(np.float32)
                v /= np.linalg.norm(v)
            rows.append((neurons[i].id, v))
        memory.save_vectors(rows, emb.name)
    took["vectors"] = time.monotonic() - t
    return took


def marker(data_dir: Path) -> Path:
    return data_dir.parent / (data_dir.name + ".bench.json")


def ensure(data_dir: Path, n: int, dsn: str | None = None) -> None:
    """A finished bench store of `n` neurons at `data_dir` (on the server `dsn`, when given): kept
    from an earlier run, or built now."""
    data_dir = Path(data_dir)
    mark = marker(data_dir)
    model = Settings.from_env(data_dir=data_dir).model_dir.name
    if mark.exists():
        made = json.loads(mark.read_text())
        if (made.get("version"), made.get("neurons"), made.get("dsn"), made.get("model")) != (
            MARKER_VERSION,
            n,
            dsn,
            model,
        ):
            raise SystemExit(
                f"{data_dir} holds a bench store of {made.get('neurons')} neurons (version "
                f"{made.get('version')}, server {made.get('dsn')}, vectors of {made.get('model')});"
                " give another --data-dir"
            )
        return
    if data_dir.exists() and any(data_dir.iterdir()):
        raise SystemExit(f"{data_dir} is not an empty or finished bench store; give another --data-dir")
    t = time.monotonic()
    with Memory.open(Settings.from_env(data_dir=data_dir, dsn=dsn, embed_in_background=False)) as memory:
        took = build(memory, n)
        count = memory.count()
    total = time.monotonic() - t
    parts = ", ".join(f"{k} {v:.0f}s" for k, v in took.items())
    print(f"built {count} neurons in {total:.0f}s ({parts})", file=sys.stderr)
    mark.write_text(
        json.dumps(
            {
                "version": MARKER_VERSION,
                "neurons": n,
                "dsn": dsn,
                "model": model,
                "build_s": round(total, 1),
                **took,
            }
        )
    )
