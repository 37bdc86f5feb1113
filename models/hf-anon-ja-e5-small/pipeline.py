"""The ``anonymization`` pipeline of hf-anon models, for ``transformers.pipeline``.

A saved hf-anon model carries this file as ``pipeline.py`` and registers it in its
``config.json`` (``custom_pipelines``), so that, with only torch and transformers
installed::

    from transformers import pipeline

    repo = "hf-anon/hf-anon-de-e5-small"  # or a folder
    anonymize = pipeline("anonymization", model=repo, trust_remote_code=True)
    anonymize("Der Kläger Hans Müller wohnt in Köln und klagt.")  # spans
    anonymize("Der Kläger Hans Müller wohnt in Köln und klagt.", mode="label")["text"]
    # 'Der Kläger <nat-name-1> wohnt in <address-name-1> und klagt.'

Without ``mode`` a text gives its spans, a list of dicts ``label``, ``risk``, ``score``,
``start``, ``end`` (characters of the text, end exclusive) and ``text`` (what stands
there). With ``mode`` (``"label"``: ``<nat-name-1>``, numbered per label and entity;
``"redact"``: ``[…]``) it gives ``{"text": the anonymized text, "spans": [...]}``, one
dict per replaced stretch with also ``replacement``, ``new_start``/``new_end`` (its
place in the anonymized text), ``entity`` and ``source``. A list of texts gives a list of
results. Options of every call: ``threshold`` (on ``1 - P(O)``, for every label; default
the model's calibrated per-label thresholds), ``labels`` (the labels to replace),
``min_risk`` (``low``/``medium``/``high``: replace only spans at least this risky, a
span counting at least as risky as its label usually is) and ``batch_size`` (windows per
model call).

Two decodings, chosen when the pipeline is made (``pipe.decoding`` says which):

- ``"hf-anon"``, where the ``hf_anon`` package is importable (``decoding="auto"``, the
  default, or ``decoding="hf-anon"``): the pipeline hands its model and tokenizer to
  hf-anon's :class:`~hf_anon.anonymize.Anonymizer`, so spans and anonymized texts are
  those of ``Anonymizer.from_pretrained(model, backend="torch").detect``/``anonymize``
  (to the last digit of the scores, with the same dtype and device): the
  deterministic recognizers named in the config (dates, dockets, IBANs, plates …), the
  label-specific boundary rules, the dictionary-noun filter and, with ``mode``, the
  leak check (every other mention of a replaced name is replaced too) and all of
  hf-anon's modes (also ``pseudonym``, ``initials``, ``keep``; ``seed``, ``secret`` and
  ``operators`` as in ``Anonymizer.anonymize``).
- ``"model"`` (without hf_anon, or ``decoding="model"``): the model alone, decoded as
  hf-anon decodes it before its rules: the text read as hf-anon's model reads it
  (control characters as spaces, shouted lines in title case), cut into overlapping
  windows of the length the model was trained on (``window_max_length`` and
  ``window_stride`` of the config) at paragraph, line or sentence boundaries where
  possible, the per-token probabilities of overlapping windows averaged, BIO decoding
  with the per-label thresholds of the config (``label_thresholds``, on ``1 - P(O)``),
  spans widened to whole words (not for a Japanese model, ``config.language`` ``ja``:
  Japanese has no spaces to end a word) and trimmed of punctuation. Its spans are those of
  hf-anon's ``SpanDetector`` without recognizers, boundary rules and noun filter: what
  only the rules find (dates, dockets, IBANs, plates, e-mail addresses the model
  misses) is missed, edges are the model's (``Hans Müller aus`` where hf-anon cuts
  ``aus``), there is no leak check (a surname that stands alone elsewhere in the text,
  and that the model missed there, stays), and ``mode="label"`` numbers entities by
  their exact words (no surname joins its full name). Use hf-anon where anonymity
  matters.

This file imports only the standard library, torch and transformers; it is a copy of
``hf_anon/pipeline_code.py``, written by ``AnonModel.save_pretrained``.
"""

from __future__ import annotations

import bisect
import re

import torch
from transformers import Pipeline

