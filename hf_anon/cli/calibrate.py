"""``hf-anon calibrate``: per-label thresholds chosen on a validation set and stored in
the model's config."""

from __future__ import annotations

import argparse
from pathlib import Path

from hf_anon.cli.arguments import (
    add_progress_argument,
    add_recognizer_arguments,
    recognizer_choice,
)
from hf_anon.text.readers import InputError


def cmd_calibrate(args: argparse.Namespace) -> int:
    if args.adapter and len(args.model) > 1:
        raise InputError("--adapter calibrates one model: give a single --model")
    if args.high_risk_slack_se < 0:
        raise InputError(f"--high-risk-slack-se must be 0 or more, not {args.high_risk_slack_se}")
    if args.incumbent is not None and args.incumbent not in args.model:
        raise InputError(f"--incumbent {args.incumbent} must be one of the --model folders")
    if args.gate and args.incumbent is None:
        raise InputError("--gate compares a candidate with the model in use: give --incumbent")
    if args.choose_on and args.incumbent is None:
        raise InputError("--choose-on pairs each candidate with the model in use: give --incumbent")
    if args.choose_on and args.gate:
        raise InputError("--choose-on guards recall on its own decisions: give it or --gate")
    results = {model: _calibrate_one(args, model) for model in args.model}
    if len(results) > 1:
        choose = _choose_on if args.choose_on else _choose_through_gate
        chosen = choose(args, results)
        print("\ncandidates (calibrated scores):")
        for model, result in results.items():
            mark = "*" if model == chosen else " "
            print(f" {mark} {model}: {_scores_line(result.after, result.beta)}")
        print(f"chosen: {chosen}")
    return 0


def _choose_through_gate(args: argparse.Namespace, results: dict) -> str:
    """The rule's choice; with ``--gate``, a choice that loses recall or high-risk recall
    against the incumbent there (a paired interval wholly below zero) is vetoed and the rule
    asked again, until the incumbent itself is what is left."""
    from hf_anon.model.calibration import choose

    vetoed: set[str] = set()
    gate = None  # the incumbent read on the gate once, at the first choice to check
    while True:
        chosen = choose(
            results,
            target_high=args.target_high,
            slack_se=args.high_risk_slack_se,
            incumbent=args.incumbent,
            vetoed=vetoed,
        )
        if not args.gate or chosen == args.incumbent:
            return chosen
        gate = gate or _gate(args)
        result = gate.check(_detector(chosen))
        verdict = "passes" if result.passed else "refused"
        print(f"gate ({result.documents} documents): {chosen} {result.describe()}: {verdict}")
        if result.passed:
            return chosen
        vetoed.add(chosen)


def _choose_on(args: argparse.Namespace, results: dict) -> str:
    """The paired choice: every candidate that keeps the incumbent's high-risk recall on the
    calibration gold (less ``--high-risk-slack-se`` of its standard errors) is read on the
    ``--choose-on`` decisions beside the incumbent; the one whose F-beta there is higher with
    its paired interval wholly above zero, and that loses neither recall nor high-risk
    recall, replaces it (the highest F-beta of several); with none, the incumbent stays.
    Forty calibration decisions could not tell candidates apart; a few hundred of other
    courts can, and a tie keeps the model in use."""
    from hf_anon.model.calibration import keeping_high_risk
    from hf_anon.model.gate import best_winner

    held = keeping_high_risk(
        results, args.incumbent, target_high=args.target_high, slack_se=args.high_risk_slack_se
    )
    for model in results:
        if model != args.incumbent and model not in held:
            print(f"{model}: high-risk recall on the calibration gold below the incumbent's floor")
    if not held:
        return args.incumbent
    gate = _gate(args, args.choose_on)
    checked = {}
    for model in held:
        checked[model] = result = gate.check(_detector(model))
        verdict = "wins" if result.wins else ("ties" if result.passed else "loses")
        print(f"choice ({result.documents} documents): {model} {result.describe()}: {verdict}")
    return best_winner(checked) or args.incumbent


def _gate(args: argparse.Namespace, paths=None):
    from hf_anon.model.gate import Gate
    from hf_anon.model.training import load_documents

    incumbent = _detector(args.incumbent)
    try:
        docs = load_documents(list(paths or args.gate), incumbent.labels, split="test")
        return Gate(incumbent, docs, beta=args.beta)
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None


def _detector(model: str):
    from hf_anon.model.detection import SpanDetector

    try:
        return SpanDetector.from_pretrained(model)
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None


def _scores_line(scores: dict[str, float], beta: float) -> str:
    return (
        f"lenient P/R/F1 {scores['precision']:.3f}/{scores['recall']:.3f}/"
        f"{scores['f1']:.3f}, F{beta:g} {scores['f_beta']:.3f}, "
        f"recall high {scores['recall_high']:.3f}, strict F1 {scores['strict_f1']:.3f}"
    )


