"""The model-only decoding of the ``anonymization`` pipeline, in the standard library alone:
what the model reads, the windows, the spans from the token scores, and replacement
without hf-anon.

Each function is the counterpart of one in hf-anon (named in the section headings), kept
small and without hf-anon's rules, so that a model folder runs where only torch and
transformers are installed. In a model folder this file sits beside ``pipeline.py``, which
imports it (transformers copies it with the remote code); it is a copy of
``hf_anon/distribution/pipeline_decoding.py`` (``hf-anon remote-code``).
"""

from __future__ import annotations

import bisect
import itertools
import re

TAG_O, TAG_B, TAG_I = 0, 1, 2
#: The mask of ``mode="redact"`` (hf-anon's).
REDACT_MASK = "[…]"

# --- what the model reads (hf_anon.text.views.model_view) -------------------------------------

_CONTROL = {c: " " for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F]}
_LETTER_WORD = re.compile(r"[^\W\d_]{2,}")
_ROMAN_NUMERAL = re.compile(r"[IVXLCDM]+")


def detection_view(text: str) -> str:
    """Control characters (not tab, line feed, carriage return) as spaces; same length."""
    return text.translate(_CONTROL)


def _is_all_caps(word: str) -> bool:
    return word.replace("ß", "").isupper()


def _title_case(word: str) -> str:
    return word[0] + "".join(c.lower() if len(c.lower()) == 1 else c for c in word[1:])


def _name_like(word: str) -> bool:
    return len(word) >= 3 and not _ROMAN_NUMERAL.fullmatch(word)


def _caps_runs(text: str, words: list) -> list:
    out: list = []
    run: list = []
    for m in [*words, None]:
        joined = (
            m is not None
            and _is_all_caps(m.group(0))
            and (not run or text[run[-1].end() : m.start()] in (" ", "-"))
        )
        if joined:
            run.append(m)
            continue
        run_words = [w.group(0) for w in run]
        if len(run) >= 2 and all(map(_name_like, run_words)) and max(map(len, run_words)) >= 4:
            out += run
        run = [m] if m is not None and _is_all_caps(m.group(0)) else []
    return out


def case_view(text: str) -> str:
    """Shouted lines (at least two words and half the words ALL CAPS) and runs of
    name-like ALL-CAPS words in title case; same length."""
    chars: list[str] | None = None
    for line in re.finditer(r"[^\n]+", text):
        words = list(_LETTER_WORD.finditer(text, line.start(), line.end()))
        caps = [m for m in words if _is_all_caps(m.group(0))]
        if len(caps) < 2:
            continue
        if 2 * len(caps) < len(words):
            caps = _caps_runs(text, words)
        chars = chars if chars is not None else list(text)
        for m in caps:
            chars[m.start() : m.end()] = _title_case(m.group(0))
    return text if chars is None else "".join(chars)


def model_view(text: str) -> str:
    return case_view(detection_view(text))


# --- a PDF's wrapping (hf_anon.text.views.without_wrapped_line_ends) ---------------------------

_HEADING = re.compile(
    r"[ 　]*(?:第[０-９0-9一二三四五六七八九十]+"
    r"|[（(][０-９0-9一二三四五六七八九十ア-ンａ-ｚ]+[）)]"
    r"|[０-９0-9]+[ 　．.]|[ア-ン][ 　]|[⑴-⒇①-⑳]|主\s*文|理\s*由|事\s*実|別\s*紙)"
)
WRAP_MIN_LINE = 15


def unwrapped(text: str) -> tuple[str, list[int]]:
    """The text without the line ends of a PDF's wrapping (after a line of at least
    ``WRAP_MIN_LINE`` characters that ends no sentence, before a line that is not empty and
    starts no heading), and the original offset of each character kept (then ``len(text)``):
    what a model trained with ``unwrap_lines`` reads."""
    lines = text.split("\n")
    dropped = set()
    position = 0
    for line, following in itertools.pairwise(lines):
        position += len(line)
        if (
            len(line.strip()) >= WRAP_MIN_LINE
            and not line.rstrip().endswith("。")
            and following.strip()
            and not _HEADING.match(following)
        ):
            dropped.add(position)
        position += 1
    index = [i for i in range(len(text)) if i not in dropped]
    return "".join(text[i] for i in index), [*index, len(text)]


def to_original(offsets: list[tuple[int, int]], index: list[int]) -> list[tuple[int, int]]:
    """Token offsets on :func:`unwrapped`'s view → offsets on the original text (an end just
    after the character before it, so a token over a dropped line end covers it)."""
    return [(index[a], index[b - 1] + 1 if b > a else index[a]) for a, b in offsets]


# --- windows (hf_anon.model.alignment) ----------------------------------------------------------

CUT_INSIDE_WORD, CUT_WORD, CUT_SENTENCE, CUT_LINE, CUT_PARAGRAPH = range(5)
_BOUNDARIES = (
    (re.compile(r"\s+"), CUT_WORD),
    (re.compile(r"[.!?:;][\"'»“”)\]]*\s+(?=[A-ZÄÖÜ„\"(\[])"), CUT_SENTENCE),
    (re.compile(r"\n"), CUT_LINE),
    (re.compile(r"\n[^\S\n]*\n"), CUT_PARAGRAPH),
)


