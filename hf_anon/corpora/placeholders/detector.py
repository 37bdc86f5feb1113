"""The placeholder detector: published decisions → placeholder spans and their likely labels.

The method is the seed's (section 5.3.2 and appendix A.1), described in
:mod:`hf_anon.corpora.placeholders`. Shapes come from
:mod:`hf_anon.corpora.placeholders.shapes`, the words around a placeholder from
:mod:`hf_anon.corpora.placeholders.cues`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from hf_anon.corpora.placeholders.cues import (
    ADDRESS_IDX_CUES,
    HEADINGS,
    LEGAL_PROFESSION_CUES,
    LETTER_COMPOUNDS,
    NOT_SHORT_NAMES,
    ORGANIZATION_NOUNS,
    PLACE_CUES,
    REFERENCE_NOUNS,
)
from hf_anon.corpora.placeholders.decision import label_from_decision, letters_elsewhere
from hf_anon.corpora.placeholders.elements import (
    NAME_KINDS,
    OPENING,
    UNKNOWN,
    Candidate,
    Element,
    Placeholder,
    before_words,
    is_entity_suffix,
    is_street,
    person_context,
    split_elements,
    without_period,
)
from hf_anon.corpora.placeholders.labelling import infer_label
from hf_anon.corpora.placeholders.lookalikes import (
    LIST_WORDS,
    abbreviation_around,
    defines_abbreviation,
    gazette_page,
    in_docket,
    listed_after_reference,
    names_someone,
    not_a_name_before,
    roman_reference,
    signature_around,
    spaced_heading,
    split_word,
)
from hf_anon.corpora.placeholders.shapes import (
    MAYBE_PLACEHOLDER,
    RE_BRACKET_MASK,
    RE_BRACKET_PHRASE,
    RE_DIGITISH,
    RE_DOTTED_DATE,
    RE_ELLIPSIS,
    RE_FULLWIDTH,
    RE_GLUED_ENTITY,
    RE_GLUED_STREET,
    RE_HOUSE_NUMBER,
    RE_IBAN_START,
    RE_LETTER_PERIOD_S,
    RE_LETTER_SUFFIX,
    RE_MASK_IN_ELEMENT,
    RE_MASKED_CODE,
    RE_MASKED_DATE,
    RE_MASKED_DIGITS,
    RE_MASKED_IBAN,
    RE_MASKED_PLATE,
    RE_MASKED_POSTCODE,
    RE_MASKED_STREET_IN_TEXT,
    RE_MASKED_WORD,
    RE_MASKED_YEAR,
    RE_NUMBERED,
    RE_NUMBERED_DOTS,
    RE_NUMBERED_WORD,
    RE_OTHER_MASK,
    RE_PORTAL_TOKEN,
    RE_REPEATED,
    RE_ROMAN,
    RE_SHORT_NAME,
    RE_SINGLE_LETTER,
    RE_SINGLE_LETTER_EMAIL,
    RE_SINGLE_LETTER_URL,
    RE_YEAR,
    RE_ZERO_DATE,
    is_glyph_code,
)
from hf_anon.text.lexicon import COMPANY_WORDS_AFTER, is_closed_class
from hf_anon.text.names import TITLES
from hf_anon.text.nouns import is_common_noun
from hf_anon.text.tables import MONTHS


def _obvious_kind(el: Element, prev: Element | None, nxt: Element | None) -> str | None:
    core, bare = el.core, without_period(el.core)
    if RE_ELLIPSIS.match(core):
        if el.raw[:1] in "[(" and el.raw.rstrip(".,;:")[-1:] in ")]":
            if prev is not None and el.raw[:1] == "[" and names_someone(prev):
                return "ellipsis"  # "Rechtsanwalt […]", "KHK […]": a name cut out
            return None  # "[...]": an omission in a quotation
        return "ellipsis"
    if RE_BRACKET_MASK.match(el.raw.rstrip(".,;:")):
        return "mask"
    if RE_ZERO_DATE.match(core) or (
        RE_MASKED_DATE.match(core) and not re.fullmatch(r"[\d.]+", core)
    ):
        return "date"  # "xx.xx.2016", "00.00.00"
    if RE_MASKED_YEAR.match(el.raw.rstrip(",;:)")):
        return "date"  # "im Jahre 19.."
    if RE_DOTTED_DATE.match(bare):
        return "date"  # "am ....2022"
    if re.fullmatch(r"[A-Za-z]\d(?:\.{3}|…)", core) and any(
        other is not None
        and (re.fullmatch(r"[A-Za-z]\d[,;).]*", other.raw) or other.lower in LIST_WORDS)
        for other in (prev, nxt)
    ):
        return None  # "S1, S2 and S3...", "Q1… Q2": a list continued, not a masked name
    if RE_MASKED_WORD.match(core):
        return "masked-prefix" if core[0] in "….:" else "masked-word"
    if RE_MASKED_POSTCODE.match(bare):
        return "postcode"
    if re.fullmatch(r"x{2,}|[xX]+(?:[./-][xX]+)+|[xX]{2,}[./-]\d+", bare):
        return "digits"  # "am xx geborenen", "Flurstück xxx/xx", "Flur-Nr. xx/001"
    if re.fullmatch(r"[A-ZÄÖÜ]\*{1,2}", core):
        return "mask"  # "die Zeugin S*"
    if re.match(r"[\uFF21-\uFF3A][-‐]", core) and is_entity_suffix(core[2:]):
        return "letter-suffix"  # "Ｘ-Straße" in a German decision
    masked = RE_MASK_IN_ELEMENT.search(core)
    if masked and ("@" in core or core.lower().startswith(("www.", "http"))):
        return "email" if "@" in core else "url"  # "a****@web.de", "www.landratsamt-xxx.de"
    if masked and not roman_reference(bare, prev):
        return "mask"  # "XXX", "###", "*****", "B*****", "xxx2007", "XX-XXXXX"
    if RE_REPEATED.match(bare):
        letters = bare.split("-")[0]
        if RE_ROMAN.match(letters) or (letters.islower() and set(letters) <= set("ivx")):
            return None  # "III-1", "iii": Roman numerals
        if letters.isupper() and letters[0] not in "XYZ":
            return None  # "WWW", "AAA": words and ratings
        if el.raw.rstrip(",;.").endswith(")") and letters.islower():
            return None  # "aaa)": outline numbering
        return "repeated"
    if RE_FULLWIDTH.match(core) or RE_OTHER_MASK.match(core):
        return "fullwidth"
    if "@" in core and RE_SINGLE_LETTER_EMAIL.match(bare):
        return "email"
    if core.lower().startswith(("www.", "http")) and RE_SINGLE_LETTER_URL.match(bare):
        return "url"
    if RE_MASKED_PLATE.match(core):
        return "plate"
    if RE_MASKED_IBAN.match(core) and nxt is not None and RE_MASKED_DIGITS.match(nxt.core):
        return "iban"
    return None


def _potential_kind(elements: Sequence[Element], i: int) -> str | None:
    """Single letters (``A``, ``A.``, ``A-Straße``, ``„Y“``): placeholders unless context
    makes them a reference, an abbreviation, an enumeration or a Roman numeral."""
    el = elements[i]
    core = el.core
    prev = elements[i - 1] if i > 0 else None
    nxt = elements[i + 1] if i + 1 < len(elements) else None
    prev_lower = prev.lower if prev else ""
    if prev_lower in REFERENCE_NOUNS or (prev is not None and prev.core in {"§", "§§"}):
        return None  # "Anlage K", "Teil B", "Ziffer A"
    if listed_after_reference(elements, i):
        return None  # "Hauptteile A bis D", "Hilfsanträge A, B und C"
    quoted = el.raw[:1] in OPENING and el.raw.rstrip(".,;:")[-1:] in "\"'“”‘’«»"
    if quoted and re.fullmatch(r"[A-ZÄÖÜ]\.?|[XYZ]{2,3}", core):
        return "quoted-letter"  # „Y“, „XY“
    if RE_LETTER_SUFFIX.match(core):
        lower = without_period(core).lower()
        if lower in LETTER_COMPOUNDS or lower.split("-")[0] + "-" in LETTER_COMPOUNDS:
            return None
        if re.fullmatch(r"[A-ZÄÖÜ]-[A-Z]{1,2}", core) and nxt is not None and nxt.core.isdigit():
            return None  # a real licence plate "N-PF 4471"
        suffix = without_period(core).split("-", 1)[1]
        if re.fullmatch(r"[A-ZÄÖÜ]", suffix) or is_entity_suffix(suffix):
            return "letter-suffix"  # "A-M" (a town), "X-Straße", "M-GmbH", "K-Konzern"
        return None
    if RE_GLUED_STREET.match(core):
        return "letter-suffix"  # "Kstraße"
    if re.fullmatch(r"[A-ZÄÖÜ]['’]er", core):
        return "letter-suffix"  # "die E'er Adresse": a town's adjective
    if (
        prev is not None
        and re.fullmatch(r"[A-ZÄÖÜ]{2,4}", prev.raw)
        and len(core) == 1
        and not person_context(elements, i)
    ):
        return None  # "nach dem IF G": a split acronym
    if nxt is not None and not_a_name_before(
        core, nxt, elements[i + 2] if i + 2 < len(elements) else None
    ):
        return None
    if split_word(el, nxt):
        return None  # "der A ntragstellerin", "die E -Mail": a PDF split a word after its capital
    if (
        core == "A."
        and "bl." in before_words(elements, i, 6)
        and "d." in before_words(elements, i, 3)
    ):
        return None  # "Bl. 5 d. erstinstanzl. A.": the file (Akte)
    person = person_context(elements, i)
    named = person or prev_lower in ORGANIZATION_NOUNS or prev_lower in PLACE_CUES
    if re.fullmatch(r"[A-ZÄÖÜ]\d{1,2}\.?", core):
        return "letter" if person else None  # "Herrn B1.", "Zeugin K2": numbered masks
    if defines_abbreviation(el, prev):
        return None  # "der Kläger (Kl.)", "Antragsteller (Ast.)": a short form of the role
    if RE_SHORT_NAME.match(core) and core.lower() not in NOT_SHORT_NAMES:
        if nxt is not None and RE_DIGITISH.match(nxt.core):
            return None  # "in Fig. 4", "in Nrn. 2": a reference, not a name
        return "letter" if named else None  # "Kriminaloberkommissarin Dö.", "in Wi."
    if not (RE_SINGLE_LETTER.match(core) or RE_LETTER_PERIOD_S.match(core)):
        return None
    company = prev_lower in ORGANIZATION_NOUNS or (
        nxt is not None and nxt.lower in COMPANY_WORDS_AFTER
    )
    if (
        nxt is not None
        and RE_DIGITISH.match(nxt.core)
        and (not nxt.line_start or gazette_page(core, prev))
        and not (person or company)
    ):
        return None  # "K 3", "S. 28 ff.", "B 12", "nach A 16" (a pay grade), "GVBl. S.⏎391"
    if core == "A." and prev is not None and re.fullmatch(r"\d{1,2}\.", prev.core):
        return None  # "16. A.": an edition (Auflage)
    after_number = (
        prev is not None
        and RE_DIGITISH.match(prev.core)
        and not prev.core.endswith(".")
        and not prev.raw.endswith(")")  # "1) A., X-Straße 1": an enumerator
    )
    if not person and (in_docket(elements, i) or after_number):
        return None  # "B 13 R 230/17 B", "5 C 10.15 D", "700 ° C"
    opened = el.raw[:1] in "(<[" or (prev is not None and prev.raw in {"<", "(", "["})
    closed = el.raw.rstrip(".,;:")[-1:] in ")>]" or (nxt is not None and nxt.raw[:1] in ")>]")
    if opened and closed and not person:
        return None  # "(A)", "< S >": a marker, not a name ("Sachverständige (S)" is one)
    if abbreviation_around(elements, i):
        return None
    if core.rstrip(".") in {"I", "V"} and not (person or company):
        return None  # Roman numerals: "I.", "Landgericht München I"
    with_period = core.endswith(".")
    if with_period and (
        (prev is not None and RE_ROMAN.match(prev.core) and prev.core.endswith("."))
        or (nxt is not None and RE_ROMAN.match(nxt.core) and nxt.core.endswith("."))
    ):
        return None  # outline numbering "II. A." / "A. II. 2."
    # "A. Tatbestand", "B. Die Klage ist begründet." — but "A., …straße …" is a name.
    heading = nxt is None or (
        (nxt.lower in HEADINGS or nxt.core[:1].isupper()) and nxt.lower not in COMPANY_WORDS_AFTER
    )
    # "B.⏎49⏎In der Sache …", "A.⏎⏎[17] Die …": an outline letter before a margin number
    heading = heading or (nxt.line_start and re.fullmatch(r"\[?\d{1,4}\]?", nxt.raw) is not None)
    if el.line_start and with_period and not person and not el.raw.endswith(",") and heading:
        return None
    return "letter"


_PRINT_HEADER_LINE = re.compile(r"[ \t]*\n[ \t]*\d{1,2}\.\s?\d{1,2}\.\s?\d{4}\s*https?://")


_DATE_PREPOSITIONS = frozenset({"unter", "vor", "seit", "nach", "bis"})


def _name_follows(nxt: Element | None) -> bool:
    """A capitalised word that is no common noun and no function word: ``vom A. Müller``
    names someone, ``unter dem Z. Widerspruch`` dates a step."""
    return (
        nxt is not None
        and nxt.core[:1].isupper()
        and not is_common_noun(nxt.core)
        and not is_closed_class(nxt.core)
    )


def _after_date_word(elements: Sequence[Element], i: int) -> bool:
    """``vom``, ``am``, ``bis zum`` or ``unter``/``vor``/``seit dem`` right before ``i``."""
    before = [e.lower for e in elements[max(0, i - 2) : i]]
    return bool(before) and (
        before[-1] in {"vom", "am", "zum"}
        or (len(before) == 2 and before == [before[0], "dem"] and before[0] in _DATE_PREPOSITIONS)
    )


_NUMBERED_OR_GLUED_HINT = re.compile(r"\d|^\(?[A-ZÄÖÜ]{1,2}\.|^[xX]{2}\.|^[XYZ]{2,3}$|-[xX]{2}")


def _numbered_or_glued(elements: Sequence[Element], i: int) -> str | None:
    """Masks that number or glue what they hide: ``Flurstück F3..``, ``Dr. L2``, ``der X1 AG``,
    ``XY AG``, ``(„Ort01“)``, ``C.bank``, ``C.-schule``, ``(G.-)GmbH``. A bare ``X1`` stays
    a reference (``Zeile X1``) unless a title, a company word or a parcel noun is beside it."""
    el = elements[i]
    if not _NUMBERED_OR_GLUED_HINT.search(el.core):
        return None  # every shape below has a digit, a capital and a period, "XY" or "-XX"
    prev = elements[i - 1] if i > 0 else None
    nxt = elements[i + 1] if i + 1 < len(elements) else None
    if RE_PORTAL_TOKEN.fullmatch(el.core) or RE_MASKED_CODE.fullmatch(el.core):
        return "mask"  # "des Eufach0000000005s", "(W-XX1)"
    if (
        re.fullmatch(r"[A-Z]{1,2}\.", el.core)
        and _after_date_word(elements, i)
        and not _name_follows(nxt)
    ):
        return "date"  # "vom G.", "unter dem AA. Widerspruch": a court that letters its dates
    parcel = prev is not None and prev.lower in ADDRESS_IDX_CUES
    if parcel and re.fullmatch(r"\d{1,4}\.{3}", el.raw.rstrip(",;:)")):
        return "digits"  # "FlNr. 4...": the rest of the parcel number masked
    if RE_NUMBERED_WORD.fullmatch(el.core) or (
        RE_NUMBERED_DOTS.fullmatch(el.raw.strip(",;:)“”\"'"))
        and not any(re.fullmatch(r"[A-Z]\d{1,2},?", e.raw) for e in elements[max(0, i - 2) : i])
    ):
        return "mask"  # "F3..", not "S1, S2 and S3...": a list that goes on
    if re.fullmatch(r"[xX]{2}\.", el.core) and nxt is not None and nxt.core in MONTHS:
        return "date"  # "am XX. Juli 2022": a masked day
    prev_lower = prev.lower if prev is not None else ""
    if RE_NUMBERED.fullmatch(el.core) and (
        prev_lower in TITLES
        or prev_lower in ORGANIZATION_NOUNS
        or prev_lower in ADDRESS_IDX_CUES
        or (nxt is not None and nxt.lower.rstrip(".,;") in COMPANY_WORDS_AFTER)
    ):
        return "mask"
    glued = RE_GLUED_ENTITY.fullmatch(el.core)
    if glued and is_entity_suffix(glued.group(1)) and not is_street(glued.group(1)):
        return "letter-suffix"
    return None


def classify(elements: Sequence[Element], i: int) -> str | None:
    """The placeholder shape of element ``i`` in its context, or None."""
    el = elements[i]
    prev = elements[i - 1] if i > 0 else None
    nxt = elements[i + 1] if i + 1 < len(elements) else None
    if el.core and (kind := _numbered_or_glued(elements, i)):
        return kind
    if not el.core or not MAYBE_PLACEHOLDER.search(el.core):
        return None
    if is_glyph_code(el.raw):
        return None  # "/;###/g43": a PDF font's glyph codes, not text
    if spaced_heading(elements, i):
        return None  # "TAT B E S TAN D": a letter-spaced heading
    kind = _obvious_kind(el, prev, nxt)
    if (
        kind == "ellipsis"
        and el.line_start
        and (nxt is None or nxt.line_start)
        and not signature_around(prev, nxt)
    ):
        return None  # an ellipsis alone on its line: left-out text or graphics
    if kind is not None:
        return kind
    if nxt is not None and RE_IBAN_START.match(el.core) and RE_MASK_IN_ELEMENT.fullmatch(nxt.core):
        return "iban"  # "DE38 XXXX XXXX 31"
    if re.fullmatch(r"[xX]{2}", without_period(el.core)) and any(
        other is not None
        and (RE_MASK_IN_ELEMENT.search(other.core) or other.lower in LEGAL_PROFESSION_CUES)
        for other in (prev, nxt)
    ):
        return "mask"  # "Rechtsanwälte XX", "WA XX – Wp XXXX"
    if (
        RE_MASKED_DIGITS.match(without_period(el.core))
        and prev is not None
        and (
            RE_MASKED_PLATE.match(prev.core)
            or RE_MASKED_IBAN.match(prev.core)
            or RE_MASKED_DIGITS.match(prev.core)
        )
    ):
        return "digits"
    return _potential_kind(elements, i)


def find_candidates(text: str, elements: Sequence[Element]) -> list[Candidate]:
    """Placeholder elements with their shapes, plus visible parts that complete one
    (house numbers after masked streets, towns after masked postcodes, years after a
    masked day), in text order."""
    found: list[Candidate] = []
    for i, el in enumerate(elements):
        kind = classify(elements, i)
        if kind is None:
            continue
        if kind in {"ellipsis", "masked-word"} and _PRINT_HEADER_LINE.match(text, el.end):
            continue  # "… Einsicht i...⏎07.08.2014http://": a title cut in a print header
        end = el.core_end
        if kind in {"repeated", "postcode", "digits", "email", "url"} or (
            kind == "date" and RE_ZERO_DATE.match(el.core)
        ):
            end -= len(el.core) - len(without_period(el.core))
        start = el.core_start
        if kind == "date" and RE_MASKED_YEAR.match(el.raw.rstrip(",;:)")):
            end = el.start + len(el.raw.rstrip(",;:)"))  # "19..": both dots are the mask
        if kind == "mask":
            masked = RE_MASK_IN_ELEMENT.search(el.core)
            if masked is not None:  # the mask and what is glued to it, not "(AZ.:"
                start, end = el.core_start + masked.start(), el.core_start + masked.end()
        found.append(Candidate(i, start, end, kind))
    found += _bracket_phrases(text, elements, found)
    found += _masked_streets(text, elements, found)
    taken = {c.index for c in found}
    extra = []
    for c in found:
        j = c.index + 1
        if j >= len(elements) or j in taken or text[c.end : elements[j].core_start] != " ":
            continue
        nxt = elements[j]
        if (
            c.kind in {"masked-prefix", "letter-suffix", "mask"}
            and is_street(elements[c.index].core)
            and RE_HOUSE_NUMBER.match(nxt.core)
        ):
            extra.append(Candidate(j, nxt.core_start, nxt.core_end, "house-number"))
            extra += _more_house_numbers(elements, j)
        elif c.kind == "postcode" and nxt.core[:1].isupper():
            extra.append(Candidate(j, nxt.core_start, nxt.core_end, "town"))
        elif c.kind == "ellipsis" and RE_YEAR.match(nxt.core):
            extra.append(Candidate(j, nxt.core_start, nxt.core_end, "year"))
        elif (
            c.kind == "mask" and _in_iban(elements, c.index) and re.fullmatch(r"\d{1,4}", nxt.core)
        ):
            extra.append(Candidate(j, nxt.core_start, nxt.core_end, "digits"))  # "… XXXX 31"
    return sorted(found + extra, key=lambda c: c.start)


def _more_house_numbers(elements: Sequence[Element], j: int) -> list[Candidate]:
    """Further numbers of a masked street (``Z-weg 01, 02, 03 und 04``): each its own
    placeholder, as ANNOTATION.md marks several house numbers."""
    out = []
    k = j
    while k + 2 < len(elements) and (
        elements[k].raw.endswith(",") or elements[k + 1].lower in {"und", "sowie", "bis", "u."}
    ):
        step = 1 if elements[k].raw.endswith(",") else 2
        number = elements[k + step]
        if not re.fullmatch(r"\d{1,4}[a-z]?", number.core):
            break
        out.append(Candidate(k + step, number.core_start, number.core_end, "house-number"))
        k += step
    return out


def _bracket_phrases(
    text: str, elements: Sequence[Element], found: Sequence[Candidate]
) -> list[Candidate]:
    """Bracketed words for what was removed that span elements (``[weitere Beteiligte]``)."""
    starts = {el.start: i for i, el in enumerate(elements)}
    out = []
    for match in RE_BRACKET_PHRASE.finditer(text):
        i = starts.get(match.start())
        if i is None or any(c.start < match.end() and match.start() < c.end for c in found):
            continue
        out.append(Candidate(i, match.start(), match.end(), "mask"))
    return out


def _masked_streets(
    text: str, elements: Sequence[Element], found: Sequence[Candidate]
) -> list[Candidate]:
    """Masked streets and towns the element split misses: two in one element
    (``X.-straße/T2.-weg``), a space after the hyphen (``M.- weg``), a star (``A*-Stadt``)."""
    starts = [el.start for el in elements]
    out = []
    for match in RE_MASKED_STREET_IN_TEXT.finditer(text):
        if any(c.start < match.end() and match.start() < c.end for c in found):
            continue
        i = max(0, bisect.bisect_right(starts, match.start()) - 1)
        out.append(Candidate(i, match.start(), match.end(), "letter-suffix"))
    return out


def _in_iban(elements: Sequence[Element], i: int) -> bool:
    """Whether mask ``i`` continues an IBAN's visible start (``DE38 XXXX XXXX``)."""
    j = i - 1
    while j >= 0 and RE_MASK_IN_ELEMENT.fullmatch(elements[j].core):
        j -= 1
    return j >= 0 and bool(RE_IBAN_START.match(elements[j].core))


