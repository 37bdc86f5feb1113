"""Anonymization: detected spans → the text users publish.

The anonymizer half of hf-anon, split from detection as in Presidio: a detector (a
trained :class:`~hf_anon.detection.SpanDetector`, or any callable that returns spans)
says *what* is sensitive; operators decide *what to write instead*. Spans (character
offsets into the original text, with label, risk and score) are the only thing passed
between the two halves, so every operator can be used and tested without a model.

What happens to one document (:func:`replace_spans`):

1. **Selection**: spans whose label is chosen and whose risk is at least ``min_risk``.
   A span's risk counts as the higher of its own (predicted) risk and its label's usual
   risk: a model may raise a span's risk, never lower it below its category (fail closed).
   Spans whose operator is ``keep`` are left as they are.
2. **Leak check**: the surface form of every selected span (for names also each name
   part of at least 3 letters, with a genitive ``s``) is searched for in the rest of the
   text; each whole-word occurrence becomes a mention of the same entity (``source`` is
   ``"leak-check"``) and is replaced too.
3. **Entities**: mentions are grouped into entities: a surname alone or a first name
   alone joins the full name it belongs to, ``Müllers`` joins ``Müller``, equal
   addresses (``Bahnhofstr. 12`` / ``Bahnhofstraße 12``) are one entity. The same entity
   gets the same replacement throughout the document.
4. **Operators** (one small class each, a registry like Presidio's): ``redact``,
   ``label``, ``initials``, ``pseudonym``, ``keep``; one per label if wanted.
5. **Verification**: a replacement value that would contain a protected surface form
   (a pseudonym that happens to be another party's real name) is drawn again, and
   redacted as ``[…]`` if that keeps happening. The finished text is searched once more:
   a form that only appears now (a span cut inside a word leaves a fragment that stands
   alone; two adjacent replacements spell a form together) is replaced or masked and the
   text rebuilt; if that does not end it, the call raises :class:`LeakError` rather than
   return a leak.

Detectors and operators read the text with control characters turned into spaces
(:func:`detection_view`, same length): tokenizers drop them, which would glue
``Hans\x00Müller`` into one word. The output keeps them.

Randomness: without a ``secret``, every document gets fresh random replacements, so
nothing links documents (``seed`` makes a run reproducible). With a ``secret``, the
replacement of an entity is derived from ``HMAC(secret, entity)``: the same person gets
the same pseudonym, initials or tag in every document processed with that secret.

Everything outside the replaced stretches is kept byte for byte, and each
:class:`Replacement` lists original and new offsets, so with ``key=True`` the original
can be restored (:func:`restore`).
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import random
import re
import secrets
import unicodedata
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from hf_anon import surrogates as sg
from hf_anon.data import Span
from hf_anon.labels import DEFAULT_LABELS, LabelSet
from hf_anon.names import (
    NAME_PARTICLES,
    TITLES,
    ends_sentence,
    known_last_names,
    parse_name,
)

if TYPE_CHECKING:
    from hf_anon.detection import SpanDetector

#: Labels whose spans are names of people: parsed into first names and surname.
NAME_LABELS = frozenset({"nat-name", "nat-jur"})
#: The replacement used when nothing else is safe: no word characters at all.
SAFE_MASK = "[…]"
#: Draws of an operator before a leaking value is redacted instead.
MAX_ATTEMPTS = 3
#: Rounds of the final check that may add replacements before the call gives up.
MAX_REPAIRS = 16
#: Shortest surface form (non-space characters) that the leak check searches for; a
#: two-digit age would otherwise replace every ``45`` in the text.
MIN_FORM_CHARS = 3
#: Shortest name part (letters) that the leak check searches for on its own.
MIN_NAME_PART_LETTERS = 3

#: A detector as a function: texts in, one list of spans per text out.
DetectorFn = Callable[[list[str]], Sequence[Sequence[Span]]]


class AnonymizationError(RuntimeError):
    """Anonymization could not be done safely; no text is returned."""


class DetectionError(AnonymizationError):
    """The detector failed (an exception, non-finite scores, invalid spans)."""


class LeakError(AnonymizationError):
    """The finished text would still contain a protected surface form."""


# ------------------------------------------------------------------------------ results


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


# ---------------------------------------------------------------------------- operators


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

    Names (labels in :data:`NAME_LABELS`) are taken apart: ``prefix`` (titles inside
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
class OperatorContext:
    """What operators share within one document: the text (its :func:`detection_view`)
    and the sources of randomness.

    :meth:`rng` gives a generator for a key: with a secret it is derived from
    ``HMAC-SHA256(secret, key)`` (equal in every document), otherwise from a per-document
    salt (random, or derived from ``seed`` and the text).
    """

    text: str
    salt: str
    secret: bytes | None = None
    attempt: int = 0

    @property
    def keyed(self) -> bool:
        return self.secret is not None

    def _message(self, key: Sequence[object]) -> bytes:
        parts = [unicodedata.normalize("NFKC", str(k)).casefold() for k in key]
        if self.attempt:
            parts.append(f"attempt {self.attempt}")
        return "\x1f".join(parts).encode("utf-8")

    def digest(self, *key: object) -> bytes:
        if self.secret is not None:
            return hmac.new(self.secret, self._message(key), hashlib.sha256).digest()
        return hashlib.sha256(self.salt.encode("utf-8") + b"\x1e" + self._message(key)).digest()

    def rng(self, *key: object) -> random.Random:
        """A generator for ``key``; with a secret, the same in every document."""
        return random.Random(int.from_bytes(self.digest(*key)[:16], "big"))

    def document_rng(self, *key: object) -> random.Random:
        """A generator for document-wide choices: never linked across documents."""
        message = self.salt.encode("utf-8") + b"\x1e" + self._message(("document", *key))
        return random.Random(int.from_bytes(hashlib.sha256(message).digest()[:16], "big"))


class Operator(ABC):
    """What to write instead of a sensitive span (Presidio's ``Operator``).

    A subclass sets ``name``, checks its parameters in :meth:`validate` and returns one
    replacement per mention from :meth:`operate`. Operators see all their mentions of a
    document at once, so that one entity gets one replacement.
    """

    name: ClassVar[str] = ""

    def operator_name(self) -> str:
        return self.name

    def validate(self, label: str | None = None) -> None:  # noqa: B027 - optional hook
        """Raise ``ValueError`` if the parameters (or this label) do not work."""

    @abstractmethod
    def operate(self, mentions: Sequence[Mention], context: OperatorContext) -> list[str]:
        """One replacement per mention (mentions come in text order)."""

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"


#: name → operator class; :func:`register_operator` adds to it.
OPERATORS: dict[str, type[Operator]] = {}


def register_operator(cls: type[Operator]) -> type[Operator]:
    """Class decorator: make an operator available by its ``name`` (``mode="..."``)."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} needs a name")
    OPERATORS[cls.name] = cls
    return cls


