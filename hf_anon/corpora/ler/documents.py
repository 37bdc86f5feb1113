"""LER sentences → documents: reading order, placeholder key, pseudonyms, statistics."""

from __future__ import annotations

import json
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from hf_anon.corpora.ler.conll import LER_CLASSES, Anomalies, LerSentence
from hf_anon.corpora.ler.detokenize import detokenize
from hf_anon.corpora.ler.mapping import (
    LER_CLASS_MAPPING,
    SpanCandidate,
    map_mention,
    mention_spans,
    should_pseudonymize,
)
from hf_anon.corpora.ler.timeml import RawLine
from hf_anon.corpora.placeholders.shapes import is_placeholder_mention
from hf_anon.text.data import Document, Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet

# --- statistics -----------------------------------------------------------------------


@dataclass
class LerStats:
    """What the conversion did, for the summary: per LER class and per label."""

    mentions: Counter = field(default_factory=Counter)  # LER class → mentions
    mapped: Counter = field(default_factory=Counter)  # (class, label) → spans
    dropped: Counter = field(default_factory=Counter)  # class → mentions not sensitive
    placeholders: Counter = field(default_factory=Counter)  # class → placeholder spans
    placeholder_in_dropped: Counter = field(default_factory=Counter)  # class → whole placeholders
    key_spans: Counter = field(default_factory=Counter)  # label → key spans
    pseudonymized: Counter = field(default_factory=Counter)  # label → replaced spans
    adjustments: Counter = field(default_factory=Counter)  # boundary rule → times
    anomalies: Anomalies = field(default_factory=Anomalies)

    def format(self) -> str:
        header = f"{'class':6}{'mentions':>10}{'dropped':>9}{'placeholder':>13}  → our labels"
        lines = ["LER classes → our labels (spans after the boundary rules):", header]
        for cls in LER_CLASSES:
            labels = {lab: n for (c, lab), n in sorted(self.mapped.items()) if c == cls}
            target = ", ".join(f"{lab} {n:,}" for lab, n in labels.items()) or "—"
            placeholders = self.placeholders[cls] + self.placeholder_in_dropped[cls]
            lines.append(
                f"{cls:6}{self.mentions[cls]:10,}{self.dropped[cls]:9,}{placeholders:13,}  {target}"
            )
        lines.append(
            "placeholder column: sensitive spans that get pseudonymized, plus mentions of "
            "classes that are not sensitive which are placeholders as a whole"
        )
        lines.append("key spans by label: " + json.dumps(dict(self.key_spans.most_common())))
        if self.pseudonymized:
            lines.append(
                "pseudonymized by label: " + json.dumps(dict(self.pseudonymized.most_common()))
            )
        lines.append("boundary rules applied: " + json.dumps(dict(self.adjustments.most_common())))
        lines.append(self.anomalies.format())
        return "\n".join(lines)


# --- sentences → documents ------------------------------------------------------------


@dataclass
class ConvertedSentence:
    """A sentence as text with its sensitive spans (sentence characters)."""

    text: str
    spans: list[SpanCandidate]


def convert_sentence(sentence: LerSentence, stats: LerStats | None = None) -> ConvertedSentence:
    """Detokenize a sentence and turn its mentions into spans in our labels."""
    stats = stats if stats is not None else LerStats()
    text, offsets = detokenize(sentence.tokens)
    spans: list[SpanCandidate] = []
    for mention in sentence.mentions():
        stats.mentions[mention.ler_class] += 1
        label = map_mention(sentence, mention)
        if label is None:
            stats.dropped[mention.ler_class] += 1
            mention_text = text[offsets[mention.start][0] : offsets[mention.end - 1][1]]
            if is_placeholder_mention(mention_text):
                stats.placeholder_in_dropped[mention.ler_class] += 1
            continue
        for candidate in mention_spans(sentence, mention, label, offsets, text, stats.adjustments):
            stats.mapped[(mention.ler_class, label)] += 1
            stats.placeholders[mention.ler_class] += candidate.placeholder
            stats.key_spans.update([label] * len(candidate.key_parts))
            spans.append(candidate)
    return ConvertedSentence(text, spans)


