"""Span documents: the data model of the annotation guidelines, JSON Lines and datasets.

The guidelines are the project's ``ANNOTATION.md`` (as applied to real decisions:
``data/real/annotation/GUIDE.md``); the documentation's "Data format" page states what this
module enforces. Character offsets into ``Document.text`` (Python string indices,
end exclusive) are the currency between all stages of hf-anon. Everything here validates
loudly: a broken document or span raises :class:`ValidationError` naming the document
and the span; a loader never drops anything silently.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from hf_anon.text.labels import DEFAULT_LABELS, LabelSet

SPAN_KEYS = frozenset({"start", "end", "label", "risk", "score", "text"})
DOCUMENT_KEYS = ("id", "domain", "text")


class ValidationError(ValueError):
    """Input that breaks the conventions of the annotation guidelines (the gold format)."""


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """A labelled stretch ``text[start:end]`` (characters, end exclusive)."""

    start: int
    end: int
    label: str
    risk: str | None = None
    score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"start": self.start, "end": self.end, "label": self.label}
        if self.risk is not None:
            out["risk"] = self.risk
        if self.score is not None:
            out["score"] = self.score
        return out


@dataclass
class Document:
    """A text with non-overlapping spans sorted by start.

    ``meta`` keeps every other top-level field of the JSON line (e.g. ``kept``) so that
    load → save loses nothing.
    """

    id: str
    text: str
    spans: list[Span] = field(default_factory=list)
    domain: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    def span_text(self, span: Span) -> str:
        return self.text[span.start : span.end]

    def to_dict(self, spans_key: str = "spans") -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id}
        if self.domain is not None:
            out["domain"] = self.domain
        out["text"] = self.text
        out[spans_key] = [span.to_dict() for span in self.spans]
        out.update(self.meta)
        return out


def _describe(doc_id: object, index: int, raw: object) -> str:
    return f"document {doc_id!r}, span {index} {json.dumps(raw, ensure_ascii=False)}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_span(
    raw: object,
    text: str,
    *,
    doc_id: object,
    index: int,
    labels: LabelSet,
    require_risk: bool,
    extra_labels: Sequence[str] = (),
) -> Span:
    """Check one span dict against ``text`` and return it as a :class:`Span`."""
    where = _describe(doc_id, index, raw)
    if not isinstance(raw, dict):
        raise ValidationError(f"{where}: a span must be an object")
    unknown = set(raw) - SPAN_KEYS
    if unknown:
        raise ValidationError(f"{where}: unknown keys {sorted(unknown)}")
    start, end = raw.get("start"), raw.get("end")
    if not _is_int(start) or not _is_int(end):
        raise ValidationError(f"{where}: start and end must be integers")
    if start < 0 or end > len(text):
        raise ValidationError(f"{where}: offsets out of range for a text of {len(text)} characters")
    if start >= end:
        raise ValidationError(f"{where}: start must be smaller than end")
    if text[start].isspace() or text[end - 1].isspace():
        raise ValidationError(f"{where}: a span must not start or end in whitespace")
    label = raw.get("label")
    if label not in labels and label not in extra_labels:
        raise ValidationError(f"{where}: unknown label {label!r}")
    risk = raw.get("risk")
    if risk is None:
        if require_risk:
            raise ValidationError(f"{where}: missing risk (one of {list(labels.risks)})")
    elif risk not in labels.risks:
        raise ValidationError(f"{where}: unknown risk {risk!r} (one of {list(labels.risks)})")
    score = raw.get("score")
    if score is not None and (
        not isinstance(score, int | float) or isinstance(score, bool) or not 0.0 <= score <= 1.0
    ):
        raise ValidationError(f"{where}: score must be a number between 0 and 1")
    quoted = raw.get("text")
    if quoted is not None and quoted != text[start:end]:
        raise ValidationError(
            f"{where}: its 'text' {quoted!r} differs from the document's {text[start:end]!r}"
        )
    return Span(start, end, label, risk, None if score is None else float(score))


def check_no_overlap(spans: Sequence[Span], doc_id: object) -> None:
    """Raise if two spans (sorted by start) overlap or nest."""
    for prev, span in pairwise(spans):
        if span.start < prev.end:
            raise ValidationError(
                f"document {doc_id!r}: span [{span.start}:{span.end}] {span.label} overlaps "
                f"span [{prev.start}:{prev.end}] {prev.label}"
            )


def rewrite_spans(
    text: str, spans: Sequence[Span], new_surface: Callable[[str], str]
) -> tuple[str, list[Span]]:
    """The text with each span's characters replaced by ``new_surface(surface)`` (called in
    text order), the spans moved with it, labels and risks kept. Why one function: every
    re-rendering of placeholders (German and Japanese) must move the later offsets the same
    way, and offsets are the currency between stages."""
    parts: list[str] = []
    out: list[Span] = []
    position = shift = 0
    for span in sorted(spans):
        surface = text[span.start : span.end]
        new = new_surface(surface)
        parts.append(text[position : span.start])
        parts.append(new)
        start = span.start + shift
        out.append(Span(start, start + len(new), span.label, span.risk))
        shift += len(new) - len(surface)
        position = span.end
    parts.append(text[position:])
    return "".join(parts), out


def parse_document(
    raw: object,
    labels: LabelSet = DEFAULT_LABELS,
    *,
    spans_key: str = "spans",
    require_risk: bool = True,
    extra_labels: Sequence[str] = (),
) -> Document:
    """Validate one JSON object in the gold format and build a :class:`Document`.

    ``spans_key`` is ``"spans"`` for gold and predictions, ``"placeholders"`` for
    placeholder files (whose spans have no risk: pass ``require_risk=False``).
    """
    if not isinstance(raw, dict):
        raise ValidationError("a document must be a JSON object")
    doc_id = raw.get("id")
    if not isinstance(doc_id, str) or not doc_id:
        raise ValidationError(f"document id must be a non-empty string, got {doc_id!r}")
    text = raw.get("text")
    if not isinstance(text, str):
        raise ValidationError(
            f"document {doc_id!r}: text must be a string, got {type(text).__name__}"
        )
    domain = raw.get("domain")
    if domain is not None and not isinstance(domain, str):
        raise ValidationError(f"document {doc_id!r}: domain must be a string")
    raw_spans = raw.get(spans_key, [])
    if not isinstance(raw_spans, list):
        raise ValidationError(f"document {doc_id!r}: {spans_key!r} must be a list")
    spans = sorted(
        parse_span(
            item,
            text,
            doc_id=doc_id,
            index=i,
            labels=labels,
            require_risk=require_risk,
            extra_labels=extra_labels,
        )
        for i, item in enumerate(raw_spans)
    )
    check_no_overlap(spans, doc_id)
    meta = {k: v for k, v in raw.items() if k not in DOCUMENT_KEYS and k != spans_key}
    return Document(id=doc_id, text=text, spans=spans, domain=domain, meta=meta)


def validate_document(
    doc: Document, labels: LabelSet = DEFAULT_LABELS, *, require_risk: bool = True
) -> Document:
    """Re-check a :class:`Document` built in code (e.g. by a model) against the rules."""
    parse_document(doc.to_dict(), labels, require_risk=require_risk)
    return doc


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, object)`` for each non-blank line of a UTF-8 JSON Lines file."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        for number, line in enumerate(handle, start=1):
            try:
                decoded = line.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ValidationError(f"{path}:{number}: not valid UTF-8 ({err.reason})") from None
            if not decoded.strip():
                continue
            try:
                yield number, json.loads(decoded)
            except json.JSONDecodeError as err:
                raise ValidationError(f"{path}:{number}: invalid JSON ({err.msg})") from None


def load_jsonl(
    path: str | Path,
    labels: LabelSet = DEFAULT_LABELS,
    *,
    spans_key: str = "spans",
    require_risk: bool = True,
    extra_labels: Sequence[str] = (),
) -> list[Document]:
    """Load and validate a JSON Lines file; errors name the file, line, document and span."""
    documents: list[Document] = []
    seen: dict[str, int] = {}
    for number, raw in iter_jsonl(path):
        try:
            doc = parse_document(
                raw,
                labels,
                spans_key=spans_key,
                require_risk=require_risk,
                extra_labels=extra_labels,
            )
        except ValidationError as err:
            raise ValidationError(f"{path}:{number}: {err}") from None
        if doc.id in seen:
            raise ValidationError(
                f"{path}:{number}: duplicate document id {doc.id!r} (first on line {seen[doc.id]})"
            )
        seen[doc.id] = number
        documents.append(doc)
    return documents


def save_jsonl(
    documents: Iterable[Document], path: str | Path, *, spans_key: str = "spans"
) -> None:
    """Write documents as JSON Lines (UTF-8, non-ASCII kept readable)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for doc in documents:
            handle.write(json.dumps(doc.to_dict(spans_key), ensure_ascii=False) + "\n")


