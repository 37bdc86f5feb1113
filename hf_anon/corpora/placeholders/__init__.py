"""Placeholder detection in published (already anonymized) decisions.

Courts publish decisions with placeholders where sensitive spans were: ``A.``,
``Xxxxx``, ``…``, ``H... O...``, ``X GmbH``, ``A-Straße 1``, ``xx.xx.2016``,
``a@x.de``, full-width ``Ａ`` and more. Finding them turns the hundred thousand
published decisions into training data (seed 000, section 5.3.2 and appendix A.1).

The method is the seed's: split the text into whitespace-separated elements and
classify each *candidate* element with its predecessor and successor. *Obvious*
placeholders (ellipses, repeated letters, masked dates, single-letter e-mails and URLs,
full-width letters) are taken as they are; *potential* ones (single letters like ``A``,
``A.``, ``A-Straße``) only when the context does not make them an abbreviation
(``i.d.R.``), an enumeration (``A. Tatbestand``, ``I.``), an annex or page reference
(``Anl. K 3``, ``S. 28 ff.``), a statute citation or a quoted omission (``[...]``).
Adjacent placeholder elements that form one entity (``H... O...``, ``…straße …``,
``00000 Y-Stadt``, ``… 2023``) are merged into one span, and each span gets the label
it most likely hides from context cues (``Herr`` → ``nat-name``, ``Rechtsanwalt`` →
``nat-jur``, ``GmbH`` → ``jur-name``, ``Kennzeichen`` → ``car-idx``, …) or
``unknown``.

The package: :mod:`~hf_anon.corpora.placeholders.shapes` (every placeholder shape, also those
the surrogates and the LER import read), :mod:`~hf_anon.corpora.placeholders.cues` (the words
around a placeholder), :mod:`~hf_anon.corpora.placeholders.elements` (elements, candidates,
placeholders), :mod:`~hf_anon.corpora.placeholders.lookalikes` (what looks like a placeholder
and is not), :mod:`~hf_anon.corpora.placeholders.detector` (the method above),
:mod:`~hf_anon.corpora.placeholders.by_language` (the rules of each language behind one door),
:mod:`~hf_anon.corpora.placeholders.labelling` (the label each one hides),
:mod:`~hf_anon.corpora.placeholders.decision` (one entity keeps its letter across a decision),
:mod:`~hf_anon.corpora.placeholders.scoring` (against a key, seed 000 table 6.1, with
intervals over decisions and scores by court) and :mod:`~hf_anon.corpora.placeholders.audit`
(the masks left outside every placeholder, per court). A learned second opinion on the
model's encoder is :mod:`hf_anon.model.placeholder_tagger`.
"""

from hf_anon.corpora.placeholders.by_language import (
    annotate_placeholders,
    placeholder_spans,
    rule_placeholders,
)
from hf_anon.corpora.placeholders.detector import (
    classify,
    find_candidates,
    find_placeholders,
    merge_candidates,
)
from hf_anon.corpora.placeholders.elements import (
    UNKNOWN,
    Candidate,
    Element,
    Placeholder,
    split_elements,
)
from hf_anon.corpora.placeholders.labelling import infer_label
from hf_anon.corpora.placeholders.scoring import DetectorScores, score_placeholders
from hf_anon.corpora.placeholders.shapes import (
    has_mask,
    is_placeholder_mention,
    is_placeholder_part,
    looks_like_placeholder,
    placeholder_kind,
    placeholder_parts,
)

__all__ = [
    "UNKNOWN",
    "Candidate",
    "DetectorScores",
    "Element",
    "Placeholder",
    "annotate_placeholders",
    "classify",
    "find_candidates",
    "find_placeholders",
    "has_mask",
    "infer_label",
    "is_placeholder_mention",
    "is_placeholder_part",
    "looks_like_placeholder",
    "merge_candidates",
    "placeholder_kind",
    "placeholder_parts",
    "placeholder_spans",
    "rule_placeholders",
    "score_placeholders",
    "split_elements",
]
