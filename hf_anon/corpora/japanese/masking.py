"""A Japanese court's published version of an annotated precedent: its spans masked.

Why: a placeholder tagger that sees only the placeholders the keyed courts left learns
their shapes; the next court's (``被害者④``, ``乙湖``) stays new to it. The exhaustively
annotated training precedents (``data/ja/real/train.jsonl``) know every span and its label;
masking them the way some Japanese court would (``Ａ``, ``Ａ１``, ``甲``, ``Ⓐ``, ``④``, ``○○``,
``ａ県ｂ市``, ``Ａ銀行``, ``平成○年○月○日``, ``＊＊＊＊``) gives published texts whose
placeholders are known exactly, *with the label each one hides*, in real sentences. It is the
Japanese counterpart of :mod:`hf_anon.corpora.placeholders.masking`.

A precedent is masked in one convention (a name shape from
:data:`~hf_anon.corpora.japanese.placeholder_shapes.JAPANESE_SHAPES`, one mask character
for digits), each label with its own chance; one entity keeps one stand-in across the
precedent, letters go by order of appearance (``Ａ``, ``Ｂ``, ``Ｃ`` as courts write them), and
a generic word at the end of an organisation or a place stays in clear inside the
placeholder (``Ａ銀行``, ``ｂ市``), as ``data/ja/GUIDE.md`` draws the placeholder spans.
Offsets are characters of the returned text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from hf_anon.corpora.japanese.placeholder_shapes import (
    JAPANESE_SHAPES,
    LETTERS,
    render_japanese_shape,
)
from hf_anon.corpora.placeholders.masking import mask_spans
from hf_anon.text.data import Span

#: Chance that a span of each label is masked in a precedent. Japanese courts mask private
#: persons nearly always, places and organisations often, their own dates and courts seldom.
MASK_CHANCE = {
    "nat-name": 0.97,
    "nat-idx": 0.4,
    "nat-jur": 0.1,
    "jur-name": 0.75,
    "jur-idx": 0.6,
    "address-name": 0.85,
    "address-idx": 0.8,
    "car-name": 0.3,
    "car-idx": 0.9,
    "court-name": 0.03,
    "court-docket": 0.15,
    "date-fact": 0.2,
    "date-world": 0.02,
    "id-number": 0.85,
}

#: Generic words that stay in clear after an organisation's stand-in (``Ａ銀行``, ``Ｑ組``).
_ORGANISATION_WORDS = re.compile(
    r"(?:銀行|信用金庫|病院|医院|クリニック|保育所|保育園|幼稚園|小学校|中学校|高等学校|高校|大学"
    r"|学園|組合|協会|連合会|組|会|商事|商店|工業|建設|産業|不動産|運輸|交通|ホーム|センター"
    r"|事務所|寺|神社|教会|家|店|工場|支店|営業所)$"
)
#: A unit of a Japanese address or place: its name and the word that says what it is.
_PLACE_UNIT = re.compile(r"(?P<name>[^都道府県市区町村郡]+?)(?P<kind>都|道|府|県|市|区|町|村|郡)")
#: Places named by what they are (``ｆ地区``, ``乙湖``, ``α駅``).
_PLACE_WORDS = re.compile(r"(?:地区|地域|団地|駅|港|湾|島|川|湖|山|橋|公園|交差点|字)$")
#: The name of a district before its numbers (``西新宿`` of ``西新宿二丁目８番１号``).
_STREET_NAME = re.compile(
    r"[^0-9０-９〇一二三四五六七八九十丁番号の\-－ー（）\s]+(?=[0-9０-９〇一二三四五六七八九十])"
)
_DIGITS = re.compile(r"[0-9０-９〇一二三四五六七八九十]")
_MASK_CHARACTERS = "○＊×●"
_LOWER = "ａｂｃｄｅｆｇｈｉｊｋｍｎｐｑｒｓｔｕｖｗｘｙｚ"
_OMITTED = ("（省略）", "（略）", "○○", "＊＊＊")


@dataclass
class JapaneseConvention:
    """One court's way of masking: the shape of names, the character digits become."""

    name_shape: str
    place_letters: str = "lower"  # "lower" (ａ県ｂ市), "same" (the name shape), "omit" (以下略)
    digit_mask: str = "○"
    seed: int = 0
    _assigned: dict[tuple[str, str], int] = field(default_factory=dict, repr=False)

    @classmethod
    def sample(cls, rng: random.Random) -> JapaneseConvention:
        return cls(
            name_shape=rng.choice(JAPANESE_SHAPES),
            place_letters=rng.choice(("lower", "lower", "same", "omit")),
            digit_mask=rng.choice(_MASK_CHARACTERS),
            seed=rng.randrange(1 << 30),
        )

    def index_for(self, family: str, surface: str) -> int:
        """One entity, one letter: ``Ａ`` for the first person or company, ``Ｂ`` for the
        second (``family`` keeps places' letters apart: ``ａ県ｂ市``)."""
        key = (family, surface.replace("\n", "").replace(" ", "").replace("\u3000", ""))
        if key not in self._assigned:
            self._assigned[key] = sum(1 for f, _ in self._assigned if f == family)
        return self._assigned[key]

    def stand_in(self, family: str, surface: str) -> str:
        """The stand-in of an entity in the convention's name shape, the same at every
        mention (drawn from the entity, not the mention)."""
        index = self.index_for(family, surface)
        rng = random.Random(f"{self.seed}:{family}:{index}")
        letter = LETTERS[index % len(LETTERS)]
        return render_japanese_shape(letter, self.name_shape, rng)


