"""The repeats the date grammar reads (core/when: find_when's rrule), judged on other projects'
test cases and on a frozen set of our own, and said back by say_rule in the person's language."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from core.when import find_when

CORPUS = Path(__file__).parent / "when_corpus" / "repeats"
RRULE_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")
# what a case's rule is compared on; COUNT, UNTIL and the start date are not (see recurrent_en.md)
COMPARED = ("BYDAY", "BYMONTHDAY", "BYMONTH", "BYYEARDAY", "BYWEEKNO", "BYSETPOS")


def rule_parts(rule: str) -> dict[str, str]:
    parts = dict(piece.partition("=")[::2] for piece in rule.upper().removeprefix("RRULE:").split(";") if piece)
    parts.setdefault("INTERVAL", "1")
    return parts


def _same(key: str, ours: str | None, theirs: str) -> bool:
    if ours is None:
        return False
    if key in ("BYDAY", "BYMONTHDAY", "BYWEEKNO", "BYSETPOS", "BYMONTH", "BYYEARDAY"):
        return {v.lstrip("+") for v in ours.split(",")} == {v.lstrip("+") for v in theirs.split(",")}
    return ours == theirs


def rule_agrees(when, expect: str, time: str | None = None) -> bool:
    """`when`'s repeat is the rule `expect` says by its frequency, interval, days (BYDAY,
    BYMONTHDAY, BYMONTH...) and, when `time` ("19:00") is given, its time of day. A part the
    rule leaves to its first occurrence (DTSTART) is that occurrence's: "once a week" read as
    FREQ=WEEKLY from a Tuesday is every Tuesday, "every year on 3 June" FREQ=YEARLY from 3 June."""
    if when is None or not when.rrule:
        return False
    ours, theirs = rule_parts(when.rrule), rule_parts(expect)
    if (ours.get("FREQ"), ours["INTERVAL"]) != (theirs["FREQ"], theirs["INTERVAL"]):
        return False
    due = when.due
    implied = {}
    if ours["FREQ"] == "WEEKLY" and "BYDAY" not in ours:
        implied["BYDAY"] = RRULE_DAYS[due.weekday()]
    if ours["FREQ"] in ("MONTHLY", "YEARLY") and not {"BYDAY", "BYMONTHDAY", "BYYEARDAY"} & set(ours):
        implied["BYMONTHDAY"] = str(due.day)
    if ours["FREQ"] == "YEARLY" and "BYMONTH" not in ours:
        implied["BYMONTH"] = str(due.month)
    for key in COMPARED:
        if key in theirs and not _same(key, ours.get(key, implied.get(key)), theirs[key]):
            return False
    return time is None or due.strftime("%H:%M") == time


def case_reads(corpus: dict, case: list) -> bool:
    text, region, expect, *time = case
    now = datetime.fromisoformat(corpus["now"]).replace(tzinfo=ZoneInfo(corpus["zone"]))
    return rule_agrees(find_when(text, now, region=region), expect, time[0] if time else None)


def negative_reads_no_repeat(corpus: dict, case: list) -> bool:
    text, region = case
    now = datetime.fromisoformat(corpus["now"]).replace(tzinfo=ZoneInfo(corpus["zone"]))
    when = find_when(text, now, region=region)
    return when is None or not when.rrule


# recurrent's own tests (recurrent_en.json, its conventions in recurrent_en.md) and a frozen set
# of repeats in pt, es, de and fr written before the grammar was tuned to it: read as they
# expect, at least as many as now (floors: raise them as the grammar learns).
RULE_FLOORS = {
    "recurrent_en": 105,
    "people_pt_es_de_fr": 51,
}


def load(name: str) -> dict:
    return json.loads((CORPUS / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(RULE_FLOORS))
def test_other_projects_repeats_read_at_least_as_well_as_before(name):
    corpus = load(name)
    assert corpus["licence"] and corpus["taken"] and corpus["source"]
    read = sum(case_reads(corpus, case) for case in corpus["cases"])
    assert read >= RULE_FLOORS[name], f"{read} of {len(corpus['cases'])}"
    wrongly = [case[0] for case in corpus.get("negatives", []) if not negative_reads_no_repeat(corpus, case)]
    assert not wrongly  # "Once in a while.", "Every time i hear that": no repeat
