"""A Japanese name is a word: name spans that are fragments, function words or common
nouns are dropped, and name edges fall on word boundaries.

Japanese has no spaces, so a model that learned names from their contexts also marks
pieces of words (``上不`` of ``上不正``), single kana (``る``), numerals (``八``) and common
nouns in a name's position (``直後``, ``実子``, ``真実``). A morphological analyzer with its
dictionary (SudachiPy with ``sudachidict-core`` by default; Janome as the alternative that
was measured against it, ``reports/ja_gold/README.md``) says where words begin and end and
which are proper nouns. The check is the German ``nouns`` rule carried over: a name span
stays where

- it is a court's placeholder (``Ａ``, ``甲``, ``○○``): letters and marks are not words;
- one of its words is a proper noun or unknown to the dictionary (invented and rare names
  are), or
- the text confirms it as a name: a role or title stands before it (``被告人真下``), an
  honorific after it (``森さん``), quotation marks around it (a shop: ``「とり松」``), or the
  same characters are a name elsewhere in the text (``森一郎`` … ``森``), as that name stands
  after the check; an organisation of one common word also where the text writes it with
  a legal form (``株式会社マーベラス`` … ``マーベラス``).

An edge inside a word moves to the word's edge when that word is a proper noun or unknown
(``太郎`` of ``桂太郎``), and the span is dropped when the word is a common one (``上不``).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from hf_anon.text.data import Span
from hf_anon.text.languages import (
    LEGAL_FORM_PATTERN,
    LEGAL_ROLES_JA,
    PERSON_ROLES_JA,
    SUFFIXES_JA,
    merge_overlapping,
)
from hf_anon.text.views import without_line_ends

#: The analyzers a model's config may name (``config.japanese_words``).
ANALYZERS = ("sudachi", "janome")
#: Labels whose spans must be names: people's names (``八ッ橋`` as a person, ``直後``)
CHECKED_LABELS = frozenset({"nat-name", "nat-jur"})
#: Labels whose edges must fall on words (``あ`` of ``あん摩``, ``事`` of ``商事``): names of
#: organisations, places and courts may be common words (``言論ひろば``), but never a piece
EDGE_LABELS = frozenset({"jur-name", "jur-idx", "address-name", "address-idx", "court-name"})
#: Labels whose spans must hold a place's name, a number or a placeholder: ``市町村``,
#: ``都道府県`` locate no one
PLACE_LABELS = frozenset({"address-name"})
#: Labels whose spans may not be one common word alone: an organisation's name may be made
#: of common words (``ネクストモバイル``, ``言論ひろば``), but a single one is a thing or a
#: trade (``新株``, ``パチスロ``, ``球団``, ``くろまぐろ``), unless the text confirms it
ORGANISATION_LABELS = frozenset({"jur-name", "jur-idx"})
_DIGIT = re.compile(r"[0-9０-９]")
#: What a court writes instead of a name: Latin and Greek letters of either width, marks,
#: and the characters of ``甲``-style placeholders
PLACEHOLDER = re.compile(r"[A-Za-zＡ-Ｚａ-ｚ\u0370-\u03ff○〇●◯×＊*※□■△▲]|^[甲乙丙丁戊]$")
_KANA = re.compile(r"^[\u3040-\u30ff]$")
#: Parts of speech of words that are never a name by themselves
_NEVER_NAME = frozenset(
    {"助詞", "助動詞", "動詞", "形容詞", "形状詞", "副詞", "接続詞", "連体詞", "感動詞"}
    | {"補助記号", "記号", "接頭辞", "接尾辞", "接頭詞", "空白", "フィラー"}
)
#: Sub-classes of nouns that are common words (Sudachi's and IPADIC's names)
_COMMON_NOUNS = frozenset(
    {"普通名詞", "数詞", "代名詞", "一般", "数", "副詞可能", "サ変接続", "形容動詞語幹"}
    | {"接尾", "非自立", "ナイ形容詞語幹", "特殊", "動詞非自立的"}
)
_QUOTES_OPEN, _QUOTES_CLOSE = ("「", "『", "“"), ("」", "』", "”")
_ROLES = tuple(sorted({*PERSON_ROLES_JA, *LEGAL_ROLES_JA}, key=len, reverse=True))
#: Sudachi reads at most about 49 KB at once; texts are cut at line or sentence ends below that
_CHUNK = 8000


@dataclass(frozen=True, slots=True)
class Word:
    """One word of the analyzer: character offsets and whether it may be (part of) a name."""

    start: int
    end: int
    name_like: bool


def _name_like(pos: Sequence[str], unknown: bool) -> bool:
    """A proper noun, or a word the dictionary does not know (rare and invented names)."""
    if not pos or pos[0] in _NEVER_NAME or (len(pos) > 1 and pos[1] in ("数詞", "数")):
        return False  # Sudachi calls joined numerals unknown words: they are numbers
    if unknown:
        return True
    noun_class = pos[1] if pos[0] == "名詞" and len(pos) > 1 else None
    return noun_class == "固有名詞" or noun_class not in _COMMON_NOUNS


def _chunks(text: str) -> list[tuple[int, str]]:
    out, start = [], 0
    while start < len(text):
        end = min(len(text), start + _CHUNK)
        if end < len(text):
            cut = max(text.rfind(c, start, end) for c in "\n。")  # at a line's or a sentence's end
            end = cut + 1 if cut > start else end
        out.append((start, text[start:end]))
        start = end
    return out


@lru_cache(maxsize=2)
def _sudachi():
    try:
        from sudachipy import Dictionary
    except ImportError as err:  # pragma: no cover - a dependency of the package
        raise ImportError(
            "Japanese word checks need SudachiPy: pip install sudachipy sudachidict-core"
        ) from err
    return Dictionary(dict="core").tokenizer()


@lru_cache(maxsize=2)
def _janome():
    try:
        from janome.tokenizer import Tokenizer
    except ImportError as err:
        raise ImportError("the janome analyzer needs Janome: pip install janome") from err
    return Tokenizer()


def analyze(text: str, analyzer: str = "sudachi") -> list[Word]:
    """The words of ``text`` by ``analyzer`` (one of :data:`ANALYZERS`), with char offsets.

    A PDF's line ends fall inside words (``ファウル\nボール``, ``ジェ\nンダー``); the analyzer
    reads the text without them, as a reader does, and a word's offsets are mapped back, so
    that a word may hold a line end. The words of the last texts are remembered: decoding
    reads them twice (:func:`drop_fragments`, :func:`word_boundaries`), and calibration
    decodes one text at many thresholds."""
    if analyzer not in ANALYZERS:
        raise ValueError(f"unknown Japanese analyzer {analyzer!r}: one of {ANALYZERS}")
    return list(_words_read_through(text, analyzer))


@lru_cache(maxsize=64)
def _words_read_through(text: str, analyzer: str) -> tuple[Word, ...]:
    view, kept = without_line_ends(text)
    if len(kept) == len(text):
        return tuple(_analyze(text, analyzer))
    return tuple(
        Word(kept[w.start], kept[w.end - 1] + 1, w.name_like)
        for w in _analyze(view, analyzer)
        if w.end > w.start
    )


def _analyze(text: str, analyzer: str) -> list[Word]:
    words: list[Word] = []
    for offset, chunk in _chunks(text):
        if analyzer == "sudachi":
            from sudachipy import SplitMode

            for m in _sudachi().tokenize(chunk, SplitMode.C):
                words.append(
                    Word(
                        offset + m.begin(),
                        offset + m.end(),
                        _name_like(m.part_of_speech(), m.is_oov()),
                    )
                )
        else:
            position = offset
            for token in _janome().tokenize(chunk):
                pos = token.part_of_speech.split(",")
                unknown = getattr(token, "node_type", "") == "UNKNOWN"
                end = position + len(token.surface)
                words.append(Word(position, end, _name_like(pos, unknown)))
                position = end
    return words


def word_boundaries(text: str, analyzer: str = "sudachi") -> frozenset[int]:
    """The offsets where the analyzer puts the edge of a word (start or end)."""
    return frozenset(x for w in analyze(text, analyzer) for x in (w.start, w.end))


def _confirmed(text: str, span: Span, names: set[str]) -> bool:
    """A role before, an honorific after, quotation marks around (a shop's or a club's
    name: ``「とり松」``), or the same characters inside another name."""
    before = text[max(0, span.start - 8) : span.start].rstrip(" \u3000")
    after = text[span.end : span.end + 3]
    surface = text[span.start : span.end]
    return (
        (before.endswith(_QUOTES_OPEN) and after.startswith(_QUOTES_CLOSE))
        or before.endswith(_ROLES)
        or after.startswith(SUFFIXES_JA)
        or any(surface in name and surface != name for name in names)
    )


def _words_over(
    words: Sequence[Word], starts: Sequence[int], start: int, end: int
) -> Sequence[Word]:
    """The words that overlap ``start:end`` (a bisect slice of the sorted words)."""
    first = max(0, bisect_right(starts, start) - 1)
    if first < len(words) and words[first].end <= start:
        first += 1
    return words[first : bisect_left(starts, end)]


def _on_words(
    text: str, span: Span, words: Sequence[Word], starts: Sequence[int], names: set[str]
) -> Span | None:
    """An organisation's, place's or court's span on whole words, or ``None``: an edge
    inside a word moves to the word's edge where the span holds a name (``白山中央`` →
    ``白山中央病院``, ``ル`` → ``ミクル``), and a span with no name in it that cuts a word
    is a fragment (``あ`` of ``あん摩``); a place needs a name, a number or a confirmation,
    and so does an organisation of one common word (``新株``)."""
    inner = _words_over(words, starts, span.start, span.end)
    if not inner:
        return span
    named = any(w.name_like for w in inner)
    cut = inner[0].start < span.start or inner[-1].end > span.end
    if cut and not named:
        return None
    grown = Span(
        min(span.start, inner[0].start),
        max(span.end, inner[-1].end),
        span.label,
        span.risk,
        span.score,
    )
    surface = text[grown.start : grown.end]
    if _DIGIT.search(surface) or named:
        return grown
    if span.label in PLACE_LABELS:
        return grown if _confirmed(text, span, names) else None
    if span.label in ORGANISATION_LABELS and len(inner) == 1:
        confirmed = _confirmed(text, span, names) or _with_legal_form(text, surface)
        return grown if confirmed else None
    return grown


def _with_legal_form(text: str, name: str) -> bool:
    """Whether the text writes ``name`` with a legal form anywhere (``株式会社マーベラス``,
    ``マーベラス株式会社``): then it is a company's name in every mention, though a
    common word (``マーベラス``, ``ひまわり``) by itself."""
    if not name.strip():
        return False
    name, form = re.escape(name), LEGAL_FORM_PATTERN
    found = re.search(f"(?:{form})[ \u3000]*{name}|{name}[ \u3000]*(?:{form})", text)
    return found is not None


def _name_edges(span: Span, first: Word | None, last: Word | None) -> tuple[int, int]:
    """A name span's edges on words: an edge inside a proper or unknown word moves out to
    the word's edge (``太郎`` of ``桂太郎``); an edge inside a common word moves in past it,
    because the model ran one character too far (``外山本誠一`` of ``訴外山本誠一``, where
    ``訴外`` is a word). A span inside one common word comes out empty (``上不`` of
    ``上不正``)."""
    start, end = span.start, span.end
    if first is not None and first.start < start:
        start = first.start if first.name_like else first.end
    if last is not None and last.end > end:
        end = last.end if last.name_like else last.start
    return start, end


def _confirming_names(
    text: str,
    checked: Sequence[Span],
    settled: Callable[[Span], tuple[int, int] | None],
) -> set[str]:
    """The names that confirm a shorter one inside them (``森一郎`` … ``森``), as they stand
    after their edges: ``外`` is no name because the model also marked ``外久保田洋子``
    (``訴外`` is a word); only ``久保田洋子``, what is left of it, confirms."""
    return {text[e[0] : e[1]] for s in checked if (e := settled(s)) is not None}


def drop_fragments(text: str, spans: Sequence[Span], analyzer: str = "sudachi") -> list[Span]:
    """``spans`` without the name spans that are no word of a name (see the module doc),
    and without the spans of organisations, places and courts whose edges cut a common
    word or whose place is a common noun (:data:`EDGE_LABELS`, :data:`PLACE_LABELS`); the
    other labels pass unchanged. Offsets stay in ``text``'s characters."""
    checked = [s for s in spans if s.label in CHECKED_LABELS]
    if not checked and not any(s.label in EDGE_LABELS for s in spans):
        return list(spans)
    words = analyze(text, analyzer)
    starts = [w.start for w in words]

    def word_at(position: int) -> Word | None:
        i = bisect_right(starts, position) - 1
        return (
            words[i] if 0 <= i < len(words) and words[i].start <= position < words[i].end else None
        )

    def settled(span: Span) -> tuple[int, int] | None:
        """The name's edges on words, or ``None`` where no word of a name is left."""
        start, end = _name_edges(span, word_at(span.start), word_at(span.end - 1))
        if start < end and any(w.name_like for w in _words_over(words, starts, start, end)):
            return start, end
        return None

    names = _confirming_names(text, checked, settled)
    out: list[Span] = []
    for span in spans:
        surface = text[span.start : span.end]
        if PLACEHOLDER.search(surface) or span.label not in CHECKED_LABELS | EDGE_LABELS:
            out.append(span)
            continue
        if span.label in EDGE_LABELS:
            on_words = _on_words(text, span, words, starts, names)
            if on_words is not None:
                out.append(on_words)
            continue
        if _KANA.match(surface):
            continue  # a single kana is never a name
        edges = settled(span)
        if edges is not None:
            out.append(Span(*edges, span.label, span.risk, span.score))
        elif _confirmed(text, span, names):
            out.append(span)
    return merge_overlapping(out)
