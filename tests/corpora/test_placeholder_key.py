"""The by-court placeholder keys (data/real/placeholder-key/ and placeholder-key2/): valid,
rebuilt from their marked files, and made of courts the detector was never tuned on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hf_anon.text.data import Span, load_jsonl
from hf_anon.text.labels import DEFAULT_LABELS

ROOT = Path(__file__).resolve().parents[2]
KEY_DIR = ROOT / "data" / "real" / "placeholder-key"
KEY2_DIR = ROOT / "data" / "real" / "placeholder-key2"
KEY3_DIR = ROOT / "data" / "real" / "placeholder-key3"
KEY4_DIR = ROOT / "data" / "real" / "placeholder-key4"
KEY_DIRS = [KEY_DIR, KEY2_DIR, KEY3_DIR, KEY4_DIR]
KEY_IDS = ["first", "second", "third", "fourth"]
sys.path.insert(0, str(ROOT / "datasets_scripts"))

from build_placeholder_key import (  # noqa: E402
    KeyMarkupError,
    load_selection,
    parse_key_markup,
    read_marked,
)
from build_placeholder_key import main as build_main  # noqa: E402
from prepare_placeholder_key import (  # noqa: E402
    conventions_of,
    normalize_court,
    select_second,
)


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


def test_check_finds_the_key_of_a_marked_file_by_its_folder(tmp_path, capsys):
    """``--check KEY/passA/NAME.txt`` needs no ``--key-dir``: the key is two folders up."""
    key = tmp_path / "placeholder-key9"
    (key / "passA").mkdir(parents=True)
    row = {"id": "wwl:X-1", "text": "Herr A. wohnt in XXX."}
    (key / "selection.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    good = key / "passA" / "wwl_X-1.txt"
    good.write_text("Herr [[A.|nat-name]] wohnt in [[XXX|address-name]].", encoding="utf-8")
    assert build_main(["--check", str(good)]) == 0
    assert "ok, 2 placeholders" in capsys.readouterr().out
    stray = key / "passA" / "other.txt"
    stray.write_text("Herr A.", encoding="utf-8")
    assert build_main(["--check", str(stray)]) == 1
    assert "not in" in capsys.readouterr().err


def test_a_changed_character_is_found(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_text("Herr [[A.|nat-name]] wohnt hier.", encoding="utf-8")
    with pytest.raises(KeyMarkupError, match="character 14"):
        read_marked(path, "Herr A. wohnt dort.")


@pytest.mark.parametrize("key_dir", KEY_DIRS, ids=KEY_IDS)
def test_the_key_is_built_from_the_final_files(key_dir):
    selection = load_selection(key_dir)
    rows = {r["id"]: r for r in map(json.loads, (key_dir / "key.jsonl").open(encoding="utf-8"))}
    assert len(rows) == len(selection) >= 29
    for name, row in selection.items():
        spans = read_marked(key_dir / "final" / f"{name}.txt", row["text"])
        key = rows[row["id"]]
        assert key["text"] == row["text"]
        assert [Span(p["start"], p["end"], p["label"]) for p in key["placeholders"]] == spans


@pytest.mark.parametrize("key_dir", KEY_DIRS, ids=KEY_IDS)
def test_the_key_loads_and_its_placeholders_are_masks_of_the_text(key_dir):
    docs = load_jsonl(
        key_dir / "key.jsonl", DEFAULT_LABELS, spans_key="placeholders", require_risk=False
    )
    assert sum(len(d.spans) for d in docs) >= 250
    for doc in docs:
        for a, b in zip(doc.spans, doc.spans[1:], strict=False):
            assert a.end <= b.start  # sorted, never overlapping
        for span in doc.spans:
            surface = doc.text[span.start : span.end]
            assert surface == surface.strip() and surface


def test_no_court_of_the_key_was_selected_before():
    """The key's courts are none of those the rules were written from (the gold set and
    its training rounds); LegalQuAD texts record no court."""
    # the rounds drawn before the key (later training rounds may draw the key's courts)
    before = ("annotation", "annotation-train", "annotation-train2", "annotation-train3")
    paths = [ROOT / "data" / "real" / name / "selection.jsonl" for name in before]
    seen_ids: set[str] = set()
    for path in paths:
        seen_ids |= {json.loads(line)["id"] for line in path.open(encoding="utf-8")}
    seen_courts = set()
    for path in paths:
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


@pytest.mark.parametrize(
    ("key_dir", "earlier"),
    [
        (KEY2_DIR, ["placeholder-key"]),
        (KEY3_DIR, ["placeholder-key", "placeholder-key2"]),
        (KEY4_DIR, ["placeholder-key", "placeholder-key2", "placeholder-key3"]),
    ],
    ids=["second", "third", "fourth"],
)
def test_a_later_key_shares_no_decision_with_what_came_before(key_dir, earlier):
    seen_ids: set[str] = set()
    patterns = ["annotation*/selection.jsonl", *(f"{k}/selection.jsonl" for k in earlier)]
    for pattern in patterns:
        for path in (ROOT / "data" / "real").glob(pattern):
            seen_ids |= {json.loads(line)["id"] for line in path.open(encoding="utf-8")}
    rows = list(load_selection(key_dir).values())
    assert not {r["id"] for r in rows} & seen_ids
    groups = {r["group"] for r in rows}
    assert groups == {"unseen court", "unseen decision, seen court", "never read"}
    for row in rows:
        assert row["licence"] and row["source"]


def _decision(id_, court, text):
    return {"id": id_, "court": court, "text": text + " Fülltext" * 400}


def test_the_second_selection_draws_three_groups():
    decisions = [
        _decision("wwl:1", "VG Alt", "Der Kläger Herr A. wohnt dort."),  # seen
        _decision("wwl:2", "VG Alt", "Mietvertrag vom XXX"),  # seen court, XXX
        _decision("wwl:3", "VG Neu", "Die Zeugin Frau B. sagte aus."),  # unseen court
    ]
    extra = [_decision("ifg:4", "OVG Extra", "Nichts verdeckt.")]
    chosen = select_second(
        decisions,
        extra,
        {"wwl:1"},
        per_convention=1,
        plain=0,
        seen_court_per_convention=1,
        never_read=1,
        seed=1,
        min_chars=10,
        max_chars=10**6,
    )
    assert {d["id"]: d["group"] for d in chosen} == {
        "wwl:2": "unseen decision, seen court",
        "wwl:3": "unseen court",
        "ifg:4": "never read",
    }
