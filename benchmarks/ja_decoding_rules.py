"""Japanese decoding rules on and off, on precedents the model never trained on.

    python benchmarks/ja_decoding_rules.py [--model models/hf-anon-ja-e5-small] \
        [--held-out reports/ja_gold/session39_ids.txt] [--json out.json]

Rules written from exhaustively annotated training precedents that the model has not seen
(for the stage-4 model: the 60 precedents added in session 38; for the stage-5 model: the 60
of session 39) are shown to help there and
checked on the validation half of the real gold set, which they were not written from. The
model runs once per set; each rule is then switched off in turn and the set scored again
(lenient precision, recall, high-risk recall, strict F1; the model's own thresholds):

- ``authorities``: spans that name a public body dropped
  (:mod:`hf_anon.text.japanese_authorities`);
- ``date particles``: particles after a date's last unit trimmed (``１日から``);
- ``dateless dates``: date spans without a number dropped (``月日は``, ``同日``);
- ``name edges inward``: a name whose edge the model put inside a common word loses that
  word (``外山本誠一`` of ``訴外山本誠一`` → ``山本誠一``) instead of being dropped as a
  fragment (:func:`hf_anon.text.japanese_words._name_edges`; off: the fragment is dropped);
- ``one-word organisations``: an organisation span that is one common word and that the
  text does not confirm is dropped (``新株``, ``球団``;
  :data:`hf_anon.text.japanese_words.ORGANISATION_LABELS`);
- ``words across line ends``: the word analyzer reads the text without the PDF's line ends
  (``ファウル⏎ボール`` is one word; off: the words of the text as printed);
- ``spaced legal forms``: a legal form printed letter-spaced (``株 式 会 社``) is cut from
  an organisation's edge like an unspaced one, and an organisation span that is only a legal
  form is dropped (:func:`hf_anon.text.languages.japanese_boundaries`; off: unspaced forms
  are cut from the edges only);
- ``names as settled``: a short name is confirmed by a longer name that holds it only as
  that name stands after the word check (``外`` is not confirmed by ``外久保田洋子``, which
  becomes ``久保田洋子``; :func:`hf_anon.text.japanese_words._confirming_names`; off: by the
  model's spans as found);
- ``legal form confirms``: an organisation of one common word that the text writes with a
  legal form anywhere (``株式会社マーベラス``) is confirmed in every mention
  (:func:`hf_anon.text.japanese_words._with_legal_form`; off: only a role, quotation marks
  or a longer name confirm it);
- ``names spread``: a name the model found marks every other mention of its characters
  that stands on word boundaries (:func:`hf_anon.text.japanese_mentions.spread_names`; off:
  only what the model marked);
- ``IP numbers``: the recognizer ``ja-ip-numbers`` (patents, applications, the Patent
  Office's appeals; :mod:`hf_anon.model.recognizers.japanese_ip`) runs beside the model's
  own recognizers (off: only the model's config's).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


RULES = (
    "none",
    "authorities",
    "date particles",
    "dateless dates",
    "name edges inward",
    "one-word organisations",
    "words across line ends",
    "spaced legal forms",
    "names as settled",
    "legal form confirms",
    "names spread",
    "IP numbers",
)


def _fragment_edges(span, first, last):
    """The name edges before ``name edges inward``: an edge inside a common word makes
    the span a fragment (empty edges), whatever the rest holds."""
    start, end = span.start, span.end
    for word, cut in ((first, first and first.start < start), (last, last and last.end > end)):
        if cut and not word.name_like:
            return start, start
    if first is not None and first.start < start:
        start = first.start
    if last is not None and last.end > end:
        end = last.end
    return start, end


@contextmanager
def switched_off(rule: str, detector):
    import hf_anon.text.japanese_authorities as authorities
    import hf_anon.text.japanese_mentions as mentions
    import hf_anon.text.japanese_words as words
    import hf_anon.text.languages as languages

    saved = (authorities.drop_authorities, languages._DATE_PARTICLE, languages._DATE_CORE)
    saved_words = (words._name_edges, words.ORGANISATION_LABELS, words.analyze)
    saved_forms = (
        languages._LEGAL_FORM_START,
        languages._LEGAL_FORM_END,
        languages._LEGAL_FORM_ONLY,
        words._confirming_names,
        words._with_legal_form,
    )
    saved_recognizers, saved_spread = detector.recognizers, mentions.spread_names
    if rule == "names spread":
        mentions.spread_names = lambda text, spans, boundaries: list(spans)
    elif rule == "legal form confirms":
        words._with_legal_form = lambda text, name: False
    elif rule == "IP numbers":
        detector.recognizers = tuple(r for r in detector.recognizers if r != "ja-ip-numbers")
    elif rule == "spaced legal forms":
        forms = "|".join(languages.LEGAL_FORMS_JA)
        languages._LEGAL_FORM_START = re.compile(f"(?:{forms})")
        languages._LEGAL_FORM_END = re.compile(f"(?:{forms})$")
        languages._LEGAL_FORM_ONLY = re.compile(r"(?!x)x")
    elif rule == "names as settled":
        words._confirming_names = lambda text, checked, settled: {
            text[s.start : s.end] for s in checked
        }
    elif rule == "words across line ends":
        words.analyze = words._analyze
    elif rule == "name edges inward":
        words._name_edges = _fragment_edges
    elif rule == "one-word organisations":
        words.ORGANISATION_LABELS = frozenset()
    elif rule == "authorities":
        authorities.drop_authorities = lambda text, spans: list(spans)
    elif rule == "date particles":
        languages._DATE_PARTICLE = re.compile(r"(?!x)x")
    elif rule == "dateless dates":
        languages._DATE_CORE = re.compile("")
    try:
        yield
    finally:
        authorities.drop_authorities, languages._DATE_PARTICLE, languages._DATE_CORE = saved
        words._name_edges, words.ORGANISATION_LABELS, words.analyze = saved_words
        (
            languages._LEGAL_FORM_START,
            languages._LEGAL_FORM_END,
            languages._LEGAL_FORM_ONLY,
            words._confirming_names,
            words._with_legal_form,
        ) = saved_forms
        detector.recognizers, mentions.spread_names = saved_recognizers, saved_spread


def figures(detector, docs, probabilities) -> dict[str, float]:
    from hf_anon.model.metrics import SpanScorer

    scorer = SpanScorer(detector.labels)
    for doc, spans in zip(docs, detector.decode_all(probabilities), strict=True):
        scorer.add(doc.text, doc.spans, spans)
    r = scorer.result()
    return {
        "precision": r.lenient.precision,
        "recall": r.lenient.recall,
        "recall_high": r.recall_by_risk.get("high", 1.0),
        "strict_f1": r.strict.f1,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-ja-e5-small"))
    parser.add_argument(
        "--held-out",
        type=Path,
        nargs="+",
        default=[ROOT / "reports" / "ja_gold" / "session39_ids.txt"],
        help="files of precedent ids of data/ja/real/train.jsonl the model never trained on",
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    from hf_anon.model.detection import SpanDetector
    from hf_anon.text.data import load_jsonl

    ids = {i for path in args.held_out for i in path.read_text(encoding="utf-8").split()}
    sets = {
        "held out": [d for d in load_jsonl(ROOT / "data/ja/real/train.jsonl") if d.id in ids],
        "validation": load_jsonl(ROOT / "data/ja/gold/validation.jsonl"),
    }
    if not sets["held out"]:
        parser.error(f"no precedent of {args.held_out} in data/ja/real/train.jsonl")
    detector = SpanDetector.from_pretrained(args.model)
    # every rule measured here is on unless switched off, whatever the model's config says
    detector.recognizers = tuple(dict.fromkeys((*detector.recognizers, "ja-ip-numbers")))
    probabilities = {k: detector.predict_probabilities(docs) for k, docs in sets.items()}
    table: dict[str, dict] = {}
    for rule in RULES:
        with switched_off(rule, detector):
            table[rule] = {k: figures(detector, sets[k], probabilities[k]) for k in sets}
    print(f"{len(sets['held out'])} held-out precedents, {len(sets['validation'])} validation")
    print("switched off           | " + " | ".join(f"{k}: P / R / high / strict F1" for k in sets))
    for rule, row in table.items():
        cells = [
            f"{v['precision']:.3f} / {v['recall']:.3f} / {v['recall_high']:.3f} / "
            f"{v['strict_f1']:.3f}"
            for v in row.values()
        ]
        print(f"{rule:22} | " + " | ".join(cells))
    if args.json:
        out = {"model": args.model, "held_out": sorted(ids), "table": table}
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
