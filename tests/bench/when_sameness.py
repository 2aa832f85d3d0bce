"""Whether two versions of the date grammar read texts nobody here wrote the same: every phrase of
the date judges (tests/core/when_corpus/), the shared eval sets' memory texts and questions, and
the SUMMARY and DESCRIPTION lines of the calendars and cards of tests/corpus/. For each text,
`find_when`, `find_window` and the time a stored note says (`recall.windows.said`), read by this
checkout and by an earlier commit (its `core` taken with `git archive`), each in a process of its
own; prints every text read otherwise and their count (0 expected when only speed changed).

    python -m tests.bench.when_sameness [--before REV] [--limit N]

Prints; asserts nothing. Not collected by pytest.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVAL = Path(os.environ.get("NEURONS_EVAL_DIR") or ROOT.parent / "shared" / "eval")
NOW = "2026-12-06T10:30:00+00:00"  # for texts that come without their own moment
_REGION = re.compile(r"[a-z]{2}(?:_[A-Z]{2})?")
_PROPERTY = re.compile(r"^(?:SUMMARY|DESCRIPTION)[^:\n]*:(.*)$", re.M)


def _moment(value: object, default: str) -> str:
    if isinstance(value, str):
        try:
            at = datetime.fromisoformat(value)
        except ValueError:
            return default
        return (at if at.tzinfo else at.replace(tzinfo=UTC)).isoformat()
    return default


def texts() -> list[tuple[str, str, str | None]]:
    """(text, the moment it is read at, its region or None) of every source."""
    out: list[tuple[str, str, str | None]] = []
    for path in sorted((ROOT / "tests" / "core" / "when_corpus").rglob("*.json")):
        corpus = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(corpus, dict):
            continue
        reference = _moment(corpus.get("reference_time"), NOW)
        for key in ("cases", "capture", "questions", "negatives", "messages"):
            for case in corpus.get(key) or []:
                text = (
                    case if isinstance(case, str) else case[0] if case and isinstance(case[0], str) else None
                )
                if text is None:
                    continue
                rest = case[1:] if isinstance(case, list) else []
                now = _moment(rest[0], reference) if rest else reference
                region = next((r for r in rest[:2] if isinstance(r, str) and _REGION.fullmatch(r)), None)
                out.append((text, now, region))
        out += [(text, reference, None) for text in corpus.get("differs") or {}]
    for path in sorted(EVAL.glob("*.json")):
        for space in json.loads(path.read_text(encoding="utf-8")).get("spaces", []):
            now = _moment(space.get("now"), NOW)
            out += [(n["text"], _moment(n.get("created_at"), now), None) for n in space["neurons"]]
            out += [(q["text"], now, None) for q in space["queries"]]
    for path in sorted((ROOT / "tests" / "corpus").rglob("*")):
        if not path.is_file() or path.suffix.lower() not in (".ics", ".ical", ".ifb", ".vcf", ".vcard"):
            continue
        unfolded = re.sub(r"\r?\n[ \t]", "", path.read_bytes().decode("utf-8", "replace"))
        for m in _PROPERTY.finditer(unfolded):
            value = re.sub(r"\\([nN])", "\n", m.group(1).strip("\r"))
            value = re.sub(r"\\(.)", r"\1", value)
            if value.strip():
                out.append((value, NOW, None))
    return out


def read(items: list[tuple[str, str, str | None]]) -> list[str]:
    """What this process's `core` reads in each text (run in the checkout being judged)."""
    from core.recall.windows import said  # noqa: PLC0415 - the checkout's own, imported here
    from core.when import find_when, find_window  # noqa: PLC0415 - the same checkout's

    out = []
    for text, moment, region in items:
        now = datetime.fromisoformat(moment)
        parts = []
        for name, call in (
            ("when", lambda t=text, n=now, r=region: find_when(t, n, region=r)),
            ("window", lambda t=text, n=now: find_window(t, n)),
            ("said", lambda t=text, n=now: said(t, n)),
        ):
            try:
                parts.append(f"{name}={call()!r}")
            except Exception as e:  # noqa: BLE001 - an error is a reading too, compared as one
                parts.append(f"{name} raised {type(e).__name__}: {e}")
        out.append("; ".join(parts))
    return out


def _run(checkout: Path, items_file: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, __file__, "--read", str(items_file)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", default="main", help="the commit to compare with (default: main)")
    p.add_argument("--limit", type=int, help="only the first N texts")
    p.add_argument("--read", help=argparse.SUPPRESS)  # the child: read the texts of this file
    args = p.parse_args()
    if args.read:
        print(json.dumps(read(json.loads(Path(args.read).read_text(encoding="utf-8")))))
        return 0
    items = texts()[: args.limit]
    with tempfile.TemporaryDirectory(prefix="neurons-sameness-") as tmp:
        before = Path(tmp) / "before"
        before.mkdir()
        archive = subprocess.run(
            ["git", "archive", args.before, "core"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        items_file = Path(tmp) / "texts.json"
        items_file.write_text(json.dumps(items), encoding="utf-8")
        (Path(tmp) / "core.tar").write_bytes(archive)
        with tarfile.open(Path(tmp) / "core.tar") as tar:
            tar.extractall(before, filter="data")
        old, new = _run(before, items_file), _run(ROOT, items_file)
    differ = [(item, a, b) for item, a, b in zip(items, old, new, strict=True) if a != b]
    for (text, moment, region), a, b in differ:
        print(f"{text!r} at {moment} ({region}):\n  before {a}\n  now    {b}")
    print(f"{len(items)} texts ({args.before} and this checkout): {len(differ)} read otherwise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
