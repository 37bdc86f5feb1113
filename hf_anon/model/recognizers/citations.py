"""What the model marks inside a reference to another text: dropped before the merge.

The guidelines keep everything inside a citation of another decision, a statute with its
dates, a gazette, a commentary or a publication reference out of the spans. A model
reads the date in ``BVerwG, Urteil vom 12. Mai 2020 – 4 C 1.19 –, juris`` or in
``Verordnung (EU) 2019/1148 … vom 20. Juni 2019`` as the date it looks like; the
grammar of the reference around it says otherwise. :func:`drop_cited` removes the
model's dates, courts and dockets that stand in such a reference; spans of this case's
procedural history (``vorgehend VG Schwerin, 11. Dezember 2025, 1 B 3859/25``) and its
own dockets stay. Names of the authors of cited books and articles are dropped too
(:mod:`~hf_anon.model.recognizers.literature`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from hf_anon.model.recognizers.base import nfc_view
from hf_anon.model.recognizers.context import (
    DASHED_DOCKET_AFTER,
    DATE,
    DECISION_IN_THE_MATTER,
    GAZETTE_AFTER,
    IN_THE_MATTER,
    PUBLICATION,
    parenthesis_around,
)
from hf_anon.model.recognizers.dockets import DOCKET_RE, find_dockets
from hf_anon.model.recognizers.literature import AUTHOR_LABELS, is_cited_author
from hf_anon.text.data import Span

#: labels a reference contains: only these are checked
REFERENCE_LABELS = frozenset({"date-fact", "date-world", "court-name", "court-docket"})

# :data:`~hf_anon.model.recognizers.context.PUBLICATION_AFTER`, also after an opening bracket:
# `vom 6. Dezember 2016 (BVerfGE 143, 246)`
_PUBLICATION_START = re.compile(
    r"^\s*(?:\([^)]{0,20}\))?\s*[-–,(]?\s*(?:" + PUBLICATION.pattern + ")"
)
# `L 231 vom 6.9.2019, S. 30`: a date followed by a page is a gazette's or journal's issue
# (not `vom 14. Mai 2012, S. 9 des Entscheidungsabdrucks`, a page of the decision itself)
PAGE_AFTER = re.compile(r"^\s*,\s*S\.\s*\d+(?![\d\s]*(?:des|der|d\.)\s)")
# `Urteil des Bundesverfassungsgerichts vom 9. November 2011`: the constitutional and the
# European courts are never an instance of the case they are named in
HIGH_COURT_BEFORE = re.compile(
    r"(?:Bundesverfassungsgericht\w*|BVerfG|Europäischen\s+Gerichtshof\w*|EuGH|EGMR|"
    r"Gerichtshof\w*\s+der\s+Europäischen\s+Union|Europäischen\s+Gerichtshofs?\s+für\s+"
    r"Menschenrechte)\s*,?\s*(?:(?:Urt\.|Beschl\.|Urteil|Beschluss)\s*)?(?:vom|v\.)\s*$"
)
# `OLG München - 29 W 2325/07 -, Beschluss vom 16. Oktober 2007`: a cited decision's date
# after its docket
DOCKET_THEN_DATE = re.compile(
    r"[-–]\s*(?P<docket>[^-–\n]{3,30}?)\s*[-–]\s*,?\s*(?:Urt\.|Beschl\.|Urteil|Beschluss)\s*"
    r"(?:vom|v\.)\s*$"
)
# `Verordnung (EU) 2019/1148 des Europäischen Parlaments und des Rates vom`, `BGBl. I vom`
LAW_BEFORE = re.compile(
    r"(?:\w*[Gg]esetz(?:es|s)?|\w*[Vv]erordnung|\w*[Rr]ichtlinie|Fassung|\w*[Bb]ekanntmachung|"
    r"Satzung|\w*[Ee]rlass(?:es)?|Abkommens?|Übereinkommens?|Tarifvertrag(?:es|s)?|"
    r"Verwaltungsvorschrift|\w*(?<!an)(?<!bei)ordnung|Gesetzentwurf(?:es|s)?|Lagebericht\w*|"
    r"Drs\.|Drucks(?:ache)?\.?|BGBl\.?|GVBl\.?|Amtsbl\.?|ABl\.(?:\s?[LC])?(?:\s?\d+)?)"
    r"(?:\s+(?:\([^)]{0,40}\)|Nr\.|I{1,2}|[\dA-ZÄÖÜ][\w./-]*|des\s+Europäischen\s+Parlaments"
    r"\s+und\s+des\s+Rates|des\s+Rates|der\s+Kommission)){0,4}\s+(?:vom|v\.)\s*$"
)
# the date a law came into or went out of force, the version of a statute
LAW_AFTER = re.compile(
    r"^\s*(?:[\w-]+\s+){0,3}?(?:(?:in|außer)\s+Kraft|(?:geltenden|gültigen)\s+Fassung)"
)
LAW_CHANGE_BEFORE = re.compile(r"(?:Inkrafttreten|Außerkrafttreten)s?\b[^.;\n]{0,60}\bzum\s*$")
# `seit 01.07.2011 nicht mehr dem Betäubungsmittelgesetz unterstellt`, `Seit dem 01.04.2024
# stellt sich … die Rechtslage`, `zwischen dem 01.03.2020 und dem 31.12.2022 eine
# Übergangsregelung`: the date a rule changed, in the clause that names the rule
LAW_IN_CLAUSE_AFTER = re.compile(
    r"^[^.;:()\n]{0,45}?(?:(?<!nach\sdem\s)\b\w*[Gg]esetz(?:es)?\b|\bRechtslage\b|"
    r"\w*[Üü]bergangsregel\w*|\bRichtlinie\b)"
)
LAW_IN_CLAUSE_BEFORE = re.compile(
    r"\b(?:Stichtag|Umsetzungsfrist|Übergangsfrist|Rechtslage)\b[^.;:()\n]{0,30}$"
)
# commentaries and loose-leaf editions: `Stand: Juni 2017`, `48. EL Juli 2025`, `12. Ed.`
EDITION_BEFORE = re.compile(r"(?:\bStand|\bEL|\bEd\.|\bErgl\.|Lfg\.|\bAufl\.?)\s*:?\s*$")
# a date followed by the docket of the decision it dates (`vom 7.2.2008 (IX ZB 137/07`)
DOCKET_AFTER_DATE = re.compile(
    r"^\s*[-–,(]?\s*(?:Az\.?:?\s*)?(?:(?:BVerwG|BGH|BFH|BSG|BAG|BVerfG)\s)?"
)
# `das Urteil des Niedersächsischen Finanzgerichts vom 19. Mai 2017 2 K 154/15`: prose that
# names a decision, as a court names its own case's instances (a citation abbreviates)
PROSE_DECISION_BEFORE = re.compile(
    r"\b(?:des|dem|der|den|das|die)\s+(?:[\w-]+\s+){0,4}?(?:vom|v\.)\s*$"
)
DOCKET_THEN_PUBLICATION = re.compile(r"\s*[-–]?\s*[,;(]?\s*(?:" + PUBLICATION.pattern + ")")
PROSE_COURT_BEFORE = re.compile(r"\b(?:des|dem|der|den|das|die)\s+$")
PROCEDURAL_HISTORY = re.compile(r"\b(?:vorgehend|nachgehend|Vorinstanz|Verfahrensgang)\b", re.I)
# `LAG München 28.08.2007`, `BSG vom 16.5.2012`, `OLG Köln vom`
_CITED_COURT = (
    r"(?:\b(?:BGH|BVerwG|BSG|BAG|BFH|BVerfG|BPatG|EuGH|EGMR|BayVGH|BayObLG|Kammergericht)"
    r"|\b(?:OVG|VGH|OLG|LG|VG|LSG|SG|FG|LAG|ArbG|KG)\s[A-ZÄÖÜ][\w-]+"
    r"|\b[A-ZÄÖÜ]\w*(?:gericht|gerichtshof)\s[A-ZÄÖÜ][\w-]+)"
    r"\s*,?\s*(?:(?:Urt\.|Beschl\.|Urteil|Ur-teil|Beschluss)\s*)?(?:v\.|vom)?\s*"
)
CITING_COURT_BEFORE = re.compile(_CITED_COURT + "$")
# `LAG Nürnberg 30.09.2010 – 5 Ta 135/10`, `Hanseatisches Oberlandesgericht Hamburg,
# Beschluss vom 05.05.2025 – 12 UF 21/25`: the docket of a cited court's decision
CITED_DOCKET_BEFORE = re.compile(_CITED_COURT + DATE + r"\s*[-–,(]\s*(?:Az\.?:?\s*)?$")
# `(vgl. Urteil vom 3. Dezember 1997, Az. 6 RKa 74/96`: a decision compared with
VGL_DOCKET_BEFORE = re.compile(
    r"\bvgl\.\s+(?:[^;()\n]{0,40}\s)?(?:Urt\.|Beschl\.|Urteil|Beschluss)\s*(?:v\.|vom)\s*"
    + DATE
    + r"\s*[-–,(]\s*(?:Az\.?:?\s*)?$"
)
# `mit Urteil des Senats vom 26. Juni 2023 in der Sache VIa ZR 335/21`: another case
MATTER_AFTER = re.compile(r"^\s*,?\s*" + IN_THE_MATTER + r"\s+")
# a court followed by its decision: `OLG Frankfurt, Urteil vom 3. Mai 2019 – 2 U 1/18`
DECISION_AFTER_COURT = re.compile(
    r"^\s*[,(]?\s*(?:(?:Urt\.?|Beschl\.?|Urteil|Beschluss|Beschluß|Gerichtsbescheid|B\.|U\.)\s*)?"
    r"(?:v\.|vom)?\s*" + DATE + r"\s*[-–,(]?\s*(?:Az\.?:?\s*)?"
)


def _docket_at(text: str, at: int, own: set[str]) -> bool:
    """Whether another decision's docket starts at ``at`` (not one of this case's own)."""
    m = DOCKET_RE.match(text, at)
    return bool(m) and m.group(0) not in own


def _published_docket_at(text: str, at: int, own: set[str]) -> bool:
    """Another decision's docket at ``at`` followed by where it is published
    (``4 K 840/11 (EFG 2013, 1613``): a citation even where prose names the court."""
    m = DOCKET_RE.match(text, at)
    return bool(m) and m.group(0) not in own and bool(DOCKET_THEN_PUBLICATION.match(text, m.end()))


def _cited_court_before(pattern: re.Pattern, before: str) -> bool:
    """A court in citation style before (``LAG München 28.08.2007``), not in prose
    (``des VGH Baden-Württemberg vom 30.07.2014``, this case's instance)."""
    m = pattern.search(before)
    return bool(m) and not PROSE_COURT_BEFORE.search(before[: m.start()])


def is_cited(text: str, span: Span, own_dockets: set[str]) -> bool:
    """Whether ``span`` (a date, court or docket) stands inside a reference to another
    decision, a statute, a gazette or a commentary."""
    start, end = span.start, span.end
    if span.label not in REFERENCE_LABELS:
        return False
    if PROCEDURAL_HISTORY.search(text[max(0, start - 80) : start]):
        return False
    if span.label == "court-docket" and text[start:end] in own_dockets:
        return False
    after = text[end : end + 90]
    if _PUBLICATION_START.match(after) or GAZETTE_AFTER.match(after):
        return True
    dash = DASHED_DOCKET_AFTER.match(after)
    if dash and PUBLICATION.match(dash.group(1)):
        return True
    inside = parenthesis_around(text, start, end)  # `(BSG vom 18.11.2003, aaO., Rn. 8)`
    if inside is not None and PUBLICATION.search(inside):
        return True
    before_start = max(0, start - 60)
    before = text[before_start:start]
    if span.label.startswith("date"):
        if re.match(r"\S", text[end : end + 1]) and text.startswith("http", end):
            return True  # `26.03.2011http://www.justiz.nrw.de/…`: a print header
        cited_docket = DOCKET_THEN_DATE.search(before)
        if cited_docket and _docket_at(
            text, before_start + cited_docket.start("docket"), own_dockets
        ):
            return True
        if (
            PAGE_AFTER.match(after)
            or HIGH_COURT_BEFORE.search(before)
            or LAW_BEFORE.search(text[max(0, start - 160) : start])
            or LAW_AFTER.match(after)
            or LAW_CHANGE_BEFORE.search(text[max(0, start - 100) : start])
            or EDITION_BEFORE.search(before)
            or (
                not re.search(r"(?:vom|v\.)\s*$", before)
                and (LAW_IN_CLAUSE_AFTER.match(after) or LAW_IN_CLAUSE_BEFORE.search(before))
            )
            or _cited_court_before(CITING_COURT_BEFORE, before)
        ):
            return True
        matter = MATTER_AFTER.match(after)
        if matter and DECISION_IN_THE_MATTER.search(text[max(0, start - 60) : end + matter.end()]):
            return True  # `Urteil des Senats vom 26. Juni 2023 in der Sache VIa ZR 335/21`
        docket = end + DOCKET_AFTER_DATE.match(after).end()
        return _published_docket_at(text, docket, own_dockets) or (
            not PROSE_DECISION_BEFORE.search(before) and _docket_at(text, docket, own_dockets)
        )
    if span.label == "court-name":
        decision = DECISION_AFTER_COURT.match(after)
        if not decision:
            return False
        docket = end + decision.end()
        return _published_docket_at(text, docket, own_dockets) or (
            not PROSE_COURT_BEFORE.search(before) and _docket_at(text, docket, own_dockets)
        )
    # a docket right after a cited court and date, or another case's date
    before = text[max(0, start - 110) : start]
    return (
        _cited_court_before(CITED_DOCKET_BEFORE, before)
        or VGL_DOCKET_BEFORE.search(before) is not None
        or DECISION_IN_THE_MATTER.search(before) is not None
    )


# `beim Verwaltungsgericht Hamburg, Lübeckertordamm 4, 20099 Hamburg`: a court's postal
# address (the instructions on appeal; not a span, data/real/annotation/GUIDE.md no. 25)
COURT_BEFORE_ADDRESS = re.compile(
    r"(?:[Gg]ericht|[Gg]erichtshof|[Gg]erichts|[Gg]erichtshofs)\b[^\n.;:]{0,50}?(?:,|\s/)\s*$"
)

#: Whether labelled address blocks count (the switch the fold measurement turns; session 55).
LABELLED_COURT_ADDRESSES = True

COURT_NAME_BEFORE_STREET = re.compile(
    r"(?:[Gg]ericht|[Gg]erichtshof)\b(?:\s+(?:[A-ZÄÖÜ][\w-]*|am|an|der|in|im)){0,4}\s*$"
)


# `beim Bayerischen Verwaltungsgericht Ansbach, Hausanschrift: Promenade 24 - 28, 91522 Ansbach,
# oder Postfachanschrift: Postfach 616, 91511 Ansbach`: the same, written with labels. The
# block after the court's name and seat holds only labels, `Postfach` numbers, streets with
# numbers, postcodes with towns, `in` a town and connectives; no sentence, at most one line
# end between two of them. Read item by item, each the first alternative that fits, so that
# the time is linear in the block (one pattern over the whole block backtracks without end
# on `in in in …`).
_TOWN = (
    r"[A-ZÄÖÜ][\w.-]*(?:[ \t]*-[ \t]*[A-ZÄÖÜ][\w.-]*)?"
    r"(?:[ \t]+(?:am|an[ \t]+der|im|in[ \t]+der)[ \t]+[A-ZÄÖÜ][\w.-]*)?"
)
_BLOCK_ITEM = re.compile(
    r"[ \t]*\n?[ \t]*"
    r"(?:(?:Haus|Post|Postfach|Paket|Besucher)?[Aa]nschrift(?:en)?\b"
    r"|Postfach(?:[ \t]+\d+)*\b"
    r"|[A-ZÄÖÜ][\w.-]*(?:[ \t]+[A-ZÄÖÜ][\w.-]*)?[ \t]+\d+[ \t]*[a-z]?\b"
    r"(?:[ \t]*[-–][ \t]*\d+[ \t]*[a-z]?\b)?"
    r"|\d{5}[ \t]+" + _TOWN + r"|in[ \t]+" + _TOWN + r"|(?:in|oder|und|sowie)\b|bzw\.|[,;:()/])"
)
_COURT_AND_SEAT = re.compile(
    r"(?:[Gg]ericht|[Gg]erichtshof)s?\b"
    r"(?:[ \t]+(?:für[ \t]+das[ \t]+Land|des[ \t]+Landes|" + _TOWN + r")){0,3}"
)
ADDRESS_LABEL = re.compile(r"[Aa]nschrift|Postfach")


def _block_reaches_end(before: str, at: int) -> bool:
    """Whether items of the address block, read from ``at``, end exactly where ``before`` does."""
    while at < len(before):
        if not before[at:].strip():
            return before[at:].count("\n") <= 1
        item = _BLOCK_ITEM.match(before, at)
        if item is None or item.end() == at:
            return False
        at = item.end()
    return True


def in_labelled_court_address(before: str, span_text: str = "") -> bool:
    """Whether the text ``before`` a span ends in a court's labelled address block (a court's
    name and seat, then only block items, ``Hausanschrift``, ``Postfach`` or the like among them
    or in the span's own text, ``oder Postfach 10 32 64``). The label is required: an
    unlabelled block is :data:`COURT_BEFORE_ADDRESS`'s, and a party's address after a court's
    name in a rubrum carries none."""
    for court in _COURT_AND_SEAT.finditer(before):
        # the seat (up to three words) is read greedily; block items must follow it
        if _block_reaches_end(before, court.end()) and ADDRESS_LABEL.search(
            before[court.start() :] + span_text
        ):
            return True
    return False


def is_court_address(text: str, span: Span, previous: Span | None) -> bool:
    """Whether an address span is a court's postal address: it follows a court's name, or
    the street of one (``…, 20099 Hamburg``), or ends a labelled address block after a
    court's name (``Hausanschrift: Promenade 24 - 28, 91522 Ansbach``)."""
    if not span.label.startswith("address"):
        return False
    before = text[max(0, span.start - 70) : span.start]
    if COURT_BEFORE_ADDRESS.search(before):
        return True
    if LABELLED_COURT_ADDRESSES and in_labelled_court_address(
        text[max(0, span.start - 240) : span.start], text[span.start : span.end]
    ):
        return True
    street = re.search(r"\d", text[span.start : span.end]) is not None
    if street and COURT_NAME_BEFORE_STREET.search(before):
        return True  # `Verwaltungsgericht Frankfurt am Main Adalbertstraße 18 60486 …`
    return (
        previous is not None
        and re.fullmatch(r"[\s,/]{0,4}", text[previous.end : span.start]) is not None
    )


def cited_flags(text: str, spans: Sequence[Span]) -> list[bool]:
    """For each span, whether it is a date, court or docket inside a reference, the author
    of cited literature (:mod:`~hf_anon.model.recognizers.literature`) or a court's postal
    address (what :func:`drop_cited` drops)."""
    if not any(
        s.label in REFERENCE_LABELS or s.label in AUTHOR_LABELS or s.label.startswith("address")
        for s in spans
    ):
        return [False] * len(spans)
    view, starts = nfc_view(text)  # the rules read composed umlauts (LegalQuAD has both)
    if starts is not None:

        def to_view(at: int) -> int:
            return bisect_left(starts, at) if at < len(text) else len(view)

        spans_in_view = [
            Span(to_view(s.start), to_view(s.end), s.label, s.risk, s.score) for s in spans
        ]
    else:
        spans_in_view = list(spans)
    own = {view[s.start : s.end] for s in find_dockets(view)}
    flags, court_address = [False] * len(spans), None
    for i, span in sorted(enumerate(spans_in_view), key=lambda t: t[1].start):
        if is_court_address(view, span, court_address):
            court_address = span
            flags[i] = True
            continue
        court_address = None
        flags[i] = is_cited(view, span, own) or is_cited_author(view, span)
    return flags


def drop_cited(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without the dates, courts and dockets that stand inside references, the
    authors of cited literature, and courts' postal addresses."""
    return [s for s, cited in zip(spans, cited_flags(text, spans), strict=True) if not cited]
