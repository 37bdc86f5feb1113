"""Placeholders of published Japanese precedents (seed 004, issue #17).

Japanese courts replace names by single letters, half or full width and either case
(``A``, ``Ａ``, ``ｂ``), sometimes Greek letters (``γ``, ``β``) or ``甲``/``乙``/``丙``/``丁``,
pseudonyms like ``甲野太郎``, and by marks: ``○○``, ``××``, ``＊＊＊``, ``（以下略）``,
masked dates (``平成○年○月○日``), numbers (``０９０－＊＊＊＊－＊＊＊＊``) and plates
(``ａａ５００あ＊＊＊＊``). Text has no spaces, so the German method (whitespace
elements and their neighbours) does not apply: this module scans characters.

A single letter is a placeholder unless it belongs to a Latin word or number (``ＤＮＡ``,
``Ａ４``), its context makes it a blood type, a ray, a size, a shirt (``Ａ型``, ``Ｘ線``,
``Ｔシャツ``), an evidence number (``甲Ａ第３号証``), an outline mark (``（ａ）``, ``ａ　``
at a line start) or a figure reference (``別紙Ａ``, ``地点Ａ``). ``甲`` and friends are
placeholders where they stand alone (``被告人甲``, ``甲は``, ``甲社``), not in words
(``甲状腺``, ``装甲``) nor in evidence numbers (``甲第１号証``, ``甲１``, ``乙イ２３``).
A PDF's line end is read through: ``Ｄ\nＮＡ`` is a word, ``被\n告Ｂ８`` a role word,
``（住所\n省略）`` an omission. Numbered parties (``原告Ａ１``) make every ``Ａ１`` of the
decision a placeholder. Labels come from the words around
(:mod:`hf_anon.corpora.japanese.placeholder_labels`), and a letter keeps one label through
a decision (:func:`one_label_per_letter`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from hf_anon.corpora.japanese.characters import DIGIT, GREEK, KANJI, LATIN, MASK
from hf_anon.corpora.japanese.omissions import (
    OMITTED_VALUE,
    RE_OMITTED,
    is_omission,
    omitted_label,
)
from hf_anon.corpora.japanese.placeholder_labels import (
    JUR_AFTER,
    JUR_IDX_AFTER,
    LEGAL_FORMS,
    LEGAL_ROLE_WORDS,
    ROLE_WORDS,
    UNKNOWN,
    mask_label,
    placeholder_label,
)
from hf_anon.text.data import Span

# A letter (Latin or Greek) that is not part of a Latin word: "Ａ", "ｂ", "γ".
RE_LETTER = re.compile(rf"(?<![{LATIN}{GREEK}{DIGIT}＿_@.:/])[{LATIN}{GREEK}](?![{LATIN}{GREEK}@])")
# Party letters 甲乙丙丁 and court pseudonyms of the form 甲野太郎, 乙山花子.
_GIVEN = (
    "太郎|次郎|二郎|三郎|四郎|一郎|花子|春子|夏子|秋子|冬子|松子|梅子|竹子"
    "|一夫|和夫|良子|明子|正|誠"
)
RE_PSEUDONYM = re.compile(rf"[甲乙丙丁戊][野山川田村原島沢井本谷口岡][ 　]?(?:{_GIVEN})?")
RE_PARTY = re.compile(r"[甲乙丙丁戊]")
#: Organisations a decision names by party letters, numbered or not, alone or in a chain
#: (``甲会``, ``乙組``, ``甲１會``, ``甲１連合甲２一家``): one ``jur-name`` each chain. Not
#: ``甲会社`` or ``乙会議``, words that go on.
_ORG = rf"[甲乙丙丁戊][{DIGIT}]*(?:會|会|組|連合|一家)(?![社議員計場長合館])"
RE_PARTY_ORG = re.compile(rf"{_ORG}(?:{_ORG})*")
# Masked values: dates, phone and account numbers, plates, runs of marks.
#: A date with a masked part: ``平成▲年▲月▲日``, ``昭和●●年●●月``, and relative to the year
#: or month named before (``同年▲月▲日``, ``同月▲日``); not the zero of a kanji numeral
#: (``一〇月``). A date without a mask is no placeholder (checked where it is matched).
RE_MASKED_DATE = re.compile(
    rf"(?:(?:昭和|平成|令和|大正)?[{MASK}{DIGIT}元]+年(?:[{MASK}{DIGIT}]+月)?"
    rf"|(?<![一二三四五六七八九十〇])(?:同年|翌年)?[{MASK}{DIGIT}]+月|同月|翌月)"
    rf"(?:[{MASK}{DIGIT}]+日)?"
    rf"(?:(?:午前|午後)?[{MASK}{DIGIT}]+時(?:[{MASK}{DIGIT}]+分)?)?"
)
RE_MASKED_NUMBER = re.compile(
    rf"[{DIGIT}{MASK}]{{2,5}}[-－ー‐][{DIGIT}{MASK}]{{2,4}}[-－ー‐][{DIGIT}{MASK}]{{3,4}}"
)
RE_MASKED_PLATE = re.compile(
    rf"(?:[{LATIN}]{{1,3}}|[{KANJI}]{{1,4}})[ 　]?[{DIGIT}{MASK}]{{2,3}}[ 　]?[ぁ-ん][ 　]?"
    rf"[{DIGIT}{MASK}][{DIGIT}{MASK}－\-]{{1,4}}"
)
RE_MASK_RUN = re.compile(rf"[{MASK}]{{2,}}")
#: A kanji numeral: ``一五〇〇万円``, ``八万八○○○株`` write zeros with the same circles
#: that mask a name elsewhere
KANJI_DIGITS = frozenset("一二三四五六七八九十百千万")
# The next unit of a masked address: "○○県" + "市○○" …
RE_MASK_UNIT = re.compile(rf"(?:都|道|府|県|市|区|町|村|郡|丁目|番地|番|号)[{MASK}]{{2,}}")
RE_PARTY_NUMBER = re.compile(
    rf"[{DIGIT}](?:[{DIGIT}]|\n[{DIGIT}](?![{DIGIT}．. 　]))?(?![{DIGIT}])"
)
# Letters run together before an address unit: "大字ｂｃ番地" (two placeholders, one span).
RE_ADDRESS_LETTERS = re.compile(
    rf"(?<![{LATIN}])[ａ-ｚa-z]{{2,3}}(?=番地|番|号|丁目|町|村|市|区|郡|字)"
)
# One mark between address units: "広島市●区".
RE_MASK_IN_ADDRESS = re.compile(rf"(?<=[都道府県市郡区町村])[{MASK}](?=[区市町村郡])")

#: Words right after a letter that make it no placeholder.
NOT_AFTER = (
    "型",
    "線",
    "シャツ",
    "字",
    "判",
    "級",
    "サイズ",
    "ランク",
    "評価",
    "第",
    "号証",
    "ー",
    "－",
    "-",
    "・Ｍ",
    "遮断",
    "ＧＴＰ",
    "GTP",
    "班",
    "方式",
)
#: Words right before a letter that make it a reference, not a name.
REFERENCE_BEFORE = (
    "別紙",
    "図面",
    "資料",
    "表",
    "地点",
    "図",
    "写真",
    "番号",
    "型",
    "欄",
    "添付",
    "書式",
    "項目",
    "案",
    "ランク",
    "ビタミン",
    "プラン",
    "タイプ",
    "部分",
    "構成要件",
    "構成",
)
#: A letter in a list that a reference word opens, or that ends in one: the claim
#: elements ``構成要件１－Ｂ，１－Ｄ``, ``構成要件ＢないしＥ``, ``ａないしｊの構成``
_LINK = "(?:ないし|及び|又は|並びに|[，、・,～〜])"
_ELEMENT = rf"(?:[{DIGIT}]+[－-])?[{LATIN}]"
_REFERENCE_LIST = re.compile(
    rf"(?:{'|'.join(REFERENCE_BEFORE)})(?:{_ELEMENT}{_LINK})*(?:[{DIGIT}]+[－-])?$"
)
_LIST_BEFORE = re.compile(rf"(?:{_ELEMENT}{_LINK})+$")
_LIST_AFTER = re.compile(rf"({_LINK}{_ELEMENT})*の?構成(?!員)")
#: ``本件車両Ａ``: the court's own name for one of several things of the case
_DEFINED_TERM = re.compile(rf"本件[{KANJI}]{{1,3}}$")
#: Evidence letters: ``甲第１号証``, ``甲Ａ第３号証``, ``乙１``, ``甲１の２``, and the series
#: of a party's exhibits ``乙イ２３``, ``甲ル６``, ``甲イないしウ``, and ``甲 5`` with a space
#: (read with line ends removed).
_EVIDENCE_AFTER = re.compile(
    rf"^(?:[{LATIN}])?(?:第|[{DIGIT}]|号証|ないし|及び[甲乙丙][{DIGIT}第]|[、・][甲乙丙][{DIGIT}第])"
    rf"|^[ア-ヲ](?:[{LATIN}{DIGIT}]|ないし)|^[ 　][{DIGIT}]"
)
#: Words a party letter may be glued to: ``甲社``, ``甲病院``, ``乙小学校``, ``甲町``.
_PARTY_GLUED = (
    "社",
    "方",
    "及",
    "並",
    "間",
    "宅",
    "店",
    "病院",
    "株式会社",
    "有限会社",
    "小学校",
    "中学校",
    "高校",
    "大学",
    "銀行",
    "党",
    "町",
    "村",
)

RE_BRANCH_NUMBER = re.compile(rf"[{DIGIT}]{{1,2}}(?:{'|'.join(JUR_IDX_AFTER)}|店)")


@dataclass(frozen=True, slots=True)
class JapanesePlaceholder:
    """A placeholder in Japanese text: characters ``[start, end)``, label, shape."""

    start: int
    end: int
    label: str
    kind: str

    def to_span(self) -> Span:
        return Span(self.start, self.end, self.label)

    @property
    def guessed(self) -> bool:  # no cue word decided the label (as the German rules')
        return self.label == UNKNOWN


def _line_start(text: str, i: int) -> bool:
    j = i - 1
    while j >= 0 and text[j] in " 　\t":
        j -= 1
    return j < 0 or text[j] == "\n"


def _broken_word(text: str, start: int, end: int) -> bool:
    """``ＴＥ\nＮ``, ``Ｄ\nＮＡ``, ``１２９ｃ\nｍ``, ``Ｙ\n－ＳＴＲ``: a letter glued across a
    line end to Latin letters is part of a word the PDF broke, as it would be without it."""
    if text[end : end + 1] == "\n" and re.match(rf"[－-]?[{LATIN}]", text[end + 1 : end + 3]):
        return True
    return text[start - 1 : start] == "\n" and bool(
        re.match(rf"[{LATIN}]", text[start - 2 : start - 1])
    )


def _before(text: str, start: int, width: int = 8) -> str:
    """The words before ``start``, line ends removed (``被\n告Ｂ８``)."""
    return text[max(0, start - width - 2) : start].replace("\n", "")[-width:]


def _after_role(text: str, start: int) -> bool:
    """A role word (a person's or a jurist's) stands right before ``start``: ``原告Ａ``, also
    across the spaces of a rubrum (``原告  Ｐ１``)."""
    return _before(text, start).rstrip(" 　").endswith(ROLE_WORDS + LEGAL_ROLE_WORDS)


def _outline_mark(text: str, start: int, end: int) -> bool:
    """``ａ　原告の主張``, ``A.``, a claim's ``Ｂ  当該``: a letter that opens a line and is
    followed by a space or a stop. Not where a list runs on over the line end
    (``母、姉、弟、\nＢ、Ａ``) or the letter is followed by a particle (``Ａ  は，生前``)."""
    nxt = text[end : end + 1]
    if not _line_start(text, start) or (nxt and nxt not in " 　.．、)）"):
        return False
    if nxt == "、" and text[:start].rstrip(" 　\t\n").endswith(("、", "，", ",")):
        return False
    return not re.match(r"[ 　]+[はがをにのと][^\n]", text[end : end + 6])


def _letter_is_placeholder(
    text: str, start: int, end: int, series: frozenset = frozenset()
) -> bool:
    after = text[end : end + 6]
    prev = text[start - 1] if start else ""
    nxt = text[end] if end < len(text) else ""
    if prev in "（(" and nxt in "）)":
        return False  # "（ａ）": an outline mark
    if _outline_mark(text, start, end):
        return False  # "ａ　原告の主張", "A." at a line start: outline
    if (prev and prev in "[［〔") or (nxt and nxt in "]］〕"):
        return False  # "ジベンゾ〔ｂ・ｄ〕", "[３，２－ｆ]": the letters of a chemical name
    if _broken_word(text, start, end):
        return False
    if _in_letter_spaced_word(text, start):
        return False  # "A p p l e   J a p a n": a word printed letter-spaced
    if _DECIMAL_AFTER.match(text, end):
        return False  # "Ｃ（１２．０１）": an element symbol with its atomic weight
    if re.match(r"[.．][A-ZＡ-Ｚ](?![a-zａ-ｚ])", text[end : end + 4].replace("\n", "")) or (
        re.search(r"[A-Za-z]{2,} $", text[max(0, start - 12) : start])
        and re.match(r" [A-Za-z]{2,}", text[end : end + 4])
    ):
        return False  # "M.D", "Ｎ．Ｖ．", "hepatitis B virus": an abbreviation, English text
        # (not "Ｂ．ｃｏｍ", a site's masked name)
    if after.lstrip(" 　").startswith(NOT_AFTER) or _reference(text, start, end):
        return False
    if re.match(rf"・[{LATIN}]{{2,}}", after):
        return False  # "ｅ・ｈｏｍｅ": the first letter of a name in Latin letters
    if prev in "甲乙丙" and re.match(rf"[第{DIGIT}]", nxt):
        return False  # "甲Ａ第３号証", "乙Ｂ１": evidence numbers
    if re.match(rf"[{DIGIT}]", nxt) and not _numbered(text, start, end, series):
        return False  # "Ａ４", "B5": sizes and codes (but "原告Ｘ１" is a party)
    # "ＣＤ－Ｒ", "ｋｍ／ｈ": the end of a Latin word or unit
    return not (prev in "－-／/" and re.match(rf"[{LATIN}]", text[start - 2 : start - 1] or " "))


def _reference(text: str, start: int, end: int) -> bool:
    """A letter that names a part of something, not someone: after a reference word
    (``別紙Ａ``, ``構成要件Ａ``), in a list a reference word opens (``構成要件１－Ｂ，１－Ｄ``,
    ``構成要件ＢないしＥ``) or that ends in ``構成`` (``ａないしｊの構成``), or a defined term
    of the case (``本件車両Ａ``). Read with line ends removed (``構成要件⏎ＢないしＥ``)."""
    before = _before(text, start, 24)
    if _REFERENCE_LIST.search(before):
        return True
    if _DEFINED_TERM.search(before) and not _after_role(text, start):
        return True  # "本件車両Ａ", not "本件被告人Ａ"
    # a list that ends in 構成: "ａないしｊの構成" (not "Ａの構成する", no list)
    tail = _LIST_AFTER.match(text[end : end + 24].replace("\n", ""))
    return bool(tail and (tail.group(1) or _LIST_BEFORE.search(before)))


_DECIMAL_AFTER = re.compile(rf"[（(][{DIGIT}]+[.．][{DIGIT}]+[）)]")


def _in_letter_spaced_word(text: str, start: int) -> bool:
    """Whether the letter at ``start`` is one of at least three Latin letters printed with
    one space between each (``A p p l e``, ``株 式 会 社 Ｆ Ｃ Ｆ``): a word in Sperrsatz."""
    run_start = run_end = start
    while (
        run_start >= 2
        and text[run_start - 1] in " 　"
        and re.match(rf"[{LATIN}]", text[run_start - 2])
    ):
        run_start -= 2
    while (
        run_end + 2 < len(text)
        and text[run_end + 1] in " 　"
        and re.match(rf"[{LATIN}]", text[run_end + 2])
    ):
        run_end += 2
    return (run_end - run_start) // 2 + 1 >= 3


def _numbered(text: str, start: int, end: int, series: frozenset) -> bool:
    """Whether digits after the letter at ``start:end`` number it: a party of the
    decision's series or after a role word (``原告Ｘ１``, ``Ｂ１２``), or a branch
    (``Ａ銀行Ａ１支店``, ``飲食店Ｋ１``); not a size or a code (``Ａ４``)."""
    return (
        text[start:end] in series
        or bool(RE_BRANCH_NUMBER.match(text, end))
        or _after_role(text, start)
    )


#: What follows a numbered letter that names someone: a particle of a sentence's actor or
#: object (``Ｄ１が運転``, ``Ｄ１らから``), an organisation's word (``Ｙ１病院``)
_NAMED_AFTER = re.compile(r"(?:が|は|を|ら|について|に対し)|" + "|".join(JUR_AFTER))


def _names_someone(text: str, start: int, digits: re.Match) -> bool:
    """A numbered letter at ``start`` that a role word, its sentence or quotation marks make
    a party, a person or an organisation (``原告Ａ１``, ``Ｄ１が``, ``Ｙ１病院``, ``「Ｙ２」``);
    a size or a code (``Ａ４判``, ``Ｂ５の用紙``) is none of these."""
    after = text[digits.end() : digits.end() + 5].lstrip(" 　")
    quoted = text[start - 1 : start] == "「" and after.startswith("」")
    return _after_role(text, start) or quoted or bool(_NAMED_AFTER.match(after))


def numbered_series(text: str) -> frozenset[str]:
    """Letters a decision numbers its parties with (``原告Ａ１``, ``被告Ｂ１２``, ``Ｄ１が``,
    ``Ｙ１病院``): once one of them names someone (:func:`_names_someone`), every
    ``Ｂ１２`` of the decision does, also where nothing says so (``Ｂ１２の妻``,
    ``控訴人Ａ１８及びＡ１９``)."""
    series = set()
    for m in RE_LETTER.finditer(text):
        digits = RE_PARTY_NUMBER.match(text, m.end())
        if digits and _names_someone(text, m.start(), digits):
            series.add(m.group())
    return frozenset(series)


def _party_is_placeholder(text: str, start: int) -> bool:
    prev = text[start - 1] if start else ""
    after = text[start + 1 : start + 9].replace("\n", "")
    before = text[max(0, start - 8) : start]
    if _EVIDENCE_AFTER.match(after):
        return False  # "甲第１号証", "乙１", "甲Ａ第２号証", "甲 5": evidence numbers
    if before.endswith(ROLE_WORDS + LEGAL_ROLE_WORDS + LEGAL_FORMS):
        return True  # "被告人甲", "相手方丁提出の"
    if re.match(rf"[{KANJI}]", prev):
        return False  # "装甲", "十干の丙"
    if text[start] == "丁" and re.match(rf"[{DIGIT}]", prev):
        return False  # "けん銃２丁": a counter
    nxt = after[:1]
    if re.match(rf"[{KANJI}]", nxt) and not after.startswith(_PARTY_GLUED):
        return False  # "甲状腺", "乙種", "丙午"
    return not after.startswith(("乙間", "乙両", "間"))  # "甲乙間の契約": a contract's parties


def _in_contract_quote(text: str, i: int) -> bool:
    """``契約書第１２条には、「乙が賃料の支払を…」``: a contract's own party letters."""
    opened = text.rfind("「", 0, i)
    if opened < 0 or text.rfind("」", opened, i) >= 0:
        return False
    return any(
        w in text[max(0, opened - 20) : opened]
        for w in ("条", "契約", "約款", "規約", "合意書", "覚書")
    )


