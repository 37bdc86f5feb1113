"""Surrogates of companies (``jur-name``) and their register and tax numbers (``jur-idx``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hf_anon.corpora.placeholders.shapes import nfkc, placeholder_kind
from hf_anon.corpora.surrogates.registry import Rule, register_surrogate
from hf_anon.corpora.surrogates.tables import (
    LEGAL_FORM_AFTER,
)

if TYPE_CHECKING:
    from hf_anon.corpora.surrogates.document import DocumentSurrogates


@register_surrogate("jur-name")
def jur_name(doc: DocumentSurrogates, i: int) -> Rule:
    text, before, after = doc.context(i)
    factory = doc.factory
    tokens = nfkc(text).split()
    hidden = [placeholder_kind(t) is not None for t in tokens]
    if any(hidden) and not all(hidden):  # `Klinik X`, `Bäckerei Y`
        return doc.key(text), lambda: " ".join(
            factory.company_word() if h else t for t, h in zip(tokens, hidden, strict=True)
        )
    low = (before[-30:] + " " + text + " " + after[:25]).lower()
    kind = None
    if "versicher" in low:
        kind = "insurer"
    elif "autohaus" in low:
        kind = "car_dealer"
    elif "genossenschaft" in low or re.match(r"\s*eG\b", after):
        kind = "cooperative"
    elif re.search(r"vermiet|hausverwalt|immobilien", low):
        kind = "landlord"
    one_word = re.match(r"\s+[A-ZÄÖÜ][a-zäöüß]{2,}", after) or re.search(
        r"(?:Firma|Autohaus)\s*$", before
    )
    if all(hidden) and one_word and not LEGAL_FORM_AFTER.match(after):
        return doc.key(text), factory.company_word  # `X Versicherung AG`, `Firma W`
    if factory.organizations and kind is None:  # a real name of the slot's kind
        names = factory.organizations.for_slot(bool(LEGAL_FORM_AFTER.match(after)))
        return doc.key(text), lambda: factory.rng.choice(names)
    return doc.key(text), lambda: factory.company_name(kind)


@register_surrogate("jur-idx")
def jur_idx(doc: DocumentSurrogates, i: int) -> Rule:
    text, before, _ = doc.context(i)
    factory = doc.factory
    norm = nfkc(text)
    low = before[-40:].lower()
    prefix = re.match(r"(HRB|HRA|VR|GnR|GsR|PR)\b", norm)
    if prefix:
        return doc.key(text), lambda: factory.register_number(prefix.group(1))
    if re.search(r"steuer-?nummer|st\.-?nr", low):
        return doc.key(text), factory.tax_number
    if re.search(r"ust|umsatzsteuer", low):
        return doc.key(text), factory.vat_id
    register = "HRB"
    for word, reg in (
        ("vereinsreg", "VR"),
        ("genossenschaftsreg", "GnR"),
        ("partnerschaftsreg", "PR"),
    ):
        if word in low:
            register = reg
    return doc.key(text), lambda: factory.register_number(register)
