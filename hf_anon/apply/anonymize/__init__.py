"""Anonymization: detected spans → the text users publish.

The anonymizer half of hf-anon, split from detection as in Presidio: a detector (a
trained :class:`~hf_anon.model.detection.SpanDetector`, or any callable that returns spans)
says *what* is sensitive; operators decide *what to write instead*. Spans (character
offsets into the original text, with label, risk and score) are the only thing passed
between the two halves, so every operator can be used and tested without a model.

What happens to one document (:func:`~hf_anon.apply.anonymize.engine.replace_spans`):

1. **Selection**: spans whose label is chosen and whose risk is at least ``min_risk``.
   A span's risk counts as the higher of its own (predicted) risk and its label's usual
   risk: a model may raise a span's risk, never lower it below its category (fail closed).
   Spans whose operator is ``keep`` are left as they are.
2. **Leak check**: the surface form of every selected span (for names also each name
   part of at least 3 letters, with a genitive ``s``) is searched for in the rest of the
   text; each whole-word occurrence becomes a mention of the same entity (``source`` is
   ``"leak-check"``) and is replaced too. Only forms that can be names of that entity are
   searched: no closed-class words, no span scored below ``leak_min_score``, no
   lower-case reading of a capitalised name (rules in :mod:`~hf_anon.apply.anonymize.leakcheck`).
3. **Entities**: mentions are grouped into entities: a surname alone or a first name
   alone joins the full name it belongs to, ``Müllers`` joins ``Müller``, equal
   addresses (``Bahnhofstr. 12`` / ``Bahnhofstraße 12``) are one entity. The same entity
   gets the same replacement throughout the document.
4. **Operators** (one small class each, a registry like Presidio's): ``redact``,
   ``label``, ``initials``, ``pseudonym``, ``keep``; one per label if wanted.
5. **Verification**: a replacement value that would contain a protected surface form
   (a pseudonym that happens to be another party's real name) is drawn again, and
   redacted as ``[…]`` if that keeps happening. The finished text is searched once more:
   a form that only appears now (a span cut inside a word leaves a fragment that stands
   alone; two adjacent replacements spell a form together) is replaced or masked and the
   text rebuilt; if that does not end it, the call raises :class:`LeakError` rather than
   return a leak.

Detectors and operators read the text with control characters turned into spaces
(:func:`~hf_anon.text.views.detection_view`, same length): tokenizers drop them, which would glue
``Hans\x00Müller`` into one word. The output keeps them.

Randomness: without a ``secret``, every document gets fresh random replacements, so
nothing links documents (``seed`` makes a run reproducible). With a ``secret``, the
replacement of an entity is derived from ``HMAC(secret, entity)``: the same person gets
the same pseudonym, initials or tag in every document processed with that secret.

Everything outside the replaced stretches is kept byte for byte, and each
:class:`Replacement` lists original and new offsets, so with ``key=True`` the original
can be restored (:func:`restore`).

The package, in Presidio's shape (each layer imports only the ones before it):
:mod:`~hf_anon.apply.anonymize.types` (errors, :class:`Replacement`, results, the mentions
operators see), :mod:`~hf_anon.apply.anonymize.leakcheck` (protected forms),
:mod:`~hf_anon.apply.anonymize.entities` (mention resolution),
:mod:`~hf_anon.apply.anonymize.operators` (one module per operator and the registry),
:mod:`~hf_anon.apply.anonymize.engine` (:func:`replace_spans`) and, on top,
:mod:`~hf_anon.apply.anonymize.anonymizer` (the :class:`Anonymizer`, the only part that
imports detection).
"""

from hf_anon.apply.anonymize.anonymizer import Anonymizer
from hf_anon.apply.anonymize.engine import (
    MAX_ATTEMPTS,
    MAX_REPAIRS,
    AnonymizationPlan,
    clean_spans,
    replace_spans,
)
from hf_anon.apply.anonymize.entities import resolve_entities
from hf_anon.apply.anonymize.leakcheck import (
    LEAK_MIN_SCORE,
    MIN_FORM_CHARS,
    MIN_NAME_PART_LETTERS,
    FormMatcher,
    protected_forms,
)
from hf_anon.apply.anonymize.operators import (
    INITIAL_LETTERS,
    OPERATORS,
    Initials,
    Keep,
    Label,
    Operator,
    OperatorContext,
    Pseudonym,
    Redact,
    get_operator,
    register_operator,
)
from hf_anon.apply.anonymize.types import (
    SAFE_MASK,
    AnonymizationError,
    AnonymizationResult,
    DetectionError,
    DetectorFn,
    Entity,
    LeakError,
    Mention,
    Replacement,
    restore,
)
from hf_anon.text.views import detection_view

__all__ = [
    "INITIAL_LETTERS",
    "LEAK_MIN_SCORE",
    "MAX_ATTEMPTS",
    "MAX_REPAIRS",
    "MIN_FORM_CHARS",
    "MIN_NAME_PART_LETTERS",
    "OPERATORS",
    "SAFE_MASK",
    "AnonymizationError",
    "AnonymizationPlan",
    "AnonymizationResult",
    "Anonymizer",
    "DetectionError",
    "DetectorFn",
    "Entity",
    "FormMatcher",
    "Initials",
    "Keep",
    "Label",
    "LeakError",
    "Mention",
    "Operator",
    "OperatorContext",
    "Pseudonym",
    "Redact",
    "Replacement",
    "clean_spans",
    "detection_view",
    "get_operator",
    "protected_forms",
    "register_operator",
    "replace_spans",
    "resolve_entities",
    "restore",
]
