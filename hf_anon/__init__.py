"""hf-anon: models that find and replace sensitive spans in German court decisions."""

from hf_anon.apply.anonymize import AnonymizationResult, Anonymizer, Replacement
from hf_anon.model.metrics import SpanScorer, SpanScores, score_documents
from hf_anon.text.data import Document, Span, ValidationError, load_jsonl, save_jsonl
from hf_anon.text.labels import DEFAULT_LABELS, RISKS, Label, LabelSet

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_LABELS",
    "RISKS",
    "AnonymizationResult",
    "Anonymizer",
    "Document",
    "Label",
    "LabelSet",
    "Replacement",
    "Span",
    "SpanScorer",
    "SpanScores",
    "ValidationError",
    "load_jsonl",
    "save_jsonl",
    "score_documents",
]
