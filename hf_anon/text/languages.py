"""Languages: which model reads a text, and the span boundaries of Japanese.

hf-anon has a model per language (German ``de``, Japanese ``ja``, issue #17). A model's
``config.language`` says which text it was trained on; ``language="auto"`` picks by
script: a text whose letters are mostly kana and kanji is Japanese.

German span edges come from :mod:`hf_anon.model.decoding.boundaries` and
:mod:`hf_anon.model.decoding.edges`, which widen a span to the whole whitespace-separated word.
Japanese has no spaces, so that
widening would swallow a sentence; instead :func:`japanese_boundaries` trims what
``data/ja/GUIDE.md`` keeps outside a span: roles and honorifics (``被告人``, ``さん``),
legal forms (``株式会社``), particles (``は``, ``の``), ``頃``, ``〒``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS

LANGUAGES = ("de", "ja")
#: what ``--language`` accepts: a language, or ``auto`` (by script, per text)
LANGUAGE_CHOICES = ("auto", *LANGUAGES)

_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")
_LETTER = re.compile(r"[^\W\d_]")


def script_language(text: str) -> str:
    """``ja`` when at least a fifth of a text's letters are kana or kanji, else ``de``."""
    sample = text[:20000]
    letters = len(_LETTER.findall(sample))
    if not letters:
        return "de"
    return "ja" if len(_JAPANESE.findall(sample)) >= 0.2 * letters else "de"


def resolve_language(language: str, texts: Iterable[str]) -> str:
    """The language of ``texts``: ``language`` itself, or for ``auto`` the script of most."""
    if language not in LANGUAGE_CHOICES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGE_CHOICES)}, got {language!r}")
    if language != "auto":
        return language
    votes = [script_language(t) for t in texts]
    return "ja" if votes.count("ja") > len(votes) / 2 else "de"


def check_model_language(model_language: str, wanted: str) -> None:
    """A clear error when ``--language`` asks for another language than the model reads."""
    if wanted != "auto" and wanted != model_language:
        raise ValueError(
            f"the model reads {model_language} text, not {wanted}; leave out --model for the "
            f"bundled {wanted} model, or pass --language {model_language}"
        )


# --- Japanese span boundaries (data/ja/GUIDE.md) -------------------------------------------

#: Roles of people in a case, before a name: outside the span.
PERSON_ROLES_JA = (
    "被告人",
    "被告",
    "原告",
    "証人",
    "被害者",
    "申立人",
    "相手方",
    "参考人",
    "医師",
    "代表者",
    "代表取締役",
    "未成年者",
    "被相続人",
    "亡",
    "長男",
    "長女",
    "次男",
    "二女",
    "妻",
    "夫",
    "同",
)
#: Jurists' titles before a name (``nat-jur``): outside the span.
LEGAL_ROLES_JA = (
    "裁判長裁判官",
    "裁判官",
    "弁護人",
    "弁護士",
    "代理人",
    "検察官",
    "検事",
    "書記官",
    "調査官",
    "司法書士",
    "公証人",
    "鑑定人",
)
#: What span edges cut off before a name: both lists, longest first (so that ``被告人`` is
#: cut before ``被告``), without the one-character roles (``妻``, ``夫``, ``亡``, ``同``):
#: surnames begin with them too (``妻木``), and a cut would publish a name's first
#: character; the model keeps them outside anyway.
ROLES_JA = tuple(
    sorted((r for r in (*PERSON_ROLES_JA, *LEGAL_ROLES_JA) if len(r) > 1), key=len, reverse=True)
)
#: Honorifics and particles after a name: outside the span.
SUFFIXES_JA = ("さん", "ちゃん", "君", "氏", "様", "殿")
#: Particles after a name written in kanji or katakana (a given name in hiragana may end
#: in one: ``まこと``, ``ひなの``, so those are left alone).
PARTICLES_JA = ("は", "が", "の", "を", "に", "と", "も", "へ", "で", "から", "より", "や")
_HIRAGANA = re.compile(r"[\u3040-\u309f]")
LEGAL_FORMS_JA = (
    "特定非営利活動法人",
    "一般社団法人",
    "一般財団法人",
    "社会福祉法人",
    "医療法人",
    "学校法人",
    "宗教法人",
    "株式会社",
    "有限会社",
    "合同会社",
    "合資会社",
    "合名会社",
)
#: A legal form as printed, also letter-spaced (``株 式 会 社`` of a rubrum set in spaced type)
LEGAL_FORM_PATTERN = "|".join("[ \u3000]*".join(form) for form in LEGAL_FORMS_JA)
_LEGAL_FORM_START = re.compile(f"(?:{LEGAL_FORM_PATTERN})[ \u3000]*")
_LEGAL_FORM_END = re.compile(f"[ \u3000]*(?:{LEGAL_FORM_PATTERN})$")
_LEGAL_FORM_ONLY = re.compile(f"(?:{LEGAL_FORM_PATTERN})")
#: Labels of organisations: a span that is only a legal form names none
_ORGANISATION_LABELS = {"jur-name", "jur-idx"}
_EDGE_PUNCT = " \u3000\t\n、。，．・「」『』（）()[]【】〔〕:：;；,.!?！？\"'“”‘’"
_NAME_LABELS = {"nat-name", "nat-jur"}


