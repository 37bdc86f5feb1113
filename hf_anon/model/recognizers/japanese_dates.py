"""Dates in Japanese decisions, absolute and relative, as the guide marks them.

Japanese decisions date the facts with era years (``令和４年３月１５日``, ``平成元年``) and,
once a date is named, relatively: ``同年８月１４日``, ``同月４日``, ``同日午前３時２６分``,
``同３１年３月３１日``. The model, trained on silver labels that had no relative dates,
misses most of the relative ones. These are a closed grammar, so a rule finds them:

- an era or four-digit year, a month and a day, optionally a time (``午後２時３０分``);
- ``同年``/``同Ｎ年`` with a month, ``同月`` with a day, ``同日`` with a time: a relative
  date is a span only where it adds a month, a day or a time (``data/ja/GUIDE.md``:
  ``同日`` alone is not);
- not a law's year (``平成２０年法律第８９号``) nor a docket (``令和３年（わ）第１２号``).

``上旬``/``中旬``/``下旬`` belong to the date; ``頃``/``ころ`` and particles stay outside.
Label ``date-fact``: dates of earlier proceedings (``date-world``) are told apart by the
model, which decides the label where both find a date
(:func:`~hf_anon.model.recognizers.merge.merge_with_rules`).
"""

from __future__ import annotations

import re

from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS

_N = "[0-9０-９]{1,4}"
_ERA = "(?:令和|平成|昭和|大正)"
_TIME = f"(?:(?:午前|午後){_N}時|{_N}時)(?:{_N}分)?(?:{_N}秒)?"
_PART_OF_MONTH = "(?:上旬|中旬|下旬|初旬)"
_ABSOLUTE = (
    f"(?:{_ERA}(?:元|{_N})年|[0-9０-９]{{4}}年)(?:{_N}月(?:{_N}日|{_PART_OF_MONTH})?)?(?:{_TIME})?"
)
_RELATIVE = (
    f"同(?:{_N})?年{_N}月(?:{_N}日|{_PART_OF_MONTH})?(?:{_TIME})?"  # 同年８月１４日
    f"|同月{_N}日(?:{_TIME})?"  # 同月４日
    f"|同日{_TIME}"  # 同日午前３時２６分
)
JAPANESE_DATE_RE = re.compile(f"{_RELATIVE}|{_ABSOLUTE}")
#: What makes an era year part of a citation or a docket, not a date.
_NOT_A_DATE_AFTER = re.compile(r"^(?:法律|政令|条例|規則|告示|省令|府令|訓令|（|\()")


#: A line break the PDF put inside a date (``同年７\n月３０日``): between two characters
#: that can both belong to a date.
_DATE_CHARS = "0-9０-９年月日時分秒同元午前後上中下初旬"
_BROKEN = re.compile(f"(?<=[{_DATE_CHARS}])\n(?=[{_DATE_CHARS}])")


def _joined(text: str) -> tuple[str, list[int]]:
    """``text`` without the line breaks inside dates, and the original offset of each of
    its characters (the spans found on it are mapped back, the break inside)."""
    keep = [i for i in range(len(text)) if not (text[i] == "\n" and _BROKEN.match(text, i))]
    return "".join(text[i] for i in keep), keep


def find_japanese_dates(text: str) -> list[Span]:
    """``date-fact`` spans of the dates of Japanese text (see the module docs); a date of
    birth (``昭和６２年８月１９日生``) is ``nat-idx``, as the guide marks it. A date broken
    by a line end (``同年７\n月３０日``, PDF text) is one span over the break."""
    view, index = _joined(text)
    spans = []
    for match in JAPANESE_DATE_RE.finditer(view):
        found = match.group(0)
        if found.endswith("年") and not found.startswith("同"):
            if _NOT_A_DATE_AFTER.match(view[match.end() : match.end() + 3]):
                continue
            if not re.search("[月日時]", found) and "元" not in found:
                continue  # a year alone is rarely a date of the facts
        label = "nat-idx" if view[match.end() : match.end() + 1] == "生" else "date-fact"
        start, end = index[match.start()], index[match.end() - 1] + 1
        spans.append(Span(start, end, label, DEFAULT_LABELS[label].risk, 1.0))
    return spans
