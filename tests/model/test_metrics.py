"""Span metrics of ``hf_anon.model.metrics``: small hand-computed examples.

Every expected number below is worked out by hand in the comment next to it. Offsets
are found with :func:`span` (``text.index``) so that the examples read as text; the
first test spells one set of offsets out as literals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hf_anon.model.metrics
from hf_anon.model.metrics import (
    FN,
    FP,
    PRF,
    SpanScorer,
    SpanScores,
    bootstrap_intervals,
    covered,
    document_scorers,
    headline,
    merge_scorers,
    pair_documents,
    paired_intervals,
    precision_recall_f1,
    score_documents,
)
from hf_anon.text.data import Document, Span, ValidationError
from hf_anon.text.labels import DEFAULT_LABELS

#  Zeuge Hans Müller wohnt in der Bahnhofstraße 12, 80331 München.
#  0     6    11    17               31            45  49    55     62
WITNESS = "Zeuge Hans Müller wohnt in der Bahnhofstraße 12, 80331 München."
CELLAR = "Der Beklagte nutzt das Kellerabteil Nr. 44 im Haus."
CAR = "Fahrzeug VW Golf M-AB 1234 wurde beschädigt."
VERDICT = "Urteil vom 5.7.2022: Kellerabteil Nr. 44 gehört dem Kläger."


def span(text: str, part: str, label: str, risk: str | None = None) -> Span:
    """The span of the first occurrence of ``part`` in ``text``."""
    start = text.index(part)
    return Span(start, start + len(part), label, risk)


def doc(text: str, *spans: Span, id: str = "doc-1") -> Document:
    return Document(id=id, text=text, spans=sorted(spans))


def score(text: str, gold: list[Span], pred: list[Span]) -> SpanScores:
    """Scores of one document."""
    return score_documents([doc(text, *gold)], [doc(text, *pred)])


def witness_gold() -> list[Span]:
    """The three gold spans of WITNESS, as the annotation guidelines draw the boundaries."""
    return [
        span(WITNESS, "Hans Müller", "nat-name", "high"),
        span(WITNESS, "Bahnhofstraße 12", "address-name", "high"),
        span(WITNESS, "80331 München", "address-name", "high"),
    ]


# --- exact matches and boundary mismatches -------------------------------------------


def test_exact_matches_score_one_everywhere():
    gold = witness_gold()
    assert gold == [
        Span(6, 17, "nat-name", "high"),
        Span(31, 47, "address-name", "high"),
        Span(49, 62, "address-name", "high"),
    ]
    # A prediction does not need a risk; the labels and offsets are what count.
    pred = [Span(s.start, s.end, s.label) for s in gold]

    scores = score(WITNESS, gold, pred)

    for prf in (scores.strict, scores.strict_typed, scores.lenient):
        assert (prf.precision, prf.recall, prf.f1) == (1.0, 1.0, 1.0)
    assert scores.recall_by_risk == {"high": 1.0, "medium": 1.0, "low": 1.0}
    assert scores.counts == {"documents": 1, "gold": 3, "pred": 3}


def test_larger_prediction_counts_for_lenient_recall_not_precision():
    # Gold "Hans Müller", predicted "Zeuge Hans Müller" (the role noun is outside a span).
    gold = [span(WITNESS, "Hans Müller", "nat-name", "high")]
    pred = [span(WITNESS, "Zeuge Hans Müller", "nat-name")]

    scores = score(WITNESS, gold, pred)

    # Different start: no strict match at all.
    assert (scores.strict.precision, scores.strict.recall) == (0.0, 0.0)
    assert (scores.strict_typed.precision, scores.strict_typed.recall) == (0.0, 0.0)
    # Every character of "Hans Müller" is predicted: recalled.
    assert scores.lenient.recall == 1.0
    # "Zeuge" is not inside a gold span: the prediction is not precise.
    assert scores.lenient.precision == 0.0
    assert scores.lenient.f1 == 0.0


def test_smaller_prediction_counts_for_lenient_precision_not_recall():
    gold = [span(CELLAR, "Kellerabteil Nr. 44", "address-idx", "medium")]
    pred = [span(CELLAR, "Kellerabteil", "address-idx")]

    scores = score(CELLAR, gold, pred)

    assert (scores.strict.precision, scores.strict.recall) == (0.0, 0.0)
    # "Kellerabteil" lies inside the gold span: precise; "Nr. 44" is missed: not recalled.
    assert scores.lenient.precision == 1.0
    assert scores.lenient.recall == 0.0
    assert scores.lenient.f1 == 0.0


def test_one_exact_one_larger_one_smaller_prediction():
    gold = witness_gold()
    pred = [
        span(WITNESS, "Zeuge Hans Müller", "nat-name"),  # larger: recalls, not precise
        span(WITNESS, "Bahnhofstraße 12", "address-name"),  # exact
        span(WITNESS, "80331", "address-name"),  # smaller: precise, does not recall
    ]

    scores = score(WITNESS, gold, pred)

    # Only "Bahnhofstraße 12" matches strictly: 1 of 3 predictions, 1 of 3 gold spans.
    assert scores.strict.precision == pytest.approx(1 / 3)
    assert scores.strict.recall == pytest.approx(1 / 3)
    assert scores.strict.f1 == pytest.approx(1 / 3)
    # Recalled: "Hans Müller", "Bahnhofstraße 12"; not "80331 München".
    assert scores.lenient.recall == pytest.approx(2 / 3)
    # Precise: "Bahnhofstraße 12", "80331"; not "Zeuge Hans Müller".
    assert scores.lenient.precision == pytest.approx(2 / 3)
    assert scores.lenient.f1 == pytest.approx(2 / 3)


# --- overlaps and several spans covering each other ----------------------------------


def test_partial_overlap_counts_for_neither_side():
    gold = [span(WITNESS, "Hans Müller", "nat-name", "high")]
    pred = [span(WITNESS, "Müller wohnt", "nat-name")]  # misses "Hans", adds "wohnt"

    scores = score(WITNESS, gold, pred)

    assert (scores.strict.precision, scores.strict.recall) == (0.0, 0.0)
    assert (scores.lenient.precision, scores.lenient.recall) == (0.0, 0.0)


def test_gold_span_covered_by_two_predictions_with_whitespace_between_is_recalled():
    gold = [span(WITNESS, "Hans Müller", "nat-name", "high")]
    # Only the space between "Hans" and "Müller" is left out.
    pred = [span(WITNESS, "Hans", "nat-name"), span(WITNESS, "Müller", "nat-name")]

    scores = score(WITNESS, gold, pred)

    assert scores.strict.recall == 0.0
    assert scores.lenient.recall == 1.0  # union of the predictions covers the gold span
    assert scores.lenient.precision == 1.0  # both predictions lie inside gold: 2 of 2


def test_gold_span_covered_by_two_adjacent_predictions_is_recalled():
    gold = [span(WITNESS, "Bahnhofstraße 12", "address-name", "high")]
    start = gold[0].start
    # "Bahnhof" + "straße 12": no gap at all between the two predictions.
    pred = [
        Span(start, start + len("Bahnhof"), "address-name"),
        Span(start + len("Bahnhof"), gold[0].end, "address-name"),
    ]

    scores = score(WITNESS, gold, pred)

    assert scores.lenient.recall == 1.0
    assert scores.lenient.precision == 1.0


def test_covered_is_the_lenient_test_span_by_span():
    text = "Zeuge Adrian Weber und Kellerabteil Nr. 44"
    adrian, weber = text.index("Adrian"), text.index("Weber")
    targets = [Span(adrian, weber + 5, "nat-name"), Span(text.index("Keller"), len(text), "x")]
    cover = [Span(0, adrian + 6, "nat-name"), Span(weber, weber + 5, "nat-name")]
    # the name: every character but the space between the two predictions is covered
    assert covered(targets, cover, text) == [True, False]
    assert covered(cover, targets, text) == [False, True]  # "Zeuge" is in no target


def test_gold_span_with_non_whitespace_gap_between_predictions_is_not_recalled():
    gold = [span(CELLAR, "Kellerabteil Nr. 44", "address-idx", "medium")]
    # "Nr." between the two predictions is not predicted.
    pred = [span(CELLAR, "Kellerabteil", "address-idx"), span(CELLAR, "44", "address-idx")]

    scores = score(CELLAR, gold, pred)

    assert scores.lenient.recall == 0.0
    assert scores.lenient.precision == 1.0  # each prediction lies inside the gold span


def test_prediction_spanning_two_gold_spans_separated_by_whitespace_is_precise():
    gold = [span(CAR, "VW Golf", "car-name", "low"), span(CAR, "M-AB 1234", "car-idx", "high")]
    pred = [span(CAR, "VW Golf M-AB 1234", "car-idx")]  # only a space between the two

    scores = score(CAR, gold, pred)

    assert (scores.strict.precision, scores.strict.recall) == (0.0, 0.0)
    assert scores.lenient.recall == 1.0  # 2 of 2 gold spans covered
    assert scores.lenient.precision == 1.0  # 1 of 1: its non-space characters are all gold


def test_prediction_spanning_two_gold_spans_separated_by_comma_is_not_precise():
    gold = witness_gold()[1:]  # "Bahnhofstraße 12" and "80331 München"
    pred = [span(WITNESS, "Bahnhofstraße 12, 80331 München", "address-name")]

    scores = score(WITNESS, gold, pred)

    assert scores.lenient.recall == 1.0  # both gold spans covered
    assert scores.lenient.precision == 0.0  # the comma is no gold character
    assert scores.lenient.f1 == 0.0


# --- labels: strict typed, confusion matrix, per label -------------------------------


def test_wrong_label_is_a_strict_match_but_not_strict_typed():
    gold = [span(WITNESS, "Hans Müller", "nat-name", "high")]
    pred = [span(WITNESS, "Hans Müller", "nat-jur")]

    scores = score(WITNESS, gold, pred)

    assert (scores.strict.precision, scores.strict.recall) == (1.0, 1.0)
    assert (scores.strict_typed.precision, scores.strict_typed.recall) == (0.0, 0.0)
    assert (scores.lenient.precision, scores.lenient.recall) == (1.0, 1.0)
    assert scores.confusion["nat-name", "nat-jur"] == 1
    assert scores.confusion["nat-name", "nat-name"] == 0


def test_confusion_matrix_cells_including_fp_and_fn():
    gold = witness_gold()
    pred = [
        span(WITNESS, "Hans Müller", "nat-jur"),  # strict match, wrong label
        span(WITNESS, "Bahnhofstraße", "address-name"),  # matches no gold span: FP
    ]

    scores = score(WITNESS, gold, pred)
    confusion = scores.confusion

    assert confusion.rows == [*DEFAULT_LABELS.names, FP]
    assert confusion.columns == [*DEFAULT_LABELS.names, FN]
    assert confusion["nat-name", "nat-jur"] == 1
    # "Bahnhofstraße 12" and "80331 München" have no strictly matching prediction.
    assert confusion["address-name", FN] == 2
    assert confusion["FP", "address-name"] == 1
    assert confusion["nat-name", FN] == 0
    # 1 label confusion + 2 FN + 1 FP; every other cell is 0.
    assert sum(map(sum, confusion.matrix)) == 4


def test_recall_by_risk_uses_the_risk_of_each_gold_occurrence():
    gold_witness = [
        span(WITNESS, "Hans Müller", "nat-name", "high"),
        # The annotator lowered the usual risk of an address for this occurrence.
        span(WITNESS, "Bahnhofstraße 12", "address-name", "medium"),
        # No risk given: the usual risk of address-name, high.
        span(WITNESS, "80331 München", "address-name"),
    ]
    gold_verdict = [
        span(VERDICT, "5.7.2022", "date-world", "low"),
        span(VERDICT, "Kellerabteil Nr. 44", "address-idx", "medium"),
    ]
    pred_witness = [
        span(WITNESS, "Hans Müller", "nat-name"),
        span(WITNESS, "80331 München", "address-name"),
    ]
    pred_verdict = [span(VERDICT, "Kellerabteil Nr. 44", "address-idx")]

    scores = score_documents(
        [doc(WITNESS, *gold_witness, id="a"), doc(VERDICT, *gold_verdict, id="b")],
        [doc(WITNESS, *pred_witness, id="a"), doc(VERDICT, *pred_verdict, id="b")],
    )

    # high: Hans Müller, 80331 München both recalled       -> 2/2
    # medium: Bahnhofstraße 12 missed, Kellerabteil found  -> 1/2
    # low: 5.7.2022 missed                                 -> 0/1
    assert scores.recall_by_risk == {"high": 1.0, "medium": 0.5, "low": 0.0}
    assert list(scores.recall_by_risk) == ["high", "medium", "low"]
    assert scores.support_by_risk == {"high": 2, "medium": 2, "low": 1}


def test_by_label_precision_recall_f1_support_predicted():
    gold = witness_gold()
    pred = [
        span(WITNESS, "Hans Müller", "nat-name"),
        span(WITNESS, "Bahnhofstraße 12", "address-name"),
        span(WITNESS, "80331 München", "nat-idx"),  # right offsets, wrong label
    ]

    by_label = score(WITNESS, gold, pred).by_label

    assert list(by_label) == DEFAULT_LABELS.names
    nat_name = by_label["nat-name"]
    assert (nat_name.precision, nat_name.recall, nat_name.f1) == (1.0, 1.0, 1.0)
    assert (nat_name.support, nat_name.predicted) == (1, 1)
    # address-name: 2 gold, 1 predicted, 1 correct -> P 1/1, R 1/2, F1 2/3.
    address = by_label["address-name"]
    assert address.precision == 1.0
    assert address.recall == 0.5
    assert address.f1 == pytest.approx(2 / 3)
    assert (address.support, address.predicted) == (2, 1)
    # nat-idx: predicted once, never in gold -> P 0/1, R 1.0 (nothing to miss), F1 0.
    nat_idx = by_label["nat-idx"]
    assert (nat_idx.precision, nat_idx.recall, nat_idx.f1) == (0.0, 1.0, 0.0)
    assert (nat_idx.support, nat_idx.predicted) == (0, 1)
    # A label neither in gold nor predicted: nothing to find, nothing wrong.
    car = by_label["car-name"]
    assert (car.precision, car.recall, car.f1, car.support, car.predicted) == (1, 1, 1, 0, 0)


# --- 0/0 rules and micro-averaging ---------------------------------------------------


def test_precision_recall_f1_zero_division_rules():
    # precision_recall_f1(tp_pred, n_pred, tp_gold, n_gold)
    assert precision_recall_f1(0, 0, 0, 0) == PRF(1.0, 1.0, 1.0)  # nothing to do, none done
    assert precision_recall_f1(0, 0, 0, 2) == PRF(0.0, 0.0, 0.0)  # gold, no prediction
    assert precision_recall_f1(0, 3, 0, 0) == PRF(0.0, 1.0, 0.0)  # prediction, no gold
    assert precision_recall_f1(1, 2, 1, 4) == PRF(0.5, 0.25, 1 / 3)  # 2 * 0.125 / 0.75


@pytest.mark.parametrize("text", ["", "Das Urteil ist rechtskräftig."])
def test_no_gold_and_no_predictions_scores_one(text):
    scores = score(text, [], [])

    for prf in (scores.strict, scores.strict_typed, scores.lenient):
        assert (prf.precision, prf.recall, prf.f1) == (1.0, 1.0, 1.0)
    assert scores.recall_by_risk == {"high": 1.0, "medium": 1.0, "low": 1.0}
    assert scores.counts == {"documents": 1, "gold": 0, "pred": 0}


def test_gold_but_no_predictions_scores_zero():
    scores = score(WITNESS, witness_gold(), [])

    for prf in (scores.strict, scores.strict_typed, scores.lenient):
        assert (prf.precision, prf.recall, prf.f1) == (0.0, 0.0, 0.0)
    assert scores.recall_by_risk["high"] == 0.0
    assert scores.confusion["address-name", FN] == 2


def test_predictions_but_no_gold_have_precision_zero_recall_one():
    scores = score(WITNESS, [], [span(WITNESS, "Zeuge", "nat-idx")])

    for prf in (scores.strict, scores.strict_typed, scores.lenient):
        assert (prf.precision, prf.recall, prf.f1) == (0.0, 1.0, 0.0)
    assert scores.confusion[FP, "nat-idx"] == 1


def test_scores_are_micro_averaged_over_documents():
    # Document "a": 1 gold span, predicted exactly.
    # Document "b": 3 gold spans, nothing predicted.
    gold = [
        doc(CELLAR, span(CELLAR, "Kellerabteil Nr. 44", "address-idx", "medium"), id="a"),
        doc(WITNESS, *witness_gold(), id="b"),
    ]
    pred = [doc(CELLAR, span(CELLAR, "Kellerabteil Nr. 44", "address-idx"), id="a")]

    scores = score_documents(gold, pred)

    # Micro: 1 of 1 prediction right, 1 of 4 gold spans found.
    # (Macro would average per document: precision (1 + 0) / 2, recall (1 + 0) / 2.)
    assert scores.strict.precision == 1.0
    assert scores.strict.recall == 0.25
    assert scores.strict.f1 == pytest.approx(0.4)  # 2 * 1 * 0.25 / 1.25
    assert scores.counts == {"documents": 2, "gold": 4, "pred": 1}


def test_span_scorer_accumulates_document_by_document():
    scorer = SpanScorer()
    scorer.add(CELLAR, [span(CELLAR, "Kellerabteil Nr. 44", "address-idx", "medium")], [])
    scorer.add(WITNESS, witness_gold(), witness_gold())

    scores = scorer.result()

    assert scores.strict.recall == 0.75  # 3 of 4
    assert scores.strict.precision == 1.0  # 3 of 3


# --- pairing predicted documents with gold documents ---------------------------------


def test_missing_predicted_document_predicts_nothing():
    gold = [
        doc(WITNESS, *witness_gold(), id="a"),
        doc(CELLAR, span(CELLAR, "Kellerabteil Nr. 44", "address-idx", "medium"), id="b"),
    ]
    pred = [doc(WITNESS, *witness_gold(), id="a")]  # nothing for "b"

    pairs = pair_documents(gold, pred)

    assert [(g.id, spans) for g, spans in pairs] == [("a", witness_gold()), ("b", [])]
    scores = score_documents(gold, pred)
    assert scores.counts == {"documents": 2, "gold": 4, "pred": 3}
    assert scores.strict.recall == 0.75
    assert scores == score_documents(gold, [*pred, doc(CELLAR, id="b")])


def test_predicted_document_not_in_gold_is_an_error():
    gold = [doc(WITNESS, id="a")]
    pred = [doc(WITNESS, id="a"), doc(CELLAR, id="zz")]

    with pytest.raises(ValidationError, match="'zz' is not in the gold set"):
        pair_documents(gold, pred)
    with pytest.raises(ValidationError, match="'zz'"):
        score_documents(gold, pred)


def test_predicted_text_differing_from_gold_text_is_an_error():
    gold = [doc(WITNESS, id="a")]
    pred = [doc(WITNESS.replace("Müller", "Mueller"), id="a")]

    with pytest.raises(ValidationError, match="document 'a': predicted text differs"):
        score_documents(gold, pred)


# --- result as a dict ----------------------------------------------------------------


def test_to_dict_is_json_serialisable():
    pred = [span(WITNESS, "Zeuge Hans Müller", "nat-name"), span(WITNESS, "80331", "nat-idx")]
    scores = score(WITNESS, witness_gold(), pred)

    data = json.loads(json.dumps(scores.to_dict()))

    assert {
        "strict",
        "strict_typed",
        "lenient",
        "recall_by_risk",
        "by_label",
        "confusion",
        "counts",
    } <= data.keys()
    assert data["strict"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    assert data["lenient"]["recall"] == pytest.approx(1 / 3)  # only "Hans Müller"
    assert data["lenient"]["precision"] == pytest.approx(1 / 2)  # only "80331"
    assert data["recall_by_risk"]["high"] == pytest.approx(1 / 3)
    # No address-name predicted, 2 in gold: precision 0.0 (see the 0/0 rules).
    assert data["by_label"]["address-name"] == {
        "precision": 0.0,
        "recall": 0.0,
        "f1": 0.0,
        "support": 2,
        "predicted": 0,
    }
    assert data["confusion"]["rows"][-1] == "FP"
    assert data["confusion"]["columns"][-1] == "FN"
    assert data["counts"] == {"documents": 1, "gold": 3, "pred": 2}


# --- the evaluate module -------------------------------------------------------------


@pytest.fixture(scope="module")
def evaluate_metric():
    """``evaluate.load`` on the metrics module file; offline, no hub access."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("HF_EVALUATE_OFFLINE", "1")
        evaluate = pytest.importorskip("evaluate")  # a slow import (seconds): one module
        yield evaluate.load(str(Path(hf_anon.model.metrics.__file__)))


