"""A name the model found is a name in every mention: the other mentions of its exact
characters become spans of the same label.

A company introduced once with its legal form (``有限会社三星住設``) is written twenty times
after it (``三星住設は``, ``三星住設に対し``); the model, reading 256-token windows, marks
some mentions and misses others where the context says little (``原告は，三星住設に対し``).
Japanese has no capital letters to carry the name through. What the model marked once with
confidence is marked everywhere, the way ``hf-anon anonymize``'s leak check protects a
replaced name's other mentions, but here in the spans themselves, so that ``detect``, the
review in Label Studio and the metrics see them too.

Only names of people and organisations spread (:data:`SPREAD_LABELS`), of two characters or
more, not a court's placeholder (``Ａ``: the placeholder detector finds those), and only
onto mentions whose edges fall on the analyzer's word boundaries (``三星`` does not spread
into ``三星電子`` where that is one word). Longer names go first, so ``三星住設`` is marked
before ``三星`` could take its first half.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hf_anon.text.data import Span
from hf_anon.text.japanese_words import PLACEHOLDER
from hf_anon.text.languages import merge_overlapping

#: Labels whose spans spread to the other mentions of their characters
SPREAD_LABELS = frozenset({"nat-name", "nat-jur", "jur-name"})
#: The least score of a span whose name spreads: a name the model was sure of. Chosen on the
#: real validation half (0.7 and 0.8 tie there; 0 spreads the model's doubtful
#: organisations, ``はり師`` ×9, and costs 0.024 precision; ``reports/ja_gold/README.md``)
MIN_SCORE = 0.7


def spread_names(text: str, spans: Sequence[Span], boundaries: frozenset[int]) -> list[Span]:
    """``spans`` and, for each name of :data:`SPREAD_LABELS`, a span on every other mention
    of its characters that starts and ends on ``boundaries`` (the offsets where the word
    analyzer puts word edges) and overlaps no span yet; overlaps then merged."""
    names: dict[str, Span] = {}
    for span in spans:
        surface = text[span.start : span.end]
        if (
            span.label in SPREAD_LABELS
            and len(surface.strip()) >= 2
            and "\n" not in surface
            and not PLACEHOLDER.search(surface)  # the placeholder detector's work
            and (span.score is None or span.score >= MIN_SCORE)
        ):
            best = names.get(surface)
            if best is None or (span.score or 0.0) > (best.score or 0.0):
                names[surface] = span
    if not names:
        return list(spans)
    taken = sorted((s.start, s.end) for s in spans)
    added: list[Span] = []
    for surface in sorted(names, key=len, reverse=True):
        source = names[surface]
        for match in re.finditer(re.escape(surface), text):
            start, end = match.span()
            if start not in boundaries or end not in boundaries:
                continue
            if any(a < end and start < b for a, b in taken):
                continue
            added.append(Span(start, end, source.label, source.risk, source.score))
            taken.append((start, end))
    return merge_overlapping([*spans, *added])