def get_operator(spec: str | Operator, **params: Any) -> Operator:
    """An operator from its name (with parameters) or as given; validated."""
    if isinstance(spec, Operator):
        if params:
            raise ValueError("parameters go to the operator's constructor, not here")
        operator = spec
    elif isinstance(spec, str):
        if spec not in OPERATORS:
            raise ValueError(f"unknown operator {spec!r}; known: {sorted(OPERATORS)}")
        operator = OPERATORS[spec](**params)
    else:
        raise TypeError(f"an operator is a name or an Operator, got {type(spec).__name__}")
    operator.validate()
    return operator


@register_operator
class Keep(Operator):
    """Leave the span as it is (its forms are then not protected by the leak check)."""

    name = "keep"

    def operate(self, mentions, context):
        return [m.text for m in mentions]


@register_operator
class Redact(Operator):
    """Replace every span with the same mask (default ``[…]``)."""

    name = "redact"

    def __init__(self, mask: str = SAFE_MASK):
        self.mask = mask

    def validate(self, label=None):
        if not isinstance(self.mask, str):
            raise ValueError(f"the mask must be a string, got {self.mask!r}")

    def operate(self, mentions, context):
        return [self.mask] * len(mentions)


@register_operator
class Label(Operator):
    """``<nat-name-1>``: the category, numbered per entity (seed 001: the role of each
    span stays visible). With a secret, the number is a short keyed hash instead, equal
    for the same entity in every document. ``numbered=False`` gives ``<nat-name>``."""

    name = "label"

    def __init__(self, numbered: bool = True, template: str | None = None):
        self.numbered = numbered
        self.template = template or ("<{label}-{n}>" if numbered else "<{label}>")

    def validate(self, label=None):
        try:
            self.template.format(label="nat-name", n="1")
        except (KeyError, IndexError, ValueError) as err:
            raise ValueError(
                f"label template {self.template!r} may only use {{label}} and {{n}}: {err}"
            ) from None

    def operate(self, mentions, context):
        return [self.template.format(label=m.label, n=m.tag) for m in mentions]


#: Letters for random initials (no Q, X, Y: rare as initials, X reads as a mask).
INITIAL_LETTERS = "ABCDEFGHIJKLMNOPRSTUVWZ"


def _base_letter(char: str) -> str:
    """``Ö`` → ``O``, ``Ş`` → ``S``: the letter an initial would be confused with."""
    folded = unicodedata.normalize("NFKD", char)[:1].upper()
    return folded or char.upper()


@register_operator
class Initials(Operator):
    """Random initials: ``Hans Müller`` → ``K. T.``, ``Müller`` → ``T.``.

    Never the real initials (seed 001 and 002: real initials are easily re-identified);
    consistent per name part, so surname-only mentions and relatives sharing a surname
    keep their relation. Without a secret, different surnames of a document get
    different letters where possible. Meant for names; other labels get one random
    initial per word.
    """

    name = "initials"

    def operate(self, mentions, context):
        assigned: dict[tuple[str, ...], str] = {}
        used: dict[str, set[str]] = defaultdict(set)

        def letter(kind: str, key: tuple[str, ...], real: str) -> str:
            full_key = (kind, *key)
            if full_key not in assigned:
                rng = context.rng("initials", *full_key)
                choices = [c for c in INITIAL_LETTERS if c != _base_letter(real)]
                fresh = [c for c in choices if c not in used[kind]]
                pick = rng.choice(fresh if fresh and not context.keyed else choices)
                assigned[full_key] = pick
                used[kind].add(pick)
            return assigned[full_key]

        out = []
        for m in mentions:
            if m.is_name:
                value = self._name(m, letter)
            else:
                words = re.findall(r"\w+", m.text) or [m.text]
                ekey = m.entity.key
                value = " ".join(
                    letter("word", (*ekey, str(i)), w[:1]) + "." for i, w in enumerate(words)
                )
            if value.endswith(".") and context.text.startswith(".", m.span.end):
                value = value[:-1]  # `Herr Müller.` → `Herr T.`, not `Herr T..`
            out.append(value)
        return out

    @staticmethod
    def _name(m: Mention, letter) -> str:
        surname_key = m.entity.surname or ""
        firsts = [letter("first", (surname_key, _fold(f)), f[:1]) + "." for f in m.first_names if f]
        if m.surname is None:
            return m.prefix + " ".join(firsts)
        parts = [p for p in re.split(r"-", m.surname) if p] or [m.surname]
        last = "-".join(
            letter("surname", (_fold(m.surname), str(i)), p.lstrip("'")[:1]) + "."
            for i, p in enumerate(parts)
        )
        if m.genitive:
            last += "s"
        if not firsts:
            return m.prefix + last
        if m.comma:
            return f"{m.prefix}{last}, {' '.join(firsts)}"
        return f"{m.prefix}{' '.join(firsts)} {last}"


