"""The quick-capture preview's cost: the date grammar alone, and what capture makes of a text
(contacts, mentions, due time, title) on an embedded store with a few hundred contacts.

    python -m tests.bench.bench_when [--contacts 300] [--rounds 20]

The preview runs on every keystroke, so its p95 must stay under 20 ms. Also prints the cold
import time of core.when (a new process), the cost a lazily imported library would add. Prints;
asserts nothing. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from core.memory import Memory
from core.model import Identity, Kind, Neuron
from core.settings import Settings
from core.store import queries as q
from core.when import find_when

ROOT = Path(__file__).resolve().parents[2]

PHRASES = [
    "remind me to stretch in 1 minute",
    "next Tuesday at 9 dentist",
    "call Ana tomorrow at 10 about the flat",
    "ligar à Mãe amanhã às 15h",
    "llamar a mamá mañana a las 18h",
    "Zahnarzt am Freitag um 9 Uhr",
    "dentiste lundi à 9h",
    "gym every Tuesday and Thursday at 7pm",
    "pay the rent on the 1st of every month",
    "Ana's new number is +351 912 000 999",
    "dinner with Sam and Ana on 8 Dec at 8pm",
    "bought milk and eggs",
    "Kostas came, replaced the valve",
    "pagar a renda todos os meses dia 8",
]


def report(label: str, ms: list[float]) -> str:
    a = np.asarray(ms)
    return (
        f"{label:<22} n={len(a):5d}  p50 {np.percentile(a, 50):6.2f} ms  "
        f"p95 {np.percentile(a, 95):6.2f} ms  max {a.max():6.2f} ms"
    )


def cold_import_ms(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print((time.perf_counter() - t) * 1000)"
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
            ).stdout
        )
        for _ in range(3)
    ]
    return min(runs)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--contacts", type=int, default=300)
    p.add_argument("--rounds", type=int, default=20)
    args = p.parse_args(argv)
    print(f"import core.when (cold, new process): {cold_import_ms('core.when'):.1f} ms")
    now = datetime(2025, 3, 18, 20, 30, tzinfo=UTC)
    grammar = []
    for _ in range(args.rounds * 10):
        for text in PHRASES:
            t = time.perf_counter()
            find_when(text, now)
            grammar.append((time.perf_counter() - t) * 1000)
    print(report("grammar (find_when)", grammar))
    with tempfile.TemporaryDirectory(prefix="neurons-bench-when-") as tmp:
        settings = Settings.from_env(data_dir=Path(tmp) / "data")
        settings.embed_in_background = False  # the preview alone, not the filler beside it
        memory = Memory.open(settings)
        try:
            me = memory.as_identity(Identity(device_id=uuid.uuid4()))
            people = [
                Neuron(
                    id=uuid.uuid4(),
                    kind=Kind.CONTACT,
                    body=f"Person {i}",
                    attrs={"name": f"{first} {last}{i}", "phones": [f"+44 7700 9{i:05d}"]},
                )
                for i, (first, last) in enumerate(
                    (["Ana", "Sam", "Kostas", "Meera", "Jonah", "Bex"][i % 6], "Surname")
                    for i in range(args.contacts)
                )
            ]
            with me.store.transaction() as cur:
                q.insert_neurons(cur, me.identity, people)
            me.preview("warm up", now=now)
            preview = []
            for _ in range(args.rounds):
                for text in PHRASES:
                    t = time.perf_counter()
                    me.preview(text, now=now)
                    preview.append((time.perf_counter() - t) * 1000)
            print(report(f"preview ({args.contacts} contacts)", preview))
        finally:
            memory.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
