"""A dictionary noun is no name: the model's one-word names that German writes as common
nouns are dropped.

A model that learned that a capitalised word after ``der`` or ``von`` can be a company or a
person also reads ``die Hausverwaltung``, ``ein ausgewachsenes Reh``, ``die Ampel habe noch
Grün`` or ``von der Terrororganisation „Hamas“`` as names; German capitalises every noun.
The lexicon (``resources/common_nouns.txt.gz``, every inflected form of the common nouns
of the German Wiktionary, built by ``datasets_scripts/build_noun_lexicon.py``) holds no
form that Wiktionary also lists as a surname, first name or place (``Müller``, ``Gelb``,
``Schreiner``, ``Wolf``), and a word that stands as a name elsewhere in the same text
(``Hans Reh`` … ``Reh``), after a salutation or role (``Zeugin Honig``), or after the noun
that introduces a name (``Nachrichtenmagazin Kompass``) stays.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from hf_anon.text.data import Span
from hf_anon.text.lexicon import EDGE_PUNCT, core_word

#: Labels whose one-word spans are checked: names of people and companies (not a judge's
#: name in a signature, not places, not personal features such as ``Schreiner``)
CHECKED_LABELS = frozenset({"nat-name", "jur-name"})
#: A company's one-word name that is a dictionary noun is dropped only from this length
#: on: generic business nouns are compounds (``Hausverwaltung``, ``Kaskoversicherung``,
#: ``Samtgemeinde``), brands short words (``Schott``, ``Kompass``, ``Facebook``)
COMPANY_NOUN_LENGTH = 10
#: Labels whose multi-word spans say which words are names in a text
PERSON_LABELS = frozenset({"nat-name", "nat-jur"})
#: Heads of compounds that are always common nouns (``Treppenhausreinigung``,
#: ``Wehrbereichsverwaltung``); concrete heads are left alone (``Morgenstern``,
#: ``Kesselring`` are surnames too)
ABSTRACT_SUFFIXES = ("ung", "ungen", "heit", "keit", "schaft", "ion", "tät", "ismus")
_SENTENCE_START = re.compile(r"(?:^|[.:!?]\s+|\n\s*)$")


def resource_lines(name: str) -> list[str]:
    """The non-empty lines of a bundled gzip file, ``hf_anon/resources/NAME``."""
    path = resources.files("hf_anon") / "resources" / name
    with path.open("rb") as raw, gzip.open(raw, "rt", encoding="utf-8") as lines:
        return [line.rstrip("\n") for line in lines if line.strip()]


@lru_cache(maxsize=1)
def common_nouns() -> frozenset[str]:
    """Every form of a German common noun that is never a name's form (255,000 words)."""
    return frozenset(line.strip() for line in resource_lines("common_nouns.txt.gz"))


def _compound_head(word: str, nouns: frozenset[str]) -> bool:
    """``Treppenhausreinigung``: a noun (``Treppenhaus``) before an abstract noun
    (``Reinigung``), with or without a linking ``s``."""
    for i in range(3, len(word) - 4):
        head = word[i:].capitalize()
        if head.endswith(ABSTRACT_SUFFIXES) and head in nouns:
            prefix = word[:i]
            if prefix in nouns or prefix.removesuffix("s") in nouns:
                return True
    return False


def is_common_noun(word: str) -> bool:
    """Whether ``word`` (edge punctuation ignored; capitals read as title case) is a German
    common noun and never a name: ``Reh``, ``Hausverwaltung``, ``HONIG``, not ``Müller``."""
    from hf_anon.text.names import first_name_genders, known_last_names

    core = core_word(word)
    if core.isupper() and len(core) > 1:
        core = core.capitalize()
    if len(core) < 3 or not core[:1].isupper() or core in known_last_names():
        return False
    if core in first_name_genders():
        return False
    nouns = common_nouns()
    return core in nouns or _compound_head(core, nouns)


def _named_before(text: str, start: int) -> bool:
    """A salutation, title, role or introducing noun right before ``start``: ``Zeugin
    Honig``, ``Herrn Dr. Reh``, ``Nachrichtenmagazin Kompass`` (not at a sentence start,
    not an article: ``Das Reh``)."""
    from hf_anon.text.lexicon import is_closed_class
    from hf_anon.text.names import TITLES, is_person_noun

    before = text[max(0, start - 60) : start]
    m = re.search(r"(\S+)[ \t]+$", before)
    if m is None:
        return False
    word = m.group(1)
    if word.lower() in TITLES or is_person_noun(word):
        return True
    return (
        word[:1].isupper()
        and word.isalpha()
        and not is_closed_class(word)
        and not _SENTENCE_START.search(before[: m.start()])
    )


def _listed(text: str, start: int, end: int) -> bool:
    """Whether the word stands where names are listed, not in a sentence: alone on its line
    (a judge's ``Schmalz`` heading a page) or right after a colon (``Annex A: Schott``)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    before = text[line_start:start].strip()
    after = text[end : len(text) if line_end < 0 else line_end].strip(" \t.,;")
    return before.endswith(":") or (not before and not after)


def drop_common_nouns(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without the one-word names of :data:`CHECKED_LABELS` that are common
    nouns (:func:`is_common_noun`) and nothing in the text marks as a name."""
    if not any(s.label in CHECKED_LABELS for s in spans):
        return list(spans)
    names = {
        word.strip(EDGE_PUNCT)
        for s in spans
        if s.label in PERSON_LABELS
        for word in text[s.start : s.end].split()[1:]  # surnames: `Hans Reh`, `Dr. Reh`
    }
    dropped = {
        i
        for i, s in enumerate(spans)
        if s.label in CHECKED_LABELS
        and len(text[s.start : s.end].split()) == 1
        and (s.label != "jur-name" or len(text[s.start : s.end]) >= COMPANY_NOUN_LENGTH)
        and is_common_noun(text[s.start : s.end])
        and text[s.start : s.end].strip(EDGE_PUNCT) not in names
        and not _listed(text, s.start, s.end)
        and not _named_before(text, s.start)
    }
    return [s for i, s in enumerate(spans) if i not in dropped]
