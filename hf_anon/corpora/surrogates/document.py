"""What one document's surrogates share, and the dispatch to the per-label rules."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Callable, Iterable

from hf_anon.corpora.placeholders.shapes import nfkc, placeholder_kind
from hf_anon.corpora.surrogates.factory import SurrogateFactory
from hf_anon.corpora.surrogates.namebook import NameBook, NameMention, name_mention
from hf_anon.corpora.surrogates.registry import SURROGATES, supported_labels
from hf_anon.corpora.surrogates.tables import DATE_STYLES
from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.names import gender_after, gender_cue, split_name, split_titles, words_before


class DocumentSurrogates:
    """Everything one document's surrogates share: the factory, the caches that keep
    one entity's surrogate stable, and document-wide choices (base year, date style).

    ``spans`` (sorted) and ``labels`` (one per span: the label to fill, ``unknown``
    already resolved) describe the document; :meth:`surrogate` gives span ``i`` its
    value. Names of people (the person labels of ``label_set``) are rendered by the
    :class:`~hf_anon.corpora.surrogates.namebook.NameBook` ``names`` after :meth:`read_names`;
    every other label by its rule in :data:`~hf_anon.corpora.surrogates.registry.SURROGATES`.
    The rules keep their per-document state here: ``address_kinds`` (span → what kind of
    address), ``dates`` (span → the date drawn and its style, so that a range ends after
    it starts), ``last_dates`` (label → the latest date of the facts or proceedings).
    """

    def __init__(
        self,
        factory: SurrogateFactory,
        text: str,
        spans: list[Span],
        labels: list[str],
        *,
        label_set: LabelSet = DEFAULT_LABELS,
        names: NameBook | None = None,
    ):
        self.factory = factory
        self.text = text
        self.spans = spans
        self.labels = labels
        self.person_labels = label_set.person_labels
        self.guessed: set[int] = set()
        self.cache: dict[tuple[str, str], str] = {}
        self.used: dict[str, set[str]] = {}
        self.names = names if names is not None else NameBook(factory)
        self.mentions: dict[int, NameMention] = {}
        self.address_kinds: dict[int, str] = {}
        self.dates: dict[int, tuple[dt.date, str]] = {}
        self.last_dates: dict[str, dt.date] = {}
        years = [
            int(y)
            for span, label in zip(spans, labels, strict=True)
            if label.startswith("date")
            for y in re.findall(r"\b(?:19|20)\d{2}\b", text[span.start : span.end])
        ]
        self.year = max(years) if years else factory.rng.randint(2015, 2023)
        self.date_style = factory.rng.choice(DATE_STYLES)

    # -- shared machinery
    def context(self, i: int) -> tuple[str, str, str]:
        span = self.spans[i]
        return (
            self.text[span.start : span.end],
            self.text[max(0, span.start - 80) : span.start],
            self.text[span.end : span.end + 40],
        )

    def fresh(self, label: str) -> str:
        """A value of the label that ignores the original's shape: the fallback when every
        shape-keeping surrogate equals the original (``VU/20`` has no digits to vary)."""
        f = self.factory
        if label == "court-docket":
            return f.docket_number()
        if label in ("id-number", "jur-idx", "car-idx", "address-idx"):
            return f.reference_number()
        return "[…]"

    def value(self, label: str, key: str | None, make: Callable[[], str], original: str) -> str:
        """A surrogate from ``make``, cached under ``key`` (None: a fresh one), never equal
        to ``original`` and, where possible, distinct from this label's other surrogates."""
        if key is not None and (label, key) in self.cache:
            return self.cache[(label, key)]
        used = self.used.setdefault(label, set())
        makers = [make] * 200 + [lambda: self.fresh(label)] * 50
        for attempt, maker in enumerate(makers):
            candidate = maker()
            if candidate != original and (candidate not in used or attempt >= 20):
                break
        else:
            raise RuntimeError(f"no surrogate for {label} {original!r} differs from it")
        used.add(candidate)
        if key is not None:
            self.cache[(label, key)] = candidate
        return candidate

    @staticmethod
    def key(text: str) -> str | None:
        """Equal texts hide equal entities, except those with ``…`` that could hide anything
        (``…straße …`` twice is two streets; ``X-Straße 1`` twice is one)."""
        text = nfkc(text).strip()
        return None if "…" in text or ".." in text else text

    def surrogate(self, i: int, label: str) -> str:
        """The surrogate of span ``i`` as ``label``: a name from the name book, else the
        value of the label's rule (cached per entity, never the original)."""
        if label in self.person_labels:
            return self.names.render(self.mentions[i])
        rule = SURROGATES.get(label)
        if rule is None:
            raise ValueError(
                f"no surrogates for label {label!r}; known: {sorted(supported_labels())}"
            )
        original = self.context(i)[0]
        key, make = rule(self, i)
        return self.value(label, key, make, original)

    def read_names(self, indices: Iterable[int]) -> None:
        """Take the name spans ``indices`` apart, all at once, so that cues anywhere count
        (``Herr A.`` makes every ``A.`` a man; a surname seen with first names makes
        ``Müllers`` a genitive)."""
        raw = {}
        known_firsts: set[str] = set()
        known_lasts: set[str] = set()
        prefixes: dict[int, str] = {}
        for i in indices:
            text, before, _ = self.context(i)
            prefixes[i], text = split_titles(text)  # gold that wrongly holds `Dr.` keeps it
            firsts, last, comma = split_name(text)
            after = self.text[self.spans[i].end : self.spans[i].end + 200]
            cue = gender_cue(before + " " + prefixes[i]) or gender_after(after)
            raw[i] = (firsts, last, comma, cue)
            known_firsts.update(t for t in firsts if placeholder_kind(t) is None)
            if firsts:
                known_lasts.add(last)
        singles = Counter(r[1] for r in raw.values() if not r[0])
        known_lasts.update(n for n in singles if not n.endswith("s") or n[:-1] not in known_lasts)
        seen: set[str] = set()
        cues: dict[str, Counter] = {}
        for i, (firsts, last, comma, cue) in raw.items():
            mention = name_mention(i, firsts, last, comma, cue, known_firsts, known_lasts)
            key = mention.last_key or mention.first_keys[0]
            # a person whose label was guessed (``unknown``) needs a cue to get a first name
            person = self.labels[i] == "nat-name" and (i not in self.guessed or cue)
            if mention.last_key and person and mention.last_key not in seen:
                kind = placeholder_kind(mention.last or "")
                before = self.context(i)[1]
                line_start = re.search(r"(?:^|\n)[ \t]*(?:\d+\.[ \t]*)?$", before) is not None
                bare = kind == "ellipsis" and not words_before(before, 1)
                mention.introduce = not firsts and (
                    kind in ("initial", "genitive") or bare or (kind == "repeated" and line_start)
                )
            mention.prefix = prefixes[i]
            seen.add(key)
            if cue:
                cues.setdefault(key, Counter())[cue] += 1
            self.mentions[i] = mention
        for key, counter in cues.items():
            self.names.genders[key] = counter.most_common(1)[0][0]
