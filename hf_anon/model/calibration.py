"""Per-label thresholds calibrated on a gold validation set and stored in the model's config.

One threshold for all labels trades recall of names against precision of dates; a
threshold per label (on a span's score, the mean of 1 - P(O) over its tokens) lets each
label sit where its own precision/recall trade-off is best. The thresholds are chosen on a
*validation* set (for hf-anon: the real gold validation split, never ``dev`` nor a test
split) by coordinate ascent: label by label (most frequent first), the threshold of a grid
that maximises the lenient F-beta (beta 2: recall counts four times as much as precision),
provided high-risk recall stays at its target where any threshold reaches it. With a
slack (``high_risk_slack_se``), high-risk recall within that many standard errors of the best
reached counts as reached: a difference inside sampling noise no longer buys a single span
with whole points of precision (the one-standard-error rule of model selection). They are
written into ``config.json`` with the recognizers used, so that ``detect``, ``report``,
``anonymize``, the demo and the API all decode the same way.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from hf_anon.model.metrics import SpanScorer, f_beta
from hf_anon.text.data import Document

GRID = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


@dataclass
class Calibration:
    """The chosen thresholds and the scores before (argmax decoding) and after."""

    thresholds: dict[str, float]
    recognizers: list[str]
    before: dict[str, float]
    after: dict[str, float]
    beta: float
    target_high: float
    documents: int
    history: list[dict] = field(default_factory=list)
    high_risk_slack_se: float = 0.0
    high_risk_floor: float | None = None


def summary(scores, beta: float = 2.0) -> dict[str, float]:
    """The figures the calibration's rule compares (lenient P/R/F1, F-beta, high-risk
    recall, strict F1) of one :class:`~hf_anon.model.metrics.SpanScores`."""
    p, r = scores.lenient.precision, scores.lenient.recall
    return {
        "precision": p,
        "recall": r,
        "f1": scores.lenient.f1,
        "f_beta": f_beta(p, r, beta),
        "recall_high": scores.recall_by_risk.get("high", 1.0),
        "strict_f1": scores.strict.f1,
        "high_spans": scores.support_by_risk.get("high", 0),
    }


def standard_error(recall: float, spans: int) -> float:
    """The binomial standard error of a recall measured on ``spans`` gold spans: the size
    of a difference that one sample of that many spans cannot tell from noise."""
    if spans <= 0:
        return 0.0
    return math.sqrt(max(recall * (1 - recall), 0.0) / spans)


def high_risk_floor(summary: dict[str, float], target_high: float, slack_se: float) -> float:
    """The high-risk recall a slack of ``slack_se`` standard errors accepts below the best
    reached (``summary``; the target where that is reached)."""
    reached = min(summary["recall_high"], target_high)
    return reached - slack_se * standard_error(reached, int(summary["high_spans"]))


def _evaluate(detector, documents, probabilities, thresholds, beta) -> dict[str, float]:
    detector.label_thresholds = dict(thresholds)
    found = detector.decode_all(probabilities)
    scorer = SpanScorer(detector.labels)
    for doc, spans in zip(documents, found, strict=True):
        scorer.add(doc.text, doc.spans, spans)
    return summary(scorer.result(), beta)


def calibrate(
    detector,
    documents: Sequence[Document],
    *,
    beta: float = 2.0,
    target_high: float = 0.99,
    grid: Sequence[float] = GRID,
    rounds: int = 2,
    batch_size: int = 16,
    progress: bool = False,
    start: float = 0.3,
    high_risk_cap: float = 0.3,
    probabilities=None,
    high_risk_slack_se: float = 0.0,
) -> Calibration:
    """Thresholds per label for ``detector`` on gold ``documents`` (one model pass).

    Every label starts at ``start``, or at the thresholds already stored in the model where
    those score better (a recalibration after a change of the decoding rules never ends below
    what the model had: coordinate ascent finds a local optimum). Labels whose usual risk is
    ``high`` (names, addresses,
    plates, identifiers) never go above ``high_risk_cap``: a validation set holds few of
    their spans, and a threshold raised to win a little precision there costs recall of
    direct identifiers on other decisions (measured: on the real test split, uncapped
    thresholds chosen on validation lost 7 points of high-risk recall).
    ``probabilities``: the model's output on ``documents`` where the caller has it already
    (:meth:`~hf_anon.model.detection.SpanDetector.predict_probabilities`, same order), so
    that calibrations on many subsets of one corpus cost one model pass.
    """
    from tqdm.auto import tqdm

    if probabilities is None:
        probabilities = detector.predict_probabilities(
            documents, batch_size=batch_size, progress=progress
        )
    elif len(probabilities) != len(documents):
        raise ValueError(f"{len(probabilities)} model outputs for {len(documents)} documents")
    saved = detector.label_thresholds
    before = _evaluate(detector, documents, probabilities, {}, beta)  # the most likely tag

    def key(summary: dict[str, float]) -> tuple[float, float]:
        return (min(summary["recall_high"], target_high), summary["f_beta"])

    support = Counter(s.label for doc in documents for s in doc.spans)
    order = sorted(detector.labels.names, key=lambda name: -support[name])
    thresholds = {name: start for name in detector.labels.names}
    high = {label.name for label in detector.labels if label.risk == "high"}
    best = _evaluate(detector, documents, probabilities, thresholds, beta)
    if saved:  # the stored thresholds are a second start: never end below them
        stored = {name: saved.get(name, start) for name in detector.labels.names}
        summary = _evaluate(detector, documents, probabilities, stored, beta)
        if key(summary) > key(best):
            thresholds, best = stored, summary
    if high_risk_slack_se < 0:
        raise ValueError(f"high_risk_slack_se must be 0 or more, not {high_risk_slack_se}")
    searches = 2 if high_risk_slack_se else 1
    history: list[dict] = [{"label": "(start)", "threshold": None, **best}]
    bar = tqdm(
        total=searches * rounds * len(order) * len(grid), desc="calibrate", disable=not progress
    )

    def ascend(thresholds, best, key):
        for _ in range(rounds):
            for name in order:
                for value in grid:
                    bar.update(1)
                    if name in high and value > high_risk_cap:
                        continue
                    trial = {**thresholds, name: value}
                    summary = _evaluate(detector, documents, probabilities, trial, beta)
                    if key(summary) > key(best):
                        thresholds, best = trial, summary
                        history.append({"label": name, "threshold": value, **summary})
        return thresholds, best

    thresholds, best = ascend(thresholds, best, key)
    floor = None
    if high_risk_slack_se:
        floor = high_risk_floor(best, target_high, high_risk_slack_se)

        def within(summary: dict[str, float]) -> tuple[bool, float]:
            return (summary["recall_high"] >= floor, summary["f_beta"])

        history.append({"label": "(slack)", "threshold": None, "floor": floor, **best})
        thresholds, best = ascend(thresholds, best, within)
    bar.close()
    detector.label_thresholds = saved
    return Calibration(
        thresholds=thresholds,
        recognizers=list(detector.recognizers),
        before=before,
        after=best,
        beta=beta,
        target_high=target_high,
        documents=len(documents),
        history=history,
        high_risk_slack_se=high_risk_slack_se,
        high_risk_floor=floor,
    )


@dataclass
class Purchase:
    """A threshold move the rule took for high-risk recall, and what it cost: the rule puts
    high-risk recall before F-beta, so one name of a few hundred can be bought with whole
    points of precision. Where that happened, whoever reads the model's precision should
    know why (session 50: two names of 378 bought with 0.15 of precision on the
    calibration gold, and with 0.10 on unseen courts, where they were real)."""

    label: str
    threshold: float
    high_spans: int  # high-risk gold spans gained
    of_high_spans: int
    precision: float  # change
    f_beta: float  # change

    def describe(self) -> str:
        return (
            f"{self.label} {self.threshold:g}: {self.high_spans:+d} of {self.of_high_spans} "
            f"high-risk spans for precision {self.precision:+.3f} (F-beta {self.f_beta:+.3f})"
        )


def high_risk_purchases(calibration: Calibration) -> list[Purchase]:
    """The moves of ``calibration``'s search that raised high-risk recall, each against the
    state before it, less those a later move of the same label gave back (a search with a
    slack may return a threshold once the recall it bought counts as noise). Read from its
    ``history``; of a record whose history does not begin with its start, the first move
    is skipped."""
    moves = list(pairwise(calibration.history))  # (the state before, the move)
    out = []
    for i, (before, step) in enumerate(moves):
        if step["label"] in ("(start)", "(slack)") or (i == 0 and before["label"] != "(start)"):
            continue
        spans = int(step.get("high_spans", 0))
        gained = round((step["recall_high"] - before["recall_high"]) * spans)
        given_back = any(
            later["label"] == step["label"] and later["recall_high"] < previous["recall_high"]
            for previous, later in moves[i + 1 :]
        )
        if gained > 0 and not given_back:
            out.append(
                Purchase(
                    label=step["label"],
                    threshold=step["threshold"],
                    high_spans=gained,
                    of_high_spans=spans,
                    precision=step["precision"] - before["precision"],
                    f_beta=step["f_beta"] - before["f_beta"],
                )
            )
    return out


def write_calibration(model_dir: str | Path, calibration: Calibration, source: str) -> Path:
    """Store thresholds and recognizers in ``config.json`` (the rest of the file untouched)
    and the full result beside it in ``calibration.json``. A LoRA adapter's folder has no
    config of its own: there ``calibration.json`` alone holds the thresholds, and loading
    the adapter reads them (:func:`hf_anon.model.loading.adapter_thresholds`)."""
    model_dir = Path(model_dir)
    config_path = model_dir / "config.json"
    if config_path.is_file():
        config = json.loads(config_path.read_text(encoding="utf-8"))
        config["label_thresholds"] = calibration.thresholds
        config["recognizers"] = calibration.recognizers
        # sorted and indented as transformers writes it
        config_path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    elif not (model_dir / "adapter_config.json").is_file():
        raise FileNotFoundError(f"{model_dir}: neither a model (config.json) nor an adapter")
    record = {"gold": source, **calibration.__dict__}
    out = model_dir / "calibration.json"
    out.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def read_calibration(
    model_dir: str | Path, *, gold: str, beta: float, target_high: float, slack_se: float
) -> Calibration | None:
    """The calibration :func:`write_calibration` stored in ``model_dir``, if it was made on
    ``gold`` by the same rule (beta, high-risk target and slack); else None.

    Calibrating takes minutes per checkpoint, one core each: candidates calibrated in
    parallel processes (each with ``--write``) are then chosen among without running them
    again."""
    path = Path(model_dir) / "calibration.json"
    if not path.is_file():
        return None
    record = json.loads(path.read_text(encoding="utf-8"))
    if record.pop("gold", None) != gold:
        return None
    try:
        stored = Calibration(**record)
    except TypeError:  # written by another version: calibrate again
        return None
    same_rule = (stored.beta, stored.target_high, stored.high_risk_slack_se) == (
        beta,
        target_high,
        slack_se,
    )
    return stored if same_rule else None


def choose(
    results: dict[str, Calibration],
    *,
    target_high: float = 0.99,
    slack_se: float = 0.0,
    incumbent: str | None = None,
    vetoed: Collection[str] = (),
) -> str:
    """The candidate (name → its calibration on one gold set) that the calibration's own
    rule prefers: high-risk recall at the best any candidate reached (capped at the target),
    less ``slack_se`` standard errors, then the highest F-beta. With no slack this is the
    rule's order itself; with one, candidates whose recall differs by noise alone are told
    apart by precision and recall together.

    ``incumbent`` (the model in use, one of the candidates): no candidate replaces it with
    less high-risk recall than it has, whatever the slack, since a slack meant for noise
    between checkpoints of one run also lets a recipe that trades recall for precision
    through (reports/ja_gold/README.md, stage 11). ``vetoed`` candidates (those a gate
    refused) are passed over; with none left, the incumbent stays."""
    if not results:
        raise ValueError("no candidates to choose from")
    if incumbent is not None and incumbent not in results:
        raise ValueError(f"the incumbent {incumbent!r} is not among the candidates")
    best = max(results.values(), key=lambda c: min(c.after["recall_high"], target_high))
    floor = high_risk_floor(best.after, target_high, slack_se)
    if incumbent is not None:
        floor = max(floor, min(results[incumbent].after["recall_high"], target_high))
    eligible = {
        n: c for n, c in results.items() if c.after["recall_high"] >= floor and n not in vetoed
    }
    if not eligible:
        if incumbent is None:
            raise ValueError("every candidate was vetoed")
        return incumbent
    return max(eligible, key=lambda n: eligible[n].after["f_beta"])


def keeping_high_risk(
    results: dict[str, Calibration],
    incumbent: str,
    *,
    target_high: float = 0.99,
    slack_se: float = 0.0,
) -> list[str]:
    """The candidates (not the incumbent) whose high-risk recall on the calibration gold is
    not below the incumbent's (capped at the target) less ``slack_se`` of its standard
    errors: the floor a choice on other decisions (:meth:`hf_anon.model.gate.Gate.check`,
    ``hf-anon calibrate --choose-on``) keeps there. Counted from the incumbent, not from the
    best candidate as :func:`choose` counts, so that no candidate can put the model in use
    below it; with a slack, so that one span of the calibration gold does not keep a
    candidate from the reading that decides (session 58: 0.984 against 0.987, one span of
    378, kept a candidate from 192 decisions on which it was better)."""
    if incumbent not in results:
        raise ValueError(f"the incumbent {incumbent!r} is not among the candidates")
    floor = high_risk_floor(results[incumbent].after, target_high, slack_se)
    return [n for n, c in results.items() if n != incumbent and c.after["recall_high"] >= floor]
