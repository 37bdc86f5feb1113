"""Fit the learned citation filter of a German model on decisions it never trained on.

    python datasets_scripts/train_cited_filter.py --model models/hf-anon-de-e5-small \
        [--rounds annotation-train4 … annotation-train9] [--leave-out-folds 1] \
        [--threshold 0.97] [--out FOLDER]
    python datasets_scripts/train_cited_filter.py --model FOLDER --gold DECISIONS.jsonl --rounds

The examples are the model's own dates, courts and dockets on exhaustively annotated real
decisions (``data/real/train.jsonl``, the rows of the ``--rounds`` selections), decoded as its
config says with the filter off: a span that touches no gold span is *cited* (the guidelines
mark only this case's courts, dates and dockets), one that does is not. The rounds must be
decisions the model did not train on, or its spans there are too good to teach where it errs:
the bundled model trained on rounds 1 to 3 and, since session 59, on fold 1 of rounds 4 to 9
(the folds by court of ``hf_anon.corpora.courts.folds_by_court``, five of them), so
``--leave-out-folds`` drops fold 1 by default and the filter learns from the other 192
decisions of 49 courts. ``--rounds`` with no round name reads every decision of ``--gold`` (a
file of decisions the model never trained on). The filter (``cited_filter.json``,
``cited_filter.safetensors``) is saved into ``--out`` (default: the model folder), where
``SpanDetector.from_pretrained`` finds it. ``benchmarks/cited_filter_cv.py`` measures it by
court before anything ships.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = [f"annotation-train{i}" for i in range(4, 10)]


def training_decisions(rounds: list[str], gold: Path, leave_out: tuple[int, ...] = ()):
    """The annotated decisions of ``rounds`` (their ``selection.jsonl``; all of ``gold``
    where no round is named) in ``gold``, without the folds by court ``leave_out`` names
    (counted from 1, :func:`hf_anon.corpora.courts.without_folds`)."""
    from hf_anon.corpora.courts import without_folds
    from hf_anon.text.data import load_jsonl
    from hf_anon.text.readers import read_ids

    if not rounds:
        docs = load_jsonl(gold)
        if not docs:
            raise SystemExit(f"no decision in {gold}")
        return docs
    selections = [ROOT / "data" / "real" / r / "selection.jsonl" for r in rounds]
    missing = [str(p) for p in selections if not p.is_file()]
    if missing:
        raise SystemExit(f"no selection file: {', '.join(missing)}")
    ids = read_ids(selections)
    docs = [d for d in load_jsonl(gold) if d.id in ids]
    docs = without_folds(docs, leave_out)[0]
    if not docs:
        raise SystemExit(f"no decision of {', '.join(rounds)} in {gold}")
    return docs


def trained_on(count: int, rounds: list[str], leave_out: tuple[int, ...], gold: Path) -> str:
    """What the filter was fitted on, for its config and the model card."""
    if not rounds:
        return f"{count} decisions of {gold}"
    without = f", without fold{'s' * (len(leave_out) > 1)} " if leave_out else ""
    folds = ", ".join(map(str, leave_out))
    return f"{count} decisions of data/real ({', '.join(rounds)}{without}{folds})"


def main(argv: list[str] | None = None) -> int:
    from hf_anon.corpora.courts import ROUND_FOLDS, TRAINED_BY_BUNDLED

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ROOT / "models" / "hf-anon-de-e5-small"))
    parser.add_argument(
        "--rounds", nargs="*", default=ROUNDS, help="none: every decision of --gold"
    )
    parser.add_argument(
        "--leave-out-folds",
        nargs="*",
        type=int,
        default=TRAINED_BY_BUNDLED,
        metavar="K",
        help="folds by court (of 5, counted from 1) of the rounds to leave out: those the "
        "model trained on (default: 1, as the bundled model); none: all",
    )
    parser.add_argument("--gold", type=Path, default=ROOT / "data" / "real" / "train.jsonl")
    parser.add_argument("--threshold", type=float, default=0.97, help="least P(cited) to drop")
    parser.add_argument("--out", type=Path, help="where to save it (default: the model folder)")
    args = parser.parse_args(argv)
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.recognizers.cited_filter import CitedFilter, CitedFilterConfig

    out = args.out or Path(args.model)
    if not out.is_dir():
        parser.error(f"{out} is not a folder (give --out for a model from the hub)")
    if any(not 1 <= k <= ROUND_FOLDS for k in args.leave_out_folds):
        parser.error(f"--leave-out-folds counts folds from 1 to {ROUND_FOLDS}")
    leave_out = tuple(args.leave_out_folds)
    docs = training_decisions(args.rounds, args.gold, leave_out)
    started = time.time()
    detector = SpanDetector.from_pretrained(args.model, cited_filter=False)
    if detector.language != "de":
        parser.error(f"the filter reads German; {args.model} is a {detector.language} model")
    predicted = detector.decode_all(detector.predict_probabilities(docs, progress=True))
    config = CitedFilterConfig(
        threshold=args.threshold,
        trained_on=trained_on(len(docs), args.rounds, leave_out, args.gold),
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