#: The characters of Japanese names and place names (``上ノ町``, ``霞ヶ関``).
NAME_KANJI = "\u3400-\u4dbf\u4e00-\u9fff々ヶノ"
_KANJI_RUN = re.compile(rf"[{NAME_KANJI}]{{1,10}}$")
_NAME_STOP = "（(、。「」『』：:；;\n"


_NOT_SURNAMES = ("住所", "住居", "本籍", "職業", "氏名", "署名", "所在地", "代表者", "裁判長")


def _name_edges(text: str, start: int, end: int) -> tuple[int, int]:
    """A name's edges: a surname before a space joins the given name after it (``百目鬼
    玲子`` when only ``玲子`` was found); a role the model cut inside (``人大河原``: the
    rest of ``被告人``) goes; a name stops at a bracket or punctuation (``ナム（1994年``)."""
    joinable = _JAPANESE.match(text[start]) and not re.search(r"\s", text[start:end])
    if start >= 2 and text[start - 1] in " \u3000" and joinable:
        run = _KANJI_RUN.search(text, max(0, start - 11), start - 1)
        if run:
            begin = run.start()
            role = next((r for r in ROLES_JA if run.group().startswith(r)), "")
            surname = run.group()[len(role) :]
            if 1 <= len(surname) <= 4 and not surname.endswith(_NOT_SURNAMES):
                start = begin + len(role)
    for role in ROLES_JA:
        for j in range(0, len(role)):
            if start - j >= 0 and text.startswith(role, start - j) and start - j + len(role) < end:
                start = start - j + len(role)
                break
    cut = next((k for k in range(start, end) if text[k] in _NAME_STOP), end)
    return start, (cut if cut > start else end)


#: A particle after a date's last unit (``１日から``, ``５月に``, ``９日までに``): the model's
#: tokens run on past the date, the guide keeps particles outside.
_DATE_PARTICLE = re.compile(
    r"(?<=[日月年時分秒旬末])(?:までに|まで|にかけて|から|より|に|は|の|を|が|と|も)$"
)
#: What a date holds at least: a number, or the end or a part of a named month or year.
_DATE_CORE = re.compile(r"[0-9０-９〇一二三四五六七八九十元]|同[年月](?:末|初め|上旬|中旬|下旬)")


def _trim(text: str, span: Span) -> Span | None:
    start, end = span.start, span.end
    while start < end and text[start] in _EDGE_PUNCT:
        start += 1
    while end > start and text[end - 1] in _EDGE_PUNCT:
        end -= 1
    if span.label in _NAME_LABELS and start < end:
        start, end = _name_edges(text, start, end)
    changed = True
    while changed and start < end:
        changed = False
        piece = text[start:end]
        if piece[0] in _EDGE_PUNCT:
            start, changed = start + 1, True
            continue
        if piece[-1] in _EDGE_PUNCT:
            end, changed = end - 1, True
            continue
        if span.label in _NAME_LABELS | {"jur-name"}:
            for role in ROLES_JA:
                if piece.startswith(role) and len(piece) > len(role):
                    start, changed = start + len(role), True
                    break
        if not changed and span.label in _NAME_LABELS:
            for suffix in (*SUFFIXES_JA, *PARTICLES_JA):
                if not piece.endswith(suffix) or len(piece) <= len(suffix) + 1:
                    continue
                if suffix in PARTICLES_JA and _HIRAGANA.match(piece[-len(suffix) - 1]):
                    continue
                end, changed = end - len(suffix), True
                break
        if not changed and span.label in _ORGANISATION_LABELS and _LEGAL_FORM_ONLY.fullmatch(piece):
            return None  # ``株 式 会 社`` alone: the guide keeps legal forms outside
        if not changed and span.label == "jur-name":
            form = _LEGAL_FORM_START.match(piece)
            if form and form.end() < len(piece):
                start, changed = start + form.end(), True
            elif (form := _LEGAL_FORM_END.search(piece)) and form.start() > 0:
                end, changed = start + form.start(), True
        if not changed and span.label.startswith("date") and piece.endswith(("頃", "ころ")):
            end, changed = end - (1 if piece.endswith("頃") else 2), True
        if not changed and span.label.startswith("date"):
            particle = _DATE_PARTICLE.search(piece)  # "１日から", "５月に": the token's tail
            if particle:  # the look-behind keeps at least the date's unit
                end, changed = start + particle.start(), True
        if not changed and piece[0] == "〒":
            start, changed = start + 1, True
    if start >= end or end <= span.start or start >= span.end:
        return None  # nothing left, or only the surname a found `　の` grew over
    if span.label.startswith("date") and not _DATE_CORE.search(text[start:end]):
        return None  # "月日は", "同日", "時": no number, no date (同日 alone is none)
    return Span(start, end, span.label, span.risk, span.score)


