"""Japanese placeholders written in other courts' conventions, and what a stand-in can be.

Why: a learned placeholder tagger (:mod:`hf_anon.model.placeholder_tagger`) trained on the
placeholders of the keyed precedents as published would learn the shapes those courts use
(``Ａ``, ``Ａ１``, ``甲``) and stay blind to the next court's (``被害者④``, ``乙湖``,
``Ⓑ``, ``○○``). Re-rendering each keyed placeholder in a shape drawn from every convention
seen in Japanese precedents (seed 004 and the keys) makes the context, not the shape, what
tells a removed reference apart. A suffix the court kept (``Ａ病院``, ``ａ市``, ``甲川家``)
stays, so that the place or organisation still reads as one.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from hf_anon.corpora.japanese.characters import CIRCLED, DIGIT, GREEK, LATIN, MASK, STEMS
from hf_anon.text.data import Span, rewrite_spans

#: Conventions a Japanese court writes a removed name, place or number in.
JAPANESE_SHAPES = (
    "fullwidth",  # Ａ
    "halfwidth",  # A
    "lower",  # ａ
    "numbered",  # Ａ１
    "stem",  # 甲 乙 丙
    "circled-letter",  # Ⓐ
    "circled-number",  # ④
    "katakana",  # ア
    "greek",  # α
    "mask",  # ○○ ×× ＊＊＊ ●● ■■
    "bracketed",  # 【Ａ】
)

#: The full-width letters a court names parties with, in the order it gives them (no ``Ｏ``)
LETTERS = "ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＰＱＲＳＴＵＶＷＸＹＺ"
_STEMS = "甲乙丙丁戊己庚辛"
_CIRCLED_LETTERS = "ⒶⒷⒸⒹⒺⒻⒼⒽⒾⒿⓀⓁⓂⓃⓅⓇⓈⓉ"
_CIRCLED_NUMBERS = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮"
_KATAKANA = "アイウエオカキクケコサシスセ"
_GREEK = "αβγδεζηθ"
_MASKS = ("○○", "〇〇", "××", "＊＊＊", "●●", "■■", "△△", "○○○")
_FULL_DIGITS = "１２３４５６７８９"

# The stand-in at the head of a keyed placeholder: letters (either width, either case,
# Greek), party stems, circled marks, one katakana letter, mask runs, a number after them.
_CORE = re.compile(
    rf"^(?:【)?(?:[{LATIN}{GREEK}{CIRCLED}{STEMS}]|[{MASK}]+)(?:[{DIGIT}]{{1,3}})?(?:】)?"
)
# Marks a court writes for what it removed; a span without any of them stands in clear.
_STAND_IN = re.compile(
    rf"[{LATIN}{GREEK}{CIRCLED}{MASK}・…]|[{STEMS}]|省略|略"
    r"|^[ァ-ヺ](?![ァ-ヺー])"  # one katakana letter before a noun: エ寺院, ウ派
)


def _letter(surface: str, rng: random.Random) -> int:
    """An index into the letter tables, taken from the placeholder where it has a letter
    (so that ``Ａ`` and ``Ａ病院`` of one decision keep one letter in each rendering)."""
    for ch in surface:
        for table in (
            LETTERS,
            "ABCDEFGHIJKLMNPQRSTUVWXYZ",
            "ａｂｃｄｅｆｇｈｉｊｋｌｍｎｐｑｒｓｔ",
        ):
            if ch in table:
                return table.index(ch)
    return rng.randrange(8)


def render_japanese_shape(surface: str, shape: str, rng: random.Random) -> str:
    """The stand-in ``surface`` written in ``shape`` (one of :data:`JAPANESE_SHAPES`)."""
    i = _letter(surface, rng)
    if shape == "fullwidth":
        return LETTERS[i % len(LETTERS)]
    if shape == "halfwidth":
        return "ABCDEFGHIJKLMNPQRSTUVWXYZ"[i % 25]
    if shape == "lower":
        return "ａｂｃｄｅｆｇｈｉｊｋｌｍｎｐｑｒｓｔ"[i % 19]
    if shape == "numbered":
        return LETTERS[i % len(LETTERS)] + rng.choice(_FULL_DIGITS) * rng.choice((1, 1, 2))
    if shape == "stem":
        return _STEMS[i % len(_STEMS)]
    if shape == "circled-letter":
        return _CIRCLED_LETTERS[i % len(_CIRCLED_LETTERS)]
    if shape == "circled-number":
        return _CIRCLED_NUMBERS[i % len(_CIRCLED_NUMBERS)]
    if shape == "katakana":
        return _KATAKANA[i % len(_KATAKANA)]
    if shape == "greek":
        return _GREEK[i % len(_GREEK)]
    if shape == "mask":
        return rng.choice(_MASKS)
    if shape == "bracketed":
        return f"【{LETTERS[i % len(LETTERS)]}】"
    raise ValueError(f"unknown shape {shape!r}; expected one of {JAPANESE_SHAPES}")


def rerender_japanese(
    text: str, spans: Sequence[Span], rng: random.Random, keep: float = 0.3
) -> tuple[str, list[Span]]:
    """The text with each placeholder's stand-in re-rendered in a random convention (kept
    with probability ``keep``; one whose head is no stand-in, ``（省略）``, ``北海道・・・``,
    stays as it is); the suffix after the stand-in (``病院``, ``市``) stays, spans move."""

    def new_surface(surface: str) -> str:
        core = _CORE.match(surface)
        if not core or rng.random() < keep or "\n" in surface:
            return surface
        shape = rng.choice(JAPANESE_SHAPES)
        return render_japanese_shape(core.group(), shape, rng) + surface[core.end() :]

    return rewrite_spans(text, spans, new_surface)


def could_be_japanese_stand_in(surface: str) -> bool:
    """Whether a Japanese court could have written ``surface`` for what it removed: it holds
    a letter, a party stem, a circled mark, a mask or an omission note. A tagger that reads
    context alone also proposes what stands in clear in a stand-in's place (``東京都``,
    ``山田``); this is the test such a span fails."""
    return bool(_STAND_IN.search(surface))


__all__ = [
    "JAPANESE_SHAPES",
    "LETTERS",
    "could_be_japanese_stand_in",
    "render_japanese_shape",
    "rerender_japanese",
]
