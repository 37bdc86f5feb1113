"""Two models read together (``benchmarks/ensemble_cv.py``): probabilities averaged token by
token, then decoded as one model's."""

import sys
from pathlib import Path

import numpy as np
import pytest

from hf_anon.text.data import Document, Span

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from ensemble_cv import Decoded, averaged, paired_choice


def test_two_members_probabilities_are_averaged_head_by_head(tiny_model_dir):
    from hf_anon.model.detection import SpanDetector

    docs = [Document("a", "Der Kläger Jonas Weber wohnt in München."), Document("b", "")]
    one = SpanDetector.from_pretrained(str(tiny_model_dir))
    two = SpanDetector.from_pretrained(str(tiny_model_dir), stride=4, max_length=12)
    first, second = one.predict_probabilities(docs), two.predict_probabilities(docs)

    both = averaged([first, second])

    assert both[0][0] is first[0][0]  # the first member's encoding decodes the average
    for head in (1, 2, 3):
        assert np.allclose(both[0][head], (first[0][head] + second[0][head]) / 2)
    assert both[1] is first[1]  # an empty document stays as the first member read it
    assert all(isinstance(s, Span) for s in one.decode_all(both)[0])


def test_members_that_tokenize_differently_cannot_be_averaged(tiny_model_dir):
    from hf_anon.model.detection import SpanDetector

    detector = SpanDetector.from_pretrained(str(tiny_model_dir))
    short, long = (
        detector.predict_probabilities([Document("a", text)])
        for text in ("Jonas Weber.", "Jonas Weber wohnt in München.")
    )

    with pytest.raises(ValueError, match="one tokenizer"):
        averaged([short, long])


def test_an_ensemble_that_finds_more_on_every_decision_wins_the_paired_choice():
    from hf_anon.model.gate import Gate
    from hf_anon.text.labels import DEFAULT_LABELS

    text = "Herr Jonas Weber und Frau Anna Roth aus München."
    docs = []
    for i in range(12):
        spans = [
            Span(text.index(w), text.index(w) + len(w), label, risk)
            for w, label, risk in (
                ("Jonas Weber", "nat-name", "high"),
                ("Anna Roth", "nat-name", "high"),
                ("München", "address-name", "medium"),
            )
        ]
        docs.append(Document(str(i), text, spans))
    one_found = [[d.spans[0]] for d in docs]
    all_found = [list(d.spans) for d in docs]

    def choice(before, after):
        gate = Gate(Decoded(DEFAULT_LABELS, before), docs)  # the model in use, as decoded
        return paired_choice(gate, DEFAULT_LABELS, after)

    better = choice(one_found, all_found)
    same = choice(all_found, all_found)
    worse = choice(all_found, one_found)

    assert (better["verdict"], same["verdict"], worse["verdict"]) == ("wins", "not better", "loses")
