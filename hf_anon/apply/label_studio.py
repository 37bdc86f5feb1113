"""Review in Label Studio: pre-annotated tasks out, completed annotations back as gold.

Annotation teams review in the tool they already use. :func:`labeling_config` is the
Label Studio project's labelling configuration: the labels of a
:class:`~hf_anon.text.labels.LabelSet` (character-exact spans, ``granularity="symbol"``)
and the risk of each span as a per-region choice. :func:`to_tasks` turns review records
(:func:`hf_anon.apply.review.review_record`, or gold documents) into tasks in Label
Studio's JSON import format, the spans as predictions, doubtful ones flagged;
:func:`from_export` reads a JSON export of completed tasks back into gold documents.

Offsets: Label Studio counts characters as JavaScript does, in UTF-16 code units, Python
in code points; a character outside the Basic Multilingual Plane (``𠮷``, an emoji) is
two units there and one here. The offsets are converted both ways
(:func:`to_utf16`, :func:`from_utf16`), so they survive the round trip exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.sax.saxutils import quoteattr

from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS, RISKS, LabelSet

#: The names of the labelling config's controls and object.
LABELS, RISK, TEXT = "label", "risk", "text"
MODEL_VERSION = "hf-anon"


def to_utf16(text: str, offset: int) -> int:
    """A Python offset (code points) as a JavaScript one (UTF-16 code units)."""
    return offset + sum(ord(c) > 0xFFFF for c in text[:offset])


def from_utf16(text: str, offset: int) -> int:
    """A JavaScript offset (UTF-16 code units) as a Python one; a ValueError for an offset
    inside a surrogate pair or beyond the text."""
    units = 0
    for index, char in enumerate(text):
        if units == offset:
            return index
        units += 2 if ord(char) > 0xFFFF else 1
        if units > offset:
            raise ValueError(f"offset {offset} falls inside the character at {index}")
    if units == offset:
        return len(text)
    raise ValueError(f"offset {offset} is beyond the text ({units} UTF-16 units)")


def labeling_config(label_set: LabelSet = DEFAULT_LABELS) -> str:
    """The project's labelling configuration (Label Studio's XML)."""
    labels = "\n".join(
        f"    <Label value={quoteattr(label.name)} hint={quoteattr(label.description_de)}/>"
        for label in label_set
    )
    risks = "\n".join(f"    <Choice value={quoteattr(risk)}/>" for risk in RISKS)
    return (
        "<View>\n"
        f'  <Labels name="{LABELS}" toName="{TEXT}">\n{labels}\n  </Labels>\n'
        f'  <Text name="{TEXT}" value="$text" granularity="symbol"/>\n'
        f'  <Choices name="{RISK}" toName="{TEXT}" perRegion="true" choice="single" '
        'showInline="true">\n'
        f"{risks}\n  </Choices>\n"
        "</View>\n"
    )


def _regions(text: str, spans: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A span → a labels result and a risk choice of the same region (same ``id``)."""
    results = []
    for number, span in enumerate(spans):
        start, end = to_utf16(text, span["start"]), to_utf16(text, span["end"])
        value = {"start": start, "end": end, "text": text[span["start"] : span["end"]]}
        region = f"r{number}"
        label = {"id": region, "from_name": LABELS, "to_name": TEXT, "type": "labels"}
        label["value"] = {**value, "labels": [span["label"]]}
        if span.get("score") is not None:
            label["score"] = span["score"]
        if span.get("doubt"):
            label["meta"] = {"text": [f"doubt: {span['doubt']}"]}
        results.append(label)
        if span.get("risk"):
            risk = {"id": region, "from_name": RISK, "to_name": TEXT, "type": "choices"}
            risk["value"] = {**value, "choices": [span["risk"]]}
            results.append(risk)
    return results


def to_tasks(
    records: Iterable[Mapping[str, Any] | Document], *, model_version: str = MODEL_VERSION
) -> list[dict[str, Any]]:
    """Label Studio tasks (its JSON import format): each record's text as ``data``, its
    spans as one prediction (doubtful ones first in the task's ``doubtful`` count and
    flagged in their region's ``meta``). A record is a review record or a gold document."""
    tasks = []
    for record in records:
        if isinstance(record, Document):
            record = {
                "id": record.id,
                "text": record.text,
                "spans": [s.to_dict() for s in record.spans],
            }
        spans = sorted(record["spans"], key=lambda s: (s["start"], s["end"]))
        doubtful = sum(bool(s.get("doubt")) for s in spans)
        task = {"data": {"id": record["id"], TEXT: record["text"], "doubtful": doubtful}}
        task["predictions"] = [
            {"model_version": model_version, "result": _regions(record["text"], spans)}
        ]
        tasks.append(task)
    return tasks


def _annotation(task: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The task's completed annotation: the last one not cancelled (None: none)."""
    done = [a for a in task.get("annotations") or [] if not a.get("was_cancelled")]
    if not done:
        return None
    return max(done, key=lambda a: (a.get("updated_at") or "", a.get("id") or 0))


def from_export(
    tasks: Iterable[Mapping[str, Any]], label_set: LabelSet = DEFAULT_LABELS
) -> tuple[list[Document], list[str]]:
    """Gold documents from a Label Studio JSON export, and the ids of the tasks without a
    completed annotation (left out). A span keeps the risk chosen for its region, else its
    label's usual risk; a ValueError names the task of a span that does not fit its text
    or an unknown label."""
    documents, open_ids = [], []
    for task in tasks:
        data = task.get("data") or {}
        text, doc_id = data.get(TEXT), str(data.get("id", task.get("id")))
        if not isinstance(text, str):
            raise ValueError(f"task {doc_id}: no text in data.{TEXT}")
        annotation = _annotation(task)
        if annotation is None:
            open_ids.append(doc_id)
            continue
        regions: dict[str, dict[str, Any]] = {}
        for result in annotation.get("result") or []:
            region = regions.setdefault(result.get("id"), {})
            value = result.get("value") or {}
            if result.get("type") == "labels":
                region.update(value=value, label=(value.get("labels") or [None])[0])
            elif result.get("type") == "choices" and result.get("from_name") == RISK:
                region["risk"] = (value.get("choices") or [None])[0]
        spans = [_span(doc_id, text, r, label_set) for r in regions.values() if "label" in r]
        documents.append(Document(doc_id, text, sorted(spans), data.get("domain")))
    return documents, open_ids


def _span(doc_id: str, text: str, region: Mapping[str, Any], label_set: LabelSet) -> Span:
    value, label = region["value"], region["label"]
    if label not in label_set:
        raise ValueError(f"task {doc_id}: unknown label {label!r}")
    try:
        start, end = from_utf16(text, value["start"]), from_utf16(text, value["end"])
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"task {doc_id}: a {label} span does not fit the text ({err})") from None
    if value.get("text") is not None and text[start:end] != value["text"]:
        raise ValueError(
            f"task {doc_id}: the {label} span [{start}:{end}] reads {text[start:end]!r}, "
            f"Label Studio says {value['text']!r}"
        )
    risk = region.get("risk") or label_set[label].risk
    return Span(start, end, label, risk)