def test_evaluate_module_gives_the_same_scores(evaluate_metric):
    gold_docs = [
        doc(WITNESS, *witness_gold(), id="a"),
        doc(CELLAR, span(CELLAR, "Kellerabteil Nr. 44", "address-idx", "medium"), id="b"),
    ]
    pred_docs = [
        doc(
            WITNESS,
            Span(0, 17, "nat-name", "high"),  # "Zeuge Hans Müller"
            Span(31, 47, "address-idx", "medium"),  # "Bahnhofstraße 12", wrong label
            id="a",
        ),
        doc(CELLAR, span(CELLAR, "Kellerabteil", "address-idx", "medium"), id="b"),
    ]

    result = evaluate_metric.compute(
        predictions=[{"text": d.text, "spans": [s.to_dict() for s in d.spans]} for d in pred_docs],
        references=[{"text": d.text, "spans": [s.to_dict() for s in d.spans]} for d in gold_docs],
    )

    assert result == score_documents(gold_docs, pred_docs).to_dict()
    # Strict: only "Bahnhofstraße 12" (1 of 3 predictions, 1 of 4 gold spans).
    assert result["strict"]["precision"] == pytest.approx(1 / 3)
    assert result["strict"]["recall"] == pytest.approx(1 / 4)
    assert result["strict_typed"]["recall"] == 0.0
    # Lenient recall: "Hans Müller", "Bahnhofstraße 12" of 4; precision:
    # "Bahnhofstraße 12", "Kellerabteil" of 3.
    assert result["lenient"]["recall"] == pytest.approx(2 / 4)
    assert result["lenient"]["precision"] == pytest.approx(2 / 3)


