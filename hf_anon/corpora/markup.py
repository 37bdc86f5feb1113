"""Inline markup for annotating published decisions by hand.

A published decision carries the court's placeholders (``Herr A.``) and clear text that
still needs labels (``Amtsgericht Fürth``). Annotating it means three things at once:
marking every sensitive span, correcting the placeholders, and inventing a natural
value for each placeholder. Offsets are error-prone to write by hand, so annotators edit
the published text with inline marks and this module turns them into the two files the
project measures on: the gold file (filled text with spans) and the placeholder key
(published text with ``placeholders`` and ``kept``, like ``dev/anonymized.jsonl``)::

    [[Amtsgericht Fürth|court-name|low]]      clear-text span
    [[A.=>Hans Huber|nat-name|high]]          placeholder ``A.``, filled with ``Hans Huber``
    [[C.=>Weber|nat-name|high|.]]             ... followed by a period in the filled text
                                              (the placeholder's period also ended the
                                              sentence: ``… die Zeugin C.`` → ``Weber.``)

Removing the marks (keeping surfaces) must give the published text back character for
character; :func:`parse_markup` checks everything else and names line and column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet

OPEN, CLOSE, FILL = "[[", "]]", "=>"
UNKNOWN = "unknown"
_MARK = re.compile(r"\[\[(.*?)\]\]", re.DOTALL)


class MarkupError(ValueError):
    """Markup that cannot be read, with the line and column of the mark."""


@dataclass(frozen=True, slots=True)
class MarkedSpan:
    """One mark: where it lies in the published and in the filled text (characters)."""

    published_start: int
    published_end: int
    filled_start: int
    filled_end: int
    label: str
    risk: str
    placeholder: bool
    surface: str
    fill: str
    tail: str = ""


@dataclass
class MarkedDocument:
    """A parsed markup file: published text, filled text and the marks on both."""

    published: str
    filled: str
    spans: list[MarkedSpan]

    def published_spans(self) -> list[Span]:
        """Every mark on the published text (placeholders and clear text alike).

        Both annotation passes share the published text while their invented fills may
        differ, so agreement between passes is measured here.
        """
        return [Span(s.published_start, s.published_end, s.label, s.risk) for s in self.spans]

    def gold(self, doc_id: str, domain: str | None = None, **meta: Any) -> Document:
        """The gold document: filled text, every mark a span on it."""
        spans = [Span(s.filled_start, s.filled_end, s.label, s.risk) for s in self.spans]
        return Document(doc_id, self.filled, spans, domain, dict(meta))

    def key(self, doc_id: str, domain: str | None = None, **meta: Any) -> dict[str, Any]:
        """The placeholder key (``dev/anonymized.jsonl`` format): placeholders and kept spans."""

        def entry(s: MarkedSpan) -> dict[str, Any]:
            return {
                "start": s.published_start,
                "end": s.published_end,
                "label": s.label,
                "text": s.surface,
            }

        row: dict[str, Any] = {"id": doc_id}
        if domain is not None:
            row["domain"] = domain
        row["text"] = self.published
        row["placeholders"] = [entry(s) for s in self.spans if s.placeholder]
        row["kept"] = [entry(s) for s in self.spans if not s.placeholder]
        row.update(meta)
        return row


def markup_file_name(doc_id: str) -> str:
    """The marked file of a document (``wwl:DE/BY/123`` → ``wwl_DE_BY_123``; add ``.txt``)."""
    return re.sub(r"[^A-Za-z0-9.-]+", "_", doc_id).strip("_")


def _where(markup: str, position: int) -> str:
    line = markup.count("\n", 0, position) + 1
    column = position - (markup.rfind("\n", 0, position) + 1) + 1
    snippet = markup[position : position + 60].split("\n")[0]
    return f"line {line}, column {column} ({snippet!r})"


def _check_edges(value: str, what: str, where: str) -> None:
    if not value:
        raise MarkupError(f"{where}: empty {what}")
    if value[0].isspace() or value[-1].isspace():
        raise MarkupError(f"{where}: {what} {value!r} starts or ends with whitespace")


def parse_markup(
    markup: str, labels: LabelSet = DEFAULT_LABELS, *, allow_unknown: bool = False
) -> MarkedDocument:
    """Read marked text; ``allow_unknown`` accepts the pre-annotation's ``unknown`` label."""
    published: list[str] = []
    filled: list[str] = []
    spans: list[MarkedSpan] = []
    pub_len = fill_len = cursor = 0
    for match in _MARK.finditer(markup):
        where = _where(markup, match.start())
        gap = markup[cursor : match.start()]
        if OPEN in gap or CLOSE in gap:
            raise MarkupError(f"{_where(markup, cursor)}: unbalanced '[[' or ']]'")
        body = match.group(1)
        if OPEN in body:
            raise MarkupError(f"{where}: a mark inside a mark")
        fields = body.split("|")
        if len(fields) not in (3, 4):
            raise MarkupError(f"{where}: a mark is [[text|label|risk]] or [[A.=>fill|label|risk]]")
        head, label, risk = fields[0], fields[1].strip(), fields[2].strip()
        tail = fields[3] if len(fields) == 4 else ""
        if label not in labels and not (allow_unknown and label == UNKNOWN):
            raise MarkupError(f"{where}: unknown label {label!r}")
        if risk not in labels.risks:
            raise MarkupError(f"{where}: unknown risk {risk!r} (one of {list(labels.risks)})")
        placeholder = FILL in head
        surface, fill = head.split(FILL, 1) if placeholder else (head, head)
        _check_edges(surface, "span text", where)
        _check_edges(fill, "fill", where)
        if placeholder and (FILL in fill):
            raise MarkupError(f"{where}: more than one '=>'")
        if tail and not placeholder:
            raise MarkupError(f"{where}: only a placeholder mark takes a fourth field")
        published.append(gap)
        filled.append(gap)
        pub_len += len(gap)
        fill_len += len(gap)
        spans.append(
            MarkedSpan(
                pub_len,
                pub_len + len(surface),
                fill_len,
                fill_len + len(fill),
                label,
                risk,
                placeholder,
                surface,
                fill,
                tail,
            )
        )
        published.append(surface)
        filled += (fill, tail)
        pub_len += len(surface)
        fill_len += len(fill) + len(tail)
        cursor = match.end()
    rest = markup[cursor:]
    if OPEN in rest or CLOSE in rest:
        raise MarkupError(f"{_where(markup, cursor)}: unbalanced '[[' or ']]'")
    published.append(rest)
    filled.append(rest)
    return MarkedDocument("".join(published), "".join(filled), spans)