_ADDRESS_CHARS = re.compile(rf"[{KANJI}{DIGIT}ぁ-んァ-ヶー－\-{MASK}]")
_ADDRESS_STARTS = ("住所", "住居", "本籍", "所在地", "住所地", "居所")


def _address_start(text: str, end: int) -> int:
    """Where an address ending at ``end`` (before ``（以下略）``) begins: back over kanji,
    kana and digits, to the last punctuation, space or ``住所``-like word."""
    start = end
    while start > 0 and _ADDRESS_CHARS.match(text[start - 1]) and end - start < 40:
        start -= 1
    piece = text[start:end]
    for word in (*_ADDRESS_STARTS, *ROLE_WORDS, "所在の", "の", "は", "に", "で"):
        k = piece.rfind(word)
        if k >= 0 and k + len(word) < len(piece):
            start, piece = start + k + len(word), piece[k + len(word) :]
    prefecture = re.search(r"(?:東京都|北海道|(?:京都|大阪)府|[\u4e00-\u9fff]{2,3}県)", piece)
    if prefecture and prefecture.start() > 0:
        start += prefecture.start()
    return start


#: Circled Latin letters some courts mask with (``Ⓐ鑑定``, ``福島県双葉郡ⓖ町大字ⓗ``) read as
#: the full-width letters of the usual convention (``Ａ``, ``ｇ``), one character for one,
#: so offsets hold; the rules for letters then judge them (``別紙図面ⓐ`` is a reference).
#: Circled katakana (``㋐``, ``㋑``) stay: most courts number the items of a list with them.
CIRCLED = str.maketrans(
    {
        **{chr(0x24B6 + k): chr(0xFF21 + k) for k in range(26)},  # Ⓐ-Ⓩ → Ａ-Ｚ
        **{chr(0x24D0 + k): chr(0xFF41 + k) for k in range(26)},  # ⓐ-ⓩ → ａ-ｚ
    }
)


