"""Surrogates of vehicle makes and models (``car-name``), licence plates and VINs (``car-idx``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hf_anon.corpora.placeholders.shapes import nfkc
from hf_anon.corpora.surrogates.registry import Rule, register_surrogate
from hf_anon.corpora.surrogates.tables import CAR_MODELS, PLATE_CODES

if TYPE_CHECKING:
    from hf_anon.corpora.surrogates.document import DocumentSurrogates


@register_surrogate("car-name")
def car_name(doc: DocumentSurrogates, i: int) -> Rule:
    text, _, _ = doc.context(i)
    tokens = text.split()
    makes = {m.lower(): m for m in CAR_MODELS} | {
        "mercedes": "Mercedes-Benz",
        "volkswagen": "VW",
    }
    make = makes.get(tokens[0].lower()) if tokens else None
    if make and len(tokens) > 1:
        return doc.key(text), lambda: doc.factory.car(make)
    return doc.key(text), doc.factory.car


@register_surrogate("car-idx")
def car_idx(doc: DocumentSurrogates, i: int) -> Rule:
    text, before, _ = doc.context(i)
    norm = nfkc(text).strip()
    factory = doc.factory
    if re.search(r"(?i)identifi|fahrgestell|\bFIN\b|\bVIN\b", before[-40:]) or re.fullmatch(
        r"[A-Z0-9]{17}", norm
    ):
        return doc.key(text), factory.vin
    plate = re.fullmatch(r"(?P<code>[A-ZÄÖÜ]{1,3})-(?P<l>[A-ZX]{1,2}) (?P<d>\d{1,4})[EH]?", norm)
    if plate:
        code = plate.group("code")
        district = code if code in PLATE_CODES else None
        letters, digits = len(plate.group("l")), len(plate.group("d"))
        return doc.key(text), lambda: factory.licence_plate(district, letters, digits)
    return doc.key(text), factory.licence_plate
