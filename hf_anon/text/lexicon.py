"""German closed-class words and the other word tables several layers read (party and
role nouns, headings, legal forms, street suffixes).

A span never starts or ends on an article, preposition, conjunction, pronoun or auxiliary,
and never consists of one (the annotation guidelines, ``data/real/annotation/GUIDE.md``:
``am``, ``in``, ``vom``, ``der`` are outside): a model that tags ``der`` before a street or
``in`` glued to it publishes a gap where the word was, and a leak check that searches the
tagged form replaces every ``der`` of the document. The list is the maintained German list
of the ``stop-words`` package, minus the words that are also content words at a span's edge
(``weg``), plus prepositions and contractions it lacks. The edges themselves are trimmed in
:mod:`hf_anon.model.decoding.edges`.
"""

from __future__ import annotations

import unicodedata
from functools import cache

_NOT_CLOSED = frozenset({"weg", "machen", "sehr", "viel", "weiter", "weitere", "selbst", "hier"})
_EXTRA = frozenset(
    [
        "ab",
        "bzgl",
        "bezüglich",
        "beim",
        "binnen",
        "gem",
        "gemäß",
        "hinsichtlich",
        "innerhalb",
        "außerhalb",
        "laut",
        "mittels",
        "nebst",
        "samt",
        "seit",
        "statt",
        "trotz",
        "wegen",
        "zwecks",
        "infolge",
        "anlässlich",
        "aufgrund",
        "bzw",
        "sowie",
        "sowohl",
        "als",
        "ca",
        "gegenüber",
        "entlang",
        "jenseits",
        "diesseits",
        "oberhalb",
        "unterhalb",
        "per",
        "pro",
        "via",
        "vorm",
        "überm",
        "unterm",
        "ans",
        "aufs",
        "durchs",
        "fürs",
        "ums",
        "hinterm",
    ]
)
# Capitalised at a span's start these are still function words (``Am``, ``Der``, ``In``);
# other stop words capitalised are often names (``Will``, ``Weil``, ``Kann``).
_CAPITALISED_FUNCTION_WORDS = frozenset(
    [
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "ein",
        "eine",
        "einem",
        "einen",
        "einer",
        "eines",
        "am",
        "im",
        "in",
        "an",
        "auf",
        "bei",
        "mit",
        "von",
        "vom",
        "zu",
        "zum",
        "zur",
        "und",
        "oder",
        "aus",
        "nach",
        "über",
        "unter",
        "vor",
        "seit",
        "gegen",
        "durch",
        "für",
        "bis",
    ]
)
#: The nominative of the main parties (``der … Kläger``: the placeholder detector reads
#: the gap as a hidden feature of the party). A subset of :data:`ROLE_NOUNS`, which also
#: holds inflected forms and other roles.
PARTY_ROLES = frozenset(
    [
        "kläger",
        "klägerin",
        "beklagte",
        "beklagter",
        "antragsteller",
        "antragstellerin",
        "antragsgegner",
        "antragsgegnerin",
        "zeuge",
        "zeugin",
    ]
)
#: Role nouns, never names of their own (``der Kläger``, ANNOTATION.md).
ROLE_NOUNS = frozenset(
    [
        "kläger",
        "klägerin",
        "klägers",
        "beklagte",
        "beklagter",
        "beklagten",
        "antragsteller",
        "antragstellerin",
        "antragsgegner",
        "antragsgegnerin",
        "zeuge",
        "zeugin",
        "zeugen",
        "beigeladene",
        "beigeladener",
        "beigeladenen",
        "angeklagte",
        "angeklagter",
        "angeklagten",
        "betroffene",
        "betroffener",
        "betroffenen",
        "beschwerdeführer",
        "beschwerdeführerin",
        "berufungskläger",
        "berufungsklägerin",
    ]
)
#: Punctuation at a word's edges that is no part of the word
EDGE_PUNCT = "\"'„“”‚‘’«»()[]{},;:.!?"


@cache
def closed_class_words() -> frozenset[str]:
    """German articles, prepositions, conjunctions, pronouns and auxiliaries (lower case)."""
    from stop_words import get_stop_words

    return (frozenset(get_stop_words("de")) - _NOT_CLOSED) | _EXTRA


def is_all_caps(word: str) -> bool:
    """``word.isupper()``, except that ``ß`` (which has no capital in most texts) does not
    count: ``AUßERDEM`` and ``STRAßE`` are written in capitals."""
    return word.replace("ß", "").isupper()