def test_evaluate_module_accepts_predictions_without_risk(evaluate_metric):
    # Predictions usually carry no risk (the CLI reads them with require_risk=False).
    reference = {"text": WITNESS, "spans": [s.to_dict() for s in witness_gold()]}
    prediction = {
        "text": WITNESS,
        "spans": [{"start": 6, "end": 17, "label": "nat-name"}],  # "Hans Müller", no risk
    }

    result = evaluate_metric.compute(predictions=[prediction], references=[reference])

    assert result["strict"]["precision"] == 1.0
    assert result["strict"]["recall"] == pytest.approx(1 / 3)


# --- properties on random texts and spans --------------------------------------------

LABELS = ("nat-name", "address-name", "date-fact")


@st.composite
def text_and_two_span_sets(draw):
    """A random text of letters, spaces and commas, and two random span sets on it.

    Each set is sorted, non-overlapping, and like real spans starts and ends on a
    non-whitespace character.
    """
    text = draw(st.text(alphabet="ab ,\n", min_size=0, max_size=40))

    def spans():
        cuts = sorted(draw(st.sets(st.integers(0, len(text)), max_size=12)))
        out = []
        for start, end in zip(cuts[::2], cuts[1::2], strict=False):
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            if start < end:
                label = draw(st.sampled_from(LABELS))
                risk = draw(st.sampled_from(["high", "medium", "low", None]))
                out.append(Span(start, end, label, risk))
        return out

    return text, spans(), spans()


