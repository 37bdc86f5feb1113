"""What a reviewer should look at first: the spans of a decision with their doubt.

No court publishes a machine's output unread; a clerk confirms every span. Most spans are
clear, a few are not: a span scored just above its label's threshold (the model was
nearly as ready to leave it), and a further mention the leak check replaced because an
earlier one was found. :func:`review_record` writes one decision's spans, on its original
text, with their scores and a ``doubt`` reason for those, so that a review tool (the demo,
Label Studio: :mod:`hf_anon.apply.label_studio`) can show the doubtful ones first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from hf_anon.apply.anonymize.types import AnonymizationResult
from hf_anon.text.data import Document, Span
from hf_anon.text.views import detection_view

#: A span scored less than this above its label's threshold is doubtful.
DOUBT_MARGIN = 0.15
#: The threshold of a label the model's config does not calibrate (``1 - P(O)``, the
#: most likely tag: above one half).
DEFAULT_THRESHOLD = 0.5


def doubt(
    score: float | None,
    label: str,
    source: str = "detector",
    thresholds: Mapping[str, float] | None = None,
    margin: float = DOUBT_MARGIN,
) -> str | None:
    """Why a span needs a look (None: it does not): ``leak-check`` for a mention the leak
    check added, ``near threshold`` for a score within ``margin`` of its label's threshold.
    Spans without a score (rules, gold files) are not doubted."""
    if source == "leak-check":
        return "leak-check"
    if score is None:
        return None
    threshold = (thresholds or {}).get(label, DEFAULT_THRESHOLD)
    return "near threshold" if score < threshold + margin else None


def review_record(
    doc_id: str,
    text: str,
    result: AnonymizationResult,
    thresholds: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """One decision for review: its id, original text and every span the anonymizer saw
    (detections and leak-check additions, replaced or kept), each with ``score``,
    ``replaced``, ``source`` and ``doubt``; doubtful spans are counted in ``doubtful``."""
    replaced = {(r.start, r.end) for r in result.replacements}
    spans = [_entry(s, "detector", (s.start, s.end) in replaced, thresholds) for s in result.spans]
    seen = {(s.start, s.end) for s in result.spans}
    spans += [
        _entry(r, r.source, True, thresholds)
        for r in result.replacements
        if (r.start, r.end) not in seen
    ]
    spans.sort(key=lambda s: (s["start"], s["end"]))
    return {
        "id": doc_id,
        "text": text,
        "spans": spans,
        "doubtful": sum(s["doubt"] is not None for s in spans),
    }


def _entry(span, source: str, replaced: bool, thresholds) -> dict[str, Any]:
    """A span or replacement (both have start, end, label, risk, score) as a review entry."""
    score = span.score
    return {
        "start": span.start,
        "end": span.end,
        "label": span.label,
        "risk": span.risk,
        "score": None if score is None else round(float(score), 4),
        "source": source,
        "replaced": replaced,
        "doubt": doubt(score, span.label, source, thresholds),
    }


def given_spans(documents: Iterable[Document]) -> Callable[[list[str]], list[list[Span]]]:
    """A detector that answers with the spans of reviewed documents (a gold file from
    Label Studio or the demo): for each text it is given, the spans of the document with
    that text. A text no document holds is an error, never a text left as it is."""
    by_text = {detection_view(d.text): list(d.spans) for d in documents}

    def detect(texts: list[str]) -> list[list[Span]]:
        for number, text in enumerate(texts):
            if text not in by_text:
                raise ValueError(
                    f"no reviewed spans for text {number} ({text[:40]!r}…): the spans file "
                    "must hold the same texts as the inputs"
                )
        return [list(by_text[text]) for text in texts]

    return detect
