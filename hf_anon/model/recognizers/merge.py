"""Hybrid detection: the model's spans and the rules' merged into one list, for recall."""

from __future__ import annotations

from collections.abc import Sequence

from hf_anon.model.recognizers.registry import resolve_overlaps
from hf_anon.text.data import Span


def merge_with_rules(
    model_spans: Sequence[Span], rule_spans: Sequence[Span], text: str
) -> list[Span]:
    """The model's spans and the rules', merged for recall.

    - a rule span that overlaps no model span is added as it is (the rule found what the
      model missed: ``M 12 K 20.1234``);
    - where rule and model spans overlap, one span covers them all (union of characters,
      so neither side's edge is lost) and **the model decides label and risk** (the label
      of its longest span there), with the highest score;
    - model spans no rule touches stay as they are;
    - a model span that runs over two or more rule spans (``Verwaltungsgericht München`` and
      ``M 12 K 20.1234`` tagged as one) is cut at the rules' edges: each rule span keeps its
      own label, the pieces of the model span between them keep the model's.
    """
    groups: list[list[tuple[Span, bool]]] = []
    for span, from_model in sorted(
        [(s, True) for s in model_spans] + [(s, False) for s in rule_spans],
        key=lambda t: (t[0].start, -t[0].end),
    ):
        if groups and span.start < max(s.end for s, _ in groups[-1]):
            groups[-1].append((span, from_model))
        else:
            groups.append([(span, from_model)])
    out = []
    for group in groups:
        if len(group) == 1:
            out.append(group[0][0])
            continue
        rules = [s for s, m in group if not m]
        if len(rules) > 1:
            out += _split_by_rules(text, [s for s, m in group if m], rules)
            continue
        models = [s for s, m in group if m] or [s for s, _ in group]
        lead = max(models, key=lambda s: (s.end - s.start, s.score or 0.0))
        score = max((s.score or 0.0) for s, _ in group)
        start, end = min(s.start for s, _ in group), max(s.end for s, _ in group)
        out.append(Span(start, end, lead.label, lead.risk, round(score, 6)))
    return out


def _split_by_rules(text: str, model_spans: Sequence[Span], rules: Sequence[Span]) -> list[Span]:
    """The rule spans, plus what of the model spans lies outside them (by the model)."""
    out = list(rules)

    def piece(start: int, end: int, span: Span) -> None:
        while start < end and not text[start].isalnum():
            start += 1
        while end > start and not text[end - 1].isalnum():
            end -= 1
        if start < end:
            out.append(Span(start, end, span.label, span.risk, span.score))

    for span in model_spans:
        cursor = span.start
        for rule in sorted(rules):
            if rule.end <= cursor or rule.start >= span.end:
                continue
            piece(cursor, rule.start, span)
            cursor = max(cursor, rule.end)
        piece(cursor, span.end, span)
    return resolve_overlaps(sorted(out, key=lambda s: -(s.end - s.start)))