@settings(max_examples=300, deadline=None)
@given(text_and_two_span_sets())
def test_gold_against_itself_scores_one_everywhere(case):
    text, gold, _ = case

    scores = score(text, gold, gold)

    for prf in (scores.strict, scores.strict_typed, scores.lenient):
        assert (prf.precision, prf.recall, prf.f1) == (1.0, 1.0, 1.0)
    assert set(scores.recall_by_risk.values()) == {1.0}
    for label_score in scores.by_label.values():
        assert (label_score.precision, label_score.recall, label_score.f1) == (1.0, 1.0, 1.0)
    assert all(row[-1] == 0 for row in scores.confusion.matrix)  # no FN
    assert not any(scores.confusion.matrix[-1])  # no FP


@settings(max_examples=300, deadline=None)
@given(text_and_two_span_sets())
def test_lenient_scores_are_at_least_strict_scores(case):
    text, gold, pred = case

    scores = score(text, gold, pred)

    assert scores.lenient.recall >= scores.strict.recall
    assert scores.lenient.precision >= scores.strict.precision
    assert scores.strict.recall >= scores.strict_typed.recall
    assert scores.strict.precision >= scores.strict_typed.precision


@settings(max_examples=100, deadline=None)
@given(st.lists(text_and_two_span_sets(), min_size=1, max_size=5))
def test_merged_per_document_scorers_equal_one_scorer_over_all_documents(cases):
    together, apart = SpanScorer(), []
    for text, gold, pred in cases:
        together.add(text, gold, pred)
        one = SpanScorer()
        one.add(text, gold, pred)
        apart.append(one)

    assert merge_scorers(apart).result() == together.result()


