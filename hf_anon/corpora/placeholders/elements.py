"""The pieces the placeholder detector works on: whitespace elements, candidates and the
merged placeholders, with the few context helpers both the detector and the labelling read.

Offsets are characters of the published text. Split from
:mod:`hf_anon.corpora.placeholders.detector` so that finding a placeholder and labelling it
(:mod:`hf_anon.corpora.placeholders.labelling`) each have a module.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from hf_anon.corpora.placeholders.cues import (
    ENTITY_SUFFIXES,
    LEGAL_PROFESSION_CUES,
    PERSON_CUES,
    ROLE_ENDINGS,
)
from hf_anon.text.data import Span
from hf_anon.text.lexicon import STREET_SUFFIXES
from hf_anon.text.names import TITLES

UNKNOWN = "unknown"

OPENING = "\"'„“‚‘»«([{<"


class Element(NamedTuple):
    """A whitespace-separated piece of text and its core without surrounding punctuation.

    Offsets are characters. ``core`` keeps a placeholder's own period (``A.``) but not a
    sentence period glued to it (``A..`` → ``A.``, ``….`` → ``…``). A named tuple:
    a decision has tens of thousands of elements.
    """

    start: int
    end: int
    core_start: int
    core_end: int
    core: str
    raw: str
    line_start: bool

    @property
    def lower(self) -> str:
        """Lower case with composed umlauts: some portals write ``ä`` as ``a`` and a
        combining diaeresis, which no cue word would match otherwise."""
        return unicodedata.normalize("NFC", self.core).lower()


_STRIP_RIGHT = ",;:!?)]}\"'“”‘’«»"
_STRIP_RIGHT_OR_PERIOD = _STRIP_RIGHT + "."
_ELEMENT = re.compile(r"\S+")


def _core_bounds(raw: str) -> tuple[int, int]:
    left, right = 0, len(raw)
    while left < right and raw[left] in OPENING:
        left += 1
    while right > left and (
        raw[right - 1] in _STRIP_RIGHT
        or (raw[right - 1] == "." and right - 2 >= left and raw[right - 2] in _STRIP_RIGHT)
    ):
        right -= 1
    core = raw[left:right]
    if core.endswith("….") or (
        core.endswith("..")
        and core.strip(".")
        and (not core.endswith("...") or core.endswith("...."))
    ):
        right -= 1  # "E..", "….", "H...." end a sentence
    return left, right


def split_elements(text: str) -> list[Element]:
    """The seed's text elements: a whitespace split, keeping character offsets."""
    elements = []
    append = elements.append
    for match in _ELEMENT.finditer(text):
        raw, start = match.group(), match.start()
        if raw[0] in OPENING or raw[-1] in _STRIP_RIGHT_OR_PERIOD:
            left, right = _core_bounds(raw)
            core = raw[left:right]
        else:
            left, right, core = 0, len(raw), raw
        before = start - 1
        while before >= 0 and text[before] in " \t":
            before -= 1
        line_start = before < 0 or text[before] == "\n"
        append(Element(start, match.end(), start + left, start + right, core, raw, line_start))
    return elements


@dataclass(frozen=True, slots=True)
class Candidate:
    """A placeholder element (or a visible part completing one), characters."""

    index: int
    start: int
    end: int
    kind: str


def without_period(core: str) -> str:
    """``Zzzzz.`` at the end of a sentence has the shape of ``Zzzzz``."""
    return core[:-1] if core.endswith(".") and len(core) > 2 and core[-2] not in ".…" else core


def _first_word(words: Sequence[str], skip: set[str]) -> str:
    """The first of ``words`` (nearest first) that is not in ``skip``."""
    return next((w for w in words if w not in skip), "")


def before_words(elements: Sequence[Element], i: int, n: int = 6) -> list[str]:
    """Lower-cased cores of the ``n`` elements before ``i``, nearest first."""
    return [e.lower for e in elements[max(0, i - n) : i]][::-1]


def person_context(elements: Sequence[Element], i: int) -> bool:
    """A person noun or a title comes right before (titles skipped): ``Zeugin Dr. A.``."""
    cue = _first_word(before_words(elements, i), TITLES)
    return cue in PERSON_CUES or cue in LEGAL_PROFESSION_CUES or cue.endswith(ROLE_ENDINGS)


_PAY_GROUPS = ("entgeltgruppe", "besoldungsgruppe", "lohngruppe", "vergütungsgruppe", "tarifgruppe")


def is_entity_suffix(suffix: str) -> bool:
    """Suffixes that make ``X-…`` a place or an organization (``X-Stadt``, ``M-GmbH``)."""
    lower = suffix.lower().rstrip(".")
    first = lower.split("-")[0]
    if first.endswith(_PAY_GROUPS):
        return False  # "S-Entgeltgruppe": a pay scale, not the "X-Gruppe" of a company
    return is_street(lower) or any(
        first.startswith(s) or first.endswith(s) for s in ENTITY_SUFFIXES
    )


def is_street(core: str) -> bool:
    lower = core.lower().rstrip(".")
    return any(lower.endswith(s.rstrip(".")) for s in STREET_SUFFIXES)


NAME_KINDS = {"masked-word", "repeated", "letter", "quoted-letter", "mask"}


@dataclass(frozen=True)
class Placeholder:
    """A merged placeholder: characters ``[start, end)``, its label, its parts' shapes."""

    start: int
    end: int
    label: str
    kinds: tuple[str, ...]
    first: int  # element indices
    last: int
    guessed: bool = False  # no cue decided the label (unknown, or a name by default)

    def to_span(self) -> Span:
        return Span(self.start, self.end, self.label)
