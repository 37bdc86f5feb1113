"""hf-anon against Microsoft Presidio's German recognizers, on the annotated dev set.

    python benchmarks/peers.py [--gold ../shared/data/dev/gold.jsonl] [--model M]
        [--device cpu|cuda] [--batch-size 16] [--repeat 3]

Needs ``pip install "hf-anon[presidio]"``. One run prints a Markdown table with, side by
side:

- **Presidio, German recognizers**: every predefined recognizer Presidio has for ``de``
  (:func:`hf_anon.distribution.presidio.predefined_recognizers`): the generic ones its default
  configuration loads for any language (e-mail, IBAN, phone, date, URL, IP, MAC, UUID,
  crypto wallet, US medical licence) and the 13 German ones it ships disabled (tax id, tax
  number, passport, ID card, social security, health insurance, licence plate, commercial
  register, postcode, VAT id, driving licence, LANR, BSNR), in an ``AnalyzerEngine`` with
  an offline blank German spaCy pipeline
  (:class:`hf_anon.distribution.presidio.BlankSpacyNlpEngine`: words and context words, no NER:
  no German spaCy model can be installed from PyPI);
- **hf-anon**: ``Anonymizer.detect`` with the model (default: the bundled one);
- **hf-anon in Presidio**: the same model as :class:`hf_anon.distribution.presidio.HfAnonRecognizer`
  in an ``AnalyzerEngine`` (same spans, Presidio's overhead);
- **hf-anon + Presidio**: both in one ``AnalyzerEngine`` (``analyzer_engine(predefined=
  True)``).

Scores are hf-anon's (:class:`hf_anon.model.metrics.SpanScorer`, as ``hf-anon evaluate``):
lenient (TAB-style) precision, recall and F1, and lenient recall of high-risk gold spans.
Lenient scores ignore labels, so every Presidio result counts as a prediction whatever its
entity; overlapping results (Presidio's recognizers may overlap) are merged into their
union first. Speed: characters per second over the whole set, the best of ``--repeat``
timed passes after one warm-up call; model loading is not timed. A second table gives
lenient recall per gold label.
"""

from __future__ import annotations

import argparse
import logging
import platform
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_GOLD = REPO.parent / "shared" / "data" / "dev" / "gold.jsonl"


def merged(spans):
    """Sorted spans with overlapping ones joined into their union (label of the first)."""
    from hf_anon.text.data import Span

    out: list = []
    for span in sorted(spans, key=lambda s: (s.start, -s.end)):
        if out and span.start < out[-1].end:
            last = out[-1]
            out[-1] = Span(last.start, max(last.end, span.end), last.label, last.risk)
        else:
            out.append(span)
    return out


def presidio_spans(results):
    from hf_anon.text.data import Span

    return merged(Span(r.start, r.end, r.entity_type, None, r.score) for r in results)


