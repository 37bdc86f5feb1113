"""A reviewer's corrections of one decision: accept, reject, relabel, add, then publish.

The demo's review (and any other front end) keeps one :class:`Correction` per decision: the
spans the anonymizer found, doubtful ones first (:func:`hf_anon.apply.review.doubt`), each
``open`` until the reviewer accepts or rejects it, relabels it or changes its risk; spans
the model missed are added by their offsets. :meth:`Correction.publish` anonymizes the text
with the spans as they stand (rejected ones left out, open ones kept: nothing unreviewed is
let through in clear), and :meth:`Correction.gold` is the corrected annotation in the gold
format, the best training data there is.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from hf_anon.apply.anonymize.engine import replace_spans
from hf_anon.apply.anonymize.types import AnonymizationResult
from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet

OPEN, ACCEPTED, REJECTED, ADDED = "open", "accepted", "rejected", "added"
STATUSES = (OPEN, ACCEPTED, REJECTED, ADDED)


@dataclass
class Item:
    """One span under review and what the reviewer said of it."""

    span: Span
    status: str = OPEN
    doubt: str | None = None
    source: str = "detector"

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.span.start,
            "end": self.span.end,
            "label": self.span.label,
            "risk": self.span.risk,
            "score": self.span.score,
            "status": self.status,
            "doubt": self.doubt,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Item:
        span = Span(data["start"], data["end"], data["label"], data["risk"], data.get("score"))
        return cls(span, data["status"], data.get("doubt"), data.get("source", "detector"))


@dataclass
class Correction:
    """The review of one decision (``text``): its items in review order."""

    text: str
    items: list[Item] = field(default_factory=list)
    label_set: LabelSet = DEFAULT_LABELS
    #: the text's language: the operators' values and the leak check follow it
    language: str = "de"

    @classmethod
    def start(
        cls,
        text: str,
        record: dict[str, Any],
        label_set: LabelSet = DEFAULT_LABELS,
        language: str = "de",
    ):
        """A review of ``text`` from its review record (:func:`~hf_anon.apply.review.
        review_record`; a span may bring its ``status``, else it is open): doubtful spans
        first, then in text order."""
        items = [
            Item(
                Span(s["start"], s["end"], s["label"], s["risk"], s.get("score")),
                s.get("status", OPEN),
                s.get("doubt"),
                s.get("source", "detector"),
            )
            for s in record["spans"]
        ]
        items.sort(key=lambda i: (i.doubt is None, i.span.start))
        return cls(text, items, label_set, language)

    # -- what the reviewer does
    def _item(self, index: int) -> Item:
        if not 0 <= index < len(self.items):
            raise ValueError(f"no span #{index + 1}; there are {len(self.items)}")
        return self.items[index]

    def accept(self, index: int) -> None:
        item = self._item(index)
        item.status = ADDED if item.status == ADDED else ACCEPTED

    def reject(self, index: int) -> None:
        self._item(index).status = REJECTED

    def relabel(self, index: int, label: str | None = None, risk: str | None = None) -> None:
        """Change a span's label and/or risk (a new label brings its usual risk unless
        ``risk`` is given); the span counts as accepted."""
        item = self._item(index)
        if label is not None and label not in self.label_set:
            raise ValueError(f"unknown label {label!r}")
        if risk is not None and risk not in self.label_set.risks:
            raise ValueError(f"unknown risk {risk!r}")
        new_label = label or item.span.label
        new_risk = risk or (self.label_set[new_label].risk if label else item.span.risk)
        item.span = replace(item.span, label=new_label, risk=new_risk)
        item.status = ADDED if item.status == ADDED else ACCEPTED

    def add(self, start: int, end: int, label: str, risk: str | None = None) -> int:
        """Add a span the model missed (whitespace at its ends trimmed); returns its index.
        It may not overlap a span that is not rejected."""
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        if not 0 <= start < end <= len(self.text):
            raise ValueError("select the text of the span first")
        if label not in self.label_set:
            raise ValueError(f"unknown label {label!r}")
        for item in self.items:
            if item.status != REJECTED and item.span.start < end and start < item.span.end:
                found = self.text[item.span.start : item.span.end]
                raise ValueError(f"the selection overlaps the span {found!r}: change that one")
        span = Span(start, end, label, risk or self.label_set[label].risk)
        self.items.append(Item(span, ADDED, None, "reviewer"))
        return len(self.items) - 1

    # -- what comes out
    @property
    def open(self) -> int:
        """Spans still to look at."""
        return sum(item.status == OPEN for item in self.items)

    def kept(self) -> list[Span]:
        """The spans to replace: all but the rejected ones (open ones stay replaced)."""
        return sorted(item.span for item in self.items if item.status != REJECTED)

    def publish(self, *, mode: str = "label", seed: int = 0, key: bool = True, **options):
        """The text anonymized with the spans as they stand
        (:func:`~hf_anon.apply.anonymize.engine.replace_spans`: the leak check applies)."""
        spans = [replace(s, score=None) for s in self.kept()]  # reviewed: certain
        return replace_spans(
            self.text,
            spans,
            mode=mode,
            seed=seed,
            key=key,
            label_set=self.label_set,
            language=self.language,
            **options,
        )

    def gold(self, doc_id: str = "reviewed") -> Document:
        """The corrected annotation: the kept spans without scores, in the gold format."""
        spans = [Span(s.start, s.end, s.label, s.risk) for s in self.kept()]
        return Document(doc_id, self.text, spans)

    def key(self, result: AnonymizationResult, doc_id: str = "reviewed") -> dict[str, Any]:
        return {"id": doc_id, "replacements": result.key()}

    def to_dict(self) -> dict[str, Any]:
        items = [item.to_dict() for item in self.items]
        return {"text": self.text, "items": items, "language": self.language}

    @classmethod
    def from_dict(cls, data: dict[str, Any], label_set: LabelSet = DEFAULT_LABELS):
        items = [Item.from_dict(i) for i in data["items"]]
        return cls(data["text"], items, label_set, data.get("language", "de"))
