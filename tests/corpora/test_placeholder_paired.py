"""Two placeholder detectors compared on the same decisions, with a paired interval."""

from __future__ import annotations

import pytest

from hf_anon.corpora.placeholders.scoring import paired_difference as paired

# per decision: key hits, key, predicted hits, predicted, labels right
BEFORE = [(8, 10, 8, 8, 6), (5, 5, 5, 5, 5), (0, 4, 0, 0, 0), (3, 3, 3, 3, 2)]


def test_the_same_detector_twice_is_a_tie_at_zero():
    result = paired(BEFORE, BEFORE, samples=200)
    for metric in ("precision", "recall", "f1", "label_accuracy"):
        assert result[metric]["difference"] == 0
        assert result[metric]["interval"] == [0, 0]


def test_a_detector_that_finds_more_gains_recall_with_an_interval_above_zero():
    after = [(10, 10, 10, 11, 8), (5, 5, 5, 5, 5), (3, 4, 3, 3, 3), (3, 3, 3, 3, 2)]
    result = paired(BEFORE * 5, after * 5, samples=500)  # 20 decisions
    recall = result["recall"]
    assert recall["before"] == round(16 / 22, 4) and recall["after"] == round(21 / 22, 4)
    assert recall["difference"] > 0 and recall["interval"][0] > 0
    low, high = result["precision"]["interval"]
    assert low <= result["precision"]["difference"] <= high


def test_detectors_on_different_decisions_are_refused():
    with pytest.raises(ValueError, match="not paired"):
        paired(BEFORE, BEFORE[:3])


def test_the_benchmark_records_both_detectors_in_its_command(tmp_path):
    """``benchmarks/placeholder_paired.py``: the report says which two detectors it paired
    (``--after`` too), so that its figures can be made again."""
    import importlib
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    script = importlib.import_module("placeholder_paired")
    text = "Der Kläger A. wohnt in B-Stadt. Die Beklagte C. GmbH bestreitet das."
    key = tmp_path / "key.jsonl"
    placeholders = [{"start": text.index("A."), "end": text.index("A.") + 2, "label": "nat-name"}]
    key.write_text(json.dumps({"id": "k", "text": text, "placeholders": placeholders}) + "\n")
    out = tmp_path / "paired"
    args = ["--before", "rules", "--after", "rules", "--key", str(key), "--output", str(out)]
    assert script.main(args) == 0
    report = (tmp_path / "paired.md").read_text()
    assert "--before rules --after rules --key" in report
    assert json.loads((tmp_path / "paired.json").read_text())["recall"]["difference"] == 0
