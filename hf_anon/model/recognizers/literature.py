"""Authors of cited literature: a name the model marks where the text cites a book or article.

The guidelines keep everything inside a publication reference out of the spans, and a
commentary's or article's author is part of the reference: in ``(so auch Blomeyer RdA 2000,
279, 286)``, ``Schmitz, in: Stelkens/Bonk/Sachs, VwVfG, 7. Aufl.`` or ``Stollmann, a.a.O.,
S. 218`` the name locates a text, not a person of the case. A model reads such a surname as
the name it looks like. Where the words right after the name are those of a reference (`in:`,
`a.a.O.`, a journal with year and page, a commentary with its edition), :func:`is_cited_author`
says so and :func:`hf_anon.model.recognizers.citations.drop_cited` drops the span.

Written from the model's false names in the ordinary prose of the 341 training decisions the
shipped German model never trained on (rounds 4 to 9); none of their gold names is followed by
such words (``reports/capacity/README.md``, "Authors of cited literature").
"""

from __future__ import annotations

import re

from hf_anon.model.recognizers.context import PUBLICATION_MARKS
from hf_anon.text.data import Span

#: the labels of people a reference can name
AUTHOR_LABELS = frozenset({"nat-name", "nat-jur"})

_NOT_A_LETTER = r"(?![A-Za-zÄÖÜäöüß])"
# `RdA 2000, 279`, `ZEV 2022, 600`, `VerwArch 102 (2011), 20`: a journal, its year, a page
_JOURNAL = r"[A-ZÄÖÜ][A-Za-zÄÖÜäöü/-]{1,9}\s+(?:\d{4}|\d{1,3}\s*\(\d{4}\))\s*,\s*\d+"
# what a reference says after its editors or title: a paragraph, a margin number, an edition
_LOCATOR = r"(?:§|Rn\.|Rdnr|Rdn\.|RdNr|Rz\.|\d+\.\s*Aufl|Aufl\.|Stand\b|S\.\s?\d)"
#: what follows an author's name in a reference, one alternative a line
_AFTER_AUTHOR_ALTERNATIVES = (
    r",?\s*in\s*:\s",  # `Schmitz, in: Stelkens/Bonk/Sachs`, `Berlit in: LPK SGB XII`
    # `Britz in Radtke/Hohmann, StPO, § 213`: editors, then where in their book
    r",?\s+in\s+[A-ZÄÖÜ][\w-]+(?:/[A-ZÄÖÜ][\w-]+)+[^;()\n]{0,60}?" + _LOCATOR,
    # `Stollmann, a.a.O.`, `Ricke NZS 2022`, `Müller, juris Rn. 5`
    # the references' abbreviations, not the verbs (`Müller veröffentlicht`: a person acting)
    r"(?:,\s*|\s+)(?:" + PUBLICATION_MARKS + ")" + _NOT_A_LETTER,
    r",?\s*" + _JOURNAL,  # `Blomeyer RdA 2000, 279`, `(Keim, ZEV 2022, 600)`
    # `Lindemann, Kommentar zum Informationsfreiheitsgesetz`
    r",\s*(?:[A-ZÄÖÜ][\w-]*\s+){0,3}(?:Kommentar|Handbuch|Lehrbuch|Grundriss|Hdb\.|Komm\.)",
    # `Gaentzsch, Berliner Kommentar zum Baugesetzbuch, 2005, § 10`: a title, a year, a locator
    r",\s*[A-ZÄÖÜ][^,;()\n]{3,80},\s*(?:\d\.\s*Aufl\.|\d{4},\s*" + _LOCATOR + ")",
)
AFTER_AUTHOR = re.compile(
    r"\s*(?:\([^)]{0,20}\))?\s*(?:" + "|".join(_AFTER_AUTHOR_ALTERNATIVES) + ")"
)


def is_cited_author(text: str, span: Span) -> bool:
    """Whether ``span`` (a person's name) is the author of a book or article the text
    cites: the words right after it are those of a publication reference."""
    return span.label in AUTHOR_LABELS and AFTER_AUTHOR.match(text, span.end) is not None
