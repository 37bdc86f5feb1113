"""Placeholder detection scored against a key (seed 000, table 6.1)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hf_anon.text.data import Span


@dataclass(frozen=True)
class DetectorScores:
    """Placeholder-level scores; a prediction matches a key placeholder if they overlap.

    True negatives are whitespace-separated text elements that overlap neither a key
    nor a predicted placeholder (the seed's text elements), so that accuracy and
    specificity have a denominator.
    """

    accuracy: float
    precision: float
    recall: float
    specificity: float
    f1: float
    label_accuracy: float
    tp: int
    fp: int
    fn: int
    tn: int
    key: int
    predicted: int
    labels_correct: int


def _overlaps(spans: Sequence[Span], other: Sequence[Span]) -> list[list[int]]:
    """For each span, the indices of spans in ``other`` overlapping it (both sorted)."""
    out, j = [], 0
    for s in spans:
        while j < len(other) and other[j].end <= s.start:
            j += 1
        k, hits = j, []
        while k < len(other) and other[k].start < s.end:
            hits.append(k)
            k += 1
        out.append(hits)
    return out


def score_placeholders(
    pairs: Sequence[tuple[str, Sequence[Span], Sequence[Span]]],
) -> DetectorScores:
    """Score ``(text, key, predicted)`` triples."""
    tp_key = fp = fn = tn = n_key = n_pred = tp_pred = labels_correct = 0
    for text, key, pred in pairs:
        key, pred = sorted(key), sorted(pred)
        n_key += len(key)
        n_pred += len(pred)
        key_hits = _overlaps(key, pred)
        pred_hits = _overlaps(pred, key)
        tp_key += sum(1 for h in key_hits if h)
        fn += sum(1 for h in key_hits if not h)
        tp_pred += sum(1 for h in pred_hits if h)
        fp += sum(1 for h in pred_hits if not h)
        for k, hits in zip(key, key_hits, strict=True):
            if hits:
                best = max(
                    hits, key=lambda i: min(k.end, pred[i].end) - max(k.start, pred[i].start)
                )
                labels_correct += pred[best].label == k.label
        tn += _untouched_elements(text, sorted([*key, *pred]))
    precision, recall, f1, label_accuracy = ratios(tp_key, n_key, tp_pred, n_pred, labels_correct)
    total = tp_key + tn + fp + fn
    return DetectorScores(
        accuracy=(tp_key + tn) / total if total else 1.0,
        precision=precision,
        recall=recall,
        specificity=tn / (tn + fp) if tn + fp else 1.0,
        f1=f1,
        label_accuracy=label_accuracy,
        tp=tp_key,
        fp=fp,
        fn=fn,
        tn=tn,
        key=n_key,
        predicted=n_pred,
        labels_correct=labels_correct,
    )


def ratios(
    key_hits: int, key: int, predicted_hits: int, predicted: int, labels_correct: int
) -> tuple[float, float, float, float]:
    """Precision, recall, F1 and label accuracy from counts (shared by the point estimate
    and every bootstrap draw, so that both treat empty counts alike)."""
    precision = predicted_hits / predicted if predicted else (1.0 if key == 0 else 0.0)
    recall = key_hits / key if key else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1, labels_correct / key_hits if key_hits else 1.0


def _overlap(a: Span, b: Span) -> int:
    return min(a.end, b.end) - max(a.start, b.start)


def _untouched_elements(text: str, spans: Sequence[Span]) -> int:
    """Whitespace-separated elements overlapping none of ``spans`` (sorted by start)."""
    count, j = 0, 0
    for m in re.finditer(r"\S+", text):
        while j < len(spans) and spans[j].end <= m.start():
            j += 1
        k = j
        while k < len(spans) and spans[k].start < m.end() and spans[k].end <= m.start():
            k += 1  # an earlier-starting span that ends before this element
        count += not (k < len(spans) and spans[k].start < m.end())
    return count


def bootstrap_interval(
    pairs: Sequence[tuple[str, Sequence[Span], Sequence[Span]]],
    metric: str,
    *,
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float]:
    """A percentile interval of ``metric`` (``precision``, ``recall``, ``f1`` or
    ``label_accuracy``) over decisions drawn with replacement: the decision, not the
    placeholder, is the unit of sampling, since one court's convention repeats within its
    decisions. Each decision is scored once; a draw only adds its counts."""
    import random

    position = METRICS.index(metric)
    counts = decision_counts(pairs)
    rng = random.Random(seed)
    values = []
    for _ in range(samples):
        draw = (sum(c) for c in zip(*rng.choices(counts, k=len(counts)), strict=True))
        values.append(ratios(*draw)[position])
    return percentile_bounds(values, level)


#: The figures :func:`ratios` gives, in its order.
METRICS = ("precision", "recall", "f1", "label_accuracy")


def decision_counts(
    pairs: Sequence[tuple[str, Sequence[Span], Sequence[Span]]],
) -> list[tuple[int, int, int, int, int]]:
    """Per decision: key hits, key, predicted hits, predicted, labels right (what a
    bootstrap draw adds up and :func:`ratios` turns into figures)."""
    per_doc = [score_placeholders([pair]) for pair in pairs]
    return [(s.tp, s.key, s.predicted - s.fp, s.predicted, s.labels_correct) for s in per_doc]


def paired_difference(
    before: Sequence[tuple[int, int, int, int, int]],
    after: Sequence[tuple[int, int, int, int, int]],
    *,
    samples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, dict]:
    """Each figure of two detectors on the same decisions (:func:`decision_counts` of each)
    and its difference with a paired percentile interval: every draw takes the same
    decisions for both, so the difference varies less than either figure."""
    import random

    if len(before) != len(after):
        raise ValueError(f"{len(before)} decisions before, {len(after)} after: not paired")
    whole = [ratios(*map(sum, zip(*c, strict=True))) for c in (before, after)]
    rng = random.Random(seed)
    diffs = []
    for _ in range(samples):
        picks = rng.choices(range(len(before)), k=len(before))
        b = ratios(*map(sum, zip(*(before[i] for i in picks), strict=True)))
        a = ratios(*map(sum, zip(*(after[i] for i in picks), strict=True)))
        diffs.append([y - x for x, y in zip(b, a, strict=True)])
    out = {}
    for k, metric in enumerate(METRICS):
        low, high = percentile_bounds([d[k] for d in diffs], level)
        out[metric] = {
            "before": round(whole[0][k], 4),
            "after": round(whole[1][k], 4),
            "difference": round(whole[1][k] - whole[0][k], 4),
            "interval": [round(low, 4), round(high, 4)],
        }
    return out


def percentile_bounds(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The two-sided percentile interval of bootstrap draws: the one rule every interval of
    the project uses (placeholder scores here, span scores in
    :mod:`hf_anon.model.metrics`)."""
    ordered = sorted(values)
    tail, last = (1 - level) / 2, len(ordered) - 1
    return ordered[int(tail * last)], ordered[int((1 - tail) * last)]


def score_by_group(
    pairs: Sequence[tuple[str, Sequence[Span], Sequence[Span]]], groups: Sequence[str]
) -> dict[str, DetectorScores]:
    """Scores per group (court family, source), groups in order of first appearance."""
    by: dict[str, list] = {}
    for pair, group in zip(pairs, groups, strict=True):
        by.setdefault(group, []).append(pair)
    return {group: score_placeholders(members) for group, members in by.items()}
