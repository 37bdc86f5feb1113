"""Synthetic decisions: valid gold spans, the right shapes per label, variety, the script."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from hf_anon.corpora.corpus import load_corpus
from hf_anon.corpora.placeholders import looks_like_placeholder
from hf_anon.corpora.surrogates import (
    MONTHS,
    PLATE_RE,
    VIN_RE,
    is_valid_iban,
    pseudonymize_documents,
)
from hf_anon.corpora.synthetic import (
    DOMAINS,
    Decision,
    Part,
    Writer,
    generate_document,
    generate_documents,
    tenancy,
    traffic,
)
from hf_anon.corpora.synthetic.templates import DOMAIN_TEMPLATES
from hf_anon.corpora.synthetic.templates import frame as frame_templates
from hf_anon.corpora.synthetic.templates import mietrecht as tenancy_templates
from hf_anon.corpora.synthetic.templates import people as people_templates
from hf_anon.corpora.synthetic.templates import verkehrsrecht as traffic_templates
from hf_anon.text.data import load_jsonl, validate_document
from hf_anon.text.labels import DEFAULT_LABELS

SCRIPT = Path(__file__).resolve().parents[2] / "datasets_scripts" / "generate_synthetic.py"
OUTSIDE_AT_START = re.compile(r"(?:Herrn?|Frau|Dr\.|Prof\.|Az\.|Aktenzeichen|Rechtsanw|Richter)\b")
LEGAL_FORM_AT_END = re.compile(r"\b(?:GmbH|AG|KG|e\.V\.|eG|UG|OHG|mbB|SE|e\.K\.)$")
#: SHA-256 of the first 30 documents of seed 0 (ids, domains, texts, spans), the same since
#: the templates became tables (hf_anon/corpora/synthetic/templates/).
SEED_0_DIGEST = "a51b55245a3f3a55f73bd5d94623070e5098f05db8d5b7cc6568c7ad64ba055e"


@pytest.fixture(scope="module")
def docs():
    return generate_documents(200, seed=0)


def spans_of(docs, label: str) -> list[str]:
    return [d.span_text(s) for d in docs for s in d.spans if s.label == label]


def test_the_writer_records_spans_where_the_pieces_land():
    w = Writer()
    w.say(
        "{who} wohnt in der {street}.",
        who=["Herr ", Part("Hans Müller", "nat-name")],
        street=Part("Bahnhofstraße 12", "address-name", "medium"),
    )
    doc = w.document("d", "mietrecht")
    assert doc.text == "Herr Hans Müller wohnt in der Bahnhofstraße 12."
    assert [(doc.span_text(s), s.risk) for s in doc.spans] == [
        ("Hans Müller", "high"),
        ("Bahnhofstraße 12", "medium"),
    ]


def test_every_document_is_valid_and_has_ids_and_domains(docs):
    for doc in docs:
        validate_document(doc)
    assert [d.id for d in docs[:2]] == ["synthetic-000001", "synthetic-000002"]
    assert {d.domain for d in docs} == {"mietrecht", "verkehrsrecht"}


def test_all_labels_occur(docs):
    assert {s.label for d in docs for s in d.spans} == set(DEFAULT_LABELS.names)


def test_spans_follow_the_annotation_boundaries(docs):
    for doc in docs:
        for span in doc.spans:
            text = doc.span_text(span)
            assert not OUTSIDE_AT_START.match(text), text
            assert not text.endswith((",", ";", ":")) and not looks_like_placeholder(text), text
            if span.label == "jur-name":
                assert not LEGAL_FORM_AT_END.search(text), text


def test_span_texts_match_the_shape_of_their_label(docs):
    assert all(PLATE_RE.fullmatch(t) or VIN_RE.fullmatch(t) for t in spans_of(docs, "car-idx"))
    ibans = [t for t in spans_of(docs, "id-number") if t.startswith("DE")]
    assert ibans and all(is_valid_iban(t) for t in ibans)
    assert all(re.search(r"\d", t) for t in spans_of(docs, "court-docket"))
    assert all(re.fullmatch(r"(?:HRB|HRA|VR|GnR|PR) \d+", t) for t in spans_of(docs, "jur-idx"))
    assert all(re.match(r"(?:Amtsgerichts?|Landgericht) ", t) for t in spans_of(docs, "court-name"))
    month = "|".join(MONTHS)
    date = re.compile(
        rf"(?:\d{{1,2}}\.\d{{1,2}}\.\d{{4}}|\d{{1,2}}\. (?:{month}) \d{{4}}|"
        rf"(?:{month}) \d{{4}}|\d{{4}})(?:, \d{{2}}[:.]\d{{2}} Uhr)?|\d{{2}}[:.]\d{{2}} Uhr|"
        r"(?:Frühjahr|Sommer|Herbst) \d{4}|Winter (\d{4})/\d{4}"
    )
    for label in ("date-fact", "date-world"):
        assert all(date.fullmatch(t) for t in spans_of(docs, label)), label
    names = spans_of(docs, "nat-name") + spans_of(docs, "nat-jur")
    assert all(re.fullmatch(r"[^\W\d_][\w' -]*", n) for n in names)


def test_people_are_introduced_in_full_and_then_by_surname(docs):
    shapes = Counter(len(t.split()) for t in spans_of(docs, "nat-name"))
    assert shapes[1] > 50 and shapes[2] > 50  # surname-only re-mentions and full names
    genitives = [t for t in spans_of(docs, "nat-name") if t.endswith("s")]
    assert genitives  # `Müllers Angaben`


def test_texts_are_varied(docs):
    openings = Counter()
    for doc in docs:
        for sentence in re.split(r"(?<=[.:])\s+|\n+", doc.text):
            words = sentence.split()
            if len(words) >= 3:
                openings[" ".join(words[:3])] += 1
    assert len(openings) >= 800  # measured about 2,000 for these 200 documents
    assert len({d.text[:40] for d in docs}) >= 150  # not one fixed header
    assert min(len(d.text) for d in docs) < 1000 < max(len(d.text) for d in docs)  # passages too


def test_the_same_seed_gives_the_same_documents():
    assert generate_documents(5, seed=3) == generate_documents(5, seed=3)
    assert generate_documents(5, seed=3) != generate_documents(5, seed=4)
    assert generate_document(4, seed=3) == generate_documents(5, seed=3)[3]


def _digest(docs) -> str:
    rows = [
        [d.id, d.domain, d.text, [[s.start, s.end, s.label, s.risk] for s in d.spans]] for d in docs
    ]
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


def test_a_seed_gives_the_same_corpus_byte_for_byte():
    """Corpora are rebuilt from their seed (the configs and model cards name it), so their
    text and spans never change unnoticed. A change of the templates or of the order of
    the draws changes this digest: update it on purpose, and say so in the commit."""
    assert _digest(generate_documents(30, seed=0)) == SEED_0_DIGEST


def _template_tables() -> dict[str, tuple[str, ...]]:
    """Every sentence whose wording a document draws (preferring one not used yet)."""
    drawn_in_frame = ("HEADERS", "INTROS", "EVIDENCE", "SERVICE", "WITNESS_ASSESSMENTS")
    drawn_in_frame += ("REMEDIES", "SIGNATURES")
    tables = {f"frame.{name}": getattr(frame_templates, name) for name in drawn_in_frame}
    tables["people.CIRCUMSTANCES"] = people_templates.CIRCUMSTANCES
    for domain, module in DOMAIN_TEMPLATES.items():
        tables |= {f"{domain}.{name}": wordings for name, wordings in module.SENTENCES.items()}
    return tables


def test_the_template_tables_are_well_formed():
    for name, wordings in _template_tables().items():
        assert wordings and len(set(wordings)) == len(wordings), name
        for wording in wordings:
            assert not re.search(r"[{}]", re.sub(r"\{\w+\}", "", wording)), (name, wording)
    # each sentence of a domain has its writer; stories and kinds name what exists
    assert set(tenancy.WRITERS) == set(tenancy_templates.SENTENCES)
    assert all(callable(getattr(traffic, name)) for name in traffic_templates.SENTENCES)
    story_sentences = {name for story in tenancy_templates.STORIES.values() for name in story}
    assert story_sentences <= set(tenancy_templates.SENTENCES)
    kinds = set(tenancy_templates.KINDS)
    assert kinds == set(tenancy_templates.STORIES) == set(tenancy_templates.TOPICS)
    assert set(DOMAIN_TEMPLATES) == set(DOMAINS)


def test_every_template_is_written_within_two_hundred_documents(monkeypatch):
    drawn: Counter[str] = Counter()
    template = Decision.template

    def recording(self, *options: str) -> str:
        choice = template(self, *options)
        drawn[choice] += 1
        return choice

    monkeypatch.setattr(Decision, "template", recording)
    generate_documents(200, seed=0)
    never = [(n, w) for n, ws in _template_tables().items() for w in ws if not drawn[w]]
    assert never == []


def test_synthetic_gold_can_be_pseudonymized_again():
    originals = generate_documents(20, seed=5)
    for old, new in zip(originals, pseudonymize_documents(originals), strict=True):
        validate_document(new)
        assert [s.label for s in new.spans] == [s.label for s in old.spans]


def _script():
    spec = importlib.util.spec_from_file_location("generate_synthetic", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_writes_a_corpus_that_loads(tmp_path, capsys):
    script = _script()
    out, jsonl = tmp_path / "corpus", tmp_path / "all.jsonl"
    args = ["--num-documents", "12", "--seed", "1", "--output", str(out), "--jsonl", str(jsonl)]
    assert script.main([*args, "--validation", "0.25", "--test", "0.25"]) == 0
    splits = load_corpus(out)
    assert {name: len(d) for name, d in splits.items()} == {"train": 6, "validation": 3, "test": 3}
    assert sorted(d.id for docs in splits.values() for d in docs) == [
        d.id for d in load_jsonl(jsonl)
    ]
    assert "spans by label" in capsys.readouterr().out


def test_the_script_explains_itself(capsys):
    with pytest.raises(SystemExit) as exit_info:
        _script().main(["--help"])
    assert exit_info.value.code == 0
    assert "--num-documents" in capsys.readouterr().out
