"""Copies of gold decisions with fresh names: the words and spans stay, the names change."""

from __future__ import annotations

import json
from dataclasses import replace

from documents import spans_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hf_anon.corpora.surrogates.refill import REFILL_LABELS, refill_id, refilled_copies
from hf_anon.text.data import Document, Span, validate_document
from hf_anon.text.labels import DEFAULT_LABELS

TEXT = (
    "Der Zeuge Ingolf Klemt wohnt in der Marktstraße 5, 85649 Brunnthal. "
    "Die Helix Capital GmbH verklagte ihn vor dem Landgericht Berlin (15 O 58/14) "
    "am 12.03.2014; Klemt ist Landwirt."
)


def gold() -> Document:
    spans = spans_of(
        TEXT,
        ("Ingolf Klemt", "nat-name", 0),
        ("Marktstraße 5", "address-name", 0),
        ("85649 Brunnthal", "address-name", 0),
        ("Helix Capital", "jur-name", 0),
        ("Landgericht Berlin", "court-name", 0),
        ("15 O 58/14", "court-docket", 0),
        ("12.03.2014", "date-world", 0),
        ("Klemt", "nat-name", 1),
        ("Landwirt", "nat-idx", 0),
    )
    return Document("d1", TEXT, [replace(s, risk=DEFAULT_LABELS[s.label].risk) for s in spans])


def surfaces(doc: Document) -> list[tuple[str, str]]:
    return [(s.label, doc.text[s.start : s.end]) for s in doc.spans]


def test_a_copy_has_new_people_companies_and_places_but_the_same_court_docket_date_and_details():
    original = gold()
    (copy,) = refilled_copies([original], copies=1, seed=3)
    validate_document(copy)
    assert copy.id == "d1#refill1"
    old, new = surfaces(original), surfaces(copy)
    assert [label for label, _ in old] == [label for label, _ in new]
    for (label, before), (_, after) in zip(old, new, strict=True):
        if label in REFILL_LABELS:
            assert after != before, (label, before)
        else:
            assert after == before
    # one person, one surrogate: the later surname is the new full name's surname
    full, later = new[0][1], new[-2][1]
    assert full.split()[-1] == later
    # the words between the spans are the decision's own
    assert "verklagte ihn vor dem" in copy.text and "wohnt in der" in copy.text


def test_copies_differ_from_each_other_and_are_the_same_for_the_same_seed():
    docs = [gold()]
    first = list(refilled_copies(docs, copies=3, seed=1))
    again = list(refilled_copies(docs, copies=3, seed=1))
    other = list(refilled_copies(docs, copies=3, seed=2))
    assert [d.id for d in first] == ["d1#refill1", "d1#refill2", "d1#refill3"]
    assert [d.text for d in first] == [d.text for d in again]
    assert len({d.text for d in first}) == 3
    assert [d.text for d in first] != [d.text for d in other]


def test_a_copy_does_not_depend_on_the_other_documents():
    one = gold()
    two = Document("d2", "Frau Anna Berg klagt.", [Span(5, 14, "nat-name", "high")])
    alone = list(refilled_copies([one], copies=2, seed=5))
    together = [d for d in refilled_copies([two, one], copies=2, seed=5) if d.id.startswith("d1")]
    assert [d.text for d in alone] == [d.text for d in together]


def test_copies_must_be_at_least_one():
    import pytest

    with pytest.raises(ValueError, match="at least 1"):
        list(refilled_copies([gold()], copies=0))
    assert refill_id("x", 4) == "x#refill4"


WORDS = ["Der", "Kläger", "wohnt", "in", "und", "klagt", "gegen", "am", "vor", "dem"]
SPANS = [
    ("Hans Müller", "nat-name"),
    ("Müller", "nat-name"),
    ("Richter Dr. Lang", "nat-jur"),
    ("Bahnhofstraße 12", "address-name"),
    ("80331 München", "address-name"),
    ("Acme Bau", "jur-name"),
    ("VW Golf", "car-name"),
    ("M-AB 123", "car-idx"),
    ("DE89 3704 0044 0532 0130 00", "id-number"),
    ("3. OG links", "address-idx"),
    ("Amtsgericht München", "court-name"),
    ("3 C 12/21", "court-docket"),
    ("1. März 2020", "date-fact"),
    ("geboren 1970", "nat-idx"),
]


@st.composite
def documents(draw) -> Document:
    text, spans = "", []
    for _ in range(draw(st.integers(1, 10))):
        if text:
            text += draw(st.sampled_from([" ", ", ", "\n"]))
        if draw(st.booleans()):
            piece, label = draw(st.sampled_from(SPANS))
            spans.append(Span(len(text), len(text) + len(piece), label, "high"))
        else:
            piece = draw(st.sampled_from(WORDS))
        text += piece
    return Document("doc", text + " Ende", spans)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents(), seed=st.integers(0, 5), copies=st.integers(1, 3))
def test_every_copy_keeps_labels_risks_and_every_span_outside_the_refilled_labels(
    doc, seed, copies
):
    for copy in refilled_copies([doc], copies=copies, seed=seed):
        validate_document(copy)
        assert [(s.label, s.risk) for s in copy.spans] == [(s.label, s.risk) for s in doc.spans]
        for old, new in zip(doc.spans, copy.spans, strict=True):
            if old.label not in REFILL_LABELS:
                assert copy.text[new.start : new.end] == doc.text[old.start : old.end]