def special_layout(tokenizer) -> tuple[list[int], list[int]]:
    """The special token ids a tokenizer puts before and after a single sequence."""
    enc = tokenizer("x", add_special_tokens=True, return_special_tokens_mask=True)
    ids, mask = enc["input_ids"], enc["special_tokens_mask"]
    content = [i for i, m in enumerate(mask) if not m]
    if not content or content != list(range(content[0], content[-1] + 1)):
        raise ValueError(f"cannot find where content goes between special tokens: {ids}")
    return list(ids[: content[0]]), list(ids[content[-1] + 1 :])


def cut_scores(text: str, offsets: list[tuple[int, int]]) -> list[int]:
    """For each token, how good a window boundary the gap before it is (``CUT_*``)."""
    n = len(offsets)
    scores = [CUT_INSIDE_WORD] * n
    if n < 2:
        return scores
    for i in range(1, n):
        scores[i] = CUT_WORD if offsets[i][0] > offsets[i - 1][1] else CUT_INSIDE_WORD
    starts = [start for start, _ in offsets]
    for pattern, score in _BOUNDARIES:
        for m in pattern.finditer(text):
            # a boundary ending at e cuts before the first token starting at or after e - 1
            i = bisect.bisect_left(starts, m.end() - 1)
            if 0 < i < n and scores[i] < score:
                scores[i] = score
    return scores


def plan_windows(scores: list[int], capacity: int, stride: int) -> list[tuple[int, int]]:
    """Token ranges ``[start, end)`` of at most ``capacity`` tokens covering all tokens,
    each ending at the best cut of its second half, the next starting at the best cut
    within ``stride`` tokens before that end."""
    if capacity < 1:
        raise ValueError(f"a window must hold at least one token, got capacity {capacity}")
    if not 0 <= stride <= capacity // 2:
        raise ValueError(f"stride must be between 0 and {capacity // 2} tokens, got {stride}")
    n = len(scores)
    windows: list[tuple[int, int]] = []
    start = 0
    while start < n:
        if n - start <= capacity:
            windows.append((start, n))
            break
        lo, hi = start + capacity // 2 + 1, start + capacity
        region = scores[lo : hi + 1]
        best = max(region)
        end = (
            hi
            if best == CUT_INSIDE_WORD
            else lo + max(i for i, s in enumerate(region) if s == best)
        )
        windows.append((start, end))
        if stride:
            back = scores[end - stride : end + 1]
            start = end - stride + back.index(max(back))
        else:
            start = end
    return windows


# --- decoding (hf_anon.model.alignment.decode_spans, snap_to_words, trim_punctuation) ----------

_LEADING_PUNCT = "\"'„“‚‘»«([{<"
_TRAILING_PUNCT = "\"'“”‘’«»)]}>,;:.!?"
_NEVER_FIRST = _LEADING_PUNCT + ",;:.!?"
_NEVER_LAST = _TRAILING_PUNCT.replace(".", "")
_GLUED_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüß]|[a-zäöüß]{3}")


def _argmax(row: list[float]) -> int:
    return row.index(max(row))


def _cumulative(rows: list[list[float]], weights: list[float]) -> list[list[float]]:
    """Running sums of ``rows`` (each times its weight), a row of zeros first."""
    width = len(rows[0]) if rows else 0
    out = [[0.0] * width]
    for row, weight in zip(rows, weights, strict=True):
        previous = out[-1]
        out.append([p + value * weight for p, value in zip(previous, row, strict=True)])
    return out


def decode_spans(
    text: str,
    offsets: list[tuple[int, int]],
    tags: list[list[float]],
    label_probs: list[list[float]],
    risk_probs: list[list[float]],
    labels: list[str],
    risks: list[str],
    threshold: float | None = None,
) -> list[dict]:
    """Per-token probabilities → spans: a token is inside where its most likely tag is
    not ``O`` (or, with ``threshold``, where ``1 - P(O) >= threshold``); a span starts
    after a token outside or where ``P(B) > P(I)``; label and risk are the most likely
    over its tokens, weighted by ``1 - P(O)``; the score is the mean ``1 - P(O)``."""
    n = len(offsets)
    if n == 0:
        return []
    if threshold is None:
        inside = [_argmax(row) != TAG_O for row in tags]
    else:
        inside = [(1.0 - row[TAG_O]) >= threshold for row in tags]
    begins = [
        inside[i] and (i == 0 or not inside[i - 1] or tags[i][TAG_B] > tags[i][TAG_I])
        for i in range(n)
    ]
    first = [i for i in range(n) if begins[i]]
    if not first:
        return []
    stops = [i for i in range(n) if not inside[i] or begins[i]] + [n]
    last = [stops[bisect.bisect_right(stops, f)] for f in first]
    weights = [1.0 - row[TAG_O] for row in tags]
    ones = [1.0] * n
    label_sums = _cumulative(label_probs, weights)
    risk_sums = _cumulative(risk_probs, weights)
    score_sums = _cumulative([[w] for w in weights], ones)

    def mean(sums: list[list[float]], i: int) -> list[float]:
        length = last[i] - first[i]
        return [(b - a) / length for a, b in zip(sums[first[i]], sums[last[i]], strict=True)]

    spans: list[dict] = []
    previous_end = 0
    for i in range(len(first)):
        start, end = offsets[first[i]][0], offsets[last[i] - 1][1]
        start = max(start, previous_end)
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start >= end:
            continue
        spans.append(
            {
                "start": start,
                "end": end,
                "label": labels[_argmax(mean(label_sums, i))],
                "risk": risks[_argmax(mean(risk_sums, i))],
                "score": round(mean(score_sums, i)[0], 6),
            }
        )
        previous_end = end
    return spans


