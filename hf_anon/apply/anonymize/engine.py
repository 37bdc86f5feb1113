"""The engine: one text and its spans → the anonymized text (Presidio's ``AnonymizerEngine``).

Selection, leak check, entities, operators and the final verification, in that order
(see :mod:`hf_anon.apply.anonymize`); no model needed.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from hf_anon.apply.anonymize.entities import assign_numbers, canonical, resolve_entities
from hf_anon.apply.anonymize.leakcheck import (
    LEAK_MIN_SCORE,
    FormMatcher,
    japanese_forms,
    leak_targets,
    protected_forms,
    unreferenced,
)
from hf_anon.apply.anonymize.operators import Operator, OperatorContext, get_operator
from hf_anon.apply.anonymize.types import (
    SAFE_MASK,
    AnonymizationError,
    AnonymizationResult,
    DetectionError,
    LeakError,
    Mention,
    Replacement,
    Target,
)
from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.views import TextView, read_text

#: Draws of an operator before a leaking value is redacted instead.
MAX_ATTEMPTS = 3
#: Rounds of the final check that may add replacements before the call gives up.
MAX_REPAIRS = 16


@dataclass
class AnonymizationPlan:
    """Which spans to replace and how: resolved and validated once per call.

    ``operators`` maps every label to replace to its operator; ``min_risk`` is the
    lowest risk replaced (None: all); ``leak_min_score`` the lowest detector score whose
    form the leak check searches (:mod:`~hf_anon.apply.anonymize.leakcheck`, rule 2).
    """

    operators: dict[str, Operator]
    label_set: LabelSet = DEFAULT_LABELS
    min_risk: str | None = None
    leak_min_score: float = LEAK_MIN_SCORE

    @classmethod
    def build(
        cls,
        *,
        mode: str | Operator = "pseudonym",
        operators: Mapping[str, str | Operator] | None = None,
        labels: Iterable[str] | None = None,
        min_risk: str | None = None,
        label_set: LabelSet = DEFAULT_LABELS,
        leak_min_score: float = LEAK_MIN_SCORE,
    ) -> AnonymizationPlan:
        if isinstance(labels, str):
            labels = [labels]
        chosen = list(label_set.names if labels is None else labels)
        for name in [*chosen, *(operators or {})]:
            if name not in label_set:
                raise ValueError(f"unknown label {name!r}; known: {label_set.names}")
        if min_risk is not None and min_risk not in label_set.risks:
            raise ValueError(f"unknown risk {min_risk!r}; known: {list(label_set.risks)}")
        default = get_operator(mode)
        resolved: dict[str, Operator] = {}
        for name in chosen:
            spec = (operators or {}).get(name)
            operator = default if spec is None else get_operator(spec)
            operator.validate(name)
            resolved[name] = operator
        if not 0.0 <= leak_min_score <= 1.0:
            raise ValueError(f"leak_min_score must lie in [0, 1], got {leak_min_score}")
        return cls(resolved, label_set, min_risk, leak_min_score)

    def selects(self, span: Span) -> bool:
        if span.label not in self.operators:
            return False
        if self.min_risk is None:
            return True
        return self.effective_risk(span) >= self.label_set.risk_rank(self.min_risk)

    def effective_risk(self, span: Span) -> int:
        """The higher of the span's risk and its label's usual risk (fail closed)."""
        usual = self.label_set.risk_rank(self.label_set[span.label].risk)
        if span.risk is None or span.risk not in self.label_set.risks:
            return usual
        return max(usual, self.label_set.risk_rank(span.risk))


def clean_spans(text: str, spans: Iterable[Span], label_set: LabelSet = DEFAULT_LABELS):
    """Check spans against the text and merge overlapping ones.

    Invalid spans (offsets out of range, empty, unknown label) raise
    :class:`DetectionError`: a detector that returns nonsense must not lead to silently
    unprotected text. Whitespace at either end is trimmed (the annotation guidelines,
    ``ANNOTATION.md``). Overlapping or nested spans (a union of detectors)
    become one span over both, with the label of the riskier one (then the higher score,
    then the longer).
    """
    checked = []
    for span in spans:
        if not isinstance(span, Span):
            raise DetectionError(f"the detector returned {type(span).__name__}, not a Span")
        if not (0 <= span.start < span.end <= len(text)):
            raise DetectionError(
                f"span [{span.start}:{span.end}] {span.label} does not fit a text of "
                f"{len(text)} characters"
            )
        if span.label not in label_set:
            raise DetectionError(f"span [{span.start}:{span.end}] has unknown label {span.label!r}")
        start, end = span.start, span.end
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start < end:  # a span of whitespace hides nothing
            checked.append(
                span
                if (start, end) == (span.start, span.end)
                else replace(span, start=start, end=end)
            )
    checked.sort()
    merged: list[Span] = []
    for span in checked:
        if merged and span.start < merged[-1].end:
            prev = merged[-1]

            def rank(s: Span) -> tuple:
                risk = s.risk if s.risk in label_set.risks else label_set[s.label].risk
                return (label_set.risk_rank(risk), s.score or 0.0, s.end - s.start)

            winner = max(prev, span, key=rank)
            merged[-1] = replace(winner, start=prev.start, end=max(prev.end, span.end))
        else:
            merged.append(span)
    return merged


def _document_salt(text: str, seed: int | None) -> str:
    if seed is None:
        return secrets.token_hex(16)
    return f"seed {seed} " + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def as_secret(secret: str | bytes | None) -> bytes | None:
    if secret is None:
        return None
    if isinstance(secret, str):
        secret = secret.encode("utf-8")
    if not isinstance(secret, bytes) or not secret:
        raise ValueError("the secret must be a non-empty string or bytes")
    return secret


def replace_spans(
    text: str | TextView,
    spans: Iterable[Span],
    *,
    mode: str | Operator = "pseudonym",
    operators: Mapping[str, str | Operator] | None = None,
    labels: Iterable[str] | None = None,
    min_risk: str | None = None,
    seed: int | None = None,
    secret: str | bytes | None = None,
    key: bool = False,
    label_set: LabelSet = DEFAULT_LABELS,
    plan: AnonymizationPlan | None = None,
    tokens: int | None = None,
    leak_min_score: float = LEAK_MIN_SCORE,
    language: str = "de",
) -> AnonymizationResult:
    """Anonymize one text given its spans: the operator half alone, no model needed.

    Arguments as for :meth:`Anonymizer.anonymize` (``plan`` replaces ``mode``,
    ``operators``, ``labels``, ``min_risk``, ``label_set`` and ``leak_min_score`` when
    given). ``language="ja"``: the leak check protects Japanese forms, found inside words
    too (:func:`~hf_anon.apply.anonymize.leakcheck.japanese_forms`), and operators write Japanese
    values (pseudonyms from Faker ``ja_JP``, the courts' ``Ａ``, ``Ｂ`` for initials).
    ``text``: a string, or the :class:`~hf_anon.text.views.TextView` its caller read.
    """
    if not isinstance(text, str | TextView):
        raise TypeError(f"text must be a string, got {type(text).__name__}")
    view = text if isinstance(text, TextView) else read_text(text, language)
    text = view.original
    if plan is None:
        plan = AnonymizationPlan.build(
            mode=mode,
            operators=operators,
            labels=labels,
            min_risk=min_risk,
            label_set=label_set,
            leak_min_score=leak_min_score,
        )
    secret_bytes = as_secret(secret)
    spans = clean_spans(text, spans, plan.label_set)
    targets = [
        Target(s, "detector")
        for s in spans
        if plan.selects(s) and plan.operators[s.label].operator_name() != "keep"
    ]
    if language == "ja":
        forms = japanese_forms(text, (t.span for t in targets), min_score=plan.leak_min_score)
    else:
        forms = protected_forms(
            text, (t.span for t in targets), plan.label_set, min_score=plan.leak_min_score
        )
    matcher = FormMatcher(forms, words=language != "ja")
    targets = sorted([*targets, *leak_targets(text, targets, matcher)], key=lambda t: t.span.start)
    salt = _document_salt(text, seed)
    masked: set[tuple[int, int]] = set()
    for _ in range(MAX_REPAIRS):
        new_text, replacements = _render(
            view, targets, plan, matcher, salt, secret_bytes, key, masked, language
        )
        leaks = unreferenced(new_text, matcher.finditer(new_text), matcher)
        if not leaks:
            return AnonymizationResult(new_text, replacements, spans, tokens, key)
        repairs, to_mask = _repairs(text, new_text, replacements, leaks, matcher)
        targets = sorted([*targets, *repairs], key=lambda t: t.span.start)
        masked |= to_mask
    raise LeakError(
        f"the anonymized text still contains a protected form at character "
        f"{leaks[0].start()}; nothing is returned"
    )


def _render(
    view: TextView,
    targets: Sequence[Target],
    plan: AnonymizationPlan,
    matcher: FormMatcher,
    salt: str,
    secret: bytes | None,
    key: bool,
    masked: set[tuple[int, int]] = frozenset(),
    language: str = "de",
) -> tuple[str, list[Replacement]]:
    """Entities, operators and the new text for a fixed set of targets (the entities of
    the ``masked`` target positions get :data:`SAFE_MASK`)."""
    # Operators read names and context from the detection view (`Hans\x00Müller` is a
    # first and a last name); replacements go into the original text.
    text = view.original
    mentions = resolve_entities(view.detection, targets, plan.label_set)
    for m in mentions:
        m.text = text[m.span.start : m.span.end]
    context = OperatorContext(view.detection, salt, secret, language=language)
    assign_numbers(mentions, context)

    by_operator: dict[int, list[int]] = defaultdict(list)
    operator_of: dict[int, Operator] = {}
    for i, m in enumerate(mentions):
        operator = plan.operators[m.label]
        by_operator[id(operator)].append(i)
        operator_of[id(operator)] = operator
    values: list[str] = [""] * len(mentions)
    pending = list(by_operator)
    for attempt in range(MAX_ATTEMPTS):
        context.attempt = attempt
        for op_id in pending:
            indices = by_operator[op_id]
            out = operator_of[op_id].operate([mentions[i] for i in indices], context)
            if len(out) != len(indices) or not all(isinstance(v, str) for v in out):
                raise AnonymizationError(
                    f"operator {operator_of[op_id].operator_name()!r} must return one string "
                    "per mention"
                )
            for i, value in zip(indices, out, strict=True):
                values[i] = value
        _unify_forms(mentions, values)
        leaking = {i for i, v in enumerate(values) if matcher.search(v)}
        pending = [op_id for op_id, idx in by_operator.items() if leaking.intersection(idx)]
        if not pending:
            break
    else:
        masked = {*masked, *((mentions[i].span.start, mentions[i].span.end) for i in leaking)}
    if masked:
        bad_entities = {m.entity.id for m in mentions if (m.span.start, m.span.end) in masked}
        for i, m in enumerate(mentions):
            if m.entity.id in bad_entities:
                values[i] = SAFE_MASK

    pieces: list[str] = []
    replacements: list[Replacement] = []
    cursor = length = 0
    for m, value in zip(mentions, values, strict=True):
        gap = text[cursor : m.span.start]
        new_start = length + len(gap)
        pieces += (gap, value)
        length = new_start + len(value)
        cursor = m.span.end
        replacements.append(
            Replacement(
                start=m.span.start,
                end=m.span.end,
                new_start=new_start,
                new_end=length,
                label=m.label,
                risk=m.span.risk or plan.label_set[m.label].risk,
                score=m.span.score,
                operator=plan.operators[m.label].operator_name(),
                entity=m.entity.id,
                text=value,
                source=m.source,
                original=m.text if key else None,
            )
        )
    pieces.append(text[cursor:])
    return "".join(pieces), replacements


def _repairs(
    text: str,
    new_text: str,
    replacements: Sequence[Replacement],
    leaks: Sequence[re.Match],
    matcher: FormMatcher,
) -> tuple[list[Target], set[tuple[int, int]]]:
    """What to do about protected forms that only appear in the output.

    A span that ends inside a word (``Hans`` of ``Hansen``) leaves a fragment that
    stands alone after the replacement: the part of the match that lies in preserved
    text is mapped back onto the original and replaced too (new targets). A match made
    of replacements alone (two adjacent values that together spell a form) masks the
    entities of those replacements (their original positions are returned).
    """
    gaps = []  # (new start, new end, original start) of each preserved stretch
    cursor = new_cursor = 0
    for r in replacements:
        gaps.append((new_cursor, r.new_start, cursor))
        cursor, new_cursor = r.end, r.new_end
    gaps.append((new_cursor, len(new_text), cursor))
    repairs: list[Target] = []
    masked: set[tuple[int, int]] = set()
    for leak in leaks:
        form = matcher.form_of(leak.group(0))
        pieces = []
        for new_lo, new_hi, orig_lo in gaps:
            lo, hi = max(leak.start(), new_lo), min(leak.end(), new_hi)
            if lo < hi:
                start, end = orig_lo + lo - new_lo, orig_lo + hi - new_lo
                while start < end and text[start].isspace():
                    start += 1
                while end > start and text[end - 1].isspace():
                    end -= 1
                if start < end:
                    pieces.append((start, end))
        if form is not None and pieces:
            span = form.origin
            repairs += [
                Target(Span(a, b, span.label, span.risk), "leak-check", span) for a, b in pieces
            ]
        else:
            masked |= {
                (r.start, r.end)
                for r in replacements
                if r.new_start < leak.end() and r.new_end > leak.start()
            }
    return repairs, masked


def _unify_forms(mentions: Sequence[Mention], values: list[str]) -> None:
    """Mentions of one entity spelt alike (``Bahnhofstr. 12`` / ``Bahnhofstraße 12``)
    get the first one's value. Names are rendered per form by their operators."""
    first: dict[tuple[int, str], str] = {}
    for i, m in enumerate(mentions):
        if not m.is_name:
            values[i] = first.setdefault((m.entity.id, canonical(m.text)), values[i])
