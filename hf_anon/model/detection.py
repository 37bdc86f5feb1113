"""Detection: a trained model applied to documents of any length → character spans.

The analyzer half of hf-anon (Presidio's split): it says *what* is sensitive; the
anonymizer decides what to do about it. Documents are windowed (never truncated),
windows are batched sorted by length, and per-token probabilities from overlapping
windows are averaged before decoding (hf_anon.model.alignment).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from tqdm.auto import tqdm

from hf_anon.model.alignment import (
    EncodedDocument,
    check_windows,
    decode_spans,
    encode_documents,
    merge_windows,
    snap_to_words,
    trim_punctuation,
    window_capacity,
)
from hf_anon.model.loading import LoadOptions, adapter_thresholds, load_for_inference
from hf_anon.model.model_folder import ModelFolder
from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.views import TextView

#: Windows (tokens) for a model whose config does not say which it was trained on.
DEFAULT_MAX_LENGTH = 512
DEFAULT_STRIDE = 64


class NonFiniteScoresError(ValueError):
    """The model gave NaN or infinite probabilities: nothing it says can be trusted."""


def label_set_of(model) -> LabelSet:
    """The label set a model was trained with (its config carries it)."""
    config = model.config
    if getattr(config, "label_set", None):
        return LabelSet.from_dict(config.label_set)
    if list(config.labels) == DEFAULT_LABELS.names:
        return DEFAULT_LABELS
    raise ValueError("the model config has no label_set and non-default labels")


@dataclass
class WindowBatch:
    input_ids: torch.Tensor
    attention_mask: torch.Tensor
    keys: list[tuple[int, int]]  # (document index, window index)


def pad_windows(windows: Sequence[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-pad token id lists into ``input_ids`` and ``attention_mask`` tensors."""
    width = max(len(w) for w in windows)
    ids = torch.full((len(windows), width), pad_id, dtype=torch.long)
    mask = torch.zeros((len(windows), width), dtype=torch.long)
    for row, window in enumerate(windows):
        ids[row, : len(window)] = torch.tensor(window, dtype=torch.long)
        mask[row, : len(window)] = 1
    return ids, mask


def batches_by_length(encoded: Sequence[EncodedDocument], batch_size: int, pad_id: int):
    """Windows of all documents, sorted by length so that batches waste little padding."""
    keys = [(d, w) for d, doc in enumerate(encoded) for w in range(len(doc.windows))]
    keys.sort(key=lambda k: len(encoded[k[0]].windows[k[1]].input_ids))
    for start in range(0, len(keys), batch_size):
        chunk = keys[start : start + batch_size]
        ids, mask = pad_windows([encoded[d].windows[w].input_ids for d, w in chunk], pad_id)
        yield WindowBatch(ids, mask, chunk)


