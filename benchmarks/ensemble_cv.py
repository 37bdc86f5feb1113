"""Would two models read together find what one misses? An ensemble measured by the choice rule.

    python benchmarks/ensemble_cv.py --members models/hf-anon-de-e5-small runs/L440 \
        [--members models/hf-anon-de-e5-small runs/W440 ...] [--json out.json] [--markdown out.md]

Issue 31: on the folds of rounds 4-9 the default misses what it scores low, and every lever
of one model (thresholds, loss weights, windows) moved it along one precision/recall curve
(``fold_misses.py``). Averaging the probabilities of two models that were trained differently
is the classic way above such a curve: where one model's score of a span is low by accident
of its training, the other's may not be. Both members share the tokenizer of the default's
line, so each document's per-token probabilities (span tags, labels, risks; averaged over
windows by ``predict_probabilities``) can be averaged token by token, whatever windows each
member reads with, and decoded by the first member's decoding (its recognizers and rules).

Each ensemble is then treated as a candidate model (session 58's rule, as ``hf-anon calibrate
--choose-on`` applies it): thresholds calibrated on the 40 calibration decisions (the
validation split and juris's six, ``--high-risk-slack-se 1``); it is eligible if its high-risk
recall there keeps the first member's less one standard error; it *wins* if its lenient F2 on
folds 2-5 (decisions of courts neither member trained on) is higher than the first member's
with the paired 95 % interval wholly above zero and neither recall nor high-risk recall is
lost. The first member is read with its stored thresholds, as the model in use. Nothing is
shipped from here: a winning ensemble would need an ensemble model folder first.

Each member's probabilities are computed once and kept in ``--cache`` (the same files as
``calibration_cv.py`` and ``fold_misses.py``), keyed by the decisions, not the weights: delete a
member's files there when its folder is trained again.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibration_cv import decode_with, model_outputs
from on_off import write
from rules_cv import fold_pool

ROOT = Path(__file__).resolve().parents[1]
CALIBRATION_GOLD = ("data/real/validation.jsonl", "data/real/juris_train_validation.jsonl")


def averaged(members: Sequence[list]) -> list:
    """Per document, the members' (encoding, tags, labels, risks) averaged head by head;
    the first member's encoding is kept. A clear error where the members tokenized a
    document differently (they must share a tokenizer)."""
    out = []
    for rows in zip(*members, strict=True):
        first = rows[0]
        if any(r[1] is None for r in rows):
            out.append(first)
            continue
        for other in rows[1:]:
            if other[1].shape != first[1].shape:
                raise ValueError(
                    f"document {first[0].doc_id!r}: members read {first[1].shape[0]} and "
                    f"{other[1].shape[0]} tokens: an ensemble needs one tokenizer"
                )
        heads = [np.mean([r[h] for r in rows], axis=0) for h in (1, 2, 3)]
        out.append((first[0], *heads))
    return out


@dataclass
class Decoded:
    """Spans already decoded, read as the gate reads a model (``labels``, ``detect``): the
    gate pairs them by document as it pairs two model folders."""

    labels: object
    spans: list

    def detect(self, texts: Sequence[str]) -> list:
        if len(texts) != len(self.spans):
            raise ValueError(f"{len(self.spans)} decoded documents for {len(texts)} texts")
        return self.spans


def paired_choice(gate, labels, after) -> dict:
    """The candidate's spans (``after``) paired against the incumbent's on the ``gate``'s
    decisions (high-risk recall, recall, F2), and the verdict: wins, not better (the model in
    use stays) or loses (recall lost)."""
    from hf_anon.model.gate import gate_result

    paired = gate.paired(Decoded(labels, after))
    result = gate_result(paired, len(gate.documents))
    verdict = "wins" if result.wins else ("not better" if result.passed else "loses")
    return {"paired": paired, "describe": result.describe(), "verdict": verdict}


def markdown(result: dict) -> str:
    lines = [
        f"{result['decisions']} decisions of folds 2–5; the first member with its stored "
        "thresholds is the model in use.",
        "",
        "| ensemble | on the 40: P / R / high-risk / F2 | eligible | folds 2–5, ensemble − "
        "first member: high-risk recall | recall | F2 | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in result["ensembles"]:
        c = row["calibrated"]
        p = row["choice"]["paired"]

        def cell(key, p=p):
            f = p[key]
            return f"{f['difference']:+.3f} ({f['low']:+.3f}..{f['high']:+.3f})"

        lines.append(
            f"| {' + '.join(row['members'])} | {c['precision']:.3f} / {c['recall']:.3f} / "
            f"{c['recall_high']:.3f} / {c['f_beta']:.3f} | {'yes' if row['eligible'] else 'no'} "
            f"| {cell('recall_high')} | {cell('lenient_recall')} | {cell('lenient_f_beta')} "
            f"| {row['choice']['verdict']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--members",
        nargs="+",
        action="append",
        required=True,
        help="model folders of one ensemble, the model in use first (repeat for another)",
    )
    parser.add_argument("--cache", type=Path, default=ROOT / "runs" / "calibration_cv")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args(argv)
    for members in args.members:
        if len(members) < 2:
            parser.error(f"an ensemble needs two members or more, got {members}")
        if members[0] != args.members[0][0]:
            parser.error("every ensemble must start with the same model in use")
    from hf_anon.model.calibration import calibrate, high_risk_floor, read_calibration
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.gate import Gate
    from hf_anon.text.data import load_jsonl

    calibration_docs = [d for path in CALIBRATION_GOLD for d in load_jsonl(ROOT / path)]
    docs, _ = fold_pool()
    detectors, outputs = {}, {}
    for folder in dict.fromkeys(m for members in args.members for m in members):
        detectors[folder] = detector = SpanDetector.from_pretrained(folder)
        stem = Path(folder).name
        outputs[folder] = (
            model_outputs(detector, calibration_docs, args.cache / f"{stem}.calibration.pkl"),
            model_outputs(detector, docs, args.cache / f"{stem}.rounds.pkl"),
        )
    incumbent_name = args.members[0][0]
    incumbent = detectors[incumbent_name]
    stored = read_calibration(
        incumbent_name, gold=" + ".join(CALIBRATION_GOLD), beta=2.0, target_high=0.99, slack_se=1.0
    )
    if stored is None:
        raise SystemExit(
            f"{incumbent_name} holds no calibration on {' + '.join(CALIBRATION_GOLD)} by the "
            "rule (beta 2, target 0.99, slack 1): calibrate it first"
        )
    floor = high_risk_floor(stored.after, stored.target_high, 1.0)
    before = decode_with(incumbent, outputs[incumbent_name][1], incumbent.label_thresholds)
    gate = Gate(Decoded(incumbent.labels, before), docs)  # the model in use, scored once
    rows = []
    for members in args.members:
        on_40 = averaged([outputs[m][0] for m in members])
        on_folds = averaged([outputs[m][1] for m in members])
        calibration = calibrate(
            incumbent, calibration_docs, probabilities=on_40, high_risk_slack_se=1.0
        )
        after = decode_with(incumbent, on_folds, calibration.thresholds)
        choice = paired_choice(gate, incumbent.labels, after)
        eligible = calibration.after["recall_high"] >= floor
        if not eligible:
            choice["verdict"] = "not eligible"
        print(f"{' + '.join(members)}: {choice['describe']}: {choice['verdict']}", flush=True)
        rows.append(
            {
                "members": list(members),
                "thresholds": calibration.thresholds,
                "calibrated": calibration.after,
                "eligible": eligible,
                "choice": choice,
            }
        )
    result = {
        "decisions": len(docs),
        "incumbent": incumbent_name,
        "incumbent_on_40": stored.after,
        "high_risk_floor_on_40": floor,
        "ensembles": rows,
    }
    write(result, markdown(result), args.json, args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
