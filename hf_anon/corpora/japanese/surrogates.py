"""Japanese surrogates: realistic values for Japanese precedents, from Faker ``ja_JP``.

Published Japanese precedents hide names behind ``Ａ``, ``ｂ``, ``甲`` or ``○○`` (seed 004);
replacing each placeholder by a realistic value of its label, the same value for the same
placeholder throughout a document, turns them into training text, as the German
:class:`~hf_anon.corpora.surrogates.Pseudonymizer` does for German decisions. The values
follow ``data/ja/GUIDE.md``: names in kanji (sometimes with a space), companies without
their legal form (the form stays in the text, outside the span), addresses from prefecture
to number, era dates (``令和４年３月１５日``) with full-width digits as courts print them.

Every draw comes from the ``random.Random`` given, so a seed reproduces a corpus.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from hf_anon.corpora.placeholders.shapes import nfkc
from hf_anon.corpora.surrogates.factory import cached_faker
from hf_anon.text.data import Document, Span, check_no_overlap
from hf_anon.text.labels import DEFAULT_LABELS
from hf_anon.text.languages import LEGAL_FORMS_JA

_FULL = str.maketrans("0123456789-", "０１２３４５６７８９－")
_KANJI_DIGITS = "〇一二三四五六七八九"

COURTS_JA = (
    "東京地方裁判所",
    "東京高等裁判所",
    "大阪地方裁判所",
    "大阪高等裁判所",
    "名古屋地方裁判所",
    "横浜地方裁判所",
    "さいたま地方裁判所",
    "千葉地方裁判所",
    "福岡地方裁判所",
    "札幌地方裁判所",
    "仙台高等裁判所",
    "広島地方裁判所",
    "京都地方裁判所",
    "神戸地方裁判所",
    "東京家庭裁判所",
    "大阪家庭裁判所",
    "横浜家庭裁判所",
    "東京簡易裁判所",
    "東京地方裁判所立川支部",
    "静岡地方裁判所浜松支部",
)

CARS_JA = (
    "トヨタ・プリウス",
    "プリウス",
    "ホンダ・フィット",
    "日産・セレナ",
    "スズキ・ワゴンＲ",
    "マツダ・デミオ",
    "ダイハツ・タント",
    "トヨタ・アルファード",
    "軽四輪乗用自動車ダイハツ・ムーヴ",
)

_PLATE_REGIONS = (
    "品川",
    "練馬",
    "足立",
    "横浜",
    "湘南",
    "大阪",
    "なにわ",
    "名古屋",
    "札幌",
    "福岡",
)
_PLATE_KANA = "あいうえかきくけこさすせそたちつてとなにぬねのはひふほまみむめもやゆよらりるれろわ"
_DOCKET_KINDS = ("ワ", "ネ", "わ", "う", "家イ", "家ホ", "行ウ", "ハ", "レ")
_ERAS = (("令和", 2019), ("平成", 1989), ("昭和", 1926))
_SURNAME_KANJI = (
    "田中山川村木本野井藤原松小大高石森池橋岡宮西東北上下内谷島崎浜沢林坂竹菅杉桜梅鈴佐"
    "加清水吉千葉金堀久保長尾三五百目鬼勅使河海我妻早乙女任瀬一忠進菱沼芦刈柘植蛭間鮫"
)
_BUILDINGS = ("メゾン", "コーポ", "ハイツ", "グランドパレス", "サンライズ", "レジデンス", "荘")


def full_width(text: str) -> str:
    """ASCII digits and hyphens as courts print them: ``12-3`` → ``１２－３``."""
    return text.translate(_FULL)


def kanji_number(n: int) -> str:
    """``2`` → ``二``, ``12`` → ``十二`` (chōme are often written so)."""
    if n < 10:
        return _KANJI_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else _KANJI_DIGITS[tens]) + "十" + (_KANJI_DIGITS[ones] if ones else "")


class JapaneseSurrogates:
    """Draws Japanese values from one ``random.Random`` (Faker ``ja_JP`` seeded from it)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self._faker_rng = random.Random(rng.getrandbits(64))

    @property
    def faker(self):
        """The process's one ``ja_JP`` Faker
        (:func:`~hf_anon.corpora.surrogates.factory.cached_faker`), drawing from this
        object's own generator."""
        fake = cached_faker("ja_JP")
        fake.random = self._faker_rng
        return fake

    def digits(self, text: str) -> str:
        """Full-width digits most of the time, as in printed precedents."""
        return full_width(text) if self.rng.random() < 0.8 else text

    # --- persons -----------------------------------------------------------------------
    def surname(self) -> str:
        """Faker's surnames, and a third composed from surname kanji (``百目鬼``,
        ``一ノ瀬``): Faker's list is short, and a model must read the context, not a list."""
        if self.rng.random() < 0.65:
            return self.faker.last_name()
        rng = self.rng
        first, second = rng.choice(_SURNAME_KANJI), rng.choice(_SURNAME_KANJI)
        roll = rng.random()
        if roll < 0.15:
            return f"{first}ノ{second}"
        if roll < 0.35:
            return first + second + rng.choice(_SURNAME_KANJI)
        return first + second

    def given_name(self) -> str:
        return self.faker.first_name()

    def full_name(self, surname: str | None = None) -> str:
        """Surname and given name, written together or with a space (courts do both)."""
        last = surname or self.surname()
        roll = self.rng.random()
        space = " " if roll < 0.3 else ("\u3000" if roll < 0.4 else "")
        return f"{last}{space}{self.given_name()}"

    def foreign_name(self) -> str:
        first = self.rng.choice(("グエン", "マリア", "ジョン", "リー", "キム", "アナ", "ホセ"))
        last = self.rng.choice(
            ("ヴァン・ナム", "サントス", "スミス", "ウェイ", "ミンジュン", "シルバ")
        )
        return f"{first}・{last}"

    # --- organizations -----------------------------------------------------------------
    def company(self) -> tuple[str, str, bool]:
        """``(core, legal form, form first)``: ``株式会社山田商事`` or ``山田商事株式会社``."""
        name = self.faker.company()
        form = next((f for f in LEGAL_FORMS_JA if f in name), "")
        core = name.replace(form, "").strip() if form else name
        if not core or self.rng.random() < 0.3:
            core = self.surname() + self.rng.choice(
                ("商事", "工業", "建設", "運輸", "不動産", "物産", "電機", "食品", "興業", "製作所")
            )
        form = form or "株式会社"
        return core, form, self.rng.random() < 0.6

    def bank(self) -> tuple[str, str]:
        """A bank and a branch: ``(さくら銀行, 新宿支店)``."""
        stem = self.rng.choice(
            ("さくら", "あおば", "東都", "みなと", "中央", "ひかり", "北斗", "瑞穂", "大和", "三葉")
        )
        kind = self.rng.choice(("銀行", "信用金庫", "信用組合"))
        branch = self.faker.town().split(" ")[0] + "支店"
        return stem + kind, branch

    # --- places ------------------------------------------------------------------------
    def town(self) -> str:
        return self.faker.city()

    def address(self) -> str:
        """Prefecture, city, town and number, in one of the courts' formats."""
        f = self.faker
        head = f.prefecture() + f.city() + f.town()
        if self.rng.random() < 0.2:
            head = head.replace(f.prefecture(), "")  # sometimes without prefecture
        return head + self.address_number()

    def address_number(self) -> str:
        """The number part of an address: ``二丁目８番１号``, ``2-8-1``, ``１２３番地``."""
        rng = self.rng
        chome, ban, go = rng.randint(1, 9), rng.randint(1, 40), rng.randint(1, 30)
        style = rng.random()
        if style < 0.35:
            tail = f"{kanji_number(chome)}丁目{self.digits(str(ban))}番{self.digits(str(go))}号"
        elif style < 0.65:
            tail = self.digits(f"{chome}丁目{ban}番{go}号")
        elif style < 0.85:
            tail = self.digits(f"{chome}-{ban}-{go}")
        else:
            tail = self.digits(f"{rng.randint(100, 4000)}番地") + (
                self.digits(f"{rng.randint(1, 30)}") if rng.random() < 0.5 else ""
            )
        return tail

    def room(self) -> str:
        name = self.rng.choice(_BUILDINGS)
        town = self.faker.town().split(" ")[0]
        building = f"{name}{town}" if name != "荘" else f"{town}荘"
        return (
            building + self.digits(f"{self.rng.randint(1, 12)}0{self.rng.randint(1, 9)}") + "号室"
        )

    def postcode(self) -> str:
        return self.digits(self.faker.zipcode())

    # --- identifiers -------------------------------------------------------------------
    def plate(self) -> str:
        rng = self.rng
        number = f"{rng.randint(1, 99)}-{rng.randint(10, 99)}"
        plate = (
            f"{rng.choice(_PLATE_REGIONS)}{rng.randint(300, 599)}{rng.choice(_PLATE_KANA)}{number}"
        )
        if rng.random() < 0.3:
            region, kana = rng.choice(_PLATE_REGIONS), rng.choice(_PLATE_KANA)
            plate = f"{region} {rng.randint(300, 599)} {kana} {number}"
        return self.digits(plate)

    def phone(self) -> str:
        return self.digits(self.faker.phone_number())

    def account(self) -> str:
        return self.digits(str(self.rng.randint(1000000, 9999999)))

    def docket(self, year: int | None = None) -> str:
        year = year or self.rng.randint(1, 6)
        era = "令和" if year <= 7 else "平成"
        kind = self.rng.choice(_DOCKET_KINDS)
        return self.digits(f"{era}{year}年（{kind}）第{self.rng.randint(1, 3999)}号")

    def court(self) -> str:
        return self.rng.choice(COURTS_JA)

    def car(self) -> str:
        return self.rng.choice(CARS_JA)

    # --- dates -------------------------------------------------------------------------
    def date(self, *, time: bool = False, year: int | None = None) -> str:
        """An era date (``令和４年３月１５日``), sometimes with a time."""
        rng = self.rng
        gregorian = year or rng.randint(1995, 2024)
        era, start = next((e, s) for e, s in _ERAS if gregorian >= s)
        n = gregorian - start + 1
        era_year = "元" if n == 1 and rng.random() < 0.5 else str(n)
        text = f"{era}{era_year}年{rng.randint(1, 12)}月{rng.randint(1, 28)}日"
        if time:
            half = rng.choice(("午前", "午後"))
            minute = rng.choice(("", f"{rng.randint(0, 5)}{rng.randint(0, 9)}分", "３０分"))
            text += f"{half}{rng.randint(1, 11)}時{minute}"
        return self.digits(text)

    def birth(self) -> str:
        """A birth expression: ``昭和５５年４月１日生``."""
        return self.date(year=self.rng.randint(1940, 2005)) + "生"

    def age(self) -> str:
        return self.digits(f"{self.rng.randint(16, 88)}歳")

    # --- by label ------------------------------------------------------------------------
    def value(self, label: str) -> str:
        """A value for a span of ``label`` (companies without their legal form)."""
        draw: dict[str, Callable[[], str]] = {
            "nat-name": self.full_name,
            "nat-jur": self.full_name,
            "jur-name": lambda: self.company()[0],
            "jur-idx": lambda: self.bank()[1],
            "address-name": self.address,
            "address-idx": self.room,
            "car-name": self.car,
            "car-idx": self.plate,
            "court-name": self.court,
            "court-docket": self.docket,
            "date-fact": self.date,
            "date-world": self.date,
            "id-number": self.phone,
            "nat-idx": self.birth,
        }
        if label not in draw:
            raise ValueError(f"no Japanese surrogate for label {label!r}")
        return draw[label]()


