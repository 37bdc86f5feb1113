"""What looks like a placeholder and is not: abbreviations, references, dockets, outline
letters, gazette pages, spaced headings, signatures, words a PDF split after their capital.

Each predicate answers for one element in its context; :mod:`.detector` asks them before it
calls an element a placeholder. Written from real decisions (each docstring names its case).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hf_anon.corpora.placeholders.cues import (
    ABBREVIATIONS,
    COORDINATION,
    HEADINGS,
    LEGAL_PROFESSION_CUES,
    PERSON_CUES,
    REFERENCE_NOUNS,
    SIGNATURE_WORDS,
)
from hf_anon.corpora.placeholders.elements import Element
from hf_anon.corpora.placeholders.shapes import NOT_PLACEHOLDERS, RE_DOCKET_NUMBER, RE_ROMAN
from hf_anon.text.lexicon import is_closed_class, is_known_word
from hf_anon.text.nouns import is_common_noun


def abbreviation_around(elements: Sequence[Element], i: int) -> bool:
    """Whether element ``i`` is part of a tokenized abbreviation (``u. a.``, ``a. a. O.``)."""
    single = re.compile(r"[A-Za-zäöü]\.")
    lo = i
    while lo > 0 and i - lo < 3 and single.fullmatch(elements[lo - 1].core):
        lo -= 1
    hi = i
    while hi + 1 < len(elements) and hi - i < 3 and single.fullmatch(elements[hi + 1].core):
        hi += 1
    return any(
        elements[a].core[0].islower()
        and "".join(e.core for e in elements[a : b + 1]).lower() in ABBREVIATIONS
        for a in range(lo, i + 1)
        for b in range(max(i, a + 1), hi + 1)
    )


def in_docket(elements: Sequence[Element], i: int) -> bool:
    """A letter next to a docket number (``B 9 SB 2/00 R``, ``X R 53/13``)."""
    return any(
        RE_DOCKET_NUMBER.match(elements[j].core)
        for j in range(max(0, i - 3), min(len(elements), i + 4))
        if j != i
    )


def names_someone(prev: Element) -> bool:
    """A person noun or title right before: what follows is a name."""
    word = prev.lower
    return (
        word in PERSON_CUES
        or word in LEGAL_PROFESSION_CUES
        or (word in {"khk", "kok", "pk", "pok", "phk", "kk", "kom", "dr.", "herrn", "frau", "herr"})
    )


LIST_WORDS = frozenset({"und", "and", "oder", "or", "sowie", "bis"})
_NUMBERED_NOUNS = frozenset(
    {
        "art.",
        "artikel",
        "kapitel",
        "kap.",
        "band",
        "bd.",
        "teil",
        "abschnitt",
        "titel",
        "buch",
        "anhang",
        "anlage",
    }
)


def roman_reference(bare: str, prev: Element | None) -> bool:
    """``Kapitel XXX``, ``Art. XXX``: a Roman thirty after a numbered noun, not a mask."""
    return bool(RE_ROMAN.match(bare) and prev is not None and prev.lower in _NUMBERED_NOUNS)


def listed_after_reference(elements: Sequence[Element], i: int) -> bool:
    """Whether letter ``i`` continues a list of letters that a reference noun opened."""
    j = i - 1
    while j >= 0 and i - j <= 8:
        core = elements[j].lower
        if core in REFERENCE_NOUNS:
            return True
        listed = re.fullmatch(r"[a-zäöü]\.?|[a-z]{1,2}\d?[a-z]?", core)  # "C1E", "BE"
        if not (core in COORDINATION or core in {"bis", "-"} or listed):
            return False
        j -= 1
    return False


def not_a_name_before(core: str, nxt: Element, after: Element | None) -> bool:
    """Context after a single letter that makes it no placeholder (real decisions).

    ``BVerwG, U. v. 31.01.1969`` and ``B. v.`` (decision abbreviations), ``K. O.-Tablette``
    (knock-out), ``mit B bezeichneten`` (a figure reference), ``oben B III. a)`` (an outline
    reference), ``G r ü n d e`` (a letter-spaced heading).
    """
    if core in {"U.", "B.", "Urt.", "Beschl."} and nxt.lower in {"v.", "vom"}:
        return True
    if nxt.raw == "+":
        return True  # "HK + S + KNO3": a formula
    if core.endswith(".") and re.match(r"[A-ZÄÖÜ][a-zäöüß]+[A-ZÄÖÜ][a-zäöüß]", nxt.core):
        return True  # "C. FischerBrenneisenKatzenstein": a judge's initial, names glued
    if (core == "K." and nxt.core.startswith("O.")) or (core == "E." and nxt.core.startswith("ON")):
        return True
    if nxt.lower.startswith("bezeichnet"):
        return True
    if (
        RE_ROMAN.match(nxt.core)
        and not re.fullmatch(r"X{3,},?", nxt.core)
        and len(nxt.core.rstrip(".")) > 1  # "A, B, C": letters, not "B III." of an outline
        and len(core.rstrip(".")) == 1
        and nxt.core.rstrip(".") not in {"I", "V"}
    ):
        return True
    return (
        re.fullmatch(r"[a-zäöü]", nxt.raw) is not None
        and after is not None
        and re.fullmatch(r"[a-zäöü]", after.raw) is not None
    )


def defines_abbreviation(el: Element, prev: Element | None) -> bool:
    """``(Kl.)`` after ``Kläger``: a short form in parentheses whose letters appear, in
    order and from the first, in the word before it, defined for the rest of the text."""
    if prev is None or not re.fullmatch(r"\([A-ZÄÖÜ][a-zäöü]{1,4}\.\)[,.;:]?", el.raw):
        return False
    letters, word = el.core.strip("().").lower(), prev.lower
    if not word.startswith(letters[0]):
        return False
    position = 0
    for letter in letters:
        position = word.find(letter, position) + 1
        if position == 0:
            return False
    return True


def split_word(el: Element, nxt: Element | None) -> bool:
    """A capital letter and, one space on, the rest of a word: text extraction spaced a
    drop capital or a kerned letter off (``A ntragstellerin``, ``E -Mail``)."""
    if nxt is None or not re.fullmatch(r"[A-ZÄÖÜ]", el.core) or nxt.start != el.end + 1:
        return False
    if el.raw != el.core or not (nxt.raw[:1].islower() or nxt.raw[:1] == "-"):
        return False
    if len(nxt.core) < 3 or is_closed_class(nxt.core):
        return False  # "Dr. Y in seiner": a word of its own follows the letter
    word = el.core + nxt.core
    if nxt.raw[:1] == "-":
        return "-".join(word.split("-")[:2]) in NOT_PLACEHOLDERS  # "E -Mail-Adresse"
    letters_only = re.fullmatch(r"[a-zäöüß]{4,}(?:-\w+)*", nxt.core) is not None
    return is_common_noun(word) or (letters_only and not is_known_word(nxt.core))


def gazette_page(core: str, prev: Element | None) -> bool:
    """``S.`` after a gazette (``GVBl. S.``, ``BGBl. I S.``, ``2004, S.``): a page, even
    where the page number went to the next line."""
    return (
        core == "S."
        and prev is not None
        and (
            prev.lower.endswith("bl.")
            or prev.core in {"I", "II", "III"}
            or re.fullmatch(r"\d{4},?", prev.raw) is not None
        )
    )


def spaced_heading(elements: Sequence[Element], i: int) -> bool:
    """Capitals spaced out in a heading (``TAT B E S TAN D``, ``G R Ü N D E``)."""
    if not re.fullmatch(r"[A-ZÄÖÜ]", elements[i].core):
        return False
    lo = hi = i
    while lo > 0 and i - lo < 8 and re.fullmatch(r"[A-ZÄÖÜ]{1,4}", elements[lo - 1].raw):
        lo -= 1
    while (
        hi + 1 < len(elements)
        and hi - i < 8
        and re.fullmatch(r"[A-ZÄÖÜ]{1,4}", elements[hi + 1].raw)
    ):
        hi += 1
    word = "".join(e.raw for e in elements[lo : hi + 1]).lower()
    return hi > lo and word in HEADINGS


def signature_around(prev: Element | None, nxt: Element | None) -> bool:
    """An ellipsis line between ``gez.`` and ``Richter am …`` hides a judge's name."""
    return any(
        el is not None and el.lower.lstrip("(").startswith(SIGNATURE_WORDS) for el in (prev, nxt)
    )