@dataclass
class SentenceGroup:
    """Sentences that become one document (in this order)."""

    id: str
    domain: str
    sentences: list[LerSentence]


@dataclass(frozen=True)
class RawLocation:
    """Where a CoNLL sentence stands in the raw text: court and line (0-based)."""

    court: str
    line: int


def group_sentences(
    sentences: Sequence[LerSentence],
    split: str,
    sentences_per_document: int = 25,
    locations: Sequence[RawLocation | None] | None = None,
) -> list[SentenceGroup]:
    """Cut sentences into documents of ``sentences_per_document`` (ids ``ler-<split>-NNNNN``).

    Without ``locations`` the file order is kept and the domain is ``ler``. With them
    (see :func:`locate_sentences`), sentences are put back into the order of the raw
    text, per court, so that a document holds sentences of one court and mostly of one
    decision in reading order (domain = court); sentences not found follow in file
    order with domain ``ler``.
    """
    if sentences_per_document < 1:
        raise ValueError(f"sentences_per_document must be at least 1, got {sentences_per_document}")
    runs: list[tuple[str, list[LerSentence]]] = []
    if locations is None:
        runs.append(("ler", list(sentences)))
    else:
        if len(locations) != len(sentences):
            raise ValueError("one location (or None) per sentence is needed")
        by_court: dict[str, list[tuple[int, LerSentence]]] = defaultdict(list)
        unplaced = []
        for sentence, where in zip(sentences, locations, strict=True):
            if where is None:
                unplaced.append(sentence)
            else:
                by_court[where.court].append((where.line, sentence))
        for court in sorted(by_court):
            runs.append((court, [s for _, s in sorted(by_court[court], key=lambda x: x[0])]))
        if unplaced:
            runs.append(("ler", unplaced))
    groups: list[SentenceGroup] = []
    for domain, run in runs:
        for i in range(0, len(run), sentences_per_document):
            doc_id = f"ler-{split}-{len(groups) + 1:05d}"
            groups.append(SentenceGroup(doc_id, domain, run[i : i + sentences_per_document]))
    return groups


def _assemble(group: SentenceGroup, stats: LerStats) -> tuple[Document, Document]:
    """A group → (document with spans, placeholder-key document), same id and text."""
    texts, spans, key = [], [], []
    offset = 0
    for sentence in group.sentences:
        converted = convert_sentence(sentence, stats)
        for c in converted.spans:
            risk = DEFAULT_LABELS[c.label].risk
            spans.append(Span(offset + c.start, offset + c.end, c.label, risk))
            key += [Span(offset + s, offset + e, c.label) for s, e in c.key_parts]
        texts.append(converted.text)
        offset += len(converted.text) + 1
    meta = {
        "source": group.sentences[0].source if group.sentences else "",
        "sentence_index": [s.index for s in group.sentences],
    }
    text = "\n".join(texts)
    doc = Document(group.id, text, spans, group.domain, dict(meta))
    return doc, Document(group.id, text, key, group.domain, dict(meta))


def ler_documents(
    sentences: Sequence[LerSentence],
    split: str = "dev",
    sentences_per_document: int = 25,
    locations: Sequence[RawLocation | None] | None = None,
    stats: LerStats | None = None,
) -> list[Document]:
    """LER sentences → documents with spans in our labels (risk: the label's usual one).

    Sentences are joined with ``\\n``; ``meta`` says which file and sentences a
    document holds. The spans follow the mapping table and boundary rules above.
    """
    stats = stats if stats is not None else LerStats()
    groups = group_sentences(sentences, split, sentences_per_document, locations)
    return [_assemble(group, stats)[0] for group in groups]


