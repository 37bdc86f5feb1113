"""German closed-class words, and spans trimmed of them at their edges.

A span never starts or ends on an article, preposition, conjunction, pronoun or auxiliary,
and never consists of one (ANNOTATION.md: ``am``, ``in``, ``vom``, ``der`` are outside): a
model that tags ``der`` before a street or ``in`` glued to it publishes a gap where the
word was, and a leak check that searches the tagged form replaces every ``der`` of the
document. The list is the maintained German list of the ``stop-words`` package, minus the
words that are also content words at a span's edge (``weg``), plus prepositions and
contractions it lacks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from hf_anon.data import Span

_NOT_CLOSED = frozenset({"weg", "machen", "sehr", "viel", "weiter", "weitere", "selbst", "hier"})
_EXTRA = frozenset(
    [
        "ab",
        "bzgl",
        "bezüglich",
        "beim",
        "binnen",
        "gem",
        "gemäß",
        "hinsichtlich",
        "innerhalb",
        "außerhalb",
        "laut",
        "mittels",
        "nebst",
        "samt",
        "seit",
        "statt",
        "trotz",
        "wegen",
        "zwecks",
        "infolge",
        "anlässlich",
        "aufgrund",
        "bzw",
        "sowie",
        "sowohl",
        "als",
        "ca",
        "gegenüber",
        "entlang",
        "jenseits",
        "diesseits",
        "oberhalb",
        "unterhalb",
        "per",
        "pro",
        "via",
        "vorm",
        "überm",
        "unterm",
        "ans",
        "aufs",
        "durchs",
        "fürs",
        "ums",
        "hinterm",
    ]
)
# Capitalised at a span's start these are still function words (``Am``, ``Der``, ``In``);
# other stop words capitalised are often names (``Will``, ``Weil``, ``Kann``).
_CAPITALISED_FUNCTION_WORDS = frozenset(
    [
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "ein",
        "eine",
        "einem",
        "einen",
        "einer",
        "eines",
        "am",
        "im",
        "in",
        "an",
        "auf",
        "bei",
        "mit",
        "von",
        "vom",
        "zu",
        "zum",
        "zur",
        "und",
        "oder",
        "aus",
        "nach",
        "über",
        "unter",
        "vor",
        "seit",
        "gegen",
        "durch",
        "für",
        "bis",
    ]
)
# Name particles stay inside person names (``von der Au``, ANNOTATION.md clarifications).
NAME_PARTICLES = frozenset(
    [
        "von",
        "van",
        "de",
        "der",
        "den",
        "zu",
        "zum",
        "zur",
        "vom",
        "ter",
        "ten",
        "da",
        "di",
        "del",
        "la",
        "le",
    ]
)
PERSON_LABELS = frozenset({"nat-name", "nat-jur"})
_WORD = re.compile(r"\S+")
_EDGE_PUNCT = "\"'„“”‚‘’«»()[]{},;:.!?"


@cache
def closed_class_words() -> frozenset[str]:
    """German articles, prepositions, conjunctions, pronouns and auxiliaries (lower case)."""
    from stop_words import get_stop_words

    return (frozenset(get_stop_words("de")) - _NOT_CLOSED) | _EXTRA


def is_closed_class(word: str) -> bool:
    """Whether ``word`` (its letters, as written) is a function word, not a name.

    Lower-case forms and ALL-CAPS forms of closed-class words count; capitalised forms only
    for articles and prepositions (``Der``, ``Am``), since ``Will``, ``Weil`` or ``Kann`` are
    surnames too.
    """
    core = word.strip(_EDGE_PUNCT)
    lower = core.lower()
    if lower not in closed_class_words():
        return False
    if core == lower or (core.isupper() and len(core) > 1):
        return True
    capitalised = core[:1].isupper() and core[1:] == core[1:].lower()
    return capitalised and lower in _CAPITALISED_FUNCTION_WORDS


def trim_closed_class(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans without closed-class words at their edges; spans made only of them are dropped.

    ``in der Bahnhofstraße 12`` → ``Bahnhofstraße 12``; ``Bahnhofstraße 12 in`` →
    ``Bahnhofstraße 12``; a lone ``der`` disappears. Particles of person names stay
    (``von der Au`` as ``nat-jur``), as does a closed-class word inside a span
    (``Hans und Grete Müller`` is two names the model joined, not this rule's business).
    """
    out = []
    for span in spans:
        words = [m.span() for m in _WORD.finditer(text, span.start, span.end)]
        first, last = 0, len(words)
        person = span.label in PERSON_LABELS
        while first < last and is_closed_class(text[slice(*words[first])]):
            rest = [text[slice(*w)] for w in words[first + 1 : last]]
            particle = text[slice(*words[first])].lower() in NAME_PARTICLES
            if person and particle and rest and rest[-1][:1].isupper():
                break  # `von der Au`
            first += 1
        while last > first and is_closed_class(text[slice(*words[last - 1])]):
            last -= 1
        if first >= last:
            continue
        start, end = words[first][0], words[last - 1][1]
        if (start, end) == (span.start, span.end):
            out.append(span)
        else:
            out.append(Span(start, end, span.label, span.risk, span.score))
    return out
