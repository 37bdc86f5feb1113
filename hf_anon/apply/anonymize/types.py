"""What the anonymizer passes around: errors, results, and the mentions operators see."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet

#: The replacement used when nothing else is safe: no word characters at all.
SAFE_MASK = "[…]"

#: A detector as a function: texts in, one list of spans per text out.
DetectorFn = Callable[[list[str]], Sequence[Sequence[Span]]]


class AnonymizationError(RuntimeError):
    """Anonymization could not be done safely; no text is returned."""


class DetectionError(AnonymizationError):
    """The detector failed (an exception, non-finite scores, invalid spans)."""


class LeakError(AnonymizationError):
    """The finished text would still contain a protected surface form."""


# --- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replacement:
    """One replaced stretch: where it was, where it is, what it is.

    ``start``/``end`` are characters of the original text, ``new_start``/``new_end``
    characters of the anonymized text (both end exclusive). ``entity`` numbers the
    document's entities (1, 2, …) in order of first mention; it is local to the
    document. ``original`` is set only when the caller asked for the key.
    """

    start: int
    end: int
    new_start: int
    new_end: int
    label: str
    risk: str
    score: float | None
    operator: str
    entity: int
    text: str
    source: str = "detector"
    original: str | None = None

    def to_dict(self, *, with_original: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "start": self.start,
            "end": self.end,
            "new_start": self.new_start,
            "new_end": self.new_end,
            "label": self.label,
            "risk": self.risk,
            "score": self.score,
            "operator": self.operator,
            "entity": self.entity,
            "text": self.text,
            "source": self.source,
        }
        if with_original:
            if self.original is None:
                raise ValueError("this result holds no key: anonymize with key=True")
            out["original"] = self.original
        return out


@dataclass
class AnonymizationResult:
    """The anonymized text of one document and what was done to it.

    ``spans`` are the detected spans on the *original* text (after overlap resolution),
    including those that were not replaced. ``tokens`` is the number of model tokens
    (None when the detector is a plain callable).
    """

    text: str
    replacements: list[Replacement]
    spans: list[Span]
    tokens: int | None = None
    keyed: bool = False

    def new_spans(self) -> list[Span]:
        """The replacements as spans on the anonymized text (the gold format; a mask of
        whitespace or an empty one gives no span)."""
        spans = []
        for r in self.replacements:
            start, end = r.new_start, r.new_end
            while start < end and self.text[start].isspace():
                start += 1
            while end > start and self.text[end - 1].isspace():
                end -= 1
            if start < end:
                spans.append(Span(start, end, r.label, r.risk, r.score))
        return spans

    def key(self) -> list[dict[str, Any]]:
        """What maps the replacements back to the originals (keep it secret)."""
        if not self.keyed:
            raise ValueError("this result holds no key: anonymize with key=True")
        return [r.to_dict(with_original=True) for r in self.replacements]

    def restore(self) -> str:
        """The original text (needs ``key=True``)."""
        return restore(self.text, self.key())


def restore(text: str, key: Iterable[Replacement | Mapping[str, Any]]) -> str:
    """Undo an anonymization: put each key entry's ``original`` back at its new offsets.

    Raises ``ValueError`` when the text was changed at a replaced stretch (the key does
    not fit) or when an entry has no original.
    """
    entries = []
    for entry in key:
        item = entry.to_dict(with_original=True) if isinstance(entry, Replacement) else entry
        if item.get("original") is None:
            raise ValueError("a key entry has no 'original'")
        entries.append(item)
    entries.sort(key=lambda e: e["new_start"])
    pieces, cursor = [], 0
    for e in entries:
        start, end = e["new_start"], e["new_end"]
        if start < cursor or end > len(text) or text[start:end] != e["text"]:
            raise ValueError(
                f"the text at [{start}:{end}] is not the replacement {e['text']!r}: "
                "the key does not belong to this text"
            )
        pieces += (text[cursor:start], e["original"])
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


# --- what operators see -------------------------------------------------------------------


@dataclass
class Entity:
    """One person, company, address, … of a document.

    ``key`` is the canonical description that, with a secret, decides its replacement
    in every document (casefolded; for people ``("person", surname, first names)``).
    ``id`` counts the document's entities from 1 in order of first mention.
    """

    id: int
    family: str
    key: tuple[str, ...]
    surname: str | None = None
    first_names: tuple[str, ...] = ()


@dataclass
class Mention:
    """One stretch to replace, as an operator sees it.

    Names of people (:attr:`is_name`) are taken apart: ``prefix`` (titles inside
    the span such as ``Dr.``, kept), ``first_names``, ``surname`` (None for a first name
    alone), ``genitive`` (``Müllers``), ``comma`` (``Müller, Hans``). ``number`` counts
    the entities of this label from 1; ``tag`` is that number, or with a secret a short
    keyed hash that is equal in every document.
    """

    span: Span
    text: str
    entity: Entity
    source: str = "detector"
    prefix: str = ""
    first_names: tuple[str, ...] = ()
    surname: str | None = None
    genitive: bool = False
    comma: bool = False
    number: int = 0
    tag: str = ""
    label_set: LabelSet = field(default=DEFAULT_LABELS, repr=False, compare=False)

    @property
    def label(self) -> str:
        return self.span.label

    @property
    def is_name(self) -> bool:
        """A name of people (a person label of the label set, :attr:`Label.is_person`)."""
        return self.span.label in self.label_set.person_labels


@dataclass
class Target:
    """A span to replace, before entities are known (``origin``: for what the leak
    check found, the span whose form it is)."""

    span: Span
    source: str
    origin: Span | None = None