@register_operator
class Pseudonym(Operator):
    """Realistic surrogates from :mod:`hf_anon.surrogates` (seed 002).

    Names keep their shape (first and last name, surname alone, ``Müller, Hans``,
    double names, titles), gender from cues such as ``Herr``/``die Zeugin``, and a
    genitive stays a genitive (``Müllers`` → ``Schmidts``); streets stay streets with
    numbers, dates keep their format, IBANs get valid checksums. One entity one surrogate; never the
    original. With a secret, names and other values are derived from the entity (the
    same person gets the same pseudonym in every document); dates of the facts are still
    laid out per document so that their order stays plausible.
    """

    name = "pseudonym"

    def validate(self, label=None):
        if label is not None and label not in sg.SUPPORTED_LABELS:
            raise ValueError(
                f"no pseudonyms for label {label!r} (known: {sorted(sg.SUPPORTED_LABELS)}); "
                "choose another operator for it"
            )

    def operate(self, mentions, context):
        spans = [m.span for m in mentions]
        labels = [m.label for m in mentions]
        factory = sg.SurrogateFactory(context.document_rng("pseudonym"))
        # With a secret, each name part is drawn from a generator keyed by that part.
        names = sg.NameBook(factory, rng_for=context.rng if context.keyed else None)
        label_set = mentions[0].label_set if mentions else DEFAULT_LABELS
        state = sg.DocumentSurrogates(
            factory, context.text, spans, labels, label_set=label_set, names=names
        )
        persons = [i for i, m in enumerate(mentions) if m.is_name]
        state.read_names(persons)
        # Full names first, so that a first name alone takes the first name its full
        # name got (`Hans` … `Hans Müller` → `Jan` … `Jan Schulz`).
        full = [i for i in persons if state.mentions[i].firsts and state.mentions[i].last]
        rest = sorted(set(persons) - set(full))
        others = [i for i, m in enumerate(mentions) if not m.is_name]
        values: list[str] = [""] * len(mentions)
        for i in [*others, *full, *rest]:
            m = mentions[i]
            if context.keyed and not m.is_name:
                factory.rng = context.rng("pseudonym", m.label, *m.entity.key)
            value = state.surrogate(i, m.label)
            after = context.text[m.span.end : m.span.end + 30]
            if (
                re.search(r"[^.]\.$", m.text)
                and not value.endswith(".")
                and not after.startswith(".")
                and ends_sentence(after)
            ):
                value += "."  # the span's period also ended the sentence
            values[i] = value
        return values


# ----------------------------------------------------------------------------- entities


def _fold(text: str) -> str:
    """Keys of entities: case, accents and spacing ignored (``İlhan`` = ``ILHAN``)."""
    return _form_key(text)


def _canonical(text: str) -> str:
    """Equal for spellings of one thing: case, spacing, ``Str.``/``Straße``/``Strasse``."""
    folded = _fold(text)
    return re.sub(r"str\.(?=\s|$)", "strasse", folded)


@dataclass
class _Target:
    """A span to replace, before entities are known (``origin``: for what the leak
    check found, the span whose form it is)."""

    span: Span
    source: str
    origin: Span | None = None


def _genitive_stem(last: str, known_lasts: set[str]) -> str | None:
    if last.endswith(("'", "’")) and len(last) > 2:
        return last[:-1]
    if last.endswith("s") and len(last) > 3:
        stem = last[:-1]
        if _fold(stem) in known_lasts or (
            last not in known_last_names() and stem in known_last_names()
        ):
            return stem
    return None


def resolve_entities(text: str, targets: Sequence[_Target]) -> list[Mention]:
    """Group the document's stretches to replace into entities (see the module doc).

    People: a full name (first names and surname) is an entity; a surname alone joins
    the nearest full name with that surname (the latest before it, else the first
    after it), a first name alone the nearest full name with that first name; a
    genitive (``Müllers``, ``Weiß'``) counts as its stem. What the leak check found and
    fits no full name joins the span its form came from (``Berger`` of
    ``Yılmaz-Berger``). Everything else: equal canonical text (case, spacing,
    ``Str.``) and label, or that with a genitive ``s`` on one word, is one entity.
    """
    mentions: list[Mention] = []
    parsed: dict[int, tuple[str, list[str], str, bool]] = {}
    for i, t in enumerate(targets):
        if t.span.label in NAME_LABELS:
            parsed[i] = parse_name(text[t.span.start : t.span.end])
    known_firsts = {_fold(f) for _, firsts, _, _ in parsed.values() for f in firsts}
    full_lasts = {_fold(last) for _, firsts, last, _ in parsed.values() if firsts}
    known_lasts = full_lasts | {
        _fold(last) for _, firsts, last, _ in parsed.values() if not firsts and last[-1:] != "s"
    }

    keys: list[tuple[str, ...]] = []
    for i, t in enumerate(targets):
        surface = text[t.span.start : t.span.end]
        m = Mention(t.span, surface, Entity(0, t.span.label, ()), t.source)
        if i in parsed:
            prefix, firsts, last, comma = parsed[i]
            m.prefix, m.comma = prefix, comma
            if not firsts and _fold(last) in known_firsts and _fold(last) not in full_lasts:
                m.first_names, m.surname = (last,), None  # a first name alone (`Hans`)
            else:
                stem = _genitive_stem(last, known_lasts)
                if stem is not None:
                    last, m.genitive = stem, True
                m.first_names, m.surname = tuple(firsts), last
            keys.append(("person",))
        else:
            keys.append((t.span.label, _canonical(surface)))
        mentions.append(m)

    # Non-names: a genitive `s` on one word is the same entity (`Amtsgerichts München`).
    present = {k for k in keys if k[0] != "person"}
    for i, k in enumerate(keys):
        if k[0] == "person":
            continue
        words = k[1].split(" ")
        for j, w in enumerate(words):
            if w.endswith("s") and len(w) > 2:
                variant = (k[0], " ".join([*words[:j], w[:-1], *words[j + 1 :]]))
                if variant in present:
                    keys[i] = variant
                    break

    by_surname: dict[str, list[tuple[int, tuple[str, ...]]]] = defaultdict(list)
    by_first: dict[str, list[tuple[int, tuple[str, ...]]]] = defaultdict(list)
    for i, m in enumerate(mentions):
        if keys[i][0] == "person" and m.surname is not None and m.first_names:
            firsts = tuple(_fold(f) for f in m.first_names)
            keys[i] = ("person", _fold(m.surname), *firsts)
            by_surname[_fold(m.surname)].append((m.span.start, keys[i]))
            for first in firsts:
                by_first[first].append((m.span.start, keys[i]))

    def nearest(candidates: list[tuple[int, tuple[str, ...]]], position: int):
        if not candidates:
            return None
        k = bisect.bisect_right(candidates, position, key=lambda c: c[0])
        return candidates[k - 1][1] if k else candidates[0][1]

    key_of_span = {}
    # detected mentions first, so that what the leak check found can join their entities
    for i in sorted(range(len(mentions)), key=lambda i: targets[i].source == "leak-check"):
        m = mentions[i]
        if keys[i] != ("person",):
            key_of_span[(m.span.start, m.span.end)] = keys[i]
            continue
        if m.surname is not None:
            surname = _fold(m.surname)
            found = nearest(by_surname[surname], m.span.start)
            own = ("person", surname)
        else:
            first = _fold(m.first_names[0])
            found = nearest(by_first[first], m.span.start)
            own = ("person-first", first)
        origin = targets[i].origin
        if found is None and origin is not None:
            found = key_of_span.get((origin.start, origin.end))
        keys[i] = found or own
        key_of_span[(m.span.start, m.span.end)] = keys[i]

    entities: dict[tuple[str, ...], Entity] = {}
    for m, key in zip(mentions, keys, strict=True):
        if key not in entities:
            family = "person" if key[0].startswith("person") else key[0]
            surname = key[1] if key[0] == "person" else None
            entities[key] = Entity(len(entities) + 1, family, key, surname, tuple(key[2:]))
        m.entity = entities[key]
    return mentions