def core_word(word: str) -> str:
    """A word without edge punctuation, its umlauts composed (``für`` is sometimes written
    as ``u`` and a combining diaeresis in real decisions)."""
    return unicodedata.normalize("NFC", word.strip(EDGE_PUNCT))


def is_known_word(word: str, language: str = "de") -> bool:
    """Whether ``word`` (lower-cased, edge punctuation and a hyphenated tail dropped) is a
    word of ``language`` at all, by wordfreq's lists (about a million German forms from
    many sources, shipped with the package). Text extraction splits a drop capital off
    its word (``G eschenkproben``, ``A ntragsgegner``): the rest is no word, while after a
    real initial a word follows (``Zeuge B hat``)."""
    from wordfreq import zipf_frequency

    core = core_word(word).lower().split("-")[0]
    return bool(core) and zipf_frequency(core, language) > 0


def is_closed_class(word: str) -> bool:
    """Whether ``word`` (its letters, as written) is a function word, not a name.

    Lower-case forms and ALL-CAPS forms of closed-class words count; capitalised forms only
    for articles and prepositions (``Der``, ``Am``), since ``Will``, ``Weil`` or ``Kann`` are
    surnames too.
    """
    core = core_word(word)
    lower = core.lower()
    if lower not in closed_class_words():
        return False
    if core == lower or (is_all_caps(core) and len(core) > 1):
        return True
    capitalised = core[:1].isupper() and core[1:] == core[1:].lower()
    return capitalised and lower in _CAPITALISED_FUNCTION_WORDS


#: Legal forms as single tokens, as written (``GmbH``, ``e.V.``, ``Ltd.``): the LER import
#: keeps them outside a company's span, and they are no placeholder parts.
LEGAL_FORMS = frozenset(
    {
        "GmbH", "gGmbH", "mbH", "AG", "KG", "KGaA", "OHG", "oHG", "GbR", "UG", "eG", "SE",
        "e.V.", "e.K.", "Inc.", "Inc", "Ltd.", "Ltd", "LLC", "LLP", "S.A.", "SA", "S.p.A.",
        "SpA", "B.V.", "BV", "N.V.", "NV", "plc", "PLC", "Corp.", "AB", "A/S", "ApS",
        "SARL", "Sarl", "EWIV", "PartG", "PartGmbB", "mbB", "VVaG", "Aktiengesellschaft",
        "Kommanditgesellschaft",
    }
)  # fmt: skip
#: Two-token legal forms as a tokenizer splits them (``e. V.``).
LEGAL_FORM_PAIRS = frozenset(
    {("e.", "V."), ("e.", "K."), ("B.", "V."), ("N.", "V."), ("S.", "A."), ("a.", "G.")}
)
#: Tokens between legal forms (``GmbH & Co. KG``).
LEGAL_FORM_JOINERS = frozenset({"&", "Co.", "Co", "und"})
#: Lower-case words after which a single letter is a company placeholder (``X GmbH``,
#: ``Y & Co. KG``, ``Z Stiftung``): legal forms, their pieces as a whitespace split leaves
#: them (``e.``, ``&``, ``co.``, ``gmbh,``) and ``stiftung``/``verein``. Not derived from
#: :data:`LEGAL_FORMS`: ``ab`` or ``sa`` after a letter are ordinary words.
COMPANY_WORDS_AFTER = frozenset(
    {
        "gmbh", "ag", "eg", "e.v.", "e.", "kg", "ohg", "ug", "se", "mbh", "kgaa", "gbr",
        "partg", "partgmbb", "&", "co.", "ltd.", "ltd", "inc.", "s.a.", "s.à", "b.v.", "n.v.",
        "llc", "gmbh,", "a/s", "e.k.", "ek", "kg,", "stiftung", "verein",
    }
)  # fmt: skip
#: Endings of street names, lower case (``Bahnhofstraße``, ``Hofgarten``, ``Am Anger``):
#: a masked word with one of them is a street.
STREET_SUFFIXES = (
    "straße", "strasse", "str.", "weg", "gasse", "platz", "allee", "ring", "damm", "ufer",
    "chaussee", "steig", "pfad", "hof", "markt", "berg", "graben", "wall", "stieg", "zeile",
    "promenade", "kamp", "feld", "garten", "anger", "winkel", "brücke",
)  # fmt: skip
