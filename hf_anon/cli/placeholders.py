"""``hf-anon placeholders``: the placeholders of published decisions and the label each
hides; ``--evaluate`` against a key, ``--audit`` for the masks left outside every one."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import asdict
from pathlib import Path

from hf_anon.cli.arguments import (
    add_language_argument,
    add_progress_argument,
)
from hf_anon.cli.inputs import read_documents, write_jsonl
from hf_anon.corpora.placeholders import (
    DetectorScores,
    placeholder_spans,
    score_placeholders,
)
from hf_anon.text.data import ValidationError
from hf_anon.text.labels import DEFAULT_LABELS
from hf_anon.text.readers import InputError, read_jsonl_texts


def format_detector_scores(scores: DetectorScores) -> str:
    return "\n".join(
        [
            f"key placeholders {scores.key}   predicted {scores.predicted}   "
            f"tp {scores.tp}   fp {scores.fp}   fn {scores.fn}   tn (elements) {scores.tn}",
            f"accuracy     {scores.accuracy:.4f}",
            f"precision    {scores.precision:.4f}",
            f"recall       {scores.recall:.4f}",
            f"specificity  {scores.specificity:.4f}",
            f"f1           {scores.f1:.4f}",
            f"label accuracy on matched placeholders {scores.label_accuracy:.4f} "
            f"({scores.labels_correct}/{scores.tp})",
        ]
    )


def _find(texts: list[str], args: argparse.Namespace):
    """Placeholders by the method and label source the command line chose."""
    if args.method == "rules" and args.labels == "cues":
        return [placeholder_spans(text, args.language) for text in texts]
    from hf_anon.model.model_folder import default_model
    from hf_anon.model.placeholder_tagger import PlaceholderTagger, find_placeholders_with
    from hf_anon.text.languages import resolve_language

    language = resolve_language(args.language, texts)
    try:
        tagger = PlaceholderTagger.from_pretrained(
            args.tagger or default_model(language), require_head=args.method != "rules"
        )
        return find_placeholders_with(
            texts, method=args.method, labels=args.labels, tagger=tagger,
            progress=args.progress, language=language,
        )  # fmt: skip
    except ValueError as err:  # no head, or a tagger of another language
        raise InputError(str(err)) from None


def _evaluate_placeholders(args: argparse.Namespace) -> int:
    from hf_anon.corpora.placeholders.scoring import bootstrap_interval, score_by_group

    key = read_documents(
        args.evaluate, DEFAULT_LABELS, require_risk=False, spans_key="placeholders"
    )
    predicted = _find([doc.text for doc in key], args)
    pairs = [(doc.text, doc.spans, pred) for doc, pred in zip(key, predicted, strict=True)]
    scores = score_placeholders(pairs)
    metrics = ("precision", "recall", "label_accuracy") if len(pairs) > 1 else ()
    intervals = {metric: bootstrap_interval(pairs, metric) for metric in metrics}
    groups = (
        score_by_group(pairs, [str(doc.meta.get(args.by) or "unknown") for doc in key])
        if args.by
        else {}
    )
    if args.json:
        print(json.dumps({
            **asdict(scores),
            "intervals": intervals,
            "groups": {name: asdict(group) for name, group in groups.items()},
        }))  # fmt: skip
    else:
        print(format_detector_scores(scores))
        for metric, (low, high) in intervals.items():
            print(f"95% interval of {metric} over decisions: {low:.4f}-{high:.4f}")
        if groups:
            print(f"\n{'by ' + args.by:<40} key    P      R      labels")
            for name, group in sorted(groups.items()):
                print(
                    f"{name[:40]:<40} {group.key:>4}  {group.precision:.3f}  {group.recall:.3f}  "
                    f"{group.label_accuracy:.3f}"
                )
    if args.output:
        rows = [
            {"id": doc.id, "text": doc.text, "placeholders": [s.to_dict() for s in pred]}
            for doc, pred in zip(key, predicted, strict=True)
        ]
        write_jsonl(args.output, rows)
    return 0


def _audit_placeholders(args: argparse.Namespace) -> int:
    from hf_anon.corpora.placeholders.audit import audit

    excluded: set[str] = set()
    for path in args.exclude or ():
        try:
            excluded |= {row["id"] for row in read_jsonl_texts(path)}
        except (InputError, ValidationError):  # one id a line, not JSON
            excluded |= {
                line.strip() for line in Path(path).read_text().splitlines() if line.strip()
            }
    reports = []
    for corpus in args.audit:
        rows = (row for row in read_jsonl_texts(corpus) if row["id"] not in excluded)
        reports.append(audit(rows, Path(corpus).name, args.group_by, progress=args.progress))
    markdown = "\n".join(report.to_markdown() for report in reports)
    if args.output:
        out = Path(args.output)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(markdown, encoding="utf-8")
        out.with_suffix(".json").write_text(
            json.dumps([r.to_dict() for r in reports], ensure_ascii=False, indent=1) + "\n",
            encoding="utf-8",
        )
    else:
        print(markdown)
    for report in reports:
        print(
            f"{report.corpus}: {report.masks_outside} of {report.masks} unmistakable masks "
            f"outside every placeholder ({report.outside_share:.2%})",
            file=sys.stderr,
        )
    return 0


def cmd_placeholders(args: argparse.Namespace) -> int:
    if args.audit:
        return _audit_placeholders(args)
    if args.evaluate:
        return _evaluate_placeholders(args)
    if not args.input or not args.output:
        raise InputError("--input and --output are required (or --evaluate KEY.jsonl, --audit)")
    rows = read_jsonl_texts(args.input)
    counts: Counter = Counter()
    found = _find([row["text"] for row in rows], args)
    for row, spans in zip(rows, found, strict=True):
        counts.update(s.label for s in spans)
        row["placeholders"] = [s.to_dict() for s in spans]
    write_jsonl(args.output, rows)
    total = sum(counts.values())
    print(
        f"{len(rows)} documents, {total} placeholders: "
        + ", ".join(f"{label} {n}" for label, n in counts.most_common()),
        file=sys.stderr,
    )
    return 0


def add_placeholders_parser(commands) -> argparse.ArgumentParser:
    """Register ``hf-anon placeholders``."""
    parser = commands.add_parser(
        "placeholders",
        help="find anonymization placeholders in published decisions",
        description=(
            "Find the placeholders (A., Xxxxx, …, XXX, ###, ****, X GmbH, A-Straße 1, "
            "xx.xx.2016, a@x.de, …) in published decisions and label the span each one "
            "hides. With --evaluate, score them against a key in the placeholder format: "
            "accuracy, precision, recall, specificity and F1 (a prediction matches a key "
            "placeholder when their characters overlap), label accuracy, intervals over "
            "decisions and, with --by, scores per court. With --audit, count per court the "
            "unmistakable masks (XXX, ###, ****, xx.xx.2016) left outside every placeholder "
            "and the candidates the rules rejected, by shape, with examples."
        ),
    )
    parser.add_argument("--input", help="JSON Lines with id and text")
    parser.add_argument(
        "--output",
        help="JSON Lines: the input plus placeholders [{start, end, label}] (with --audit: "
        "the Markdown report, and its JSON beside it)",
    )
    parser.add_argument("--evaluate", metavar="KEY", help="placeholder key JSON Lines")
    parser.add_argument("--by", metavar="FIELD", help="with --evaluate: scores per value of FIELD")
    parser.add_argument(
        "--audit", nargs="+", metavar="CORPUS", help="JSON Lines corpora (.jsonl or .jsonl.gz)"
    )
    parser.add_argument(
        "--exclude", nargs="+", metavar="FILE",
        help="with --audit: leave out these ids (JSON Lines with id, or one id a line)",
    )  # fmt: skip
    parser.add_argument(
        "--group-by", default="court", help="with --audit: the field to group by (default: court)"
    )
    parser.add_argument(
        "--method", choices=("rules", "tagger", "both"), default="rules",
        help="the rules, the learned tagger, or the rules plus what only the tagger finds "
        "(default: rules; the tagger is the head in the model folder of --tagger, by default "
        "the bundled model of the language)",
    )  # fmt: skip
    parser.add_argument(
        "--labels", choices=("cues", "model"), default="cues",
        help="label placeholders whose cue words are silent (unknown) with the model's "
        "category head (model) or leave them unknown (cues, the default)",
    )  # fmt: skip
    parser.add_argument(
        "--tagger", metavar="MODEL",
        help="model folder or hub id with the placeholder head (default: the bundled model of "
        "the language)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="scores as one JSON object")
    add_language_argument(parser, default="auto")
    add_progress_argument(parser)
    parser.set_defaults(func=cmd_placeholders)
    return parser