#: The decodings of :class:`AnonymizationPipeline` (``decoding=``).
DECODINGS = ("auto", "hf-anon", "model")
#: The modes of the model-only decoding (hf-anon's decoding has all of hf-anon's).
MODEL_MODES = ("label", "redact")
#: The mask of ``mode="redact"`` (hf-anon's).
REDACT_MASK = "[…]"
#: Windows (tokens) for a model whose config does not say which it was trained on.
DEFAULT_MAX_LENGTH = 512
DEFAULT_STRIDE = 64
#: Windows run through the model at once unless ``batch_size`` says otherwise.
DEFAULT_BATCH_SIZE = 16
#: Options that only hf-anon's decoding knows.
HF_ANON_OPTIONS = ("seed", "secret", "operators", "leak_min_score")
TAG_O, TAG_B, TAG_I = 0, 1, 2
HALF_DTYPES = frozenset({torch.float16, torch.bfloat16})


# --- what the model reads (hf_anon.words.model_view) -------------------------------------

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


# --- windows (hf_anon.alignment) ----------------------------------------------------------

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


# --- decoding (hf_anon.alignment.decode_spans, snap_to_words, trim_punctuation) ----------

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


# --- the pipeline ---------------------------------------------------------------------------


def _setting(config, name: str):
    value = getattr(config, name, None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _legacy_windows(name_or_path: str) -> dict[str, int]:
    """``max_length`` and ``stride`` of ``training_config.json``, where folders saved
    before the windows moved into config.json keep them; {} if there is none."""
    import json

    from transformers.utils import cached_file

    try:
        path = cached_file(
            name_or_path,
            "training_config.json",
            _raise_exceptions_for_missing_entries=False,
            _raise_exceptions_for_connection_errors=False,
        )
        with open(path, encoding="utf-8") as f:
            settings = json.load(f)
    except Exception:  # no such file, offline, not JSON: the defaults hold
        return {}
    if not isinstance(settings, dict):
        return {}
    return {
        key: value
        for key in ("max_length", "stride")
        if isinstance(value := settings.get(key), int) and not isinstance(value, bool)
    }


class AnonymizationPipeline(Pipeline):
    """Spans of personal data in German court decisions, or the decisions anonymized.

    ``pipe(text)``: the spans; ``pipe(text, mode="label")``: ``{"text", "spans"}``; see
    the module's docstring for the options and the two decodings (``pipe.decoding``).
    """

    _load_tokenizer = True
    _load_processor = False
    _load_image_processor = False
    _load_video_processor = False
    _load_feature_extractor = False

    def __init__(self, *args, decoding: str = "auto", **kwargs):
        if decoding not in DECODINGS:
            raise ValueError(f"decoding must be one of {', '.join(DECODINGS)}, got {decoding!r}")
        super().__init__(*args, **kwargs)
        if not getattr(self.tokenizer, "is_fast", False):
            raise TypeError("the anonymization pipeline needs a fast tokenizer (offsets)")
        dtypes = {parameter.dtype for parameter in self.model.parameters()}
        if len(dtypes) > 1 or (self.device.type == "cpu" and dtypes & HALF_DTYPES):
            # float32 as hf-anon loads it: the default model ships in fp16 to stay small
            # (dtype="auto" loads its heads so, the encoder in float32), and half precision
            # is slow and less exact on a CPU
            self.model.to(torch.float32)
        self.model.eval()
        config = self.model.config
        self.labels = list(config.labels)
        self.risks = list(config.risks)
        label_set = getattr(config, "label_set", None) or {}
        self.usual_risk = {
            entry["name"]: entry.get("risk")
            for entry in label_set.get("labels", [])
            if "name" in entry
        }
        self.label_thresholds = dict(getattr(config, "label_thresholds", None) or {})
        max_length, stride = (
            _setting(config, "window_max_length"),
            _setting(config, "window_stride"),
        )
        if max_length is None or stride is None:
            legacy = _legacy_windows(self.model.name_or_path)
            max_length = max_length or legacy.get("max_length")
            stride = stride if stride is not None else legacy.get("stride")
        max_length = max_length or DEFAULT_MAX_LENGTH
        self.stride = DEFAULT_STRIDE if stride is None else stride
        encoder = config.encoder if isinstance(config.encoder, dict) else {}
        positions = encoder.get("max_position_embeddings", max_length)
        # XLM-R style models reserve two positions for the padding offset
        self.max_length = min(max_length, positions - 2 if positions > 512 else positions)
        self.prefix, self.suffix = special_layout(self.tokenizer)
        self.anonymizer = None
        if decoding != "model":
            self.anonymizer = self._hf_anon_anonymizer(required=decoding == "hf-anon")
        self.decoding = "hf-anon" if self.anonymizer is not None else "model"

    def _hf_anon_anonymizer(self, required: bool):
        """hf-anon's Anonymizer on this pipeline's model and tokenizer; None without it."""
        try:
            from hf_anon.anonymize import Anonymizer
            from hf_anon.detection import SpanDetector
        except ImportError:
            if required:
                raise
            return None
        detector = SpanDetector(
            self.model, self.tokenizer, max_length=self.max_length, stride=self.stride
        )
        return Anonymizer(detector)

    # -- parameters
    def __call__(self, inputs, *args, batch_size: int | None = None, **kwargs):
        """Spans of a text (a list of texts: a list of results); ``mode``, ``threshold``,
        ``labels``, ``min_risk``, ``batch_size`` (windows per model call) as in the module's
        docstring."""
        batch_size = batch_size if batch_size is not None else self._batch_size
        if batch_size is not None:
            kwargs["window_batch_size"] = batch_size
        # texts go one at a time; their windows are batched inside (batch_size)
        return super().__call__(inputs, *args, batch_size=1, **kwargs)

    def _sanitize_parameters(self, **options):
        known = {"mode", "threshold", "labels", "min_risk", "window_batch_size", *HF_ANON_OPTIONS}
        unknown = sorted(set(options) - known)
        if unknown:
            raise TypeError(f"unknown options {unknown}; known: {sorted(known)}")
        return dict(options), dict(options), dict(options)

    def _check(self, options: dict) -> None:
        mode, labels, min_risk = (options.get(k) for k in ("mode", "labels", "min_risk"))
        if self.anonymizer is not None:
            return  # hf-anon checks its own options
        if mode is not None and mode not in MODEL_MODES:
            raise ValueError(
                f"mode {mode!r}: without hf-anon the pipeline knows {', '.join(MODEL_MODES)}"
            )
        for name in HF_ANON_OPTIONS:
            if options.get(name) is not None:
                raise ValueError(f"{name} needs hf-anon's decoding (pip install hf-anon)")
        if labels is not None and (unknown := sorted(set(labels) - set(self.labels))):
            raise ValueError(f"unknown labels {unknown}; known: {self.labels}")
        if min_risk is not None and min_risk not in self.risks:
            raise ValueError(f"unknown risk {min_risk!r}; known: {self.risks}")

    # -- stages
    def preprocess(self, text, **options):
        if not isinstance(text, str):
            raise TypeError(f"the pipeline takes a text (str), not {type(text).__name__}")
        self._check(options)
        if self.anonymizer is not None:
            return {"text": text}
        view = model_view(text)
        encoding = self.tokenizer(
            view, add_special_tokens=False, return_offsets_mapping=True, verbose=False
        )
        offsets = [tuple(pair) for pair in encoding["offset_mapping"]]
        ids = encoding["input_ids"]
        capacity = self.max_length - len(self.prefix) - len(self.suffix)
        windows = plan_windows(cut_scores(view, offsets), capacity, self.stride)
        return {
            "text": text,
            "offsets": offsets,
            "windows": windows,
            "input_ids": [[*self.prefix, *ids[start:end], *self.suffix] for start, end in windows],
        }

    def _forward(self, inputs, window_batch_size: int | None = None, **options):
        batch_size = window_batch_size or DEFAULT_BATCH_SIZE
        if self.anonymizer is not None:
            return self._forward_hf_anon(inputs["text"], batch_size, options)
        windows, all_ids = inputs["windows"], inputs["input_ids"]
        per_window: list = [None] * len(windows)
        order = sorted(range(len(windows)), key=lambda k: len(all_ids[k]))
        pad_id = self.tokenizer.pad_token_id or 0
        for first in range(0, len(order), batch_size):
            chunk = order[first : first + batch_size]
            width = max(len(all_ids[k]) for k in chunk)
            ids = torch.full((len(chunk), width), pad_id, dtype=torch.long)
            mask = torch.zeros((len(chunk), width), dtype=torch.long)
            for row, k in enumerate(chunk):
                ids[row, : len(all_ids[k])] = torch.tensor(all_ids[k], dtype=torch.long)
                mask[row, : len(all_ids[k])] = 1
            out = self.model(input_ids=ids.to(self.device), attention_mask=mask.to(self.device))
            heads = [
                torch.softmax(logits.float(), dim=-1).cpu()
                for logits in (out.span_logits, out.label_logits, out.risk_logits)
            ]
            for row, k in enumerate(chunk):
                per_window[k] = [head[row] for head in heads]
        n = len(inputs["offsets"])
        merged = []
        for h, width in enumerate((3, len(self.labels), len(self.risks))):
            total = torch.zeros((n, width), dtype=torch.float64)
            count = torch.zeros(n, dtype=torch.float64)
            for (start, end), probs in zip(windows, per_window, strict=True):
                offset = len(self.prefix)
                total[start:end] += probs[h][offset : offset + end - start].double()
                count[start:end] += 1
            merged.append(total / count.clamp(min=1)[:, None])
        return {"text": inputs["text"], "offsets": inputs["offsets"], "probabilities": merged}

    def _forward_hf_anon(self, text: str, batch_size: int, options: dict):
        anonymizer = self.anonymizer
        threshold = options.get("threshold")
        if options.get("mode") is None:
            spans = anonymizer.detect([text], batch_size=batch_size, threshold=threshold)[0]
            return {"text": text, "spans": spans}
        extra = {k: options[k] for k in ("labels", "min_risk", *HF_ANON_OPTIONS) if k in options}
        result = anonymizer.anonymize(
            text, mode=options["mode"], threshold=threshold, batch_size=batch_size, **extra
        )
        return {"text": text, "result": result}

    def postprocess(self, outputs, **options):
        text = outputs["text"]
        if self.anonymizer is not None:
            return self._postprocess_hf_anon(outputs)
        tags, label_probs, risk_probs = outputs["probabilities"]
        if not all(bool(torch.isfinite(p).all()) for p in outputs["probabilities"]):
            raise ValueError("the model gave non-finite probabilities: nothing is returned")
        threshold = options.get("threshold")
        per_label = threshold is None and bool(self.label_thresholds)
        view = detection_view(text)
        spans = decode_spans(
            view,
            outputs["offsets"],
            tags.tolist(),
            label_probs.tolist(),
            risk_probs.tolist(),
            self.labels,
            self.risks,
            threshold=min(self.label_thresholds.values()) if per_label else threshold,
        )
        if getattr(self.model.config, "language", "de") != "ja":  # no spaces end a Japanese word
            spans = snap_to_words(view, spans)
        spans = trim_punctuation(view, spans)
        if per_label:
            spans = [
                s
                for s in spans
                if (s["score"] or 0.0) >= self.label_thresholds.get(s["label"], 0.0)
            ]
        spans = [{**s, "text": text[s["start"] : s["end"]]} for s in spans]
        if options.get("mode") is None:
            return spans
        return replace(
            text,
            spans,
            options["mode"],
            self.risks,
            self.usual_risk,
            labels=options.get("labels"),
            min_risk=options.get("min_risk"),
        )

    @staticmethod
    def _postprocess_hf_anon(outputs) -> list[dict] | dict:
        text = outputs["text"]
        if "spans" in outputs:
            return [
                {
                    "start": s.start,
                    "end": s.end,
                    "label": s.label,
                    "risk": s.risk,
                    "score": s.score,
                    "text": text[s.start : s.end],
                }
                for s in outputs["spans"]
            ]
        result = outputs["result"]
        return {
            "text": result.text,
            "spans": [
                {
                    "start": r.start,
                    "end": r.end,
                    "label": r.label,
                    "risk": r.risk,
                    "score": r.score,
                    "text": text[r.start : r.end],
                    "replacement": r.text,
                    "new_start": r.new_start,
                    "new_end": r.new_end,
                    "entity": r.entity,
                    "source": r.source,
                }
                for r in result.replacements
            ],
        }
