"""Topic spans (:mod:`hf_anon.apply.topics`) added to an anonymization result.

Topic phrases (``syrischer Staatsangehöriger``, ``paranoiden Schizophrenie``) are not
entities: they get no pseudonym and are not searched elsewhere by the leak check (the
redactor decides each mention in its context — a ``weißer VW Golf`` is not a ``weißer``
man). They are replaced by the mask (``redact``) or ``<topic:NAME>`` (``label``) where
they stand, after the personal data, and join the result's replacements (``source``
``"topic"``, ``entity`` 0), so the key restores them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hf_anon.apply.anonymize.types import SAFE_MASK, AnonymizationResult, Replacement
from hf_anon.apply.topics.redactor import TOPIC_MODES, TopicSpan, render


def check_topic_mode(mode: str) -> None:
    if mode not in TOPIC_MODES:
        raise ValueError(f"topic_mode must be {' or '.join(TOPIC_MODES)}, not {mode!r}")


def with_topic_spans(
    result: AnonymizationResult,
    original: str,
    spans: Sequence[TopicSpan],
    *,
    mode: str = "redact",
    mask: str = SAFE_MASK,
) -> AnonymizationResult:
    """``result`` (of ``original``) with the topic spans replaced too; a topic span that
    overlaps a replacement is already gone and is skipped."""
    check_topic_mode(mode)
    done = sorted(result.replacements, key=lambda r: r.start)
    todo = [s for s in spans if all(s.end <= r.start or s.start >= r.end for r in done)]
    if not todo:
        return result
    events: list[Replacement | TopicSpan] = sorted([*done, *todo], key=lambda e: e.start)
    pieces: list[str] = []
    replacements: list[Replacement] = []
    cursor = length = 0
    for event in events:
        before = original[cursor : event.start]
        pieces.append(before)
        length += len(before)
        if isinstance(event, Replacement):
            new = event.text
            replacements.append(replace(event, new_start=length, new_end=length + len(new)))
        else:
            new = render(event, mode=mode, mask=mask)
            replacements.append(
                Replacement(
                    start=event.start,
                    end=event.end,
                    new_start=length,
                    new_end=length + len(new),
                    label=event.label,
                    risk="high",
                    score=round(event.score, 4),
                    operator=mode,
                    entity=0,
                    text=new,
                    source="topic",
                    original=original[event.start : event.end] if result.keyed else None,
                )
            )
        pieces.append(new)
        length += len(new)
        cursor = event.end
    pieces.append(original[cursor:])
    return AnonymizationResult(
        text="".join(pieces),
        replacements=replacements,
        spans=sorted([*result.spans, *(s.to_span() for s in todo)], key=lambda s: s.start),
        tokens=result.tokens,
        keyed=result.keyed,
    )
