"""The placeholder audit: where the detector is blind, on thousands of decisions at once.

A detector written from the decisions one has read misses the conventions of courts one
has not read (``XXX``, ``###``, ``****``, ``Xxxxx``). Scoring against a hand-made key
shows that only for the few decisions keyed. The audit needs no key: it counts, per court
(or source), the *unmistakable masks* (:data:`~hf_anon.corpora.placeholders.shapes.RE_MASK_TOKEN`,
shapes no ordinary German text has) that lie outside every placeholder found, and the
*rejected candidates* (elements with a placeholder's shape,
:func:`~hf_anon.corpora.placeholders.shapes.is_placeholder_part`, that the context rules
turned down), each counted by shape with examples in context. A new court's convention
then shows up as a block of unexplained masks or a rejected shape that is suddenly
frequent, before anyone keys a decision of it.

Offsets are characters of the published text, as everywhere in the corpora.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from hf_anon.corpora.placeholders.detector import classify, find_placeholders
from hf_anon.corpora.placeholders.elements import split_elements
from hf_anon.corpora.placeholders.shapes import RE_MASK_TOKEN, RE_ROMAN, is_placeholder_part

#: Examples kept per shape and group (the report stays readable).
EXAMPLES = 3
_CONTEXT = 30


def token_shape(token: str) -> str:
    """A token's shape, so that tokens of one convention count together.

    Mask characters stay themselves (``XXX``, ``###``, ``xx.xx.2016`` → ``xx.xx.9999``);
    other capitals become ``A``, small letters ``a``, digits ``9``; runs longer than three
    of one class are cut to three and a ``+`` (``Xxxxxxx`` → ``Xxxx+``).
    """
    out = []
    for char in token:
        if char in "xX#*…." or not char.isalnum():
            out.append(char)
        elif char.isdigit():
            out.append("9")
        elif char.isupper():
            out.append("A")
        else:
            out.append("a")
    return re.sub(r"(.)\1{3,}", r"\1\1\1+", "".join(out))


def _context(text: str, start: int, end: int) -> str:
    before = text[max(0, start - _CONTEXT) : start]
    after = text[end : end + _CONTEXT]
    return f"{before}[{text[start:end]}]{after}".replace("\n", "⏎")


@dataclass
class ShapeTally:
    """How often one shape occurred in a group, with the first examples in context."""

    count: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, example: str) -> None:
        self.count += 1
        if len(self.examples) < EXAMPLES:
            self.examples.append(example)


@dataclass
class GroupAudit:
    """The audit of one court or source."""

    group: str
    documents: int = 0
    characters: int = 0
    placeholders: int = 0
    masks: int = 0
    masks_outside: int = 0
    documents_with_misses: int = 0
    outside: dict[str, ShapeTally] = field(default_factory=lambda: defaultdict(ShapeTally))
    rejected: dict[str, ShapeTally] = field(default_factory=lambda: defaultdict(ShapeTally))

    @property
    def outside_share(self) -> float:
        return self.masks_outside / self.masks if self.masks else 0.0


@dataclass
class AuditReport:
    """The audit of a corpus: one :class:`GroupAudit` per group and the totals."""

    corpus: str
    groups: list[GroupAudit]

    @property
    def masks(self) -> int:
        return sum(g.masks for g in self.groups)

    @property
    def masks_outside(self) -> int:
        return sum(g.masks_outside for g in self.groups)

    @property
    def outside_share(self) -> float:
        return self.masks_outside / self.masks if self.masks else 0.0

    def to_dict(self) -> dict:
        return {
            "corpus": self.corpus,
            "documents": sum(g.documents for g in self.groups),
            "placeholders": sum(g.placeholders for g in self.groups),
            "masks": self.masks,
            "masks_outside": self.masks_outside,
            "outside_share": round(self.outside_share, 4),
            "groups": [
                {
                    "group": g.group,
                    "documents": g.documents,
                    "characters": g.characters,
                    "placeholders": g.placeholders,
                    "masks": g.masks,
                    "masks_outside": g.masks_outside,
                    "documents_with_misses": g.documents_with_misses,
                    "outside": {s: vars(t) for s, t in _by_count(g.outside)},
                    "rejected": {s: vars(t) for s, t in _by_count(g.rejected)},
                }
                for g in self.groups
            ],
        }

    def to_markdown(self, rejected_per_group: int = 5) -> str:
        """A report to read: totals, every group with a miss, then the rejected shapes."""
        docs = sum(g.documents for g in self.groups)
        lines = [
            f"## {self.corpus}",
            "",
            f"{docs:,} documents in {len(self.groups)} groups; "
            f"{sum(g.placeholders for g in self.groups):,} placeholders found; "
            f"**{self.masks_outside:,} of {self.masks:,} unmistakable masks outside every "
            f"placeholder ({self.outside_share:.2%})**.",
            "",
        ]
        missed = [g for g in self.groups if g.masks_outside]
        if missed:
            lines += ["| group | documents | masks | outside | shapes outside (count: example) |"]
            lines += ["|---|---:|---:|---:|---|"]
            for g in sorted(missed, key=lambda g: -g.masks_outside):
                shapes = "; ".join(
                    f"`{s}` {t.count}: {_cell(t.examples[0])}" for s, t in _by_count(g.outside)[:3]
                )
                counts = f"{g.documents} | {g.masks} | {g.masks_outside}"
                lines.append(f"| {_cell(g.group)} | {counts} | {shapes} |")
            lines.append("")
        rejected: dict[str, ShapeTally] = defaultdict(ShapeTally)
        for g in self.groups:
            for shape, tally in g.rejected.items():
                total = rejected[shape]
                total.count += tally.count
                total.examples.extend(tally.examples[: max(0, EXAMPLES - len(total.examples))])
        if rejected:
            lines += [
                "Candidates the context rules rejected, by shape (most frequent first):",
                "",
                "| shape | count | examples |",
                "|---|---:|---|",
            ]
            for shape, tally in _by_count(rejected)[: rejected_per_group * 4]:
                examples = " · ".join(_cell(e) for e in tally.examples)
                lines.append(f"| `{_cell(shape)}` | {tally.count:,} | {examples} |")
            lines.append("")
        return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("`", "'")


def _by_count(tallies: dict[str, ShapeTally]) -> list[tuple[str, ShapeTally]]:
    return sorted(tallies.items(), key=lambda item: (-item[1].count, item[0]))


def audit_document(text: str, group: GroupAudit) -> None:
    """Add one published decision to its group's audit."""
    elements = split_elements(text)
    placeholders = find_placeholders(text, elements)
    covered = [(p.start, p.end) for p in placeholders]
    group.documents += 1
    group.characters += len(text)
    group.placeholders += len(placeholders)

    def inside(start: int, end: int) -> bool:
        return any(s < end and start < e for s, e in covered)

    missed = 0
    for match in RE_MASK_TOKEN.finditer(text):
        group.masks += 1
        if not inside(match.start(), match.end()):
            missed += 1
            group.outside[token_shape(match.group())].add(
                _context(text, match.start(), match.end())
            )
    group.masks_outside += missed
    group.documents_with_misses += missed > 0
    for i, el in enumerate(elements):
        if (
            not el.core
            or RE_ROMAN.match(el.core)
            or not (is_placeholder_part(el.core) or RE_MASK_TOKEN.search(el.core))
        ):
            continue
        if inside(el.core_start, el.core_end) or classify(elements, i) is not None:
            continue
        group.rejected[token_shape(el.core)].add(_context(text, el.core_start, el.core_end))


def audit(
    rows: Iterable[dict], corpus: str = "corpus", group_by: str = "court", progress: bool = False
) -> AuditReport:
    """Audit rows with ``id`` and ``text``, grouped by ``group_by`` (``court``; rows without
    it fall back to ``court_type``, ``source``, ``domain``, then the id's prefix)."""
    from tqdm.auto import tqdm

    groups: dict[str, GroupAudit] = {}
    for row in tqdm(rows, desc="audit", unit="doc", disable=not progress):
        name = next(
            (str(row[k]) for k in (group_by, "court_type", "source", "domain") if row.get(k)),
            str(row["id"]).split(":")[0],
        )
        audit_document(row["text"], groups.setdefault(name, GroupAudit(name)))
    return AuditReport(corpus, sorted(groups.values(), key=lambda g: g.group))


__all__ = [
    "AuditReport",
    "GroupAudit",
    "ShapeTally",
    "audit",
    "audit_document",
    "token_shape",
]
