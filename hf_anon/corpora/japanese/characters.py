"""The characters a Japanese court writes for what it removed, as regular-expression classes.

Why one module: the rules that find placeholders (:mod:`hf_anon.corpora.japanese.placeholders`)
and the test of what a stand-in can be (:mod:`hf_anon.corpora.japanese.placeholder_shapes`)
must agree on what a letter, a mask or a digit is; a mark added to one and not the other
would be found by the rules and refused by the tagger's filter, or the reverse.
"""

from __future__ import annotations

#: Latin letters of either width and case (``A``, ``Ａ``, ``ａ``)
LATIN = "A-Za-zＡ-Ｚａ-ｚ"
#: Greek letters (``α``, ``Β``)
GREEK = "\u0391-\u03a9\u03b1-\u03c9"
#: Circled letters and numbers (``Ⓐ``, ``ⓑ``, ``④``)
CIRCLED = "ⓐ-ⓩⒶ-Ⓩ①-⑳"
#: Digits of either width
DIGIT = "0-9０-９"
#: Marks a court writes in a removed name, number or date (``○○``, ``＊＊＊``, ``▲``)
MASK = "○〇●◯×✕＊*■△▲"
#: Kanji (with the repetition mark)
KANJI = "\u3400-\u4dbf\u4e00-\u9fff々"
#: The stems courts name parties with (``甲``, ``乙``, ``丙``)
STEMS = "甲乙丙丁戊己庚辛壬癸"

__all__ = ["CIRCLED", "DIGIT", "GREEK", "KANJI", "LATIN", "MASK", "STEMS"]
