"""Seeded random documents for the fuzz suite (``tests/apply/test_fuzz.py``).

:func:`make_doc` turns one integer seed into one :class:`FuzzDoc`: a text of hostile
Unicode (CJK, Arabic and Hebrew with bidi controls, combining marks, emoji and ZWJ
sequences, zero-width characters, C0/C1 control characters and NUL, Unicode line and
paragraph separators, optionally lone surrogates), CRLF/CR/LF or mixed line ends, a BOM,
very long lines and tokens, empty and whitespace-only texts, ALL-CAPS documents, from one
character up to megabytes, with realistic values of every label of
:data:`hf_anon.text.labels.DEFAULT_LABELS` (Faker-based, from
:class:`hf_anon.corpora.surrogates.SurrogateFactory`) injected, each entity mentioned one
or more times (as written, in capitals, spread over other whitespace, a name part alone or
in the genitive).

The document knows where each mention is (:attr:`FuzzDoc.mentions`) and which of them an
oracle detector reports (:attr:`FuzzDoc.reported`: all mentions, only the first of each
entity, or the first and a random subset of the others), so that the leak check has to
find the rest.

Every mention stands between characters that are not word characters (``\\w``), as the
leak check matches whole words only: an entity glued to a CJK ideograph is another word,
not a mention. Every mention kind that the leak check promises to find is marked
:attr:`Mention.promised`; only forms that :func:`hf_anon.apply.anonymize.protected_forms`
searches are injected as name parts.

Lone surrogates (``\\ud800``) are legal in a Python ``str`` but not in UTF-8. A document
built with ``surrogates=True`` contains some; :meth:`hf_anon.apply.anonymize.Anonymizer.anonymize`
refuses such text with ``ValueError`` (``not valid Unicode``) before detection, while
:func:`hf_anon.apply.anonymize.engine.replace_spans` works on any ``str`` and keeps them as they
are (its output then needs ``errors="surrogatepass"`` to be written as UTF-8).

Same seed, same document: all randomness comes from one ``random.Random(seed)``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field

from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS

#: Labels whose values must never survive anonymization (risk ``high``).
HIGH_RISK = frozenset(label.name for label in DEFAULT_LABELS if label.risk == "high")

#: Size classes (characters) and their weights; ``huge`` only when asked for.
SIZES = {
    "empty": ((0, 0), 2),
    "blank": ((1, 40), 3),
    "tiny": ((1, 60), 12),
    "small": ((60, 2_000), 55),
    "medium": ((2_000, 20_000), 24),
    "large": ((20_000, 120_000), 4),
}
HUGE_SIZE = 5_000_000

#: Cases run per fuzz test in this process, and what happened in them (printed by
#: ``tests/conftest.py`` at the end of the run).
CASES: Counter[str] = Counter()
STATS: Counter[str] = Counter()


def stats_line() -> str:
    return ", ".join(f"{key} {n}" for key, n in sorted(STATS.items())) or "no stats"


# --- character classes ---------------------------------------------------------------------


def _chars(*ranges: tuple[int, int]) -> str:
    return "".join(chr(c) for lo, hi in ranges for c in range(lo, hi + 1))


CHARSETS: dict[str, str] = {
    "latin": "abcdefghijklmnopqrstuvwxyzäöüßABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜẞ0123456789",
    "cjk": _chars((0x4E00, 0x4FFF), (0x3041, 0x3096), (0x30A1, 0x30FA), (0xAC00, 0xAC7F)),
    "arabic": _chars((0x0621, 0x064A), (0x0660, 0x0669)) + "\u200f\u061c",
    "hebrew": _chars((0x05D0, 0x05EA), (0x05B0, 0x05BD)) + "\u200f",
    "combining": _chars((0x0300, 0x036F), (0x20D0, 0x20F0)),
    "emoji": _chars((0x1F600, 0x1F64F), (0x1F300, 0x1F320), (0x1F1E6, 0x1F1FF))
    + "\u200d\ufe0f\U0001f3fb\U0001f3ff",
    "zero-width": "\u200b\u200c\u200d\u2060\ufeff\u00ad\u034f\u180e",
    "bidi": "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f",
    "control": _chars((0x00, 0x08), (0x0E, 0x1F), (0x7F, 0x9F)),
    "breaks": "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029",
    "spaces": " \t\u00a0\u1680\u2000\u2003\u2007\u200a\u202f\u205f\u3000",
    "punct": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~„“”‚‘’«»–—…§¶°€$",
    "astral": _chars((0x10000, 0x1007F), (0x1D400, 0x1D4FF), (0x20000, 0x2007F)),
    "lookalike": "ＡＢＣａｂｃ１２３ﬁﬂＭüｌｌｅｒİıǅǈ𝐇𝐚𝐧𝐬",
}

#: Separators around a mention: none of them is a word character.
BEFORE = [" ", " ", " ", "\n", "\t", "(", "„", ": ", "\u00a0", "\u200b", "\x00", "\u202e", "\ufeff"]
AFTER = [" ", " ", " ", ", ", ". ", "\n", ")", "“", "\u200b", "\x00", "\u0301", "\u2028", "!"]

#: What a spread-out mention puts where the value has a space.
SPREAD_SPACES = ["\n", "  ", "\t", "\u00a0", "\r\n", " \n ", "\u3000"]

SENTENCES = [
    "Die Klage ist zulässig, aber unbegründet.",
    "Der Kläger verlangt Schadensersatz aus dem Verkehrsunfall.",
    "Die Beklagte beantragt, die Klage abzuweisen.",
    "Die Berufung wird zurückgewiesen.",
    "Die Kosten des Rechtsstreits trägt die Beklagte.",
    "Das Urteil ist vorläufig vollstreckbar.",
    "Die Zeugin hat den Unfall beobachtet.",
    "Tatbestand",
    "Entscheidungsgründe",
    "Im Übrigen wird auf die gewechselten Schriftsätze Bezug genommen.",
    "Der Streitwert wird auf 5.000 € festgesetzt.",
    "Die Parteien streiten über die Wirksamkeit der Kündigung.",
    "IM NAMEN DES VOLKES",
    "hat die Kammer auf die mündliche Verhandlung für Recht erkannt:",
]

LINE_ENDS = {"lf": ["\n"], "crlf": ["\r\n"], "cr": ["\r"], "mixed": ["\n", "\r\n", "\r", "\n\n"]}


# --- the document --------------------------------------------------------------------------


@dataclass(frozen=True)
class Entity:
    """One injected entity: its label and its value as first written."""

    index: int
    label: str
    value: str

    @property
    def high_risk(self) -> bool:
        return self.label in HIGH_RISK


@dataclass(frozen=True)
class Mention:
    """One occurrence of an entity at ``text[start:end]``.

    ``kind``: ``value`` (as first written), ``upper`` (ALL CAPS), ``spread`` (other
    whitespace between its words), ``part`` (a name part or its genitive, only forms the
    leak check searches). ``promised``: the leak check must find it when another mention
    of the entity is reported.
    """

    start: int
    end: int
    entity: int
    label: str
    text: str
    kind: str
    promised: bool = True


@dataclass
class FuzzDoc:
    seed: int
    text: str
    entities: list[Entity] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    reported: list[Span] = field(default_factory=list)
    policy: str = "all"
    features: tuple[str, ...] = ()

    def mentions_of(self, entity: int) -> list[Mention]:
        return [m for m in self.mentions if m.entity == entity]


# --- values ------------------------------------------------------------------------------


def _value(label: str, f, rng: random.Random) -> str:
    """A realistic value of ``label`` from the surrogate factory ``f``."""
    roll = rng.random()
    if label in ("nat-name", "nat-jur"):
        name = f.full_name()
        if roll < 0.15:
            return "Dr. " + name
        if roll < 0.25:
            first, _, last = name.rpartition(" ")
            return f"{last}, {first}"
        return name
    if label == "nat-idx":
        options = [f.profession, f.nationality, f.health_condition, lambda: f.date_text()]
        return rng.choice(options)()
    if label == "jur-name":
        name = f.company_name()
        return name + rng.choice(["", "", " GmbH", " GmbH & Co. KG", " AG", " e.V."])
    if label == "jur-idx":
        return rng.choice([f.register_number, f.tax_number, f.vat_id])()
    if label == "address-name":
        if roll < 0.4:
            return f.street()
        if roll < 0.7:
            return f.postcode_town()
        return f"{f.street()}, {f.postcode_town()}"
    if label == "address-idx":
        return rng.choice([f.floor, f.cellar, f.parking_space, f.parcel_number, f.flat_number])()
    if label == "car-name":
        return f.car()
    if label == "car-idx":
        return f.licence_plate() if roll < 0.7 else f.vin()
    if label == "court-name":
        return f.court()
    if label == "court-docket":
        return f.docket_number() if roll < 0.7 else f.file_reference()
    if label in ("date-fact", "date-world"):
        return f.date_text(with_time=label == "date-fact" and roll < 0.2)
    if label == "id-number":
        kind = rng.choice(["iban", "phone", "email", "url", "contract", "policy", "claim"])
        if kind in ("iban", "phone", "email", "url"):
            return getattr(f, kind)()
        return f.reference_number(kind)
    raise ValueError(f"no values for label {label!r}")


def _parts(label: str, value: str) -> list[str]:
    """The name parts of a person's name that the leak check searches on their own."""
    if label not in DEFAULT_LABELS.person_labels:
        return []
    from hf_anon.apply.anonymize import protected_forms

    forms = protected_forms(value, [Span(0, len(value), label, "high", 1.0)])
    return [form for form in forms if form != value and " " not in form and "," not in form]


