"""Organisation names as annotated in real decisions, to draw company surrogates from.

The factory's companies are a surname or a trade word and a business (``Aurora
Dachdeckerei``, ``Bärer & Sontag``). The organisations of real decisions are clubs, clinics,
newspapers, associations, institutes, products and acronyms as well. A model trained on
copies whose companies were all drawn the factory's way learned that narrower picture and
found fewer organisations on courts it had never seen (``reports/capacity/README.md``, "Fresh
names in every copy"). A pool of the names the annotators marked in *other* decisions keeps
the real spread while still changing the name in every copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hf_anon.corpora.placeholders.shapes import placeholder_kind
from hf_anon.corpora.surrogates.tables import LEGAL_FORM_AFTER
from hf_anon.text.data import Document


@dataclass(frozen=True)
class PooledName:
    """One organisation name of the pool: where it was marked, and whether a legal form
    followed it there (``Helix Capital`` in ``Helix Capital GmbH``)."""

    name: str
    doc_id: str
    before_legal_form: bool


@dataclass(frozen=True)
class OrganizationPool:
    """The ``jur-name`` surfaces of gold documents (masked ones left out: a placeholder is
    no name to draw), each once per document."""

    names: tuple[PooledName, ...]

    @classmethod
    def from_documents(cls, docs: Iterable[Document], label: str = "jur-name") -> OrganizationPool:
        seen: set[tuple[str, str, bool]] = set()
        names: list[PooledName] = []
        for doc in docs:
            for span in doc.spans:
                if span.label != label:
                    continue
                name = " ".join(doc.text[span.start : span.end].split())
                if len(name) < 2 or any(placeholder_kind(w) is not None for w in name.split()):
                    continue
                legal = bool(LEGAL_FORM_AFTER.match(doc.text, span.end))
                if (name, doc.id, legal) not in seen:
                    seen.add((name, doc.id, legal))
                    names.append(PooledName(name, doc.id, legal))
        return cls(tuple(names))

    def __len__(self) -> int:
        return len(self.names)

    def choices_for(self, doc_id: str) -> OrganizationChoices:
        """What copies of the document ``doc_id`` may draw: the names of every other
        document (its own would put a company back where it stood, or in another place of
        the same case)."""
        other = [n for n in self.names if n.doc_id != doc_id]
        return OrganizationChoices(
            firms=tuple(sorted({n.name for n in other if n.before_legal_form})),
            others=tuple(sorted({n.name for n in other if not n.before_legal_form})),
        )


@dataclass(frozen=True)
class OrganizationChoices:
    """The names one document may draw, by the slot they fill: before a legal form
    (``… GmbH``: a firm's name) or without one (a club, a newspaper, a firm named bare)."""

    firms: tuple[str, ...] = ()
    others: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.firms or self.others)

    def for_slot(self, before_legal_form: bool) -> tuple[str, ...]:
        """The names of the slot's kind, or all where the pool has none of that kind."""
        names = self.firms if before_legal_form else self.others
        return names or (self.firms + self.others)
