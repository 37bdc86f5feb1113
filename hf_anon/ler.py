"""The German LER corpus (Leitner et al. 2019) as span documents in our labels.

LER comes as CoNLL files (``token TAG`` per line, IOB2, 19 fine classes, sentences
shuffled) and as raw running text (``raw/*_timex.txt``: one tokenized sentence a line,
in document order per court, with TimeML ``<TIMEX3>`` tags). Both are decisions of
seven federal courts *as published*, so most person, company and street mentions are
placeholders (``Herrn G.``, ``X GmbH``, ``A-Straße``). This module turns them into
:class:`~hf_anon.data.Document` objects with character spans in the labels of the
annotation guidelines (``../shared/ANNOTATION.md``), builds a placeholder key from LER's
own tags, and pseudonymizes the placeholder mentions so that a model also sees realistic
names.

Reading never drops anything silently: odd lines, unknown tags, ``I-`` without ``B-``,
unbalanced TIMEX tags, sentences not found in the raw text are repaired where the repair
is mechanical and always counted in :class:`Anomalies`.

Detokenization (tokens → natural text, characters, offsets of every token kept)
------------------------------------------------------------------------------
Tokens are joined by one space, except:

=====================================================  ===============================
rule                                                   example
=====================================================  ===============================
no space before ``, . ; : ! ? ) ] }`` (and tokens       ``G. ,`` → ``G.,``; ``9 )`` → ``9)``
starting with one of them, e.g. ``]:``)
no space after ``( [ {``                               ``( vgl.`` → ``(vgl.``
``„ ‚`` open, ``“ ‘`` close what they opened           ``„ a “`` → ``„a“``
(a ``“``/``‘`` with nothing open opens, English style,
and ``”``/``’`` close it)
``"`` and ``'`` alternate open/close in a sentence     ``" A "`` → ``"A"``
``'`` or ``’`` between letters is an apostrophe        ``Pkw ' s`` → ``Pkw's``
``/`` is glued on both sides                           ``BFH / NV`` → ``BFH/NV``
``<`` and a later ``>`` pair up like brackets          ``105 < 108 >`` → ``105 <108>``
``…``/``...`` is glued to a placeholder letter before  ``R … GmbH`` → ``R… GmbH``
a token ``-x`` (hyphen + letter/digit) is glued to     ``A. -Zentrum`` → ``A.-Zentrum``,
the token before, unless that is a conjunction, a      ``100 % -ige`` → ``100 %-ige``,
comma or an opening bracket                            but ``oder -anlässe`` stays
a token ``.1`` (dot + digit) is glued                  ``M1.1 .1`` → ``M1.1.1``
=====================================================  ===============================

Kept with spaces, deliberately: ``%`` and ``€`` after a number (German typography,
DIN 5008: ``40 %``), ``§ 7`` and ``§§ 1, 2``, a dash `` - `` between words, an unpaired
``<`` or ``>`` (a comparison: ``Beatmung > 95``), split dates ``16. 6. 2017`` (the
tokenizer split ``16.6.2017``; nothing in a token says so reliably). LER does not split
numbers (``2.600`` is one token), so no number rule is needed.

Mapping LER classes to our labels (:data:`LER_CLASS_MAPPING`)
-----------------------------------------------------------
======  ===================  ==================  =========================================
class   what                 label               when
======  ===================  ==================  =========================================
PER     person               ``nat-name``        always
RR      judge                ``nat-jur``         always
AN      lawyer               ``nat-jur``         always
LD      country, state       ``None``            public places
ST      city                 ``address-name``    only if it locates a party: placeholder-
                                                 shaped (the court hid it), after a
                                                 postcode, after ``<street> ,`` or after a
                                                 residence word (``wohnhaft in``); else
                                                 ``None`` (seats of courts and authorities,
                                                 places in citations)
STR     street               ``address-name``    except numbered public roads
                                                 (``Bundesstraße 3``, ``B 235``): ``None``
LDS     landscape, region    ``address-name``    only placeholder-shaped (``Gemarkung S.``;
                                                 ``address-idx`` up to three words after
                                                 ``Flurstück``: ``Flurstücke B und C``);
                                                 clear names (``Europa``) ``None``
ORG     organization         ``jur-name``        only private ones: with a placeholder part
                                                 (``K-Klinik``) or a private legal form
                                                 (``e. V.``, ``mbH``); a clear name the court
                                                 published (``ver.di``, ``EU``) is ``None``
UN      company              ``jur-name``        always
INN     public institution   ``None``            public bodies
GRT     court                ``court-name``      always
MRK     brand                ``car-name``        only vehicle makes and models
                                                 (:data:`VEHICLE_MAKES`); trademarks in
                                                 register disputes are public: ``None``
GS      law                  ``None``            statutes are public
VO      ordinance            ``None``
EUN     European norm        ``None``
VS      regulation           ``None``
VT      contract             ``None``            LER's contracts are collective and works
                                                 agreements and state treaties (``TVöD``,
                                                 ``BV 97``), cited like statutes
RS      court decision       ``None``            cited decisions are public
LIT     literature           ``None``
======  ===================  ==================  =========================================

Span boundaries: LER → hf-anon's guidelines (applied to every sensitive mention, in order)
----------------------------------------------------------------------------------------
===================================================  ===================================
rule                                                 example
===================================================  ===================================
edge punctuation and quote tokens are outside        ``„ Limmer “`` → ``Limmer``
leading titles, salutations, roles, ``Firma``,       ``Herrn G.`` → ``G.``,
``Az.`` are outside (:data:`LEADING_WORDS`)          ``Prof. Dr. med. K.`` → ``K.``
a comma or semicolon ends a span (not after a       ``W. und M. L.`` → ``W.``, ``M. L.``
truncated word: ``Haus- , Wohnungs-``); for persons
also ``und``/``oder``/``sowie``/``bzw.``/``/``/``&``
trailing legal forms are outside ``jur-name``        ``R … GmbH & Co. KG`` → ``R…``,
(:data:`LEGAL_FORMS`), also glued with a hyphen      ``X-GmbH`` → ``X``
===================================================  ===================================

LER's person spans do not include titles (``Herrn``/``Dr.`` stand before them), but its
company spans include legal forms and some spans include quotes; the rules above are
applied regardless, so the result does not depend on that.

Placeholders
------------
:func:`is_placeholder_mention` is a shape rule on a mention's text, independent of the
context-based detector in :mod:`hf_anon.placeholders`: every whitespace-separated part
is a placeholder part (see :func:`is_placeholder_part`: ``G.``, ``A``, ``B1``, ``Ts.``,
``A. B.``, ``A-Straße``, ``…``, ``K…``, ``Xxxxx``, ``Ａ``), where a lower-case word
right after a placeholder part continues it (``K. straße``). :func:`ler_placeholder_key`
keeps these parts of sensitive person, company and address mentions as a placeholder
key; :func:`pseudonymize_ler` replaces such mentions with surrogates. A person mention
counts only as a whole (``K. Schmidt`` is a judge's initial and name); a company or
address mention with a placeholder part (``Ekliniken M-R``) is replaced as a whole.

Documents
---------
CoNLL sentences are shuffled, but every one of them is a line of the raw text:
:func:`locate_sentences` finds it there, and :func:`group_sentences` puts the sentences
of a split back into reading order per court before cutting documents of N sentences
(``ler-dev-00001``; domain = court). Without the raw text, the file order is kept
(domain ``ler``). Sentences are joined with ``\n``.

Raw files become decisions where the text marks their ends: BAG and BGH decisions end
with the judges' names, one a line (:func:`decision_ends`); the other courts' texts do
not, so they are cut into N-sentence chunks (``ler-raw-bgh-00001``, domain = court).
TIMEX3 ``DATE`` stretches are kept as ``meta["timex_dates"]`` (``[start, end]``
characters); they come from an automatic tagger and include docket numbers read as
years (the ``1725`` of ``1 K 1725/14``).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from hf_anon.data import Document, Span
from hf_anon.labels import DEFAULT_LABELS, LabelSet

# --- classes and the mapping table ----------------------------------------------------

LER_CLASSES: tuple[str, ...] = (
    "PER", "RR", "AN", "LD", "ST", "STR", "LDS", "ORG", "UN", "INN",
    "GRT", "MRK", "GS", "VO", "EUN", "VS", "VT", "RS", "LIT",
)  # fmt: skip


@dataclass(frozen=True)
class ClassMapping:
    """One row of the mapping table: a LER class, our label, and when it applies.

    ``conditional`` rows give their label only when :func:`map_mention`'s rule for the
    class says so (the ``rule`` text documents it); otherwise the mention is not
    sensitive.
    """

    ler_class: str
    description: str
    label: str | None
    conditional: bool = False
    rule: str = ""


LER_CLASS_MAPPING: dict[str, ClassMapping] = {
    row.ler_class: row
    for row in (
        ClassMapping("PER", "person", "nat-name"),
        ClassMapping("RR", "judge", "nat-jur"),
        ClassMapping("AN", "lawyer", "nat-jur"),
        ClassMapping("LD", "country", None, rule="countries and states are public"),
        ClassMapping(
            "ST",
            "city",
            "address-name",
            True,
            "placeholder-shaped, after a postcode, after '<street> ,' or a residence word",
        ),
        ClassMapping("STR", "street", "address-name", True, "not a numbered public road (B 235)"),
        ClassMapping(
            "LDS",
            "landscape",
            "address-name",
            True,
            "placeholder-shaped only (address-idx after 'Flurstück')",
        ),
        ClassMapping(
            "ORG",
            "organization",
            "jur-name",
            True,
            "with a placeholder part or a private legal form",
        ),
        ClassMapping("UN", "company", "jur-name"),
        ClassMapping("INN", "institution", None, rule="public bodies"),
        ClassMapping("GRT", "court", "court-name"),
        ClassMapping("MRK", "brand", "car-name", True, "vehicle makes and models only"),
        ClassMapping("GS", "law", None, rule="statutes are public"),
        ClassMapping("VO", "ordinance", None, rule="public norms"),
        ClassMapping("EUN", "European norm", None, rule="public norms"),
        ClassMapping("VS", "regulation", None, rule="public norms"),
        ClassMapping("VT", "contract", None, rule="collective agreements, treaties"),
        ClassMapping("RS", "court decision", None, rule="cited decisions are public"),
        ClassMapping("LIT", "literature", None, rule="public"),
    )
}

#: Classes whose placeholder parts go into the placeholder key and get pseudonymized.
KEY_CLASSES = frozenset({"PER", "RR", "AN", "UN", "ORG", "ST", "STR", "LDS"})
#: Labels of persons: a person mention is a placeholder only as a whole (``K. Schmidt``
#: is a judge's initial and name, not a placeholder).
PERSON_LABELS = frozenset({"nat-name", "nat-jur"})
#: Labels that :func:`pseudonymize_ler` replaces when their text is a placeholder.
PSEUDONYMIZED_LABELS = frozenset({"nat-name", "nat-jur", "jur-name", "address-name", "address-idx"})

VEHICLE_MAKES = frozenset(
    {
        "VW", "Volkswagen", "Audi", "BMW", "Mercedes", "Mercedes-Benz", "Porsche", "Opel",
        "Ford", "Toyota", "Jaguar", "Land Rover", "Range Rover", "Skoda", "Škoda", "Seat",
        "Renault", "Peugeot", "Citroën", "Fiat", "Ferrari", "Volvo", "Tesla", "Hyundai",
        "Kia", "Mazda", "Nissan", "Honda", "Ducati", "Harley-Davidson", "Smart", "Mini",
        "Dacia", "Suzuki", "Mitsubishi", "Lexus", "Alfa Romeo", "Lamborghini", "Bentley",
        "Golf", "Passat", "Polo", "Tiguan", "Touran", "Sharan", "Cayenne", "Sprinter",
    }
)  # fmt: skip

# --- boundary word lists --------------------------------------------------------------

#: Leading tokens outside a span (titles, salutations, roles, ``Firma``, ``Az.``).
LEADING_WORDS = frozenset(
    {
        "Herr", "Herrn", "Frau", "Hr.", "Fr.", "Dr.", "Prof.", "Dipl.-Ing.", "Dipl.", "Ing.",
        "Firma", "Fa.", "Az.", "Aktenzeichen", "Rechtsanwalt", "Rechtsanwältin", "RA", "RAin",
        "Patentanwalt", "Patentanwältin", "Notar", "Notarin", "Richter", "Richterin", "RiBGH",
        "Zeuge", "Zeugin", "Kläger", "Klägerin", "Beklagte", "Beklagter", "Angeklagte",
        "Angeklagter", "Sachverständige", "Sachverständiger",
    }
)  # fmt: skip
#: Academic suffixes that are outside only right after a title (``Dr. med.``, ``h. c.``).
TITLE_SUFFIXES = frozenset({"med.", "dent.", "jur.", "rer.", "nat.", "pol.", "phil.", "h.", "c."})
#: Punctuation tokens outside a span at its edges.
EDGE_PUNCTUATION = frozenset(
    {"„", "“", "”", '"', "'", "‚", "‘", "’", "«", "»", "(", ")", "[", "]", ",", ";", ":",
     "-", "–", "/"}
)  # fmt: skip
#: Tokens that end a span (a list of names or a name and a place).
SEPARATORS = frozenset({",", ";"})
#: Further separators between person names.
PERSON_SEPARATORS = frozenset({"und", "oder", "sowie", "bzw.", "/", "&"})
#: Legal forms outside a jur-name span (single tokens; ``&``/``Co.`` only between them).
LEGAL_FORMS = frozenset(
    {
        "GmbH", "gGmbH", "mbH", "AG", "KG", "KGaA", "OHG", "oHG", "GbR", "UG", "eG", "SE",
        "e.V.", "e.K.", "Inc.", "Inc", "Ltd.", "Ltd", "LLC", "LLP", "S.A.", "SA", "S.p.A.",
        "SpA", "B.V.", "BV", "N.V.", "NV", "plc", "PLC", "Corp.", "AB", "A/S", "ApS",
        "SARL", "Sarl", "EWIV", "PartG", "PartGmbB", "mbB", "VVaG", "Aktiengesellschaft",
        "Kommanditgesellschaft",
    }
)  # fmt: skip
#: Two-token legal forms as the tokenizer splits them (``e. V.``).
LEGAL_FORM_PAIRS = frozenset(
    {("e.", "V."), ("e.", "K."), ("B.", "V."), ("N.", "V."), ("S.", "A."), ("a.", "G.")}
)
LEGAL_FORM_JOINERS = frozenset({"&", "Co.", "Co", "und"})
RE_GLUED_LEGAL_FORM = re.compile(
    r"^(?P<name>.*?[^\s-])-(?:GmbH|gGmbH|AG|KG|KGaA|OHG|GbR|UG|eG|SE|EWIV|mbH|Ltd\.?|Inc\.?)$"
)

RESIDENCE_WORDS = frozenset(
    {"wohnhaft", "wohnhafte", "wohnhaften", "wohnt", "wohnte", "wohnen", "Wohnsitz", "Wohnort"}
)
RE_POSTCODE = re.compile(r"^\d{5}$")
RE_PUBLIC_ROAD = re.compile(r"^(?:Bundesstraße|Bundesautobahn|Autobahn|[ABLK])\s*\d+\b")

# --- anomalies ------------------------------------------------------------------------


@dataclass
class Anomalies:
    """Counts of everything unusual met while reading, with a few examples each.

    ``counts`` are problems that were repaired or skipped; ``notes`` are quirks of the
    data that needed no repair but are worth knowing (CRLF line ends, very long
    sentences, TIMEX3 tags inside tokens).
    """

    counts: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    notes: Counter = field(default_factory=Counter)
    max_examples: int = 3

    def note(self, kind: str, n: int = 1) -> None:
        self.notes[kind] += n

    def add(self, kind: str, example: str = "", n: int = 1) -> None:
        self.counts[kind] += n
        if example:
            shown = self.examples.setdefault(kind, [])
            if len(shown) < self.max_examples:
                shown.append(example)

    def update(self, other: Anomalies) -> None:
        self.notes.update(other.notes)
        for kind, n in other.counts.items():
            self.counts[kind] += n
            for example in other.examples.get(kind, []):
                shown = self.examples.setdefault(kind, [])
                if len(shown) < self.max_examples:
                    shown.append(example)

    def __bool__(self) -> bool:
        return bool(self.counts)

    def format(self) -> str:
        lines = ["anomalies (repaired or skipped):" if self.counts else "anomalies: none"]
        for kind, n in sorted(self.counts.items()):
            shown = "; ".join(self.examples.get(kind, []))
            lines.append(f"  {n:9,}  {kind}" + (f"   e.g. {shown}" if shown else ""))
        if self.notes:
            lines.append("notes (quirks, nothing changed):")
            lines += [f"  {n:9,}  {kind}" for kind, n in sorted(self.notes.items())]
        return "\n".join(lines)


# --- reading CoNLL --------------------------------------------------------------------


@dataclass(frozen=True)
class Mention:
    """An entity mention in token positions ``[start, end)`` of one sentence."""

    ler_class: str
    start: int
    end: int


@dataclass
class LerSentence:
    """One CoNLL sentence: tokens, IOB2 tags, and where it came from.

    ``index`` is the sentence's position in its file (0-based), ``line`` the file line
    of its first token (1-based): enough to find it again.
    """

    tokens: list[str]
    tags: list[str]
    source: str = ""
    index: int = 0
    line: int = 0

    def mentions(self) -> list[Mention]:
        """Entity mentions from the IOB2 tags (tags are repaired on reading)."""
        found: list[Mention] = []
        start, cls = None, None
        for i, tag in enumerate([*self.tags, "O"]):
            if start is not None and (tag == "O" or tag.startswith("B-") or tag[2:] != cls):
                found.append(Mention(cls, start, i))
                start, cls = None, None
            if tag.startswith("B-") or (tag.startswith("I-") and start is None):
                start, cls = i, tag[2:]
        return found


RE_TAG = re.compile(r"[BIESU]-(?:" + "|".join(LER_CLASSES) + ")", re.IGNORECASE)


def _repair_tag(tag: str, previous: str, where: str, anomalies: Anomalies) -> str:
    """An IOB2 tag of a known class; odd ones repaired (and counted), unknown ones O."""
    if tag == "O":
        return tag
    prefix, _, cls = tag.partition("-")
    if not cls:
        anomalies.add("tag without class (tagged O)", f"{where}: {tag!r}")
        return "O"
    if prefix.upper() in {"S", "U", "E", "L"}:
        anomalies.add("IOBES prefix (converted to IOB2)", f"{where}: {tag!r}")
        prefix = "B" if prefix.upper() in {"S", "U"} else "I"
    if f"{prefix}-{cls}" != f"{prefix}-{cls}".upper() and cls.upper() in LER_CLASSES:
        anomalies.add("lower-case tag (upper-cased)", f"{where}: {tag!r}")
        prefix, cls = prefix.upper(), cls.upper()
    if prefix not in {"B", "I"} or cls not in LER_CLASSES:
        anomalies.add(f"unknown tag {tag!r} (tagged O)", where)
        return "O"
    if prefix == "I" and previous[2:] != cls:
        anomalies.add("I- without B- (repaired to B-)", f"{where}: {tag}")
        prefix = "B"
    return f"{prefix}-{cls}"


def _lines(text: str) -> list[str]:
    """Split at LF, CRLF or CR only (``str.splitlines`` also splits at U+2028 and others)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _parse_conll_line(
    line: str, where: str, previous: str, anomalies: Anomalies
) -> list[tuple[str, str]]:
    """``token TAG`` → ``[(token, tag)]``; more fields become several tokens."""
    fields = line.split()
    if len(fields) == 1:
        if fields[0] == "O" or RE_TAG.fullmatch(fields[0]):
            anomalies.add("line with a tag and no token (skipped)", where)
            return []
        anomalies.add("line with a token and no tag (tagged O)", f"{where}: {line!r}")
        return [(fields[0], "O")]
    *tokens, tag = fields
    if len(tokens) > 1:
        anomalies.add("line with more than two fields (split into tokens)", f"{where}: {line!r}")
    tag = _repair_tag(tag, previous, where, anomalies)
    inside = "O" if tag == "O" else f"I-{tag[2:]}"
    return [(token, tag if i == 0 else inside) for i, token in enumerate(tokens)]


