"""The views of a text that detection reads, each the same length as the text so that
every offset found on a view is an offset of the original: :func:`detection_view` (control
characters as spaces), :func:`case_view` (shouted lines in title case) and
:func:`model_view` (both)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from hf_anon.text.lexicon import is_all_caps

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


def model_view(text: str) -> str:
    """What the model reads: :func:`detection_view` then :func:`case_view` (same length).

    ``detect``, ``report`` and ``anonymize`` all read a text through this one function
    (:meth:`hf_anon.model.detection.SpanDetector.predict_probabilities`)."""
    return case_view(detection_view(text))
