"""Token alignment: character spans ↔ per-token tags, and documents ↔ model windows.

Data flows one way through here: a document's character spans become per-token BIO
tags, label ids and risk ids over the whole document; the document's tokens are cut
into overlapping windows that fit the model (cut at paragraph, line or sentence
boundaries where possible, seed 000 section 5.3.1); per-token probabilities from the
windows are averaged back onto the document's tokens and turned into character spans.
Nothing is truncated silently: every token of a document lies in at least one window.

All offsets are characters of the original text; all lengths of windows are tokens.
The hot paths are numpy-vectorised: Python loops run per window or per span, never per
token.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from hf_anon.text.data import Document, Span
from hf_anon.text.labels import BIO_TAGS, DEFAULT_LABELS, LabelSet

#: Ignored by the losses of PyTorch (positions without a target).
IGNORE_INDEX = -100
TAG_O, TAG_B, TAG_I = (BIO_TAGS.index(t) for t in ("O", "B", "I"))

# How good a place the gap before a token is for cutting a window (higher is better).
CUT_INSIDE_WORD, CUT_WORD, CUT_SENTENCE, CUT_LINE, CUT_PARAGRAPH = range(5)
_BOUNDARIES = (
    (re.compile(r"\s+"), CUT_WORD),
    (re.compile(r"[.!?:;][\"'»“”)\]]*\s+(?=[A-ZÄÖÜ„\"(\[])"), CUT_SENTENCE),
    (re.compile(r"\n"), CUT_LINE),
    (re.compile(r"\n[^\S\n]*\n"), CUT_PARAGRAPH),
)


@dataclass
class Window:
    """One model input: the document tokens ``[token_start, token_end)`` plus specials.

    ``content_offset`` is the position of the first document token in ``input_ids``.
    The target arrays are aligned with ``input_ids``; special tokens get
    :data:`IGNORE_INDEX`.
    """

    input_ids: list[int]
    token_start: int
    token_end: int
    content_offset: int
    span_tags: list[int]
    label_ids: list[int]
    risk_ids: list[int]


@dataclass
class EncodedDocument:
    """A document's tokens (character ``offsets``, shape ``(n, 2)``) and its windows."""

    doc_id: str
    text: str
    offsets: np.ndarray
    windows: list[Window] = field(default_factory=list)

    @property
    def num_tokens(self) -> int:
        return len(self.offsets)