def _calibrate_one(args: argparse.Namespace, model: str):
    """Calibrate one model on the gold sets, print its result, write it with --write."""
    from hf_anon.model.calibration import (
        calibrate,
        high_risk_purchases,
        read_calibration,
        write_calibration,
    )
    from hf_anon.model.detection import SpanDetector
    from hf_anon.model.recognizers import DEFAULT_RECOGNIZERS_BY_LANGUAGE
    from hf_anon.model.training import load_documents

    source = " + ".join(args.gold)
    if args.reuse:
        stored = read_calibration(
            args.adapter or model,
            gold=source,
            beta=args.beta,
            target_high=args.target_high,
            slack_se=args.high_risk_slack_se,
        )
        if stored is not None:
            if len(args.model) > 1:
                print(f"== {model}")
            print(f"stored calibration reused ({stored.documents} documents on {source})")
            print(f"{'calibrated':>10}: {_scores_line(stored.after, stored.beta)}")
            return stored
    choice = recognizer_choice(args)
    try:
        detector = SpanDetector.from_pretrained(
            model, adapter=args.adapter, recognizers=() if choice == "config" else choice
        )
        if choice == "config":  # the default rules of the model's language
            detector.recognizers = DEFAULT_RECOGNIZERS_BY_LANGUAGE[detector.language]
        docs = load_documents(list(args.gold), detector.labels, split="validation")
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None
    if not docs:
        raise InputError(f"{source}: no documents")
    result = calibrate(
        detector,
        docs,
        beta=args.beta,
        target_high=args.target_high,
        batch_size=args.batch_size,
        progress=args.progress,
        high_risk_slack_se=args.high_risk_slack_se,
    )
    if len(args.model) > 1:
        print(f"== {model}")
    print(f"{result.documents} documents; recognizers: {', '.join(result.recognizers) or 'none'}")
    for name, scores in (("argmax", result.before), ("calibrated", result.after)):
        print(f"{name:>10}: {_scores_line(scores, result.beta)}")
    if result.high_risk_floor is not None:
        print(
            f"high-risk recall floor {result.high_risk_floor:.4f} "
            f"({result.high_risk_slack_se:g} standard errors below the best reached)"
        )
    print("thresholds: " + ", ".join(f"{k} {v:g}" for k, v in result.thresholds.items()))
    for purchase in high_risk_purchases(result):
        print(f"bought for high-risk recall: {purchase.describe()}")
    if args.write and args.adapter:
        out = write_calibration(args.adapter, result, source)
        print(f"written to {out} (the adapter's thresholds; the base model is unchanged)")
    elif args.write:
        out = write_calibration(model, result, source)
        print(f"written to {Path(model) / 'config.json'} and {out}")
    return result


def add_calibrate_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon calibrate``."""
    parser = commands.add_parser(
        "calibrate",
        help="choose per-label thresholds on a validation gold set; store them in the model",
        description=(
            "Run the model once on the gold documents, choose a threshold per label that "
            "maximises lenient F-beta (high-risk recall kept at its target where reachable), "
            "print the scores before and after, and with --write store thresholds and "
            "recognizers in the model's config.json (every entry point then uses them). "
            "Use a validation split: never the set you report on."
        ),
    )
    parser.add_argument(
        "--model",
        required=True,
        nargs="+",
        help="hf-anon model folder; several (checkpoints of a run): each is calibrated (and "
        "with --write stored), then the one the rule prefers is named",
    )
    parser.add_argument(
        "--gold",
        required=True,
        nargs="+",
        help="gold JSON Lines or corpus folders (DIR:split), one or more: a small validation "
        "split where every candidate reaches the high-risk target cannot tell recall apart, "
        "and more gold that no candidate trained on can",
    )
    parser.add_argument("--beta", type=float, default=2.0, help="F-beta weight of recall")
    parser.add_argument("--target-high", type=float, default=0.99, help="high-risk recall to keep")
    parser.add_argument(
        "--high-risk-slack-se",
        type=float,
        default=0.0,
        help="count high-risk recall within this many standard errors of the best reached "
        "as reached, and spend the difference on F-beta (1: the one-standard-error rule; "
        "0: every high-risk span first, whatever it costs in precision)",
    )
    parser.add_argument(
        "--adapter",
        default=None,
        help="a LoRA adapter folder of the model: calibrate the model with it, and with "
        "--write store the thresholds in the adapter (the base model stays as it is)",
    )
    parser.add_argument("--write", action="store_true", help="store the result in the model")
    parser.add_argument(
        "--incumbent",
        default=None,
        help="the model in use, one of the --model folders: no candidate replaces it with less "
        "high-risk recall on the gold sets than it has, whatever the slack",
    )
    parser.add_argument(
        "--gate",
        nargs="+",
        default=None,
        help="gold of courts that neither trained nor chose any candidate: the choice must "
        "not lose recall nor high-risk recall there against --incumbent (paired interval "
        "wholly below zero); if it does, the rule's next choice is tried",
    )
    parser.add_argument(
        "--choose-on",
        nargs="+",
        default=None,
        help="gold of courts that neither trained nor calibrated any candidate (a hundred "
        "decisions or more): choose there instead of on --gold. A candidate that keeps "
        "--incumbent's high-risk recall on --gold (less --high-risk-slack-se of its standard "
        "errors) replaces it only with a higher F-beta on these decisions, paired interval "
        "wholly above zero, and no recall or high-risk recall lost; a tie keeps the incumbent",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="read a candidate's stored calibration.json instead of calibrating it again "
        "where it was made on the same --gold by the same rule (candidates calibrated with "
        "--write in parallel processes, then chosen among in one call)",
    )
    parser.add_argument("--batch-size", type=int, default=16, help="windows per batch")
    add_recognizer_arguments(parser)
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_calibrate)
    return parser
