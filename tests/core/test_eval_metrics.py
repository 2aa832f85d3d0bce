"""The eval harness's metrics on tiny cases computed by hand (shared/eval/FORMAT.md "Scoring")."""

from __future__ import annotations

import json
import math

import pytest

from core.recall.evaluate import aggregate, load_dataset, percentiles, score_query
from core.model import InvalidInput


def test_one_query_by_hand():
    ranked = ["a", "x", "b", "y", "z", "c", None, "w", "v", "u", "d"]  # d is 11th: not counted
    m = score_query(ranked, gold=["a", "b", "c", "d"], avoid=["z"])
    assert m["R@5"] == 0.5                      # a, b of 4
    assert m["R@10"] == 0.75                    # a, b, c of 4
    assert m["P@5"] == 0.4                      # 2 of 5
    assert m["hit@5"] == 1.0
    assert m["MRR"] == 1.0                      # a is first
    dcg = 1 / math.log2(2) + 1 / math.log2(4) + 1 / math.log2(7)        # ranks 1, 3, 6
    idcg = sum(1 / math.log2(i + 2) for i in range(4))                   # 4 gold at ranks 1-4
    assert m["nDCG@10"] == pytest.approx(dcg / idcg)
    assert m["nDCG@10"] == pytest.approx(0.72463, abs=1e-5)
    assert m["avoid@5"] == 1.0                  # z is 5th


def test_late_first_hit_and_misses():
    m = score_query(["x", "y", "q"], gold=["q"])
    assert (m["R@5"], m["R@10"], m["P@5"], m["hit@5"]) == (1.0, 1.0, 0.2, 1.0)
    assert m["MRR"] == pytest.approx(1 / 3)
    assert m["nDCG@10"] == pytest.approx(0.5)   # 1/log2(4) over 1
    assert m["avoid@5"] == 0.0
    miss = score_query(["x"] * 5 + ["g"], gold=["g"], avoid=["y"])
    assert (miss["R@5"], miss["hit@5"], miss["avoid@5"]) == (0.0, 0.0, 0.0)
    assert miss["R@10"] == 1.0 and miss["MRR"] == pytest.approx(1 / 6)
    assert score_query([], gold=["g"])["MRR"] == 0.0
    with pytest.raises(ValueError):
        score_query(["a"], gold=[])


def test_aggregate_means_per_category_and_all():
    a = score_query(["a", "b"], gold=["a", "b"])              # perfect
    b = score_query(["x", "y", "q"], gold=["q"], avoid=["x"])  # MRR 1/3, avoid hit
    c = score_query(["n"], gold=["g"])                         # nothing
    out = aggregate([("about", a), ("about", b), ("keyword", c)])
    assert list(out) == ["ALL", "about", "keyword"]
    assert out["ALL"]["n"] == 3 and out["about"]["n"] == 2 and out["keyword"]["n"] == 1
    assert out["about"]["MRR"] == pytest.approx((1 + 1 / 3) / 2, abs=1e-4)
    assert out["ALL"]["R@5"] == pytest.approx(2 / 3, abs=1e-4)
    assert out["ALL"]["avoid@5"] == pytest.approx(1 / 3, abs=1e-4)   # share of all scored queries
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
    good.write_text(json.dumps({"format": "memory-eval/1", "name": "t", "spaces": [
        {"id": "s", "now": "2025-01-01T00:00:00+00:00", "neurons": [], "queries": []}]}))
    assert load_dataset(good)["name"] == "t"
