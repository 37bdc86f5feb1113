"""The recognizer type: a named rule whose ``find(text)`` gives spans, matched on the text's
NFC form with offsets mapped back (characters, end exclusive)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from hf_anon.text.data import Span


@dataclass(frozen=True)
class Recognizer:
    """A named rule: ``find(text)`` gives spans (label and risk set, score 1.0)."""

    name: str
    labels: tuple[str, ...]
    find: Callable[[str], list[Span]]
    description: str = ""

    def __call__(self, text: str) -> list[Span]:
        """Spans on ``text``; rules match its NFC form (decomposed umlauts occur in real
        decisions), offsets are mapped back to ``text``."""
        normal, starts = nfc_view(text)
        if starts is None:
            return self.find(text)
        ends = [*starts[1:], len(text)]
        return [
            Span(starts[s.start], ends[s.end - 1], s.label, s.risk, s.score)
            for s in self.find(normal)
        ]


def nfc_view(text: str) -> tuple[str, list[int] | None]:
    """``text`` in NFC and, if that changed it, the start in ``text`` of each NFC character."""
    if unicodedata.is_normalized("NFC", text):
        return text, None
    pieces, starts, i = [], [], 0
    while i < len(text):
        j = i + 1
        while j < len(text) and unicodedata.combining(text[j]):
            j += 1
        composed = unicodedata.normalize("NFC", text[i:j])
        pieces.append(composed)
        starts += [i] * len(composed)
        i = j
    return "".join(pieces), starts


def rule_span(start: int, end: int, label: str, risk: str) -> Span:
    """A span found by a rule: label and risk set, score 1.0."""
    return Span(start, end, label, risk, 1.0)
