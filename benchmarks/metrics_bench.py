"""Time to score 10,000 documents with 50 gold spans each (all metrics).

    python benchmarks/metrics_bench.py [--documents N] [--spans N] [--seed S]

Documents are synthetic (~2,000 characters); predictions mix exact matches, shifted
boundaries, wrong labels, misses and false positives, so that every branch of the
metrics runs. Target: well under 10 s on a 2-core CPU.
"""

from __future__ import annotations

import argparse
import random
import time

from hf_anon.model.metrics import score_documents
from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS

WORDS = ["der", "Kläger", "Hans", "Müller", "wohnt", "Bahnhofstraße", "12", "in", "München"]


def make_document(rng: random.Random, index: int, n_spans: int) -> tuple[Document, Document]:
    words = [rng.choice(WORDS) for _ in range(n_spans * 4)]
    starts, pos = [], 0
    for w in words:
        starts.append(pos)
        pos += len(w) + 1
    text = " ".join(words)
    gold, pred = [], []
    for k in range(n_spans):
        first = 4 * k + 1
        length = rng.randint(1, 2)
        start, end = starts[first], starts[first + length - 1] + len(words[first + length - 1])
        label = rng.choice(DEFAULT_LABELS.names)
        gold.append(Span(start, end, label, DEFAULT_LABELS[label].risk))
        roll = rng.random()
        if roll < 0.6:
            pred.append(Span(start, end, label))
        elif roll < 0.7:
            pred.append(Span(start, end, rng.choice(DEFAULT_LABELS.names)))
        elif roll < 0.8:
            pred.append(Span(starts[first - 1], end, label))  # larger than gold
        elif roll < 0.9:
            pred.append(Span(start, starts[first] + len(words[first]), label))  # smaller
        else:
            pred.append(Span(starts[first + 2], starts[first + 2] + len(words[first + 2]), label))
    doc_id = f"doc-{index}"
    return Document(doc_id, text, gold), Document(doc_id, text, sorted(pred))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--spans", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pairs = [make_document(rng, i, args.spans) for i in range(args.documents)]
    gold, pred = [g for g, _ in pairs], [p for _, p in pairs]
    began = time.perf_counter()
    scores = score_documents(gold, pred)
    elapsed = time.perf_counter() - began
    n_gold, n_pred = scores.counts["gold"], scores.counts["pred"]
    print(f"documents: {args.documents}, gold spans: {n_gold}, predicted spans: {n_pred}")
    print(f"strict F1 {scores.strict.f1:.4f}, lenient F1 {scores.lenient.f1:.4f}")
    print(f"time to score: {elapsed:.2f} s ({n_gold / elapsed:,.0f} gold spans/s)")


if __name__ == "__main__":
    main()