def read_conll(
    path: str | Path, anomalies: Anomalies | None = None
) -> tuple[list[LerSentence], Anomalies]:
    """Read a LER CoNLL file into sentences; return them with what was unusual.

    Handles CRLF line ends and a byte order mark, skips ``-DOCSTART-`` lines, repairs
    tags (see :func:`_repair_tag`). Every repair is counted in the returned
    :class:`Anomalies` (a fresh one unless ``anomalies`` is given).
    """
    path = Path(path)
    anomalies = anomalies if anomalies is not None else Anomalies()
    raw = path.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        anomalies.add("byte order mark (removed)", path.name)
        raw = raw[3:]
    text = raw.decode("utf-8")
    if "\r\n" in text:
        anomalies.note(f"{path.name}: CRLF line ends (read as LF)", text.count("\r\n"))
    sentences: list[LerSentence] = []
    tokens: list[str] = []
    tags: list[str] = []
    first_line = 0

    def close() -> None:
        nonlocal tokens, tags
        if tokens:
            sentences.append(LerSentence(tokens, tags, path.name, len(sentences), first_line))
        tokens, tags = [], []

    for number, line in enumerate(_lines(text), start=1):
        if not line.strip():
            close()
            continue
        if line.split()[0] == "-DOCSTART-":
            anomalies.add("-DOCSTART- line (skipped)", f"{path.name}:{number}")
            close()
            continue
        if not tokens:
            first_line = number
        for token, tag in _parse_conll_line(
            line, f"{path.name}:{number}", tags[-1] if tags else "O", anomalies
        ):
            tokens.append(token)
            tags.append(tag)
    close()
    _note_sentence_shapes(path.name, sentences, anomalies)
    return sentences, anomalies


