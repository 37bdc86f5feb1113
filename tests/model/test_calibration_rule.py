"""The calibration's rule: high-risk recall first, then F-beta; with a slack of standard
errors, a difference that sampling noise cannot tell apart no longer buys a span with
whole points of precision."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.model.calibration import (
    Calibration,
    calibrate,
    choose,
    high_risk_floor,
    high_risk_purchases,
    keeping_high_risk,
    read_calibration,
    standard_error,
    write_calibration,
)
from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS


class ScoredSpans:
    """A detector whose 'model output' is a list of scored spans per document: decoding
    keeps those whose score reaches their label's threshold."""

    labels = DEFAULT_LABELS
    recognizers = ()

    def __init__(self):
        self.label_thresholds = {}

    def predict_probabilities(self, documents, **_):
        raise AssertionError("the tests pass the output")

    def decode_all(self, outputs):
        return [
            [s for s in spans if s.score >= self.label_thresholds.get(s.label, 0.5)]
            for spans in outputs
        ]


def names_document(found_sure: int, found_unsure: int, missed: int, noise: int):
    """One document of ``found_sure + found_unsure + missed`` high-risk names: the model
    is sure of the first (score 0.9), unsure of the next (0.1) and blind to the rest; it
    also gives ``noise`` words that are no names a score of 0.1."""
    total = found_sure + found_unsure + missed + noise
    text = "".join(f"W{i:04d} " for i in range(total))
    gold, output = [], []
    for i in range(total):
        start, end = 6 * i, 6 * i + 5
        is_name = i < found_sure + found_unsure + missed
        if is_name:
            gold.append(Span(start, end, "nat-name", risk="high"))
        if i < found_sure:
            output.append(Span(start, end, "nat-name", score=0.9))
        elif i < found_sure + found_unsure or not is_name:
            output.append(Span(start, end, "nat-name", score=0.1))
    return Document(id="names", text=text, spans=gold), output


def calibrate_names(doc, output, slack_se: float = 0.0) -> Calibration:
    """The calibration of one document's scored names on a grid of two thresholds."""
    return calibrate(
        ScoredSpans(),
        [doc],
        probabilities=[output],
        grid=(0.1, 0.3),
        rounds=1,
        high_risk_slack_se=slack_se,
    )


def test_without_slack_every_high_risk_span_is_bought_whatever_it_costs():
    doc, output = names_document(found_sure=296, found_unsure=4, missed=0, noise=60)
    result = calibrate_names(doc, output)

    # four more names cost sixty false positives: the rule pays
    assert result.thresholds["nat-name"] == 0.1
    assert result.after["recall_high"] == 1.0 and result.after["precision"] < 0.85


def test_a_slack_of_one_standard_error_keeps_precision_when_the_gain_is_noise():
    doc, output = names_document(found_sure=296, found_unsure=4, missed=0, noise=60)
    result = calibrate_names(doc, output, slack_se=1.0)

    # 296 of 300 lies within one standard error of the target 0.99 on 300 spans
    assert result.thresholds["nat-name"] == 0.3
    assert result.after["precision"] == 1.0
    assert result.after["recall_high"] >= result.high_risk_floor
    assert result.high_risk_floor == pytest.approx(0.99 - standard_error(0.99, 300))


def test_a_gain_larger_than_the_noise_is_still_bought_with_a_slack():
    doc, output = names_document(found_sure=270, found_unsure=30, missed=0, noise=60)
    result = calibrate_names(doc, output, slack_se=1.0)

    # thirty names (0.90 against 1.00) are far outside one standard error
    assert result.thresholds["nat-name"] == 0.1


def test_a_negative_slack_is_refused():
    doc, output = names_document(1, 0, 0, 0)
    with pytest.raises(ValueError, match="0 or more"):
        calibrate(ScoredSpans(), [doc], probabilities=[output], high_risk_slack_se=-1)


@given(
    recall=st.floats(0.0, 1.0),
    spans=st.integers(0, 10_000),
    slack=st.floats(0.0, 3.0),
    target=st.floats(0.5, 1.0),
)
def test_the_floor_lies_at_or_below_what_was_reached(recall, spans, slack, target):
    summary = {"recall_high": recall, "high_spans": spans}
    floor = high_risk_floor(summary, target, slack)

    assert floor <= min(recall, target)
    assert high_risk_floor(summary, target, 0.0) == min(recall, target)
    assert 0.0 <= standard_error(recall, spans) <= 0.5


def calibration(recall_high: float, f_beta: float, spans: int = 1300) -> Calibration:
    after = {"recall_high": recall_high, "f_beta": f_beta, "high_spans": spans}
    return Calibration({}, [], {}, after, 2.0, 0.99, 43)


def test_choosing_among_checkpoints_by_the_same_rule():
    candidates = {
        "step-200": calibration(0.982, 0.931),
        "step-300": calibration(0.975, 0.934),
        "step-400": calibration(0.981, 0.933),
    }

    # without slack the highest high-risk recall wins, however small the lead
    assert choose(candidates) == "step-200"
    # one standard error on 1,300 spans is about 0.004: step-400 ties step-200 and wins on
    # F2; step-300 lies outside
    assert choose(candidates, slack_se=1.0) == "step-400"
    with pytest.raises(ValueError, match="no candidates"):
        choose({})


