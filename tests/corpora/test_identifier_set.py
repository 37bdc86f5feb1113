"""The passages of unpublished originals (``data/identifiers``): marked by one author, marked
again from the plain text, and the rule that decides whether a recognizer earns its place."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "datasets_scripts"))
sys.path.insert(0, str(ROOT / "benchmarks"))
from build_identifier_set import agreement, check, disagreements, documents, main, write_plain  # noqa: E402
from rules_cv import helps_where_it_acts, verdicts  # noqa: E402

from hf_anon.text.data import load_jsonl  # noqa: E402

FIRST = (
    "Der Kläger [[Hans Huber|nat-name|high]] überwies am [[3. März 2021|date-fact|medium]] "
    "auf die IBAN [[DE89 3704 0044 0532 0130 00|id-number|high]]; Rückfragen unter "
    "[[0171 2345678|id-number|high]].\n"
)
#: The second pass misses the phone number and marks the date as a date of the proceedings.
SECOND = (
    "Der Kläger [[Hans Huber|nat-name|high]] überwies am [[3. März 2021|date-world|low]] "
    "auf die IBAN [[DE89 3704 0044 0532 0130 00|id-number|high]]; Rückfragen unter "
    "0171 2345678.\n"
)


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_an_author_writes_marked_passages_and_the_fold_is_the_author(tmp_path):
    write(tmp_path / "pass1", "c-01.txt", FIRST)

    (doc,) = documents(tmp_path / "pass1")

    assert doc.meta["fold"] == "c" and doc.domain.startswith("criminal")
    assert [doc.text[s.start : s.end] for s in doc.spans] == [
        "Hans Huber",
        "3. März 2021",
        "DE89 3704 0044 0532 0130 00",
        "0171 2345678",
    ]


def test_the_second_pass_marks_the_plain_text_and_agreement_is_measured(tmp_path):
    write(tmp_path / "pass1", "a-01.txt", FIRST)
    assert write_plain(tmp_path / "pass1", tmp_path / "plain") == 1
    plain = (tmp_path / "plain" / "a-01.txt").read_text(encoding="utf-8")
    assert "[[" not in plain and "0171 2345678" in plain
    second = write(tmp_path / "pass2", "a-01.txt", SECOND)
    assert check([second], tmp_path / "plain") == []

    figures = agreement(tmp_path / "pass1", tmp_path / "pass2")

    assert figures["spans_pass1"] == 4 and figures["spans_pass2"] == 3
    assert figures["strict_f1"] == pytest.approx(2 * 3 / 7)  # 3 shared of 4 and 3
    assert figures["strict_typed_f1"] == pytest.approx(2 * 2 / 7)


def test_the_adjudication_lists_every_span_the_passes_do_not_share(tmp_path):
    write(tmp_path / "pass1", "a-01.txt", FIRST)
    write(tmp_path / "pass2", "a-01.txt", SECOND)

    listing = disagreements(tmp_path / "pass1", tmp_path / "pass2")

    assert "## a-01" in listing and "`Hans Huber`" not in listing  # shared spans: not listed
    assert "- pass 1 only: `3. März 2021` date-fact medium" in listing
    assert "- pass 2 only: `3. März 2021` date-world low" in listing
    assert "- pass 1 only: `0171 2345678` id-number high" in listing
    assert listing.count("- pass") == 3


def test_a_second_pass_that_edits_the_text_is_refused(tmp_path):
    write(tmp_path / "pass1", "a-01.txt", FIRST)
    write_plain(tmp_path / "pass1", tmp_path / "plain")
    edited = write(tmp_path / "pass2", "a-01.txt", SECOND.replace("überwies", "zahlte"))

    (problem,) = check([edited], tmp_path / "plain")

    assert "differs at character 22" in problem  # where "überwies" began


def test_the_two_batches_are_written_apart_and_measured_apart(tmp_path):
    for name in ("a-01.txt", "g-01.txt"):  # a passage of each batch, adjudicated
        write(tmp_path / "adjudicated", name, FIRST)
        write(tmp_path / "pass1", name, FIRST)
        write(tmp_path / "pass2", name, SECOND)

    assert main(["--gold", "--agreement", "--folder", str(tmp_path)]) == 0

    first = [d.id for d in load_jsonl(tmp_path / "identifiers.jsonl")]
    second = [d.id for d in load_jsonl(tmp_path / "identifiers2.jsonl")]
    assert (first, second) == (["a-01"], ["g-01"])
    figures = json.loads((tmp_path / "agreement.json").read_text())
    assert figures["identifiers2.jsonl"]["documents"] == 1
    assert figures["identifiers2.jsonl"]["pass1_against_adjudicated"]["strict_f1"] == 1.0


def test_placeholders_and_files_without_a_fold_letter_are_refused(tmp_path):
    filled = write(tmp_path, "a-02.txt", "Die Zeugin [[C.=>Weber|nat-name|high]] sagte aus.")
    no_fold = write(tmp_path, "x-01.txt", FIRST)

    problems = check([filled, no_fold])

    assert "placeholder marks" in problems[0] and "fold letter" in problems[1]


def test_a_family_earns_its_place_where_it_helps_on_every_fold_it_changes():
    # no change on the second fold (no IBAN there): it is not asked to help there
    assert helps_where_it_acts([0.01, 0.0, 0.002], [True, False, True])
    # a fold where it changes the output and F2 falls, however little
    assert not helps_where_it_acts([0.01, -0.0001, 0.002], [True, True, True])
    # a fold where it changes the output and F2 does not move
    assert not helps_where_it_acts([0.01, 0.0], [True, True])
    # a family that never changes anything has earned nothing
    assert not helps_where_it_acts([0.0, 0.0], [False, False])


def fold(f2: float, recall: float = 0.9, high: float = 1.0) -> dict[str, float]:
    return {"precision": 0.8, "recall": recall, "f2": f2, "recall_high": high}


def test_what_stays_is_read_over_the_real_folds_and_the_originals_together():
    everything = [fold(0.90), fold(0.91)]
    real = {
        "summary": dict.fromkeys(["ibans", "plates", "companies", "dates"]),
        "table": {
            "all": everything,
            "ibans": everything,  # no IBAN in a published decision
            "plates": [fold(0.901), fold(0.91)],  # off: F2 up on fold 1, nothing lost
            "companies": [fold(0.901, high=0.99), fold(0.91)],  # off: F2 up, high-risk down
            "dates": [fold(0.89, recall=0.88), fold(0.90, recall=0.89)],
        },
    }
    originals = {
        "summary": real["summary"],
        "table": {
            "all": [fold(0.92)],
            "ibans": [fold(0.92)],  # the model finds every IBAN by itself
            "plates": [fold(0.92)],
            "companies": [fold(0.92)],
            "dates": [fold(0.91, recall=0.89)],
        },
    }

    assert verdicts([real, originals]) == {
        "ibans": "stays: changes no score",
        "plates": "goes",
        "companies": "stays: switched off it loses recall on 1 fold",
        "dates": "stays: earns its place",
    }


def test_a_new_family_is_switched_on_only_where_it_helps_on_every_fold_it_touches():
    everything = [fold(0.90), fold(0.91)]
    run = {
        "summary": dict.fromkeys(["phone_forms", "named_numbers", "insurance_numbers"]),
        "table": {
            "all": everything,
            "phone_forms": [fold(0.89, recall=0.88), fold(0.91)],  # off: F2 down where it acts
            "named_numbers": [fold(0.89), fold(0.9101)],  # off: F2 up on fold 2
            "insurance_numbers": everything,  # changes nothing
        },
    }

    assert verdicts([run], new=("phone_forms", "named_numbers", "insurance_numbers")) == {
        "phone_forms": "switched on: earns its place",
        "named_numbers": "stays off",
        "insurance_numbers": "stays off",
    }


def test_a_family_is_read_on_the_runs_that_measured_it():
    """The real folds were run with a default that still had ``plates``; the newest batch
    with one that has ``phone_forms`` instead: each is judged where it was measured."""
    real = {
        "summary": dict.fromkeys(["dates", "plates"]),
        "table": {"all": [fold(0.90)], "dates": [fold(0.89)], "plates": [fold(0.901)]},
    }
    newest = {
        "summary": dict.fromkeys(["dates", "phone_forms"]),
        "table": {"all": [fold(0.92)], "dates": [fold(0.92)], "phone_forms": [fold(0.91)]},
    }

    assert verdicts([real, newest]) == {
        "dates": "stays: earns its place",
        "plates": "goes",
        "phone_forms": "stays: earns its place",
    }


def test_a_rule_of_some_courts_boilerplate_is_judged_where_it_acts():
    from on_off import earns_its_place_where_it_acts

    def judged(f2_with: float, changed: int, recall_with: float = 0.9, high_with: float = 1.0):
        return {
            "spans_changed": changed,
            "without": fold(0.88),
            "with": fold(f2_with, recall=recall_with, high=high_with),
        }

    # a fold without the courts' block (no span changed) is neutral
    assert earns_its_place_where_it_acts({"1": judged(0.89, 40), "2": judged(0.88, 0)})
    # where it acts it must raise F2
    assert not earns_its_place_where_it_acts({"1": judged(0.89, 40), "2": judged(0.88, 3)})
    # it may cost no high-risk span, and recall by at most 0.001 on any fold
    assert not earns_its_place_where_it_acts({"1": judged(0.89, 40, high_with=0.99)})
    assert not earns_its_place_where_it_acts({"1": judged(0.89, 40, recall_with=0.898)})
    assert earns_its_place_where_it_acts({"1": judged(0.89, 40, recall_with=0.8995)})