def _assign_numbers(mentions: Sequence[Mention], context: OperatorContext) -> None:
    """Per label, number the entities 1, 2, … in order of first mention (with a secret:
    a keyed tag instead, the same in every document)."""
    numbers: dict[tuple[str, int], int] = {}
    counts: dict[str, int] = defaultdict(int)
    for m in mentions:
        slot = (m.label, m.entity.id)
        if slot not in numbers:
            counts[m.label] += 1
            numbers[slot] = counts[m.label]
        m.number = numbers[slot]
        if context.keyed:
            m.tag = context.digest("tag", m.label, *m.entity.key).hex()[:6]
        else:
            m.tag = str(m.number)


# --------------------------------------------------------------------------- leak check


def _form_key(text: str) -> str:
    """How the leak check looks a matched text up: case, accents and spacing ignored
    (``İlhan``, ``ILHAN`` and ``ilhan`` are one key; ``str.lower`` would turn ``İ`` into
    two characters)."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True)
class _Form:
    origin: Span  # the (first) span this form comes from
    genitive: bool  # a trailing s or apostrophe is part of the same name


def _letters(text: str) -> int:
    return sum(c.isalpha() for c in text)


def protected_forms(text: str, spans: Iterable[Span]) -> dict[str, _Form]:
    """The surface forms that must not appear in the output, as written (spacing
    collapsed; also in NFKC), each with the span it comes from.

    Each span's whole text (at least :data:`MIN_FORM_CHARS` non-space characters, at
    least one letter or digit) and, for names, its name without titles and each name
    part of at least :data:`MIN_NAME_PART_LETTERS` letters (particles such as ``von``
    not). A form made only of closed-class words (:mod:`hf_anon.words`) is never
    searched: one ``der`` tagged as an address must not replace every ``der`` of the
    decision (``Die Kündigung der Wohnung`` stays as it is).
    """
    from hf_anon.words import closed_class_words

    closed = closed_class_words()
    forms: dict[str, _Form] = {}

    def add(form: str, span: Span, genitive: bool) -> None:
        raw = " ".join(form.split())
        if all(word.strip(".,;:'’\"„“").lower() in closed for word in raw.split()):
            return  # `der`, `und`, `in der`: function words, never a name
        for variant in (raw, unicodedata.normalize("NFKC", raw)):
            informative = any(c.isalnum() for c in variant)  # `[…]` or `***` hides, not tells
            if informative and len(variant.replace(" ", "")) >= MIN_FORM_CHARS:
                forms.setdefault(variant, _Form(span, genitive))

    for span in spans:
        surface = text[span.start : span.end]
        is_name = span.label in NAME_LABELS
        add(surface, span, is_name)
        if not is_name:
            continue
        prefix, firsts, last, _ = parse_name(surface)
        add(surface[len(prefix) :], span, True)
        for part in re.split(r"[\s,\x00-\x1f\x7f]+", " ".join([*firsts, last])):
            for piece in dict.fromkeys((part, *part.split("-"))):
                piece = piece.strip(".'’")
                if (
                    _letters(piece) >= MIN_NAME_PART_LETTERS
                    and piece.casefold() not in NAME_PARTICLES
                    and piece.casefold() + "." not in TITLES
                ):
                    add(piece, span, True)
    return forms


# Trie leaves; tuples, so that they never collide with a character of a form.
_GENITIVE_END = ("end", "genitive")
_PLAIN_END = ("end", "plain")


def _trie_pattern(forms: Iterable[tuple[str, bool]]) -> str:
    """A regex matching any of the forms as whole words (longest first); with
    ``re.IGNORECASE`` any case, any whitespace where a form has a space; genitive forms
    may end in ``s``/``'``.

    A trie, not an alternation: Python's ``re`` tries alternatives one by one, which is
    too slow for thousands of forms on megabytes of text.
    """
    root: dict = {}
    for form, genitive in forms:
        node = root
        for char in form:
            node = node.setdefault(char, {})
        node[_GENITIVE_END if genitive else _PLAIN_END] = {}

    def emit(node: dict) -> str:
        branches = []
        for char in sorted(c for c in node if c not in (_GENITIVE_END, _PLAIN_END)):
            literal, child = char, node[char]
            pieces = [r"\s+" if literal == " " else re.escape(literal)]
            # collapse chains of single children into one literal run
            while len(child) == 1 and next(iter(child)) not in (_GENITIVE_END, _PLAIN_END):
                literal, child = next(iter(child.items()))
                pieces.append(r"\s+" if literal == " " else re.escape(literal))
            branches.append("".join(pieces) + emit(child))
        if _GENITIVE_END in node:
            branches.append("(?:s|'|’)?")
        if _PLAIN_END in node:
            branches.append("")
        if len(branches) == 1:
            return branches[0]
        return "(?:" + "|".join(branches) + ")"

    return r"(?<!\w)" + emit(root) + r"(?!\w)"


class FormMatcher:
    """Finds protected forms as whole words, in any case (see :func:`protected_forms`)."""

    def __init__(self, forms: Mapping[str, _Form]):
        self.forms = dict(forms)
        self.keys: dict[str, _Form] = {}
        for form, info in self.forms.items():
            self.keys.setdefault(_form_key(form), info)
        self.pattern = (
            re.compile(_trie_pattern((k, f.genitive) for k, f in self.forms.items()), re.I)
            if self.forms
            else None
        )

    def form_of(self, matched: str) -> _Form | None:
        """The form (and its span) a match of the pattern stands for."""
        key = _form_key(matched)
        if key in self.keys:
            return self.keys[key]
        stem = key.rstrip("'’")
        stem = stem[:-1] if stem == key and key.endswith("s") else stem
        form = self.keys.get(stem)
        if form is not None and form.genitive:
            return form
        # a case variant the key does not unify (`ß` against `ẞ`): any form, fail closed
        return next(iter(self.keys.values()), None)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None):
        if self.pattern is None:
            return iter(())
        return self.pattern.finditer(text, pos, len(text) if endpos is None else endpos)

    def search(self, text: str) -> re.Match | None:
        return None if self.pattern is None else self.pattern.search(text)


def _leak_targets(text: str, targets: Sequence[_Target], matcher: FormMatcher) -> list[_Target]:
    """Occurrences of protected forms outside the spans to replace, as new targets."""
    found = []
    cursor = 0
    bounds = [(t.span.start, t.span.end) for t in targets] + [(len(text), len(text))]
    for start, end in bounds:
        for match in matcher.finditer(text, cursor, start):
            origin = matcher.form_of(match.group(0)).origin
            span = Span(match.start(), match.end(), origin.label, origin.risk)
            found.append(_Target(span, "leak-check", origin))
        cursor = max(cursor, end)
    return found


# ------------------------------------------------------------------------------- engine


@dataclass
class AnonymizationPlan:
    """Which spans to replace and how: resolved and validated once per call.

    ``operators`` maps every label to replace to its operator; ``min_risk`` is the
    lowest risk replaced (None: all).
    """

    operators: dict[str, Operator]
    label_set: LabelSet = DEFAULT_LABELS
    min_risk: str | None = None

    @classmethod
    def build(
        cls,
        *,
        mode: str | Operator = "pseudonym",
        operators: Mapping[str, str | Operator] | None = None,
        labels: Iterable[str] | None = None,
        min_risk: str | None = None,
        label_set: LabelSet = DEFAULT_LABELS,
    ) -> AnonymizationPlan:
        if isinstance(labels, str):
            labels = [labels]
        chosen = list(label_set.names if labels is None else labels)
        for name in [*chosen, *(operators or {})]:
            if name not in label_set:
                raise ValueError(f"unknown label {name!r}; known: {label_set.names}")
        if min_risk is not None and min_risk not in label_set.risks:
            raise ValueError(f"unknown risk {min_risk!r}; known: {list(label_set.risks)}")
        default = get_operator(mode)
        resolved: dict[str, Operator] = {}
        for name in chosen:
            spec = (operators or {}).get(name)
            operator = default if spec is None else get_operator(spec)
            operator.validate(name)
            resolved[name] = operator
        return cls(resolved, label_set, min_risk)

    def selects(self, span: Span) -> bool:
        if span.label not in self.operators:
            return False
        if self.min_risk is None:
            return True
        return self.effective_risk(span) >= self.label_set.risk_rank(self.min_risk)

    def effective_risk(self, span: Span) -> int:
        """The higher of the span's risk and its label's usual risk (fail closed)."""
        usual = self.label_set.risk_rank(self.label_set[span.label].risk)
        if span.risk is None or span.risk not in self.label_set.risks:
            return usual
        return max(usual, self.label_set.risk_rank(span.risk))


def clean_spans(text: str, spans: Iterable[Span], label_set: LabelSet = DEFAULT_LABELS):
    """Check spans against the text and merge overlapping ones.

    Invalid spans (offsets out of range, empty, unknown label) raise
    :class:`DetectionError`: a detector that returns nonsense must not lead to silently
    unprotected text. Whitespace at either end is trimmed (ANNOTATION.md). Overlapping or
    nested spans (a union of detectors) become one span over both, with the label of the
    riskier one (then the higher score, then the longer).
    """
    checked = []
    for span in spans:
        if not isinstance(span, Span):
            raise DetectionError(f"the detector returned {type(span).__name__}, not a Span")
        if not (0 <= span.start < span.end <= len(text)):
            raise DetectionError(
                f"span [{span.start}:{span.end}] {span.label} does not fit a text of "
                f"{len(text)} characters"
            )
        if span.label not in label_set:
            raise DetectionError(f"span [{span.start}:{span.end}] has unknown label {span.label!r}")
        start, end = span.start, span.end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:  # a span of whitespace hides nothing
            checked.append(
                span
                if (start, end) == (span.start, span.end)
                else replace(span, start=start, end=end)
            )
    checked.sort()
    merged: list[Span] = []
    for span in checked:
        if merged and span.start < merged[-1].end:
            prev = merged[-1]

            def rank(s: Span) -> tuple:
                risk = s.risk if s.risk in label_set.risks else label_set[s.label].risk
                return (label_set.risk_rank(risk), s.score or 0.0, s.end - s.start)

            winner = max(prev, span, key=rank)
            merged[-1] = replace(winner, start=prev.start, end=max(prev.end, span.end))
        else:
            merged.append(span)
    return merged


def _document_salt(text: str, seed: int | None) -> str:
    if seed is None:
        return secrets.token_hex(16)
    return f"seed {seed} " + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _as_secret(secret: str | bytes | None) -> bytes | None:
    if secret is None:
        return None
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not isinstance(secret, bytes) or not secret:
        raise ValueError("the secret must be a non-empty string or bytes")
    return secret


def replace_spans(
    text: str,
    spans: Iterable[Span],
    *,
    mode: str | Operator = "pseudonym",
    operators: Mapping[str, str | Operator] | None = None,
    labels: Iterable[str] | None = None,
    min_risk: str | None = None,
    seed: int | None = None,
    secret: str | bytes | None = None,
    key: bool = False,
    label_set: LabelSet = DEFAULT_LABELS,
    plan: AnonymizationPlan | None = None,
    tokens: int | None = None,
) -> AnonymizationResult:
    """Anonymize one text given its spans: the operator half alone, no model needed.

    Arguments as for :meth:`Anonymizer.anonymize` (``plan`` replaces ``mode``,
    ``operators``, ``labels``, ``min_risk`` and ``label_set`` when given).
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    if plan is None:
        plan = AnonymizationPlan.build(
            mode=mode, operators=operators, labels=labels, min_risk=min_risk, label_set=label_set
        )
    secret_bytes = _as_secret(secret)
    spans = clean_spans(text, spans, plan.label_set)
    targets = [
        _Target(s, "detector")
        for s in spans
        if plan.selects(s) and plan.operators[s.label].operator_name() != "keep"
    ]
    matcher = FormMatcher(protected_forms(text, (t.span for t in targets)))
    targets = sorted([*targets, *_leak_targets(text, targets, matcher)], key=lambda t: t.span.start)
    salt = _document_salt(text, seed)
    masked: set[tuple[int, int]] = set()
    for _ in range(MAX_REPAIRS):
        new_text, replacements = _render(
            text, targets, plan, matcher, salt, secret_bytes, key, masked
        )
        leaks = list(matcher.finditer(new_text))
        if not leaks:
            return AnonymizationResult(new_text, replacements, spans, tokens, key)
        repairs, to_mask = _repairs(text, new_text, replacements, leaks, matcher)
        targets = sorted([*targets, *repairs], key=lambda t: t.span.start)
        masked |= to_mask
    raise LeakError(
        f"the anonymized text still contains a protected form at character "
        f"{leaks[0].start()}; nothing is returned"
    )