def dataset_features(
    labels: LabelSet = DEFAULT_LABELS, *, spans_key: str = "spans", extra_labels: Sequence[str] = ()
):
    """Explicit ``datasets.Features`` for span documents (labels and risks as ClassLabel).

    A missing risk (placeholders, predictions) is stored as null, not guessed.
    """
    from datasets import ClassLabel, Features, List, Value

    return Features(
        {
            "id": Value("string"),
            "domain": Value("string"),
            "text": Value("string"),
            spans_key: List(
                {
                    "start": Value("int32"),
                    "end": Value("int32"),
                    "label": ClassLabel(names=[*labels.names, *extra_labels]),
                    "risk": ClassLabel(names=list(labels.risks)),
                    "score": Value("float64"),
                }
            ),
            "meta": Value("string"),
        }
    )


def to_dataset(
    documents: Sequence[Document],
    labels: LabelSet = DEFAULT_LABELS,
    *,
    spans_key: str = "spans",
    extra_labels: Sequence[str] = (),
):
    """Documents → ``datasets.Dataset``; ``meta`` travels as a JSON string."""
    from datasets import Dataset

    rows: dict[str, list] = {"id": [], "domain": [], "text": [], spans_key: [], "meta": []}
    for doc in documents:
        rows["id"].append(doc.id)
        rows["domain"].append(doc.domain)
        rows["text"].append(doc.text)
        rows[spans_key].append(
            [
                {"start": s.start, "end": s.end, "label": s.label, "risk": s.risk, "score": s.score}
                for s in doc.spans
            ]
        )
        rows["meta"].append(json.dumps(doc.meta, ensure_ascii=False))
    features = dataset_features(labels, spans_key=spans_key, extra_labels=extra_labels)
    return Dataset.from_dict(rows, features=features)


def from_dataset(
    dataset,
    labels: LabelSet = DEFAULT_LABELS,
    *,
    spans_key: str = "spans",
    require_risk: bool = True,
    extra_labels: Sequence[str] = (),
) -> list[Document]:
    """``datasets.Dataset`` (as written by :func:`to_dataset`) → validated documents."""
    span_feature = dataset.features[spans_key].feature
    label_names = span_feature["label"].names
    risk_names = span_feature["risk"].names
    documents = []
    for row in dataset:
        spans = []
        for s in row[spans_key]:
            span = {"start": s["start"], "end": s["end"], "label": label_names[s["label"]]}
            if s.get("risk") is not None:
                span["risk"] = risk_names[s["risk"]]
            if s.get("score") is not None:
                span["score"] = s["score"]
            spans.append(span)
        raw = {"id": row["id"], "text": row["text"], spans_key: spans}
        if row.get("domain") is not None:
            raw["domain"] = row["domain"]
        raw.update(json.loads(row.get("meta") or "{}"))
        documents.append(
            parse_document(
                raw,
                labels,
                spans_key=spans_key,
                require_risk=require_risk,
                extra_labels=extra_labels,
            )
        )
    return documents
