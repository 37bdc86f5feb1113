"""Company names before their legal form: `Electronicon-GmbH`, `NetCologne GmbH`,
`Verband sozialer Wettbewerb e. V.`.

A legal form says that the capitalised words right before it name a legal person, which the
guidelines mark as ``jur-name`` without the form (ANNOTATION.md: ``Schmidt Immobilien`` in
``Schmidt Immobilien GmbH``). The model finds most such names; it misses some that it has no
reading for, most often a form glued on with a hyphen (`Pallas-AG`, `Electronicon-GmbH`) or
an abbreviation (`NE AG`). The rule takes up to four capitalised words before one of
:data:`LEGAL_FORMS`, without leading articles, prepositions and role nouns (`der`, `Firma`,
`Klägerin`) and without the words that belong to the form (`& Co.`, `und Partner`), and
skips names inside a citation (`EuGH … – Audi AG/HABM`). A rule span joins the model's where
they touch; where the model found nothing it is added (:mod:`~hf_anon.model.recognizers.merge`).
"""

from __future__ import annotations

import re

from hf_anon.model.recognizers.base import rule_span
from hf_anon.model.recognizers.context import in_citation
from hf_anon.text.data import Span
from hf_anon.text.lexicon import ROLE_NOUNS, is_closed_class

#: Legal forms that end a company's name (German and the common foreign ones). Forms that are
#: also ordinary words or abbreviations (`AB`, `SA`, `NV`, `plc`) are left out.
LEGAL_FORMS = (
    r"gGmbH",
    r"GmbH",
    r"mbH",
    r"KGaA",
    r"AG",
    r"KG",
    r"OHG",
    r"oHG",
    r"e\.\s?V\.",
    r"eG",
    r"SE",
    r"UG",
    r"GbR",
    r"PartG",
    r"Ltd\.?",
    r"Limited",
    r"S\.A\.",
    r"B\.V\.",
    r"Inc\.?",
    r"LLC",
)
_WORD = r"[A-ZÄÖÜ][\w&'’.-]*"
COMPANY = re.compile(
    rf"(?<![\w-])((?:{_WORD}[ -]){{0,3}}{_WORD})[ -](?=(?:{'|'.join(LEGAL_FORMS)})(?!\w))"
)
#: Words at the edges of such a match that are no part of the name: the form's own words
#: and what introduces a company.
NOT_NAME = frozenset({"Firma", "Fa.", "Co.", "Partner", "Gesellschaft", "Gebrüder"})


def _name_word(word: str) -> bool:
    return not (
        word in NOT_NAME or word.lower() in ROLE_NOUNS or is_closed_class(word.rstrip(".,"))
    )


def find_companies(text: str) -> list[Span]:
    """``jur-name`` spans (risk high, as the guidelines rank legal persons) for the words
    before a legal form, outside citations."""
    spans = []
    for match in COMPANY.finditer(text):
        start, end = match.span(1)
        words = list(re.finditer(r"\S+", text[start:end]))
        while words and not _name_word(words[0].group(0)):
            words.pop(0)
        while words and not _name_word(words[-1].group(0)):
            words.pop()
        if not words:
            continue
        a, b = start + words[0].start(), start + words[-1].end()
        if not in_citation(text, a, b):
            spans.append(rule_span(a, b, "jur-name", "high"))
    return spans
