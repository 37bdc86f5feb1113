"""What the whole decision says about its placeholders: one entity keeps one mask.

A court that writes ``die I AG (im Folgenden: I)`` hides the same company behind every
later ``I``, ``I-Beteiligung`` or ``„I“``, even where a single ``I`` alone would read as a
Roman numeral. :func:`letters_elsewhere` adds those occurrences once a cue somewhere in
the decision has decided what the letter hides, and :func:`label_from_decision` gives a
guessed label the one a cue gave the same letters elsewhere; the annotators' guide asks the
same of people ("choose from the whole decision").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from hf_anon.corpora.placeholders.cues import ARTICLES, LETTER_COMPOUNDS, REFERENCE_NOUNS
from hf_anon.corpora.placeholders.elements import UNKNOWN, Element, Placeholder
from hf_anon.text.lexicon import is_known_word
from hf_anon.text.nouns import is_common_noun

_LETTER = re.compile(r"([A-ZÄÖÜ]\d?)(\.?)")
#: Words after which a letter stands where a name stands (``der I``, ``von I``, ``J, I``).
_SLOT_WORDS = ARTICLES | {"von", "vom", "an", "und", "sowie", "oder", "für", "mit", "bei"}
_SLOT_WORDS |= {"zwischen", "über", "gegen", "durch", "zur", "zum", "auch", "als"}
#: The letter in an element: bare or quoted, before a hyphen compound or a parenthesis
#: (``I``, ``„Y“``, ``K-Erwerb``, ``X(Anlagenkonvolut``, ``I.``).
_IN_ELEMENT = re.compile(r"^[(„\"'‚»«]*([A-ZÄÖÜ]\d?)(?=[“\"'‘«»]?(?:[-–(]\w|[.,;:)“\"'‘«»]*$))")


_GENERIC_MASK = re.compile(r"[\W_xX]*|[nN]+|([A-Za-z])\1*", re.UNICODE)


def _entity_key(surface: str) -> str | None:
    """What identifies one hidden entity in a decision: its letters (``Dr. N`` and ``N``
    alike), or None for masks every entity shares (``XXX``, ``*****``, ``…``, ``nnnn``)."""
    core = " ".join(surface.replace(".", " ").split())
    if _GENERIC_MASK.fullmatch(core.replace(" ", "")) and not re.fullmatch(r"[A-Z]", core):
        return None
    return core


def _letter_key(surface: str) -> str | None:
    """A single letter, maybe numbered, with or without its period (``I``, ``B1.``)."""
    match = _LETTER.fullmatch(surface)
    return match.group(1) if match else None


def _decided(
    text: str, placeholders: Sequence[Placeholder], key: Callable[[str], str | None]
) -> dict[str, str]:
    """Keys of surfaces a cue labelled one way, and only one way, in this decision."""
    labels: dict[str, set[str]] = {}
    for p in placeholders:
        k = key(text[p.start : p.end])
        if k and not p.guessed and p.label != UNKNOWN:
            labels.setdefault(k, set()).add(p.label)
    return {k: next(iter(found)) for k, found in labels.items() if len(found) == 1}


def label_from_decision(text: str, placeholders: Sequence[Placeholder]) -> list[Placeholder]:
    """Guessed labels replaced by the label cues gave the same letters elsewhere in the
    decision: ``SV Dr. N`` decides ``Nach den Ausführungen von Dr. N``, ``Anschrift L``
    decides ``„L“`` (the annotators' rule: choose from the whole decision). A surface
    decided two ways stays as it was; masks every entity shares are never linked."""
    decided = _decided(text, placeholders, _entity_key)
    out = []
    for p in placeholders:
        label = decided.get(_entity_key(text[p.start : p.end]) or "") if p.guessed else None
        if label:
            p = Placeholder(p.start, p.end, label, p.kinds, p.first, p.last, False)
        out.append(p)
    return out


def _in_a_reference(elements: Sequence[Element], i: int) -> bool:
    """After a reference noun, a number or ``§``, directly or through a list of letters."""
    j = i - 1
    while j >= 0 and re.fullmatch(r"[A-ZÄÖÜ]\d?,?", elements[j].raw):
        j -= 1  # "Beiakten A, B, C": back to the word before the list
    before = elements[j] if j >= 0 else None
    if before is None:
        return False
    return (
        before.lower in REFERENCE_NOUNS
        or before.core in {"§", "§§"}
        or (j == i - 1 and before.core.isdigit())
    )


def _in_a_name_slot(elements: Sequence[Element], i: int) -> bool:
    """Where a name would stand: after an article, a preposition or a comma, quoted, or
    glued to a compound; never after a reference noun or as an outline heading."""
    el = elements[i]
    prev = elements[i - 1] if i else None
    nxt = elements[i + 1] if i + 1 < len(elements) else None
    compound = el.lower.strip("„\"'‚»«“”").rstrip(".,;:")
    if compound in LETTER_COMPOUNDS or compound.split("-")[0] + "-" in LETTER_COMPOUNDS:
        return False  # "E-Mail", "U-Bahn": a word, whatever "E" hides elsewhere
    if _in_a_reference(elements, i):
        return False  # "Anlage I", "Beiakten A, B, C", "Bl 123 B-Akte"
    if el.line_start and el.core.endswith("."):
        return False  # "I." heading a part of the reasons
    if re.search(r"-\d", el.core) or (
        nxt is not None and re.fullmatch(r"\d\S*|[IVX]+\.?", nxt.core)
    ):
        return False  # "C-316/01", "I 5", "A III": a reference with its number
    if (
        nxt is not None
        and nxt.start == el.end + 1
        and nxt.raw[:1].islower()
        and (is_common_noun(el.core + nxt.core) or not is_known_word(nxt.core))
    ):
        return False  # "mit B lick": a word split after its capital
    if nxt is not None and nxt.raw == "&":
        return False  # "M & A"
    if el.raw[:1] in "„\"'‚»«" or "-" in el.core or "(" in el.core:
        return True
    if prev is None:
        return False
    sentence_start = (
        prev.raw.endswith(".")
        and not el.core.endswith(".")
        and (prev.raw[:1].islower() or prev.raw.endswith(")."))
    )  # "… halten. I und J", "(im Folgenden: J). I", not "GVBl. I"
    return prev.lower in _SLOT_WORDS or prev.raw.endswith((",", ":", ";")) or sentence_start


def letters_elsewhere(
    text: str, elements: Sequence[Element], placeholders: Sequence[Placeholder]
) -> list[Placeholder]:
    """``placeholders`` plus the other occurrences of letters a cue decided, in text order."""
    letters = _decided(text, placeholders, _letter_key)
    if not letters:
        return list(placeholders)
    taken = sorted((p.start, p.end) for p in placeholders)
    added = []
    for i, el in enumerate(elements):
        match = _IN_ELEMENT.match(el.raw)
        if match is None or match.group(1) not in letters or not _in_a_name_slot(elements, i):
            continue
        start = el.start + match.start(1)
        end = start + len(match.group(1))
        if any(s < end and start < e for s, e in taken):
            continue
        added.append(Placeholder(start, end, letters[match.group(1)], ("letter",), i, i, False))
    return sorted([*placeholders, *added], key=lambda p: p.start)
