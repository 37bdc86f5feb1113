"""Docket numbers of this case (``M 12 K 20.1234``, ``VI ZR 3/20``, ECLI): in the rubrum,
after a cue word, and their repeats; a cited decision's docket is none."""

from __future__ import annotations

import re

from hf_anon.model.recognizers.base import rule_span
from hf_anon.model.recognizers.context import header_end, in_citation
from hf_anon.text.data import Span

_ROMAN = r"(?:[IVX]{1,5}a?)"  # a BGH senate: `VI ZR`, `VIa ZR`
_REGISTER = r"[A-ZÄÖÜ][A-Za-zÄÖÜäöü]{0,5}"
DOCKET_RE = re.compile(
    r"(?<![\w/.-])(?:"
    r"ECLI:[A-Z]{2}:[A-Za-z]+:\d{4}:[\w.]+"  # ECLI
    r"|(?:(?:VG|OVG|LSG|SG|LAG|ArbG|FG) )?(?:[A-Z]{1,3} ?)?\d{1,3}[a-z]? "  # (VG) 12 / M 12
    rf"{_REGISTER}(?: {_REGISTER})? \d{{1,6}}[./]\d{{2,5}}"  # K 20.1234, S 15.50045, C 12/21
    r"(?:\.[A-Z](?:\([A-Z0-9]{1,3}\))?(?![\w]))?"  # 7 L 1560/09.F(1), 4 A 442/24.A
    r"(?: ?\([A-Za-z]{1,4}\))?(?: [A-Z]{1,2}(?![\w]))?"  # (V), R
    rf"|{_ROMAN} {_REGISTER}(?: {_REGISTER})? \d{{1,5}}/\d{{2,4}}"  # VI ZR 3/20
    r"|[A-Z] \d{1,2} [A-Z]{1,3} \d{1,5}/\d{2} [A-Z]{1,2}"  # B 9 SB 2/00 R
    r"|\d{1,3} (?:Js|Ds|Ls|Ns|Cs|Gs|Ks|KLs|VRs|UJs|AR|Zs) \d{1,6}/\d{2,4}"  # prosecution
    r")(?![\w/])"
)
LIST_JOIN = re.compile(r"\s*(?:,|und|sowie|bzw\.|oder)\s*(?:und\s+)?")
DOCKET_CUE = re.compile(
    r"(?:Az\.?|Aktenz(?:eichen|\.)|Gz\.?|Geschäftsz(?:eichen|\.)|AZ|Tagebuch-Nr\.|"
    r"Vorgangsn(?:ummer|r\.)|\b(?:Parallel|Widerspruchs|Ausgangs|Hauptsache|Eil)?[Vv]erfahren|Sache)\s*:?\s*$"
)


def find_dockets(text: str) -> list[Span]:
    """Docket numbers of this case: in the rubrum, after ``Az.``-like cues, and repeats.

    A docket in running text is usually a cited decision's, so only the case's own
    numbers (rubrum, cue words) and their later mentions count.
    """
    header = header_end(text)
    own: set[str] = set()
    candidates = []
    previous_own_end = None
    for m in DOCKET_RE.finditer(text):
        value = m.group(0)
        start, end = m.span()
        cued = DOCKET_CUE.search(text[max(0, start - 25) : start]) or (
            # `im Verfahren 7 L 676/09, 7 L 677/09 und 7 L 678/09`: a list after a cue
            previous_own_end is not None and LIST_JOIN.fullmatch(text[previous_own_end:start])
        )
        if value.startswith("ECLI:") and start > header:
            continue
        previous_own_end = None
        if (start < header or cued) and not in_citation(text, start, end):
            own.add(value)
            previous_own_end = end
        candidates.append((start, end, value))
    spans = [
        rule_span(s, e, "court-docket", "medium")
        for s, e, value in candidates
        if value in own and not (s >= header and in_citation(text, s, e))
    ]
    return spans + _in_file_names(text, own, spans)


def _in_file_names(text: str, own: set[str], found: list[Span]) -> list[Span]:
    """The case's own dockets inside file names and web addresses of its copy
    (``…/j2008/1_K_592_08urteil2008….``): written with underscores."""
    out = []
    for value in own:
        if value.startswith("ECLI:"):
            continue
        written = re.sub(r"[ /.]", "_", value)
        for m in re.finditer(rf"(?<![\dA-Za-z]){re.escape(written)}(?!\d)", text):
            if not any(s.start < m.end() and m.start() < s.end for s in found + out):
                out.append(rule_span(m.start(), m.end(), "court-docket", "medium"))
    return out
