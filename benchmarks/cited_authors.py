"""Does dropping the authors of cited literature earn its place? On and off, fold by fold,
then once on the sets nothing was chosen on.

    python benchmarks/cited_authors.py [--model models/hf-anon-de-e5-small] \
        [--json reports/capacity/cited_authors.json] [--markdown reports/capacity/cited_authors.md]

Issue 31, part 3: a rule stays only if it helps on every fold of a cross-validation over the
training courts. :mod:`hf_anon.model.recognizers.literature` was written from the model's
false names in the ordinary prose of the 341 decisions of training rounds 4 to 9 (which the
shipped model never trained on); those decisions, in the five folds by court of
``rules_cv.py``, are its cross-validation. The model runs once per set; the spans are decoded
with the rule and without it (:func:`is_cited_author` patched to say no), and each fold and
each other set is scored (lenient precision, recall, F2, high-risk recall), with paired
intervals over decisions on the sets read afterwards: validation (where the other rules were
chosen), test, the unseen-court test and the ordinary-prose paragraphs. Since session 45 the
folds are decoded without the learned citation filter, which was fitted on them
(``benchmarks/on_off.py``).
"""

from __future__ import annotations

import sys
from unittest import mock

from on_off import rule_main


def decode_both(detector, documents) -> tuple[list, list]:
    """The spans of ``documents`` with the rule (as shipped) and without it, from one run."""
    probabilities = detector.predict_probabilities(documents, progress=True)
    with_rule = detector.decode_all(probabilities)
    with mock.patch("hf_anon.model.recognizers.citations.is_cited_author", return_value=False):
        without = detector.decode_all(probabilities)
    return with_rule, without


def main(argv: list[str] | None = None) -> int:
    return rule_main(__doc__.splitlines()[0], decode_both, argv, folds_without_filter=True)


if __name__ == "__main__":
    sys.exit(main())
