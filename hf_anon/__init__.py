"""hf-anon: models that find and replace sensitive spans in German court decisions."""

from hf_anon.anonymize import AnonymizationResult, Anonymizer, Replacement
from hf_anon.data import Document, Span, ValidationError, load_jsonl, save_jsonl
from hf_anon.labels import DEFAULT_LABELS, RISKS, Label, LabelSet
from hf_anon.metrics import SpanScorer, SpanScores, score_documents

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
