"""The eval harness's metrics on tiny cases computed by hand (shared/eval/FORMAT.md "Scoring")."""

from __future__ import annotations

import json
import math

import pytest

from core.evaluate import aggregate, load_dataset, percentiles, score_query
from core.model import InvalidInput
from tests.conftest import run_cli


def test_one_query_by_hand():
    ranked = ["a", "x", "b", "y", "z", "c", None, "w", "v", "u", "d"]  # d is 11th: not counted
    m = score_query(ranked, gold=["a", "b", "c", "d"], avoid=["z"])
    assert m["R@5"] == 0.5  # a, b of 4
    assert m["R@10"] == 0.75  # a, b, c of 4
    assert m["P@5"] == 0.4  # 2 of 5
    assert m["hit@5"] == 1.0
    assert m["MRR"] == 1.0  # a is first
    dcg = 1 / math.log2(2) + 1 / math.log2(4) + 1 / math.log2(7)  # ranks 1, 3, 6
    idcg = sum(1 / math.log2(i + 2) for i in range(4))  # 4 gold at ranks 1-4
    assert m["nDCG@10"] == pytest.approx(dcg / idcg)
    assert m["nDCG@10"] == pytest.approx(0.72463, abs=1e-5)
    assert m["avoid@5"] == 1.0  # z is 5th


def test_strict_and_any_recall_the_way_the_field_reports_them():
    """recall_all@k (every gold id in the first k: LongMemEval's headline) and recall_any@k (at
    least one), beside R@k (the share of gold found), on cases worked by hand."""
    ranked = ["a", "x", "b", "y", "z", "c", None, "w", "v", "u", "d"]
    m = score_query(ranked, gold=["a", "b", "c", "d"])  # a, b in 5; a, b, c in 10; d is 11th
    assert (m["recall_all@5"], m["recall_all@10"]) == (0.0, 0.0)
    assert (m["recall_any@5"], m["recall_any@10"]) == (1.0, 1.0)
    both = score_query(["x", "a", "y", "b"], gold=["a", "b"])  # both in the first 5
    assert (both["recall_all@5"], both["recall_all@10"], both["R@5"]) == (1.0, 1.0, 1.0)
    late = score_query(["x", "y", "z", "w", "v", "a", "b"], gold=["a", "b"])  # 6th and 7th
    assert (late["recall_all@5"], late["recall_any@5"]) == (0.0, 0.0)
    assert (late["recall_all@10"], late["recall_any@10"]) == (1.0, 1.0)
    half = score_query(["a"] + ["x"] * 12 + ["b"], gold=["a", "b"])  # b is 14th
    assert (half["recall_all@10"], half["recall_any@10"], half["R@10"]) == (0.0, 1.0, 0.5)
    out = aggregate([("linked", m), ("linked", both), ("temporal", late), ("temporal", half)])
    assert out["linked"]["recall_all@5"] == 0.5 and out["linked"]["recall_any@5"] == 1.0
    assert out["temporal"]["recall_all@10"] == 0.5 and out["temporal"]["recall_any@5"] == 0.5
    assert out["ALL"]["recall_all@10"] == 0.5 and out["ALL"]["recall_any@10"] == 1.0


def test_late_first_hit_and_misses():
    m = score_query(["x", "y", "q"], gold=["q"])
    assert (m["R@5"], m["R@10"], m["P@5"], m["hit@5"]) == (1.0, 1.0, 0.2, 1.0)
    assert m["MRR"] == pytest.approx(1 / 3)
    assert m["nDCG@10"] == pytest.approx(0.5)  # 1/log2(4) over 1
    assert m["avoid@5"] == 0.0
    miss = score_query(["x"] * 5 + ["g"], gold=["g"], avoid=["y"])
    assert (miss["R@5"], miss["hit@5"], miss["avoid@5"]) == (0.0, 0.0, 0.0)
    assert miss["R@10"] == 1.0 and miss["MRR"] == pytest.approx(1 / 6)
    assert score_query([], gold=["g"])["MRR"] == 0.0
    with pytest.raises(ValueError):
        score_query(["a"], gold=[])


def test_aggregate_means_per_category_and_all():
    a = score_query(["a", "b"], gold=["a", "b"])  # perfect
    b = score_query(["x", "y", "q"], gold=["q"], avoid=["x"])  # MRR 1/3, avoid hit
    c = score_query(["n"], gold=["g"])  # nothing
    out = aggregate([("about", a), ("about", b), ("keyword", c)])
    assert list(out) == ["ALL", "about", "keyword"]
    assert out["ALL"]["n"] == 3 and out["about"]["n"] == 2 and out["keyword"]["n"] == 1
    assert out["about"]["MRR"] == pytest.approx((1 + 1 / 3) / 2, abs=1e-4)
    assert out["ALL"]["R@5"] == pytest.approx(2 / 3, abs=1e-4)
    assert out["ALL"]["avoid@5"] == pytest.approx(1 / 3, abs=1e-4)  # share of all scored queries
    assert out["keyword"]["hit@5"] == 0.0


