"""The corpus scripts and the placeholders/pseudonymize commands, end to end."""

from __future__ import annotations

import json
import runpy
import sys

import pytest

from hf_anon.cli import main
from hf_anon.corpora.corpus import load_corpus, read_decisions, split_documents
from hf_anon.text.data import Document, ValidationError, load_jsonl, validate_document

PUBLISHED = (
    "In dem Rechtsstreit\n\nHerr A., X-Straße 1, 00000 Y-Stadt\n- Kläger -\n\n"
    "gegen\n\ndie X GmbH, vertreten durch den Geschäftsführer B.\n\n"
    "Der Kläger fuhr am xx.xx.2021 mit dem Kennzeichen N-XX 0000 zur Zeugin C.. "
    "Herr A. zahlte auf die IBAN DE00 0000 0000 0000 0000 00 (vgl. Anlage K 3).\n"
)


def run_script(name: str, *args: str) -> None:
    argv = sys.argv
    sys.argv = [name, *args]
    try:
        with pytest.raises(SystemExit) as exit_info:
            runpy.run_path(f"datasets_scripts/{name}", run_name="__main__")
        assert exit_info.value.code == 0
    finally:
        sys.argv = argv


@pytest.fixture
def decisions(tmp_path):
    folder = tmp_path / "published"
    folder.mkdir()
    for i in range(5):
        (folder / f"urteil-{i}.txt").write_text(PUBLISHED, encoding="utf-8")
    rows = [{"id": "json-1", "text": PUBLISHED, "court": "AG"}]
    (folder / "more.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return folder


def test_read_decisions_takes_text_files_and_json_lines(decisions):
    docs = read_decisions([decisions])
    assert sorted(d.id for d in docs) == ["json-1"] + [f"urteil-{i}" for i in range(5)]
    assert next(d for d in docs if d.id == "json-1").meta == {"court": "AG"}


def test_read_decisions_rejects_duplicate_ids_and_missing_paths(decisions, tmp_path):
    (decisions / "urteil-0.jsonl").write_text('{"id": "urteil-0", "text": "x"}\n')
    with pytest.raises(ValidationError, match="duplicate document id 'urteil-0'"):
        read_decisions([decisions])
    with pytest.raises(FileNotFoundError):
        read_decisions([tmp_path / "nowhere"])


def test_splits_keep_every_document_once():
    docs = [Document(f"d{i}", "x") for i in range(50)]
    splits = split_documents(docs, validation=0.1, test=0.2, seed=3)
    assert {k: len(v) for k, v in splits.items()} == {"train": 35, "validation": 5, "test": 10}
    assert sorted(d.id for v in splits.values() for d in v) == sorted(d.id for d in docs)


def test_placeholder_corpus_script(decisions, tmp_path, capsys):
    out = tmp_path / "corpus"
    run_script(
        "build_placeholder_corpus.py",
        str(decisions),
        "--output",
        str(out),
        "--validation",
        "0",
        "--test",
        "0.2",
    )
    corpus = load_corpus(out, spans_key="placeholders", extra_labels=["unknown"])
    docs = [d for split in corpus.values() for d in split]
    assert len(docs) == 6 and set(corpus) == {"train", "test"}
    found = {docs[0].text[s.start : s.end] for s in docs[0].spans}
    assert {"A.", "X-Straße 1", "00000 Y-Stadt", "X", "B.", "xx.xx.2021", "N-XX 0000"} <= found
    assert "K" not in found  # "Anlage K 3" is an annex reference
    summary = capsys.readouterr().out
    assert "placeholders:" in summary and "train" in summary


def test_pseudonymized_corpus_script(decisions, tmp_path):
    out, jsonl = tmp_path / "pseudo", tmp_path / "pseudo.jsonl"
    run_script(
        "build_pseudonymized_corpus.py",
        str(decisions),
        "--output",
        str(out),
        "--jsonl",
        str(jsonl),
        "--seed",
        "7",
    )
    docs = load_jsonl(jsonl)
    assert len(docs) == 6
    for doc in docs:
        validate_document(doc)
        assert "X-Straße" not in doc.text and "xx.xx" not in doc.text and "N-XX" not in doc.text
        assert "Anlage K 3" in doc.text  # what is not a placeholder stays as it was
    corpus = load_corpus(out)
    assert sum(len(v) for v in corpus.values()) == 6


def test_placeholders_command_writes_spans_and_evaluates_against_a_key(tmp_path, capsys):
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "a", "text": PUBLISHED, "x": 1}) + "\n")
    out = tmp_path / "out.jsonl"
    assert (
        main(["placeholders", "--input", str(source), "--output", str(out), "--no-progress"]) == 0
    )
    (row,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["x"] == 1 and row["placeholders"][0] == {"start": 26, "end": 28, "label": "nat-name"}
    key = tmp_path / "key.jsonl"
    row["placeholders"] = [*row["placeholders"][:-1], {"start": 0, "end": 2, "label": "nat-name"}]
    key.write_text(json.dumps(row) + "\n")
    capsys.readouterr()
    assert main(["placeholders", "--evaluate", str(key), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    n = len(row["placeholders"])
    assert scores["recall"] == pytest.approx((n - 1) / n)
    assert scores["precision"] == pytest.approx((n - 1) / n)
    assert set(scores) >= {"accuracy", "precision", "recall", "specificity", "f1", "label_accuracy"}


def test_placeholders_command_rejects_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": 3}\n')
    assert main(["placeholders", "--input", str(bad), "--output", str(tmp_path / "o")]) == 2
    assert "text must be a string" in capsys.readouterr().err
    assert main(["placeholders", "--input", str(bad)]) == 2


def test_pseudonymize_command_accepts_placeholders_spans_or_plain_text(tmp_path):
    text = "Herr A. wohnt in der X-Straße 1."
    rows = [
        {"id": "p", "text": text, "placeholders": [{"start": 5, "end": 7, "label": "nat-name"}]},
        {
            "id": "s",
            "text": "Hans Müller zahlt.",
            "spans": [{"start": 0, "end": 11, "label": "nat-name", "risk": "high"}],
        },
        {"id": "t", "text": text},
    ]
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    args = ["pseudonymize", "--input", str(source), "--output", str(out), "--no-progress"]
    assert main([*args, "--seed", "1"]) == 0
    first = out.read_text(encoding="utf-8")
    docs = {d.id: d for d in load_jsonl(out)}
    assert "X-Straße 1" in docs["p"].text and "A." not in docs["p"].text  # only the placeholder
    assert "Hans Müller" not in docs["s"].text
    assert "X-Straße" not in docs["t"].text and len(docs["t"].spans) == 2
    assert main([*args, "--seed", "1"]) == 0
    assert out.read_text(encoding="utf-8") == first  # a seed makes output reproducible


def test_noun_lexicon_script_keeps_common_nouns_and_leaves_out_names(tmp_path, capsys):
    import gzip

    csv = tmp_path / "nouns.csv"
    csv.write_text(
        "lemma,pos,genus,nominativ singular,nominativ plural,genitiv singular,"
        "dativ singular,akkusativ singular\n"
        "Reh,Substantiv,n,Reh,Rehe,Rehs,Reh,Reh\n"
        "Gelb,Substantiv,n,Gelb,,Gelbs,Gelb,Gelb\n"
        'Gelb,"Nachname,Substantiv",,Gelb,,,,\n'
        "Ab,Substantiv,n,Ab,,,Ab,Ab\n"
        "Zeugin,Substantiv,f,Zeugin,Zeuginnen,Zeugin,Zeugin,Zeugin\n"
        "Lieferant,Substantiv,m,Lieferant,,Lieferanten,Lieferanten,Lieferanten\n"
        "Obergeschoss,Substantiv,n,Obergeschoss,,Obergeschosses,Obergeschoss,Obergeschoss\n",
        encoding="utf-8",
    )
    out, cases = tmp_path / "nouns.txt.gz", tmp_path / "cases.tsv.gz"
    args = ["--source", str(csv), "--output", str(out), "--cases-output", str(cases)]
    run_script("build_noun_lexicon.py", *args)
    first = out.read_bytes()
    # `Gelb` is also a surname; `Gelbs` only the noun's form; `Ab` is too short
    words = ["Gelbs", "Lieferant", "Lieferanten", "Obergeschoss", "Obergeschosses", "Reh"]
    words += ["Rehe", "Rehs", "Zeugin", "Zeuginnen"]
    assert gzip.decompress(first).decode().split() == words
    assert "10 lines" in capsys.readouterr().out
    # the generator's table: gender and case forms; not `Gelb` (a name's form), not a
    # person (`Zeugin` is context for a name, `Lieferant` a profession), not a floor
    assert gzip.decompress(cases.read_bytes()).decode() == "n\tReh\tReh\tReh\n"
    run_script("build_noun_lexicon.py", *args)
    assert out.read_bytes() == first  # reproducible


def test_japanese_real_corpus_script(tmp_path, capsys):
    """Published Japanese precedents → a pseudonymized corpus: no placeholder is left, the
    spans lie on the surrogates, and the clear-text jurists are spans too."""
    rows = [
        {
            "id": f"jla-{i}",
            "court": "札幌地方裁判所",
            "text": "検察官村岡崇央出席の上審理した。\n"
            "被告人は、令和元年６月１３日頃、札幌市ａ町ｂ番ｃ号"
            f"Ａ方に侵入し、Ａ（当時８{i}歳）に対し暴行を加えた。",
        }
        for i in range(3)
    ]
    source = tmp_path / "precedents_x.jsonl"
    source.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    out = tmp_path / "corpus"
    run_script(
        "build_ja_real_corpus.py",
        "--input",
        str(source),
        "--output",
        str(out),
        "--validation",
        "0",
        "--test",
        "0",
    )
    docs = load_corpus(out)["train"]
    assert len(docs) == 3 and docs[0].meta["court"] == "札幌地方裁判所"
    for doc in docs:
        assert "Ａ" not in doc.text and "ａ町" not in doc.text and "村岡崇央" not in doc.text
        labels = [s.label for s in doc.spans]
        assert labels.count("nat-name") == 2 and "nat-jur" in labels and "nat-idx" in labels
    assert "train" in capsys.readouterr().out
