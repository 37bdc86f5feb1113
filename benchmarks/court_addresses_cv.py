"""Does reading courts' labelled address blocks earn its place? On and off, fold by fold,
then once on the sets nothing was chosen on.

    python benchmarks/court_addresses_cv.py [--model models/hf-anon-de-e5-small] \
        [--json reports/capacity/court_addresses.json] \
        [--markdown reports/capacity/court_addresses.md]

Issue 31, part 3, for the extension of session 55 to the guide's rule 25 (a court's postal
address in the instructions on appeal is no span): ``citations.is_court_address`` also drops
an address at the end of a labelled block after a court's name (``Hausanschrift: Promenade
24 - 28, 91522 Ansbach``, ``Postfachanschrift: Postfach 34 01 48, 80098 München``). It was
written from the default's false addresses on the five folds by court of ``rules_cv.py`` (the
341 decisions of rounds 4 to 9), so the folds show where the cause was seen; it is judged by
the rule decided before it was written (``reports/capacity/README.md``, session 55): F2 up
on every fold where it changes a span, high-risk recall down on none, recall down by at most
0.001 on any. The folds are decoded without the learned citation filter (fitted on them;
it judges no address). The model runs once per set; each set is decoded with the switch
(``citations.LABELLED_COURT_ADDRESSES``) on and off; the other sets are read once afterwards
(paired intervals over decisions) with the prose paragraphs.
"""

from __future__ import annotations

import sys

from on_off import earns_its_place_where_it_acts, rule_main


def decode_both(detector, documents) -> tuple[list, list]:
    """The spans of ``documents`` with labelled court addresses dropped and without, from one
    model pass."""
    from hf_anon.model.recognizers import citations

    probabilities = detector.predict_probabilities(documents, progress=True)
    shipped = citations.LABELLED_COURT_ADDRESSES
    try:
        citations.LABELLED_COURT_ADDRESSES = False
        without = detector.decode_all(probabilities)
        citations.LABELLED_COURT_ADDRESSES = True
        with_rule = detector.decode_all(probabilities)
    finally:
        citations.LABELLED_COURT_ADDRESSES = shipped
    return with_rule, without


def main(argv: list[str] | None = None) -> int:
    return rule_main(
        __doc__.splitlines()[0],
        decode_both,
        argv,
        folds_without_filter=True,  # fitted on the folds; it judges no address either way
        verdict=earns_its_place_where_it_acts,
    )


if __name__ == "__main__":
    sys.exit(main())
