"""Placeholder detection scored against a key (seed 000, table 6.1)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hf_anon.data import Span


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
    precision = tp_pred / n_pred if n_pred else (1.0 if n_key == 0 else 0.0)
    recall = tp_key / n_key if n_key else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    total = tp_key + tn + fp + fn
    return DetectorScores(
        accuracy=(tp_key + tn) / total if total else 1.0,
        precision=precision,
        recall=recall,
        specificity=tn / (tn + fp) if tn + fp else 1.0,
        f1=f1,
        label_accuracy=labels_correct / tp_key if tp_key else 1.0,
        tp=tp_key,
        fp=fp,
        fn=fn,
        tn=tn,
        key=n_key,
        predicted=n_pred,
        labels_correct=labels_correct,
    )


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
