"""Surrogates of personal features (``nat-idx``): birth dates, nationality, age, health,
profession; the words before the span decide which."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hf_anon.corpora.surrogates.dates import date_surrogate
from hf_anon.corpora.surrogates.registry import Rule, register_surrogate
from hf_anon.text.names import gender_near

if TYPE_CHECKING:
    from hf_anon.corpora.surrogates.document import DocumentSurrogates


@register_surrogate("nat-idx")
def nat_idx(doc: DocumentSurrogates, i: int) -> Rule:
    text, before, after = doc.context(i)
    low = (before[-40:] + " " + text).lower()
    gender = gender_near(before)
    if gender is None and re.search(r"\beine?\s*$", before):
        gender = "f" if before.rstrip().endswith("eine") else "m"
    factory = doc.factory
    if re.search(r"\bgeb(?:oren|\.|urtsdatum)", low):
        return date_surrogate(doc, i, text, "date-fact", birth=True)
    if "staatsangeh" in low or "nationalität" in low:
        return doc.key(text), lambda: factory.nationality(gender)
    if re.match(r"\s*(?:Jahre|-jährig)", after) or "jährig" in text:
        return doc.key(text), lambda: str(factory.rng.randint(19, 88))
    if re.match(r"\s+[A-ZÄÖÜ]\w+", after) and re.search(
        r"\b(?:der|die|das|des|dem|den)\s*$", before, re.I
    ):
        ending = "e" if re.search(r"\b(?:der|die|das)\s*$", before, re.I) else "en"
        return None, lambda: f"{factory.rng.randint(19, 88)}-jährig{ending}"  # `Der … Kläger`
    if re.search(r"erkrank|leide|diagnos|krankheit|behinder", low):
        return doc.key(text), factory.health_condition
    return doc.key(text), lambda: factory.profession(gender)
