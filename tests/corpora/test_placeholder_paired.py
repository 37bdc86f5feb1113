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