def _note_sentence_shapes(
    name: str, sentences: Sequence[LerSentence], anomalies: Anomalies
) -> None:
    lengths = [len(s.tokens) for s in sentences]
    anomalies.note(f"{name}: sentences", len(sentences))
    anomalies.note(f"{name}: one-token sentences", lengths.count(1))
    anomalies.note(f"{name}: sentences over 200 tokens", sum(n > 200 for n in lengths))
    anomalies.note(f"{name}: tokens in the longest sentence", max(lengths, default=0))


# --- detokenization -------------------------------------------------------------------

OPEN, CLOSE, INFIX, GLUE_LEFT, PLAIN = "open", "close", "infix", "glue-left", "plain"
CLOSING_FIRST_CHARS = frozenset(",.;:!?)]}")
HYPHEN_BREAKERS = frozenset({"und", "oder", "sowie", "bzw", "bzw.", "als", "wie", "noch", ","})
RE_ELLIPSIS = re.compile(r"^(?:\.{2,}|…+)$")
RE_PLACEHOLDER_LETTER = re.compile(r"^[A-ZÄÖÜ]\d{0,2}$")


@dataclass
class _QuoteState:
    double: bool = False
    single: bool = False
    low: int = 0
    low_single: int = 0
    english: int = 0
    english_single: int = 0


