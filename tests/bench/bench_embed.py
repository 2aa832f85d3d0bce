"""Benchmark: lean ONNX runtime (fp32, int8) vs sentence-transformers, side by side.

    .venv/bin/python tests/bench/bench_embed.py [--model-dir DIR] [--repeats 3]

Not a test (pytest collects test_*.py only). Prints: process start -> model ready (a fresh
subprocess that imports, loads and embeds one text; with its peak RSS), single-query latency
p50/p95 over 100 queries, and throughput for short notes and ~200-token paragraphs, at 1 and 2
threads. Ratios are speed-ups of the lean runtime over sentence-transformers (> 1 = lean faster).
Numbers from a small shared machine are noisy: read them as orders of magnitude.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402 - after the path

from core.embed import Embedder  # noqa: E402 - after the path
from core.embed.export import export_model, find_source_model  # noqa: E402 - after the path
from core.settings import default_model_dir  # noqa: E402 - after the path

WORDS = (
    "memory note remind call buy meeting project garden kitchen doctor invoice train ticket birthday "
    "present passport renew insurance budget report draft review coffee weekend holiday flight hotel "
    "museum concert library password router printer battery charger neighbour landlord plumber recipe "
    "flour butter lemon chocolate tomorrow morning evening quarterly deadline contract signature"
).split()
NAMES = ["Anna", "José", "Mohammed", "Priya", "Kenji", "Zoë", "Dmitri", "Ngozi"]

# What both child processes do before loading their model: the clock and memory probes.
CHILD_PROLOGUE = """
import sys, time, resource  # noqa: E402 - after the path
def mem_kb(field):
    # VmHWM, not ru_maxrss: that one carries the parent's peak over fork+exec on Linux
    try:
        with open("/proc/self/status") as f:
            return int(next(l for l in f if l.startswith(field + ":")).split()[1])
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = float(sys.argv[3])
"""
LEAN_CHILD = (
    CHILD_PROLOGUE
    + """
from core.embed import Embedder  # noqa: E402 - after the path
e = Embedder.load(sys.argv[1], threads=1, variant=sys.argv[2])
e.embed_one("warm up")
print("ready", time.time() - t0, mem_kb("VmHWM"), mem_kb("VmRSS"), flush=True)
"""
)
ST_CHILD = (
    CHILD_PROLOGUE
    + """