def _entity_key(label: str, surface: str) -> tuple[str, str]:
    """Equal placeholders of one label are one entity (``Ａ`` and ``A`` too: NFKC)."""
    return label, nfkc(surface).strip()


_MASKED = re.compile(r"[○〇●×＊*]{2,}|（以下略）")


_PLACE_UNIT = re.compile(r"^(?:都|道|府|県|市|区|町|村|郡|駅|警察署)")
_PLACEHOLDER_START = re.compile(r"^[A-Za-zＡ-Ｚａ-ｚ\u0391-\u03c9○〇●×＊*]")


def _value_for(values: JapaneseSurrogates, label: str, surface: str, after: str) -> str:
    """A value that fits where the span stands: a place name alone before ``市``/``町``
    (``Ａ市`` → ``港市``), a town and number for an address placeholder after a visible
    city (``奄美市ａ町ｂ番ｃ号``), the visible part kept before ``（以下略）``, an age for
    ``８７歳``."""
    if label == "address-name":
        if "（以下略）" in surface:
            return surface.replace("（以下略）", "") + values.address_number()
        if _PLACE_UNIT.match(after):
            return values.faker.town().split(" ")[0]
        if _PLACEHOLDER_START.match(surface):
            return values.faker.town().split(" ")[0] + values.address_number()
    if label == "nat-idx" and surface.endswith("歳"):
        return values.age()
    return values.value(label)