def ler_placeholder_key(
    sentences: Sequence[LerSentence],
    split: str = "dev",
    sentences_per_document: int = 25,
    locations: Sequence[RawLocation | None] | None = None,
) -> list[Document]:
    """The placeholder key from LER's own tags: placeholder parts of sensitive mentions.

    Same ids and texts as :func:`ler_documents` with the same arguments; spans have a
    label and no risk (save with ``spans_key="placeholders"``). Only person, company
    and address classes (:data:`~hf_anon.corpora.ler.mapping.KEY_CLASSES`) contribute:
    ``Herrn G.`` → ``G.`` (``nat-name``), ``X GmbH`` → ``X`` (``jur-name``), ``A-Straße``
    (``address-name``).
    """
    stats = LerStats()
    groups = group_sentences(sentences, split, sentences_per_document, locations)
    return [_assemble(group, stats)[1] for group in groups]


def ler_corpus(
    sentences: Sequence[LerSentence],
    split: str = "dev",
    sentences_per_document: int = 25,
    locations: Sequence[RawLocation | None] | None = None,
    stats: LerStats | None = None,
    progress: Callable[[Iterable], Iterable] = iter,
) -> tuple[list[Document], list[Document]]:
    """Both :func:`ler_documents` and :func:`ler_placeholder_key` in one pass.

    ``progress`` wraps the groups being converted (pass ``tqdm`` for a progress bar).
    """
    stats = stats if stats is not None else LerStats()
    groups = group_sentences(sentences, split, sentences_per_document, locations)
    pairs = [_assemble(group, stats) for group in progress(groups)]
    return [doc for doc, _ in pairs], [key for _, key in pairs]


# --- pseudonymization -----------------------------------------------------------------


def pseudonymize_ler(
    docs: Iterable[Document], seed: int = 0, stats: LerStats | None = None
) -> list[Document]:
    """Replace placeholder spans by realistic surrogates (which: :func:`should_pseudonymize`).

    Uses :class:`hf_anon.corpora.surrogates.Pseudonymizer` (one for all documents, so the run
    is reproducible from ``seed``); other spans are kept verbatim with shifted offsets.
    Id, domain and meta are kept.
    """
    from hf_anon.corpora.surrogates import Pseudonymizer

    pseudonymizer = Pseudonymizer(seed)
    out = []
    for doc in docs:

        def replace(span: Span, doc: Document = doc) -> bool:
            return should_pseudonymize(doc.span_text(span), span.label)

        if stats is not None:
            stats.pseudonymized.update(s.label for s in doc.spans if replace(s))
        new = pseudonymizer.pseudonymize(doc, replace=replace)
        out.append(Document(doc.id, new.text, list(new.spans), doc.domain, dict(doc.meta)))
    return out


def locate_sentences(
    sentences: Sequence[LerSentence],
    raw: Mapping[str, Sequence[RawLine]],
    anomalies: Anomalies | None = None,
) -> list[RawLocation | None]:
    """Find each CoNLL sentence in the raw text (same tokens), first unused match first.

    The CoNLL sentences are raw lines, shuffled; identical sentences (``Die Revision
    wird zurückgewiesen .``) take the raw lines in order. Not found: None (counted).
    """
    anomalies = anomalies if anomalies is not None else Anomalies()
    free: dict[str, deque[RawLocation]] = defaultdict(deque)
    for court in sorted(raw):
        for i, line in enumerate(raw[court]):
            free[" ".join(line.tokens)].append(RawLocation(court, i))
    found: list[RawLocation | None] = []
    for sentence in sentences:
        queue = free.get(" ".join(sentence.tokens))
        if queue:
            found.append(queue.popleft())
        else:
            anomalies.add(
                "CoNLL sentence not found in the raw text (kept in file order)",
                f"{sentence.source} sentence {sentence.index}",
            )
            found.append(None)
    return found


def check_labels(labels: LabelSet = DEFAULT_LABELS) -> None:
    """Raise if the mapping table names a label the label set lacks."""
    targets = {row.label for row in LER_CLASS_MAPPING.values() if row.label} | {"address-idx"}
    missing = sorted(targets - set(labels.names))
    if missing:
        raise ValueError(f"the LER mapping needs labels {missing} missing from the label set")