APOSTROPHE_TAILS = frozenset({"s", "t", "n", "ne", "nen", "m", "d", "ll", "re", "ve"})


def _is_apostrophe(tok: str, prev: str | None, nxt: str | None, q: _QuoteState) -> bool:
    """``Pkw ' s``, ``geht ' s``, ``d ’ aspiration``: an apostrophe, not a quote."""
    if not (prev and nxt and prev[-1].isalnum() and nxt[0].isalnum()):
        return False
    if tok == "'":
        return not q.single and nxt in APOSTROPHE_TAILS
    return nxt in APOSTROPHE_TAILS or len(prev) == 1


def _quote_role(tok: str, prev: str | None, nxt: str | None, q: _QuoteState) -> str | None:
    """The role of a quote token, updating which quotes are open; None if not a quote."""
    if tok == '"':
        q.double = not q.double
        return OPEN if q.double else CLOSE
    if tok in {"'", "’"} and _is_apostrophe(tok, prev, nxt, q):
        return INFIX
    if tok == "'":
        q.single = not q.single
        return OPEN if q.single else CLOSE
    if tok in {"„", "»"}:
        q.low += 1
        return OPEN
    if tok == "‚":
        q.low_single += 1
        return OPEN
    if tok == "“":
        if q.low:
            q.low -= 1
            return CLOSE
        q.english += 1
        return OPEN
    if tok in {"”", "«"}:
        q.english = max(0, q.english - 1)
        return CLOSE
    if tok == "‘":
        if q.low_single:
            q.low_single -= 1
            return CLOSE
        q.english_single += 1
        return OPEN
    if tok == "’":
        q.english_single = max(0, q.english_single - 1)
        return CLOSE
    return None


def _token_role(tok: str, prev: str | None, nxt: str | None, q: _QuoteState) -> str:
    """How a token attaches to its neighbours (see the module docstring's table)."""
    if tok[0].isalnum():  # words and numbers: the common case, nothing to decide
        return PLAIN
    role = _quote_role(tok, prev, nxt, q)
    if role is not None:
        return role
    if tok in {"(", "[", "{"}:
        return OPEN
    if tok == "/":
        return INFIX
    if RE_ELLIPSIS.match(tok):
        return GLUE_LEFT if prev and RE_PLACEHOLDER_LETTER.match(prev) else PLAIN
    if tok[0] in CLOSING_FIRST_CHARS and not re.match(r"^\.\d", tok):
        return CLOSE
    if re.match(r"^\.\d", tok):
        return GLUE_LEFT
    if len(tok) > 1 and tok[0] == "-" and tok[1].isalnum() and prev is not None:
        return PLAIN if prev in HYPHEN_BREAKERS else GLUE_LEFT
    return PLAIN


