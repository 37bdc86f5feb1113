"""The label a placeholder most likely hides: from its shape, the words around it, where it
stands (a rubrum, a bench, a list) and the placeholders before it.

:func:`infer_label` is the detector's last step (:mod:`hf_anon.corpora.placeholders.detector`);
a label no cue decided is a guess (``unknown``, or a name by its shape alone), which the
learned label head of :mod:`hf_anon.model.placeholder_tagger` may replace.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hf_anon.corpora.placeholders.cues import (
    ADDRESS_IDX_CUES,
    ARTICLES,
    AUTHORITY_NOUNS,
    CAR_CUES,
    COORDINATION,
    COURT_WORDS,
    DATE_CUES,
    DOCKET_CUES,
    EXPERT_CUES,
    ID_CUES,
    JUR_IDX_CUES,
    LAW_FIRM_CUES,
    LEGAL_PROFESSION_CUES,
    NAT_IDX_CUES,
    ORGANIZATION_NOUNS,
    PERSON_CUES,
    PLACE_CUES,
    PLACE_SUFFIXES,
)
from hf_anon.corpora.placeholders.elements import (
    NAME_KINDS,
    UNKNOWN,
    Candidate,
    Element,
    Placeholder,
    before_words,
    is_entity_suffix,
    is_street,
)
from hf_anon.text.lexicon import COMPANY_WORDS_AFTER, PARTY_ROLES
from hf_anon.text.names import TITLES


def _shape_label(core: str, kinds: set[str]) -> str | None:
    """Labels the shape alone decides."""
    if kinds & {"email", "url", "iban"}:
        return "id-number"
    if "plate" in kinds:
        return "car-idx"
    if kinds & {"postcode", "house-number", "town"}:
        return "address-name"
    numbered = re.fullmatch(r"(ort|anschrift|adresse|straße|firma|person|name)\d+", core.lower())
    if numbered:  # "Ort01", "Firma02", "Person03": the word says what is hidden
        return {"firma": "jur-name", "person": "nat-name", "name": "nat-name"}.get(
            numbered.group(1), "address-name"
        )
    core = re.sub(r"-\s+", "-", core)  # "M.- weg": a line's hyphen and space
    if re.fullmatch(r"[A-ZÄÖÜ]{1,3}-[xX]{2,}\d*", core):
        return "court-docket"  # "(W-XX1)": an authority's masked file number
    first = core.split()[0].lower().rstrip(".")
    if re.fullmatch(r"[a-zäöü]['’]er", first):
        return "address-name"  # "die E'er Adresse": a town's adjective
    if kinds & {"masked-prefix", "letter-suffix"} or "-" in first:
        suffix = first.split("-", 1)[-1] if "-" in first else re.sub(r"^[a-zäöü]\.+", "", first)
        if is_street(first) or re.fullmatch(r"[a-zäöü]", suffix):
            return "address-name"  # "X-Straße", "A-M"
        if any(suffix.startswith(p) or suffix.endswith(p) for p in PLACE_SUFFIXES):
            return "address-name"  # "Y-Stadt", "X-Dorf"
        if suffix != first and is_entity_suffix(suffix):
            return "jur-name"  # "M-GmbH", "X-Gruppe", "K-Konzern"
    return None


_CASE_OPENERS = frozenset(
    {"verwaltungsrechtssache", "rechtssache", "normenkontrollsache", "streitsache", "rechtsstreit",
     "verwaltungsstreitsache", "rechtsstreits", "beschwerdesache", "disziplinarsache"}
)  # fmt: skip
_BENCH_WORDS = frozenset({"senat", "kammer", "einzelrichter", "einzelrichterin"})


def _after_comma_label(
    elements: Sequence[Element],
    first: int,
    earlier: Sequence[Placeholder],
    line_start: int,
    line: str,
) -> str | None:
    """A placeholder after a comma on a line that already named someone or a street: the
    rest of an address (``A., …, …``, ``…straße …, …``, ``*****, *****, *****``)."""
    if not (first and elements[first - 1].raw.endswith(",")):
        return None
    previous = earlier[-1] if earlier else None
    on_line = {p.label for p in earlier if p.start >= line_start}
    if "address-name" in on_line and "Wohnung" in line:
        return "address-idx"  # "Wohnung A-Straße 1, …, …": floor and position
    if previous is not None and previous.label == "address-name" and previous.start >= line_start:
        return "address-name"  # "…straße …, …": street, town
    if on_line & {"nat-name", "jur-name", "nat-jur"}:
        return "address-name"  # Rubrum "A., …, …": name, street, town
    return None


def _mask_context_label(
    text: str,
    elements: Sequence[Element],
    group: Sequence[Candidate],
    before: Sequence[str],
    after: Sequence[str],
    earlier: Sequence[Placeholder],
    line_start: int,
    line: str,
) -> str | None:
    """Labels of whole-word masks (``XXX``, ``###``, ``*****``) from where they stand in a
    rubrum, a bench or a list; None where these places say nothing."""
    previous = earlier[-1] if earlier else None
    first = group[0].index
    prev = before[0] if before else ""
    if previous is not None and previous.label != UNKNOWN and previous.last == first - 1:
        between = text[previous.end : group[0].start]
        if between.strip(" \t,\n") == "" and "\n" in between:
            return previous.label  # a list of masks, one a line: "durch XXX⏎XXX⏎XXX"
    if prev == "durch" and any(w in COURT_WORDS or w in _BENCH_WORDS for w in before[1:10]):
        return "nat-jur"  # "hat die 5. Kammer … durch XXX"
    label = _after_comma_label(elements, first, earlier, line_start, line)
    if label:
        return label  # rubrum "*****, *****, *****": name, street, town
    if len(after) > 1 and after[0] in {"-", "–"} and after[1] in PARTY_ROLES:
        return "nat-name"  # "XXX⏎- Antragsteller -"
    if prev in _CASE_OPENERS:
        return "nat-name"  # "In der Verwaltungsrechtssache⏎###,"
    if prev in AUTHORITY_NOUNS:
        return "address-name"  # "Landratsamt S*****", "Jobcenter *****"
    if prev in {"nr.", "nummer", "nr"}:
        return "id-number"  # "Auftrag Nr. XXX"
    if prev in {"vom", "am", "seit", "datum", "datiert"}:
        return "date-fact"  # "Mietvertrag vom XXX"
    if prev in ADDRESS_IDX_CUES:
        return "address-idx"  # "Flurstück XXX"
    return None


_NOT_ID_NUMBERS = ("hausnummer", "randnummer", "flurnummer", "wohnungsnummer", "seitennummer")


def _number_label(kinds: set[str], before: Sequence[str]) -> str | None:
    """A mask or ellipsis after a number word hides a number (``Rechnung Nr. …``,
    ``Betriebsnummer 41******``); after ``Flurstück Nr.`` a parcel. Letters after ``Nr.``
    are references and never reach here as placeholders."""
    if kinds & NAME_KINDS - {"mask"} or not before:
        return None
    prev = before[0]
    if prev in {"nr.", "nr", "nummer", "no.", "nr.:"}:
        return "address-idx" if len(before) > 1 and before[1] in ADDRESS_IDX_CUES else "id-number"
    if prev.endswith(("nummer", "-nr.", "nummern")) and not prev.endswith(_NOT_ID_NUMBERS):
        return "id-number"
    return None


def infer_label(
    text: str,
    elements: Sequence[Element],
    group: Sequence[Candidate],
    earlier: Sequence[Placeholder] = (),
) -> str:
    """The label a placeholder most likely hides, from its shape, the words around it and
    the placeholders before it (``earlier``, in text order)."""
    previous = earlier[-1] if earlier else None
    first, last = group[0].index, group[-1].index
    kinds = {c.kind for c in group}
    core = text[group[0].start : group[-1].end]
    label = _shape_label(core, kinds)
    if label:
        return label
    before = before_words(elements, first)
    after = [e.lower for e in elements[last + 1 : last + 3]]
    prev = before[0] if before else ""
    untitled = before[next((k for k, w in enumerate(before) if w not in TITLES), len(before)) :]
    cue = untitled[0] if untitled else ""
    line_start = text.rfind("\n", 0, group[0].start) + 1
    line = text[line_start : group[0].start]
    lawyer_nearby = any(w in LEGAL_PROFESSION_CUES for w in before) and any(
        w.lower().strip(",:") in LEGAL_PROFESSION_CUES for w in line.split()
    )
    if "digits" in kinds and (prev in ADDRESS_IDX_CUES or prev.startswith("flur")):
        return "address-idx"  # "Flur-Nr. xx/001", "Flurstück xxx/xx"
    if "date" in kinds or "year" in kinds:
        return "nat-idx" if "geboren" in before[:2] or prev == "geb." else "date-fact"
    if prev in JUR_IDX_CUES:
        return "jur-idx"
    if prev in DOCKET_CUES:
        return "court-docket"
    if cue in LAW_FIRM_CUES or (after and after[0] in LAW_FIRM_CUES):
        return "jur-name"  # "Rechtsanwälte B.", "***** Rechtsanwälte"
    if cue in LEGAL_PROFESSION_CUES or (after and after[0].startswith(("jsekr", "richter"))):
        return "nat-jur"
    if cue in EXPERT_CUES or (
        cue in {"des", "von"} and len(untitled) > 1 and untitled[1].endswith("gutachten")
    ):
        return "nat-jur"  # "SV Dr. N", "Gutachten des Dr. N": the court's expert
    if cue in COURT_WORDS:
        if len(untitled) > 2 and untitled[1] in {"am", "beim"}:
            return "nat-jur" if untitled[2] in LEGAL_PROFESSION_CUES else "court-name"
        return "court-name"
    if after and (after[0] in COMPANY_WORDS_AFTER or after[0].rstrip(".") in COMPANY_WORDS_AFTER):
        if lawyer_nearby:
            return "nat-jur"  # "Rechtsanwälte … & … PartG mbB"
        if after[0] != "&":
            return "jur-name"
    if prev in ORGANIZATION_NOUNS or (
        "ellipsis" in kinds and any(w in ORGANIZATION_NOUNS for w in before[:2])
    ):
        return "jur-name"  # "Firma X", "Firma „Auto- … …“"
    if any(w in CAR_CUES for w in before[:3]):
        return "car-idx"
    if any(w in ID_CUES for w in [w for w in before if not w.isdigit()][:2]):
        return "id-number"  # "Kontonummer XXX", "Patents 2 365 XXX"
    label = _number_label(kinds, before)
    if label:
        return label
    if prev in AUTHORITY_NOUNS:
        return "address-name"  # "Landratsamt S*****", "Versorgungsamt E", "StA N"
    coordinated = previous is not None and previous.last == first - 2 and prev in COORDINATION
    if coordinated and previous.label != UNKNOWN:
        return previous.label  # "Zeugen D. und E.", "Von … bis …"
    if kinds & {"mask", "fullwidth"}:
        label = _mask_context_label(text, elements, group, before, after, earlier, line_start, line)
        if label:
            return label
    if kinds & NAME_KINDS:
        if (prev in PLACE_CUES or prev == "von") and "letter" in kinds:
            return "address-name"  # "in X", "von X nach Y"
        return "nat-name"
    # A bare ellipsis: the words around it decide.
    label = _after_comma_label(elements, first, earlier, line_start, line)
    if label:
        return label
    if prev == "vorstand":
        return "address-name"
    if prev == "im" and any(w.endswith("wohnung") or w in ADDRESS_IDX_CUES for w in before[1:4]):
        return "address-idx"
    if prev == "das" and "gehört" in before[1:3]:
        return "address-idx"
    if cue in PERSON_CUES:
        return "nat-name"
    if prev in PLACE_CUES or prev == "richtung" or after[:2] == ["in", "richtung"]:
        return "address-name"
    if prev in DATE_CUES or prev in {"im", "für"}:
        return "date-fact"
    if prev in NAT_IDX_CUES or (prev in ARTICLES and after and after[0] in PARTY_ROLES):
        return "nat-idx"
    return UNKNOWN