def timed(systems: dict, texts: list[str], repeat: int) -> tuple[dict, dict[str, float]]:
    """Each system's spans for ``texts`` and its best wall time (seconds) of ``repeat``
    passes, after a warm-up call on the first text. Rounds interleave the systems (a, b,
    c, a, b, c, ...) so that a slow spell of a shared machine hits all of them alike."""
    for run in systems.values():
        run(texts[:1])
    best = dict.fromkeys(systems, float("inf"))
    found: dict = {}
    for _ in range(max(1, repeat)):
        for name, run in systems.items():
            started = time.perf_counter()
            found[name] = run(texts)
            best[name] = min(best[name], time.perf_counter() - started)
    return found, best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gold", default=str(DEFAULT_GOLD), help="gold JSON Lines file")
    parser.add_argument("--model", help="hf-anon model folder or hub id (default: bundled)")
    parser.add_argument("--device", help="cpu or cuda (default: the model's)")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes, the best counts")
    args = parser.parse_args()

    gold_path = Path(args.gold)
    if not gold_path.is_file():
        print(
            f"peers.py: the gold file {gold_path} is missing. The default is the dev set "
            "in the project's shared folder beside the checkout "
            "(../shared/data/dev/gold.jsonl); pass another gold file with --gold.",
            file=sys.stderr,
        )
        return 2
    try:
        from hf_anon.distribution.presidio import (
            BlankSpacyNlpEngine,
            analyzer_engine,
            predefined_recognizers,
        )
    except ImportError as err:
        print(f"peers.py: {err}", file=sys.stderr)
        return 2
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry

    from hf_anon import Anonymizer, load_jsonl
    from hf_anon.model.metrics import SpanScorer, covered

    # Presidio logs each unmapped entity; tldextract (e-mail validation) logs that it cannot
    # fetch the public suffix list offline and falls back to its bundled copy.
    logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
    logging.getLogger("tldextract").setLevel(logging.CRITICAL)

    gold = load_jsonl(gold_path)
    texts = [doc.text for doc in gold]
    chars = sum(len(t) for t in texts)

    nlp = BlankSpacyNlpEngine(["de"])
    nlp.load()
    registry = RecognizerRegistry(supported_languages=["de"])
    for recognizer in predefined_recognizers("de"):
        registry.add_recognizer(recognizer)
    presidio = AnalyzerEngine(registry=registry, nlp_engine=nlp, supported_languages=["de"])

    anonymizer = Anonymizer.from_pretrained(
        args.model, device=args.device, batch_size=args.batch_size
    )
    in_presidio = analyzer_engine(anonymizer, nlp_engine=nlp)
    combined = analyzer_engine(anonymizer, nlp_engine=nlp, predefined=True)

    def with_engine(engine):
        return lambda batch: [presidio_spans(engine.analyze(text, language="de")) for text in batch]

    systems = {
        "Presidio, German recognizers": with_engine(presidio),
        "hf-anon": lambda batch: anonymizer.detect(batch),
        "hf-anon in Presidio": with_engine(in_presidio),
        "hf-anon + Presidio": with_engine(combined),
    }
    found_by_system, seconds_by_system = timed(systems, texts, args.repeat)
    rows, recall_by_label = [], {}
    for name in systems:
        found, seconds = found_by_system[name], seconds_by_system[name]
        scorer = SpanScorer(anonymizer.label_set)
        per_label, support = Counter(), Counter()
        for doc, spans in zip(gold, found, strict=True):
            spans = sorted(spans, key=lambda s: s.start)
            scorer.add(doc.text, doc.spans, spans)
            for g, ok in zip(doc.spans, covered(doc.spans, spans, doc.text), strict=True):
                support[g.label] += 1
                per_label[g.label] += ok
        scores = scorer.result()
        rows.append((name, scores, seconds))
        recall_by_label[name] = {label: per_label[label] / support[label] for label in support}

    print(
        f"dev set {gold_path.name}: {len(gold)} decisions, {chars:,} characters, "
        f"{sum(len(d.spans) for d in gold)} gold spans "
        f"({scores.support_by_risk.get('high', 0)} high-risk); model "
        f"{args.model or 'bundled default'}; {platform.machine()}, device "
        f"{getattr(anonymizer.detector, 'device', 'n/a')}\n"
    )
    print(
        "| system | predicted spans | lenient precision | lenient recall | lenient F1 "
        "| high-risk recall | chars/s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, scores, seconds in rows:
        lenient = scores.lenient
        print(
            f"| {name} | {scores.counts['pred']} | {lenient.precision:.3f} "
            f"| {lenient.recall:.3f} | {lenient.f1:.3f} "
            f"| {scores.recall_by_risk.get('high', 1.0):.3f} | {chars / seconds:,.0f} |"
        )
    names = list(systems)
    support = Counter(s.label for doc in gold for s in doc.spans)
    print("\nlenient recall per gold label\n")
    print("| label | gold spans | " + " | ".join(names) + " |")
    print("|---|---:|" + "---:|" * len(names))
    for label in anonymizer.label_set.names:
        if support[label]:
            cells = " | ".join(f"{recall_by_label[n][label]:.2f}" for n in names)
            print(f"| {label} | {support[label]} | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
