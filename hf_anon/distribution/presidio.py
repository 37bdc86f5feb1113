"""hf-anon inside Microsoft Presidio: a German recognizer for ``AnalyzerEngine``.

Needs ``pip install "hf-anon[presidio]"`` (``presidio-analyzer`` and
``presidio-anonymizer``). Everything runs offline: no spaCy model is downloaded (there is
no German spaCy model on PyPI); the analyzer gets a blank German spaCy pipeline that only
splits words (:class:`BlankSpacyNlpEngine`), and the hf-anon model finds the entities.

>>> from hf_anon.distribution.presidio import analyzer_engine  # doctest: +SKIP
>>> from presidio_anonymizer import AnonymizerEngine  # doctest: +SKIP
>>> results = analyzer_engine().analyze(text, language="de")  # doctest: +SKIP
>>> AnonymizerEngine().anonymize(text, results).text  # doctest: +SKIP
'Der Kläger <PERSON> wohnt in der <LOCATION> …'

:class:`HfAnonRecognizer` maps the hf-anon labels to Presidio's entities where Presidio
has one for the same thing (:data:`ENTITY_MAP`); the other labels stay entity names of
their own (``court-docket``, ``nat-idx``, …), so that ``entities=[...]`` and the
anonymizer's ``operators={...}`` can address them. ``keep_labels=True`` keeps all 14
hf-anon labels as entity names. Scores are the span scores of the model; each result
explains itself (``return_decision_process=True``) and carries the hf-anon label and
risk in ``recognition_metadata``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

try:
    import spacy
    from presidio_analyzer import (
        AnalysisExplanation,
        AnalyzerEngine,
        EntityRecognizer,
        RecognizerRegistry,
        RecognizerResult,
    )
    from presidio_analyzer.nlp_engine import NlpEngine, SpacyNlpEngine
    from spacy.language import Language
except ImportError as err:
    raise ImportError(
        'hf_anon.distribution.presidio needs Microsoft Presidio: pip install "hf-anon[presidio]" '
        f"(presidio-analyzer and presidio-anonymizer); the import failed with: {err}"
    ) from err

from hf_anon.text.data import Span

if TYPE_CHECKING:
    from hf_anon.apply.anonymize import Anonymizer
    from hf_anon.model.detection import SpanDetector

#: hf-anon label → Presidio entity, where Presidio has an entity for the same thing.
#: ``id-number`` is refined by the span's text (:func:`presidio_entity`). Labels not
#: here keep their hf-anon name as entity: Presidio has nothing for features of persons
#: (``nat-idx``: birth, job, health; ``NRP`` covers only nationality, religion and
#: politics), register numbers, flats and plots, vehicles, dockets; and ``court-name``
#: stays apart from ``ORGANIZATION`` so that courts can be kept while parties are replaced.
ENTITY_MAP: dict[str, str] = {
    "nat-name": "PERSON",
    "nat-jur": "PERSON",
    "jur-name": "ORGANIZATION",
    "address-name": "LOCATION",
    "date-fact": "DATE_TIME",
    "date-world": "DATE_TIME",
}

#: The Presidio entities an ``id-number`` span can become, by the shape of its text.
ID_NUMBER_ENTITIES = ("EMAIL_ADDRESS", "URL", "IBAN_CODE", "PHONE_NUMBER")

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
_IBAN = re.compile(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}")
_PHONE = re.compile(r"(?:\+|\(?0)[\d ()/.\-–]+")

#: The Presidio score of a span whose detector gave none (a rule or a callable detector).
UNSCORED = 1.0


def presidio_entity(label: str, text: str = "", *, keep_labels: bool = False) -> str:
    """The Presidio entity name for an hf-anon ``label``; ``keep_labels``: the label itself.

    The span's ``text`` refines ``id-number``: ``EMAIL_ADDRESS`` if it holds an e-mail
    address, ``URL`` if it holds a web address, ``IBAN_CODE`` for a country code, two
    check digits and 11 to 30 letters or digits, ``PHONE_NUMBER`` for 6 to 15 digits
    beginning with ``+`` or ``0`` (spaces, ``/``, ``-``, brackets allowed), else
    ``id-number`` (contract, policy, claim numbers, …)."""
    if keep_labels:
        return label
    if label == "id-number":
        text = text.strip()
        if _EMAIL.search(text):
            return "EMAIL_ADDRESS"
        if _URL.search(text):
            return "URL"
        if _IBAN.fullmatch(text):
            return "IBAN_CODE"
        if _PHONE.fullmatch(text) and 6 <= sum(c.isdigit() for c in text) <= 15:
            return "PHONE_NUMBER"
        return label
    return ENTITY_MAP.get(label, label)


def entities_for(labels: Iterable[str], *, keep_labels: bool = False) -> list[str]:
    """Every entity name :func:`presidio_entity` can give for spans of ``labels``."""
    out: list[str] = []
    for label in labels:
        names = [presidio_entity(label, keep_labels=keep_labels)]
        if label == "id-number" and not keep_labels:
            names += ID_NUMBER_ENTITIES
        out += [name for name in names if name not in out]
    return out


def _model_name(model) -> str:
    if model is None:
        from hf_anon.model.model_folder import default_model

        return Path(default_model()).name
    if isinstance(model, str | Path):
        return Path(model).name or str(model)
    return type(model).__name__


def _as_anonymizer(model, **load) -> Anonymizer:
    from hf_anon.apply.anonymize import Anonymizer

    if isinstance(model, Anonymizer):
        return model
    if model is None or isinstance(model, str | Path):
        return Anonymizer.from_pretrained(model, **load)
    if hasattr(model, "predict_probabilities") or callable(model):
        return Anonymizer(model)
    raise TypeError(
        "model must be None (the default model), a model folder or hub id, an Anonymizer, "
        f"a SpanDetector or a callable detector, not {type(model).__name__}"
    )


class HfAnonRecognizer(EntityRecognizer):
    """Presidio recognizer that runs an hf-anon model.

    ``model``: None (the default model, :func:`hf_anon.model.model_folder.default_model`), a
    model folder or hub id, an :class:`~hf_anon.apply.anonymize.Anonymizer`, a
    :class:`~hf_anon.model.detection.SpanDetector` or any callable detector (texts → spans).
    ``keep_labels``: entity names are the hf-anon labels (else :data:`ENTITY_MAP`).
    ``threshold``: detection threshold on ``1 - P(O)`` (None: the model's calibration).
    ``load``: keywords for :meth:`Anonymizer.from_pretrained` (``device``, ``dtype``, …)
    when ``model`` is a folder, hub id or None.
    """

    def __init__(
        self,
        model: str | Path | Anonymizer | SpanDetector | None = None,
        *,
        supported_language: str = "de",
        keep_labels: bool = False,
        threshold: float | None = None,
        batch_size: int | None = None,
        name: str = "HfAnonRecognizer",
        **load,
    ):
        self.anonymizer = _as_anonymizer(model, **load)
        self.model_name = _model_name(model)
        self.keep_labels = keep_labels
        self.threshold = threshold
        self.batch_size = batch_size
        super().__init__(
            supported_entities=entities_for(
                self.anonymizer.label_set.names, keep_labels=keep_labels
            ),
            name=name,
            supported_language=supported_language,
            version="hf-anon",
        )

    def load(self) -> None:
        """Nothing to do: the model is loaded in the constructor."""

    def entity_of(self, span: Span, text: str) -> str:
        return presidio_entity(
            span.label, text[span.start : span.end], keep_labels=self.keep_labels
        )

    def analyze(self, text: str, entities: list[str] | None, nlp_artifacts=None):
        """Results for the spans the model finds in ``text`` (entities not in
        ``entities`` left out, when given)."""
        if not text:
            return []
        spans = self.anonymizer.detect(
            [text], threshold=self.threshold, batch_size=self.batch_size
        )[0]
        wanted = set(entities) if entities else None
        results = []
        for span in spans:
            entity = self.entity_of(span, text)
            if wanted is not None and entity not in wanted:
                continue
            score = UNSCORED if span.score is None else float(span.score)
            risk = span.risk or self.anonymizer.label_set[span.label].risk
            explanation = AnalysisExplanation(
                recognizer=self.name,
                original_score=score,
                textual_explanation=(
                    f"hf-anon model {self.model_name}: {span.label} (risk {risk}) → {entity}"
                ),
            )
            results.append(
                RecognizerResult(
                    entity_type=entity,
                    start=span.start,
                    end=span.end,
                    score=score,
                    analysis_explanation=explanation,
                    recognition_metadata={
                        RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                        RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                        "hf_anon_label": span.label,
                        "hf_anon_risk": risk,
                    },
                )
            )
        return results


# -------------------------------------------------------------------- offline German NLP

_LEMMA_COMPONENT = "hf_anon_lowercase_lemma"

if not Language.has_factory(_LEMMA_COMPONENT):

    @Language.component(_LEMMA_COMPONENT)
    def _lowercase_lemma(doc):
        """The lower-cased word as its lemma: what Presidio's context words are."""
        for token in doc:
            token.lemma_ = token.lower_
        return doc


class BlankSpacyNlpEngine(SpacyNlpEngine):
    """Presidio's spaCy engine on ``spacy.blank(language)``: words and lower-cased words
    as lemmas (for the context words of Presidio's pattern recognizers), no named
    entities. Needs no model download."""

    def __init__(self, languages: Iterable[str] = ("de",)):
        languages = list(languages)
        super().__init__(
            models=[{"lang_code": lang, "model_name": f"blank:{lang}"} for lang in languages]
        )
        self.languages = languages

    def load(self) -> None:
        self.nlp = {}
        for lang in self.languages:
            nlp = spacy.blank(lang)
            nlp.add_pipe(_LEMMA_COMPONENT)
            nlp.max_length = 10_000_000  # a tokenizer alone: long decisions are fine
            self.nlp[lang] = nlp

    def get_supported_entities(self) -> list[str]:
        return []


def predefined_recognizers(language: str = "de") -> list[EntityRecognizer]:
    """Presidio's own recognizers for ``language``: those its default configuration loads
    for it (e-mail, IBAN, phone, date, URL, …) and the country-specific ones written for
    it (for German: tax id, tax number, passport, ID card, social security, health
    insurance, licence plate, commercial register, postcode, VAT id, driving licence, …,
    which Presidio ships disabled). No NER recognizer: that needs a spaCy model."""
    from presidio_analyzer import predefined_recognizers as predefined
    from presidio_analyzer.predefined_recognizers import (
        SpacyRecognizer,
        StanzaRecognizer,
        TransformersRecognizer,
    )

    registry = RecognizerRegistry(supported_languages=[language])
    registry.load_predefined_recognizers(languages=[language])
    nlp_based = (SpacyRecognizer, StanzaRecognizer, TransformersRecognizer)
    out = [r for r in registry.recognizers if not isinstance(r, nlp_based)]
    loaded = {type(r) for r in out}
    for name in getattr(predefined, "__all__", ()):
        cls = getattr(predefined, name, None)
        if not (inspect.isclass(cls) and issubclass(cls, EntityRecognizer)):
            continue
        if cls in loaded or issubclass(cls, nlp_based):
            continue
        try:
            default = inspect.signature(cls).parameters.get("supported_language")
        except (TypeError, ValueError):
            continue
        if default is not None and default.default == language:
            out.append(cls(supported_language=language))
            loaded.add(cls)
    return out


def analyzer_engine(
    model: str | Path | Anonymizer | SpanDetector | HfAnonRecognizer | None = None,
    *,
    language: str = "de",
    keep_labels: bool = False,
    predefined: bool = False,
    nlp_engine: NlpEngine | None = None,
    **recognizer_kwargs,
) -> AnalyzerEngine:
    """A Presidio ``AnalyzerEngine`` for German that works offline, with an
    :class:`HfAnonRecognizer` for ``model`` (None: the default model; or a ready
    recognizer) registered.

    ``predefined``: Presidio's own recognizers for the language as well
    (:func:`predefined_recognizers`; more e-mail addresses, IBANs and phone numbers, and
    their false alarms). ``nlp_engine``: another loaded engine (default
    :class:`BlankSpacyNlpEngine`). Other keywords go to :class:`HfAnonRecognizer`.
    """
    if nlp_engine is None:
        nlp_engine = BlankSpacyNlpEngine([language])
        nlp_engine.load()
    if isinstance(model, HfAnonRecognizer):
        recognizer = model
    else:
        recognizer = HfAnonRecognizer(
            model, supported_language=language, keep_labels=keep_labels, **recognizer_kwargs
        )
    registry = RecognizerRegistry(supported_languages=[language])
    if predefined:
        for other in predefined_recognizers(language):
            registry.add_recognizer(other)
    registry.add_recognizer(recognizer)
    return AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=[language])


__all__ = [
    "ENTITY_MAP",
    "ID_NUMBER_ENTITIES",
    "BlankSpacyNlpEngine",
    "HfAnonRecognizer",
    "analyzer_engine",
    "entities_for",
    "predefined_recognizers",
    "presidio_entity",
]
