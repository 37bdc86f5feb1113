"""The real Japanese gold set in data/ja/gold/: valid, split by court, what the build makes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hf_anon.text.data import load_jsonl

ROOT = Path(__file__).resolve().parents[2]
GOLD = ROOT / "data" / "ja" / "gold"
SPLITS = ("validation", "test")
sys.path.insert(0, str(ROOT / "datasets_scripts"))

from build_ja_gold import (  # noqa: E402
    ANNOTATION,
    HELDOUT_JA,
    TRAIN_ANNOTATION,
    build,
    build_train,
    check_file,
    court_identity,
    court_level,
    disagreements,
    split_by_court,
    write_part,
)


@pytest.mark.parametrize("split", SPLITS)
def test_gold_files_load_and_name_source_and_licence(split):
    docs = load_jsonl(GOLD / f"{split}.jsonl")  # validates offsets, labels, risks, overlaps
    assert len(docs) >= 15
    assert all(
        d.meta["licence"].startswith("CC0") and "data_set/blob/" in d.meta["source"] for d in docs
    )


def test_no_held_out_or_training_precedent_is_in_the_set():
    shared = ROOT.parent / "shared" / "data" / "HELDOUT.md"
    if shared.exists():  # the list the build refuses is the shared one
        listed = shared.read_text(encoding="utf-8")
        assert all(name in listed for name in HELDOUT_JA)
    training = {
        json.loads(line)["id"]
        for path in (ROOT / "data" / "ja" / "real").glob("precedents_*.jsonl")
        for line in path.open(encoding="utf-8")
    }
    for split in SPLITS:
        for doc in load_jsonl(GOLD / f"{split}.jsonl"):
            assert doc.id not in training
            assert doc.meta["source"].rsplit("/", 1)[-1] not in HELDOUT_JA


def test_the_halves_share_no_court_and_both_hold_district_and_high_courts():
    courts = {
        s: {d.meta["court_identity"] for d in load_jsonl(GOLD / f"{s}.jsonl")} for s in SPLITS
    }
    assert not courts["validation"] & courts["test"]
    for split in SPLITS:
        assert {"district", "high"} <= {court_level(c) for c in courts[split]}


def test_court_identity_drops_divisions_but_keeps_branches():
    assert court_identity("大阪地方裁判所第１２刑事部") == "大阪地方裁判所"
    assert court_identity("名古屋地方裁判所刑事第1部") == "名古屋地方裁判所"
    assert court_identity("熊本地方裁判所民事３部") == "熊本地方裁判所"  # without 第
    assert court_identity("東京簡易裁判所少額訴訟4係") == "東京簡易裁判所"  # a desk
    assert court_identity("最高裁判所第三小法廷") == "最高裁判所"
    assert court_identity("名古屋地方裁判所半田支部") == "名古屋地方裁判所半田支部"
    assert court_identity("福岡地方裁判所小倉支部         　第２刑事部") == "福岡地方裁判所小倉支部"


def test_split_keeps_courts_whole_and_halves_near_equal():
    courts = {f"d{i}": f"{'東京' if i < 4 else '大阪'}地方裁判所" for i in range(8)}
    courts |= {f"h{i}": ["札幌高等裁判所", "福岡高等裁判所"][i % 2] for i in range(4)}
    split = split_by_court(courts)
    for court in set(courts.values()):
        assert len({split[d] for d, c in courts.items() if c == court}) == 1
    sizes = [sum(v == s for v in split.values()) for s in SPLITS]
    assert sizes == [6, 6]


@pytest.mark.parametrize("split", SPLITS)
def test_keys_hold_the_published_text_and_its_placeholders(split):
    for line in (GOLD / f"{split}.key.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        published = (ANNOTATION / "published" / f"{row['id']}.txt").read_text(encoding="utf-8")
        assert row["text"] == published
        for mark in row["placeholders"] + row["kept"]:
            assert published[mark["start"] : mark["end"]] == mark["text"]


def test_every_final_file_passes_the_check():
    files = sorted((ANNOTATION / "adjudicated").glob("*.txt"))
    assert len(files) >= 40
    assert [p for f in files for p in check_file(f)] == []


def test_the_committed_files_are_what_the_build_makes(tmp_path):
    stats = build(ANNOTATION, tmp_path)
    for name in ("validation.jsonl", "test.jsonl", "validation.key.jsonl", "test.key.jsonl"):
        assert (tmp_path / name).read_bytes() == (GOLD / name).read_bytes(), name
    assert stats["agreement"]["documents"] >= 10
    assert json.loads((GOLD / "statistics.json").read_text(encoding="utf-8")) == json.loads(
        (tmp_path / "statistics.json").read_text(encoding="utf-8")
    )


def test_a_disagreement_is_listed_with_both_readings(tmp_path):
    for folder in ("published", "pass1", "pass2"):
        (tmp_path / folder).mkdir()
    (tmp_path / "published" / "x.txt").write_text(
        "被告人Ａは同年８月１４日に来た。", encoding="utf-8"
    )
    (tmp_path / "pass1" / "x.txt").write_text(
        "被告人[[Ａ=>田中|nat-name|high]]は同年８月１４日に来た。", encoding="utf-8"
    )
    (tmp_path / "pass2" / "x.txt").write_text(
        "被告人[[Ａ=>佐藤|nat-name|high]]は[[同年８月１４日|date-fact|medium]]に来た。",
        encoding="utf-8",
    )
    assert disagreements(tmp_path, "x") == [
        ("被告人Ａは同年８月１４日に来た。", "no span", "`同年８月１４日` date-fact/medium")
    ]


def test_the_build_refuses_a_held_out_precedent(tmp_path):
    import shutil

    folder = tmp_path / "annotation"
    shutil.copytree(ANNOTATION, folder)
    meta = sorted((folder / "meta").glob("*.json"))[0]
    row = json.loads(meta.read_text(encoding="utf-8"))
    row["source"] = row["source"].rsplit("/", 1)[0] + "/" + HELDOUT_JA[0]
    meta.write_text(json.dumps(row, ensure_ascii=False), encoding="utf-8")

    with pytest.raises(SystemExit, match="held-out"):
        build(folder, tmp_path / "out")


def test_the_training_set_is_what_its_annotation_makes_and_holds_no_gold_precedent(tmp_path):
    stats = build_train(TRAIN_ANNOTATION, tmp_path)
    built = (tmp_path / "train.jsonl").read_bytes()
    assert built == (ROOT / "data" / "ja" / "real" / "train.jsonl").read_bytes()
    docs = load_jsonl(tmp_path / "train.jsonl")
    assert len(docs) == stats["documents"] >= 100
    gold = {d.meta["source"] for s in SPLITS for d in load_jsonl(GOLD / f"{s}.jsonl")}
    assert not gold & {d.meta["source"] for d in docs}
    assert all(d.spans for d in docs)  # exhaustive: every precedent names someone


@pytest.mark.parametrize("source", ["gold", "held-out"])
def test_the_training_build_refuses_gold_and_held_out_precedents(tmp_path, source):
    import shutil

    folder = tmp_path / "annotation"
    for sub in ("meta", "published", "pass1"):
        (folder / sub).mkdir(parents=True)
    doc_id = sorted(p.stem for p in (TRAIN_ANNOTATION / "pass1").glob("*.txt"))[0]
    for sub, ext in (("meta", "json"), ("published", "txt"), ("pass1", "txt")):
        shutil.copy(TRAIN_ANNOTATION / sub / f"{doc_id}.{ext}", folder / sub)
    meta = folder / "meta" / f"{doc_id}.json"
    row = json.loads(meta.read_text(encoding="utf-8"))
    if source == "gold":
        gold_meta = sorted((ANNOTATION / "meta").glob("*.json"))[0]
        row["source"] = json.loads(gold_meta.read_text(encoding="utf-8"))["source"]
    else:
        row["source"] = row["source"].rsplit("/", 1)[0] + "/" + HELDOUT_JA[0]
    meta.write_text(json.dumps(row, ensure_ascii=False), encoding="utf-8")

    with pytest.raises(SystemExit, match="held-out or gold"):
        build_train(folder, tmp_path / "out")


def test_a_part_of_the_training_set_is_written_by_its_ids_for_calibration(tmp_path):
    ids = tmp_path / "kept.txt"
    ids.write_text("jla-92969\njla-20135\n", encoding="utf-8")
    assert write_part(ids, tmp_path) == 2
    gold = load_jsonl(tmp_path / "kept.jsonl")
    keys = [json.loads(line) for line in (tmp_path / "kept.key.jsonl").open(encoding="utf-8")]
    assert sorted(d.id for d in gold) == sorted(k["id"] for k in keys) == ["jla-20135", "jla-92969"]
    ids.write_text("jla-92969\njla-1\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="jla-1"):
        write_part(ids, tmp_path)
