"""A court's omissions in Japanese precedents: ``（住所省略）``, ``岐阜市（以下略）``,
``（生年月日略）``: what it left out of an address, a name or a number, and the label of
what it left out (a module of :mod:`hf_anon.corpora.japanese.placeholders`)."""

from __future__ import annotations

import re

from hf_anon.corpora.japanese.placeholder_labels import mask_label

# "（以下略）", "（住所省略）", "（以下住所省略）", "（登録番号省略）", "岐阜市（省略）", also in
# angle brackets ("東京都港区〈以下略〉", "名古屋市＜以下略＞"): what
# the court left out of an address, a name or a number (read with line ends removed); not
# what it left out of its own text ("（略）" for the evidence, "（中略）", "（添付省略）")
RE_OMITTED = re.compile(r"[（(〈＜<][^（）()〈〉＜＞<>、。]{1,14}?[）)〉＞>]")
#: What an omission may say it left out: a part of an address (the span starts back at the
#: address, ``岐阜市（省略）``), or a value of its own (the bracket alone, ``（登録番号省略）``)
OMITTED_ADDRESS = ("住所", "番地", "所在地", "地番")
OMITTED_VALUE = ("登録番号", "車両番号", "氏名", "名称", "電話番号", "生年月日", "ナンバー")
#: ``（住所省略）``, and a value's omission in short, ``（生年月日略）``, ``（ナンバー略）``
OMITTED_INNER = re.compile(
    r"以下略|(?:以下)?(?:" + "|".join(OMITTED_ADDRESS + OMITTED_VALUE) + ")?省略"
    r"|(?:" + "|".join(OMITTED_VALUE) + ")略"
)
ADDRESS_UNIT_CHARS = frozenset("都道府県市区町村郡")


def is_omission(text: str, m: re.Match) -> bool:
    """Whether the bracket ``m`` is a court's omission of a value (not of its own text)."""
    inner = m.group()[1:-1].replace("\n", "")
    if not OMITTED_INNER.fullmatch(inner):
        return False
    return inner != "省略" or text[m.start() - 1 : m.start()] in ADDRESS_UNIT_CHARS


def omitted_label(text: str, m: re.Match) -> str:
    """The label of a value's omission: what it says it left out, else its context."""
    if "生年月日" in m.group():
        return "nat-idx"
    if "ナンバー" in m.group() or "車両番号" in m.group():
        return "car-idx"
    return mask_label(text, m.start(), m.end())