def find_japanese_placeholders(text: str) -> list[JapanesePlaceholder]:
    """All placeholders of a published Japanese precedent, labelled, in text order
    (circled letters read as the usual letters: :data:`CIRCLED`)."""
    text = text.translate(CIRCLED)
    found: list[JapanesePlaceholder] = []
    taken = [False] * len(text)

    def add(start: int, end: int, label: str, kind: str) -> None:
        if start >= end or any(taken[start:end]):
            return
        for k in range(start, end):
            taken[k] = True
        found.append(JapanesePlaceholder(start, end, label, kind))

    for m in RE_OMITTED.finditer(text):
        if not is_omission(text, m):
            continue
        of_value = any(word in m.group() for word in OMITTED_VALUE)
        start = m.start() if of_value else _address_start(text, m.start())
        label = "address-name" if start < m.start() else omitted_label(text, m)
        add(start, m.end(), label, "omitted")
    for m in RE_MASKED_DATE.finditer(text):
        if re.search(rf"[{MASK}]", m.group()):
            before = text[max(0, m.start() - 6) : m.start()]
            label = (
                "nat-idx"
                if text[m.end() : m.end() + 1] == "生" or "生年月日" in before
                else "date-fact"
            )
            add(m.start(), m.end(), label, "date")
    for m in RE_MASKED_NUMBER.finditer(text):
        if re.search(rf"[{MASK}]", m.group()):
            add(m.start(), m.end(), "id-number", "number")
    for m in RE_MASKED_PLATE.finditer(text):
        if re.search(rf"[{MASK}]", m.group()) or re.match(rf"[{LATIN}]", m.group()):
            add(m.start(), m.end(), "car-idx", "plate")
    for m in RE_MASK_IN_ADDRESS.finditer(text):
        add(m.start(), m.end(), "address-name", "mask")
    for m in RE_MASK_RUN.finditer(text):
        start, end = m.start(), m.end()
        if set(m.group()) <= set("○〇") and text[start - 1 : start] in KANJI_DIGITS:
            continue  # "一五〇〇万円": zeros of a kanji numeral
        # "○○県○○市○○町": one address
        while unit := RE_MASK_UNIT.match(text, end):
            end = unit.end()
        add(start, end, mask_label(text, start, end), "mask")
    pseudonyms = list(RE_PSEUDONYM.finditer(text))
    full = {m.group()[:2] for m in pseudonyms if len(m.group()) > 2}
    for m in pseudonyms:
        before = text[max(0, m.start() - 8) : m.start()]
        after = text[m.end() : m.end() + 3]
        if re.match(rf"[第{DIGIT}]", after) or (
            len(m.group()) == 2
            and m.group() not in full
            and re.match(rf"[{KANJI}]", before[-1:] or "a")
            and not before.endswith(ROLE_WORDS + LEGAL_ROLE_WORDS)
        ):
            continue  # "甲山第１", a surname alone glued to a word
        add(m.start(), m.end(), placeholder_label(text, m.start(), m.end()), "pseudonym")
    for m in RE_PARTY_ORG.finditer(text):
        if text[m.start() - 1 : m.start() + 1] not in ("包丁", "装甲", "鼈甲"):
            add(m.start(), m.end(), "jur-name", "party")
    # a contract's parties are defined as letters ("Ｘ株式会社（以下「甲」という。）"); a
    # letter defined as itself ("甲（以下「甲」という。）の相続人") stands for someone
    contract = {
        m.group(1)
        for m in re.finditer(r"以下[「『]([甲乙丙丁])[」』]", text)
        if not re.search(rf"{m.group(1)}[（(]$", text[max(0, m.start() - 2) : m.start()])
    }
    for m in RE_PARTY.finditer(text):
        if (
            m.group() not in contract
            and not _in_contract_quote(text, m.start())
            and _party_is_placeholder(text, m.start())
        ):
            add(m.start(), m.end(), placeholder_label(text, m.start(), m.end()), "party")
    for m in RE_ADDRESS_LETTERS.finditer(text):
        add(m.start(), m.end(), "address-name", "letter")
    series = numbered_series(text)
    for m in RE_LETTER.finditer(text):
        start, end = m.start(), m.end()
        digits = RE_PARTY_NUMBER.match(text, end)
        if digits and _numbered(text, start, end, series):
            end = digits.end()  # "原告Ｘ１", "Ｂ１２"
        if _letter_is_placeholder(text, m.start(), m.end(), series):
            kind = "greek" if re.match(rf"[{GREEK}]", m.group()) else "letter"
            add(start, end, placeholder_label(text, start, end), kind)
    found = merge_address_chains(text, sorted(found, key=lambda p: p.start))
    return one_label_per_letter(text, found)


