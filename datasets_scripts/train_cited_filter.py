"""Fit the learned citation filter of a German model on decisions it never trained on.

    python datasets_scripts/train_cited_filter.py --model models/hf-anon-de-e5-small \
        [--rounds annotation-train4 … annotation-train9] [--threshold 0.97] [--out FOLDER]

The examples are the model's own dates, courts and dockets on exhaustively annotated real
decisions (``data/real/train.jsonl``, the rows of the ``--rounds`` selections), decoded as
its config says with the filter off: a span that touches no gold span is *cited* (the
guidelines mark only this case's courts, dates and dockets), one that does is not. The
rounds must be decisions the model did not train on, or its spans there are too good to
teach where it errs (the bundled model trained on rounds 1 to 3; 4 to 9 are 341 decisions
of 96 courts). The filter (``cited_filter.json``, ``cited_filter.safetensors``) is saved
into ``--out`` (default: the model folder), where ``SpanDetector.from_pretrained`` finds it.
``benchmarks/cited_filter_cv.py`` measures it by court before anything ships.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = [f"annotation-train{i}" for i in range(4, 10)]


def training_decisions(rounds: list[str], gold: Path):
    """The annotated decisions of ``rounds`` (their ``selection.jsonl``) in ``gold``."""
    from hf_anon.text.data import load_jsonl
    from hf_anon.text.readers import read_ids

    selections = [ROOT / "data" / "real" / r / "selection.jsonl" for r in rounds]
    missing = [str(p) for p in selections if not p.is_file()]
    if missing:
        raise SystemExit(f"no selection file: {', '.join(missing)}")
    ids = read_ids(selections)
    docs = [d for d in load_jsonl(gold) if d.id in ids]
    if not docs:
        raise SystemExit(f"no decision of {', '.join(rounds)} in {gold}")
    return docs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument("--rounds", nargs="+", default=ROUNDS)
    parser.add_argument("--gold", type=Path, default=ROOT / "data" / "real" / "train.jsonl")
    parser.add_argument("--threshold", type=float, default=0.97, help="least P(cited) to drop")
    parser.add_argument("--out", type=Path, help="where to save it (default: the model folder)")
    args = parser.parse_args(argv)
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.recognizers.cited_filter import CitedFilter, CitedFilterConfig

    out = args.out or Path(args.model)
    if not out.is_dir():
        parser.error(f"{out} is not a folder (give --out for a model from the hub)")
    docs = training_decisions(args.rounds, args.gold)
    started = time.time()
    detector = SpanDetector.from_pretrained(args.model, cited_filter=False)
    if detector.language != "de":
        parser.error(f"the filter reads German; {args.model} is a {detector.language} model")
    predicted = detector.decode_all(detector.predict_probabilities(docs, progress=True))
    config = CitedFilterConfig(
        threshold=args.threshold,
        trained_on=f"{len(docs)} decisions of data/real ({', '.join(args.rounds)})",
    )
    fitted = CitedFilter.fit([d.text for d in docs], predicted, [d.spans for d in docs], config)
    fitted.save_pretrained(out)
    examples = fitted.config.examples
    print(
        f"{examples['spans']} spans ({examples['cited']} touch no gold span) of {len(docs)} "
        f"decisions; filter saved to {out} in {time.time() - started:.0f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
