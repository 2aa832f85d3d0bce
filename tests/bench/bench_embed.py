"""Benchmark: the sentence models the lean ONNX runtime runs, side by side.

    .venv/bin/python tests/bench/bench_embed.py [--repeats 3]

Not a test (pytest collects test_*.py only). For multilingual-e5-small (the default) and
all-MiniLM-L6-v2 (the model before it, fp32 and int8), prints: process start -> model ready (a fresh
subprocess that imports, loads and embeds one text; with its peak RSS and the RSS it keeps), single
query latency p50/p95 over 100 queries, and throughput for short notes and ~200-token paragraphs,
at 1 and 2 threads; then the ratio of e5 to MiniLM fp32 (> 1 = e5 costs more). Numbers from a small
shared machine are noisy: read the ratios, measured in one run.
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

from core.embed import MINILM, QUERY, Embedder  # noqa: E402 - after the path
from core.embed.export import export_model  # noqa: E402 - after the path

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
from core.embed import MINILM, QUERY, Embedder  # noqa: E402 - after the path
e = Embedder.load(sys.argv[1], threads=1, variant=sys.argv[2])
e.embed_one("warm up")
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


def startup(model_dir: Path, variant: str, repeats: int) -> tuple[float, float, float]:
    """Median wall time from spawning a fresh interpreter to its first embedding; peak and current RSS MB."""
    times, peak, rss = [], [], []
    for _ in range(repeats):
        args = [sys.executable, "-c", LEAN_CHILD, str(model_dir), variant, repr(time.time())]
        out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600, check=True).stdout
        _, secs, hwm, now = out.split()
        times.append(float(secs))
        peak.append(int(hwm) / 1024)
        rss.append(int(now) / 1024)
    return statistics.median(times), statistics.median(peak), statistics.median(rss)


def latency(embed_one, queries: list[str], n: int = 100) -> tuple[float, float]:
    for q in queries[:5]:
        embed_one(q)
    times = []
    for i in range(n):
        t = time.perf_counter()
        embed_one(queries[i % len(queries)])
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), float(np.percentile(times, 95))


def throughput(embed, texts: list[str], runs: int = 3) -> float:
    embed(texts[:8])
    best = 0.0
    for _ in range(runs):
        t = time.perf_counter()
        embed(texts)
        best = max(best, len(texts) / (time.perf_counter() - t))
    return best


def main() -> int:

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="startup runs per model (median)")
    parser.add_argument("--short", type=int, default=512, help="short notes per throughput run")
    parser.add_argument("--long", type=int, default=64, help="~200-token paragraphs per throughput run")
    args = parser.parse_args()

    e5_dir = export_model(echo=None).out_dir
    minilm_dir = export_model(model=MINILM, int8=True, echo=None).out_dir
    models = {
        "e5": (e5_dir, "fp32"),
        "MiniLM fp32": (minilm_dir, "fp32"),
        "MiniLM int8": (minilm_dir, "int8"),
    }
    rng = random.Random(7)
    notes = short_notes(args.short, rng)
    paras = paragraphs(args.long, rng)
    queries = short_notes(50, random.Random(11))
    print(
        f"cpu cores: {os.cpu_count()}  python {sys.version.split()[0]}  "
        f"short notes: {len(notes)}  paragraphs: {len(paras)}"
    )

    results: dict[str, dict[str, float]] = {name: {} for name in models}
    print("startup (fresh process -> first vector)...", flush=True)
    for name, (folder, variant) in models.items():
        secs, peak, rss = startup(folder, variant, args.repeats)
        results[name]["start s"] = secs
        results[name]["peak RSS MB"] = peak
        results[name]["RSS when ready MB"] = rss
    for threads in (1, 2):
        print(f"in-process, {threads} thread(s)...", flush=True)
        for name, (folder, variant) in models.items():
            e = Embedder.load(folder, threads=threads, variant=variant)
            p50, p95 = latency(lambda t, e=e: e.embed_one(t, QUERY), queries)
            results[name][f"query p50 ms ({threads}t)"] = p50
            results[name][f"query p95 ms ({threads}t)"] = p95
            results[name][f"short texts/s ({threads}t)"] = throughput(e.embed, notes)
            results[name][f"para texts/s ({threads}t)"] = throughput(e.embed, paras)
            e.close()

    names = list(models)
    header = f"{'metric':<24}" + "".join(f"{n:>13}" for n in names) + f"{'e5/MiniLM':>11}"
    print()
    print(header)
    print("-" * len(header))
    for metric in results["e5"]:
        fmt = "{:>13.0f}" if "texts/s" in metric or "MB" in metric else "{:>13.2f}"
        e5, mini = results["e5"][metric], results["MiniLM fp32"][metric]
        ratio = (mini / e5 if "texts/s" in metric else e5 / mini) if e5 and mini else 0.0
        print(f"{metric:<24}" + "".join(fmt.format(results[n][metric]) for n in names) + f"{ratio:>10.2f}x")
    print("\ne5/MiniLM: how many times e5 costs what MiniLM fp32 costs (time, memory; throughput inverted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
