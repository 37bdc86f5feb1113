"""The hand-annotated real gold set in data/real/: valid, complete and consistent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hf_anon.corpora.markup import markup_file_name, parse_markup
from hf_anon.model.metrics import score_documents
from hf_anon.text.data import load_jsonl
from hf_anon.text.labels import DEFAULT_LABELS

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "data" / "real"
SPLITS = ("validation", "test")
sys.path.insert(0, str(ROOT / "datasets_scripts"))

from build_real_gold import (  # noqa: E402
    TRAIN_FOLDERS,
    build,
    build_train,
    check_file,
    read_selection,
)


def keys(split: str) -> list[dict]:
    return [json.loads(line) for line in (REAL / f"{split}.key.jsonl").open(encoding="utf-8")]


@pytest.mark.parametrize("split", SPLITS)
def test_gold_files_load_as_gold(split):
    docs = load_jsonl(REAL / f"{split}.jsonl")  # validates offsets, labels, risks, overlaps
    assert docs and all(d.meta["licence"] and d.meta["source"] for d in docs)


def test_the_set_is_large_and_spread_over_courts():
    selection = read_selection(REAL / "annotation")
    assert len(selection) >= 60
    assert sum(len(r["text"]) for r in selection.values()) >= 400_000
    court_types = {r["court_type"] for r in selection.values()}
    assert {"Amtsgericht", "Landgericht", "Verwaltungsgericht", "Sozialgericht"} <= court_types
    ids = [d.id for split in SPLITS for d in load_jsonl(REAL / f"{split}.jsonl")]
    assert sorted(ids) == sorted(r["id"] for r in selection.values())  # every one reviewed
    assert len(set(ids)) == len(ids)  # validation and test are disjoint


@pytest.mark.parametrize("split", SPLITS)
def test_keys_hold_the_published_text_and_mark_it_exactly(split):
    selection = {r["id"]: r for r in read_selection(REAL / "annotation").values()}
    gold = {d.id: d for d in load_jsonl(REAL / f"{split}.jsonl")}
    for key in keys(split):
        assert key["text"] == selection[key["id"]]["text"]
        entries = key["placeholders"] + key["kept"]
        assert all(key["text"][e["start"] : e["end"]] == e["text"] for e in entries)
        assert all(e["label"] in DEFAULT_LABELS for e in entries)
        assert len(entries) == len(gold[key["id"]].spans)


def test_every_annotation_file_passes_the_check():
    selection = read_selection(REAL / "annotation")
    for name in selection:
        for folder in ("pass1", "pass2"):
            assert check_file(REAL / "annotation" / folder / f"{name}.txt", selection) == []


def test_the_committed_files_are_what_the_build_makes(tmp_path):
    stats = build(REAL / "annotation", tmp_path)
    for split in SPLITS:
        assert (tmp_path / f"{split}.jsonl").read_text() == (REAL / f"{split}.jsonl").read_text()
        assert (tmp_path / f"{split}.key.jsonl").read_text() == (
            REAL / f"{split}.key.jsonl"
        ).read_text()
    committed = json.loads((REAL / "statistics.json").read_text())
    assert stats["agreement_pass1_vs_pass2"] == committed["agreement_pass1_vs_pass2"]


def test_the_training_split_is_built_from_its_annotation_and_apart_from_the_gold_set(tmp_path):
    stats = build_train([REAL / folder for folder in TRAIN_FOLDERS], tmp_path)
    for name in ("train.jsonl", "train.key.jsonl", "statistics.train.json"):
        assert (tmp_path / name).read_text() == (REAL / name).read_text()
    drawn = sum(len(read_selection(REAL / folder)) for folder in TRAIN_FOLDERS)
    assert stats["documents"] == drawn > 46
    train_ids = {d.id for d in load_jsonl(REAL / "train.jsonl")}
    gold_ids = {d.id for split in SPLITS for d in load_jsonl(REAL / f"{split}.jsonl")}
    assert train_ids and not train_ids & gold_ids


def test_agreement_is_measured_on_the_published_text():
    selection = read_selection(REAL / "annotation")
    name = next(iter(selection))
    first = parse_markup((REAL / "annotation" / "pass1" / f"{name}.txt").read_text())
    second = parse_markup((REAL / "annotation" / "pass2" / f"{name}.txt").read_text())
    assert first.published == second.published == selection[name]["text"]
    assert markup_file_name(selection[name]["id"]) == name
    from hf_anon.text.data import Document

    doc = lambda m: Document("d", m.published, m.published_spans())  # noqa: E731
    scores = score_documents([doc(second)], [doc(first)])
    assert 0.0 <= scores.strict.f1 <= 1.0


def test_the_unseen_court_test_rebuilds_as_committed(tmp_path):
    # a later selection that chose nothing (the fourth placeholder key, the second
    # unseen-court test) must not turn a court of the unseen-court test into a seen one
    from build_real_gold import build_unseen

    build_unseen(REAL / "unseen-courts", tmp_path)
    for name in ("unseen_courts.jsonl", "unseen_courts.seen.jsonl", "statistics.unseen.json"):
        assert (tmp_path / name).read_bytes() == (REAL / name).read_bytes(), name


def test_the_second_unseen_court_test_rebuilds_as_committed_with_only_unseen_courts(tmp_path):
    from build_real_gold import build_unseen

    stats = build_unseen(REAL / "unseen-courts-juris", tmp_path)

    for name in ("unseen_courts_juris.jsonl", "unseen_courts_juris.key.jsonl"):
        assert (tmp_path / name).read_bytes() == (REAL / name).read_bytes(), name
    assert stats["by_court_group"] == {"unseen": 8}
    assert stats["agreement_pass1_vs_passC"]["documents"] == 2
    trained = {d.meta.get("court") for d in load_jsonl(REAL / "juris_train.jsonl")}
    tested = {d.meta["court_identity"] for d in load_jsonl(REAL / "unseen_courts_juris.jsonl")}
    from hf_anon.corpora.courts import court_identity

    assert not {court_identity(c) for c in trained} & tested


def test_a_round_keeps_the_courts_it_is_chosen_on_apart(tmp_path):
    from hf_anon.corpora.courts import court_identity

    courts = ("LG Berlin", "LG Frankfurt", "LG München I")
    stats = build_train([REAL / "annotation-train10"], tmp_path, "juris_train", courts)

    for name in ("juris_train.jsonl", "juris_train_validation.jsonl"):
        assert (tmp_path / name).read_bytes() == (REAL / name).read_bytes(), name
    held = load_jsonl(tmp_path / "juris_train_validation.jsonl")
    assert {court_identity(d.meta["court"]) for d in held} == set(courts)
    assert stats["documents"] + stats["validation"]["documents"] == 20
