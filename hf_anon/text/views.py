"""The views of a text that detection reads, and :class:`TextView`, which holds them.

:func:`detection_view` (control characters as spaces), :func:`case_view` (shouted lines in
title case) and :func:`model_view` (both) keep the text's length, so every offset found on
them is an offset of the original. The span model reads one more view, with letter-spaced
words closed up (:mod:`hf_anon.text.spacing`), whose offsets map back through an index.

A :class:`TextView` is built once where a text enters (:func:`read_text`: the
:class:`~hf_anon.apply.anonymize.Anonymizer`, ``SpanDetector.predict_probabilities``) and
handed down to the model, the decoder, the operators and the topic finder, so that every
stage reads the same text and none cleans it again.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from hf_anon.text.lexicon import is_all_caps
from hf_anon.text.spacing import collapse_letter_spacing, kept_characters

_LETTER_WORD = re.compile(r"[^\W\d_]{2,}")

#: Control characters (not tab, line feed, carriage return) → spaces, for detection only.
_CONTROL = {c: " " for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F]}


def detection_view(text: str) -> str:
    """The text that detectors, recognizers and operators read: control characters become
    spaces.

    Same length, so offsets are valid on the original. Tokenizers drop control
    characters, which would glue ``Hans\x00Müller`` into one unknown word, and a word
    snapped or trimmed on the raw text would run across them.
    """
    return text.translate(_CONTROL)


def _title_case(word: str) -> str:
    """``HUBER`` → ``Huber``, character for character (a letter whose lower case is longer,
    like ``İ``, stays as it is: offsets never move)."""
    rest = "".join(c.lower() if len(c.lower()) == 1 else c for c in word[1:])
    return word[0] + rest


def case_view(text: str) -> str:
    """``text`` with its shouted lines in title case, same length.

    Some courts print the rubrum in capitals (``HANS HUBER, BAHNHOFSTRASSE 12``); a model
    trained on normal case misses about half of those names. In a line where at least two
    words and at least half of the words are ALL CAPS, every ALL-CAPS word is read in title
    case (``Hans Huber, Bahnhofstrasse 12``). Every offset stays, so the spans found on the
    view are spans of the original. In a normal line, a run of two or more ALL-CAPS words
    that look like name parts (``an MICAEL MEADOWS abgetreten``, :func:`_caps_runs`) is a
    name written in capitals and read in title case too; acronyms and citations (``BGH``,
    ``IBAN DE87``, ``VW Golf``, ``VIII ZR 93/15``) stay.
    """
    chars: list[str] | None = None
    for line in re.finditer(r"[^\n]+", text):
        words = list(_LETTER_WORD.finditer(text, line.start(), line.end()))
        caps = [m for m in words if is_all_caps(m.group(0))]
        if len(caps) < 2:
            continue
        if 2 * len(caps) < len(words):
            caps = _caps_runs(text, words)
        chars = chars if chars is not None else list(text)
        for m in caps:
            chars[m.start() : m.end()] = _title_case(m.group(0))
    return text if chars is None else "".join(chars)


_ROMAN_NUMERAL = re.compile(r"[IVXLCDM]+")


def _name_like(word: str) -> bool:
    """An ALL-CAPS word that may be part of a name: three letters or more, no Roman numeral
    (``VIII ZR 93/15``, ``IBAN DE87`` are citations and identifiers)."""
    return len(word) >= 3 and not _ROMAN_NUMERAL.fullmatch(word)


def _caps_runs(text: str, words: Sequence[re.Match]) -> list[re.Match]:
    """The ALL-CAPS words of runs of two or more (only spaces or a hyphen between them),
    each of three letters or more and one of four, no Roman numerals: ``MICAEL
    MEADOWS``, ``HANS-PETER MÜLLER``; not ``VIII ZR``, ``BGH NJW``."""
    out: list[re.Match] = []
    run: list[re.Match] = []
    for m in [*words, None]:
        joined = (
            m is not None
            and is_all_caps(m.group(0))
            and (not run or text[run[-1].end() : m.start()] in (" ", "-"))
        )
        if joined:
            run.append(m)
            continue
        words_ = [w.group(0) for w in run]
        if len(run) >= 2 and all(map(_name_like, words_)) and max(map(len, words_)) >= 4:
            out += run
        run = [m] if m is not None and is_all_caps(m.group(0)) else []
    return out


def without_line_ends(text: str) -> tuple[str, list[int]]:
    """``text`` without its line ends, and the offset in ``text`` of each character left:
    a PDF breaks Japanese words and numbers at line ends (``ファウル\nボール``,
    ``特願２０１５－７７\n４６７号``), which a reader reads through."""
    index = [i for i, c in enumerate(text) if c != "\n"]
    return "".join(text[i] for i in index), index


#: A line that starts a heading or a list item (``第２``, ``（１）``, ``ア　``, ``主文``): the
#: line end before it is the end of a paragraph, not a wrap.
_HEADING = re.compile(
    r"[ 　]*(?:第[０-９0-9一二三四五六七八九十]+"
    r"|[（(][０-９0-9一二三四五六七八九十ア-ンａ-ｚ]+[）)]"
    r"|[０-９0-9]+[ 　．.]|[ア-ン][ 　]|[⑴-⒇①-⑳]|主\s*文|理\s*由|事\s*実|別\s*紙)"
)

#: A line shorter than this is a line of its own (a heading, a rubrum line), never a wrap.
WRAP_MIN_LINE = 15


def wrapped_line_ends(text: str) -> list[int]:
    """The offsets of the line ends a PDF's wrapping made: after a line of at least
    :data:`WRAP_MIN_LINE` characters that does not end a sentence (``。``), before a line
    that is not empty and starts no heading. A published Japanese decision breaks words,
    names and numbers at these (``チー・リ⏎ン``, ``と⏎びうお``), which a reader reads
    through and a tokenizer reads as a word boundary."""
    ends = []
    lines = text.split("\n")
    position = 0
    for line, following in itertools.pairwise(lines):
        position += len(line)
        if (
            len(line.strip()) >= WRAP_MIN_LINE
            and not line.rstrip().endswith("。")
            and following.strip()
            and not _HEADING.match(following)
        ):
            ends.append(position)
        position += 1
    return ends


def without_wrapped_line_ends(text: str) -> tuple[str, np.ndarray | None]:
    """The text without :func:`wrapped_line_ends`, and ``index``: the original offset of each
    character of it (``index[len(view)] == len(text)``, as
    :func:`~hf_anon.text.spacing.collapse_letter_spacing` gives); ``None`` when there is no
    wrapped line (the view is then ``text`` itself)."""
    ends = wrapped_line_ends(text)
    if not ends:
        return text, None
    keep = np.ones(len(text), dtype=bool)
    keep[ends] = False
    return kept_characters(text, keep)


def model_view(text: str) -> str:
    """What the model reads: :func:`detection_view` then :func:`case_view` (same length).

    ``detect``, ``report`` and ``anonymize`` all read a text through this one function
    (:meth:`hf_anon.model.detection.SpanDetector.predict_probabilities`)."""
    return case_view(detection_view(text))


@dataclass(frozen=True, eq=False)
class TextView:
    """One text as hf-anon reads it; each view is computed once, when first asked for.

    ``original``: the text as given, into which replacements go. ``language``: how the
    span model reads it (German closes up letter-spaced words and reads shouted lines in
    title case; Japanese reads the detection view as it is, or, with ``unwrap_lines``
    (a model trained so: ``config.unwrap_lines``), without the line ends of a PDF's
    wrapping, :func:`without_wrapped_line_ends`).
    """

    original: str
    language: str = "de"
    unwrap_lines: bool = False

    def __post_init__(self):
        if not isinstance(self.original, str):
            raise TypeError(f"text must be a string, got {type(self.original).__name__}")

    @cached_property
    def detection(self) -> str:
        """:func:`detection_view`: what decoding, the recognizers, the operators and the
        topic finder read (same offsets as the original)."""
        return detection_view(self.original)

    @cached_property
    def _model(self) -> tuple[str, np.ndarray | None]:
        if self.language != "de":
            if self.unwrap_lines:
                return without_wrapped_line_ends(self.detection)
            return self.detection, None
        # letter-spaced words closed up first, so that capitals are words for the case
        # view (same length as the closed-up text: the index holds)
        closed, index = collapse_letter_spacing(self.detection)
        return case_view(closed), index

    @property
    def model(self) -> str:
        """What the span model reads (may be shorter than the original:
        :attr:`model_index` maps its offsets back)."""
        return self._model[0]

    @property
    def model_index(self) -> np.ndarray | None:
        """The original offset of each character of :attr:`model`
        (:func:`~hf_anon.text.spacing.to_original`); None when the offsets are the same."""
        return self._model[1]


def read_text(text: str | TextView, language: str = "de", unwrap_lines: bool = False) -> TextView:
    """The :class:`TextView` of ``text``: itself when it is one already, read the same way
    (so a view built where the text entered is reused, not recomputed)."""
    if isinstance(text, TextView):
        if text.language == language and text.unwrap_lines == unwrap_lines:
            return text
        text = text.original
    return TextView(text, language, unwrap_lines)