def _masked_digits(surface: str, convention: JapaneseConvention) -> str:
    """Numbers of a date, a docket or an identifier masked digit by digit, kanji numerals
    too (``平成○年○月○日``, ``＊＊＊＊``); the units and punctuation stay."""
    return _DIGITS.sub(convention.digit_mask, surface)


def _place(surface: str, convention: JapaneseConvention) -> str:
    """``ａ県ｂ市ｃ町`` (each unit its own lower letter), the first unit kept and the rest
    omitted (``東京都（以下略）``), or the stand-in with the place's kind (``α駅``)."""
    units = list(_PLACE_UNIT.finditer(surface))
    if units and convention.place_letters == "omit" and len(units) > 1:
        return surface[: units[0].end()] + "（以下略）"
    if units:
        out = []
        for unit in units:
            if convention.place_letters == "lower":
                index = convention.index_for("place", unit.group("name"))
                out.append(_LOWER[index % len(_LOWER)] + unit.group("kind"))
            else:
                out.append(convention.stand_in("place", unit.group("name")) + unit.group("kind"))
        rest = surface[units[-1].end() :]
        street = _STREET_NAME.match(rest)  # 西新宿二丁目 → ｃ○丁目
        if street:
            index = convention.index_for("place", street.group())
            rest = _LOWER[index % len(_LOWER)] + rest[street.end() :]
        return "".join(out) + _masked_digits(rest, convention)
    kind = _PLACE_WORDS.search(surface)
    head = surface[: kind.start()] if kind and kind.start() > 0 else surface
    return convention.stand_in("place", head) + (kind.group() if kind and kind.start() else "")


def mask_japanese_surface(
    surface: str, label: str, convention: JapaneseConvention, rng: random.Random
) -> str:
    """The stand-in a court of ``convention`` writes for ``surface`` of ``label``."""
    if label in ("nat-name", "nat-jur", "car-name"):
        return convention.stand_in("entity", surface)
    if label in ("jur-name", "jur-idx"):  # persons and companies share one run of letters
        word = _ORGANISATION_WORDS.search(surface)
        if word and word.start() > 0:
            return convention.stand_in("entity", surface[: word.start()]) + word.group()
        return convention.stand_in("entity", surface)
    if label == "address-name":
        return _place(surface, convention)
    if _DIGITS.search(surface):
        return _masked_digits(surface, convention)
    return rng.choice(_OMITTED)


def mask_japanese_precedent(
    text: str,
    spans: Sequence[Span],
    rng: random.Random,
    convention: JapaneseConvention | None = None,
    chance: dict[str, float] | None = None,
) -> tuple[str, list[Span]]:
    """``text`` as a court of ``convention`` (None: a random one) would publish it: each
    span masked with its label's chance (:data:`MASK_CHANCE`), the rest in clear, by the
    loop every language shares (:func:`hf_anon.corpora.placeholders.masking.mask_spans`).
    Returns the published text and its placeholders, labelled with what they hide."""
    convention = convention or JapaneseConvention.sample(rng)
    chance = {**MASK_CHANCE, **(chance or {})}
    return mask_spans(
        text, spans, rng, chance,
        lambda surface, label: mask_japanese_surface(surface, label, convention, rng),
    )  # fmt: skip


__all__ = [
    "MASK_CHANCE",
    "JapaneseConvention",
    "mask_japanese_precedent",
    "mask_japanese_surface",
]
