"""German closed-class words, and spans trimmed of them at their edges; the other word
tables that several modules read (party roles, legal forms, street suffixes).

A span never starts or ends on an article, preposition, conjunction, pronoun or auxiliary,
and never consists of one (the annotation guidelines, ``../shared/ANNOTATION.md`` beside
the checkout: ``am``, ``in``, ``vom``, ``der`` are outside): a model that tags ``der``
before a street or ``in`` glued to it publishes a gap where the word was, and a leak
check that searches the tagged form replaces every ``der`` of the document. The list is
the maintained German list of the ``stop-words`` package, minus the words that are also
content words at a span's edge (``weg``), plus prepositions and contractions it lacks.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from hf_anon.data import Span
from hf_anon.labels import DEFAULT_LABELS, LabelSet
from hf_anon.names import NAME_PARTICLES

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
#: Role nouns, never names of their own (``der Kläger``, ../shared/ANNOTATION.md).
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
# The headings of a German decision are never spans, nor part of one (`Tenor` alone on its
# line is read as a name by a model that saw few of them); a roman outline number after a
# heading (`Tenor\nI`) goes with it.
SECTION_HEADINGS = frozenset(
    [
        "tenor",
        "gründe",
        "tatbestand",
        "entscheidungsgründe",
        "leitsatz",
        "leitsätze",
        "orientierungssatz",
        "rubrum",
        "sachverhalt",
        "rechtsmittelbelehrung",
        "rechtsbehelfsbelehrung",
        "rechtsmittelbelehrungen",
    ]
)
_ROMAN = re.compile(r"[IVX]{1,4}\.?")
# Street and business names may begin with a preposition or article (``Am Kugelfang 3``,
# ``An der Alster 5``, ``Zur Linde``): capitalised and followed by a capitalised word.
NAMED_PLACE_LABELS = frozenset({"address-name", "jur-name"})
_WORD = re.compile(r"\S+")
_EDGE_PUNCT = "\"'„“”‚‘’«»()[]{},;:.!?"


@cache
def closed_class_words() -> frozenset[str]:
    """German articles, prepositions, conjunctions, pronouns and auxiliaries (lower case)."""
    from stop_words import get_stop_words

    return (frozenset(get_stop_words("de")) - _NOT_CLOSED) | _EXTRA


def is_closed_class(word: str) -> bool:
    """Whether ``word`` (its letters, as written) is a function word, not a name.

    Lower-case forms and ALL-CAPS forms of closed-class words count; capitalised forms only
    for articles and prepositions (``Der``, ``Am``), since ``Will``, ``Weil`` or ``Kann`` are
    surnames too.
    """
    core = word.strip(_EDGE_PUNCT)
    lower = core.lower()
    if lower not in closed_class_words():
        return False
    if core == lower or (core.isupper() and len(core) > 1):
        return True
    capitalised = core[:1].isupper() and core[1:] == core[1:].lower()
    return capitalised and lower in _CAPITALISED_FUNCTION_WORDS


def _names_a_place(rest: Sequence[str]) -> bool:
    """``Kugelfang 3`` or ``der Alster 5`` after a capitalised preposition: a street name."""
    if rest and rest[0].istitle() and not is_closed_class(rest[0]):
        return True
    articles = {"der", "die", "das", "den", "dem"}
    return len(rest) > 1 and rest[0] in articles and rest[1].istitle()


# Personal features are phrases that may begin with a preposition (../shared/ANNOTATION.md:
# `seit Mai 2018 verheiratete`, `geboren am 12.03.1975`): never trimmed.
PHRASE_LABELS = frozenset({"nat-idx"})


def join_touching(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans of one label separated by whitespace only, joined: a model that tags
    ``Maximilian Graf von`` and ``Reutern`` apart meant one name, and trimming ``von``
    off the first part must not open a gap in it."""
    out: list[Span] = []
    for span in sorted(spans):
        last = out[-1] if out else None
        if (
            last is not None
            and last.label == span.label
            and last.end <= span.start
            and not text[last.end : span.start].strip()
        ):
            score = max(last.score or 0.0, span.score or 0.0)
            out[-1] = Span(last.start, span.end, last.label, last.risk, score)
        else:
            out.append(span)
    return out


