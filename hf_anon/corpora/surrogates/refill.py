"""Copies of gold decisions with their names, companies and places drawn afresh.

The German model trains on a few hundred real decisions, each seen eight times a run with
the same names in it. A model can then learn that ``Klemt`` is a witness and ``Helix
Capital`` a company instead of learning what the words around them say, and courts it has
never seen write other names. Each copy here keeps the decision's words and every span's
place and label, and puts a fresh, consistent surrogate (:class:`Pseudonymizer`) on the
spans whose surface the context should decide (:data:`REFILL_LABELS`): people, companies,
places, vehicles and numbers. Courts, dockets and dates stay as written: their surrogates
do not keep a court's grammatical case or a decision's chronology, and their form, not a
memorized value, already tells what they are. Personal details (``nat-idx``) and branches
(``jur-idx``) stay too: they are phrases, and a drawn one rarely fits its sentence.

Companies drawn by the factory are narrower than real organisations, and a run refilled that
way found fewer of them on unseen courts; ``organizations`` draws them from the names
annotated in other decisions instead (:mod:`~hf_anon.corpora.surrogates.organization_pool`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from hf_anon.corpora.surrogates.organization_pool import OrganizationPool
from hf_anon.corpora.surrogates.pseudonymizer import Pseudonymizer
from hf_anon.text.data import Document

#: Labels whose spans get a fresh surrogate in every copy
REFILL_LABELS = frozenset(
    {
        "nat-name",
        "nat-jur",
        "jur-name",
        "address-name",
        "address-idx",
        "car-name",
        "car-idx",
        "id-number",
    }
)


def refill_id(doc_id: str, copy: int) -> str:
    """The id of a copy: the decision's id and the copy's number, so a copy never passes for
    the decision itself (selections and exclusions name the decision)."""
    return f"{doc_id}#refill{copy}"


def refilled_copies(
    docs: Iterable[Document],
    copies: int,
    seed: int = 0,
    labels: Sequence[str] | frozenset[str] = REFILL_LABELS,
    organizations: OrganizationPool | None = None,
) -> Iterator[Document]:
    """``copies`` copies of each document (copy ``k`` of every document, then ``k + 1``),
    the spans of ``labels`` replaced by surrogates drawn with ``seed`` and the copy's id;
    companies from ``organizations`` (names marked in other decisions) where given.

    Copy ``k`` is the same whatever other documents are given, since the pseudonymizer
    draws per document id; the document itself is not among the copies."""
    if copies < 1:
        raise ValueError(f"copies must be at least 1, got {copies}")
    chosen = frozenset(labels)
    pseudonymizer = Pseudonymizer(seed=seed)
    docs = list(docs)
    # what each decision's copies may draw, by the decision's own id (a copy's id is another)
    pools = [organizations.choices_for(d.id) if organizations else None for d in docs]
    for copy in range(1, copies + 1):
        for doc, pool in zip(docs, pools, strict=True):
            renamed = replace(doc, id=refill_id(doc.id, copy))
            yield pseudonymizer.pseudonymize(
                renamed, replace=lambda s: s.label in chosen, organizations=pool
            )
