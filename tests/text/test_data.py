"""Span documents: loading, validation, saving, and datasets conversion."""

from __future__ import annotations

import json
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.text.data import (
    Document,
    Span,
    ValidationError,
    from_dataset,
    load_jsonl,
    parse_document,
    rewrite_spans,
    save_jsonl,
    to_dataset,
)
from hf_anon.text.labels import DEFAULT_LABELS

TEXT = "Herr Hans Müller wohnt in der Bahnhofstraße 12, 80331 München."
#       0    5         16                 30                 48


def gold(*spans: dict, text: str = TEXT, doc_id: str = "doc-1", **extra) -> dict:
    return {"id": doc_id, "text": text, "spans": list(spans), **extra}


def span(start: int, end: int, label: str = "nat-name", risk: str = "high", **extra) -> dict:
    return {"start": start, "end": end, "label": label, "risk": risk, **extra}


def write_lines(path, rows) -> None:
    path.write_text(
        "".join(
            r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) + "\n" for r in rows
        ),
        encoding="utf-8",
    )


def test_a_gold_document_loads_with_sorted_spans_and_keeps_extra_fields(tmp_path):
    path = tmp_path / "gold.jsonl"
    address = span(30, 46, "address-name")
    name = span(10, 16)
    write_lines(path, [gold(address, name, domain="mietrecht", kept=[{"note": 1}])])
    (doc,) = load_jsonl(path)
    assert doc.id == "doc-1" and doc.domain == "mietrecht"
    assert [doc.span_text(s) for s in doc.spans] == ["Müller", "Bahnhofstraße 12"]
    assert doc.meta == {"kept": [{"note": 1}]}
    out = tmp_path / "out.jsonl"
    save_jsonl([doc], out)
    assert load_jsonl(out) == [doc]
    assert "Müller" in out.read_text(encoding="utf-8")  # readable UTF-8, not \\u escapes


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (gold(span(50, 70)), "out of range"),
        (gold(span(-1, 4)), "out of range"),
        (gold(span(10, 10)), "smaller than end"),
        (gold(span(16, 10)), "smaller than end"),
        (gold(span(4, 9)), "whitespace"),  # " Hans"
        (gold(span(5, 10)), "whitespace"),  # "Hans "
        (gold(span(5, 16), span(10, 16)), "overlaps"),
        (gold(span(5, 16), span(0, 20)), "overlaps"),  # nesting
        (gold(span(5, 9, "person")), "unknown label 'person'"),
        (gold(span(5, 9, risk="critical")), "unknown risk 'critical'"),
        (gold({"start": 5, "end": 9, "label": "nat-name"}), "missing risk"),
        (gold(span(5.0, 9)), "integers"),
        (gold(span(True, 9)), "integers"),
        (gold(span(5, 9, score=1.5)), "score"),
        (gold(span(5, 9, text="Hanz")), "differs"),
        (gold(span(5, 9, comment="x")), "unknown keys"),
        (gold("not a span"), "must be an object"),
        ({"id": "doc-1", "text": 42, "spans": []}, "text must be a string"),
        ({"id": "doc-1", "text": None, "spans": []}, "text must be a string"),
        ({"id": "doc-1", "text": TEXT, "spans": {"start": 1}}, "must be a list"),
        ({"id": 7, "text": TEXT, "spans": []}, "id must be a non-empty string"),
        ({"text": TEXT, "spans": []}, "id must be a non-empty string"),
        ({"id": "doc-1", "text": TEXT, "domain": 3}, "domain must be a string"),
        (["not", "an", "object"], "must be a JSON object"),
    ],
)
def test_every_broken_input_is_rejected_naming_document_and_span(raw, message):
    with pytest.raises(ValidationError, match=message) as err:
        parse_document(raw)
    if isinstance(raw, dict) and isinstance(raw.get("id"), str) and raw.get("spans"):
        assert "doc-1" in str(err.value)
        if isinstance(raw["spans"], list) and "overlaps" not in message:
            assert "span 0" in str(err.value) or "span 1" in str(err.value)


def test_loader_names_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    write_lines(path, [gold(doc_id="a"), "\n", gold(span(5, 9, "person"), doc_id="b")])
    with pytest.raises(ValidationError, match=r"bad\.jsonl:3: document 'b', span 0"):
        load_jsonl(path)


def test_duplicate_document_ids_are_rejected(tmp_path):
    path = tmp_path / "dup.jsonl"
    write_lines(path, [gold(doc_id="same"), gold(doc_id="same")])
    with pytest.raises(
        ValidationError, match=r"dup\.jsonl:2: duplicate document id 'same' .*line 1"
    ):
        load_jsonl(path)


def test_invalid_json_and_invalid_utf8_are_reported_with_line(tmp_path):
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(gold()) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(ValidationError, match=r"broken\.jsonl:2: invalid JSON"):
        load_jsonl(path)
    path.write_bytes(json.dumps(gold()).encode() + b"\n\xff\xfe\n")
    with pytest.raises(ValidationError, match=r"broken\.jsonl:2: not valid UTF-8"):
        load_jsonl(path)