def _joinable(text: str, a: Candidate, b: Candidate) -> bool:
    """Whether two adjacent placeholder elements hide one entity."""
    if text[a.end : b.start] != " ":
        return False
    if a.kind in {"masked-prefix", "letter-suffix", "mask"} and b.kind in {
        "house-number",
        "ellipsis",
    }:
        return b.kind == "house-number" or is_street(text[a.start : a.end])  # "…straße …"
    pairs = {
        ("postcode", "town"),
        ("postcode", "letter-suffix"),
        ("postcode", "ellipsis"),
        ("plate", "digits"),
        ("iban", "digits"),
        ("digits", "digits"),
        ("ellipsis", "year"),
        ("fullwidth", "fullwidth"),
        ("iban", "mask"),
        ("mask", "digits"),
        ("postcode", "mask"),
        ("ellipsis", "ellipsis"),
    }
    if (a.kind, b.kind) in pairs:
        return True
    return a.kind in NAME_KINDS and b.kind in NAME_KINDS  # "H... O...", "A. B.", "D P T S"


def merge_candidates(text: str, candidates: Sequence[Candidate]) -> list[list[Candidate]]:
    groups: list[list[Candidate]] = []
    for c in candidates:
        if groups and _joinable(text, groups[-1][-1], c):
            groups[-1].append(c)
        else:
            groups.append([c])
    return groups


