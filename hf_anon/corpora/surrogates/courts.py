"""Surrogates of courts (``court-name``) and docket numbers and file references
(``court-docket``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hf_anon.corpora.placeholders.shapes import nfkc
from hf_anon.corpora.surrogates.identifiers import redigit
from hf_anon.corpora.surrogates.registry import Rule, register_surrogate
from hf_anon.corpora.surrogates.tables import COURT_KINDS, LANDGERICHTE

if TYPE_CHECKING:
    from hf_anon.corpora.surrogates.document import DocumentSurrogates


@register_surrogate("court-name")
def court_name(doc: DocumentSurrogates, i: int) -> Rule:
    text, before, _ = doc.context(i)
    factory = doc.factory
    norm = nfkc(text)
    kind = next((k for k in COURT_KINDS if norm.startswith(k)), None)
    if kind is None:
        kind = "Landgericht" if "landgericht" in before[-30:].lower() else "Amtsgericht"
    # `des Amtsgerichts München` keeps its genitive; both forms name one court
    genitive_s = "s" if norm.startswith(kind + "s ") else ""
    key = doc.key(norm.replace(kind + "s ", kind + " ", 1))

    def make() -> str:
        if kind in ("Amtsgericht", "Landgericht", "Oberlandesgericht"):
            court = factory.court(kind)
        else:
            court = f"{kind} {factory.rng.choice(LANDGERICHTE).split()[0]}"
        return court.replace(kind, kind + genitive_s, 1)

    if key is not None and genitive_s:  # the cache holds the nominative
        cached = doc.cache.get(("court-name", key))
        if cached:
            return None, lambda: cached.replace(kind, kind + genitive_s, 1)
    return (key if not genitive_s else None), make


@register_surrogate("court-docket")
def court_docket(doc: DocumentSurrogates, i: int) -> Rule:
    text, before, _ = doc.context(i)
    factory = doc.factory
    norm = nfkc(text).strip()
    if re.search(r"\d", norm) and re.search(r"[A-Za-z]", norm):
        return doc.key(text), lambda: redigit(doc.factory.rng, norm)
    low = before[-60:].lower()
    year = doc.year
    if re.search(r"polizei|vorgangs|tagebuch|\bpi\b|einsatz", low):
        return doc.key(text), lambda: factory.file_reference("police")
    if re.search(r"versicher|schaden|regulier", low):
        return doc.key(text), lambda: factory.file_reference("insurer")
    if re.search(r"jugendamt|beistandschaft|behörde|landratsamt|bußgeld|stadt\b|amt\b", low):
        return doc.key(text), lambda: factory.file_reference("authority")
    kind = "civil"
    for pattern, docket_kind in (
        (r"staatsanwalt|ermittlungs|straf", "criminal"),
        (r"famili", "family"),
        (r"landgericht", "regional"),
        (r"bundesgerichtshof|\bbgh\b", "federal"),
        (r"berufung|beschwerde", "appeal"),
    ):
        if re.search(pattern, low):
            kind = docket_kind
    return doc.key(text), lambda: factory.docket_number(kind, year)