import torch  # noqa: E402 - after the path
torch.set_num_threads(1)
from sentence_transformers import SentenceTransformer  # noqa: E402 - after the path
m = SentenceTransformer(sys.argv[1], device="cpu")
m.encode("warm up")
print("ready", time.time() - t0, mem_kb("VmHWM"), mem_kb("VmRSS"), flush=True)
"""
)


def short_notes(n: int, rng: random.Random) -> list[str]:
    forms = [
        "Call {n} about the {a}",
        "Buy {a} and {b}",
        "{n}'s {a} is on Friday",
        "Remember the {a} before the {b}",
        "Meeting with {n} re {a} at 10:30",
        "{a} {b} {c}",
    ]
    return [
        rng.choice(forms).format(
            n=rng.choice(NAMES), a=rng.choice(WORDS), b=rng.choice(WORDS), c=rng.choice(WORDS)
        )
        for _ in range(n)
    ]


def paragraphs(n: int, rng: random.Random, words: int = 170) -> list[str]:
    out = []
    for _ in range(n):
        ws = [rng.choice(WORDS) for _ in range(words)]
        out.append(". ".join(" ".join(ws[i : i + 10]).capitalize() for i in range(0, words, 10)) + ".")
    return out


def startup(kind: str, model_dir: Path, source_dir: Path, repeats: int) -> tuple[float, float, float]:
    """Median wall time from spawning a fresh interpreter to its first embedding; peak and current RSS MB."""
    times, peak, rss = [], [], []
    for _ in range(repeats):
        if kind == "st":
            args = [sys.executable, "-c", ST_CHILD, str(source_dir), "-", repr(time.time())]
        else:
            args = [sys.executable, "-c", LEAN_CHILD, str(model_dir), kind, repr(time.time())]
        t0 = time.perf_counter()
        proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
        wall = time.perf_counter() - t0
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("ready")), None)
        if proc.returncode != 0 or line is None:
            raise RuntimeError(f"{kind} child failed: {proc.stderr[-2000:]}")
        _, ready_after, hwm, now = line.split()
        times.append(min(wall, float(ready_after)))
        peak.append(int(hwm) / 1024)
        rss.append(int(now) / 1024)
    return statistics.median(times), statistics.median(peak), statistics.median(rss)


def latency(embed_one, queries: list[str], n: int = 100) -> tuple[float, float]:
    for q in queries[:5]:
        embed_one(q)
    samples = []
    for i in range(n):
        q = queries[i % len(queries)]
        t0 = time.perf_counter()
        embed_one(q)
        samples.append((time.perf_counter() - t0) * 1000)
    return float(np.percentile(samples, 50)), float(np.percentile(samples, 95))


def throughput(embed, texts: list[str], runs: int = 3) -> float:
    embed(texts[:8])
    best = []
    for _ in range(runs):
        t0 = time.perf_counter()
        embed(texts)
        best.append(len(texts) / (time.perf_counter() - t0))
    return statistics.median(best)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-dir", type=Path, default=default_model_dir())
    parser.add_argument("--repeats", type=int, default=3, help="startup runs per runtime (median)")
    parser.add_argument("--short", type=int, default=512, help="short notes per throughput run")
    parser.add_argument("--long", type=int, default=64, help="~200-token paragraphs per throughput run")
    args = parser.parse_args()

    export_model(args.model_dir, int8=True)
    source = find_source_model()
    rng = random.Random(7)
    notes = short_notes(args.short, rng)
    paras = paragraphs(args.long, rng)
    queries = short_notes(50, random.Random(11))

    probe = Embedder.load(args.model_dir)
    tok = [len(e.ids) for e in probe._tokenizer.encode_batch(paras)]
    note_tok = [len(e.ids) for e in probe._tokenizer.encode_batch(notes)]
    print(
        f"cpu cores: {os.cpu_count()}  python {sys.version.split()[0]}  short notes: {len(notes)} "
        f"(mean {np.mean(note_tok):.0f} tokens)  paragraphs: {len(paras)} (mean {np.mean(tok):.0f} tokens)"
    )
    del probe

    results: dict[str, dict[str, float]] = {"fp32": {}, "int8": {}, "st": {}}
    print("startup (fresh process -> first vector)...", flush=True)
    for kind in ("fp32", "int8", "st"):
        secs, peak, rss = startup(kind, args.model_dir, source, args.repeats)
        results[kind]["start s"] = secs
        results[kind]["peak RSS MB"] = peak
        results[kind]["RSS when ready MB"] = rss

    import torch  # noqa: PLC0415 - the export extra only
    from sentence_transformers import SentenceTransformer  # noqa: PLC0415 - the export extra only

    st = SentenceTransformer(str(source), device="cpu")
    for threads in (1, 2):
        print(f"in-process, {threads} thread(s)...", flush=True)
        torch.set_num_threads(threads)
        for kind in ("fp32", "int8"):
            e = Embedder.load(args.model_dir, threads=threads, variant=kind)
            p50, p95 = latency(e.embed_one, queries)
            results[kind][f"query p50 ms ({threads}t)"] = p50
            results[kind][f"query p95 ms ({threads}t)"] = p95
            results[kind][f"short texts/s ({threads}t)"] = throughput(e.embed, notes)
            results[kind][f"para texts/s ({threads}t)"] = throughput(e.embed, paras)
            del e
        p50, p95 = latency(lambda t: st.encode(t, convert_to_numpy=True), queries)
        results["st"][f"query p50 ms ({threads}t)"] = p50
        results["st"][f"query p95 ms ({threads}t)"] = p95
        enc = lambda ts: st.encode(ts, batch_size=32, convert_to_numpy=True)
        results["st"][f"short texts/s ({threads}t)"] = throughput(enc, notes)
        results["st"][f"para texts/s ({threads}t)"] = throughput(enc, paras)

    def ratio(metric: str, lean: float, ref: float) -> str:
        if not lean or not ref:
            return "-"
        faster = ref / lean if ("ms" in metric or " s" in metric or "MB" in metric) else lean / ref
        return f"{faster:.2f}x"

    header = (
        f"{'metric':<24}{'lean fp32':>11}{'lean int8':>11}{'sent-tr':>11}{'fp32 vs ST':>12}{'int8 vs ST':>12}"
    )
    print()
    print(header)
    print("-" * len(header))
    for metric in results["st"]:
        f, q, s = results["fp32"][metric], results["int8"][metric], results["st"][metric]
        fmt = "{:>11.0f}" if "texts/s" in metric or "MB" in metric else "{:>11.2f}"
        print(
            f"{metric:<24}"
            + fmt.format(f)
            + fmt.format(q)
            + fmt.format(s)
            + f"{ratio(metric, f, s):>12}{ratio(metric, q, s):>12}"
        )
    print(
        "\nratios: how many times better the lean runtime is than sentence-transformers "
        "(time and memory: ST/lean; throughput: lean/ST)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
