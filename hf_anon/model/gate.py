"""A gate on a candidate's recall: before a new model replaces the one in use, it must not
lose recall, nor high-risk recall, on decisions of courts that neither trained nor chose it.

Thresholds and checkpoints are chosen on a calibration set; courts that set does not hold
can still lose what it promised (reports/ja_gold/README.md, stage 11: a model chosen by the
rule lost 0.036 of its high-risk recall on courts nowhere in the set). The gate reads both
models on a set of such courts and refuses the candidate when the paired interval of either
difference lies wholly below zero. Recall counts beside high-risk recall because a model can
keep its few high-risk names and still publish more of everything else: in session 51 a
weight soup passed a gate of high-risk recall alone on 341 decisions and then lost 0.029 of
recall on the unseen courts (reports/capacity/README.md, "weight soups"). It is a brake, not
a measure: the set it reads is one that decides, so its figures are not reported as
untouched.

The same reading can also choose (``hf-anon calibrate --choose-on``): a candidate *wins*
when, besides passing, its lenient F-beta is higher than the incumbent's with the paired
interval wholly above zero. Forty calibration decisions could not tell candidates apart
(F2 differences of 0.001 decided twice in session 57, and a high-risk recall one span
higher put the model in use below the floor); a few hundred decisions of other courts,
paired by decision, can, and a difference inside the interval keeps the model in use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hf_anon.model.metrics import (
    SpanScores,
    document_scorers,
    f_beta,
    headline,
    paired_intervals,
)
from hf_anon.text.data import Document

#: The figures the gate guards, as :func:`paired_intervals` names them, and as it prints them.
GUARDED = {"recall_high": "high-risk recall", "lenient_recall": "recall"}
#: The figure a choice on the gate's documents compares (:attr:`GateResult.wins`)
GAIN = "lenient_f_beta"


def choice_figures(beta: float):
    """The :func:`headline` figures and lenient F-beta, computed from one merged score, so
    that a bootstrap draw pairs F-beta like the others (a mean of per-document F-beta would
    weigh a decision of two spans like one of two hundred)."""

    def figures(scores: SpanScores) -> dict[str, float]:
        out = headline(scores)
        out[GAIN] = f_beta(out["lenient_precision"], out["lenient_recall"], beta)
        return out

    return figures


@dataclass(frozen=True)
class Paired:
    """One figure of the candidate paired against the incumbent's, by document."""

    incumbent: float
    candidate: float
    difference: float
    low: float
    high: float

    @property
    def lost(self) -> bool:
        """True only when the whole interval lies below zero: a loss that the gate's
        decisions would show whichever of them were drawn."""
        return self.high < 0.0

    def describe(self, name: str) -> str:
        return (
            f"{name} {self.candidate:.3f} against {self.incumbent:.3f}, "
            f"{self.difference:+.3f} ({self.low:+.3f} to {self.high:+.3f})"
        )


@dataclass(frozen=True)
class GateResult:
    """The candidate's guarded figures on the gate, each paired against the incumbent's."""

    documents: int
    figures: dict[str, Paired]
    gain: Paired | None = None  # lenient F-beta, paired (None from a result made without it)

    @property
    def high_risk(self) -> Paired:
        return self.figures["recall_high"]

    @property
    def recall(self) -> Paired:
        return self.figures["lenient_recall"]

    @property
    def passed(self) -> bool:
        """False when any guarded figure is lost (:attr:`Paired.lost`)."""
        return not any(f.lost for f in self.figures.values())

    @property
    def wins(self) -> bool:
        """True when the candidate passes and its F-beta gain lies wholly above zero: a
        better model whichever of the gate's decisions were drawn, not a tie."""
        return self.passed and self.gain is not None and self.gain.low > 0.0

    def describe(self) -> str:
        parts = [f.describe(GUARDED[key]) for key, f in self.figures.items()]
        if self.gain is not None:
            parts.append(self.gain.describe("F-beta"))
        return "; ".join(parts)


class Gate:
    """The incumbent (anything with ``labels`` and ``detect(texts)``) read once on the gate's
    documents; :meth:`check` pairs each candidate against it, by document."""

    def __init__(
        self,
        incumbent,
        documents: Sequence[Document],
        *,
        samples: int = 1000,
        beta: float = 2.0,
    ):
        if not documents:
            raise ValueError("the gate holds no documents")
        self.documents = list(documents)
        self.samples = samples
        self.beta = beta
        texts = [d.text for d in self.documents]
        self._before = document_scorers(incumbent.labels, self.documents, incumbent.detect(texts))

    def paired(self, candidate) -> dict[str, dict[str, float]]:
        """Every figure of :func:`choice_figures` of the candidate against the incumbent on
        the gate's documents, paired (:func:`paired_intervals`)."""
        texts = [d.text for d in self.documents]
        after = document_scorers(candidate.labels, self.documents, candidate.detect(texts))
        return paired_intervals(
            self._before, after, samples=self.samples, figures=choice_figures(self.beta)
        )

    def check(self, candidate) -> GateResult:
        return gate_result(self.paired(candidate), len(self.documents))


def gate_result(paired: dict[str, dict[str, float]], documents: int) -> GateResult:
    """The gate's verdict from :func:`paired_intervals` of :func:`choice_figures` (the
    incumbent's per-document scores before, the candidate's after, on ``documents``
    decisions): also for candidates that are no model folder, such as two models'
    averaged probabilities (``benchmarks/ensemble_cv.py``)."""
    figures = {key: Paired(**_renamed(paired[key])) for key in GUARDED}
    return GateResult(documents=documents, figures=figures, gain=Paired(**_renamed(paired[GAIN])))


def _renamed(figure: dict[str, float]) -> dict[str, float]:
    """One figure of :func:`paired_intervals` under :class:`Paired`'s names."""
    return {
        "incumbent": figure["before"],
        "candidate": figure["after"],
        "difference": figure["difference"],
        "low": figure["low"],
        "high": figure["high"],
    }


def best_winner(results: dict[str, GateResult]) -> str | None:
    """Of the candidates read on the gate, the one that wins (:attr:`GateResult.wins`) with
    the highest F-beta there; None when none wins, and the model in use stays."""
    winners = {name: r for name, r in results.items() if r.wins}
    if not winners:
        return None
    return max(winners, key=lambda name: winners[name].gain.candidate)