#: A court's division or bench after its name, part of the court-name span
#: (``神戸地方裁判所第４刑事部``, ``名古屋地方裁判所刑事第１部``, ``最高裁判所第三小法廷``);
#: spaces the PDF put inside are allowed (``福岡地方裁判所小倉支部　第２刑事部``)
_KANSUJI = "0-9０-９一二三四五六七八九十〇"
_COURT_DIVISION = re.compile(
    rf"[ \u3000]*(?:[^\W\d_]{{1,6}}支部[ \u3000]*)?"
    rf"(?:第[{_KANSUJI}]+(?:刑事|民事)?部|(?:刑事|民事)第[{_KANSUJI}]+部|刑事部|民事部"
    rf"|第[一二三]小法廷|大法廷)"
)


def _with_division(text: str, span: Span) -> Span:
    """A court's span grown over its division (``data/ja/gold`` rule 9)."""
    if span.label != "court-name" or not text[span.start : span.end].endswith(("裁判所", "支部")):
        return span
    match = _COURT_DIVISION.match(text, span.end)
    if not match:
        return span
    return Span(span.start, match.end(), span.label, span.risk, span.score)


def japanese_boundaries(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans trimmed of what ``data/ja/GUIDE.md`` keeps outside (roles, honorifics,
    particles, legal forms, ``頃``, ``〒``, punctuation), names joined across the space
    between surname and given name; spans left empty are dropped, spans that now overlap
    are merged (the label of the longer one)."""
    trimmed = (_with_division(text, t) for s in spans if (t := _trim(text, s)) is not None)
    return merge_overlapping(trimmed)


def merge_overlapping(spans: Iterable[Span]) -> list[Span]:
    """Spans sorted, those that overlap merged into one: the label and risk of the longer,
    the higher score. Japanese span edges move (trimmed, grown to a word or a court's
    division), and two spans may then cover the same characters."""
    out: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if out and span.start < out[-1].end:
            last = out[-1]
            longer = span if span.end - span.start > last.end - last.start else last
            scores = [x for x in (last.score, span.score) if x is not None]
            out[-1] = Span(
                last.start,
                max(last.end, span.end),
                longer.label,
                longer.risk,
                max(scores) if scores else None,
            )
        else:
            out.append(span)
    return out


# --- dates -------------------------------------------------------------------------------
# Japanese decisions date the facts with era years (令和４年３月１５日) and, once a date is
# named, relatively (同年８月１４日, 同月４日, 同日午前３時２６分, 同３１年３月３１日): a closed
# grammar, found by rule for the recognizer ``ja-dates`` and for the silver labels of real
# precedents. A relative date is a span only where it adds a month, a day or a time
# (data/ja/GUIDE.md: 同日 alone is not); 上旬/中旬/下旬 belong to the date, 頃 and particles
# do not; a law's or a docket's year (平成２０年法律第８９号, 令和３年（わ）) is no date; a date
# followed by 生 is a birth (nat-idx); a date the PDF broke at a line end is one span.

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
    f"|翌(?:年)?{_N}月(?:{_N}日|{_PART_OF_MONTH})?(?:{_TIME})?"  # 翌１１月, 翌年２月３日
    f"|翌{_N}日(?:{_TIME})?"  # 翌２５日 (翌日 alone adds no day: no span)
)
#: A month and day, or a part of a month, without a year (``３月２日``, ``２月下旬``): the year
#: was named before; not inside a longer number (``２０２１年３月２日`` is the absolute date,
#: ``１２月`` is not ``２月``)
_MONTH_DAY = f"(?<![年0-9０-９翌]){_N}月(?:{_N}日(?:{_TIME})?|{_PART_OF_MONTH})"
JAPANESE_DATE_RE = re.compile(f"{_RELATIVE}|{_ABSOLUTE}|{_MONTH_DAY}")
#: What makes an era year part of a citation or a docket, not a date.
_NOT_A_DATE_AFTER = re.compile(r"^(?:法律|政令|条例|規則|告示|省令|府令|訓令|（|\()")


#: A line break the PDF put inside a date (``同年７\n月３０日``): between two characters
#: that can both belong to a date, the era's name too (``平\n成２７年``).
_DATE_CHARS = "0-9０-９年月日時分秒同翌元午前後上中下初旬令和平成昭大正"
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
            if not re.search("[月日時]", found):
                continue  # a year alone is rarely a date of the facts
        label = "nat-idx" if view[match.end() : match.end() + 1] == "生" else "date-fact"
        start, end = index[match.start()], index[match.end() - 1] + 1
        spans.append(Span(start, end, label, DEFAULT_LABELS[label].risk, 1.0))
    return spans