@lru_cache(maxsize=16)
def _special_layout(tokenizer) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The special token ids a tokenizer puts before and after a single sequence."""
    enc = tokenizer("x", add_special_tokens=True, return_special_tokens_mask=True)
    ids, mask = enc["input_ids"], enc["special_tokens_mask"]
    content = [i for i, m in enumerate(mask) if not m]
    if not content or content != list(range(content[0], content[-1] + 1)):
        raise ValueError(f"cannot find where content goes between special tokens: {ids}")
    return tuple(ids[: content[0]]), tuple(ids[content[-1] + 1 :])


def _check_fast(tokenizer) -> None:
    if not getattr(tokenizer, "is_fast", False):
        raise TypeError(
            f"{type(tokenizer).__name__} is not a fast tokenizer; character offsets need "
            "one (load it with AutoTokenizer.from_pretrained(..., use_fast=True))"
        )


def cut_scores(text: str, offsets: np.ndarray) -> np.ndarray:
    """For each token, how good a window boundary the gap before it is (``CUT_*``)."""
    n = len(offsets)
    scores = np.zeros(n, dtype=np.int8)
    if n < 2:
        return scores
    scores[1:] = np.where(offsets[1:, 0] > offsets[:-1, 1], CUT_WORD, CUT_INSIDE_WORD)
    token_starts = offsets[:, 0]
    for pattern, score in _BOUNDARIES:
        ends = np.fromiter((m.end() for m in pattern.finditer(text)), dtype=np.int64)
        if ends.size:
            # A boundary ending at character e cuts before the first token starting at
            # or after e - 1 (Metaspace tokens start on the whitespace they replace).
            idx = np.searchsorted(token_starts, ends - 1, side="left")
            idx = idx[(idx > 0) & (idx < n)]
            np.maximum.at(scores, idx, score)
    return scores


def window_capacity(tokenizer, max_length: int) -> int:
    """The tokens of text a window of ``max_length`` tokens holds: its special tokens take
    the rest."""
    prefix, suffix = _special_layout(tokenizer)
    return max_length - len(prefix) - len(suffix)


def check_windows(capacity: int, stride: int) -> None:
    """Refuse windows :func:`plan_windows` cannot plan: none holds a token, or consecutive
    ones would overlap by more than half a window."""
    if capacity < 1:
        raise ValueError(f"a window must hold at least one token, got capacity {capacity}")
    if not 0 <= stride <= capacity // 2:
        raise ValueError(f"stride must be between 0 and {capacity // 2} tokens, got {stride}")


def plan_windows(scores: np.ndarray, capacity: int, stride: int) -> list[tuple[int, int]]:
    """Token ranges ``[start, end)`` of at most ``capacity`` tokens covering all tokens.

    A window ends at the best-scored cut in its second half (the latest among equals);
    the next one starts at the best-scored cut within ``stride`` tokens before that end
    (the earliest among equals), so consecutive windows overlap by up to ``stride``
    tokens of context.
    """
    check_windows(capacity, stride)
    n = len(scores)
    windows: list[tuple[int, int]] = []
    start = 0
    while start < n:
        if n - start <= capacity:
            windows.append((start, n))
            break
        lo, hi = start + capacity // 2 + 1, start + capacity
        region = scores[lo : hi + 1]
        end = lo + (len(region) - 1 - int(np.argmax(region[::-1])))
        if region.max() == CUT_INSIDE_WORD:
            end = hi
        windows.append((start, end))
        if stride:
            back = scores[end - stride : end + 1]
            start = end - stride + int(np.argmax(back))
        else:
            start = end
    return windows


def spans_to_token_tags(
    offsets: np.ndarray, spans: Sequence[Span], labels: LabelSet = DEFAULT_LABELS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-token BIO tags, label ids and risk ids for a document's spans.

    A token belongs to a span when their character ranges overlap; the first such token
    is ``B``. Tokens outside spans get tag ``O`` and :data:`IGNORE_INDEX` as label and
    risk id. Spans without a risk take their label's usual risk; spans whose label is not
    in the set (``unknown`` placeholders) are tagged but get no label or risk target.
    """
    n = len(offsets)
    tags = np.full(n, TAG_O, dtype=np.int64)
    label_ids = np.full(n, IGNORE_INDEX, dtype=np.int64)
    risk_ids = np.full(n, IGNORE_INDEX, dtype=np.int64)
    if not spans or not n:
        return tags, label_ids, risk_ids
    token_starts, token_ends = offsets[:, 0], offsets[:, 1]
    for span in spans:
        first = int(np.searchsorted(token_ends, span.start, side="right"))
        last = int(np.searchsorted(token_starts, span.end, side="left"))
        if first >= last:
            continue  # the span lies inside a gap between tokens: nothing to tag
        tags[first] = TAG_B
        tags[first + 1 : last] = TAG_I
        if span.label not in labels:
            continue  # e.g. a placeholder of unknown label: a span, but no category target
        label_ids[first:last] = labels.label_id(span.label)
        risk = span.risk if span.risk is not None else labels[span.label].risk
        risk_ids[first:last] = labels.risk_id(risk)
    return tags, label_ids, risk_ids


def encode_documents(
    documents: Sequence[Document],
    tokenizer,
    labels: LabelSet = DEFAULT_LABELS,
    *,
    max_length: int = 512,
    stride: int = 64,
) -> list[EncodedDocument]:
    """Tokenize documents (one batched call) and cut them into windows with targets.

    ``max_length`` counts special tokens; ``stride`` is the overlap in tokens between
    consecutive windows of a document.
    """
    _check_fast(tokenizer)
    prefix, suffix = _special_layout(tokenizer)
    capacity = window_capacity(tokenizer, max_length)
    texts = [doc.text for doc in documents]
    batch = tokenizer(texts, add_special_tokens=False, return_offsets_mapping=True, verbose=False)
    encoded = []
    for doc, ids, offsets in zip(
        documents, batch["input_ids"], batch["offset_mapping"], strict=True
    ):
        offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
        ids = np.asarray(ids, dtype=np.int64)
        tags, label_ids, risk_ids = spans_to_token_tags(offsets, doc.spans, labels)
        out = EncodedDocument(doc.id, doc.text, offsets)
        pad_front = [IGNORE_INDEX] * len(prefix)
        pad_back = [IGNORE_INDEX] * len(suffix)
        for start, end in plan_windows(cut_scores(doc.text, offsets), capacity, stride):
            out.windows.append(
                Window(
                    input_ids=[*prefix, *ids[start:end].tolist(), *suffix],
                    token_start=start,
                    token_end=end,
                    content_offset=len(prefix),
                    span_tags=pad_front + tags[start:end].tolist() + pad_back,
                    label_ids=pad_front + label_ids[start:end].tolist() + pad_back,
                    risk_ids=pad_front + risk_ids[start:end].tolist() + pad_back,
                )
            )
        encoded.append(out)
    return encoded


