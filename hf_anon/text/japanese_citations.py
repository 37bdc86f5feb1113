"""Dates, dockets and courts of statutes and cited precedents are no spans in Japanese text.

Rule 7 of the Japanese annotation guide (``data/ja/gold/annotation/GUIDE.md``): the year of
a statute's number (``平成２５年法律第８６号``), the dates a statute was promulgated, came
into force or was amended (``平成２５年５月３１日に公布``), and the date, docket and court of
a cited decision of another case (``最高裁昭和４３年１０月２５日第二小法廷判決・刑集２２巻…``)
identify no one. A model that learned dates and dockets marks them all the same, and the
date grammar (``ja-dates``) finds them too; this is the Japanese counterpart of the German
citation filter (:func:`hf_anon.model.recognizers.drop_cited`).

What tells a cited decision from the case's own earlier instance (``最高裁判所（差戻前上告審）
は，平成２８年３月２４日``, a span) is the law report it is cited from (``民集``, ``刑集``,
``判時`` …) or a name given to it (``平成２９年最決``): the filter drops only spans inside
such a citation, so an earlier instance named in prose keeps its spans.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hf_anon.text.data import Span

_N = r"[0-9０-９〇一二三四五六七八九十百元]+"
_GAP = r"[ \u3000\n]*"  # the PDF's line breaks and spaces fall anywhere
#: Labels a statute or a citation can carry wrongly
CITED_LABELS = frozenset({"date-fact", "date-world", "court-docket", "court-name"})
#: The number of a statute, an ordinance or a rule: ``平成３年法律第７７号``,
#: ``昭和５９⏎年政令第８６号``
_STATUTE_NUMBER = re.compile(
    rf"(?:明治|大正|昭和|平成|令和)?{_GAP}(?:{_N}{_GAP})+年{_GAP}"
    rf"(?:法律|政令|勅令|[^\s、，。（）()]{{0,8}}?(?:府令|省令)|条例|規則){_GAP}第{_GAP}{_N}{_GAP}号"
)
#: What follows a statute's date: ``に公布``, ``，施行``, ``の改正``
_STATUTE_EVENT = re.compile(rf"^{_GAP}[にの，、,]?{_GAP}(?:公布|施行|改正)")
#: Law reports and databases a decision is cited from
_REPORT = re.compile(
    r"(?:民集|刑集|集民|集刑|裁判集|裁集|高民集|高刑集|下民集|下刑集|行集|行裁例集|訟月|"
    r"判時|判タ|判例時報|判例タイムズ|労判|労民集|金判|金法|家月|家裁月報|刑月|裁時|"
    r"LEX/DB|ＬＥＸ／ＤＢ|裁判所ウェブサイト|裁判所ＨＰ)"
)
#: A decision named by its year and court: ``平成２９年最決``, ``昭和６２年最大判``
_NAMED = re.compile(rf"^{_GAP}(?:最大?[判決]|大[判決])")
_OPEN, _CLOSE = "（(〔［[", "）)〕］]"


def _citation_start(text: str, report: int) -> int:
    """Where the citation that ends in a law report at ``report`` begins: the last unclosed
    bracket before it (``（最高裁…判決・刑集…）``), else the last ``，``, ``、`` or ``。``,
    at most 80 characters back."""
    depth, floor = 0, max(0, report - 80)
    for i in range(report - 1, floor - 1, -1):
        char = text[i]
        if char in _CLOSE:
            depth += 1
        elif char in _OPEN:
            if depth == 0:
                return i + 1
            depth -= 1
        elif depth == 0 and char in "，、,。":
            return i + 1
    return floor


def cited_regions(text: str) -> list[tuple[int, int]]:
    """Character ranges of statute numbers and cited decisions in ``text``."""
    regions = [(m.start(), m.end()) for m in _STATUTE_NUMBER.finditer(text)]
    for m in _REPORT.finditer(text):
        regions.append((_citation_start(text, m.start()), m.end()))
    return regions


def _statute_date(text: str, span: Span) -> bool:
    after = text[span.end : span.end + 6]
    return span.label.startswith("date-") and bool(_STATUTE_EVENT.match(after))


def _named_decision(text: str, span: Span) -> bool:
    return span.label.startswith("date-") and bool(_NAMED.match(text[span.end : span.end + 5]))


def drop_cited_japanese(text: str, spans: Sequence[Span]) -> list[Span]:
    """``spans`` without the dates, dockets and courts that stand inside a statute's number,
    date a statute's promulgation, entry into force or amendment, or belong to a cited
    decision (see the module doc). Other labels pass unchanged."""
    if not any(s.label in CITED_LABELS for s in spans):
        return list(spans)
    regions = cited_regions(text)

    def inside(span: Span) -> bool:
        return any(start <= span.start and span.end <= end for start, end in regions)

    return [
        s
        for s in spans
        if s.label not in CITED_LABELS
        or not (inside(s) or _statute_date(text, s) or _named_decision(text, s))
    ]
