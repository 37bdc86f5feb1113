"""Does the company rule earn its place? On and off, fold by fold, then once on the sets
nothing was chosen on.

    python benchmarks/companies_cv.py [--model models/hf-anon-de-e5-small] \
        [--json reports/capacity/companies.json] [--markdown reports/capacity/companies.md]

Issue 31, part 3: a rule stays only if it helps on every fold of a cross-validation over the
training courts. :mod:`hf_anon.model.recognizers.companies` was written from the model's
missed company names in folds 1 to 3 of the five folds by court of ``rules_cv.py`` (the 341
decisions of training rounds 4 to 9, which the shipped model never trained on); folds 4 and 5
were not read. The model runs once per set; its spans are decoded with the model's
recognizers and with them plus ``companies``, and each fold and each other set is scored
(lenient precision, recall, F2, high-risk recall; paired intervals over decisions on the sets
read afterwards: validation, test, the unseen-court test, and the ordinary-prose paragraphs).
The folds are decoded without the learned citation filter, which was fitted on them (it
judges dates, courts and dockets only, so the rule's effect is the same either way); the
other sets as the model ships.
"""

from __future__ import annotations

import sys

from on_off import rule_main

RULE = "companies"


def decode_both(detector, documents) -> tuple[list, list]:
    """The spans of ``documents`` with the rule and without it, from one model pass."""
    probabilities = detector.predict_probabilities(documents, progress=True)
    shipped = detector.recognizers
    try:
        detector.recognizers = tuple(r for r in shipped if r != RULE)
        without = detector.decode_all(probabilities)
        detector.recognizers = (*detector.recognizers, RULE)
        with_rule = detector.decode_all(probabilities)
    finally:
        detector.recognizers = shipped
    return with_rule, without


def main(argv: list[str] | None = None) -> int:
    return rule_main(__doc__.splitlines()[0], decode_both, argv, folds_without_filter=True)


if __name__ == "__main__":
    sys.exit(main())
