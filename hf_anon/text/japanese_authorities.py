"""Authorities are no spans in Japanese precedents (rule 4 of the annotation guide).

A ministry, an agency, a regional bureau, a committee, an assembly or a prosecutors' office
(``経済産業省``, ``沖縄防衛局``, ``札幌矯正管区``, ``公安委員会``, ``大阪府議会``,
``札幌地方検察庁``) is a public body, not a party to protect; a prefecture or a city that only
names one (``沖縄県知事``, ``沖縄県`` before ``知事は``) is none either. The
Japanese model, trained on few such texts, reads them as organisations, places and courts.
This module drops those spans after decoding. A span that holds a court's placeholder
(``Ａ知事``: the letter hides the prefecture a person governed) stays: a placeholder is always a
span.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hf_anon.text.data import Span

#: Labels an authority is misread as.
AUTHORITY_LABELS = frozenset({"jur-name", "jur-idx", "court-name", "address-name", "nat-name"})
#: How the name of a public body ends.
AUTHORITY_ENDINGS = (
    "省",
    "庁",
    "防衛局",
    "財務局",
    "航空局",
    "整備局",
    "運輸局",
    "法務局",
    "国税局",
    "矯正管区",
    "管区長",
    "保安部",
    "委員会",
    "議会",
    "警察署",
    "警察本部",
)
#: The offices that make a prefecture before them the name of an authority: ``沖縄県知事``.
#: Not a city's mayor or town hall (``府中市役所において``, ``国分寺市長に対し``): annotators
#: mark such a city as the place of a party's act, and a missed place costs more.
OFFICES = ("知事", "副知事", "議会", "教育委員会")
_PLACEHOLDER = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ○〇●◯×＊*■▲]")


def names_authority(text: str, span: Span) -> bool:
    """Whether ``span`` names a public body, or a place only as the seat of one."""
    piece = text[span.start : span.end].strip()
    if span.label not in AUTHORITY_LABELS or _PLACEHOLDER.search(piece):
        return False
    if piece.endswith(AUTHORITY_ENDINGS + OFFICES):
        return True
    return span.label == "address-name" and text[span.end : span.end + 5].startswith(OFFICES)


def drop_authorities(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without those that name an authority (:func:`names_authority`)."""
    return [s for s in spans if not names_authority(text, s)]