def test_no_candidate_replaces_the_incumbent_with_less_high_risk_recall():
    # session 43: a recipe that trades recall for precision cleared the slack's floor by
    # 0.0004 and had the best F2
    candidates = {
        "shipped": calibration(0.9741, 0.937, spans=1774),
        "gpu-12l": calibration(0.9713, 0.941, spans=1774),
        "next-stage": calibration(0.9746, 0.9374, spans=1774),
    }
    assert choose(candidates, slack_se=1.0) == "gpu-12l"
    assert choose(candidates, slack_se=1.0, incumbent="shipped") == "next-stage"
    # a gate refused it: the rule's next choice, and with none left the incumbent stays
    assert choose(candidates, slack_se=1.0, incumbent="shipped", vetoed={"next-stage"}) == (
        "shipped"
    )
    with pytest.raises(ValueError, match="not among the candidates"):
        choose(candidates, incumbent="elsewhere")
    with pytest.raises(ValueError, match="vetoed"):
        choose(candidates, vetoed=set(candidates))


def test_a_choice_on_other_decisions_counts_its_floor_from_the_incumbent():
    # session 57: the best candidate's 0.987 less one error (0.984) put the model in use
    # (0.979) below the slack's floor by one span; the paired choice counts its floor from
    # the incumbent's own high-risk recall
    candidates = {
        "default": calibration(0.979, 0.907, spans=1400),
        "o200": calibration(0.987, 0.899, spans=1400),
        "o400": calibration(0.9839, 0.898, spans=1400),
        "soup": calibration(0.975, 0.910, spans=1400),
    }
    assert choose(candidates, slack_se=1.0, incumbent="default") == "o200"
    assert keeping_high_risk(candidates, "default") == ["o200", "o400"]
    # session 58: one span below the incumbent (0.984 against 0.987 of 378) kept a candidate
    # from the reading that decides; one standard error (0.006) of slack lets it be read
    session58 = {
        "default": calibration(0.987, 0.899, spans=378),
        "c440": calibration(0.984, 0.899, spans=378),
        "c880": calibration(0.9815, 0.903, spans=378),
        "worse": calibration(0.975, 0.910, spans=378),
    }
    assert keeping_high_risk(session58, "default") == []
    assert keeping_high_risk(session58, "default", slack_se=1.0) == ["c440", "c880"]
    # capped at the target: above it more recall no longer counts
    capped = {"in use": calibration(0.999, 0.9), "next": calibration(0.991, 0.95)}
    assert keeping_high_risk(capped, "in use") == ["next"]
    with pytest.raises(ValueError, match="not among the candidates"):
        keeping_high_risk(candidates, "elsewhere")


def test_above_the_target_recall_no_longer_counts():
    candidates = {"a": calibration(0.999, 0.90), "b": calibration(0.991, 0.95)}
    assert choose(candidates) == "b"


def test_a_stored_calibration_is_read_back_only_for_the_same_gold_and_rule(tmp_path):
    doc, output = names_document(found_sure=8, found_unsure=1, missed=1, noise=2)
    made = calibrate_names(doc, output, slack_se=1.0)
    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    write_calibration(tmp_path, made, "val.jsonl + more.jsonl")

    rule = {"beta": 2.0, "target_high": 0.99, "slack_se": 1.0}
    assert read_calibration(tmp_path, gold="val.jsonl + more.jsonl", **rule) == made
    assert read_calibration(tmp_path, gold="val.jsonl", **rule) is None  # other gold
    assert (
        read_calibration(tmp_path, gold="val.jsonl + more.jsonl", **rule | {"slack_se": 0.0})
        is None
    )
    assert read_calibration(tmp_path / "nothing", gold="val.jsonl", **rule) is None


def test_what_high_risk_recall_was_bought_with_is_told():
    doc, output = names_document(found_sure=296, found_unsure=4, missed=0, noise=60)
    result = calibrate_names(doc, output)

    (purchase,) = high_risk_purchases(result)
    assert (purchase.label, purchase.threshold) == ("nat-name", 0.1)
    assert (purchase.high_spans, purchase.of_high_spans) == (4, 300)
    assert purchase.precision == pytest.approx(300 / 360 - 1.0)  # sixty false names
    assert purchase.f_beta < 0
    assert purchase.describe().startswith("nat-name 0.1: +4 of 300 high-risk spans")


def test_nothing_is_told_where_no_high_risk_span_was_bought():
    # with a slack, four names of three hundred are noise: the threshold stays
    doc, output = names_document(found_sure=296, found_unsure=4, missed=0, noise=60)
    assert high_risk_purchases(calibrate_names(doc, output, slack_se=1.0)) == []
    # a record written before the history began with its start: its first move is skipped
    old = calibrate_names(doc, output)
    old.history = [h for h in old.history if h["label"] != "(start)"]
    assert high_risk_purchases(old) == []
