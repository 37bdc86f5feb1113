"""The real-decision scripts: pre-annotation for annotators, silver labels, rule measurement."""

from __future__ import annotations

import sys
from pathlib import Path

from hf_anon.corpora.markup import parse_markup
from hf_anon.corpora.surrogates import Pseudonymizer
from hf_anon.text.data import Document

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "datasets_scripts"))

from build_real_corpus import measure, silver_document  # noqa: E402
from prepare_real_annotation import pre_annotate  # noqa: E402

PUBLISHED = (
    "Amtsgericht Fürth\n3 C 12/21\nIm Namen des Volkes\n"
    "In dem Rechtsstreit des Herrn A., A-Straße 1, gegen die X GmbH\n"
    "erlässt das Amtsgericht Fürth durch die Richterin am Amtsgericht Schulz folgendes Urteil:\n"
    "Tatbestand\nAm 3. März 2021 übergab der Kläger die Wohnung. Die Zeugin B. bestätigte das."
)


def test_pre_annotation_marks_placeholders_only_and_gives_the_text_back():
    marked = parse_markup(
        pre_annotate({"id": "doc-1", "text": PUBLISHED}, Pseudonymizer(seed=1)), allow_unknown=True
    )
    assert marked.published == PUBLISHED
    assert all(s.placeholder for s in marked.spans)
    assert [s.surface for s in marked.spans] == ["A.", "A-Straße 1", "X", "B."]
    assert "Herr A." not in marked.filled and "X GmbH" not in marked.filled


def test_silver_labels_join_pseudonymized_placeholders_and_rule_spans():
    doc = silver_document(
        Document("doc-1", PUBLISHED),
        ["courts", "dockets", "dates", "jurists"],
        Pseudonymizer(seed=1),
    )
    found = {(doc.text[s.start : s.end], s.label) for s in doc.spans}
    assert {
        ("Amtsgericht Fürth", "court-name"),
        ("3 C 12/21", "court-docket"),
        ("Schulz", "nat-jur"),
        ("3. März 2021", "date-fact"),
    } <= found
    assert "Herrn A." not in doc.text
    names = [doc.text[s.start : s.end] for s in doc.spans if s.label == "nat-name"]
    assert len(names) == 2 and all(n not in {"A.", "B."} for n in names)


def test_rules_are_measured_on_the_gold_validation_split():
    results = measure(ROOT / "data" / "real")
    assert results["split"] == "validation"
    assert results["rules"]["dates"]["predicted"] > 0
    assert 0.0 <= results["rules"]["dates"]["precision"] <= 1.0
    assert results["labels"]["date-fact"]["gold"] > 0


def test_file_names_are_safe():
    from hf_anon.corpora.markup import markup_file_name

    assert markup_file_name("wwl:BayernCaseLaw:BY-Y 300/Z") == "wwl_BayernCaseLaw_BY-Y_300_Z"


def test_a_teacher_adds_clear_text_names_that_no_rule_and_no_placeholder_covers():
    from collections import Counter

    from hf_anon.text.data import Span

    text = "Der Sachverständige Dr. Karl Brenner bestätigte das. Herr A. widersprach."
    brenner = text.index("Karl Brenner")
    placeholder = text.index("A.")
    teacher = [
        Span(brenner, brenner + len("Karl Brenner"), "nat-name", "high", 0.97),
        Span(placeholder, placeholder + 2, "nat-name", "high", 0.99),  # a placeholder already
    ]
    counts: Counter = Counter()
    doc = silver_document(Document("d", text), ["dates"], Pseudonymizer(seed=2), counts, teacher)
    names = [doc.text[s.start : s.end] for s in doc.spans if s.label == "nat-name"]
    assert "Karl Brenner" in names and "A." not in doc.text
    assert counts == Counter({"placeholder": 1, "rule": 0, "teacher": 1})