def _is_heading(word: str) -> bool:
    return word.strip(_EDGE_PUNCT).lower() in SECTION_HEADINGS


def trim_closed_class(
    text: str, spans: Sequence[Span], label_set: LabelSet = DEFAULT_LABELS
) -> list[Span]:
    """Spans without closed-class words at their edges; spans made only of them are dropped.

    ``in der Bahnhofstraße 12`` → ``Bahnhofstraße 12``; ``Bahnhofstraße 12 in`` →
    ``Bahnhofstraße 12``; a lone ``der`` disappears. Particles of person names stay
    (``von der Au`` as ``nat-jur``), as does a closed-class word inside a span
    (``Hans und Grete Müller`` is two names the model joined, not this rule's business).
    Section headings (``Tenor``, ``Gründe``) are cut off the start the same way.
    """
    out = []
    for span in join_touching(text, spans):
        if span.label in PHRASE_LABELS:
            out.append(span)
            continue
        words = [m.span() for m in _WORD.finditer(text, span.start, span.end)]
        first, last = 0, len(words)
        person = span.label in label_set.person_labels
        while first < last and is_closed_class(text[slice(*words[first])]):
            word = text[slice(*words[first])]
            rest = [text[slice(*w)] for w in words[first + 1 : last]]
            if person and word.lower() in NAME_PARTICLES and rest and rest[-1][:1].isupper():
                break  # `von der Au`
            if span.label in NAMED_PLACE_LABELS and word.istitle() and _names_a_place(rest):
                break  # `Am Kugelfang 3`, `An der Alster 5`
            first += 1
        while last > first and is_closed_class(text[slice(*words[last - 1])]):
            last -= 1
        while first < last and _is_heading(text[slice(*words[first])]):
            first += 1
            while first < last and _ROMAN.fullmatch(text[slice(*words[first])]):
                first += 1
        if first >= last or all(
            text[slice(*w)].strip(_EDGE_PUNCT).lower() in ROLE_NOUNS for w in words[first:last]
        ):
            continue  # a role noun is not a name (`der Kläger`, ../shared/ANNOTATION.md)
        start, end = words[first][0], words[last - 1][1]
        if (start, end) == (span.start, span.end):
            out.append(span)
        else:
            out.append(Span(start, end, span.label, span.risk, span.score))
    return out


_LETTER_WORD = re.compile(r"[^\W\d_]{2,}")


def _title_case(word: str) -> str:
    """``HUBER`` → ``Huber``, character for character (a letter whose lower case is longer,
    like ``İ``, stays as it is: offsets never move)."""
    rest = "".join(c.lower() if len(c.lower()) == 1 else c for c in word[1:])
    return word[0] + rest


def case_view(text: str) -> str:
    """``text`` with its shouted lines in title case, same length.

    Some courts print the rubrum in capitals (``HANS HUBER, BAHNHOFSTRASSE 12``); a model
    trained on normal case misses about half of those names. In a line where at least two
    words and at least half of the words are ALL CAPS, every ALL-CAPS word is read in title
    case (``Hans Huber, Bahnhofstrasse 12``). Every offset stays, so the spans found on the
    view are spans of the original. Acronyms in normal lines (``BGH``, ``IBAN``) stay.
    """
    chars: list[str] | None = None
    for line in re.finditer(r"[^\n]+", text):
        words = list(_LETTER_WORD.finditer(text, line.start(), line.end()))
        caps = [m for m in words if m.group(0).isupper()]
        if len(caps) < 2 or 2 * len(caps) < len(words):
            continue
        chars = chars if chars is not None else list(text)
        for m in caps:
            chars[m.start() : m.end()] = _title_case(m.group(0))
    return text if chars is None else "".join(chars)


# --- companies and streets ----------------------------------------------------------------

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