def _render(
    text: str,
    targets: Sequence[_Target],
    plan: AnonymizationPlan,
    matcher: FormMatcher,
    salt: str,
    secret: bytes | None,
    key: bool,
    masked: set[tuple[int, int]] = frozenset(),
) -> tuple[str, list[Replacement]]:
    """Entities, operators and the new text for a fixed set of targets (the entities of
    the ``masked`` target positions get :data:`SAFE_MASK`)."""
    # Operators read names and context from the detection view (`Hans\x00Müller` is a
    # first and a last name); replacements go into the original text.
    view = detection_view(text)
    mentions = resolve_entities(view, targets)
    for m in mentions:
        m.text = text[m.span.start : m.span.end]
    context = OperatorContext(view, salt, secret)
    _assign_numbers(mentions, context)

    by_operator: dict[int, list[int]] = defaultdict(list)
    operator_of: dict[int, Operator] = {}
    for i, m in enumerate(mentions):
        operator = plan.operators[m.label]
        by_operator[id(operator)].append(i)
        operator_of[id(operator)] = operator
    values: list[str] = [""] * len(mentions)
    pending = list(by_operator)
    for attempt in range(MAX_ATTEMPTS):
        context.attempt = attempt
        for op_id in pending:
            indices = by_operator[op_id]
            out = operator_of[op_id].operate([mentions[i] for i in indices], context)
            if len(out) != len(indices) or not all(isinstance(v, str) for v in out):
                raise AnonymizationError(
                    f"operator {operator_of[op_id].operator_name()!r} must return one string "
                    "per mention"
                )
            for i, value in zip(indices, out, strict=True):
                values[i] = value
        _unify_forms(mentions, values)
        leaking = {i for i, v in enumerate(values) if matcher.search(v)}
        pending = [op_id for op_id, idx in by_operator.items() if leaking.intersection(idx)]
        if not pending:
            break
    else:
        masked = {*masked, *((mentions[i].span.start, mentions[i].span.end) for i in leaking)}
    if masked:
        bad_entities = {m.entity.id for m in mentions if (m.span.start, m.span.end) in masked}
        for i, m in enumerate(mentions):
            if m.entity.id in bad_entities:
                values[i] = SAFE_MASK

    pieces: list[str] = []
    replacements: list[Replacement] = []
    cursor = length = 0
    for m, value in zip(mentions, values, strict=True):
        gap = text[cursor : m.span.start]
        new_start = length + len(gap)
        pieces += (gap, value)
        length = new_start + len(value)
        cursor = m.span.end
        replacements.append(
            Replacement(
                start=m.span.start,
                end=m.span.end,
                new_start=new_start,
                new_end=length,
                label=m.label,
                risk=m.span.risk or plan.label_set[m.label].risk,
                score=m.span.score,
                operator=plan.operators[m.label].operator_name(),
                entity=m.entity.id,
                text=value,
                source=m.source,
                original=m.text if key else None,
            )
        )
    pieces.append(text[cursor:])
    return "".join(pieces), replacements


