"""How the date grammar reads other projects' test cases (tests/core/when_corpus/): for each judge,
the cases read as that project expects, overall and by language; for Duckling's and dateparser's
corpora, the examples read as they expect (their 'differs' counted as misses); for the repeats'
(tests/core/when_corpus/repeats/), the cases whose repeat is the rule they expect.

    python -m tests.bench.when_judges [--misses NAME]

Prints; asserts nothing (the floors are in tests/core/test_when.py). Not collected by pytest.
"""

from __future__ import annotations

import argparse
import collections
import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from core.when import find_when
from tests.core.test_when import CASE_FLOORS, MESSAGE_FLOORS, agrees, case_agrees, message_agrees
from tests.core.test_when_repeats import RULE_FLOORS, case_reads, load, negative_reads_no_repeat

CORPUS = Path(__file__).parents[1] / "core" / "when_corpus"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--misses", help="print the cases of this judge read otherwise")
    args = parser.parse_args()
    print("| judge | read | % | by language |\n|---|---|---|---|")
    for name in sorted(CASE_FLOORS):
        corpus = json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))
        read, total = collections.Counter(), collections.Counter()
        for case in corpus["cases"]:
            language, good = case[2][:2], case_agrees(case)
            total[language] += 1
            read[language] += good
            if not good and args.misses == name:
                text, now, region, expect = case
                at = datetime.fromisoformat(now).replace(tzinfo=ZoneInfo("UTC"))
                when = find_when(text, at, region=region)
                print(f"  miss {region} {text!r} at {now}: wants {expect}, read {when.due if when else None}")
        n, r = sum(total.values()), sum(read.values())
        by = ", ".join(f"{lang} {read[lang]}/{total[lang]}" for lang in total)
        print(f"| {name} | {r}/{n} | {100 * r / n:.1f} | {by} |")
    for name in sorted(MESSAGE_FLOORS):
        messages = json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))["messages"]
        kept = 0
        for message in messages:
            good = message_agrees(message)
            kept += good
            if not good and args.misses == name:
                print(f"  miss title {message[0]!r}: wants {message[2]!r}")
        print(f"| {name} (reminder's title) | {kept}/{len(messages)} | {100 * kept / len(messages):.1f} | |")
    for path in sorted(CORPUS.glob("*.json")):
        corpus = json.loads(path.read_text(encoding="utf-8"))
        if "cases" in corpus:
            continue
        examples = [(part, ex) for part in ("capture", "questions") for ex in corpus.get(part, [])]
        good = sum(agrees(corpus, part, ex)[0] for part, ex in examples)
        print(f"| {path.stem} | {good}/{len(examples)} | {100 * good / len(examples):.1f} | |")
    for name in sorted(RULE_FLOORS):
        corpus = load(name)
        read, total = collections.Counter(), collections.Counter()
        for case in corpus["cases"]:
            language, good = case[1][:2], case_reads(corpus, case)
            total[language] += 1
            read[language] += good
            if not good and args.misses == name:
                print(f"  miss {case}")
        wrong = sum(not negative_reads_no_repeat(corpus, case) for case in corpus.get("negatives", []))
        n, r = sum(total.values()), sum(read.values())
        by = ", ".join(f"{lang} {read[lang]}/{total[lang]}" for lang in total)
        extra = f" ({wrong} of its non-repeats read as one)" if wrong else ""
        print(f"| repeats/{name} | {r}/{n} | {100 * r / n:.1f} | {by}{extra} |")


if __name__ == "__main__":
    main()
