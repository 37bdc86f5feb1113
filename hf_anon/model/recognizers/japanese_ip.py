"""The numbers of a Japanese intellectual-property case: the parties' patents, registrations
and applications, and the Patent Office's appeal numbers.

A patent (``特許第４９７４９７１号``) or an application (``商願２０２１－１０２６２６号``) leads
in one search of the public register to its owner, a party the court may have masked, so
the annotators mark it ``id-number`` high; the Office's appeal (``不服２０２２－１３７９５号``)
is this case's earlier instance, ``court-docket`` medium (``data/ja/real/annotation/notes/
new39-q1.md``). A model of a few hundred precedents, sixteen of them IP cases, misses most of
them (8 of 15 in the IP cases of ``reports/ja_gold/session39_ip_ids.txt``), while their form is
fixed by the Office. Prior art is left alone: publications (``特開``, ``特表``,
``国際公開``) are not matched, nor a patent's gazette (``特許第…号公報``), which the guides
treat as a cited document. PDF line ends inside a number are read through.
"""

from __future__ import annotations

import re

from hf_anon.model.recognizers.base import rule_span
from hf_anon.text.data import Span
from hf_anon.text.views import without_line_ends

_N = "[0-9０-９]"
_DASH = "[－\\-‐―ー−]"
_ERA = "(?:昭和|平成|令和|昭|平)?"
#: A granted right: patent, trademark, design, utility model
_REGISTER = re.compile(rf"(?:特許|商標登録|意匠登録|実用新案登録)第{_N}+号(?!公報)")
#: An application: patent, trademark, design, utility model
_APPLICATION = re.compile(rf"(?:特願|商願|意願|実願){_ERA}{_N}+{_DASH}{_N}+号?")
#: The Patent Office's appeal and trial numbers
_APPEAL = re.compile(rf"(?:不服|無効|取消|訂正|異議){_N}{{4}}{_DASH}{_N}+号")


def find_japanese_ip_numbers(text: str) -> list[Span]:
    """``id-number`` spans of patents, registrations and applications, ``court-docket``
    spans of the Patent Office's appeals (see the module docs)."""
    view, index = without_line_ends(text)
    spans = []
    for pattern, label, risk in (
        (_REGISTER, "id-number", "high"),
        (_APPLICATION, "id-number", "high"),
        (_APPEAL, "court-docket", "medium"),
    ):
        for match in pattern.finditer(view):
            start, end = index[match.start()], index[match.end() - 1] + 1
            spans.append(rule_span(start, end, label, risk))
    return sorted(spans)
