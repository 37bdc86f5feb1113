"""LER mentions → spans in our labels: the mapping table and the span boundary rules
(both documented in :mod:`hf_anon.corpora.ler`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from hf_anon.corpora.ler.conll import LerSentence, Mention
from hf_anon.corpora.ler.detokenize import detokenize
from hf_anon.corpora.placeholders.shapes import (
    PART_EDGE_CHARS,
    is_placeholder_mention,
    placeholder_parts,
)
from hf_anon.text.labels import DEFAULT_LABELS
from hf_anon.text.lexicon import LEGAL_FORM_JOINERS, LEGAL_FORM_PAIRS, LEGAL_FORMS

# --- classes and the mapping table ----------------------------------------------------


@dataclass(frozen=True)
class ClassMapping:
    """One row of the mapping table: a LER class, our label, and when it applies.

    ``conditional`` rows give their label only when :func:`map_mention`'s rule for the
    class says so (the ``rule`` text documents it); otherwise the mention is not
    sensitive.
    """

    ler_class: str
    description: str
    label: str | None
    conditional: bool = False
    rule: str = ""


LER_CLASS_MAPPING: dict[str, ClassMapping] = {
    row.ler_class: row
    for row in (
        ClassMapping("PER", "person", "nat-name"),
        ClassMapping("RR", "judge", "nat-jur"),
        ClassMapping("AN", "lawyer", "nat-jur"),
        ClassMapping("LD", "country", None, rule="countries and states are public"),
        ClassMapping(
            "ST",
            "city",
            "address-name",
            True,
            "placeholder-shaped, after a postcode, after '<street> ,' or a residence word",
        ),
        ClassMapping("STR", "street", "address-name", True, "not a numbered public road (B 235)"),
        ClassMapping(
            "LDS",
            "landscape",
            "address-name",
            True,
            "placeholder-shaped only (address-idx after 'Flurstück')",
        ),
        ClassMapping(
            "ORG",
            "organization",
            "jur-name",
            True,
            "with a placeholder part or a private legal form",
        ),
        ClassMapping("UN", "company", "jur-name"),
        ClassMapping("INN", "institution", None, rule="public bodies"),
        ClassMapping("GRT", "court", "court-name"),
        ClassMapping("MRK", "brand", "car-name", True, "vehicle makes and models only"),
        ClassMapping("GS", "law", None, rule="statutes are public"),
        ClassMapping("VO", "ordinance", None, rule="public norms"),
        ClassMapping("EUN", "European norm", None, rule="public norms"),
        ClassMapping("VS", "regulation", None, rule="public norms"),
        ClassMapping("VT", "contract", None, rule="collective agreements, treaties"),
        ClassMapping("RS", "court decision", None, rule="cited decisions are public"),
        ClassMapping("LIT", "literature", None, rule="public"),
    )
}

#: Classes whose placeholder parts go into the placeholder key and get pseudonymized.
KEY_CLASSES = frozenset({"PER", "RR", "AN", "UN", "ORG", "ST", "STR", "LDS"})
#: Labels that :func:`pseudonymize_ler` replaces when their text is a placeholder.
PSEUDONYMIZED_LABELS = frozenset({"nat-name", "nat-jur", "jur-name", "address-name", "address-idx"})

VEHICLE_MAKES = frozenset(
    {
        "VW", "Volkswagen", "Audi", "BMW", "Mercedes", "Mercedes-Benz", "Porsche", "Opel",
        "Ford", "Toyota", "Jaguar", "Land Rover", "Range Rover", "Skoda", "Škoda", "Seat",
        "Renault", "Peugeot", "Citroën", "Fiat", "Ferrari", "Volvo", "Tesla", "Hyundai",
        "Kia", "Mazda", "Nissan", "Honda", "Ducati", "Harley-Davidson", "Smart", "Mini",
        "Dacia", "Suzuki", "Mitsubishi", "Lexus", "Alfa Romeo", "Lamborghini", "Bentley",
        "Golf", "Passat", "Polo", "Tiguan", "Touran", "Sharan", "Cayenne", "Sprinter",
    }
)  # fmt: skip

# --- boundary word lists --------------------------------------------------------------

#: Leading tokens outside a span (titles, salutations, roles, ``Firma``, ``Az.``).
LEADING_WORDS = frozenset(
    {
        "Herr", "Herrn", "Frau", "Hr.", "Fr.", "Dr.", "Prof.", "Dipl.-Ing.", "Dipl.", "Ing.",
        "Firma", "Fa.", "Az.", "Aktenzeichen", "Rechtsanwalt", "Rechtsanwältin", "RA", "RAin",
        "Patentanwalt", "Patentanwältin", "Notar", "Notarin", "Richter", "Richterin", "RiBGH",
        "Zeuge", "Zeugin", "Kläger", "Klägerin", "Beklagte", "Beklagter", "Angeklagte",
        "Angeklagter", "Sachverständige", "Sachverständiger",
    }
)  # fmt: skip
#: Academic suffixes that are outside only right after a title (``Dr. med.``, ``h. c.``).
TITLE_SUFFIXES = frozenset({"med.", "dent.", "jur.", "rer.", "nat.", "pol.", "phil.", "h.", "c."})
#: Punctuation tokens outside a span at its edges.
EDGE_PUNCTUATION = frozenset(
    {"„", "“", "”", '"', "'", "‚", "‘", "’", "«", "»", "(", ")", "[", "]", ",", ";", ":",
     "-", "–", "/"}
)  # fmt: skip
#: Tokens that end a span (a list of names or a name and a place).
SEPARATORS = frozenset({",", ";"})
#: Further separators between person names.
PERSON_SEPARATORS = frozenset({"und", "oder", "sowie", "bzw.", "/", "&"})
RE_GLUED_LEGAL_FORM = re.compile(
    r"^(?P<name>.*?[^\s-])-(?:GmbH|gGmbH|AG|KG|KGaA|OHG|GbR|UG|eG|SE|EWIV|mbH|Ltd\.?|Inc\.?)$"
)

RESIDENCE_WORDS = frozenset(
    {"wohnhaft", "wohnhafte", "wohnhaften", "wohnt", "wohnte", "wohnen", "Wohnsitz", "Wohnort"}
)
RE_POSTCODE = re.compile(r"^\d{5}$")
RE_PUBLIC_ROAD = re.compile(r"^(?:Bundesstraße|Bundesautobahn|Autobahn|[ABLK])\s*\d+\b")


def should_pseudonymize(text: str, label: str) -> bool:
    """Whether a span with this text and label gets a surrogate.

    Person spans only when they are placeholders as a whole; company and address spans
    also when a part is (``Ekliniken M-R`` gets a whole new company name).
    """
    if label not in PSEUDONYMIZED_LABELS:
        return False
    if is_placeholder_mention(text):
        return True
    return label not in DEFAULT_LABELS.person_labels and bool(placeholder_parts(text))


# --- mentions → spans -----------------------------------------------------------------


def _text_of(tokens: Sequence[str], start: int, end: int) -> str:
    return detokenize(tokens[start:end])[0] if end > start else ""


def _is_public_road(text: str) -> bool:
    return bool(RE_PUBLIC_ROAD.match(text))


def _has_private_legal_form(tokens: Sequence[str]) -> bool:
    pairs = set(pairwise(tokens))
    return any(t in LEGAL_FORMS for t in tokens) or bool(pairs & LEGAL_FORM_PAIRS)


def _city_locates_party(sentence: LerSentence, mention: Mention, text: str) -> bool:
    """ST rule: placeholder, or part of an address, or after a residence word."""
    if placeholder_parts(text):
        return True
    before = sentence.tokens[max(0, mention.start - 3) : mention.start]
    if before and RE_POSTCODE.match(before[-1]):
        return True
    if before and before[-1] == "," and mention.start >= 2:
        street_tag = sentence.tags[mention.start - 2]
        if street_tag.endswith("-STR"):
            return True
    return any(word in RESIDENCE_WORDS for word in before)


def _vehicle(text: str) -> bool:
    words = text.strip(PART_EDGE_CHARS + " ").split()
    return any(
        " ".join(words[i : i + n]) in VEHICLE_MAKES for n in (1, 2) for i in range(len(words))
    )


def map_mention(sentence: LerSentence, mention: Mention) -> str | None:
    """Our label for a LER mention in its sentence, or None if it is not sensitive.

    Unconditional rows of :data:`LER_CLASS_MAPPING` give their label; the conditional
    ones (ST, STR, LDS, ORG, MRK) apply the rule documented in the table.
    """
    row = LER_CLASS_MAPPING[mention.ler_class]
    if row.label is None or not row.conditional:
        return row.label
    tokens = sentence.tokens[mention.start : mention.end]
    text = _text_of(sentence.tokens, mention.start, mention.end)
    cls = mention.ler_class
    if cls == "ST":
        return row.label if _city_locates_party(sentence, mention, text) else None
    if cls == "STR":
        return None if _is_public_road(text) else row.label
    if cls == "LDS":
        if not is_placeholder_mention(text):
            return None
        before = sentence.tokens[max(0, mention.start - 3) : mention.start]
        parcel = any(word.startswith("Flurstück") for word in before)  # Flurstücke B und C
        return "address-idx" if parcel else row.label
    if cls == "ORG":
        private = placeholder_parts(text) or _has_private_legal_form(tokens)
        return row.label if private else None
    if cls == "MRK":
        return row.label if _vehicle(text) else None
    raise AssertionError(f"no rule for conditional class {cls}")  # pragma: no cover


def _strip_edges(tokens: Sequence[str], start: int, end: int, counts: Counter) -> tuple[int, int]:
    """Drop edge punctuation and leading titles/roles (token positions)."""
    changed = True
    while changed and start < end:
        changed = False
        if tokens[start] in EDGE_PUNCTUATION:
            start, changed = start + 1, True
            counts["edge punctuation outside"] += 1
        elif end > start and tokens[end - 1] in EDGE_PUNCTUATION:
            end, changed = end - 1, True
            counts["edge punctuation outside"] += 1
        elif tokens[start] in LEADING_WORDS:
            start, changed = start + 1, True
            counts["title or role outside"] += 1
            while start < end - 1 and tokens[start] in TITLE_SUFFIXES:
                start += 1
    return start, end


def _split_pieces(
    tokens: Sequence[str], start: int, end: int, person: bool, counts: Counter
) -> list[tuple[int, int]]:
    """Cut a mention at separators (token positions of the pieces)."""
    separators = SEPARATORS | PERSON_SEPARATORS if person else SEPARATORS
    pieces, piece_start = [], start
    for i in range(start, end):
        truncated = i > start and tokens[i] == "," and tokens[i - 1].endswith("-")
        if tokens[i] in separators and not truncated:  # not "Haus- , Wohnungs- und ..."
            pieces.append((piece_start, i))
            piece_start = i + 1
    pieces.append((piece_start, end))
    if len(pieces) > 1:
        counts["split at a separator"] += 1
    return [p for p in pieces if p[1] > p[0]]


def _strip_legal_form_tokens(tokens: Sequence[str], start: int, end: int) -> int:
    """New end after removing trailing legal forms (``GmbH & Co. KG``, ``e. V.``)."""
    new_end, stripped_form = end, False
    while new_end - start > 1:
        last, pair = tokens[new_end - 1], tuple(tokens[new_end - 2 : new_end])
        if pair in LEGAL_FORM_PAIRS and new_end - start > 2:
            new_end -= 2
            stripped_form = True
        elif last in LEGAL_FORMS or (stripped_form and last in LEGAL_FORM_JOINERS):
            new_end -= 1
            stripped_form = True
        else:
            break
    return new_end


@dataclass(frozen=True)
class SpanCandidate:
    """A sensitive span of one sentence before it is placed into a document."""

    start: int  # characters in the sentence text
    end: int
    label: str
    ler_class: str
    placeholder: bool  # pseudonymize it (see should_pseudonymize)
    key_parts: tuple[tuple[int, int], ...]  # placeholder parts (sentence characters)


def mention_spans(
    sentence: LerSentence,
    mention: Mention,
    label: str,
    offsets: Sequence[tuple[int, int]],
    text: str,
    counts: Counter,
) -> list[SpanCandidate]:
    """Apply the boundary rules to one sensitive mention; its spans in sentence chars."""
    tokens = sentence.tokens
    start, end = _strip_edges(tokens, mention.start, mention.end, counts)
    person = label in DEFAULT_LABELS.person_labels
    candidates = []
    for piece_start, piece_end in _split_pieces(tokens, start, end, person, counts):
        piece_start, piece_end = _strip_edges(tokens, piece_start, piece_end, counts)
        if piece_end <= piece_start:
            continue
        if label == "jur-name":
            new_end = _strip_legal_form_tokens(tokens, piece_start, piece_end)
            if new_end < piece_end:
                counts["legal form outside"] += 1
            piece_end = new_end
        char_start, char_end = offsets[piece_start][0], offsets[piece_end - 1][1]
        if label == "jur-name":
            glued = RE_GLUED_LEGAL_FORM.match(text[char_start:char_end])
            if glued:
                char_end = char_start + len(glued.group("name"))
                counts["legal form outside"] += 1
            while char_end - char_start > 1 and text[char_end - 1] in "-&":  # "C- B. V."
                char_end -= 1
        candidates.append(_candidate(text, char_start, char_end, label, mention.ler_class))
    if not candidates:
        counts["nothing left after the boundary rules (mention kept whole)"] += 1
        char_start, char_end = offsets[mention.start][0], offsets[mention.end - 1][1]
        candidates.append(_candidate(text, char_start, char_end, label, mention.ler_class))
    return candidates


def _without_glued_legal_form(text: str, start: int, end: int) -> tuple[int, int]:
    """``M-GmbH`` → the range of ``M``."""
    glued = RE_GLUED_LEGAL_FORM.match(text[start:end])
    return (start, start + len(glued.group("name"))) if glued else (start, end)


def _candidate(text: str, start: int, end: int, label: str, ler_class: str) -> SpanCandidate:
    piece = text[start:end]
    if label in DEFAULT_LABELS.person_labels:
        parts = [(0, len(piece))] if is_placeholder_mention(piece) else []
    else:
        parts = [_without_glued_legal_form(piece, s, e) for s, e in placeholder_parts(piece)]
    key = tuple((start + s, start + e) for s, e in parts) if ler_class in KEY_CLASSES else ()
    return SpanCandidate(start, end, label, ler_class, should_pseudonymize(piece, label), key)
