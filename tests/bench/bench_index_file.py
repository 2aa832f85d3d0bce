"""The recall index read back from its file at 10k and 100k neurons, on a synthetic index (made in
memory, no store: building a 100k bench store takes minutes to hours on a busy machine).

    python -m tests.bench.bench_index_file [--neurons 100000] [--repeats 5] [--against DIR]

Makes an index of N neurons (a vocabulary of ~30k words, ~12 lexemes a neuron, a vector each,
one edge per three neurons, a contact per fifty), saves it once, then in fresh processes times
reading it back (`saved.load`) and the first looks a question makes at it (BM25 over three words,
the links of twenty ids, a thousand ids to their slots), with the memory the process gained.
`--against DIR` reads the same file with the code of another checkout (e.g. the main branch) in
turns with this one: the ratio is the figure to read. Prints; asserts nothing. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys, time, uuid
t0 = time.perf_counter()
import numpy as np
from core.model import Identity
from core.recall import saved
def rss():
    with open("/proc/self/status") as f:
        return int(next(l for l in f if l.startswith("VmRSS:")).split()[1]) / 1024
path, ident, probe = sys.argv[1], uuid.UUID(sys.argv[2]), json.loads(sys.argv[3])
before = rss()
t = time.perf_counter()
index = saved.load(__import__("pathlib").Path(path), probe["key"], Identity(device_id=ident))
load_s = time.perf_counter() - t
assert index is not None and index.count() == probe["live"], "the file was not read"
gained = rss() - before
t = time.perf_counter()
index.bm25(probe["terms"], 1.2, 0.75)
ids = [uuid.UUID(i) for i in probe["ids"]]
links = index.links(ids[:20])
slots = [index.slot(i) for i in ids]
looks_s = time.perf_counter() - t
assert None not in slots and len(links) > 0
print(json.dumps({"load": load_s, "looks": looks_s, "mb": gained}))
"""


def build(n: int, path: Path, ident: uuid.UUID) -> dict:
    sys.path.insert(0, str(ROOT))
    import numpy as np  # noqa: PLC0415 - after the path

    from core.model import Identity  # noqa: PLC0415 - after the path
    from core.recall import saved  # noqa: PLC0415 - after the path
    from core.recall.index import RecallIndex  # noqa: PLC0415 - after the path

    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(30_000)]
    index = RecallIndex(Identity(device_id=ident))
    vecs = np.random.default_rng(7).standard_normal((n, 384)).astype(np.float32)
    start = datetime(2024, 1, 1, tzinfo=UTC)
    ids = [uuid.UUID(int=rng.getrandbits(128)) for _ in range(n)]
    for i, nid in enumerate(ids):
        contact = i % 50 == 0
        lexemes = sorted({vocab[min(int(rng.paretovariate(0.9)), 29_999)] for _ in range(12)})
        index._put(
            {
                "id": nid,
                "mine": True,
                "kind": "contact" if contact else "note",
                "state": "active",
                "created_at": start + timedelta(minutes=i),
                "change_seq": i + 1,
                "due": None,
                "done": None,
                "rrule": None,
                "contact_attrs": {"name": f"Person {i}"} if contact else None,
                "contact_body": f"Person {i}" if contact else None,
                "note_head": None,
                "lexemes": lexemes,
                "dl": len(lexemes),
                "embedding_model": "multilingual-e5-small",
                "vec": (384).to_bytes(2, "big") + b"\x00\x00" + vecs[i].astype(">f4").tobytes(),
            }
        )
    for k in range(n // 3):
        index._put_edge(
            {
                "id": uuid.UUID(int=rng.getrandbits(128)),
                "from_node_id": ids[rng.randrange(n)],
                "to_node_id": ids[rng.randrange(n)],
                "relation_type": rng.choice(["relates_to", "concerns"]),
                "weight": 1.0,
                "change_seq": n + k + 1,
            }
        )
    index.seen_seq = n + n // 3
    key = {"store": "bench", "identity": ["device_id", str(ident)]}
    assert saved.save(index, path, key)
    linked = [ids[i] for i in range(n) if index.links([ids[i]])][:20]
    return {
        "key": key,
        "live": n,
        "terms": ["w1", "w40", "w900"],
        "ids": [str(i) for i in linked + rng.sample(ids, 980)],
    }


def run(code: Path, path: Path, ident: uuid.UUID, probe: dict) -> dict:
    env = {**os.environ, "PYTHONPATH": str(code)}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path), str(ident), json.dumps(probe)],
        env=env,
        cwd=code,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--neurons", type=int, default=100_000)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--against", type=Path, help="another checkout to read the same file with, in turns")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="neurons-bench-index-") as tmp:
        path, ident = Path(tmp) / "index.bin", uuid.uuid4()
        probe = build(args.neurons, path, ident)
        print(f"{args.neurons} neurons, file {path.stat().st_size / 2**20:.1f} MiB")
        codes = {"this": ROOT} | ({"against": args.against} if args.against else {})
        got: dict[str, list[dict]] = {name: [] for name in codes}
        for _ in range(args.repeats):
            for name, code in codes.items():
                got[name].append(run(code, path, ident, probe))
        for name, runs in got.items():
            med = {k: statistics.median(r[k] for r in runs) for k in ("load", "looks", "mb")}
            print(
                f"{name:<8} ({codes[name]}): read back {med['load'] * 1000:7.1f} ms, first looks "
                f"{med['looks'] * 1000:6.1f} ms, memory +{med['mb']:.0f} MB (medians of {len(runs)})"
            )
        if args.against:
            a = statistics.median(r["load"] for r in got["this"])
            b = statistics.median(r["load"] for r in got["against"])
            print(f"read back, this / against: {a / b:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
