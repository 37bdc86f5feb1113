"""The :class:`Anonymizer`: detection and replacement in one object.

Detection (:mod:`hf_anon.model.detection`, or any callable returning spans) says what is
sensitive; :func:`~hf_anon.apply.anonymize.engine.replace_spans` replaces it. This facade is
the only part of :mod:`hf_anon.apply.anonymize` that knows about models.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hf_anon.apply.anonymize.engine import AnonymizationPlan, as_secret, replace_spans
from hf_anon.apply.anonymize.leakcheck import LEAK_MIN_SCORE
from hf_anon.apply.anonymize.operators import Operator
from hf_anon.apply.anonymize.types import AnonymizationResult, DetectionError, DetectorFn
from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.views import TextView, read_text

if TYPE_CHECKING:
    from hf_anon.apply.topics import TopicRedactor
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.loading import LoadOptions


def check_texts(texts: Sequence[object]) -> list[str]:
    out = []
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"text {i} is {type(text).__name__}, expected str")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ValueError(
                f"text {i} is not valid Unicode: lone surrogate at character {err.start}"
            ) from None
        out.append(text)
    return out


class Anonymizer:
    """Detection and replacement in one object.

    ``detector`` is a :class:`~hf_anon.model.detection.SpanDetector` or any callable taking a
    list of texts and returning one list of :class:`~hf_anon.text.data.Span` per text (a
    rule-based detector, another model, a stub in tests).

    >>> anonymizer = Anonymizer.from_pretrained("outputs/e5-small/best")  # doctest: +SKIP
    >>> anonymizer.anonymize("Der Kläger Hans Müller …", mode="label").text  # doctest: +SKIP
    'Der Kläger <nat-name-1> …'
    """

    def __init__(
        self,
        detector: SpanDetector | DetectorFn,
        *,
        label_set: LabelSet | None = None,
        batch_size: int = 16,
        language: str | None = None,
    ):
        """``language`` (``de``, ``ja``): the texts' language, which decides the leak check
        and the operators' values; None: the detector's (``SpanDetector.language``), else
        ``de``."""
        from hf_anon.text.languages import LANGUAGES

        language = language or getattr(detector, "language", None) or "de"
        if language not in LANGUAGES:
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {language!r}")
        self.language = language
        if hasattr(detector, "predict_probabilities"):
            self.label_set = label_set or detector.labels
        elif callable(detector):
            self.label_set = label_set or DEFAULT_LABELS
        else:
            raise TypeError("detector must be a SpanDetector or a callable returning spans")
        self.detector = detector
        self.batch_size = batch_size

    @classmethod
    def from_pretrained(
        cls,
        path: str | Path | None = None,
        *,
        device: str | None = None,
        dtype: str | None = None,
        quantize: bool = False,
        max_length: int | None = None,
        stride: int | None = None,
        batch_size: int = 16,
        backend: str = "auto",
        adapter: str | Path | None = None,
        options: LoadOptions | None = None,
        recognizers="config",
        label_thresholds="config",
        language: str = "de",
    ) -> Anonymizer:
        """Load an hf-anon model (folder or hub id; None: the bundled default model of
        ``language``, ``de`` or ``ja``: :func:`hf_anon.model.model_folder.default_model`). A
        model's own ``config.language`` decides how its text is read.

        ``dtype`` (``bfloat16``/``float16``) halves memory and time on a GPU;
        ``quantize=True`` applies dynamic int8 quantization to the linear layers (CPU
        only; check recall on your data before relying on it). ``backend="onnx"`` runs
        the model with ONNX Runtime on the CPU, ``"torch"`` with torch; ``"auto"`` (the
        default) takes ONNX Runtime on the CPU (same spans as torch, faster) and torch on
        a GPU or with a half ``dtype`` (:func:`hf_anon.model.loading.resolve_backend`).
        ``adapter``: a LoRA adapter (PEFT folder or hub id) merged into the weights. All
        these load options are one :class:`~hf_anon.model.loading.LoadOptions`, which
        ``options`` gives at once.
        ``max_length`` and ``stride`` (tokens) default to the windows the model was trained
        with (``training_config.json``), else 512 and 64. ``recognizers``: the rules merged
        with the model's spans (names, ``()`` for none) and ``label_thresholds`` (``{}``: the
        most likely tag); both default to the model's config (``hf-anon calibrate``).
        """
        from hf_anon.model.detection import SpanDetector
        from hf_anon.model.model_folder import default_model

        detector = SpanDetector.from_pretrained(
            default_model(language) if path is None else path,
            device=device,
            dtype=dtype,
            backend=backend,
            quantize=quantize,
            adapter=adapter,
            options=options,
            max_length=max_length,
            stride=stride,
            recognizers=recognizers,
            label_thresholds=label_thresholds,
        )
        return cls(detector, batch_size=batch_size)

    @classmethod
    def for_texts(cls, texts: Sequence[str], **kwargs) -> Anonymizer:
        """The bundled model of the texts' language, picked by script (``language="auto"``:
        mostly kana and kanji → the Japanese model, else the German one); keywords as for
        :meth:`from_pretrained`."""
        from hf_anon.text.languages import resolve_language

        if isinstance(texts, str):
            texts = [texts]
        return cls.from_pretrained(None, language=resolve_language("auto", texts), **kwargs)

    # -- detection
    def _detect(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        threshold: float | None = None,
        progress: bool = False,
    ) -> list[tuple[list[Span], int | None]]:
        """Spans and model token counts per text (each a :class:`TextView`, read where it
        entered); raises :class:`DetectionError`."""
        if not texts:
            return []
        batch_size = batch_size or self.batch_size
        if hasattr(self.detector, "predict_probabilities"):
            return self._detect_model(texts, batch_size, threshold, progress)
        try:
            found = self.detector([view.detection for view in texts])
        except Exception as err:
            raise DetectionError(f"detection failed, nothing was anonymized: {err!r}") from err
        if not isinstance(found, Sequence) or len(found) != len(texts):
            raise DetectionError("the detector must return one list of spans per text")
        out = []
        for spans in found:
            try:
                spans = list(spans)
            except TypeError:
                raise DetectionError(
                    "the detector must return one list of spans per text"
                ) from None
            if threshold is not None:
                spans = [s for s in spans if s.score is None or s.score >= threshold]
            out.append((spans, None))
        return out

    def _detect_model(self, views: Sequence[TextView], batch_size, threshold, progress):
        """The detector's own path (:meth:`SpanDetector.decode`, as ``detect`` and
        ``report``); its errors become :class:`DetectionError`."""
        from hf_anon.model.detection import NonFiniteScoresError
        from hf_anon.text.data import Document

        detector = self.detector
        documents = [Document(str(i), view.original) for i, view in enumerate(views)]
        try:
            predicted = detector.predict_probabilities(
                documents, batch_size=batch_size, progress=progress, views=views
            )
        except Exception as err:
            raise DetectionError(f"detection failed, nothing was anonymized: {err!r}") from err
        try:
            found = detector.decode_all(predicted, threshold=threshold)
        except NonFiniteScoresError as err:
            raise DetectionError(f"{err}; nothing was anonymized") from err
        tokens = [encoded.num_tokens for encoded, *_ in predicted]
        return list(zip(found, tokens, strict=True))

    def detect(
        self,
        texts: Sequence[str],
        *,
        batch_size: int | None = None,
        threshold: float | None = None,
        progress: bool = False,
    ) -> list[list[Span]]:
        """Spans (label, risk, score; character offsets) for texts of any length.

        Long texts are windowed, never truncated; windows of all texts are batched
        sorted by length. ``threshold`` on ``1 - P(O)`` trades precision for recall
        (None: the most likely tag); for a callable detector it drops spans scored lower.
        """
        if isinstance(texts, str):
            raise TypeError("detect takes a list of texts; wrap a single text in a list")
        views = self._read(texts)
        found = self._detect(views, batch_size=batch_size, threshold=threshold, progress=progress)
        return [spans for spans, _ in found]

    def _read(self, texts: Sequence[object]) -> list[TextView]:
        """Where texts enter: checked, and read once for every stage after
        (:class:`~hf_anon.text.views.TextView`, in the model's language)."""
        language = getattr(self.detector, "language", None) or self.language
        unwrap = getattr(self.detector, "unwrap_lines", False)
        return [read_text(t, language, unwrap) for t in check_texts(texts)]

    # -- anonymization
    def plan(
        self,
        *,
        mode: str | Operator = "pseudonym",
        operators: Mapping[str, str | Operator] | None = None,
        labels: Iterable[str] | None = None,
        min_risk: str | None = None,
        leak_min_score: float = LEAK_MIN_SCORE,
    ) -> AnonymizationPlan:
        return AnonymizationPlan.build(
            mode=mode,
            operators=operators,
            labels=labels,
            min_risk=min_risk,
            label_set=self.label_set,
            leak_min_score=leak_min_score,
        )

    def anonymize(
        self,
        text_or_texts: str | Sequence[str],
        *,
        mode: str | Operator = "pseudonym",
        operators: Mapping[str, str | Operator] | None = None,
        labels: Iterable[str] | None = None,
        min_risk: str | None = None,
        threshold: float | None = None,
        seed: int | None = None,
        secret: str | bytes | None = None,
        key: bool = False,
        batch_size: int | None = None,
        progress: bool = False,
        plan: AnonymizationPlan | None = None,
        leak_min_score: float = LEAK_MIN_SCORE,
        topics: TopicRedactor | None = None,
        topic_mode: str = "redact",
    ) -> AnonymizationResult | list[AnonymizationResult]:
        """Detect and replace; one result for a string, a list for a list of strings.

        - ``mode``: the operator for every selected label (``redact``, ``label``,
          ``initials``, ``pseudonym``, ``keep``, or an :class:`Operator`);
          ``operators``: per-label exceptions, e.g. ``{"court-name": "keep"}``.
        - ``labels``: the labels to replace (default all); ``min_risk``: replace only
          spans of at least this risk (``low`` < ``medium`` < ``high``).
        - ``threshold``: detection threshold (see :meth:`detect`).
        - ``seed``: reproducible output (same seed, same text → same result); without it
          every call draws fresh replacements.
        - ``secret``: link documents: an entity gets the same replacement in every
          document anonymized with the same secret (keyed HMAC). Without it nothing
          links documents.
        - ``key``: also return the originals, so that :meth:`AnonymizationResult.restore`
          works (keep such results away from the published text).
        - ``leak_min_score``: the leak check searches the other mentions of spans scored at
          least this (:mod:`~hf_anon.apply.anonymize.leakcheck`); spans scored lower are replaced
          where they stand only.

        - ``topics``: a :class:`~hf_anon.apply.topics.TopicRedactor`: what the texts say about a
          person's origin, religion, health or sexuality is replaced too (``topic_mode``
          ``redact``: the mask; ``label``: ``<topic:NAME>``), after the personal data; the
          detected names count as persons for its candidates.

        A ``plan`` (from :meth:`plan`) replaces ``mode``, ``operators``, ``labels``,
        ``min_risk`` and ``leak_min_score``. Raises :class:`DetectionError` if detection
        fails for any window of any text and :class:`LeakError` if a protected form would
        remain: never partial output.
        """
        single = isinstance(text_or_texts, str)
        texts = [text_or_texts] if single else list(text_or_texts)
        if (
            topics is not None
        ):  # hf_anon.apply.topics is loaded already: topics is one of its objects
            from hf_anon.apply.anonymize.topics import check_topic_mode

            check_topic_mode(topic_mode)  # before detection, not after it
        if plan is None:
            plan = self.plan(
                mode=mode,
                operators=operators,
                labels=labels,
                min_risk=min_risk,
                leak_min_score=leak_min_score,
            )
        secret_bytes = as_secret(secret)
        self._warn_language(texts)
        views = self._read(texts)
        found = self._detect(views, batch_size=batch_size, threshold=threshold, progress=progress)
        results = [
            replace_spans(
                view,
                spans,
                plan=plan,
                seed=seed,
                secret=secret_bytes,
                key=key,
                tokens=tokens,
                language=self.language,
            )
            for view, (spans, tokens) in zip(views, found, strict=True)
        ]
        if topics is not None:
            results = self._add_topics(views, found, results, topics, topic_mode)
        return results[0] if single else results

    def _warn_language(self, texts: Sequence[str]) -> None:
        """A model reads one language: a text in the other script would come back almost
        untouched, so say so (``Anonymizer.for_texts`` picks the right model)."""
        import warnings

        from hf_anon.text.languages import script_language

        if not hasattr(self.detector, "predict_probabilities"):
            return  # a callable detector reads whatever it reads
        other = [
            (i, language)
            for i, t in enumerate(texts)
            if isinstance(t, str)
            and t.strip()
            and (language := script_language(t)) != self.language
        ]
        if other:
            first, language = other[0]
            warnings.warn(
                f"{len(other)} text(s) (first: #{first}) look {language} but the model reads "
                f"{self.language}; load the model of their language "
                "(Anonymizer.for_texts or from_pretrained(language=...))",
                stacklevel=3,
            )

    def _add_topics(self, views: Sequence[TextView], found, results, topics, mode):
        from hf_anon.apply.anonymize.topics import with_topic_spans

        persons = [
            [s for s in spans if s.label in self.label_set.person_labels] for spans, _ in found
        ]
        topic_spans = topics.find([view.detection for view in views], persons)
        return [
            with_topic_spans(result, view.original, spans, mode=mode)
            for result, view, spans in zip(results, views, topic_spans, strict=True)
        ]
