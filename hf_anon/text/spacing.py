"""Letter-spaced text read as words: ``M a r t i n  S c h u l z`` is ``Martin Schulz``.

Courts print headings and rubrums in Sperrsatz (``G r ü n d e``, ``g e g e n``), and PDF
extraction turns wide letter spacing into single letters with spaces between them. A
tokenizer reads ``M a r t i n`` as six one-letter words; the model has never seen a name
written so, and leaves it in clear. The model therefore reads a *collapsed* view, where
the spaces inside each letter-spaced word are gone (``Martin  Schulz``), and every
offset it returns is mapped back to the original text through an index, so the spans that
decoding, the recognizers and the operators see cover the original letters
(``M a r t i n``).

Unlike the case view (:func:`hf_anon.text.views.case_view`), this view is shorter than the text,
so it cannot keep offsets by itself: :func:`collapse_letter_spacing` returns the index with
it, and :func:`to_original` maps token offsets back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from hf_anon.text.data import Span

#: Three or more single letters, one space between each, not inside a longer word: a
#: letter-spaced word. Two spaces or more end it (the gap between letter-spaced words).
LETTER_SPACED = re.compile(r"(?<![^\W\d_])[^\W\d_](?: [^\W\d_]){2,}(?![^\W\d_])")


def letter_spaced_runs(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every letter-spaced word of ``text``."""
    return [m.span() for m in LETTER_SPACED.finditer(text)]


def collapse_letter_spacing(text: str) -> tuple[str, np.ndarray | None]:
    """The view without the spaces inside letter-spaced words, and ``index``: the original
    offset of each view character (``index[len(view)] == len(text)``). ``None`` when the
    text has no letter-spaced word (the view is then ``text`` itself)."""
    runs = letter_spaced_runs(text)
    if not runs:
        return text, None
    keep = np.ones(len(text), dtype=bool)
    for start, end in runs:
        keep[start + 1 : end : 2] = False  # the spaces between the letters
    return kept_characters(text, keep)


def kept_characters(text: str, keep: np.ndarray) -> tuple[str, np.ndarray]:
    """The view of ``text`` made of the characters ``keep`` marks, and ``index``: the
    original offset of each view character, then ``len(text)`` (what :func:`to_original`
    maps token offsets back through)."""
    index = np.flatnonzero(keep)
    view = "".join(text[i] for i in index)
    return view, np.append(index, len(text)).astype(np.int64)


def to_original(offsets: np.ndarray, index: np.ndarray | None) -> np.ndarray:
    """Token ``(start, end)`` offsets on the view → offsets on the original text: a start
    maps to its character, an end to just after the character before it (so a token over
    ``Martin`` covers ``M a r t i n``). Empty tokens stay empty."""
    if index is None:
        return offsets
    out = np.asarray(offsets, dtype=np.int64).copy()
    starts, ends = out[:, 0].copy(), out[:, 1].copy()
    nonempty = ends > starts
    out[:, 0] = index[starts]
    out[:, 1] = np.where(nonempty, index[np.maximum(ends - 1, 0)] + 1, index[starts])
    return out


def spans_to_view(spans: Sequence[Span], index: np.ndarray | None) -> list[Span]:
    """Spans of the original text → spans of the view: the inverse of :func:`to_original`
    for a training target. A span keeps the view characters whose original offset lies
    inside it (a line end the view removed from inside ``Ａ病院`` just drops out); a span left with
    no character is dropped."""
    if index is None:
        return list(spans)
    kept = np.asarray(index[:-1])
    out = []
    for span in spans:
        start = int(np.searchsorted(kept, span.start, side="left"))
        end = int(np.searchsorted(kept, span.end, side="left"))
        if end > start:
            out.append(replace(span, start=start, end=end))
    return out