def _repairs(
    text: str,
    new_text: str,
    replacements: Sequence[Replacement],
    leaks: Sequence[re.Match],
    matcher: FormMatcher,
) -> tuple[list[_Target], set[tuple[int, int]]]:
    """What to do about protected forms that only appear in the output.

    A span that ends inside a word (``Hans`` of ``Hansen``) leaves a fragment that
    stands alone after the replacement: the part of the match that lies in preserved
    text is mapped back onto the original and replaced too (new targets). A match made
    of replacements alone (two adjacent values that together spell a form) masks the
    entities of those replacements (their original positions are returned).
    """
    gaps = []  # (new start, new end, original start) of each preserved stretch
    cursor = new_cursor = 0
    for r in replacements:
        gaps.append((new_cursor, r.new_start, cursor))
        cursor, new_cursor = r.end, r.new_end
    gaps.append((new_cursor, len(new_text), cursor))
    repairs: list[_Target] = []
    masked: set[tuple[int, int]] = set()
    for leak in leaks:
        form = matcher.form_of(leak.group(0))
        pieces = []
        for new_lo, new_hi, orig_lo in gaps:
            lo, hi = max(leak.start(), new_lo), min(leak.end(), new_hi)
            if lo < hi:
                start, end = orig_lo + lo - new_lo, orig_lo + hi - new_lo
                while start < end and text[start].isspace():
                    start += 1
                while end > start and text[end - 1].isspace():
                    end -= 1
                if start < end:
                    pieces.append((start, end))
        if form is not None and pieces:
            span = form.origin
            repairs += [
                _Target(Span(a, b, span.label, span.risk), "leak-check", span) for a, b in pieces
            ]
        else:
            masked |= {
                (r.start, r.end)
                for r in replacements
                if r.new_start < leak.end() and r.new_end > leak.start()
            }
    return repairs, masked


