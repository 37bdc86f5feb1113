"""Where a match stands: inside a citation of another decision or a statute (skipped by
every rule), or in the rubrum (the head of the decision, up to its first heading)."""

from __future__ import annotations

import re

# --- citations -----------------------------------------------------------------------------

STATUTE_WORDS = re.compile(
    r"(?:[Gg]esetz\w*|[Vv]erordnung\w*|Fassung|Bekanntmachung|Neufassung|Richtlinie\w*|"
    r"Satzung\w*|Erlass\w*|Runderlass\w*|Abkommen\w*|Übereinkommen\w*|[Vv]ertrag\w*|"
    r"Tarifvertrag\w*|Vereinbarung\w*|Rundschreiben\w*|Verwaltungsvorschrift\w*|Ordnung|"
    r"[A-ZÄÖÜ][A-Za-zÄÖÜäöü]*(?:G|VO|O|V)|Stand|BGBl\.?|GVBl\.?|Amtsbl\.?|ABl\.\s?[LC]\s?\d+|\b[LC]\s\d{2,4}|\w*ordnung)"
    r"\s+(?:\([^)]{0,40}\)\s+)?(?:vom|v\.|i\.d\.F\.\s*v\.|in der Fassung vom)\s*$"
)
GAZETTE_AFTER = re.compile(
    r"^\s*[(,]?\s*(?:BGBl|GVBl|GV\.|ABl|Amtsbl|GVOBl|MBl|BAnz|SächsGVBl|GBl)"
)
#: the abbreviations of references: databases, margin numbers, journals, reports, `a.a.O.`
PUBLICATION_MARKS = (
    r"juris|Rn\.|Rdnr\.|Rz\.|NJW|NVwZ|NZA|NZS|BeckRS|DVBl|DÖV|ZfBR|BayVBl|FamRZ|WM|ZIP|"
    r"BFH/NV|StV|NStZ|DAR|NZV|MDR|VersR|ZMR|WuM|NZM|InfAuslR|AuAS|NWVBl|NdsVBl|VBlBW|LKV|"
    r"JZ|NZI|ZInsO|DStR|GmbHR|NZG|ZUM|GRUR|MMR|K&R|CR|EFG|HFR|ZfS|VRS|"
    r"BVerwGE|BGHZ|BGHSt|BSGE|BFHE|BAGE|BVerfGE|BStBl|SozR|EzA|AP Nr|openJur|"
    r"OLG-?Report|OLGR|Buchholz|a\.\s?a\.\s?O\.|aaO"
)
#: the marks, and the words that say a decision is published somewhere
PUBLICATION = re.compile(PUBLICATION_MARKS + r"|veröffentlicht|abrufbar")
CITED_COURT = re.compile(
    r"(?:BGH|BVerwG|BSG|BAG|BFH|BVerfG|BPatG|EuGH|EGMR|EuG|OVG|VGH|OLG|LG|VG|LSG|SG|FG|LAG|"
    r"BayVGH|BayObLG|KG|Bundes\w+|Senat\w*|\w*(?:gericht|gerichtshof|hof)s?)\b[^.;:()\n]{0,60}?"
    r"(?:Urt\.?|Beschl\.?|Urteil\w*|Beschluss\w*|B\.|U\.|Entscheidung\w*|Gerichtsbescheid\w*)\s*"
    r"(?:(?:v\.|vom)\s*(?:[\d.]{6,10}|\d{1,2}\.\s?\w+\s\d{4})?\s*[,–-]?\s*(?:Az\.?:?\s*)?)?$"
)


# `… vom 12.5.2020 - 4 C 1.19 -, juris`: a docket between dashes; group 1 is what follows
DASHED_DOCKET_AFTER = re.compile(r"^\s*[-–]\s*[^-–\n]{3,40}?\s*[-–]\s*[,;]?\s*(\S+)")
# `vom 12.5.2020, juris`, `vom 12.5.2020 (V) NJW`: a publication right after
PUBLICATION_AFTER = re.compile(
    r"^\s*(?:\([^)]{0,20}\))?\s*[-–,]?\s*(?:" + PUBLICATION.pattern + ")"
)


def parenthesis_around(text: str, start: int, end: int) -> str | None:
    """The bracket still open at ``start`` (looked for 150 characters back), up to its
    closing ``)`` after ``end`` (or 90 characters on): ``(BSG vom 18.11.2003, aaO., Rn. 8``;
    None outside brackets."""
    paren = text.rfind("(", max(0, start - 150), start)
    if paren < 0 or ")" in text[paren:start]:
        return None
    close = text.find(")", end)
    return text[paren : close if close >= 0 else end + 90]


