"""The ``hf-anon evaluate`` command: run in-process through ``main`` and once as a script.

Gold and predicted files are JSON Lines in the gold format of the annotation guidelines
(``ANNOTATION.md``, summarised in the documentation's Data format), written per test
under ``tmp_path``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import hf_anon
from hf_anon.cli import EXIT_INVALID_INPUT, main
from hf_anon.text.labels import Label, LabelSet

#  Zeuge Hans Müller wohnt in der Bahnhofstraße 12, 80331 München.
#  0     6    11    17               31            45  49    55     62
WITNESS = "Zeuge Hans Müller wohnt in der Bahnhofstraße 12, 80331 München."
CELLAR = "Der Beklagte nutzt das Kellerabteil Nr. 44 im Haus."

GOLD_WITNESS = {
    "id": "urteil-1",
    "domain": "mietrecht",
    "text": WITNESS,
    "spans": [
        {"start": 6, "end": 17, "label": "nat-name", "risk": "high"},  # Hans Müller
        {"start": 31, "end": 47, "label": "address-name", "risk": "high"},  # Bahnhofstraße 12
        {"start": 49, "end": 62, "label": "address-name", "risk": "high"},  # 80331 München
    ],
}
PRED_WITNESS = {
    "id": "urteil-1",
    "text": WITNESS,
    "spans": [
        {"start": 0, "end": 17, "label": "nat-name"},  # Zeuge Hans Müller: too large
        {"start": 31, "end": 47, "label": "address-name"},  # Bahnhofstraße 12: exact
        {"start": 49, "end": 54, "label": "address-name"},  # 80331: too small
    ],
}
GOLD_CELLAR = {
    "id": "urteil-2",
    "text": CELLAR,
    "spans": [{"start": 23, "end": 42, "label": "address-idx", "risk": "medium"}],
}


def write_jsonl(path: Path, *documents: dict) -> str:
    path.write_text(
        "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in documents), encoding="utf-8"
    )
    return str(path)


@pytest.fixture
def gold(tmp_path) -> str:
    return write_jsonl(tmp_path / "gold.jsonl", GOLD_WITNESS)


@pytest.fixture
def pred(tmp_path) -> str:
    return write_jsonl(tmp_path / "pred.jsonl", PRED_WITNESS)


def evaluate_json(capsys, *args: str) -> dict:
    """``hf-anon evaluate ARGS --json`` in-process; the printed JSON object."""
    assert main(["evaluate", *args, "--json"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return json.loads(captured.out)


def evaluate_error(capsys, *args: str) -> str:
    """``hf-anon evaluate ARGS`` that must fail: exit code 2, one line on stderr."""
    assert main(["evaluate", *args]) == EXIT_INVALID_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("hf-anon evaluate: error: ")
    assert captured.err.count("\n") == 1 and captured.err.endswith("\n")
    return captured.err


# --- output --------------------------------------------------------------------------


def test_json_output(capsys, gold, pred):
    result = evaluate_json(capsys, "--gold", gold, "--pred", pred)

    assert {
        "strict",
        "strict_typed",
        "lenient",
        "recall_by_risk",
        "by_label",
        "confusion",
        "counts",
    } <= result.keys()
    assert result["counts"] == {"documents": 1, "gold": 3, "pred": 3}
    # Only "Bahnhofstraße 12" matches strictly.
    assert result["strict"]["precision"] == pytest.approx(1 / 3)
    assert result["strict"]["recall"] == pytest.approx(1 / 3)
    # Recalled: Hans Müller (by the larger prediction), Bahnhofstraße 12.
    # Precise: Bahnhofstraße 12, 80331 (the smaller prediction).
    assert result["lenient"]["recall"] == pytest.approx(2 / 3)
    assert result["lenient"]["precision"] == pytest.approx(2 / 3)
    assert result["recall_by_risk"] == {"high": pytest.approx(2 / 3), "medium": 1.0, "low": 1.0}
    assert result["by_label"]["address-name"] == {
        "precision": 0.5,
        "recall": 0.5,
        "f1": 0.5,
        "support": 2,
        "predicted": 2,
    }
    confusion = result["confusion"]
    row = confusion["rows"].index("FP")
    column = confusion["columns"].index("nat-name")
    assert confusion["matrix"][row][column] == 1  # "Zeuge Hans Müller" matches no gold span


def test_readable_output(capsys, gold, pred):
    assert main(["evaluate", "--gold", gold, "--pred", pred]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()

    assert lines[0].split() == ["documents", "1", "gold", "spans", "3", "predicted", "spans", "3"]
    assert "strict            0.3333    0.3333    0.3333" in lines
    assert "strict_typed      0.3333    0.3333    0.3333" in lines
    assert "lenient           0.6667    0.6667    0.6667" in lines
    assert "lenient recall by risk" in lines
    # Per label: a row for each label that occurs in gold or predictions, and no other.
    table = lines[lines.index("strict typed, per label") + 1 :]
    table = table[: table.index("")]
    assert [row.split() for row in table] == [
        ["label", "precision", "recall", "f1", "support", "pred"],
        ["nat-name", "0.0000", "0.0000", "0.0000", "1", "1"],
        ["address-name", "0.5000", "0.5000", "0.5000", "2", "2"],
    ]
    assert "car-name" not in out
    assert "confusion over strictly matched spans" in out


def test_predicted_document_missing_from_pred_predicts_nothing(capsys, tmp_path, pred):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD_WITNESS, GOLD_CELLAR)

    result = evaluate_json(capsys, "--gold", gold, "--pred", pred)

    assert result["counts"] == {"documents": 2, "gold": 4, "pred": 3}
    assert result["strict"]["recall"] == pytest.approx(1 / 4)
    assert result["lenient"]["recall"] == pytest.approx(2 / 4)
    assert result["recall_by_risk"]["medium"] == 0.0  # the cellar was not predicted
    assert result["by_label"]["address-idx"]["support"] == 1


def test_empty_prediction_file(capsys, tmp_path, gold):
    pred = write_jsonl(tmp_path / "pred.jsonl")

    result = evaluate_json(capsys, "--gold", gold, "--pred", pred)

    assert result["counts"] == {"documents": 1, "gold": 3, "pred": 0}
    assert result["strict"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}


# --- invalid input: exit code 2 and one line -----------------------------------------


def test_missing_file(capsys, tmp_path, gold):
    missing = str(tmp_path / "missing.jsonl")

    err = evaluate_error(capsys, "--gold", gold, "--pred", missing)

    assert f"{missing}: no such file" in err


def test_invalid_json_names_file_and_line(capsys, tmp_path, gold):
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps(PRED_WITNESS) + "\n" + '{"id": "urteil-2", "text": \n')

    err = evaluate_error(capsys, "--gold", gold, "--pred", str(pred))

    assert f"{pred}:2: invalid JSON" in err


def test_invalid_span_names_the_document(capsys, tmp_path, gold):
    # End 99 lies beyond the text of 63 characters.
    broken = {**PRED_WITNESS, "spans": [{"start": 6, "end": 99, "label": "nat-name"}]}
    pred = write_jsonl(tmp_path / "pred.jsonl", broken)

    err = evaluate_error(capsys, "--gold", gold, "--pred", pred)

    assert f"{pred}:1:" in err
    assert "document 'urteil-1'" in err
    assert "offsets out of range" in err


def test_unknown_label_names_the_document(capsys, tmp_path, gold):
    broken = {**PRED_WITNESS, "spans": [{"start": 6, "end": 17, "label": "person"}]}
    pred = write_jsonl(tmp_path / "pred.jsonl", broken)

    err = evaluate_error(capsys, "--gold", gold, "--pred", pred)

    assert "document 'urteil-1'" in err
    assert "unknown label 'person'" in err


def test_gold_span_without_risk_is_invalid(capsys, tmp_path, pred):
    # Gold spans need a risk; predicted spans do not (see test_json_output).
    gold = write_jsonl(tmp_path / "gold.jsonl", PRED_WITNESS)

    err = evaluate_error(capsys, "--gold", gold, "--pred", pred)

    assert "document 'urteil-1'" in err
    assert "missing risk" in err


def test_gold_text_differs_from_predicted_text(capsys, tmp_path, gold):
    changed = {**PRED_WITNESS, "text": WITNESS.replace("Müller", "Möller")}
    pred = write_jsonl(tmp_path / "pred.jsonl", changed)

    err = evaluate_error(capsys, "--gold", gold, "--pred", pred)

    assert "document 'urteil-1': predicted text differs from the gold text" in err


def test_extra_predicted_document(capsys, tmp_path, gold):
    extra = {"id": "urteil-9", "text": CELLAR, "spans": []}
    pred = write_jsonl(tmp_path / "pred.jsonl", PRED_WITNESS, extra)

    err = evaluate_error(capsys, "--gold", gold, "--pred", pred)

    assert "predicted document 'urteil-9' is not in the gold set" in err


def test_directory_instead_of_file(capsys, tmp_path, pred):
    err = evaluate_error(capsys, "--gold", str(tmp_path), "--pred", pred)

    assert f"{tmp_path}: is a directory" in err


# --- a custom label set --------------------------------------------------------------


def test_custom_label_set(capsys, tmp_path):
    labels = LabelSet(
        labels=(
            Label("person", "high", "Person", "person", "#e6194b"),
            Label("ort", "low", "Ort", "place", "#3cb44b"),
        )
    )
    label_file = tmp_path / "labels.json"
    label_file.write_text(json.dumps(labels.to_dict()), encoding="utf-8")
    assert LabelSet.from_file(label_file) == labels
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        {
            "id": "d",
            "text": WITNESS,
            "spans": [
                {"start": 6, "end": 17, "label": "person", "risk": "high"},
                {"start": 55, "end": 62, "label": "ort", "risk": "low"},  # München
            ],
        },
    )
    pred = write_jsonl(
        tmp_path / "pred.jsonl",
        {"id": "d", "text": WITNESS, "spans": [{"start": 6, "end": 17, "label": "person"}]},
    )

    result = evaluate_json(capsys, "--gold", gold, "--pred", pred, "--label-set", str(label_file))

    assert list(result["by_label"]) == ["person", "ort"]
    assert result["by_label"]["person"]["f1"] == 1.0
    assert result["by_label"]["ort"]["recall"] == 0.0
    assert result["recall_by_risk"] == {"high": 1.0, "medium": 1.0, "low": 0.0}
    assert result["confusion"]["rows"] == ["person", "ort", "FP"]
    assert result["confusion"]["columns"] == ["person", "ort", "FN"]
    assert result["strict"]["recall"] == 0.5

    # The built-in label set does not know these labels.
    err = evaluate_error(capsys, "--gold", gold, "--pred", pred)
    assert "unknown label 'person'" in err


def test_invalid_label_set_file(capsys, tmp_path, gold, pred):
    label_file = tmp_path / "labels.json"
    label_file.write_text('{"risks": ["low", "high"]}', encoding="utf-8")  # no "labels"

    err = evaluate_error(capsys, "--gold", gold, "--pred", pred, "--label-set", str(label_file))

    assert f"cannot load label set {label_file}" in err


# --- version and the console script --------------------------------------------------


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])

    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"hf-anon {hf_anon.__version__}"


def test_console_script(tmp_path, gold, pred):
    script = shutil.which("hf-anon")
    assert script is not None, "the hf-anon console script is not installed (pip install -e .)"

    done = subprocess.run(
        [script, "evaluate", "--gold", gold, "--pred", pred, "--json"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )

    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["lenient"]["recall"] == pytest.approx(2 / 3)
    assert result["counts"] == {"documents": 1, "gold": 3, "pred": 3}

    failed = subprocess.run(
        [script, "evaluate", "--gold", gold, "--pred", str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
        check=False,
    )

    assert failed.returncode == 2
    assert failed.stdout == ""
    assert failed.stderr.splitlines() == [
        f"hf-anon evaluate: error: {tmp_path / 'missing.jsonl'}: no such file"
    ]


def test_the_commands_import_downwards_only():
    """The batch run behind ``hf-anon anonymize`` (hf_anon.apply.batch) is a layer below the
    command line: importing it imports no part of hf_anon.cli."""
    import sys

    code = (
        "import sys, hf_anon.apply.batch; "
        "assert not [m for m in sys.modules if m.startswith('hf_anon.cli')], 'batch imports cli'"
    )
    root = Path(hf_anon.__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