def _unify_forms(mentions: Sequence[Mention], values: list[str]) -> None:
    """Mentions of one entity spelt alike (``Bahnhofstr. 12`` / ``Bahnhofstraße 12``)
    get the first one's value. Names are rendered per form by their operators."""
    first: dict[tuple[int, str], str] = {}
    for i, m in enumerate(mentions):
        if not m.is_name:
            values[i] = first.setdefault((m.entity.id, _canonical(m.text)), values[i])


# --------------------------------------------------------------------------- anonymizer


#: Control characters (not tab, line feed, carriage return) → spaces, for detection only.
_CONTROL = {c: " " for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F]}


def detection_view(text: str) -> str:
    """The text the detector sees: control characters become spaces.

    Same length, so offsets are valid on the original. Tokenizers drop control
    characters, which would glue ``Hans\x00Müller`` into one unknown word.
    """
    return text.translate(_CONTROL)


def _check_texts(texts: Sequence[object]) -> list[str]:
    out = []
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"text {i} is {type(text).__name__}, expected str")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ValueError(
                f"text {i} is not valid Unicode: lone surrogate at character {err.start}"
            ) from None
        out.append(text)
    return out


class Anonymizer:
    """Detection and replacement in one object.

    ``detector`` is a :class:`~hf_anon.detection.SpanDetector` or any callable taking a
    list of texts and returning one list of :class:`~hf_anon.data.Span` per text (a
    rule-based detector, another model, a stub in tests).

    >>> anonymizer = Anonymizer.from_pretrained("outputs/e5-small/best")  # doctest: +SKIP
    >>> anonymizer.anonymize("Der Kläger Hans Müller …", mode="label").text  # doctest: +SKIP
    'Der Kläger <nat-name-1> …'
    """

    def __init__(
        self,
        detector: SpanDetector | DetectorFn,
        *,
        label_set: LabelSet | None = None,
        batch_size: int = 16,
    ):
        if hasattr(detector, "predict_probabilities"):
            self.label_set = label_set or detector.labels
        elif callable(detector):
            self.label_set = label_set or DEFAULT_LABELS
        else:
            raise TypeError("detector must be a SpanDetector or a callable returning spans")
        self.detector = detector
        self.batch_size = batch_size

    @classmethod
    def from_pretrained(
        cls,
        path: str | Path | None = None,
        *,
        device: str | None = None,
        dtype: str | None = None,
        quantize: bool = False,
        max_length: int | None = None,
        stride: int | None = None,
        batch_size: int = 16,
        backend: str = "torch",
        recognizers="config",
        label_thresholds="config",
    ) -> Anonymizer:
        """Load an hf-anon model (folder or hub id; None: the bundled default model).

        ``dtype`` (``bfloat16``/``float16``) halves memory and time on a GPU;
        ``quantize=True`` applies dynamic int8 quantization to the linear layers (CPU
        only; check recall on your data before relying on it). ``backend="onnx"`` runs
        the model with ONNX Runtime on the CPU (``pip install "hf-anon[onnx]"``).
        ``max_length`` and ``stride`` (tokens) default to the windows the model was trained
        with (``training_config.json``), else 512 and 64. ``recognizers``: the rules merged
        with the model's spans (names, ``()`` for none) and ``label_thresholds`` (``{}``: the
        most likely tag); both default to the model's config (``hf-anon calibrate``).
        """
        import torch

        from hf_anon.detection import SpanDetector

        if dtype is not None and dtype != "float32":
            if dtype not in ("bfloat16", "float16"):
                raise ValueError(f"dtype must be float32, bfloat16 or float16, got {dtype!r}")
            if quantize or backend == "onnx":
                raise ValueError(f"dtype {dtype} works with the torch backend, unquantized")
        detector = SpanDetector.from_pretrained(
            path,
            device=device,
            backend=backend,
            quantize=quantize,
            max_length=max_length,
            stride=stride,
            recognizers=recognizers,
            label_thresholds=label_thresholds,
        )
        if dtype is not None and dtype != "float32":
            detector.model.to(getattr(torch, dtype))
        return cls(detector, batch_size=batch_size)

    # -- detection
    def _detect(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        threshold: float | None = None,
        progress: bool = False,
    ) -> list[tuple[list[Span], int | None]]:
        """Spans and model token counts per text; raises :class:`DetectionError`."""
        texts = [detection_view(t) for t in _check_texts(texts)]
        if not texts:
            return []
        batch_size = batch_size or self.batch_size
        if hasattr(self.detector, "predict_probabilities"):
            return self._detect_model(texts, batch_size, threshold, progress)
        try:
            found = self.detector(list(texts))
        except Exception as err:
            raise DetectionError(f"detection failed, nothing was anonymized: {err!r}") from err
        if not isinstance(found, Sequence) or len(found) != len(texts):
            raise DetectionError("the detector must return one list of spans per text")
        out = []
        for spans in found:
            try:
                spans = list(spans)
            except TypeError:
                raise DetectionError(
                    "the detector must return one list of spans per text"
                ) from None
            if threshold is not None:
                spans = [s for s in spans if s.score is None or s.score >= threshold]
            out.append((spans, None))
        return out

    def _detect_model(self, texts, batch_size, threshold, progress):
        from hf_anon.data import Document

        detector = self.detector
        documents = [Document(str(i), t) for i, t in enumerate(texts)]
        try:
            predicted = detector.predict_probabilities(
                documents, batch_size=batch_size, progress=progress
            )
        except Exception as err:
            raise DetectionError(f"detection failed, nothing was anonymized: {err!r}") from err
        out = []
        for encoded, tags, labels, risks in predicted:
            if tags is None:
                out.append(([], encoded.num_tokens))
                continue
            for name, probs in (("tag", tags), ("label", labels), ("risk", risks)):
                if not np.isfinite(probs).all():
                    raise DetectionError(
                        f"text {encoded.doc_id}: the model gave non-finite {name} "
                        "probabilities; nothing was anonymized"
                    )
            spans = detector.decode(encoded, tags, labels, risks, threshold=threshold)
            out.append((spans, encoded.num_tokens))
        return out

    def detect(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        threshold: float | None = None,
        progress: bool = False,
    ) -> list[list[Span]]:
        """Spans (label, risk, score; character offsets) for texts of any length.

        Long texts are windowed, never truncated; windows of all texts are batched
        sorted by length. ``threshold`` on ``1 - P(O)`` trades precision for recall
        (None: the most likely tag); for a callable detector it drops spans scored lower.
        """
        if isinstance(texts, str):
            raise TypeError("detect takes a list of texts; wrap a single text in a list")
        found = self._detect(texts, batch_size=batch_size, threshold=threshold, progress=progress)
        return [spans for spans, _ in found]

    # -- anonymization
    def plan(
        self,
        *,
        mode: str | Operator = "pseudonym",
        operators: Mapping[str, str | Operator] | None = None,
        labels: Iterable[str] | None = None,
        min_risk: str | None = None,
    ) -> AnonymizationPlan:
        return AnonymizationPlan.build(
            mode=mode,
            operators=operators,
            labels=labels,
            min_risk=min_risk,
            label_set=self.label_set,
        )

    def anonymize(
        self,
        text_or_texts: str | Sequence[str],
        *,
        mode: str | Operator = "pseudonym",
        operators: Mapping[str, str | Operator] | None = None,
        labels: Iterable[str] | None = None,
        min_risk: str | None = None,
        threshold: float | None = None,
        seed: int | None = None,
        secret: str | bytes | None = None,
        key: bool = False,
        batch_size: int | None = None,
        progress: bool = False,
        plan: AnonymizationPlan | None = None,
    ) -> AnonymizationResult | list[AnonymizationResult]:
        """Detect and replace; one result for a string, a list for a list of strings.

        - ``mode``: the operator for every selected label (``redact``, ``label``,
          ``initials``, ``pseudonym``, ``keep``, or an :class:`Operator`);
          ``operators``: per-label exceptions, e.g. ``{"court-name": "keep"}``.
        - ``labels``: the labels to replace (default all); ``min_risk``: replace only
          spans of at least this risk (``low`` < ``medium`` < ``high``).
        - ``threshold``: detection threshold (see :meth:`detect`).
        - ``seed``: reproducible output (same seed, same text → same result); without it
          every call draws fresh replacements.
        - ``secret``: link documents: an entity gets the same replacement in every
          document anonymized with the same secret (keyed HMAC). Without it nothing
          links documents.
        - ``key``: also return the originals, so that :meth:`AnonymizationResult.restore`
          works (keep such results away from the published text).

        A ``plan`` (from :meth:`plan`) replaces ``mode``, ``operators``, ``labels`` and
        ``min_risk``. Raises :class:`DetectionError` if detection fails for any window of
        any text and :class:`LeakError` if a protected form would remain: never partial
        output.
        """
        single = isinstance(text_or_texts, str)
        texts = [text_or_texts] if single else list(text_or_texts)
        if plan is None:
            plan = self.plan(mode=mode, operators=operators, labels=labels, min_risk=min_risk)
        secret_bytes = _as_secret(secret)
        found = self._detect(texts, batch_size=batch_size, threshold=threshold, progress=progress)
        results = [
            replace_spans(
                text,
                spans,
                plan=plan,
                seed=seed,
                secret=secret_bytes,
                key=key,
                tokens=tokens,
            )
            for text, (spans, tokens) in zip(texts, found, strict=True)
        ]
        return results[0] if single else results


__all__ = [
    "OPERATORS",
    "AnonymizationError",
    "AnonymizationPlan",
    "AnonymizationResult",
    "Anonymizer",
    "DetectionError",
    "Entity",
    "Initials",
    "Keep",
    "Label",
    "LeakError",
    "Mention",
    "Operator",
    "OperatorContext",
    "Pseudonym",
    "Redact",
    "Replacement",
    "clean_spans",
    "get_operator",
    "protected_forms",
    "register_operator",
    "replace_spans",
    "resolve_entities",
    "restore",
]