def _clause_before(text: str, start: int, width: int = 120) -> str:
    """Text before ``start`` back to the last sentence end, parenthesis or line break."""
    before = text[max(0, start - width) : start]
    cut = max(before.rfind("\n"), before.rfind("("), before.rfind(";"), before.rfind(". "))
    return before[cut + 1 :] if cut >= 0 else before


CITED_DECISION = re.compile(
    r"(?:Urteil|Beschluss|Entscheidung)\w*\s+(?:des|der)\s+(?:Bundes\w+|Senats|BGH|BVerwG|BVerfG|"
    r"BSG|BAG|BFH|EuGH|EGMR|Großen\s+Senats)\s+(?:vom|v\.)\s*$"
)

#: A date of a decision in a citation: `12.5.2020`, `12. Mai 2020`
DATE = r"\d{1,2}\.\s?(?:\d{1,2}\.\s?|[A-ZÄÖÜ][a-zä]+\s)\d{2,4}"
#: `in der Sache`, `im Verfahren`: the words that name a case by its docket
IN_THE_MATTER = r"(?:in\s+der\s+Sache|im\s+Verfahren|in\s+dem\s+Verfahren)"

# `mit Urteil des Senats vom 26. Juni 2023 in der Sache VIa ZR 335/21`: the senate's
# precedent (:data:`CITED_DECISION`) named with its docket (not `Beschluss des
# Verwaltungsgerichts Hamburg vom … im Verfahren 20 ZE 1548/12`, often the parties' own case)
DECISION_IN_THE_MATTER = re.compile(
    r"(?:Urteil|Beschluss)\w*\s+des\s+(?:Großen\s+)?Senats\s+(?:v\.|vom)\s*"
    + DATE
    + r"\s*,?\s*"
    + IN_THE_MATTER
    + r"\s+$"
)


def in_citation(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is part of a citation of another decision or a statute.

    ``(BVerwG, Urteil vom 12. Mai 2020 – 4 C 1.19 –, juris Rn. 12)``, ``Gesetz vom
    5. Mai 2004 (BGBl. I S. 718)``, ``NVwZ 2010, 12``: the court before, the gazette or
    publication after, or a statute word right before ``vom``.
    """
    before = _clause_before(text, start)
    if (
        STATUTE_WORDS.search(before)
        or CITED_COURT.search(before)
        or CITED_DECISION.search(before)
        or DECISION_IN_THE_MATTER.search(text[max(0, start - 60) : start])
    ):
        return True
    after = text[end : end + 90]
    if GAZETTE_AFTER.match(after):
        return True
    inside = parenthesis_around(text, start, end)
    if inside is not None and (
        PUBLICATION.search(inside) or re.search(r"\bvgl\.|\bs\.\s", inside[:40])
    ):
        return True
    # `… vom 12.5.2020 - 4 C 1.19 -, juris` / `… - 4 C 1.19 - NVwZ …`
    dash = DASHED_DOCKET_AFTER.match(after)
    if dash and PUBLICATION.match(dash.group(1)):
        return True
    return bool(PUBLICATION_AFTER.match(after))


CITING_COURT_BEFORE = re.compile(
    r"(?:\b(?:BGH|BVerwG|BSG|BAG|BFH|BVerfG|BPatG|EuGH|EGMR|BayVGH|BayObLG)"
    r"|\b(?:OVG|VGH|OLG|LG|VG|LSG|SG|FG|LAG|KG)\s[A-ZÄÖÜ][\w-]+)\s*,?\s*(?:v\.\s*)?$"
)
DOCKET_AFTER = re.compile(
    r"^\s*[-–]?\s*(?:[A-Z]{1,3}\s)?(?:[IVX]{1,5}|\d{1,3}[a-z]?)\s[A-Z][A-Za-z]{0,4}(?:\s[A-Z]{1,3})?\s\d{1,6}[./]\d{2}"
)


# --- the rubrum ------------------------------------------------------------------------------

HEADER_CHARS = 700


def rubrum_heading(text: str) -> int | None:
    """Where the rubrum ends: the first ``Tenor``/``Gründe``/``Tatbestand`` heading, if any
    within the first 4,000 characters."""
    m = re.search(
        r"\n\s*(?:Tenor|Gründe|Tatbestand|Entscheidungsgründe|Leitsatz|Leitsätze|"
        r"T\s?e\s?n\s?o\s?r|G\s?r\s?ü\s?n\s?d\s?e)\b",
        text[:4000],
    )
    return m.start() if m else None


def header_end(text: str) -> int:
    """The rubrum's end, at least the first ``HEADER_CHARS`` characters (dockets, courts)."""
    heading = rubrum_heading(text)
    return max(HEADER_CHARS, heading) if heading is not None else HEADER_CHARS
