"""Surrogates of addresses and places (``address-name``) and of what pins down a dwelling
or plot (``address-idx``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hf_anon.corpora.placeholders.shapes import ELLIPSIS_RUN, LETTER_PLACE, has_mask, nfkc
from hf_anon.corpora.surrogates.registry import Rule, register_surrogate

if TYPE_CHECKING:
    from hf_anon.corpora.surrogates.document import DocumentSurrogates


def address_kind(doc: DocumentSurrogates, i: int) -> str:
    """``street``, ``postcode_town``, ``road``, ``district`` or ``town``: what span ``i`` of
    ``address-name`` is, from its shape and the words and spans around it (cached)."""
    if i in doc.address_kinds:
        return doc.address_kinds[i]
    text, before, _ = doc.context(i)
    norm = nfkc(text).strip()
    low_before = before.lower()
    kind = "town"
    if re.match(r"(?:\d{5}|[xX0]{4,5}|…|\.{2,})\s+\S", norm):
        kind = "postcode_town"
    elif re.search(r"(?i)stra(?:ß|ss)e|str\.|weg\b|gasse|allee|platz\b|ring\b|damm\b|ufer\b", norm):
        kind = "street"
    elif re.fullmatch(r"[^\d,]+\s\d+\s?[a-z]?", norm):
        kind = "street"  # `Am Anger 3a`
    elif ELLIPSIS_RUN.fullmatch(norm):
        prev_street = (
            i > 0
            and doc.labels[i - 1] == "address-name"
            and re.fullmatch(r",\s*", doc.text[doc.spans[i - 1].end : doc.spans[i].start])
            and address_kind(doc, i - 1) == "street"
        )
        next_address = (
            i + 1 < len(doc.spans)
            and doc.labels[i + 1] == "address-name"
            and re.fullmatch(r",\s*", doc.text[doc.spans[i].end : doc.spans[i + 1].start])
        )
        if prev_street:
            kind = "postcode_town"
        elif re.search(r"\b(?:die|der|den|dem)\s*$", low_before):
            kind = "road"  # `befuhr die …`, `Einmündung der …`
        elif next_address or re.search(r"(?:anwesens?|hauses|grundstücks?|in der)\s*$", low_before):
            kind = "street"
    if kind == "town" and re.search(r"(?:stadtteil|ortsteil|stadtbezirk)\s*$", low_before):
        kind = "district"
    doc.address_kinds[i] = kind
    return kind


@register_surrogate("address-name")
def address_name(doc: DocumentSurrogates, i: int) -> Rule:
    text, _, _ = doc.context(i)
    factory = doc.factory
    kind = address_kind(doc, i)
    norm = nfkc(text).strip()
    if kind == "postcode_town":
        code, _, town = norm.partition(" ")
        # a town the court left visible (`xxxxx Regensburg`) stays; a real one is replaced
        visible = has_mask(code) and not has_mask(town) and not LETTER_PLACE.search(town)
        return doc.key(text), lambda: factory.postcode_town(town if visible else None)
    if kind == "street":
        with_number = has_mask(text) or bool(re.search(r"\d", text))
        article = re.search(r"\b(?:der|die)\s*$", doc.context(i)[1]) is not None
        return doc.key(text), lambda: factory.street(with_number, feminine=article)
    if kind == "road":
        return doc.key(text), lambda: factory.street(False, feminine=True)
    if kind == "district":
        return doc.key(text), factory.district
    return doc.key(text), factory.town


@register_surrogate("address-idx")
def address_idx(doc: DocumentSurrogates, i: int) -> Rule:
    text, before, _ = doc.context(i)
    factory = doc.factory
    low = (before[-30:] + " " + text).lower()
    if "keller" in low or re.search(r"gehör(?:t|en)\s+(?:das|der|ein)\s*$", before):
        make = factory.cellar
    elif re.search(r"stellplatz|garage|carport", low):
        make = factory.parking_space
    elif re.search(r"flur|fl\.-?nr|flst|grundbuch|gemarkung", low):
        make = factory.parcel_number
    elif re.search(r"wohnung\s+nr|\bwe\b", low):
        make = factory.flat_number
    else:
        make = factory.floor
    tokens = nfkc(text).split()
    hidden = [i for i, t in enumerate(tokens) if has_mask(t)]
    if hidden and hidden[0] > 0:  # `Kellerabteil Nr. …`: keep the words, new number
        head = " ".join(tokens[: hidden[0]])
        return doc.key(text), lambda: f"{head} {make().rsplit(' ', 1)[-1]}"
    if re.search(r"\bNr\.?\s*$", before) and make is not factory.floor:
        return doc.key(text), lambda: make().rsplit(" ", 1)[-1]
    return doc.key(text), make
