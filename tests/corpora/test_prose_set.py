"""The ordinary-prose set: paragraphs of annotated decisions that hold no gold span."""

from __future__ import annotations

import sys
from pathlib import Path

from hf_anon.text.data import Document, Span, load_jsonl

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "datasets_scripts"))
from build_prose_set import prose_paragraphs  # noqa: E402

REASONS = "Die Klage ist unbegründet, weil der Anspruch nach § 280 BGB nicht besteht. " * 6


def test_only_long_paragraphs_without_a_gold_span_are_kept():
    facts = "Der Kläger Hans Huber wohnt in München und schloss einen Vertrag mit der Beklagten."
    text = f"{facts}\n{REASONS}\nKurz."
    doc = Document("d", text, [Span(11, 21, "nat-name", "high")], meta={"court": "AG X"})

    paragraphs = prose_paragraphs(doc, min_chars=100)

    assert [p.text for p in paragraphs] == [REASONS.rstrip("\n")]
    (p,) = paragraphs
    assert p.spans == [] and p.meta["source_document"] == "d"
    assert text[p.meta["start"] : p.meta["end"]] == p.text  # offsets into the decision


def test_a_span_anywhere_in_a_paragraph_drops_it():
    doc = Document("d", REASONS, [Span(len(REASONS) - 5, len(REASONS) - 1, "date-fact", "low")])
    assert prose_paragraphs(doc, min_chars=10) == []


def test_the_bundled_prose_set_has_no_span_and_comes_from_splits_nothing_trains_on():
    prose = load_jsonl(ROOT / "data" / "real" / "prose.jsonl")
    train_ids = {d.id for d in load_jsonl(ROOT / "data" / "real" / "train.jsonl")}
    assert len(prose) > 100
    assert all(not p.spans for p in prose)
    assert not {p.meta["source_document"] for p in prose} & train_ids