def test_blank_lines_are_not_documents_and_nothing_is_dropped(tmp_path):
    path = tmp_path / "gaps.jsonl"
    docs = [gold(span(5, 16), doc_id=f"d{i}") for i in range(3)]
    write_lines(path, [docs[0], "\n", docs[1], "   \n", docs[2]])
    loaded = load_jsonl(path)
    assert [d.id for d in loaded] == ["d0", "d1", "d2"]
    assert sum(len(d.spans) for d in loaded) == 3


def test_placeholder_files_load_with_their_own_key(tmp_path):
    path = tmp_path / "anon.jsonl"
    text = "Herr A. wohnt in der X-Straße 3."
    row = {"id": "p", "text": text, "placeholders": [{"start": 5, "end": 7, "label": "nat-name"}]}
    write_lines(path, [row])
    (doc,) = load_jsonl(path, spans_key="placeholders", require_risk=False)
    assert doc.span_text(doc.spans[0]) == "A." and doc.spans[0].risk is None
    out = tmp_path / "out.jsonl"
    save_jsonl([doc], out, spans_key="placeholders")
    assert json.loads(out.read_text(encoding="utf-8")) == row


def test_empty_text_with_no_spans_is_a_valid_document():
    doc = parse_document({"id": "empty", "text": ""})
    assert doc.spans == [] and doc.text == ""


def test_dataset_round_trip_with_explicit_features():
    docs = [
        Document(
            "a", TEXT, [Span(10, 16, "nat-name", "high"), Span(30, 46, "address-name", "high")]
        ),
        Document("b", "Leer.", [], domain="verkehrsrecht", meta={"source": "test"}),
        Document("c", TEXT, [Span(5, 16, "nat-name", "medium", score=0.875)]),
    ]
    dataset = to_dataset(docs)
    assert dataset.features["spans"].feature["label"].names == DEFAULT_LABELS.names
    assert dataset.features["spans"].feature["risk"].names == list(DEFAULT_LABELS.risks)
    assert dataset[0]["spans"][0]["label"] == DEFAULT_LABELS.label_id("nat-name")
    assert from_dataset(dataset) == docs


def test_placeholder_spans_keep_their_missing_risk_and_unknown_label_in_a_dataset():
    docs = [Document("a", "Herr A. und B.", [Span(5, 7, "nat-name"), Span(12, 14, "unknown")])]
    dataset = to_dataset(docs, spans_key="placeholders", extra_labels=["unknown"])
    assert dataset.features["placeholders"].feature["label"].names[-1] == "unknown"
    back = from_dataset(
        dataset, spans_key="placeholders", require_risk=False, extra_labels=["unknown"]
    )
    assert back == docs and back[0].spans[0].risk is None


@st.composite
def valid_documents(draw):
    text = draw(st.text(min_size=0, max_size=80))
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=12))))
    spans = []
    for start, end in zip(cuts[::2], cuts[1::2], strict=False):
        piece = text[start:end]
        stripped = piece.strip()
        if not stripped:
            continue
        start += len(piece) - len(piece.lstrip())
        end = start + len(stripped)
        spans.append(
            Span(
                start,
                end,
                draw(st.sampled_from(DEFAULT_LABELS.names)),
                draw(st.sampled_from(DEFAULT_LABELS.risks)),
            )
        )
    return Document(draw(st.text(min_size=1, max_size=10)), text, spans)


@settings(max_examples=200, deadline=None)
@given(valid_documents())
def test_any_valid_document_survives_json_round_trip(doc):
    line = json.dumps(doc.to_dict(), ensure_ascii=False)
    assert parse_document(json.loads(line)) == doc


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text("ab ", max_size=4), st.text("XYZ", min_size=1, max_size=4),
                          st.text("pq", max_size=3)), max_size=6))  # fmt: skip
def test_rewritten_spans_keep_what_lies_between_and_move_with_the_text(pieces):
    """Each span's characters replaced by a new surface of another length: the spans end up
    over the new surfaces, and the text between them is as it was."""
    text, spans = "", []
    for before, surface, _ in pieces:
        text += before
        spans.append(Span(len(text), len(text) + len(surface), "nat-name", "high"))
        text += surface
    rewritten, moved = rewrite_spans(text, spans, lambda s: s.lower() * 2)
    assert [rewritten[s.start : s.end] for s in moved] == [
        text[s.start : s.end].lower() * 2 for s in spans
    ]
    assert [(s.label, s.risk) for s in moved] == [("nat-name", "high")] * len(spans)
    between_old = [text[a.end : b.start] for a, b in pairwise(spans)]
    between_new = [rewritten[a.end : b.start] for a, b in pairwise(moved)]
    assert between_old == between_new
