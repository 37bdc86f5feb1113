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
  hf-anon's :class:`~hf_anon.apply.anonymize.Anonymizer`, so spans and anonymized texts are
  those of ``Anonymizer.from_pretrained(model, backend="torch").detect``/``anonymize``
  (to the last digit of the scores, with the same dtype and device): the
  deterministic recognizers named in the config (dates, dockets, IBANs, plates …), the
  label-specific boundary rules, the dictionary-noun filter and, with ``mode``, the
  leak check (every other mention of a replaced name is replaced too) and all of
  hf-anon's modes (also ``pseudonym``, ``initials``, ``keep``; ``seed``, ``secret`` and
  ``operators`` as in ``Anonymizer.anonymize``).
- ``"model"`` (without hf_anon, or ``decoding="model"``): the model alone, decoded as
  hf-anon decodes it before its rules: the text read as hf-anon's model reads it
  (control characters as spaces, shouted lines in title case; a Japanese model's text
  without the case change, and, where its config says ``unwrap_lines``, without the line
  ends of a PDF's wrapping), cut into overlapping
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

This file imports only the standard library, torch, transformers and its model-only
decoding beside it (``pipeline_decoding.py``); it is a copy of
``hf_anon/distribution/pipeline_code.py``, written by ``AnonModel.save_pretrained`` and
``hf-anon remote-code``.
"""

from __future__ import annotations

import torch
from transformers import Pipeline

from .pipeline_decoding import (
    cut_scores,
    decode_spans,
    detection_view,
    model_view,
    plan_windows,
    replace,
    snap_to_words,
    special_layout,
    to_original,
    trim_punctuation,
    unwrapped,
)

#: The decodings of :class:`AnonymizationPipeline` (``decoding=``).
DECODINGS = ("auto", "hf-anon", "model")
#: The modes of the model-only decoding (hf-anon's decoding has all of hf-anon's).
MODEL_MODES = ("label", "redact")
#: Windows (tokens) for a model whose config does not say which it was trained on.
DEFAULT_MAX_LENGTH = 512
DEFAULT_STRIDE = 64
#: Windows run through the model at once unless ``batch_size`` says otherwise.
DEFAULT_BATCH_SIZE = 16
#: Options that only hf-anon's decoding knows.
HF_ANON_OPTIONS = ("seed", "secret", "operators", "leak_min_score")
HALF_DTYPES = frozenset({torch.float16, torch.bfloat16})


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
            from hf_anon.apply.anonymize import Anonymizer
            from hf_anon.model.detection import SpanDetector
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
        config = self.model.config
        japanese = getattr(config, "language", "de") == "ja"
        view = detection_view(text) if japanese else model_view(text)
        index = None
        if japanese and getattr(config, "unwrap_lines", False):  # as the model was trained
            view, index = unwrapped(view)
        encoding = self.tokenizer(
            view, add_special_tokens=False, return_offsets_mapping=True, verbose=False
        )
        offsets = [tuple(pair) for pair in encoding["offset_mapping"]]
        ids = encoding["input_ids"]
        capacity = self.max_length - len(self.prefix) - len(self.suffix)
        windows = plan_windows(cut_scores(view, offsets), capacity, self.stride)
        return {
            "text": text,
            "offsets": offsets if index is None else to_original(offsets, index),
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