# --- intervals over documents --------------------------------------------------------


def test_bootstrap_over_identical_documents_has_no_width():
    scorers = []
    for _ in range(5):
        scorer = SpanScorer()
        scorer.add(WITNESS, witness_gold(), witness_gold()[:2])  # the town missed
        scorers.append(scorer)

    intervals = bootstrap_intervals(scorers, samples=50)

    assert intervals["lenient_recall"] == (2 / 3, 2 / 3)
    assert intervals["recall_high"] == (2 / 3, 2 / 3)
    assert intervals["lenient_precision"] == (1.0, 1.0)


def test_bootstrap_interval_spans_documents_that_disagree():
    found, missed = SpanScorer(), SpanScorer()
    found.add(WITNESS, witness_gold(), witness_gold())
    missed.add(WITNESS, witness_gold(), [])
    scorers = [found] * 10 + [missed] * 10

    low, high = bootstrap_intervals(scorers, samples=400, seed=1)["lenient_recall"]

    assert headline(merge_scorers(scorers).result())["lenient_recall"] == 0.5
    assert 0.2 < low < 0.5 < high < 0.8  # 20 decisions: a wide interval around the half


def test_paired_intervals_measure_a_gain_on_the_same_documents():
    """An adapter that finds the town the base model missed, in half of 20 decisions: the
    paired difference lies above zero, though each figure's own interval is wide."""
    before, after = [], []
    for i in range(20):
        base, adapted = SpanScorer(), SpanScorer()
        base.add(WITNESS, witness_gold(), witness_gold()[:2])  # the town missed
        adapted.add(WITNESS, witness_gold(), witness_gold() if i % 2 else witness_gold()[:2])
        before.append(base)
        after.append(adapted)

    recall = paired_intervals(before, after, samples=300, seed=2)["lenient_recall"]

    assert recall["before"] == 2 / 3
    assert recall["after"] == pytest.approx(5 / 6)
    assert recall["difference"] == pytest.approx(1 / 6)
    assert 0 < recall["low"] < 1 / 6 < recall["high"]


