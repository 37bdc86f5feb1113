"""The :class:`TopicRedactor`: candidates scored for topics, the spans to redact."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from hf_anon.apply.topics.candidates import Candidate, find_candidates
from hf_anon.apply.topics.definitions import (
    BUILTIN_TOPICS,
    PREFIX,
    Topic,
    TopicError,
    resolve_topics,
)
from hf_anon.apply.topics.embeddings import TopicEncoder, TopicScorer
from hf_anon.text.data import Span


@dataclass(frozen=True)
class TopicSpan:
    """A redacted phrase: ``topic:<name>`` with its score (the margin over λ is
    ``score - threshold``)."""

    start: int
    end: int
    topic: str
    score: float
    text: str

    @property
    def label(self) -> str:
        return PREFIX + self.topic

    def to_span(self) -> Span:
        return Span(self.start, self.end, self.label, "high", round(self.score, 4))

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "end": self.end,
            "label": self.label,
            "score": round(self.score, 4),
            "text": self.text,
        }


class TopicRedactor:
    """Find (and redact) what texts say about persons' origin, religion, health, sexuality.

    >>> redactor = TopicRedactor.from_pretrained(topics=["herkunft", "religion"])  # doctest: +SKIP
    >>> redactor.find(["Der Kläger ist syrischer Staatsangehöriger."])  # doctest: +SKIP
    [[TopicSpan(start=15, end=43, topic='herkunft', score=0.25, text='syrischer …')]]

    ``threshold`` overrides every topic's λ (higher: fewer, surer redactions).
    """

    def __init__(
        self,
        encoder: TopicEncoder,
        topics: Sequence[str | Topic] = tuple(BUILTIN_TOPICS),
        *,
        threshold: float | None = None,
        decision: str = "contrast",
    ):
        self.topics = resolve_topics(topics)
        if threshold is not None:
            self.topics = [replace(t, threshold=threshold) for t in self.topics]
        self.scorer = TopicScorer(encoder, self.topics, decision=decision)

    @classmethod
    def from_pretrained(
        cls,
        encoder: str | Path | None = None,
        *,
        topics: Sequence[str | Topic] = tuple(BUILTIN_TOPICS),
        threshold: float | None = None,
        decision: str = "contrast",
        progress: bool = False,
    ) -> TopicRedactor:
        topics = resolve_topics(topics)  # a bad topic fails before the encoder loads
        return cls(
            TopicEncoder.from_pretrained(encoder, progress=progress),
            topics,
            threshold=threshold,
            decision=decision,
        )

    def score_candidates(
        self, texts: Sequence[str], person_spans: Sequence[Iterable[Span]] | None = None
    ) -> list[list[tuple[Candidate, np.ndarray]]]:
        """Every candidate of every text with its score per topic (for λ curves)."""
        if isinstance(texts, str):
            raise TypeError("pass a list of texts; wrap a single text in a list")
        persons = person_spans or [()] * len(texts)
        cands = [find_candidates(t, p) for t, p in zip(texts, persons, strict=True)]
        flat = [c.text for cs in cands for c in cs]
        scores = self.scorer.scores(flat)
        out, k = [], 0
        for cs in cands:
            out.append([(c, scores[k + i]) for i, c in enumerate(cs)])
            k += len(cs)
        return out

    def find(
        self, texts: Sequence[str], person_spans: Sequence[Iterable[Span]] | None = None
    ) -> list[list[TopicSpan]]:
        """The topic spans of each text (sorted, not overlapping)."""
        return self.decide(self.score_candidates(texts, person_spans))

    def decide(
        self, scored: Sequence[Sequence[tuple[Candidate, np.ndarray]]], lam: float | None = None
    ) -> list[list[TopicSpan]]:
        """Spans from scored candidates: each candidate for its best topic where the score
        reaches that topic's λ (``lam``: one λ for all, as a λ curve needs)."""
        out = []
        for doc in scored:
            spans = []
            for cand, scores in doc:
                best = int(np.argmax(scores))
                topic = self.topics[best]
                if scores[best] >= (topic.lam if lam is None else lam):
                    spans.append(
                        TopicSpan(cand.start, cand.end, topic.name, float(scores[best]), cand.text)
                    )
            out.append(without_overlaps(spans))
        return out

    def redact(self, text: str, *, mode: str = "redact", mask: str = "[…]") -> str:
        """``text`` with its topic spans replaced (``label``: ``<topic:NAME>``)."""
        spans = self.find([text])[0]
        return splice(text, spans, mode=mode, mask=mask)


def without_overlaps(spans: list[TopicSpan]) -> list[TopicSpan]:
    """Of overlapping spans keep the higher-scored one (then the longer)."""
    kept: list[TopicSpan] = []
    for span in sorted(spans, key=lambda s: (-s.score, s.start - s.end)):
        if all(span.end <= k.start or span.start >= k.end for k in kept):
            kept.append(span)
    return sorted(kept, key=lambda s: s.start)


#: How topic spans can be replaced: the mask, or ``<topic:NAME>``.
TOPIC_MODES = ("redact", "label")


def topic_mode_for(mode: str) -> str:
    """The topic mode that goes with an anonymization mode: ``label`` with ``label``, else
    ``redact`` (a topic phrase has no pseudonym or initials)."""
    return "label" if mode == "label" else "redact"


def render(span: TopicSpan | Span, *, mode: str = "redact", mask: str = "[…]") -> str:
    """The replacement of a topic span: the mask (``redact``) or ``<topic:NAME>``."""
    if mode == "redact":
        return mask
    if mode == "label":
        return f"<{span.label}>"
    raise TopicError(f"topic spans are replaced by {' or '.join(TOPIC_MODES)}, not {mode!r}")


def splice(text: str, spans: Iterable[TopicSpan], *, mode: str = "redact", mask: str = "[…]"):
    pieces, cursor = [], 0
    for span in sorted(spans, key=lambda s: s.start):
        pieces += (text[cursor : span.start], render(span, mode=mode, mask=mask))
        cursor = span.end
    pieces.append(text[cursor:])
    return "".join(pieces)