def encode_document(
    document: Document,
    tokenizer,
    labels: LabelSet = DEFAULT_LABELS,
    *,
    max_length: int = 512,
    stride: int = 64,
) -> EncodedDocument:
    return encode_documents([document], tokenizer, labels, max_length=max_length, stride=stride)[0]


def merge_windows(encoded: EncodedDocument, window_probs: Sequence[np.ndarray]) -> np.ndarray:
    """Average per-window probabilities back onto the document's tokens.

    ``window_probs[k]`` has one row per position of ``encoded.windows[k].input_ids``
    (padding beyond it is ignored). Returns shape ``(num_tokens, C)``.
    """
    if len(window_probs) != len(encoded.windows):
        raise ValueError(
            f"document {encoded.doc_id!r}: {len(window_probs)} window outputs for "
            f"{len(encoded.windows)} windows"
        )
    if not window_probs:
        return np.zeros((encoded.num_tokens, 0), dtype=np.float32)
    width = window_probs[0].shape[-1]
    total = np.zeros((encoded.num_tokens, width), dtype=np.float64)
    count = np.zeros(encoded.num_tokens, dtype=np.int64)
    for window, probs in zip(encoded.windows, window_probs, strict=True):
        length = window.token_end - window.token_start
        rows = np.asarray(probs)[window.content_offset : window.content_offset + length]
        if len(rows) != length:
            raise ValueError(
                f"document {encoded.doc_id!r}: window output has {len(rows)} content rows, "
                f"expected {length}"
            )
        total[window.token_start : window.token_end] += rows
        count[window.token_start : window.token_end] += 1
    if (count == 0).any():
        raise ValueError(f"document {encoded.doc_id!r}: some tokens lie in no window")
    return total / count[:, None]


def decode_spans(
    text: str,
    offsets: np.ndarray,
    tag_probs: np.ndarray,
    label_probs: np.ndarray,
    risk_probs: np.ndarray,
    labels: LabelSet = DEFAULT_LABELS,
    *,
    threshold: float | None = None,
) -> list[Span]:
    """Per-token probabilities of one document → character spans.

    A token is inside a span when its BIO argmax is not ``O`` or, with ``threshold``,
    when ``1 - P(O) >= threshold`` (lower thresholds favour recall). A span starts at a
    token inside after one outside, or at a token whose ``P(B) > P(I)``. Its label and
    risk are the argmax of the mean probabilities over its tokens, its score the mean of
    ``1 - P(O)``. Spans are trimmed of whitespace and never overlap.
    """
    n = len(offsets)
    if n == 0:
        return []
    tag_probs = np.asarray(tag_probs)
    if threshold is None:
        inside = tag_probs.argmax(axis=1) != TAG_O
    else:
        inside = (1.0 - tag_probs[:, TAG_O]) >= threshold
    prev_inside = np.concatenate(([False], inside[:-1]))
    begins = inside & (~prev_inside | (tag_probs[:, TAG_B] > tag_probs[:, TAG_I]))
    first = np.flatnonzero(begins)
    if not first.size:
        return []
    stops = np.append(np.flatnonzero(~inside | begins), n)
    last = stops[np.searchsorted(stops, first, side="right")]  # exclusive
    lengths = (last - first)[:, None]

    def span_means(probs: np.ndarray) -> np.ndarray:
        cumulative = np.vstack([np.zeros((1, probs.shape[1])), np.cumsum(probs, axis=0)])
        return (cumulative[last] - cumulative[first]) / lengths

    # Label and risk weighted by how sure the model is that a token is inside: at a low
    # threshold, weak tokens at a span's edge (`wohnt in` after `Hans Müller`, read as a
    # feature) must not outvote the name itself.
    inside_probs = 1.0 - tag_probs[:, TAG_O : TAG_O + 1]
    label_choice = span_means(np.asarray(label_probs) * inside_probs).argmax(axis=1)
    risk_choice = span_means(np.asarray(risk_probs) * inside_probs).argmax(axis=1)
    scores = span_means(inside_probs)[:, 0]
    spans: list[Span] = []
    previous_end = 0
    for i in range(len(first)):
        start, end = int(offsets[first[i], 0]), int(offsets[last[i] - 1, 1])
        start = max(start, previous_end)
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start >= end:
            continue
        spans.append(
            Span(
                start,
                end,
                labels.labels[int(label_choice[i])].name,
                labels.risks[int(risk_choice[i])],
                round(float(scores[i]), 6),
            )
        )
        previous_end = end
    return spans


#: Punctuation that may close or open a word without belonging to a span.
_LEADING_PUNCT = "\"'„“‚‘»«([{<"
_TRAILING_PUNCT = "\"'“”‘’«»)]}>,;:.!?"


_GLUED_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüß]|[a-zäöüß]{3}")


