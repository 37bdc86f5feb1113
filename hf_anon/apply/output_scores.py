"""What ``anonymize`` does to a gold text: what it changes that is not sensitive
(:class:`Fidelity`) and what it leaves visible that is (:class:`Protection`).

Detection scores judge the spans; a court publishes the anonymized text. Between the two
stand the leak check (a name found once is replaced wherever it recurs, so the output can
hide more than the detector found) and the anonymizer's own rules. Both figures here are
measured on the output of the same call that ``hf-anon anonymize`` makes
(:func:`hf_anon.apply.anonymize.engine.replace_spans`), against the gold spans.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

from hf_anon.apply.anonymize.leakcheck import LEAK_MIN_SCORE
from hf_anon.text.data import Document, Span

RISKS = ("high", "medium", "low")


@dataclass
class Fidelity:
    """How much of what is not sensitive ``anonymize`` changes: the output must read
    like the original with only the personal data replaced.

    ``characters``: non-whitespace characters outside gold spans; ``replaced``: those of
    them inside a replaced stretch. ``replacements`` and ``stray`` (replacements that
    touch no gold span) count by source (``detector`` / ``leak-check``).
    ``closed_class``: articles, prepositions, conjunctions, … outside gold spans that a
    replacement covers (:func:`hf_anon.text.lexicon.is_closed_class`), by word. ``failed``:
    documents that could not be anonymized (their characters are not counted).
    """

    characters: int = 0
    replaced: int = 0
    replacements: dict[str, int] = field(default_factory=dict)
    stray: dict[str, int] = field(default_factory=dict)
    closed_class: dict[str, int] = field(default_factory=dict)
    failed: int = 0

    @property
    def share(self) -> float:
        return self.replaced / self.characters if self.characters else 0.0

    def to_dict(self) -> dict:
        return {**asdict(self), "share": round(self.share, 6)}


@dataclass
class Protection:
    """How much of what is sensitive the published text still shows: the lenient recall of
    the *output*, leak check included.

    A gold span is ``hidden`` where every non-whitespace character of it lies in a replaced
    stretch, ``partly`` where some do, in ``clear`` where none does; counted by risk
    (``spans``, ``hidden``) and, for the spans not hidden whole, by label (``visible``).
    ``failed``: documents that could not be anonymized (their spans are not counted)."""

    spans: dict[str, int] = field(default_factory=dict)
    hidden: dict[str, int] = field(default_factory=dict)
    partly: int = 0
    clear: int = 0
    visible: dict[str, int] = field(default_factory=dict)
    failed: int = 0

    @property
    def share(self) -> float:
        """Gold spans hidden whole, of all (1.0 for a text without gold spans)."""
        total = sum(self.spans.values())
        return sum(self.hidden.values()) / total if total else 1.0

    def share_of(self, risk: str) -> float | None:
        return self.hidden.get(risk, 0) / self.spans[risk] if self.spans.get(risk) else None

    def to_dict(self) -> dict:
        by_risk = {r: round(v, 6) for r in RISKS if (v := self.share_of(r)) is not None}
        return {**asdict(self), "share": round(self.share, 6), "share_by_risk": by_risk}


def measure_output(
    gold: Sequence[Document],
    found: Sequence[Sequence[Span]],
    label_set,
    labels: Sequence[str] | None = None,
    language: str = "de",
    leak_min_score: float = LEAK_MIN_SCORE,
) -> tuple[Fidelity, Protection]:
    """Anonymize each gold text with the ``found`` spans, as ``anonymize`` does (leak check
    included; ``labels``: the labels replaced; ``leak_min_score``: the leak check's
    minimum score), and compare the replaced stretches with the gold spans: outside them
    (:class:`Fidelity`) and inside (:class:`Protection`)."""
    from hf_anon.apply.anonymize.engine import replace_spans
    from hf_anon.apply.anonymize.types import AnonymizationError
    from hf_anon.text.lexicon import is_closed_class

    fidelity, protection = Fidelity(), Protection()
    replacements: Counter[str] = Counter()
    stray: Counter[str] = Counter()
    closed: Counter[str] = Counter()
    spans: Counter[str] = Counter()
    hidden: Counter[str] = Counter()
    visible: Counter[str] = Counter()
    for doc, found_spans in zip(gold, found, strict=True):
        try:
            result = replace_spans(
                doc.text,
                found_spans,
                mode="redact",
                labels=labels,
                label_set=label_set,
                seed=0,
                language=language,
                leak_min_score=leak_min_score,
            )
        except AnonymizationError:
            fidelity.failed += 1
            protection.failed += 1
            continue
        sensitive = np.zeros(len(doc.text) + 1, dtype=bool)
        for g in doc.spans:
            sensitive[g.start : g.end] = True
        replaced = np.zeros(len(doc.text) + 1, dtype=bool)
        for r in result.replacements:
            replaced[r.start : r.end] = True
            replacements[r.source] += 1
            if not sensitive[r.start : r.end].any():
                stray[r.source] += 1
        visible_chars = np.array([not c.isspace() for c in doc.text] + [False])
        fidelity.characters += int((visible_chars & ~sensitive).sum())
        fidelity.replaced += int((visible_chars & ~sensitive & replaced).sum())
        for word in re.finditer(r"\S+", doc.text):
            a, b = word.span()
            if replaced[a:b].any() and not sensitive[a:b].any() and is_closed_class(word[0]):
                closed[word[0].strip(".,;:!?()\"'„“”").lower()] += 1
        for g in doc.spans:
            shown = visible_chars[g.start : g.end]
            covered = replaced[g.start : g.end][shown]
            spans[g.risk] += 1
            if covered.all():
                hidden[g.risk] += 1
                continue
            visible[g.label] += 1
            if covered.any():
                protection.partly += 1
            else:
                protection.clear += 1
    fidelity.replacements, fidelity.stray = dict(replacements), dict(stray)
    fidelity.closed_class = dict(closed.most_common())
    protection.spans, protection.hidden = dict(spans), dict(hidden)
    protection.visible = dict(visible.most_common())
    return fidelity, protection


def render_fidelity(fidelity: dict) -> list[str]:
    """The fidelity paragraph of a gold set (:class:`Fidelity` as a dict)."""
    if not fidelity:
        return []

    def by_source(counts: dict[str, int]) -> str:
        return ", ".join(f"{n} {source}" for source, n in sorted(counts.items())) or "0"

    closed = fidelity["closed_class"]
    words = ", ".join(f"`{w}` {n}" for w, n in list(closed.items())[:10])
    lines = [
        f"Fidelity of `anonymize` (these spans, leak check included): "
        f"**{fidelity['share']:.2%}** of the {fidelity['characters']} non-sensitive "
        f"characters replaced ({fidelity['replaced']}); replacements "
        f"{by_source(fidelity['replacements'])}, of which touching no gold span "
        f"{by_source(fidelity['stray'])}; closed-class words replaced: "
        f"**{sum(closed.values())}**" + (f" ({words})." if words else "."),
    ]
    if fidelity.get("failed"):
        lines[0] += f" {fidelity['failed']} documents could not be anonymized."
    return [*lines, ""]


def render_protection(protection: dict) -> list[str]:
    """The protection paragraph of a gold set (:class:`Protection` as a dict)."""
    if not protection or not protection.get("spans"):
        return []
    by_risk = ", ".join(
        f"{risk} **{share:.3f}** ({protection['spans'][risk]} spans)"
        for risk, share in protection["share_by_risk"].items()
    )
    shown = ", ".join(f"{label} {n}" for label, n in protection["visible"].items())
    line = (
        f"Protection by `anonymize` (these spans, leak check included): "
        f"**{protection['share']:.3f}** of the {sum(protection['spans'].values())} gold spans "
        f"hidden whole; by risk {by_risk}; {protection['partly']} partly visible, "
        f"{protection['clear']} left in clear" + (f" ({shown})." if shown else ".")
    )
    if protection.get("failed"):
        line += f" {protection['failed']} documents could not be anonymized."
    return [line, ""]