def _mark(surface: str, label: str, risk: str, fill: str | None = None, tail: str = "") -> str:
    head = surface if fill is None else f"{surface}{FILL}{fill}"
    return f"{OPEN}{head}|{label}|{risk}{'|' + tail if tail else ''}{CLOSE}"


def to_markup(
    published: str,
    spans: Sequence[Span],
    fills: Sequence[str | None] | None = None,
    tails: Sequence[str] | None = None,
    labels: LabelSet = DEFAULT_LABELS,
) -> str:
    """Marked text for ``spans`` on ``published``; a fill makes a span a placeholder.

    Spans without a risk get their label's usual risk (``unknown`` gets ``high``).
    """
    fills = list(fills) if fills is not None else [None] * len(spans)
    tails = list(tails) if tails is not None else [""] * len(spans)
    pieces, cursor = [], 0
    for span, fill, tail in sorted(zip(spans, fills, tails, strict=True), key=lambda t: t[0]):
        if span.start < cursor:
            raise ValueError(f"overlapping spans at character {span.start}")
        risk = span.risk or (labels[span.label].risk if span.label in labels else "high")
        pieces.append(published[cursor : span.start])
        pieces.append(_mark(published[span.start : span.end], span.label, risk, fill, tail))
        cursor = span.end
    pieces.append(published[cursor:])
    return "".join(pieces)