_QUOTE_OPEN, _QUOTE_CLOSE = "„»‚", "“«‘"


def _is_quoted_omission(text: str, elements: Sequence[Element], group: Sequence[Candidate]) -> bool:
    """A bare ellipsis inside a quotation (``„Ich habe ... gesehen“``) marks an omission.

    Ellipses quoted on their own (``"..."``) stay placeholders (seed 000, appendix A.1).
    """
    if len(group) != 1 or group[0].kind != "ellipsis":
        return False
    index = group[0].index
    el = elements[index]
    if el.raw[:1] in OPENING and el.raw.rstrip(".,;:")[-1:] in "\"'“”‘’«»":
        return False
    nxt = elements[index + 1].raw if index + 1 < len(elements) else ""
    if (el.raw[-1:] and el.raw[-1] in _QUOTE_CLOSE) or (nxt and nxt[0] in _QUOTE_CLOSE):
        return True  # "… gemischt … “": the quotation ends with an omission
    paragraph = text[max(text.rfind("\n", 0, el.start) + 1, el.start - 400) : el.core_start]
    opened = sum(paragraph.count(q) for q in _QUOTE_OPEN)
    closed = sum(paragraph.count(q) for q in _QUOTE_CLOSE)
    return opened > closed or paragraph.count('"') % 2 == 1


def find_placeholders(text: str, elements: Sequence[Element] | None = None) -> list[Placeholder]:
    """All placeholders of a published decision, merged and labelled, in text order
    (``elements``: the text's :func:`split_elements`, where the caller has them already)."""
    elements = split_elements(text) if elements is None else elements
    placeholders: list[Placeholder] = []
    for group in merge_candidates(text, find_candidates(text, elements)):
        label = infer_label(text, elements, group, placeholders)
        if label == UNKNOWN and _is_quoted_omission(text, elements, group):
            continue
        guessed = label == UNKNOWN or (
            label == "nat-name" and not person_context(elements, group[0].index)
        )
        placeholders.append(
            Placeholder(
                group[0].start,
                group[-1].end,
                label,
                tuple(c.kind for c in group),
                group[0].index,
                group[-1].index,
                guessed,
            )
        )
    return label_from_decision(text, letters_elsewhere(text, elements, placeholders))