_SPREAD = ("letter", "greek", "party", "pseudonym")


def one_label_per_letter(text: str, found: list[JapanesePlaceholder]) -> list[JapanesePlaceholder]:
    """A letter names one entity throughout a decision: ``Ｄ株式会社`` once makes every bare
    ``Ｄ`` of it a company (``Ｄの従業員``, ``「Ｄ」という``). Mentions read only by the default
    (a person, with no role word before) take the label the cued mentions agree on most; a
    role word before a mention is a cue for a person, and a tie keeps the person."""
    cued: dict[str, Counter] = {}
    for p in found:
        person = _person_cue(text, p)
        if p.kind in _SPREAD and (person or p.label not in ("nat-name", UNKNOWN)):
            cued.setdefault(text[p.start : p.end], Counter())[p.label] += 1
    out = []
    for p in found:
        votes = cued.get(text[p.start : p.end], Counter())
        label, count = votes.most_common(1)[0] if votes else ("nat-name", 0)
        if (
            p.kind in _SPREAD
            and p.label == "nat-name"
            and not _after_role(text, p.start)
            and label != "nat-name"
            and count > votes["nat-name"]
        ):
            p = JapanesePlaceholder(p.start, p.end, label, p.kind)
        out.append(p)
    return out


_PARTIES = ("原告", "被告", "相手方", "申請人", "代表者", "同")
#: Role words only a person has; a party (``原告``, ``被告``, ``控訴人``) may be a company.
_NOT_ONLY_PEOPLE = ("控訴人", "告人", "申立人", "請求人", "債権者", "債務者")
_PERSON_ONLY = (
    *(w for w in ROLE_WORDS if w not in _PARTIES and not w.endswith(_NOT_ONLY_PEOPLE)),
    "被告人",
)


