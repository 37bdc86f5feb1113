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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hf_anon.model.metrics import document_scorers, paired_intervals
from hf_anon.text.data import Document

#: The figures the gate guards, as :func:`paired_intervals` names them, and as it prints them.
GUARDED = {"recall_high": "high-risk recall", "lenient_recall": "recall"}


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

    def describe(self) -> str:
        return "; ".join(f.describe(GUARDED[key]) for key, f in self.figures.items())


class Gate:
    """The incumbent (anything with ``labels`` and ``detect(texts)``) read once on the gate's
    documents; :meth:`check` pairs each candidate against it, by document."""

    def __init__(self, incumbent, documents: Sequence[Document], *, samples: int = 1000):
        if not documents:
            raise ValueError("the gate holds no documents")
        self.documents = list(documents)
        self.samples = samples
        texts = [d.text for d in self.documents]
        self._before = document_scorers(incumbent.labels, self.documents, incumbent.detect(texts))

    def check(self, candidate) -> GateResult:
        texts = [d.text for d in self.documents]
        after = document_scorers(candidate.labels, self.documents, candidate.detect(texts))
        paired = paired_intervals(self._before, after, samples=self.samples)
        figures = {
            key: Paired(
                incumbent=paired[key]["before"],
                candidate=paired[key]["after"],
                difference=paired[key]["difference"],
                low=paired[key]["low"],
                high=paired[key]["high"],
            )
            for key in GUARDED
        }
        return GateResult(documents=len(self.documents), figures=figures)
