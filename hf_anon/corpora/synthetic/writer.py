"""Text with gold spans by construction: pieces are appended, and a labelled piece records
its span (characters, end exclusive) as it lands, so offsets are exact."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS


@dataclass(frozen=True)
class Part:
    """A piece of text; with a label it becomes a gold span."""

    text: str
    label: str | None = None
    risk: str | None = None


Piece = str | Part | Sequence["Piece"] | Callable[[], "Piece"]


class Writer:
    """Appends text and records a span for every labelled :class:`Part` as it goes."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.spans: list[Span] = []
        self.length = 0

    def add(self, piece: Piece) -> None:
        while callable(piece):
            piece = piece()
        if isinstance(piece, str):
            self.chunks.append(piece)
            self.length += len(piece)
        elif isinstance(piece, Part):
            if piece.label is not None:
                risk = piece.risk or DEFAULT_LABELS[piece.label].risk
                end = self.length + len(piece.text)
                self.spans.append(Span(self.length, end, piece.label, risk))
            self.add(piece.text)
        else:
            for item in piece:
                self.add(item)

    def say(self, template: str, **fields: Piece) -> None:
        """Append ``template`` with its ``{field}``s filled in; a sentence that starts with
        a field gets a capital (``{K} beantragt`` → ``Der Kläger beantragt``)."""
        pos = 0
        for match in re.finditer(r"\{(\w+)\}", template):
            self.add(template[pos : match.start()])
            value = fields[match.group(1)]
            if match.start() == 0 or template[: match.start()].endswith((". ", "\n\n")):
                value = _capitalized(value)
            self.add(value)
            pos = match.end()
        self.add(template[pos:])

    def document(self, doc_id: str, domain: str) -> Document:
        text = "".join(self.chunks)
        trimmed = text.rstrip()
        return Document(doc_id, trimmed, list(self.spans), domain)


def _capitalized(value: Piece) -> Piece:
    while callable(value):
        value = value()
    if isinstance(value, str):
        return value[:1].upper() + value[1:]
    if isinstance(value, list | tuple) and value:
        return [_capitalized(value[0]), *value[1:]]
    return value


def sentence_case(text: str) -> str:
    """``der Kläger verlangt …`` → ``Der Kläger verlangt …``."""
    return text[:1].upper() + text[1:]
