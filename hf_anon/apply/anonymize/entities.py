"""Entities: which stretches of a document name the same person, company, address, ….

The same entity gets the same replacement throughout the document; with a secret, its
canonical key decides the replacement in every document.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hf_anon.apply.anonymize.leakcheck import form_key
from hf_anon.apply.anonymize.types import Entity, Mention, Target
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.names import known_last_names, parse_name

if TYPE_CHECKING:
    from hf_anon.apply.anonymize.operators.base import OperatorContext


def fold(text: str) -> str:
    """Keys of entities: case, accents and spacing ignored (``İlhan`` = ``ILHAN``)."""
    return form_key(text)


def canonical(text: str) -> str:
    """Equal for spellings of one thing: case, spacing, ``Str.``/``Straße``/``Strasse``."""
    folded = fold(text)
    return re.sub(r"str\.(?=\s|$)", "strasse", folded)


def _genitive_stem(last: str, known_lasts: set[str]) -> str | None:
    if last.endswith(("'", "’")) and len(last) > 2:
        return last[:-1]
    if last.endswith("s") and len(last) > 3:
        stem = last[:-1]
        if fold(stem) in known_lasts or (
            last not in known_last_names() and stem in known_last_names()
        ):
            return stem
    return None


def resolve_entities(
    text: str, targets: Sequence[Target], label_set: LabelSet = DEFAULT_LABELS
) -> list[Mention]:
    """Group the document's stretches to replace into entities.

    People (spans of ``label_set``'s person labels): a full name (first names and
    surname) is an entity; a surname alone joins the nearest full name with that surname
    (the latest before it, else the first after it), a first name alone the nearest full
    name with that first name; a genitive (``Müllers``, ``Weiß'``) counts as its stem.
    What the leak check found and fits no full name joins the span its form came from
    (``Berger`` of ``Yılmaz-Berger``). Everything else: equal canonical text (case,
    spacing, ``Str.``) and label, or that with a genitive ``s`` on one word, is one
    entity.
    """
    mentions: list[Mention] = []
    parsed: dict[int, tuple[str, list[str], str, bool]] = {}
    persons = label_set.person_labels
    for i, t in enumerate(targets):
        if t.span.label in persons:
            parsed[i] = parse_name(text[t.span.start : t.span.end])
    known_firsts = {fold(f) for _, firsts, _, _ in parsed.values() for f in firsts}
    full_lasts = {fold(last) for _, firsts, last, _ in parsed.values() if firsts}
    known_lasts = full_lasts | {
        fold(last) for _, firsts, last, _ in parsed.values() if not firsts and last[-1:] != "s"
    }

    keys: list[tuple[str, ...]] = []
    for i, t in enumerate(targets):
        surface = text[t.span.start : t.span.end]
        m = Mention(t.span, surface, Entity(0, t.span.label, ()), t.source, label_set=label_set)
        if i in parsed:
            prefix, firsts, last, comma = parsed[i]
            m.prefix, m.comma = prefix, comma
            if not firsts and fold(last) in known_firsts and fold(last) not in full_lasts:
                m.first_names, m.surname = (last,), None  # a first name alone (`Hans`)
            else:
                stem = _genitive_stem(last, known_lasts)
                if stem is not None:
                    last, m.genitive = stem, True
                m.first_names, m.surname = tuple(firsts), last
            keys.append(("person",))
        else:
            keys.append((t.span.label, canonical(surface)))
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
            firsts = tuple(fold(f) for f in m.first_names)
            keys[i] = ("person", fold(m.surname), *firsts)
            by_surname[fold(m.surname)].append((m.span.start, keys[i]))
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
            surname = fold(m.surname)
            found = nearest(by_surname[surname], m.span.start)
            own = ("person", surname)
        else:
            first = fold(m.first_names[0])
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


def assign_numbers(mentions: Sequence[Mention], context: OperatorContext) -> None:
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