def test_paired_intervals_of_one_detector_are_zero():
    scorers = [SpanScorer() for _ in range(3)]
    for scorer in scorers:
        scorer.add(WITNESS, witness_gold(), witness_gold()[:1])

    figures = paired_intervals(scorers, scorers, samples=20)

    assert {f["difference"] for f in figures.values()} == {0.0}
    assert {(f["low"], f["high"]) for f in figures.values()} == {(0.0, 0.0)}


def test_paired_intervals_need_the_same_documents():
    with pytest.raises(ValueError, match="not paired"):
        paired_intervals([SpanScorer()], [])


def test_bootstrap_needs_documents():
    with pytest.raises(ValueError, match="at least one document"):
        bootstrap_intervals([])


def test_document_scorers_give_one_scorer_per_document_that_add_up_to_the_whole():
    docs = [
        Document("a", "Anna Meier klagt.", [Span(0, 10, "nat-name", "high")]),
        Document("b", "Am 3. Mai 2020 in Köln.", [Span(3, 14, "date-fact", "medium")]),
    ]
    predicted = [[Span(0, 10, "nat-name", "high")], []]
    per_document = document_scorers(DEFAULT_LABELS, docs, predicted)
    assert [s.documents for s in per_document] == [1, 1]
    whole = SpanScorer(DEFAULT_LABELS)
    for doc, spans in zip(docs, predicted, strict=True):
        whole.add(doc.text, doc.spans, spans)
    assert merge_scorers(per_document).result() == whole.result()
    with pytest.raises(ValueError):
        document_scorers(DEFAULT_LABELS, docs, predicted[:1])