def _angle_pairs(tokens: Sequence[str]) -> set[int]:
    """Positions of ``<`` and ``>`` that pair up as brackets (each ``>`` closes the
    nearest open ``<``); the others are comparison signs."""
    paired: set[int] = set()
    open_at: int | None = None
    for i, tok in enumerate(tokens):
        if tok == "<":
            open_at = i
        elif tok == ">" and open_at is not None:
            paired |= {open_at, i}
            open_at = None
    return paired


def detokenize(tokens: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """Join tokens into natural German text; return it and each token's ``(start, end)``.

    Offsets are characters into the returned text, so ``text[start:end] == token`` for
    every token. Tokens must be non-empty and free of whitespace.
    """
    parts: list[str] = []
    offsets: list[tuple[int, int]] = []
    quotes = _QuoteState()
    angles = _angle_pairs(tokens)
    position = 0
    previous_role = OPEN  # nothing before the first token
    for i, tok in enumerate(tokens):
        if not tok or any(ch.isspace() for ch in tok):
            raise ValueError(f"token {i} {tok!r}: tokens must be non-empty without whitespace")
        prev = tokens[i - 1] if i else None
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        role = _token_role(tok, prev, nxt, quotes)
        if i in angles:
            role = OPEN if tok == "<" else CLOSE
        glued = previous_role in {OPEN, INFIX} or role in {CLOSE, INFIX, GLUE_LEFT}
        if i and not glued:
            parts.append(" ")
            position += 1
        parts.append(tok)
        offsets.append((position, position + len(tok)))
        position += len(tok)
        previous_role = role
    return "".join(parts), offsets


# --- placeholders ---------------------------------------------------------------------

_CAP = "A-ZÄÖÜ"
STREET_SUFFIXES = ("straße", "str\\.", "weg", "platz", "allee", "gasse", "ring", "damm", "ufer")
_LOW = "a-zäöüß"
RE_PLACEHOLDER_SHAPES: tuple[re.Pattern[str], ...] = (
    re.compile(rf"^[{_CAP}]\d{{0,2}}\.?-?$"),  # A  A.  B1  C-
    re.compile(rf"^[{_CAP}][{_LOW}]{{1,2}}\.$"),  # Ts.  Sch.
    re.compile(rf"^(?:[{_CAP}]\.){{2,}}$"),  # A.B.  N.N.
    re.compile(rf"^[{_CAP}]\d?\.?(?:-[{_CAP}]\d?\.?)*-[\w.ÄÖÜäöüß]+$"),  # A-Straße  M-R
    re.compile(r"^(?:\.{2,}|…+)$"),  # ...  …
    re.compile(rf"^[{_CAP}][{_LOW}]{{0,2}}\d{{0,2}}(?:\.{{2,}}|…)[{_LOW}]*\.?$"),  # K…  B1…  B...s
    re.compile(rf"^[{_CAP}]-?(?:{'|'.join(STREET_SUFFIXES)})$"),  # Kstraße  K-weg
    re.compile(rf"^(?:\.{{3,}}|…)[{_LOW}-]+$"),  # …straße
    re.compile(r"^(?i:([a-z])\1{2,})\.?(?:-[\w.ÄÖÜäöüß]+)?$"),  # Xxxxx  XXX  Xxxxx-Weg
    re.compile(r"^[\uFF21-\uFF3A\uFF41-\uFF5A]+[.．]?$"),  # Ａ  Ｂ．
)
#: Words of a placeholder shape that are ordinary words or abbreviations.
NOT_PLACEHOLDERS = frozenset(
    {
        "Dr.", "Hr.", "Fr.", "Nr.", "Rn.", "Bd.", "Abs.", "Art.", "Anl.", "Kap.", "Vgl.", "Bl.",
        "Ls.", "Co.", "Ca.", "Bsp.", "Ggf.", "Tel.", "Str.", "Pkt.", "Tz.", "Bzw.", "Inc.",
        "Ltd.", "Eng.", "Mio.", "Mrd.", "Std.", "Min.", "Gem.", "Gew.", "Hs.", "Tab.", "Urt.",
        "Ziff.",
        "E-Mail", "E-Mails", "U-Bahn", "S-Bahn", "T-Shirt", "T-Shirts", "D-Mark", "X-Ray",
        "A-Klasse", "B-Klasse", "C-Klasse", "E-Klasse", "S-Klasse", "G-Klasse", "V-Klasse",
        "U-Haft", "V-Mann", "V-Leute", "V-Person", "E-Bike", "E-Auto", "E-Book", "K-Frage",
        "X-Chromosom", "Y-Chromosom", "B-Plan", "C-Waffen", "A-Waffen", "T-Zellen", "O-Ton",
    }
)  # fmt: skip
#: Lower-case words that never continue a placeholder (function words).
NOT_CONTINUATIONS = frozenset(
    {"und", "oder", "in", "im", "am", "an", "bei", "von", "vom", "zu", "zur", "zum", "der",
     "die", "das", "des", "dem", "den", "sowie", "bzw.", "u.", "mit", "aus", "für", "et",
     "al.", "alt", "neu"}
)  # fmt: skip
PART_EDGE_CHARS = "\"'„“”‚‘’«»()[]{},;:!?"


def is_placeholder_part(part: str) -> bool:
    """Whether one whitespace-free word has the shape of a placeholder.

    Shapes: a capital letter with optional digits, period or trailing hyphen (``G.``,
    ``B1``); a capital and one or two small letters with a period (``Ts.``); glued
    initials (``A.B.``); a letter with a hyphen suffix (``A-Straße``, ``M-R``); ellipses
    and letters with ellipses (``…``, ``K…``, ``…straße``); one letter repeated
    (``Xxxxx``); full-width letters (``Ａ``). Quotes and brackets around it are ignored.
    """
    core = part.strip(PART_EDGE_CHARS)
    if not core or core in NOT_PLACEHOLDERS:
        return False
    return any(shape.match(core) for shape in RE_PLACEHOLDER_SHAPES)


def _continues(word: str) -> bool:
    return word[0].islower() and word not in NOT_CONTINUATIONS


def _word_cores(text: str) -> list[tuple[int, int, str]]:
    """Whitespace-separated words without surrounding quotes/brackets: (start, end, word)."""
    cores = []
    for match in re.finditer(r"\S+", text):
        word = match.group()
        core = word.strip(PART_EDGE_CHARS)
        if core:
            start = match.start() + word.index(core)
            cores.append((start, start + len(core), core))
    return cores


def _legal_form_words(words: Sequence[str]) -> set[int]:
    """Positions of words that are legal forms (``GmbH``, both words of ``e. V.``)."""
    found = {i for i, word in enumerate(words) if word in LEGAL_FORMS}
    for i, pair in enumerate(pairwise(words)):
        if pair in LEGAL_FORM_PAIRS:
            found |= {i, i + 1}
    return found


def placeholder_parts(text: str) -> list[tuple[int, int]]:
    """Character ranges of maximal runs of placeholder parts in ``text``.

    ``"VEB Elektronik G."`` → ``[(15, 17)]``; a lower-case word right after a
    placeholder part continues the run (``K. straße``); legal forms (``e. V.``) are
    never placeholder parts.
    """
    runs: list[tuple[int, int]] = []
    previous_in_run = False
    cores = _word_cores(text)
    legal = _legal_form_words([word for _, _, word in cores])
    for i, (start, end, word) in enumerate(cores):
        if i in legal:
            previous_in_run = False
        elif previous_in_run and _continues(word):
            runs[-1] = (runs[-1][0], end)
        elif is_placeholder_part(word):
            if previous_in_run:
                runs[-1] = (runs[-1][0], end)
            else:
                runs.append((start, end))
            previous_in_run = True
        else:
            previous_in_run = False
    return runs


def is_placeholder_mention(text: str) -> bool:
    """Whether a mention's text is a placeholder as a whole (``G.``, ``A. B.``,
    ``A-Straße``, ``X``, ``…``, ``Xxxxx``, ``Ａ``, ``" A "``), not a name.

    Every word must be a placeholder part (:func:`is_placeholder_part`) or a lower-case
    continuation of one: ``K. Schmidt`` and ``X GmbH`` are not (strip the legal form
    first, as the span rules do).
    """
    cores = _word_cores(text)
    return bool(cores) and placeholder_parts(text) == [(cores[0][0], cores[-1][1])]


def should_pseudonymize(text: str, label: str) -> bool:
    """Whether a span with this text and label gets a surrogate.

    Person spans only when they are placeholders as a whole; company and address spans
    also when a part is (``Ekliniken M-R`` gets a whole new company name).
    """
    if label not in PSEUDONYMIZED_LABELS:
        return False
    if is_placeholder_mention(text):
        return True
    return label not in PERSON_LABELS and bool(placeholder_parts(text))


# --- mentions → spans -----------------------------------------------------------------


def _text_of(tokens: Sequence[str], start: int, end: int) -> str:
    return detokenize(tokens[start:end])[0] if end > start else ""


def _is_public_road(text: str) -> bool:
    return bool(RE_PUBLIC_ROAD.match(text))


def _has_private_legal_form(tokens: Sequence[str]) -> bool:
    pairs = set(pairwise(tokens))
    return any(t in LEGAL_FORMS for t in tokens) or bool(pairs & LEGAL_FORM_PAIRS)


def _city_locates_party(sentence: LerSentence, mention: Mention, text: str) -> bool:
    """ST rule: placeholder, or part of an address, or after a residence word."""
    if placeholder_parts(text):
        return True
    before = sentence.tokens[max(0, mention.start - 3) : mention.start]
    if before and RE_POSTCODE.match(before[-1]):
        return True
    if before and before[-1] == "," and mention.start >= 2:
        street_tag = sentence.tags[mention.start - 2]
        if street_tag.endswith("-STR"):
            return True
    return any(word in RESIDENCE_WORDS for word in before)


def _vehicle(text: str) -> bool:
    words = text.strip(PART_EDGE_CHARS + " ").split()
    return any(
        " ".join(words[i : i + n]) in VEHICLE_MAKES for n in (1, 2) for i in range(len(words))
    )


def map_mention(sentence: LerSentence, mention: Mention) -> str | None:
    """Our label for a LER mention in its sentence, or None if it is not sensitive.

    Unconditional rows of :data:`LER_CLASS_MAPPING` give their label; the conditional
    ones (ST, STR, LDS, ORG, MRK) apply the rule documented in the table.
    """
    row = LER_CLASS_MAPPING[mention.ler_class]
    if row.label is None or not row.conditional:
        return row.label
    tokens = sentence.tokens[mention.start : mention.end]
    text = _text_of(sentence.tokens, mention.start, mention.end)
    cls = mention.ler_class
    if cls == "ST":
        return row.label if _city_locates_party(sentence, mention, text) else None
    if cls == "STR":
        return None if _is_public_road(text) else row.label
    if cls == "LDS":
        if not is_placeholder_mention(text):
            return None
        before = sentence.tokens[max(0, mention.start - 3) : mention.start]
        parcel = any(word.startswith("Flurstück") for word in before)  # Flurstücke B und C
        return "address-idx" if parcel else row.label
    if cls == "ORG":
        private = placeholder_parts(text) or _has_private_legal_form(tokens)
        return row.label if private else None
    if cls == "MRK":
        return row.label if _vehicle(text) else None
    raise AssertionError(f"no rule for conditional class {cls}")  # pragma: no cover


def _strip_edges(tokens: Sequence[str], start: int, end: int, counts: Counter) -> tuple[int, int]:
    """Drop edge punctuation and leading titles/roles (token positions)."""
    changed = True
    while changed and start < end:
        changed = False
        if tokens[start] in EDGE_PUNCTUATION:
            start, changed = start + 1, True
            counts["edge punctuation outside"] += 1
        elif end > start and tokens[end - 1] in EDGE_PUNCTUATION:
            end, changed = end - 1, True
            counts["edge punctuation outside"] += 1
        elif tokens[start] in LEADING_WORDS:
            start, changed = start + 1, True
            counts["title or role outside"] += 1
            while start < end - 1 and tokens[start] in TITLE_SUFFIXES:
                start += 1
    return start, end


def _split_pieces(
    tokens: Sequence[str], start: int, end: int, person: bool, counts: Counter
) -> list[tuple[int, int]]:
    """Cut a mention at separators (token positions of the pieces)."""
    separators = SEPARATORS | PERSON_SEPARATORS if person else SEPARATORS
    pieces, piece_start = [], start
    for i in range(start, end):
        truncated = i > start and tokens[i] == "," and tokens[i - 1].endswith("-")
        if tokens[i] in separators and not truncated:  # not "Haus- , Wohnungs- und ..."
            pieces.append((piece_start, i))
            piece_start = i + 1
    pieces.append((piece_start, end))
    if len(pieces) > 1:
        counts["split at a separator"] += 1
    return [p for p in pieces if p[1] > p[0]]


def _strip_legal_form_tokens(tokens: Sequence[str], start: int, end: int) -> int:
    """New end after removing trailing legal forms (``GmbH & Co. KG``, ``e. V.``)."""
    new_end, stripped_form = end, False
    while new_end - start > 1:
        last, pair = tokens[new_end - 1], tuple(tokens[new_end - 2 : new_end])
        if pair in LEGAL_FORM_PAIRS and new_end - start > 2:
            new_end -= 2
            stripped_form = True
        elif last in LEGAL_FORMS or (stripped_form and last in LEGAL_FORM_JOINERS):
            new_end -= 1
            stripped_form = True
        else:
            break
    return new_end


@dataclass(frozen=True)
class SpanCandidate:
    """A sensitive span of one sentence before it is placed into a document."""

    start: int  # characters in the sentence text
    end: int
    label: str
    ler_class: str
    placeholder: bool  # pseudonymize it (see should_pseudonymize)
    key_parts: tuple[tuple[int, int], ...]  # placeholder parts (sentence characters)


def mention_spans(
    sentence: LerSentence,
    mention: Mention,
    label: str,
    offsets: Sequence[tuple[int, int]],
    text: str,
    counts: Counter,
) -> list[SpanCandidate]:
    """Apply the boundary rules to one sensitive mention; its spans in sentence chars."""
    tokens = sentence.tokens
    start, end = _strip_edges(tokens, mention.start, mention.end, counts)
    person = label in PERSON_LABELS
    candidates = []
    for piece_start, piece_end in _split_pieces(tokens, start, end, person, counts):
        piece_start, piece_end = _strip_edges(tokens, piece_start, piece_end, counts)
        if piece_end <= piece_start:
            continue
        if label == "jur-name":
            new_end = _strip_legal_form_tokens(tokens, piece_start, piece_end)
            if new_end < piece_end:
                counts["legal form outside"] += 1
            piece_end = new_end
        char_start, char_end = offsets[piece_start][0], offsets[piece_end - 1][1]
        if label == "jur-name":
            glued = RE_GLUED_LEGAL_FORM.match(text[char_start:char_end])
            if glued:
                char_end = char_start + len(glued.group("name"))
                counts["legal form outside"] += 1
            while char_end - char_start > 1 and text[char_end - 1] in "-&":  # "C- B. V."
                char_end -= 1
        candidates.append(_candidate(text, char_start, char_end, label, mention.ler_class))
    if not candidates:
        counts["nothing left after the boundary rules (mention kept whole)"] += 1
        char_start, char_end = offsets[mention.start][0], offsets[mention.end - 1][1]
        candidates.append(_candidate(text, char_start, char_end, label, mention.ler_class))
    return candidates


def _without_glued_legal_form(text: str, start: int, end: int) -> tuple[int, int]:
    """``M-GmbH`` → the range of ``M``."""
    glued = RE_GLUED_LEGAL_FORM.match(text[start:end])
    return (start, start + len(glued.group("name"))) if glued else (start, end)


def _candidate(text: str, start: int, end: int, label: str, ler_class: str) -> SpanCandidate:
    piece = text[start:end]
    if label in PERSON_LABELS:
        parts = [(0, len(piece))] if is_placeholder_mention(piece) else []
    else:
        parts = [_without_glued_legal_form(piece, s, e) for s, e in placeholder_parts(piece)]
    key = tuple((start + s, start + e) for s, e in parts) if ler_class in KEY_CLASSES else ()
    return SpanCandidate(start, end, label, ler_class, should_pseudonymize(piece, label), key)


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
    and address classes (:data:`KEY_CLASSES`) contribute: ``Herrn G.`` → ``G.``
    (``nat-name``), ``X GmbH`` → ``X`` (``jur-name``), ``A-Straße`` (``address-name``).
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
    """Replace placeholder spans (:func:`should_pseudonymize`) by realistic surrogates.

    Uses :class:`hf_anon.surrogates.Pseudonymizer` (one for all documents, so the run
    is reproducible from ``seed``); other spans are kept verbatim with shifted offsets.
    Id, domain and meta are kept.
    """
    from hf_anon.surrogates import Pseudonymizer

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


# --- raw TimeML text ------------------------------------------------------------------

RE_TIMEX_OPEN = re.compile(r"<TIMEX3\b(?P<attrs>[^<>]*)>")
RE_TIMEX_CLOSE = re.compile(r"</TIMEX3\s*>")
RE_TIMEX_ANY = re.compile(r"<TIMEX3\b(?P<attrs>[^<>]*)>|</TIMEX3\s*>")
RE_ATTRIBUTE = re.compile(r'(\w+)="([^"]*)"')
XML_FRAME = re.compile(r"^\s*(?:<\?xml\b.*\?>|<!DOCTYPE\b.*>|</?TimeML>)\s*$")


@dataclass(frozen=True)
class Timex:
    """A TIMEX3 expression: characters ``[start, end)`` of the tokenized line, tags removed."""

    start: int
    end: int
    type: str
    value: str


@dataclass(frozen=True)
class RawLine:
    """One raw sentence: its file line (1-based), tokenized text without tags, TIMEXes."""

    number: int
    tokenized: str
    timexes: tuple[Timex, ...] = ()

    @property
    def tokens(self) -> list[str]:
        return self.tokenized.split()


def parse_timex_line(
    line: str, where: str = "", anomalies: Anomalies | None = None
) -> tuple[str, list[Timex]]:
    """Remove the TIMEX3 tags of one line; return the text and the tagged stretches.

    Only ``<TIMEX3 ...>``/``</TIMEX3>`` are tags: other ``<``/``>`` are text (LER has
    ``< Klägerin zu 1. >`` and ``Beatmung > 95``). Nested, unclosed or stray tags are
    repaired (counted): an unclosed tag ends at the end of the line.
    """
    anomalies = anomalies if anomalies is not None else Anomalies()
    out: list[str] = []
    timexes: list[Timex] = []
    open_at: int | None = None
    attrs: dict[str, str] = {}
    length, last = 0, 0
    for match in RE_TIMEX_ANY.finditer(line):
        out.append(line[last : match.start()])
        length += match.start() - last
        last = match.end()
        if match.group("attrs") is not None:  # an opening tag
            if open_at is not None:
                anomalies.add("nested TIMEX3 (outer one closed)", where)
                timexes.append(_timex("".join(out), open_at, length, attrs, where, anomalies))
            open_at, attrs = length, dict(RE_ATTRIBUTE.findall(match.group("attrs")))
        elif open_at is None:
            anomalies.add("stray </TIMEX3> (ignored)", where)
        else:
            timexes.append(_timex("".join(out), open_at, length, attrs, where, anomalies))
            open_at = None
    out.append(line[last:])
    text = "".join(out)
    if open_at is not None:
        anomalies.add("unclosed TIMEX3 (closed at the end of the line)", where)
        timexes.append(_timex(text, open_at, len(text), attrs, where, anomalies))
    return text, [t for t in timexes if t.end > t.start]


def _timex(
    text: str, start: int, end: int, attrs: Mapping[str, str], where: str, anomalies: Anomalies
) -> Timex:
    """A Timex trimmed to non-space characters (empty ones are counted)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end == start:
        anomalies.add("empty TIMEX3 (ignored)", where)
    return Timex(start, end, attrs.get("type", ""), attrs.get("value", ""))


def read_raw_lines(path: str | Path, anomalies: Anomalies | None = None) -> list[RawLine]:
    """The sentences of a ``*_timex.txt`` file (XML frame and blank lines left out)."""
    path = Path(path)
    anomalies = anomalies if anomalies is not None else Anomalies()
    text = path.read_text(encoding="utf-8-sig")
    all_lines = _lines(text)
    content = [i for i, line in enumerate(all_lines) if line.strip() and not XML_FRAME.match(line)]
    first, last = (content[0], content[-1]) if content else (0, -1)
    lines: list[RawLine] = []
    for number, line in enumerate(all_lines, start=1):
        if XML_FRAME.match(line):
            continue
        if not line.strip():
            if first < number - 1 < last:
                anomalies.add("blank line inside the raw text (skipped)", f"{path.name}:{number}")
            continue
        tokenized, timexes = parse_timex_line(line, f"{path.name}:{number}", anomalies)
        if not tokenized.strip():
            anomalies.add("raw line with only tags (skipped)", f"{path.name}:{number}")
            continue
        _note_timexes(tokenized, timexes, anomalies)
        lines.append(RawLine(number, tokenized, tuple(timexes)))
    return lines


def _note_timexes(tokenized: str, timexes: Sequence[Timex], anomalies: Anomalies) -> None:
    for t in timexes:
        anomalies.note(f"raw: TIMEX3 {t.type or '(no type)'}")
        inside = (t.start > 0 and not tokenized[t.start - 1].isspace()) or (
            t.end < len(tokenized) and not tokenized[t.end].isspace()
        )
        if inside and t.type == "DATE":
            anomalies.note("raw: TIMEX3 DATE starting or ending inside a token (31</TIMEX3>.)")


def detokenize_raw_line(line: RawLine) -> tuple[str, list[Timex]]:
    """Natural text of a raw line, with its TIMEXes moved to the text's characters."""
    words = list(re.finditer(r"\S+", line.tokenized))
    text, offsets = detokenize([w.group() for w in words])
    starts = [w.start() for w in words]

    def moved(position: int) -> int:  # a non-space character of the tokenized line
        k = bisect_right(starts, position) - 1
        return offsets[k][0] + position - starts[k]

    timexes = [Timex(moved(t.start), moved(t.end - 1) + 1, t.type, t.value) for t in line.timexes]
    return text, timexes


RE_SIGNATURE_WORD = re.compile(
    r"^(?:Dr\.|Prof\.|von|van|der|de|zu|vom|[A-ZÄÖÜ]\.|"
    r"[A-ZÄÖÜ][a-zäöüßéèáàç]+(?:-[A-ZÄÖÜ][a-zäöüßéèáàç]+)*)$"
)


def is_signature_line(tokenized: str) -> bool:
    """A line that is one judge's name (``Gallner``, ``W. Reinfelder``, ``Dr. Fischer``)."""
    words = tokenized.split()
    return (
        1 <= len(words) <= 4
        and all(RE_SIGNATURE_WORD.match(w) for w in words)
        and any(len(w) > 2 and w[0].isupper() and not w.endswith(".") for w in words)
    )


def decision_ends(lines: Sequence[RawLine], min_signatures: int = 3) -> list[int]:
    """Line indices where a decision ends: after a block of judges' signature lines.

    BAG and BGH decisions end with the judges' names, one a line (``Kayser / Lohmann /
    Pape / Grupp / Möhring``); a run of at least ``min_signatures`` such lines is taken
    as the end of a decision (108 and 109 decisions, close to LER's ~107 per court).
    The other courts' texts have no such block: the result is empty for them.
    """
    ends, i = [], 0
    while i < len(lines):
        j = i
        while j < len(lines) and is_signature_line(lines[j].tokenized):
            j += 1
        if j - i >= min_signatures:
            ends.append(j)
        i = max(j, i + 1)
    return ends


def raw_documents(
    court: str, lines: Sequence[RawLine], sentences_per_document: int = 25
) -> list[Document]:
    """Raw lines of one court → documents (ids ``ler-raw-<court>-NNNNN``, domain = court).

    Decisions (see :func:`decision_ends`) where the court's text marks their ends, else
    chunks of ``sentences_per_document`` lines. Sentences are joined with ``\\n``;
    ``meta["timex_dates"]`` holds the ``[start, end]`` characters of TIMEX3 DATEs.
    """
    if sentences_per_document < 1:
        raise ValueError(f"sentences_per_document must be at least 1, got {sentences_per_document}")
    ends = decision_ends(lines)
    if ends:
        bounds = list(zip([0, *ends], [*ends, len(lines)], strict=True))
    else:
        bounds = [
            (i, min(i + sentences_per_document, len(lines)))
            for i in range(0, len(lines), sentences_per_document)
        ]
    docs = []
    for start, end in bounds:
        if end <= start:
            continue
        texts, dates, offset = [], [], 0
        for line in lines[start:end]:
            text, timexes = detokenize_raw_line(line)
            dates += [[offset + t.start, offset + t.end] for t in timexes if t.type == "DATE"]
            texts.append(text)
            offset += len(text) + 1
        doc_id = f"ler-raw-{court}-{len(docs) + 1:05d}"
        docs.append(Document(doc_id, "\n".join(texts), [], court, {"timex_dates": dates}))
    return docs


def court_of(path: str | Path) -> str:
    """``raw/bgh_timex.txt`` → ``bgh``."""
    return Path(path).stem.removesuffix("_timex")


def raw_files(raw_dir: str | Path) -> list[Path]:
    """The ``*_timex.txt`` files of a folder, sorted by court."""
    return sorted(Path(raw_dir).glob("*_timex.txt"))


def read_raw_timex(
    path: str | Path, sentences_per_document: int = 25, anomalies: Anomalies | None = None
) -> list[Document]:
    """One ``<court>_timex.txt`` file → documents (see :func:`raw_documents`)."""
    return raw_documents(court_of(path), read_raw_lines(path, anomalies), sentences_per_document)


def save_raw_jsonl(docs: Iterable[Document], path: str | Path) -> None:
    """Write raw documents as decisions: ``{"id", "domain", "text", "timex_dates"}``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as handle:
        for doc in docs:
            row = {
                "id": doc.id,
                "domain": doc.domain,
                "text": doc.text,
                "timex_dates": doc.meta.get("timex_dates", []),
            }
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


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