def refill_script():
    """``datasets_scripts/refill_gold.py`` as a module, to call its ``main``."""
    import importlib.util
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "datasets_scripts" / "refill_gold.py"
    spec = importlib.util.spec_from_file_location("refill_gold", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_writes_the_copies_as_gold_json_lines(tmp_path):
    import pytest

    from hf_anon.text.data import save_jsonl

    source = tmp_path / "gold.jsonl"
    save_jsonl([gold()], source)
    module = refill_script()
    out = tmp_path / "copies.jsonl"
    assert module.main([str(source), "--copies", "2", "--output", str(out), "--no-progress"]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["d1#refill1", "d1#refill2"]
    assert all(len(r["spans"]) == len(gold().spans) for r in rows)

    kept = tmp_path / "kept.jsonl"
    assert (
        module.main([str(source), "--copies", "1", "--output", str(kept), "--keep", "jur-name"])
        == 0
    )
    (row,) = [json.loads(line) for line in kept.read_text(encoding="utf-8").splitlines()]
    surfaces = {
        row["text"][s["start"] : s["end"]] for s in row["spans"] if s["label"] == "jur-name"
    }
    assert surfaces == {"Helix Capital"} and "Ingolf Klemt" not in row["text"]
    with pytest.raises(SystemExit):
        module.main([str(source), "--output", str(kept), "--keep", "court-name"])


def other_decisions() -> list[Document]:
    """Two more gold decisions whose organisations a pool offers: a club named bare, a
    newspaper, a masked firm (no name to draw) and a firm before its legal form."""

    def companies(text: str, *parts: tuple[str, str, int]) -> list[Span]:
        return [replace(s, risk="high") for s in spans_of(text, *parts)]

    club = "Der Vorsitzende des Eintracht Lohberg sprach mit dem Abendkurier."
    firms = "Die Nordtel GmbH kündigte; die X GmbH zahlte."
    return [
        Document(
            "d2",
            club,
            companies(club, ("Eintracht Lohberg", "jur-name", 0), ("Abendkurier", "jur-name", 0)),
        ),
        Document("d3", firms, companies(firms, ("Nordtel", "jur-name", 0), ("X", "jur-name", 0))),
    ]


def test_a_pool_keeps_unmasked_names_with_the_slot_they_stood_in():
    from hf_anon.corpora.surrogates.organization_pool import OrganizationPool

    pool = OrganizationPool.from_documents([gold(), *other_decisions()])
    assert {(n.name, n.doc_id, n.before_legal_form) for n in pool.names} == {
        ("Helix Capital", "d1", True),
        ("Eintracht Lohberg", "d2", False),
        ("Abendkurier", "d2", False),
        ("Nordtel", "d3", True),
    }
    # copies of d1 never draw d1's own company
    choices = pool.choices_for("d1")
    assert choices.firms == ("Nordtel",)
    assert choices.others == ("Abendkurier", "Eintracht Lohberg")
    # a slot with no name of its kind in the pool takes any name
    only_bare = OrganizationPool.from_documents([other_decisions()[0]]).choices_for("d1")
    assert only_bare.for_slot(before_legal_form=True) == ("Abendkurier", "Eintracht Lohberg")
    assert not OrganizationPool.from_documents([]).choices_for("d1")


def test_copies_draw_companies_from_the_other_decisions_names():
    from hf_anon.corpora.surrogates.organization_pool import OrganizationPool

    pool = OrganizationPool.from_documents([gold(), *other_decisions()])
    for copy in refilled_copies([gold()], copies=4, seed=2, organizations=pool):
        (company,) = [t for label, t in surfaces(copy) if label == "jur-name"]
        # `Helix Capital` stood before `GmbH`: a firm of another decision takes its place
        assert company == "Nordtel"
        assert "Nordtel GmbH verklagte" in copy.text
        assert "Ingolf Klemt" not in copy.text


def test_no_copy_draws_a_company_of_its_own_decision():
    from hf_anon.corpora.surrogates.organization_pool import OrganizationPool

    text = TEXT + " Die Orbis GmbH zahlte."
    extra = Span(len(TEXT) + 5, len(TEXT) + 10, "jur-name", "high")
    decision = Document("d1", text, sorted([*gold().spans, extra]))
    pool = OrganizationPool.from_documents([decision, *other_decisions()])
    for copy in refilled_copies([decision], copies=4, seed=2, organizations=pool):
        companies = {t for label, t in surfaces(copy) if label == "jur-name"}
        # `Orbis` would be a firm for `Helix Capital`'s slot, were d1's own names drawn
        assert companies == {"Nordtel"}


def test_the_script_draws_companies_from_the_files_it_is_given(tmp_path):
    import pytest

    from hf_anon.text.data import save_jsonl

    source, others = tmp_path / "gold.jsonl", tmp_path / "others.jsonl"
    save_jsonl([gold()], source)
    save_jsonl(other_decisions(), others)
    module = refill_script()
    out = tmp_path / "copies.jsonl"
    args = [str(source), "--copies", "2", "--output", str(out), "--no-progress"]
    assert module.main([*args, "--organizations-from", str(others)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert all("Nordtel GmbH verklagte" in r["text"] for r in rows)
    with pytest.raises(SystemExit):  # draw companies and keep them: contradictory
        module.main([*args, "--organizations-from", str(others), "--keep", "jur-name"])
    masked_only = tmp_path / "masked.jsonl"
    masked = Document("d4", "Die X GmbH.", [Span(4, 5, "jur-name", "high")])
    save_jsonl([masked], masked_only)
    with pytest.raises(SystemExit):  # nothing to draw from
        module.main([*args, "--organizations-from", str(masked_only)])