def pseudonymize_japanese(
    doc: Document, seed: int = 0, unknown_label: str = "nat-name"
) -> Document:
    """``doc`` with every span replaced by a Japanese surrogate of its label.

    Equal placeholders (``被告人Ａ`` … ``Ａは``) get the same value; a later mention of a
    person whose full name was drawn gets the same full name (courts repeat the letter, so
    the filled text repeats the name). Masks (``○○``, ``＊＊＊``, ``（以下略）``) could
    hide anything, so each gets a value of its own. Spans of the new document lie exactly on
    the surrogates; risk as given, else the label's usual risk.
    """
    rng = random.Random(f"ja\x00{seed}\x00{doc.id}")
    values = JapaneseSurrogates(rng)
    spans = sorted(doc.spans)
    check_no_overlap(spans, doc.id)
    seen: dict[tuple[str, str], str] = {}
    pieces: list[str] = []
    out: list[Span] = []
    cursor = length = 0
    for span in spans:
        label = unknown_label if span.label == "unknown" else span.label
        surface = doc.text[span.start : span.end]
        key = _entity_key(label, surface)
        if _MASKED.search(surface) or key not in seen:
            value = _value_for(values, label, surface, doc.text[span.end : span.end + 2])
            seen[key] = value
        value = seen[key]
        gap = doc.text[cursor : span.start]
        pieces += (gap, value)
        start = length + len(gap)
        length = start + len(value)
        out.append(Span(start, length, label, span.risk or DEFAULT_LABELS[label].risk))
        cursor = span.end
    pieces.append(doc.text[cursor:])
    return Document(doc.id, "".join(pieces), out, doc.domain, dict(doc.meta))