# --- filler ------------------------------------------------------------------------------


def _run(rng: random.Random, classes: list[str], n: int) -> str:
    """``n`` random characters of the chosen classes, in words."""
    out = []
    while len(out) < n:
        charset = CHARSETS[rng.choice(classes)]
        out += rng.choices(charset, k=rng.randint(1, 12))
        if rng.random() < 0.5:
            out.append(" ")
    return "".join(out[:n])


def _long_token(rng: random.Random, n: int) -> str:
    kind = rng.random()
    if kind < 0.3:
        return rng.choice("aXß漢") * n
    if kind < 0.6:
        unit = "".join(rng.choices(CHARSETS["latin"] + "-_./", k=rng.randint(3, 40)))
        return (unit * (n // len(unit) + 1))[:n]
    return "".join(rng.choices(CHARSETS["latin"] + CHARSETS["cjk"][:200], k=n))


def _surrogates(rng: random.Random, n: int) -> str:
    return "".join(chr(rng.randint(0xD800, 0xDFFF)) for _ in range(n))


# --- the generator -------------------------------------------------------------------------


def make_doc(
    seed: int,
    *,
    size: str | None = None,
    surrogates: bool | None = None,
    labels: tuple[str, ...] | None = None,
) -> FuzzDoc:
    """The document of ``seed`` (see the module's docstring).

    ``size``: a key of :data:`SIZES` or ``"huge"`` (:data:`HUGE_SIZE` characters; never
    drawn at random); None draws one. ``surrogates``: allow lone surrogates (None: no).
    ``labels``: the labels to inject (None: all of :data:`DEFAULT_LABELS`).
    """
    from hf_anon.corpora.surrogates import SurrogateFactory

    rng = random.Random(seed)
    factory = SurrogateFactory(random.Random(rng.getrandbits(64)))
    if size is None:
        size = rng.choices(list(SIZES), weights=[w for _, w in SIZES.values()])[0]
    if size == "huge":
        target = HUGE_SIZE
    else:
        lo, hi = SIZES[size][0]
        target = rng.randint(lo, hi)
    features: list[str] = [size]
    if size == "empty":
        return FuzzDoc(seed, "", features=tuple(features))
    if size == "blank":
        text = "".join(rng.choices(CHARSETS["spaces"] + CHARSETS["breaks"] + "\r\n\t ", k=target))
        return FuzzDoc(seed, text, features=("blank",))

    classes = rng.sample(sorted(CHARSETS), k=rng.randint(1, len(CHARSETS)))
    if "latin" not in classes:
        classes.append("latin")
    features += classes
    line_ends = LINE_ENDS[rng.choice(list(LINE_ENDS))]
    shout = rng.random() < 0.06
    if shout:
        features.append("shout")
    allow_surrogates = bool(surrogates) and rng.random() < 0.7
    if allow_surrogates:
        features.append("surrogates")

    # entities: more for longer texts
    chosen = list(labels or DEFAULT_LABELS.names)
    n_entities = min(rng.randint(0, 14), 1 + target // 25)
    if size == "huge":
        n_entities = rng.randint(10, 30)
    entities = []
    for i in range(n_entities):
        label = rng.choice(chosen)
        entities.append(Entity(i, label, _value(label, factory, rng)))
    values = [e.value.upper() if shout else e.value for e in entities]
    parts = [_parts(e.label, v) for e, v in zip(entities, values, strict=True)]
    # each entity gets one or more mentions, at random places of the stream
    mentions_left = []
    for e in entities:
        mentions_left += [e.index] * rng.choice([1, 1, 2, 2, 3, 4, 6])
    if target > 200_000:
        mentions_left *= rng.randint(20, 100)  # a long decision names its parties often
    rng.shuffle(mentions_left)

    pieces: list[str] = []
    length = 0
    mentions: list[Mention] = []
    seen: set[int] = set()
    if rng.random() < 0.1:
        pieces.append("\ufeff")
        length += 1
        features.append("bom")

    def emit(piece: str) -> None:
        nonlocal length
        if shout:
            piece = piece.upper()
        pieces.append(piece)
        length += len(piece)

    mention_every = max(1, target // (len(mentions_left) + 1))
    next_mention = rng.randint(0, mention_every)
    while length < target or mentions_left:
        if mentions_left and (length >= next_mention or length >= target):
            index = mentions_left.pop()
            entity = entities[index]
            value = values[index]
            first = index not in seen
            seen.add(index)
            if first:  # the rubrum may shout the first mention
                kind = "upper" if rng.random() < 0.15 else "value"
            else:
                kind = rng.choice(["value", "value", "upper", "spread", "part"])
            surface = value
            if kind == "upper":
                surface = value.upper()
            elif kind == "spread" and " " in value:
                surface = re.sub(" ", lambda _: rng.choice(SPREAD_SPACES), value)
            elif kind == "part" and parts[index]:
                surface = rng.choice(parts[index])
            else:
                kind = "value"
            emit(rng.choice(BEFORE))
            start = length
            pieces.append(surface)  # never upper-cased again: the mention is as written
            length += len(surface)
            mentions.append(Mention(start, length, index, entity.label, surface, kind))
            emit(rng.choice(AFTER))
            next_mention = length + rng.randint(0, mention_every)
            continue
        roll = rng.random()
        room = max(1, target - length)
        if roll < 0.3:
            emit(rng.choice(SENTENCES) + " ")
        elif roll < 0.6:
            emit(_run(rng, classes, min(room, rng.randint(1, 80))))
        elif roll < 0.75:
            emit(rng.choice(line_ends))
        elif roll < 0.8 and room > 500:
            emit(" " + _long_token(rng, rng.randint(500, min(room, 60_000))) + " ")
        elif roll < 0.82 and room > 2000:
            # a very long line: thousands of words without a line end
            n = rng.randint(1000, min(room, 200_000))
            words = rng.choices([*SENTENCES, "und", "der", "§ 823 BGB"], k=n // 10)
            emit(" ".join(words)[:n])
        elif roll < 0.85 and allow_surrogates:
            emit(_surrogates(rng, rng.randint(1, 3)))
        elif roll < 0.9:
            emit(" " + rng.choice(SENTENCES).upper() + " ")
        else:
            emit(_run(rng, ["spaces", "punct", "zero-width"], min(room, rng.randint(1, 10))))
    text = "".join(pieces)
    if allow_surrogates and not any("\ud800" <= c <= "\udfff" for c in text[:1000]):
        text = _surrogates(rng, 1) + " " + text  # at least one, whatever the stream drew
        mentions = [
            Mention(m.start + 2, m.end + 2, m.entity, m.label, m.text, m.kind) for m in mentions
        ]

    policy = rng.choice(["all", "first", "first", "some"])
    reported = []
    risks = DEFAULT_LABELS.risks
    for entity in entities:
        own = [m for m in mentions if m.entity == entity.index]
        if policy == "all":
            keep = own
        elif policy == "first":
            keep = own[:1]
        else:
            # the first mention (the whole value) and some of the others
            keep = own[:1] + [m for m in own[1:] if rng.random() < 0.5]
        for m in keep:
            risk = rng.choice([DEFAULT_LABELS[m.label].risk, None, rng.choice(risks)])
            score = rng.choice([None, 1.0, round(rng.uniform(0.5, 1.0), 3)])
            reported.append(Span(m.start, m.end, m.label, risk, score))
    reported.sort()
    return FuzzDoc(seed, text, entities, mentions, reported, policy, tuple(features))