def _glued(text: str, at: int) -> bool:
    """A number ends at ``at`` and a word begins there (``4Verwaltungsgericht``)."""
    return 0 < at < len(text) and text[at - 1].isdigit() and _GLUED_WORD.match(text, at) is not None


def snap_to_words(text: str, spans: list[dict], max_extend: int = 64) -> list[dict]:
    """Spans that end inside a word widened to the whole word; overlapping ones joined
    (label and risk of the longest, the highest score)."""
    widened = []
    for span in sorted(spans, key=lambda s: s["start"]):
        start, end = span["start"], span["end"]
        limit = max(0, start - max_extend)
        while start > limit and not text[start - 1].isspace() and not _glued(text, start):
            start -= 1
        while start < span["start"] and text[start] in _LEADING_PUNCT:
            start += 1
        limit = min(len(text), end + max_extend)
        while end < limit and not text[end].isspace() and not _glued(text, end):
            end += 1
        while end > span["end"] and text[end - 1] in _TRAILING_PUNCT:
            end -= 1
        widened.append((start, end, span))
    out: list[dict] = []
    group: list = []

    def flush() -> None:
        best = max(group, key=lambda g: (g[2]["end"] - g[2]["start"], g[2]["score"] or 0.0))[2]
        scores = [g[2]["score"] for g in group if g[2]["score"] is not None]
        out.append(
            {
                "start": min(g[0] for g in group),
                "end": max(g[1] for g in group),
                "label": best["label"],
                "risk": best["risk"],
                "score": max(scores) if scores else None,
            }
        )

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


def trim_punctuation(text: str, spans: list[dict]) -> list[dict]:
    """Spans without leading or trailing punctuation (a final ``.`` only after a digit)."""
    out = []
    for span in spans:
        start, end = span["start"], span["end"]
        while start < end and (text[start] in _NEVER_FIRST or text[start].isspace()):
            start += 1
        while end > start and (
            text[end - 1] in _NEVER_LAST
            or text[end - 1].isspace()
            or (text[end - 1] == "." and end - 2 >= start and text[end - 2].isdigit())
        ):
            end -= 1
        if start < end:
            out.append({**span, "start": start, "end": end})
    return out


# --- replacement without hf-anon ------------------------------------------------------------


def replace(
    text: str,
    spans: list[dict],
    mode: str,
    risks: list[str],
    usual_risk: dict[str, str],
    labels: list[str] | None = None,
    min_risk: str | None = None,
) -> dict:
    """The model-only anonymization: each selected span replaced by ``<label-n>`` (``n``
    counts the label's entities, an entity being the same words under the same label) or
    by :data:`REDACT_MASK`; everything else kept as it is."""
    rank = {risk: i for i, risk in enumerate(risks)}

    def selected(span: dict) -> bool:
        if labels is not None and span["label"] not in labels:
            return False
        if min_risk is None:
            return True
        usual = rank.get(usual_risk.get(span["label"]), -1)
        return max(usual, rank.get(span["risk"], -1)) >= rank[min_risk]

    parts: list[str] = []
    out: list[dict] = []
    entities: dict[tuple[str, str], int] = {}
    per_label: dict[str, int] = {}
    numbers: dict[tuple[str, str], int] = {}
    position, new_position = 0, 0
    for span in sorted(spans, key=lambda s: s["start"]):
        if not selected(span):
            continue
        key = (span["label"], " ".join(text[span["start"] : span["end"]].split()).casefold())
        if key not in entities:
            entities[key] = len(entities) + 1
            per_label[span["label"]] = numbers[key] = per_label.get(span["label"], 0) + 1
        new = f"<{span['label']}-{numbers[key]}>" if mode == "label" else REDACT_MASK
        kept = text[position : span["start"]]
        parts += [kept, new]
        new_start = new_position + len(kept)
        out.append(
            {
                **span,
                "replacement": new,
                "new_start": new_start,
                "new_end": new_start + len(new),
                "entity": entities[key],
                "source": "model",
            }
        )
        position, new_position = span["end"], new_start + len(new)
    parts.append(text[position:])
    return {"text": "".join(parts), "spans": out}
