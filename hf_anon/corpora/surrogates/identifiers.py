"""Surrogates of other identifiers (``id-number``): IBANs, phone numbers, e-mail
addresses, URLs, contract and policy numbers, in the shape the context asks for."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

from hf_anon.corpora.placeholders.shapes import has_mask, nfkc
from hf_anon.corpora.surrogates.registry import Rule, register_surrogate

if TYPE_CHECKING:
    from hf_anon.corpora.surrogates.document import DocumentSurrogates


def redigit(rng: random.Random, text: str) -> str:
    """New digits (and digits for masks) in the same shape; a final ``/21`` year stays."""
    year = re.search(r"/(\d{2}|\d{4})$", text)

    def digits(match: re.Match) -> str:
        run = match.group(0)
        if year and match.start() == year.start(1):
            return run
        n = len(run) if run not in ("…", "...") else rng.randint(2, 4)
        return str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))

    return re.sub(r"\d+|[xX]{2,}|…|\.{3}", digits, text)


@register_surrogate("id-number")
def id_number(doc: DocumentSurrogates, i: int) -> Rule:
    text, before, _ = doc.context(i)
    factory = doc.factory
    norm = nfkc(text).strip()
    low = before[-40:].lower()
    compact = norm.replace(" ", "")
    if "@" in norm or re.search(r"e-?mail|mailadresse", low):
        return doc.key(text), factory.email
    if re.match(r"(?:www\.|https?:)", norm) or re.search(
        r"internet|homepage|website|webseite", low
    ):
        return doc.key(text), factory.url
    if re.fullmatch(r"[A-Z]{2}\d{2}[\dX]{12,30}", compact) or re.search(
        r"iban|konto|bankverb", low
    ):
        return doc.key(text), factory.iban
    mobile = re.fullmatch(r"\(?(?:\+49\s?|0)1\d[\d ()/-]{6,}", norm)
    if re.search(r"mobil|handy", low) or mobile:
        return doc.key(text), lambda: factory.phone("mobile")
    landline = re.fullmatch(r"\(?(?:\+49\s?|0)[2-9][\d ()/-]{6,}", norm)
    if re.search(r"festnetz|fax", low) or landline:
        return doc.key(text), lambda: factory.phone("landline")
    if re.search(r"telefon|tel\.|rufnummer|anschluss", low) or re.fullmatch(
        r"(?:\+49|\(?0)[\d ()/-]{6,}", norm
    ):
        return doc.key(text), factory.phone
    if re.search(r"\d", norm) and not has_mask(norm):  # a real number keeps its shape
        return doc.key(text), lambda: redigit(doc.factory.rng, norm)
    for pattern, kind in (
        (r"versicherungs(?:schein|nummer|-nr)|police|vers\.-nr", "policy"),
        (r"schaden", "claim"),
        (r"kunden", "customer"),
        (r"mitglied", "member"),
    ):
        if re.search(pattern, low):
            return doc.key(text), lambda kind=kind: factory.reference_number(kind)
    return doc.key(text), factory.reference_number