def test_percentiles():
    assert percentiles([]) == {"p50": 0.0, "p95": 0.0}
    p = percentiles([float(i) for i in range(1, 101)])
    assert p["p50"] == pytest.approx(50.5) and p["p95"] == pytest.approx(95.05)


def test_dataset_format_is_checked(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "other"}))
    with pytest.raises(InvalidInput):
        load_dataset(bad)
    good = tmp_path / "good.json"
    good.write_text(
        json.dumps(
            {
                "format": "memory-eval/1",
                "name": "t",
                "spaces": [{"id": "s", "now": "2025-01-01T00:00:00+00:00", "neurons": [], "queries": []}],
            }
        )
    )
    assert load_dataset(good)["name"] == "t"


def test_neurons_eval_prints_the_format(tmp_path):
    """The real command on a tiny dataset: one JSON object on stdout, shaped as FORMAT.md says."""
    data = {
        "format": "memory-eval/1",
        "name": "tiny",
        "spaces": [
            {
                "id": "a",
                "now": "2025-06-11T19:30:00+01:00",
                "neurons": [
                    {
                        "id": "c-ana",
                        "kind": "contact",
                        "text": "Ana Silva",
                        "created_at": "2025-01-01T10:00:00+00:00",
                        "attrs": {"name": "Ana Silva", "aliases": ["Ana"]},
                    },
                    {
                        "id": "n-1",
                        "kind": "note",
                        "text": "booking ref QH7T2M for Lisbon",
                        "created_at": "2025-02-01T10:00:00+00:00",
                    },
                    {
                        "id": "n-2",
                        "kind": "note",
                        "text": "Ana's new number is 912 345 678",
                        "created_at": "2025-03-01T10:00:00+00:00",
                    },
                    {
                        "id": "r-1",
                        "kind": "reminder",
                        "text": "call Ana about the flat",
                        "created_at": "2025-06-09T10:00:00+00:00",
                        "attrs": {"due_at": "2025-06-17T09:00:00+01:00"},
                    },
                ],
                "edges": [
                    {
                        "from": "n-2",
                        "to": "c-ana",
                        "type": "supersedes",
                        "valid_from": "2025-03-01T10:00:00+00:00",
                        "valid_to": None,
                    },
                    {
                        "from": "r-1",
                        "to": "c-ana",
                        "type": "concerns",
                        "valid_from": "2025-06-09T10:00:00+00:00",
                        "valid_to": None,
                    },
                ],
                "queries": [
                    {"id": "q1", "text": "QH7T2M", "category": "keyword", "gold": ["n-1"]},
                    {"id": "q2", "text": "what's on next week?", "category": "temporal", "gold": ["r-1"]},
                    {"id": "q3", "text": "nothing to score", "category": "keyword", "gold": []},
                    {
                        "id": "q4",
                        "text": "Ana's number",
                        "category": "superseded",
                        "gold": ["n-2"],
                        "avoid": ["c-ana"],
                    },
                ],
            },
            {
                "id": "b",
                "now": "2025-06-11T19:30:00+01:00",
                "neurons": [
                    {
                        "id": "n-1",
                        "kind": "note",
                        "text": "booking ref QH7T2M for Rome",
                        "created_at": "2025-02-01T10:00:00+00:00",
                    }
                ],
                "queries": [{"id": "q1", "text": "Rome", "category": "keyword", "gold": ["n-1"]}],
            },
        ],
    }
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data))
    proc = run_cli(
        "eval",
        str(path),
        "--json",
        "--modes",
        "default,keyword",
        "--edges",
        "both",
        data_dir=tmp_path / "data",
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)  # the whole of stdout is one JSON object
    assert set(report) == {"dataset", "edges", "queries", "ingest_s", "latency_ms", "modes"}
    assert report["dataset"] == "tiny" and report["edges"] == "both" and report["queries"] == 4
    assert set(report["latency_ms"]) == {"p50", "p95"} and report["latency_ms"]["p95"] > 0
    assert list(report["modes"]) == ["default", "keyword"]
    default = report["modes"]["default"]
    assert set(default) == {"ALL", "keyword", "temporal", "superseded"}
    assert set(default["ALL"]) == {
        "n",
        "R@5",
        "R@10",
        "recall_all@5",
        "recall_all@10",
        "recall_any@5",
        "recall_any@10",
        "P@5",
        "hit@5",
        "MRR",
        "nDCG@10",
        "avoid@5",
    }
    assert default["ALL"]["n"] == 4 and default["keyword"]["n"] == 2
    assert default["keyword"]["R@5"] == 1.0  # spaces are isolated: each finds its own n-1
    assert default["temporal"]["hit@5"] == 1.0
    table = run_cli("eval", str(path), "--modes", "keyword", data_dir=tmp_path / "data2", timeout=300)
    assert table.returncode == 0 and "R@10" in table.stdout and "keyword" in table.stdout