def _glued(text: str, at: int) -> bool:
    """Whether a number ends at ``at`` and a word begins there, with no space between:
    ``4Verwaltungsgericht Münster`` (a page number before a court),
    ``27.11.2009http://www…`` (a print date before a link). Not ``12a`` or ``3.OG``."""
    return 0 < at < len(text) and text[at - 1].isdigit() and _GLUED_WORD.match(text, at) is not None


def snap_to_words(text: str, spans: Sequence[Span], *, max_extend: int = 64) -> list[Span]:
    """Widen spans that end inside a word to the whole word, merging what then touches.

    Subword models sometimes tag part of a word (``2022`` of ``01.01.2022``, ``baugeno``
    of ``Wohnungsbaugenossenschaft``); publishing the rest of the word leaks it. A word is
    a run of non-whitespace characters, cut where a number runs into a word without a
    space (:func:`_glued`); punctuation added at its edges by the widening (``„``, ``,``,
    ``).``) stays outside. At most ``max_extend`` characters are added on
    each side. Spans that overlap after widening become one, with the label, risk and
    score of the longest original span among them (the highest score breaks ties).
    """
    widened: list[tuple[int, int, Span]] = []
    for span in sorted(spans, key=lambda s: s.start):
        start, end = span.start, span.end
        limit = max(0, start - max_extend)
        while start > limit and not text[start - 1].isspace() and not _glued(text, start):
            start -= 1
        while start < span.start and text[start] in _LEADING_PUNCT:
            start += 1
        limit = min(len(text), end + max_extend)
        while end < limit and not text[end].isspace() and not _glued(text, end):
            end += 1
        while end > span.end and text[end - 1] in _TRAILING_PUNCT:
            end -= 1
        widened.append((start, end, span))
    out: list[Span] = []
    group: list[tuple[int, int, Span]] = []

    def flush() -> None:
        start = min(g[0] for g in group)
        end = max(g[1] for g in group)
        best = max(group, key=lambda g: (g[2].end - g[2].start, g[2].score or 0.0))[2]
        score = max((g[2].score for g in group if g[2].score is not None), default=None)
        out.append(Span(start, end, best.label, best.risk, score))

    for item in widened:
        if group and item[0] < max(g[1] for g in group):
            group.append(item)
            continue
        if group:
            flush()
        group = [item]
    if group:
        flush()
    return out


#: Never the first or last character of a span (the annotation guidelines leave them out);
#: a final ``.`` is special (it ends abbreviations), see :func:`trim_punctuation`.
_NEVER_FIRST = _LEADING_PUNCT + ",;:.!?"
_NEVER_LAST = _TRAILING_PUNCT.replace(".", "")


def trim_punctuation(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans without the punctuation a model sometimes takes along (``Hauptstraße 21,``,
    ``TK-88 403 771)``); a final ``.`` goes only after a digit (``Nr. 7.``), as it ends
    abbreviations elsewhere (``Str.``). Spans of punctuation only are dropped."""
    out = []
    for span in spans:
        start, end = span.start, span.end
        while start < end and (text[start] in _NEVER_FIRST or text[start].isspace()):
            start += 1
        while end > start and (
            text[end - 1] in _NEVER_LAST
            or text[end - 1].isspace()
            or (text[end - 1] == "." and end - 2 >= start and text[end - 2].isdigit())
        ):
            end -= 1
        if start < end:
            out.append(Span(start, end, span.label, span.risk, span.score))
    return out


def one_hot(ids: Sequence[int], width: int) -> np.ndarray:
    """Probabilities that put all mass on ``ids`` (rows for ignored ids are uniform)."""
    ids = np.asarray(ids)
    out = np.full((len(ids), width), 1.0 / width)
    known = ids != IGNORE_INDEX
    out[known] = 0.0
    out[np.flatnonzero(known), ids[known]] = 1.0
    return out


def tags_to_spans(encoded: EncodedDocument, labels: LabelSet = DEFAULT_LABELS) -> list[Span]:
    """Decode a document's own window targets: gold spans → tags → spans.

    Shows the decoding path on known targets; for spans whose boundaries fall on token
    boundaries it gives back the gold spans (a property the tests check).
    """
    tag_probs = merge_windows(
        encoded, [one_hot(w.span_tags, len(BIO_TAGS)) for w in encoded.windows]
    )
    label_probs = merge_windows(
        encoded, [one_hot(w.label_ids, len(labels)) for w in encoded.windows]
    )
    risk_probs = merge_windows(
        encoded, [one_hot(w.risk_ids, len(labels.risks)) for w in encoded.windows]
    )
    return decode_spans(encoded.text, encoded.offsets, tag_probs, label_probs, risk_probs, labels)
