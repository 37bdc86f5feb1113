"""The by-court placeholder key (data/real/placeholder-key/): valid, rebuilt from its marked
files, and made of courts the detector was never tuned on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hf_anon.data import Span, load_jsonl
from hf_anon.labels import DEFAULT_LABELS

ROOT = Path(__file__).resolve().parents[1]
KEY_DIR = ROOT / "data" / "real" / "placeholder-key"
sys.path.insert(0, str(ROOT / "datasets_scripts"))

from build_placeholder_key import (  # noqa: E402
    KeyMarkupError,
    load_selection,
    parse_key_markup,
    read_marked,
)
from prepare_placeholder_key import conventions_of, normalize_court  # noqa: E402


def test_marks_give_the_published_text_and_spans_back():
    text, spans = parse_key_markup("Herr [[A.|nat-name]] wohnt in [[XXX|address-name]].")
    assert text == "Herr A. wohnt in XXX."
    assert [text[s.start : s.end] for s in spans] == ["A.", "XXX"]
    assert spans == [Span(5, 7, "nat-name"), Span(17, 20, "address-name")]


@pytest.mark.parametrize(
    ("markup", "message"),
    [
        ("Herr [[A.|unknown]]", "unknown label"),
        ("Herr [[A.]]", "SURFACE|LABEL"),
        ("Herr [[ A.|nat-name]]", "padded"),
        ("Herr [[A.|nat-name]", "unbalanced"),
    ],
)
def test_broken_marks_name_the_place(markup, message):
    with pytest.raises(KeyMarkupError, match=message):
        parse_key_markup(markup)


def test_a_changed_character_is_found(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_text("Herr [[A.|nat-name]] wohnt hier.", encoding="utf-8")
    with pytest.raises(KeyMarkupError, match="character 14"):
        read_marked(path, "Herr A. wohnt dort.")


def test_the_key_is_built_from_the_final_files():
    selection = load_selection(KEY_DIR)
    rows = {r["id"]: r for r in map(json.loads, (KEY_DIR / "key.jsonl").open(encoding="utf-8"))}
    assert len(rows) == len(selection) >= 30
    for name, row in selection.items():
        spans = read_marked(KEY_DIR / "final" / f"{name}.txt", row["text"])
        key = rows[row["id"]]
        assert key["text"] == row["text"]
        assert [Span(p["start"], p["end"], p["label"]) for p in key["placeholders"]] == spans


def test_the_key_loads_and_its_placeholders_are_masks_of_the_text():
    docs = load_jsonl(
        KEY_DIR / "key.jsonl", DEFAULT_LABELS, spans_key="placeholders", require_risk=False
    )
    assert sum(len(d.spans) for d in docs) >= 400
    for doc in docs:
        for a, b in zip(doc.spans, doc.spans[1:], strict=False):
            assert a.end <= b.start  # sorted, never overlapping
        for span in doc.spans:
            surface = doc.text[span.start : span.end]
            assert surface == surface.strip() and surface


def test_no_court_of_the_key_was_selected_before():
    """The key's courts are none of those the rules were written from (the gold set and
    its training rounds); LegalQuAD texts record no court."""
    seen_ids: set[str] = set()
    for path in (ROOT / "data" / "real").glob("annotation*/selection.jsonl"):
        seen_ids |= {json.loads(line)["id"] for line in path.open(encoding="utf-8")}
    seen_courts = set()
    for path in (ROOT / "data" / "real").glob("annotation*/selection.jsonl"):
        seen_courts |= {normalize_court(json.loads(line).get("court")) for line in path.open()}
    rows = list(load_selection(KEY_DIR).values())
    assert not {r["id"] for r in rows} & seen_ids
    named = {normalize_court(r["court"]) for r in rows if r["court"]}
    assert named and not named & (seen_courts - {None})
    conventions = [c for r in rows for c in conventions_of(r["text"])]
    for convention in ("XXX", "###", "****", "Xxxxx", "A-Straße", "role + initial"):
        assert conventions.count(convention) >= 2, convention


def test_courts_are_named_one_way():
    assert normalize_court("Verwaltungsgericht Mainz 3. Kammer") == "VG Mainz"
    # the state adjective is dropped, as in the selection the key was drawn with
    assert normalize_court("Schleswig-Holsteinisches Verwaltungsgericht 6. Kammer") == "VG"
    assert normalize_court("Oberverwaltungsgericht für das Land Schleswig-Holstein") == (
        "OVG Schleswig-Holstein"
    )
    assert normalize_court("Verwaltungsgericht Frankfurt am Main") == "VG Frankfurt"
    assert normalize_court(None) is None
