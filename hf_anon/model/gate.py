"""A gate on a candidate's recall: before a new model replaces the one in use, it must not
lose high-risk recall on decisions of courts that neither trained nor chose it.

Thresholds and checkpoints are chosen on a calibration set; courts that set does not hold
can still lose what it promised (reports/ja_gold/README.md, stage 11: a model chosen by the
rule lost 0.036 of its high-risk recall on courts nowhere in the set). The gate reads both
models on a small set of such courts and refuses the candidate when the paired interval of
the difference lies wholly below zero. It is a brake, not a measure: the set it reads is
one that decides, so its figures are not reported as untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hf_anon.model.metrics import document_scorers, paired_intervals
from hf_anon.text.data import Document


@dataclass(frozen=True)
class GateResult:
    """The candidate's high-risk recall on the gate, paired against the incumbent's."""

    documents: int
    incumbent: float
    candidate: float
    difference: float
    low: float
    high: float

    @property
    def passed(self) -> bool:
        """False only when the whole interval lies below zero: a loss that the gate's
        precedents would show whichever of them were drawn."""
        return self.high >= 0.0


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
        high = paired_intervals(self._before, after, samples=self.samples)["recall_high"]
        return GateResult(
            documents=len(self.documents),
            incumbent=high["before"],
            candidate=high["after"],
            difference=high["difference"],
            low=high["low"],
            high=high["high"],
        )