class SpanDetector:
    """A trained :class:`~hf_anon.model.modeling.AnonModel` with its tokenizer."""

    def __init__(
        self,
        model,
        tokenizer,
        *,
        max_length: int | None = None,
        stride: int | None = None,
        snap_words: bool = True,
        recognizers: Sequence[str] | str | None = "config",
        label_thresholds: dict[str, float] | str | None = "config",
        word_analyzer: str | None = "config",
        cited_filter=None,
    ):
        """``max_length`` and ``stride`` (tokens): the windows; None (the default) takes
        those of the model's config (the windows it was trained on), else 512 and 64.
        ``recognizers``: names from :data:`hf_anon.model.recognizers.RECOGNIZERS` merged with the
        model's spans (:func:`~hf_anon.model.recognizers.merge_with_rules`), ``()`` for none;
        ``label_thresholds``: a minimum span score per label. ``"config"`` (the default)
        takes both from the model's config (written by ``hf-anon calibrate``);
        ``word_analyzer``: for a Japanese model, the analyzer that keeps name spans to words
        (:func:`hf_anon.text.japanese_words.drop_fragments`), ``""`` for no check; ``"config"``
        (or None through :meth:`from_pretrained`) reads ``config.word_analyzer``;
        ``cited_filter``: a :class:`~hf_anon.model.recognizers.cited_filter.CitedFilter` that
        drops the dates, courts and dockets it is sure stand in a citation (None: none;
        :meth:`from_pretrained` takes the model folder's)."""
        self.model = model.eval()
        self.snap_words = snap_words
        config = getattr(model, "config", None)
        if max_length is None:
            max_length = getattr(config, "window_max_length", None) or DEFAULT_MAX_LENGTH
        if stride is None:
            stride = getattr(config, "window_stride", None)
            stride = DEFAULT_STRIDE if stride is None else stride
        if recognizers == "config":
            recognizers = getattr(config, "recognizers", None) or ()
        if label_thresholds == "config":
            label_thresholds = getattr(config, "label_thresholds", None)
        from hf_anon.model.recognizers import RECOGNIZERS

        unknown = [name for name in recognizers or () if name not in RECOGNIZERS]
        if unknown:
            raise ValueError(f"unknown recognizers {unknown}; known: {sorted(RECOGNIZERS)}")
        self.recognizers = tuple(recognizers or ())
        #: the language of the model's text (``config.language``): its span boundaries
        self.language = getattr(config, "language", None) or "de"
        #: whether the model reads a text without the line ends of a PDF's wrapping
        #: (``config.unwrap_lines``, set by the training that taught it so)
        self.unwrap_lines = bool(getattr(config, "unwrap_lines", False))
        self.label_thresholds = dict(label_thresholds or {})
        if word_analyzer == "config":
            word_analyzer = getattr(config, "word_analyzer", None)
        from hf_anon.text.japanese_words import ANALYZERS

        word_analyzer = word_analyzer or None  # "" turns the config's check off
        if word_analyzer is not None and word_analyzer not in ANALYZERS:
            raise ValueError(f"unknown word analyzer {word_analyzer!r}; known: {ANALYZERS}")
        self.word_analyzer = word_analyzer
        #: the learned citation filter run last in decoding (None: none)
        self.cited_filter = cited_filter
        self.tokenizer = tokenizer
        self.labels = label_set_of(model)
        positions = getattr(model.encoder.config, "max_position_embeddings", max_length)
        # XLM-R style models reserve two positions for the padding offset.
        self.max_length = min(max_length, positions - 2 if positions > 512 else positions)
        self.stride = stride
        self._check_windows()
        #: what runs the model: ``torch`` or ``onnx`` (``-int8`` when quantized)
        self.backend = "onnx" if type(model).__name__ == "OnnxEncoderModel" else "torch"

    def _check_windows(self) -> None:
        """Refuse windows that :func:`~hf_anon.model.alignment.plan_windows` cannot plan, at
        load time and naming the settings, rather than at the first document."""
        capacity = window_capacity(self.tokenizer, self.max_length)
        try:
            check_windows(capacity, self.stride)
        except ValueError as err:
            raise ValueError(
                f"windows of {self.max_length} tokens (window_max_length) hold {capacity} of "
                f"text, so their overlap (window_stride) must lie between 0 and "
                f"{max(capacity // 2, 0)}, not {self.stride}"
            ) from err

    @classmethod
    def from_pretrained(
        cls,
        path: str | Path | ModelFolder | None = None,
        *,
        options: LoadOptions | None = None,
        device: str | None = None,
        dtype: str | None = None,
        backend: str = "auto",
        quantize: bool = False,
        adapter: str | Path | None = None,
        **kwargs,
    ):
        """Load model and tokenizer from a folder or hub id (None: the default model,
        :func:`hf_anon.model.model_folder.default_model`); a clear error if neither is.

        How it runs (:class:`~hf_anon.model.loading.LoadOptions`, given as ``options`` or
        as the keywords ``device``, ``dtype``, ``backend``, ``quantize`` and ``adapter``):
        ``backend="onnx"`` runs the model with ONNX Runtime on the CPU (exported once and
        cached, :mod:`hf_anon.model.backends.onnx`); ``"auto"`` (the default) picks it on the
        CPU where onnxruntime is installed, torch elsewhere
        (:func:`~hf_anon.model.loading.resolve_backend`), and falls back to torch, with a
        warning, where a model does not export. :attr:`backend` says which one runs.
        ``quantize=True`` makes the linear layers dynamic int8 (CPU only; check recall on
        your data before relying on it); ``dtype`` ``bfloat16``/``float16`` halves memory
        and time on a GPU; ``adapter``: a LoRA adapter merged into the weights, read with
        the thresholds calibrated for it where it has them (``hf-anon calibrate
        --adapter``). Other keywords go to the constructor; those not given (or None)
        come from the model's config (:class:`ModelFolder` completes the windows of older
        folders from their ``training_config.json``); the learned citation filter from the
        folder's ``cited_filter.*`` where it has them (``cited_filter=False``: none)."""
        given = LoadOptions(device, dtype, backend, quantize, adapter)
        if options is None:
            options = given
        elif given != LoadOptions():
            raise ValueError("give the load options either as options= or as keywords, not both")
        loaded = load_for_inference(path, options)
        cited_filter = kwargs.pop("cited_filter", None)
        if cited_filter is None:
            from hf_anon.model.recognizers.cited_filter import CitedFilter

            cited_filter = CitedFilter.from_folder(ModelFolder(path))
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        kwargs["cited_filter"] = cited_filter or None
        if options.adapter is not None and "label_thresholds" not in kwargs:
            calibrated = adapter_thresholds(options.adapter)  # the adapter's own, if any
            if calibrated:
                kwargs["label_thresholds"] = calibrated
        detector = cls(loaded.model, loaded.tokenizer, **kwargs)
        detector.backend = loaded.backend
        return detector

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    @torch.inference_mode()
    def predict_probabilities(
        self,
        documents: Sequence[Document],
        *,
        batch_size: int = 16,
        progress: bool = False,
        views: Sequence[TextView] | None = None,
    ) -> list[tuple[EncodedDocument, np.ndarray, np.ndarray, np.ndarray]]:
        """Per document: its encoding and averaged tag, label and risk probabilities.

        The model reads each text's :attr:`~hf_anon.text.views.TextView.model` view
        (control characters as spaces; in German letter-spaced words closed up, ``M a r t i
        n`` read as ``Martin``, and shouted lines in title case; token offsets mapped back);
        the encoding keeps the :attr:`~hf_anon.text.views.TextView.detection` view, which
        decoding and the recognizers read and whose offsets are those of the original text.
        ``views``: the documents' views where the caller read them already (one per
        document, :func:`~hf_anon.text.views.read_text`); else they are read here.
        """
        from hf_anon.text.spacing import to_original
        from hf_anon.text.views import read_text

        for doc in documents:
            if not isinstance(doc.text, str):
                raise TypeError(f"document {doc.id!r}: text must be a string")
        if views is None:
            views = [doc.text for doc in documents]
        elif len(views) != len(documents):
            raise ValueError(f"{len(views)} views for {len(documents)} documents")
        views = [read_text(view, self.language, self.unwrap_lines) for view in views]
        read = [
            doc
            if view.model == doc.text
            else Document(doc.id, view.model, [], doc.domain, doc.meta)
            for doc, view in zip(documents, views, strict=True)
        ]
        encoded = encode_documents(
            read, self.tokenizer, self.labels, max_length=self.max_length, stride=self.stride
        )
        for enc, view in zip(encoded, views, strict=True):
            enc.text = view.detection
            enc.offsets = to_original(enc.offsets, view.model_index)
        outputs: list[list] = [[None] * len(doc.windows) for doc in encoded]
        n_windows = sum(len(doc.windows) for doc in encoded)
        bar = tqdm(total=n_windows, desc="detect", unit="window", disable=not progress)
        pad_id = self.tokenizer.pad_token_id or 0
        for batch in batches_by_length(encoded, batch_size, pad_id):
            out = self.model(
                input_ids=batch.input_ids.to(self.device),
                attention_mask=batch.attention_mask.to(self.device),
            )
            heads = [
                torch.softmax(logits.float(), dim=-1).cpu().numpy()
                for logits in (out.span_logits, out.label_logits, out.risk_logits)
            ]
            for row, (d, w) in enumerate(batch.keys):
                outputs[d][w] = tuple(head[row] for head in heads)
            bar.update(len(batch.keys))
        bar.close()
        results = []
        for doc, window_outputs in zip(encoded, outputs, strict=True):
            per_head = [
                merge_windows(doc, [o[h] for o in window_outputs]) if window_outputs else None
                for h in range(3)
            ]
            results.append((doc, *per_head))
        return results

    def detect(
        self,
        texts: Sequence[str] | Sequence[Document],
        *,
        batch_size: int = 16,
        threshold: float | None = None,
        progress: bool = False,
    ) -> list[list[Span]]:
        """Spans (label, risk, score) for each text; ``threshold`` on 1 - P(O) trades
        precision for recall (None: the argmax tag). With ``snap_words`` (the default)
        spans that end inside a word cover the whole word."""
        documents = [
            t if isinstance(t, Document) else Document(str(i), t) for i, t in enumerate(texts)
        ]
        probabilities = self.predict_probabilities(
            documents, batch_size=batch_size, progress=progress
        )
        return self.decode_all(probabilities, threshold=threshold)

    def decode_all(self, probabilities, *, threshold: float | None = None) -> list[list[Span]]:
        """Spans of every document of :meth:`predict_probabilities`' result; decoding is
        cheap, so one model pass serves many thresholds (``hf-anon report``)."""
        return [
            [] if tags is None else self.decode(doc, tags, labels, risks, threshold=threshold)
            for doc, tags, labels, risks in probabilities
        ]

    def decode(
        self,
        encoded: EncodedDocument,
        tag_probs: np.ndarray,
        label_probs: np.ndarray,
        risk_probs: np.ndarray,
        *,
        threshold: float | None = None,
    ) -> list[Span]:
        """One document's probabilities (from :meth:`predict_probabilities`) → spans.

        The one decoding path of ``detect``, ``report`` and ``anonymize``: probabilities
        that are not all finite raise :class:`NonFiniteScoresError` (a broken model must not
        look like a text without names); tokens → spans (``threshold`` on 1 - P(O), else the
        calibrated per-label thresholds, else the argmax tag), widened to whole words,
        trimmed of punctuation; with recognizers, rid of the dates, courts and dockets that
        stand inside citations and statutes (:func:`hf_anon.model.recognizers.drop_cited`) and
        merged with the recognizers' spans; given the label-specific edges of the
        guidelines (:func:`hf_anon.model.decoding.boundaries.fix_boundaries`); trimmed of
        words that cannot belong to them at their edges
        (:func:`hf_anon.model.decoding.edges.trim_edges`); last, with a learned citation
        filter (:attr:`cited_filter`), rid of the dates, courts and dockets it is sure are
        cited (:mod:`hf_anon.model.recognizers.cited_filter`). A Japanese model's spans are not
        widened (Japanese has no spaces to end a word) and get the
        Japanese edges instead (:func:`hf_anon.text.languages.japanese_boundaries`); with
        recognizers, the dates and dockets of statutes and cited precedents are dropped
        after the merge (:func:`hf_anon.text.japanese_citations.drop_cited_japanese`);
        authorities are no spans (:func:`hf_anon.text.japanese_authorities.drop_authorities`).
        """
        from hf_anon.model.decoding.boundaries import fix_boundaries
        from hf_anon.model.decoding.edges import trim_edges
        from hf_anon.model.recognizers import drop_cited, merge_with_rules, recognize_cached
        from hf_anon.text.nouns import drop_common_nouns

        for name, probs in (("tag", tag_probs), ("label", label_probs), ("risk", risk_probs)):
            if not np.isfinite(probs).all():
                raise NonFiniteScoresError(
                    f"text {encoded.doc_id}: the model gave non-finite {name} probabilities"
                )
        text = encoded.text
        per_label = threshold is None and bool(self.label_thresholds)
        found = decode_spans(
            text,
            encoded.offsets,
            tag_probs,
            label_probs,
            risk_probs,
            self.labels,
            threshold=min(self.label_thresholds.values()) if per_label else threshold,
        )
        if self.language == "ja":
            from hf_anon.text.languages import japanese_boundaries

            spans = japanese_boundaries(text, found)
        else:
            snapped = snap_to_words(text, found) if self.snap_words else found
            spans = trim_punctuation(text, snapped)
        if per_label:
            spans = [
                s for s in spans if (s.score or 0.0) >= self.label_thresholds.get(s.label, 0.0)
            ]
        if self.language == "ja":  # rules merged as they are: no German edges or nouns
            from hf_anon.text.japanese_authorities import drop_authorities

            if self.word_analyzer:
                from hf_anon.text.japanese_mentions import spread_names
                from hf_anon.text.japanese_words import drop_fragments, word_boundaries

                spans = drop_fragments(text, spans, self.word_analyzer)
                spans = spread_names(text, spans, word_boundaries(text, self.word_analyzer))
            if self.recognizers:
                from hf_anon.text.japanese_citations import drop_cited_japanese

                spans = merge_with_rules(spans, recognize_cached(text, self.recognizers), text)
                spans = drop_cited_japanese(text, spans)
            return drop_authorities(text, spans)
        if self.recognizers:
            spans = drop_cited(text, spans)
            spans = merge_with_rules(spans, recognize_cached(text, self.recognizers), text)
        spans = trim_edges(text, fix_boundaries(text, spans), self.labels)
        spans = fix_boundaries(text, spans)  # again: the trim joins touching spans
        spans = drop_common_nouns(text, spans)
        if self.cited_filter is not None and self.cited_filter.config.language == self.language:
            spans = self.cited_filter.drop(text, spans)
        return spans