def _person_cue(text: str, p: JapanesePlaceholder) -> bool:
    return p.label == "nat-name" and _before(text, p.start).endswith(_PERSON_ONLY)


_ADDRESS_UNITS = re.compile(r"(?:丁目|番地|番|号|町|村|市|区|郡|県|大字|字)+")
_ADDRESS_END = re.compile(r"(?:丁目|番地|番|号)")


def merge_address_chains(text: str, found: list[JapanesePlaceholder]) -> list[JapanesePlaceholder]:
    """Placeholders joined only by address units are one address: ``ａ町ｂ番ｃ号``,
    ``ａ県ｂ市ｃ町ｄ番地`` (with its last unit when that is a number's: 番, 号, 丁目)."""
    out: list[JapanesePlaceholder] = []
    for p in found:
        last = out[-1] if out else None
        person = re.fullmatch(r"[A-ZＡ-Ｚ]", text[p.start : p.end])  # "ａ町ｂ番ｃ号Ａ方"
        if last is not None and not person and _ADDRESS_UNITS.fullmatch(text[last.end : p.start]):
            out[-1] = JapanesePlaceholder(last.start, p.end, "address-name", "address")
        else:
            out.append(p)
    merged = []
    for p in out:
        if p.kind == "address":
            tail = _ADDRESS_END.match(text, p.end)
            p = JapanesePlaceholder(p.start, tail.end() if tail else p.end, p.label, p.kind)
        merged.append(p)
    return merged


def no_placeholder_at(text: str, start: int) -> bool:
    """Whether the rules know why the character at ``start`` stands for no one (a letter of
    a Latin word, an outline mark, an evidence number ``乙７``, a size, a code, a reference):
    a tagger reading context alone proposes these too, and the reasons hold for it as well."""
    text = text.translate(CIRCLED)
    char = text[start : start + 1]
    if not char:
        return False
    if char in "甲乙丙丁":
        return bool(re.match(rf"[第{DIGIT}]", text[start + 1 : start + 2]))
    if re.match(r"[ァ-ヺ]", char):
        return _outline_mark(text, start, start + 1)
    if not re.match(rf"[{LATIN}{GREEK}]", char):
        return False
    if not RE_LETTER.match(text, start):
        return True  # "ＷｈａｔｓＡｐｐ", "ＤＮＡ": a letter of a Latin word
    return not _letter_is_placeholder(text, start, start + 1, numbered_series(text))
