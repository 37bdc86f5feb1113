"""Deterministic recognizers for sensitive spans that have a grammar.

Dates, times, docket numbers, court names and the names after a judge's or lawyer's
title follow patterns that a model learns slowly from few examples but a rule states
exactly. Each recognizer is a small object with a name, the label it emits and a
``find(text)`` that returns :class:`~hf_anon.data.Span`\\ s (characters, end exclusive);
:data:`RECOGNIZERS` is the registry (like the anonymizer's operators): users switch
recognizers off by name or register their own.

The rules aim at precision first (they label training text and are merged with the
model's spans): everything inside a citation of another decision (``BGH, Urteil vom
12. Mai 2020 – VIII ZR 1/19``), statutes and their dates, and publication references
are skipped, following the clarifications for real decisions in the annotation
guidelines. Their precision and recall on the real gold validation split are measured
by ``datasets_scripts/build_real_corpus.py --measure``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from hf_anon.data import Span

# --- word lists (data, defined once) -----------------------------------------------------

MONTHS = [
    "Januar",
    "Jänner",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
]
MONTH_ABBREVIATIONS = [
    "Jan.",
    "Feb.",
    "Febr.",
    "Mrz.",
    "Apr.",
    "Aug.",
    "Sep.",
    "Sept.",
    "Okt.",
    "Nov.",
    "Dez.",
]
SEASONS = ["Frühjahr", "Frühling", "Sommer", "Herbst", "Winter", "Jahresanfang", "Jahresende"]

COURT_TYPES = [
    "Amtsgericht",
    "Landgericht",
    "Oberlandesgericht",
    "Verwaltungsgericht",
    "Oberverwaltungsgericht",
    "Verwaltungsgerichtshof",
    "Sozialgericht",
    "Landessozialgericht",
    "Arbeitsgericht",
    "Landesarbeitsgericht",
    "Finanzgericht",
    "Verfassungsgerichtshof",
    "Staatsgerichtshof",
    "Landesverfassungsgericht",
    "Anwaltsgerichtshof",
    "Schifffahrtsgericht",
]
COURT_ABBREVIATIONS = ["AG", "LG", "OLG", "VG", "OVG", "VGH", "SG", "LSG", "ArbG", "LAG", "FG"]
FEDERAL_COURTS = [
    "Bundesgerichtshof",
    "Bundesverwaltungsgericht",
    "Bundessozialgericht",
    "Bundesarbeitsgericht",
    "Bundesfinanzhof",
    "Bundespatentgericht",
    "Bundesverfassungsgericht",
    "Kammergericht",
    "BGH",
    "BVerwG",
    "BSG",
    "BAG",
    "BFH",
    "BPatG",
    "BVerfG",
    "BayVGH",
    "BayObLG",
    "BayLSG",
    "KG",
]
STATE_ADJECTIVES = [
    "Bayerische",
    "Bayerischer",
    "Bayerisches",
    "Bayerischen",
    "Hessische",
    "Hessischer",
    "Hessisches",
    "Hessischen",
    "Sächsische",
    "Sächsischer",
    "Sächsisches",
    "Sächsischen",
    "Thüringer",
    "Niedersächsische",
    "Niedersächsischer",
    "Niedersächsisches",
    "Niedersächsischen",
    "Hamburgische",
    "Hamburgisches",
    "Hamburgischen",
    "Schleswig-Holsteinische",
    "Schleswig-Holsteinisches",
    "Schleswig-Holsteinischen",
    "Brandenburgische",
    "Brandenburgisches",
    "Brandenburgischen",
    "Saarländische",
    "Saarländisches",
    "Saarländischen",
    "Hanseatische",
    "Hanseatisches",
    "Hanseatischen",
    "Pfälzische",
    "Pfälzisches",
    "Pfälzischen",
    "Berliner",
    "Bremer",
]
# Titles that introduce a member of the judiciary or a legal professional (nat-jur).
JUDICIAL_TITLES = (
    r"(?:Vorsitzende[nr]?\s+|Vors\.\s+)?Richter(?:in)?"
    r"(?:\s+am\s+(?:\w+(?:gericht|hof)s?|AG|LG|OLG|VG|OVG|VGH|SG|LSG|LAG|ArbG|FG|BGH|BVerwG|BSG|BAG|BFH))?"
    r"|Vorsitzende[nr]?"
    r"|(?:Vize)?[Pp]räsident(?:in|en)?\s+(?:des|der)\s+\w+(?:gericht|hof)s?"
    r"|Rechtsanw(?:alt|ältin|älte|älten|alts)|RAin|RA"
    r"|Notar(?:in)?|Rechtspfleger(?:in)?"
    r"|Urkundsbeamt(?:in|e|er)\s+der\s+Geschäftsstelle"
    r"|Justiz(?:obersekretär|sekretär|hauptsekretär|angestellte|beschäftigte)(?:in|r)?"
)
# Words that look like a surname after a title but are not (``Richter am Amtsgericht``).
NOT_NAMES = frozenset(
    [
        "Amtsgericht",
        "Landgericht",
        "Oberlandesgericht",
        "Verwaltungsgericht",
        "Sozialgericht",
        "Arbeitsgericht",
        "Finanzgericht",
        "Bundesgerichtshof",
        "Gericht",
        "Senat",
        "Kammer",
        "Vorsitzende",
        "Vorsitzender",
        "Richter",
        "Richterin",
        "Beklagte",
        "Beklagten",
        "Kläger",
        "Klägerin",
        "Klägers",
        "Antrag",
        "Schriftsatz",
        "Herr",
        "Herrn",
        "Frau",
        "Dr",
        "Prof",
        "Sachverständige",
        "Sachverständigen",
        "Bevollmächtigte",
        "Bevollmächtigten",
        "Prozessbevollmächtigte",
        "Prozessbevollmächtigten",
        "Kanzlei",
        "Partner",
        "Anwalt",
        "Der",
        "Die",
        "Das",
        "Den",
        "Dem",
        "Des",
        "Ein",
        "Eine",
        "Einer",
        "Im",
        "In",
        "Am",
        "Auf",
        "Mit",
        "Von",
        "Vom",
        "Zur",
        "Zum",
        "Und",
        "Oder",
        "Als",
        "Nach",
        "Bei",
        "Zu",
        "Für",
        "Gegen",
        "Durch",
        "Über",
        "Aus",
        "Seit",
        "Wegen",
        "Sie",
        "Er",
        "Es",
        "Wir",
        "Ihr",
        "Ihre",
        "Beschluss",
        "Urteil",
        "Termin",
        "Verhandlung",
        "Verfahren",
        "Sache",
        "Aktenzeichen",
        "Az",
        "Einzelrichter",
        "Einzelrichterin",
        "Berichterstatter",
        "Berichterstatterin",
        "Mitglied",
        # states and public bodies that end a rubrum (`Freistaat Bayern`), not judges
        "Freistaat",
        "Bundesrepublik",
        "Deutschland",
        "Land",
        "Stadt",
        "Gemeinde",
        "Landkreis",
        "Kreis",
        "Markt",
    ]
)
ACADEMIC = r"(?:(?:Dr|Prof|Dipl|med|jur|rer|nat|phil|h\.\s?c)\.\s*)*"

STATUTE_WORDS = re.compile(
    r"(?:[Gg]esetz\w*|[Vv]erordnung\w*|Fassung|Bekanntmachung|Neufassung|Richtlinie\w*|"
    r"Satzung\w*|Erlass\w*|Runderlass\w*|Abkommen\w*|Übereinkommen\w*|[Vv]ertrag\w*|"
    r"Tarifvertrag\w*|Vereinbarung\w*|Rundschreiben\w*|Verwaltungsvorschrift\w*|Ordnung|"
    r"[A-ZÄÖÜ][A-Za-zÄÖÜäöü]*(?:G|VO|O|V)|Stand|BGBl\.?|GVBl\.?|Amtsbl\.?|ABl\.\s?[LC]\s?\d+|\b[LC]\s\d{2,4}|\w*ordnung)"
    r"\s+(?:\([^)]{0,40}\)\s+)?(?:vom|v\.|i\.d\.F\.\s*v\.|in der Fassung vom)\s*$"
)
GAZETTE_AFTER = re.compile(
    r"^\s*[(,]?\s*(?:BGBl|GVBl|GV\.|ABl|Amtsbl|GVOBl|MBl|BAnz|SächsGVBl|GBl)"
)
PUBLICATION = re.compile(
    r"juris|Rn\.|Rdnr\.|Rz\.|NJW|NVwZ|NZA|NZS|BeckRS|DVBl|DÖV|ZfBR|BayVBl|FamRZ|WM|ZIP|"
    r"BFH/NV|StV|NStZ|DAR|NZV|MDR|VersR|ZMR|WuM|NZM|InfAuslR|AuAS|NWVBl|NdsVBl|VBlBW|LKV|"
    r"JZ|NZI|ZInsO|DStR|GmbHR|NZG|ZUM|GRUR|MMR|K&R|CR|EFG|HFR|ZfS|VRS|"
    r"BVerwGE|BGHZ|BGHSt|BSGE|BFHE|BAGE|BVerfGE|BStBl|SozR|EzA|AP Nr|openJur|"
    r"veröffentlicht|abrufbar"
)
CITED_COURT = re.compile(
    r"(?:BGH|BVerwG|BSG|BAG|BFH|BVerfG|BPatG|EuGH|EGMR|EuG|OVG|VGH|OLG|LG|VG|LSG|SG|FG|LAG|"
    r"BayVGH|BayObLG|KG|Bundes\w+|Senat\w*|\w*(?:gericht|gerichtshof|hof)s?)\b[^.;:()\n]{0,60}?"
    r"(?:Urt\.?|Beschl\.?|Urteil\w*|Beschluss\w*|B\.|U\.|Entscheidung\w*|Gerichtsbescheid\w*)\s*"
    r"(?:(?:v\.|vom)\s*(?:[\d.]{6,10}|\d{1,2}\.\s?\w+\s\d{4})?\s*[,–-]?\s*(?:Az\.?:?\s*)?)?$"
)


# --- recognizers ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Recognizer:
    """A named rule: ``find(text)`` gives spans (label and risk set, score 1.0)."""

    name: str
    labels: tuple[str, ...]
    find: Callable[[str], list[Span]]
    description: str = ""

    def __call__(self, text: str) -> list[Span]:
        """Spans on ``text``; rules match its NFC form (decomposed umlauts occur in real
        decisions), offsets are mapped back to ``text``."""
        normal, starts = nfc_view(text)
        if starts is None:
            return self.find(text)
        ends = [*starts[1:], len(text)]
        return [
            Span(starts[s.start], ends[s.end - 1], s.label, s.risk, s.score)
            for s in self.find(normal)
        ]


def nfc_view(text: str) -> tuple[str, list[int] | None]:
    """``text`` in NFC and, if that changed it, the start in ``text`` of each NFC character."""
    if unicodedata.is_normalized("NFC", text):
        return text, None
    pieces, starts, i = [], [], 0
    while i < len(text):
        j = i + 1
        while j < len(text) and unicodedata.combining(text[j]):
            j += 1
        composed = unicodedata.normalize("NFC", text[i:j])
        pieces.append(composed)
        starts += [i] * len(composed)
        i = j
    return "".join(pieces), starts


RECOGNIZERS: dict[str, Recognizer] = {}


def register(recognizer: Recognizer) -> Recognizer:
    """Add (or replace) a recognizer in the registry under its name."""
    RECOGNIZERS[recognizer.name] = recognizer
    recognize_cached.cache_clear()
    return recognizer


@lru_cache(maxsize=128)
def recognize_cached(text: str, names: tuple[str, ...]) -> tuple[Span, ...]:
    """:func:`recognize` on ``text`` and on its ALL-CAPS :func:`~hf_anon.words.case_view`
    (``VERWALTUNGSGERICHT MÜNCHEN`` read as a court name too), overlaps resolved;
    remembered for the last texts, so that decoding one model pass at many thresholds
    (``hf-anon report``, ``hf-anon calibrate``) runs the rules once per text."""
    from hf_anon.words import case_view

    found = recognize(text, names)
    view = case_view(text)
    if view is not text:
        found = resolve_overlaps([*found, *recognize(view, names)])
    return tuple(found)


def recognize(text: str, names: Iterable[str] | None = None) -> list[Span]:
    """Spans of the chosen recognizers (default: all registered), overlaps resolved.

    Where two rules overlap, the longer span wins (ties: the rule registered first).
    """
    chosen = list(RECOGNIZERS) if names is None else list(names)
    unknown = [n for n in chosen if n not in RECOGNIZERS]
    if unknown:
        raise KeyError(f"unknown recognizers {unknown}; known: {sorted(RECOGNIZERS)}")
    found = [(s, k) for k, name in enumerate(chosen) for s in RECOGNIZERS[name](text)]
    return resolve_overlaps([s for s, _ in sorted(found, key=lambda t: (-_len(t[0]), t[1]))])


def _len(span: Span) -> int:
    return span.end - span.start


def resolve_overlaps(spans_by_priority: Sequence[Span]) -> list[Span]:
    """Keep spans in priority order, dropping each that overlaps one already kept."""
    kept: list[Span] = []
    for span in spans_by_priority:
        if all(span.end <= k.start or span.start >= k.end for k in kept):
            kept.append(span)
    return sorted(kept)


def _span(start: int, end: int, label: str, risk: str) -> Span:
    return Span(start, end, label, risk, 1.0)


# --- citation context ---------------------------------------------------------------------


def _clause_before(text: str, start: int, width: int = 120) -> str:
    """Text before ``start`` back to the last sentence end, parenthesis or line break."""
    before = text[max(0, start - width) : start]
    cut = max(before.rfind("\n"), before.rfind("("), before.rfind(";"), before.rfind(". "))
    return before[cut + 1 :] if cut >= 0 else before


CITED_DECISION = re.compile(
    r"(?:Urteil|Beschluss|Entscheidung)\w*\s+(?:des|der)\s+(?:Bundes\w+|Senats|BGH|BVerwG|BVerfG|"
    r"BSG|BAG|BFH|EuGH|EGMR|Großen\s+Senats)\s+(?:vom|v\.)\s*$"
)


def in_citation(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is part of a citation of another decision or a statute.

    ``(BVerwG, Urteil vom 12. Mai 2020 – 4 C 1.19 –, juris Rn. 12)``, ``Gesetz vom
    5. Mai 2004 (BGBl. I S. 718)``, ``NVwZ 2010, 12``: the court before, the gazette or
    publication after, or a statute word right before ``vom``.
    """
    before = _clause_before(text, start)
    if STATUTE_WORDS.search(before) or CITED_COURT.search(before) or CITED_DECISION.search(before):
        return True
    after = text[end : end + 90]
    if GAZETTE_AFTER.match(after):
        return True
    paren = text.rfind("(", max(0, start - 150), start)
    if paren >= 0 and ")" not in text[paren:start]:
        inside = text[paren : text.find(")", end) if text.find(")", end) >= 0 else end + 90]
        if PUBLICATION.search(inside) or re.search(r"\bvgl\.|\bs\.\s", inside[:40]):
            return True
    # `… vom 12.5.2020 - 4 C 1.19 -, juris` / `… - 4 C 1.19 - NVwZ …`
    dash = re.match(r"^\s*[-–]\s*[^-–\n]{3,40}?\s*[-–]\s*[,;]?\s*(\S+)", after)
    if dash and PUBLICATION.match(dash.group(1)):
        return True
    publication_after = r"^\s*(?:\([^)]{0,20}\))?\s*[-–,]?\s*(?:" + PUBLICATION.pattern + ")"
    return bool(re.match(publication_after, after))


CITING_COURT_BEFORE = re.compile(
    r"(?:\b(?:BGH|BVerwG|BSG|BAG|BFH|BVerfG|BPatG|EuGH|EGMR|BayVGH|BayObLG)"
    r"|\b(?:OVG|VGH|OLG|LG|VG|LSG|SG|FG|LAG|KG)\s[A-ZÄÖÜ][\w-]+)\s*,?\s*(?:v\.\s*)?$"
)
DOCKET_AFTER = re.compile(
    r"^\s*[-–]?\s*(?:[A-Z]{1,3}\s)?(?:[IVX]{1,5}|\d{1,3}[a-z]?)\s[A-Z][A-Za-z]{0,4}(?:\s[A-Z]{1,3})?\s\d{1,6}[./]\d{2}"
)


# --- dates and times -----------------------------------------------------------------------

_MONTH = "|".join(MONTHS)
_MONTH_ABBR = "|".join(re.escape(m) for m in MONTH_ABBREVIATIONS)
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_YEAR = r"(?:19|20)\d{2}"
_TIME = r"(?:(?:[01]?\d|2[0-3])[.:][0-5]\d|(?:[01]?\d|2[0-3]))\s?Uhr"
DATE_RE = re.compile(
    rf"(?<![\w.,/-])(?:"
    rf"{_DAY}\.\s?(?:0?[1-9]|1[0-2])\.\s?(?:{_YEAR}|\d{{2}}(?![\d.]))"  # 12.03.2021, 1.3.21
    # 1. März 2021, 5./6. Juni 2020, März 2019
    rf"|(?:{_DAY}\.\s?(?:/\s?{_DAY}\.\s?)?)?(?:{_MONTH}|{_MONTH_ABBR})\s{{1,2}}{_YEAR}"
    rf"|{_DAY}\.\s?(?:{_MONTH})(?=\s+(?:d\.\s?J\.|dieses|des|letzten|vergangenen))"
    rf"|(?:{'|'.join(SEASONS)})\s{_YEAR}"
    rf")(?:,?\s{_TIME})?(?![\w/])"
)
TIME_RE = re.compile(rf"(?<![\w.,:])(?:ca\.\s)?{_TIME}(?!\w)")
_NUMERIC_DATE_REFERENCE = re.compile(r"(?:Nr|Ziff|Rn|Rdnr|Nummer|Tz|Punkt|Abschnitt|Anlage)\.?\s*$")


LEGAL_DATE_CONTEXT = re.compile(
    r"(?i:gesetz)|Fassung|Inkrafttreten|in Kraft|Stichtag|Übergangs|Rechtslage|geltend|"
    r"[Nn]eufassung|"
    r"Änderung de[rs] \w+(?:gesetz|verordnung|ordnung)|Verordnung|Richtlinie|Bekanntmachung"
)


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around ``text[start:end]`` (to the nearest ``. ``, line break)."""
    left = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start)) + 1
    rights = [i for i in (text.find(". ", end), text.find("\n", end)) if i >= 0]
    return text[left : min(rights) if rights else len(text)]


WORLD_BEFORE = re.compile(
    r"(?:\b(?:Urteil|Beschluss|Gerichtsbescheid|Klage|Antrag|Hilfsantrag|Eilantrag|Schriftsatz|"
    r"Berufung|Beschwerde|Revision|Termin|Verhandlung|Sitzung|Vergleich|Ladung|Anhörungsrüge|"
    r"Endurteil|Teilurteil|Versäumnisurteil|Vorlageschreiben|Protokoll|Niederschrift)\w*"
    r"\b[^.;\n]{0,60}\s(?:vom|am|v\.)"
    r"|\w*schriftsatz\w*\s+vom"
    r"|(?:gericht|gerichts|hof|hofs|Kammer|Senat|Senats|AG|LG|OLG|VG|OVG|VGH|SG|LSG|LAG|ArbG|FG)"
    r"(?:\s+[A-ZÄÖÜ][\w-]+){0,4}\s+(?:vom|am)"
    r"|Datum:|verkündet\s+am|eingegangen\s+am|zugestellt\s+am)\s*$"
)
WORLD_AFTER = re.compile(
    r"^[^.;\n]{0,40}?\b(?:erhoben|eingelegt|begründet|eingegangen|zugestellt|verkündet|"
    r"beim\s+\w*gericht|bei\s+Gericht|beim\s+(?:AG|LG|OLG|VG|OVG|SG|LSG|LAG|ArbG|FG)\b|"
    r"mündlich\s+verhandelt|beschlossen|für\s+Recht\s+erkannt)"
)


def _date_label(text: str, start: int, end: int | None = None) -> tuple[str, str]:
    """date-world for the proceedings (``Urteil vom``, ``am … Klage erhoben``, the date of
    the decision in its rubrum), else date-fact (authorities' letters and orders included)."""
    before = text[max(0, start - 100) : start]
    heading = _rubrum_heading(text)
    if (
        heading is not None
        and start < heading
        and not re.search(r"geb(?:oren|\.)\s*(?:am)?\s*$", before)
    ):
        return "date-world", "low"
    if WORLD_BEFORE.search(before):
        return "date-world", "low"
    if end is not None and WORLD_AFTER.match(text[end : end + 80]):
        return "date-world", "low"
    return "date-fact", "medium"


def find_dates(text: str) -> list[Span]:
    """Dates (numeric, with month names, month-year, seasons), with an attached time."""
    own = {text[s.start : s.end] for s in find_dockets(text)}
    out = []
    for m in DATE_RE.finditer(text):
        start, end = m.span()
        if _NUMERIC_DATE_REFERENCE.search(text[max(0, start - 12) : start]):
            continue
        if in_citation(text, start, end) or CITING_COURT_BEFORE.search(
            text[max(0, start - 40) : start]
        ):
            continue  # `BAG 17.05.2011 – 1 AZR 473/09`, `LAG München 28.08.2007`
        if (
            LEGAL_DATE_CONTEXT.search(_sentence(text, start, end))
            and _date_label(text, start, end)[0] != "date-world"
        ):
            continue  # `in der bis zum 31.03.2024 geltenden Fassung`: a date of the law
        docket = DOCKET_AFTER.match(text[end : end + 40])
        if docket and not any(d in text[end : end + 40] for d in own):
            continue  # `vom 24.9.1998 – 5 A 2886/95`: another decision
        label, risk = _date_label(text, start, end)
        out.append(_span(start, end, label, risk))
    return out


def find_times(text: str) -> list[Span]:
    """Times of day (``14:30 Uhr``, ``16.15 Uhr``, ``9 Uhr``) of the facts."""
    return [_span(*m.span(), "date-fact", "medium") for m in TIME_RE.finditer(text)]


# --- docket numbers ------------------------------------------------------------------------

_ROMAN = r"(?:[IVX]{1,5})"
_REGISTER = r"[A-ZÄÖÜ][A-Za-zÄÖÜäöü]{0,5}"
DOCKET_RE = re.compile(
    r"(?<![\w/.-])(?:"
    r"ECLI:[A-Z]{2}:[A-Za-z]+:\d{4}:[\w.]+"  # ECLI
    r"|(?:(?:VG|OVG|LSG|SG|LAG|ArbG|FG) )?(?:[A-Z]{1,3} ?)?\d{1,3}[a-z]? "  # (VG) 12 / M 12
    rf"{_REGISTER}(?: {_REGISTER})? \d{{1,6}}[./]\d{{2,4}}"  # K 20.1234, C 12/21
    r"(?: ?\([A-Za-z]{1,4}\))?(?: [A-Z]{1,2}(?![\w]))?"  # (V), R
    rf"|{_ROMAN} {_REGISTER}(?: {_REGISTER})? \d{{1,5}}/\d{{2,4}}"  # VI ZR 3/20
    r"|[A-Z] \d{1,2} [A-Z]{1,3} \d{1,5}/\d{2} [A-Z]{1,2}"  # B 9 SB 2/00 R
    r"|\d{1,3} (?:Js|Ds|Ls|Ns|Cs|Gs|Ks|KLs|VRs|UJs|AR|Zs) \d{1,6}/\d{2,4}"  # prosecution
    r")(?![\w/])"
)
DOCKET_CUE = re.compile(
    r"(?:Az\.?|Aktenz(?:eichen|\.)|Gz\.?|Geschäftsz(?:eichen|\.)|AZ|Tagebuch-Nr\.|"
    r"Vorgangsn(?:ummer|r\.)|Verfahren|Sache)\s*:?\s*$"
)
HEADER_CHARS = 700


def _rubrum_heading(text: str) -> int | None:
    """Where the rubrum ends: the first ``Tenor``/``Gründe``/``Tatbestand`` heading, if any
    within the first 4,000 characters."""
    m = re.search(
        r"\n\s*(?:Tenor|Gründe|Tatbestand|Entscheidungsgründe|Leitsatz|Leitsätze|"
        r"T\s?e\s?n\s?o\s?r|G\s?r\s?ü\s?n\s?d\s?e)\b",
        text[:4000],
    )
    return m.start() if m else None


def _header_end(text: str) -> int:
    """The rubrum's end, at least the first ``HEADER_CHARS`` characters (dockets, courts)."""
    heading = _rubrum_heading(text)
    return max(HEADER_CHARS, heading) if heading is not None else HEADER_CHARS


def find_dockets(text: str) -> list[Span]:
    """Docket numbers of this case: in the rubrum, after ``Az.``-like cues, and repeats.

    A docket in running text is usually a cited decision's, so only the case's own
    numbers (rubrum, cue words) and their later mentions count.
    """
    header = _header_end(text)
    own: set[str] = set()
    candidates = []
    for m in DOCKET_RE.finditer(text):
        value = m.group(0)
        start, end = m.span()
        cued = DOCKET_CUE.search(text[max(0, start - 25) : start])
        if value.startswith("ECLI:") and start > header:
            continue
        if (start < header or cued) and not in_citation(text, start, end):
            own.add(value)
        candidates.append((start, end, value))
    return [
        _span(s, e, "court-docket", "medium")
        for s, e, value in candidates
        if value in own and not (s >= header and in_citation(text, s, e))
    ]


# --- courts --------------------------------------------------------------------------------

_PLACE_WORD = r"[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)*"
_RIVERS = (
    r"am\sMain|an\sder\sOder|im\sBreisgau|an\sder\sRuhr|an\sder\sWeinstraße|in\sder\sOberpfalz|"
    r"an\sder\sDonau|am\sRhein|an\sder\sSaale|an\sder\sHavel|am\sLech|an\sder\sIlm|an\sder\sLahn|"
    r"am\sInn|an\sder\sAisch|in\sHolstein|ob\sder\sTauber|vor\sder\sHöhe"
)
_PLACE = (
    rf"(?:{_PLACE_WORD}(?:\s(?:{_RIVERS}))?"
    r"|des\sSaarlandes|des\sLandes\s[A-ZÄÖÜ][\w-]+|für\sdas\sLand\s[A-ZÄÖÜ][\w-]+"
    r"|NRW|LSA|M-V|MV|SH|RP)"
)
_COURT_TYPE = "|".join(COURT_TYPES)
COURT_RE = re.compile(
    rf"(?<![\w-])(?:"
    rf"(?:(?:{'|'.join(STATE_ADJECTIVES)})\s)?(?:{_COURT_TYPE})(?:e?s)?"
    rf"(?: [-–] [A-ZÄÖÜ][a-zäöüß]+gericht [-–])? {_PLACE}"  # Amtsgericht – Insolvenzgericht – Hof
    rf"|(?:{'|'.join(STATE_ADJECTIVES)})\s(?:{_COURT_TYPE}|Oberstes\sLandesgericht|Landessozialgericht)(?:e?s)?"
    rf"|(?:{'|'.join(COURT_ABBREVIATIONS)})\s{_PLACE}"
    rf"|(?:{'|'.join(FEDERAL_COURTS)})"
    rf"|Kammergerichts?"
    rf")(?![\w/-])"
)
NOT_PLACES = frozenset(
    [
        "Der",
        "Die",
        "Das",
        "Dem",
        "Den",
        "Des",
        "Und",
        "Oder",
        "Vom",
        "Im",
        "Am",
        "In",
        "Zur",
        "Zum",
        "Mit",
        "Nach",
        "Bei",
        "Auf",
        "Für",
        "Gegen",
        "Gemäß",
        "Beschluss",
        "Urteil",
        "Gründe",
        "Tenor",
        "Az",
        "Aktenzeichen",
        "Vorsitzende",
        "Vorsitzender",
        "Richter",
        "Richterin",
        "Hinweis",
        "Hinweise",
        "Beschwerde",
        "Berufung",
        "Revision",
        "Rechtsmittelbelehrung",
        "Sache",
    ]
)


def find_courts(text: str) -> list[Span]:
    """Court names with a place or a federal/state identity, outside citations.

    Federal courts count only in the rubrum: in running text they are nearly always
    cited (``BVerwG, Urteil vom …``), rarely this case's court.
    """
    header = _header_end(text)
    out = []
    for m in COURT_RE.finditer(text):
        start, end = m.span()
        value = m.group(0)
        last = value.split()[-1]
        if last in NOT_PLACES and value.split()[0] in STATE_ADJECTIVES and len(value.split()) > 2:
            end = start + value.rfind(" ")  # `Bayerischer Verwaltungsgerichtshof In …`
            value, last = text[start:end], value.split()[-2]
        if last in NOT_PLACES or re.search(r"(?:straße|platz|weg|allee|ring|gasse)$", last, re.I):
            continue
        if re.search(
            r"(?:Richter(?:in)?|Präsident(?:in|en)?|Direktor(?:in|en)?)\s+(?:am|des|der)\s*$",
            text[max(0, start - 30) : start],
        ):
            continue  # `Richter am Bundesverwaltungsgericht Sailer`: part of a title
        if re.search(r"[Rr]echtsprechung\s+(?:des|der)\s*$", text[max(0, start - 30) : start]):
            continue  # `die Rechtsprechung des OVG NRW`: case law, not this case
        federal = value in FEDERAL_COURTS or value.rstrip("s") in FEDERAL_COURTS
        if federal and start >= header:
            continue
        if value.startswith(("AG ", "SG ", "FG ")) and last in ("Nr", "Nr."):
            continue
        after = text[end : end + 60]
        if re.match(
            r"^\s*[,(]\s*(?:Urt|Beschl|B\.|U\.|Urteil|Beschluss|Gerichtsbescheid|v\.)", after
        ):
            continue  # `OVG Münster, Beschluss vom …`: a citation
        if re.match(
            r"^[\s,]*(?:[A-Z][A-Za-z/-]{1,10}\s(?:\d{4}|\d{1,3}),\s*\d|\d{1,2}\.\d{1,2}\.\d{2,4}\s*[-–]|\s*[-–]\s*\d)",
            after,
        ):
            continue  # `OLG Celle, NStZ 2013, 360`, `LAG München 28.08.2007 – 5 Sa 735/07`
        if in_citation(text, start, end):
            continue
        out.append(_span(start, end, "court-name", "low"))
    return out


# --- judges, clerks and lawyers ------------------------------------------------------------

_SURNAME = r"(?:(?:von|van|de|zu|von der|von den|vom) )?[A-ZÄÖÜ][a-zäöüß]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?"
JURIST_RE = re.compile(
    rf"(?<![\w-])(?:{JUDICIAL_TITLES})[ ]{ACADEMIC}"
    rf"(?P<name>(?:[A-ZÄÖÜ]\. ?)?{_SURNAME}(?: {_SURNAME})?)"
)


def _trim_name(text: str, start: int, end: int) -> tuple[int, int] | None:
    words = list(re.finditer(r"\S+", text[start:end]))
    kept = []
    for w in words:
        token = w.group(0)
        if token.rstrip(".,") in NOT_NAMES:
            break
        kept.append(w)
    if not kept:
        return None
    # a second capitalised word followed by lower case is often a noun (`Müller Klage`)
    if len(kept) == 2:
        after = text[start + kept[1].end() : start + kept[1].end() + 2]
        if after[:1] == " " and after[1:2].isupper():
            kept = kept[:1]
    return start + kept[0].start(), start + kept[-1].end()


def find_jurists(text: str) -> list[Span]:
    """Names right after a judicial or legal-profession title (``Richterin am AG Schulz``),
    with further names joined by ``und`` or commas (``die Richter am BVerwG Krauß und
    Guttenberger``)."""
    out, pos = [], 0
    while (m := JURIST_RE.search(text, pos)) is not None:
        bounds = _trim_name(text, m.start("name"), m.end("name"))
        pos = bounds[1] if bounds else m.end()
        if bounds is None or in_citation(text, *bounds):
            continue
        title = text[m.start() : m.start("name")]
        if re.fullmatch(r"Richter(?:in)?\s+", title) and not re.search(
            r"\b(?:durch|den|die|der|des|dem|von|vom|sowie|und|gez\.?)\s*$",
            text[max(0, m.start() - 12) : m.start()],
        ):
            continue  # `als Richter Einsicht`: `Richter` is also a word and a surname
        out.append(_span(*bounds, "nat-jur", "medium"))
        while (more := JOINED_NAME.match(text, pos)) is not None:
            joined = _trim_name(text, more.start("name"), more.end("name"))
            if joined is None:
                break
            out.append(_span(*joined, "nat-jur", "medium"))
            pos = joined[1]
    return out


JOINED_NAME = re.compile(
    rf"(?:,| und| sowie) {ACADEMIC}(?P<name>(?:[A-ZÄÖÜ]\. ?)?{_SURNAME})(?=[\s,.;:])"
)
_SIGNATURE_TOKEN = re.compile(rf"(?:{ACADEMIC})?(?:[A-ZÄÖÜ]\. ?)?{_SURNAME}")
SIGNATURE_END = re.compile(r"Rechtsmittelbelehrung|Ausgefertigt|Beglaubigt|Hinweis|Vorinstanz")
HEADINGS = frozenset(
    [
        "Gründe",
        "Tenor",
        "Tatbestand",
        "Entscheidungsgründe",
        "Rechtsmittelbelehrung",
        "Ausgefertigt",
        "Beglaubigt",
        "Beschluss",
        "Urteil",
        "Leitsatz",
        "Leitsätze",
        "Hinweis",
        "Hinweise",
        "Vorinstanz",
        "Vorinstanzen",
        "Sonstiger",
        "Langtext",
        "Kurztext",
        "Orientierungssatz",
        "Fundstellen",
        "Norm",
        "Normen",
        "Schlagworte",
        "Verfahrensgang",
    ]
)


def find_signatures(text: str, tail: int = 1500) -> list[Span]:
    """Judges' names in the signature block at the end (``Sailer Krauß Guttenberger``,
    one name a line, ``gez.: Sauer Rech Engel``): lines of names only, two or more names
    in all, within the last ``tail`` characters or right before the instructions on appeal."""
    cut = max(0, len(text) - tail)
    lines = []
    for m in re.finditer(r"[^\n]+", text):
        if m.end() < cut and not SIGNATURE_END.match(text[m.end() : m.end() + 40].lstrip()):
            continue
        line = m.group(0)
        body_start = m.start() + (len(line) - len(line.lstrip()))
        body = line.strip()
        if body.lower().startswith("gez."):
            skip = len(re.match(r"gez\.:?\s*", body, re.IGNORECASE).group(0))
            body_start += skip
            body = body[skip:]
        if not body or len(body) > 90:
            continue
        names, at = [], 0
        while at < len(body):
            tok = _SIGNATURE_TOKEN.match(body, at)
            if tok is None:
                break
            name_start = at + len(re.match(ACADEMIC, body[at:]).group(0))
            if name_start >= tok.end():
                break  # `Dr.` alone: no name follows
            word = body[name_start : tok.end()].split()[-1]
            if word in NOT_NAMES or word in HEADINGS:
                break
            names.append((body_start + name_start, body_start + tok.end()))
            at = tok.end()
            at += len(body[at:]) - len(body[at:].lstrip(" ,"))
        if names and at >= len(body):
            lines.append((m.start(), names))
    # a block: one line with two or more names, or two or more lines in a row
    out = []
    for k, (start, names) in enumerate(lines):
        neighbour = any(
            abs(j_start - start) < 200 and j != k for j, (j_start, _) in enumerate(lines)
        )
        if len(names) >= 2 or neighbour:
            out += [_span(a, b, "nat-jur", "medium") for a, b in names]
    return out


# --- identifiers ---------------------------------------------------------------------------

IBAN_RE = re.compile(
    r"(?<![A-Z0-9])[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}(?:\s?[A-Z0-9]{1,3})?(?![A-Z0-9])"
)
EMAIL_RE = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?![\w-])")
REGISTER_RE = re.compile(r"(?<!\w)(?:HRB|HRA|GnR|VR|PR)\s?\d{2,6}(?:\s?[A-Z]{1,2}\b)?")
PHONE_RE = re.compile(
    r"(?:Tel(?:efon)?\.?|Fax|Mobil|Handy|Rufnummer|Telefonnummer)\s*:?\s*"
    r"(?P<number>(?:\+49\s?|0)\d{2,5}(?:[\s/-]?\d{2,}){1,4})"
)
PLATE_RE = re.compile(
    r"(?<![\w-])[A-ZÄÖÜ]{1,3}-[A-Z]{1,2}\s?[1-9]\d{0,3}[EH]?(?![\w-])"
    r"|(?:Kennzeichen|Kfz-Kennzeichen|amtlichen\sKennzeichen)\s(?P<plate>[A-ZÄÖÜ]{1,3}\s[A-Z]{1,2}\s[1-9]\d{0,3}[EH]?)"
)
CUED_NUMBER_RE = re.compile(
    r"(?:Vertrags|Versicherungs|Policen|Schaden|Kunden|Rechnungs|Konto|Mitglieds|"
    r"Personal|Steuer|Versicherten|Renten|Aktenz)\w*(?:nummer|-Nr\.|nr\.|\sNr\.)\s*:?\s*"
    r"(?P<number>[A-Z]{0,4}-?\d[\d\s/.-]{3,22}\d)"
)
# Invoice, credit-note and order codes after `Nr.` need no cue word (`Nr. RE-2023-4528`,
# `Nr. GS-2024-0912` in a list of credit notes): a letter prefix and two hyphenated number
# groups never stand for a statute (`§ 3 Nr. 2`) or a margin number.
CODED_NUMBER_RE = re.compile(r"Nr\.\s?(?P<number>[A-Z]{1,4}-\d{2,4}-\d{2,8})(?![\w-])")


def is_valid_iban(value: str) -> bool:
    """ISO 13616 checksum (mod 97 of the rearranged digits is 1)."""
    compact = value.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    digits = "".join(str(int(c, 36)) for c in compact[4:] + compact[:4])
    return int(digits) % 97 == 1


def find_ibans(text: str) -> list[Span]:
    return [
        _span(*m.span(), "id-number", "high")
        for m in IBAN_RE.finditer(text)
        if is_valid_iban(m.group(0))
    ]


def find_emails(text: str) -> list[Span]:
    return [_span(*m.span(), "id-number", "high") for m in EMAIL_RE.finditer(text)]


def find_registers(text: str) -> list[Span]:
    return [_span(*m.span(), "jur-idx", "medium") for m in REGISTER_RE.finditer(text)]


def find_phones(text: str) -> list[Span]:
    return [_span(*m.span("number"), "id-number", "high") for m in PHONE_RE.finditer(text)]


def find_plates(text: str) -> list[Span]:
    out = []
    for m in PLATE_RE.finditer(text):
        if re.match(r"^\s*[,)]", text[m.end() : m.end() + 3]) or in_citation(text, *m.span()):
            continue  # `NJW-RR 1998, 699`
        bounds = m.span("plate") if m.group("plate") else m.span()
        out.append(_span(*bounds, "car-idx", "high"))
    return out


def find_cued_numbers(text: str) -> list[Span]:
    """Contract, policy, claim, customer numbers after their cue words; coded invoice and
    credit-note numbers after ``Nr.``."""
    found = [m.span("number") for m in CUED_NUMBER_RE.finditer(text)]
    found += [m.span("number") for m in CODED_NUMBER_RE.finditer(text)]
    return [_span(*bounds, "id-number", "high") for bounds in sorted(set(found))]


for _recognizer in (
    Recognizer("dates", ("date-fact", "date-world"), find_dates, "dates with an attached time"),
    Recognizer("times", ("date-fact",), find_times, "times of day"),
    Recognizer("dockets", ("court-docket",), find_dockets, "this case's docket numbers"),
    Recognizer("courts", ("court-name",), find_courts, "court names with a place"),
    Recognizer("jurists", ("nat-jur",), find_jurists, "names after judicial titles"),
    Recognizer("signatures", ("nat-jur",), find_signatures, "judges' names signing the decision"),
    Recognizer("ibans", ("id-number",), find_ibans, "IBANs with a valid checksum"),
    Recognizer("emails", ("id-number",), find_emails, "e-mail addresses"),
    Recognizer("registers", ("jur-idx",), find_registers, "commercial register numbers"),
    Recognizer("phones", ("id-number",), find_phones, "phone numbers after their cue"),
    Recognizer("plates", ("car-idx",), find_plates, "German licence plates"),
    Recognizer("numbers", ("id-number",), find_cued_numbers, "contract/policy/claim numbers"),
):
    register(_recognizer)


# --- hybrid detection ----------------------------------------------------------------------

DEFAULT_RECOGNIZERS = (
    "dates",
    "times",
    "dockets",
    "courts",
    "jurists",
    "signatures",
    "ibans",
    "emails",
    "registers",
    "phones",
    "plates",
    "numbers",
)


def merge_with_rules(
    model_spans: Sequence[Span], rule_spans: Sequence[Span], text: str
) -> list[Span]:
    """The model's spans and the rules', merged for recall.

    - a rule span that overlaps no model span is added as it is (the rule found what the
      model missed: ``M 12 K 20.1234``);
    - where rule and model spans overlap, one span covers them all (union of characters,
      so neither side's edge is lost) and **the model decides label and risk** (the label
      of its longest span there), with the highest score;
    - model spans no rule touches stay as they are;
    - a model span that runs over two or more rule spans (``Verwaltungsgericht München`` and
      ``M 12 K 20.1234`` tagged as one) is cut at the rules' edges: each rule span keeps its
      own label, the pieces of the model span between them keep the model's.
    """
    groups: list[list[tuple[Span, bool]]] = []
    for span, from_model in sorted(
        [(s, True) for s in model_spans] + [(s, False) for s in rule_spans],
        key=lambda t: (t[0].start, -t[0].end),
    ):
        if groups and span.start < max(s.end for s, _ in groups[-1]):
            groups[-1].append((span, from_model))
        else:
            groups.append([(span, from_model)])
    out = []
    for group in groups:
        if len(group) == 1:
            out.append(group[0][0])
            continue
        rules = [s for s, m in group if not m]
        if len(rules) > 1:
            out += _split_by_rules(text, [s for s, m in group if m], rules)
            continue
        models = [s for s, m in group if m] or [s for s, _ in group]
        lead = max(models, key=lambda s: (s.end - s.start, s.score or 0.0))
        score = max((s.score or 0.0) for s, _ in group)
        start, end = min(s.start for s, _ in group), max(s.end for s, _ in group)
        out.append(Span(start, end, lead.label, lead.risk, round(score, 6)))
    return out


def _split_by_rules(text: str, model_spans: Sequence[Span], rules: Sequence[Span]) -> list[Span]:
    """The rule spans, plus what of the model spans lies outside them (by the model)."""
    out = list(rules)

    def piece(start: int, end: int, span: Span) -> None:
        while start < end and not text[start].isalnum():
            start += 1
        while end > start and not text[end - 1].isalnum():
            end -= 1
        if start < end:
            out.append(Span(start, end, span.label, span.risk, span.score))

    for span in model_spans:
        cursor = span.start
        for rule in sorted(rules):
            if rule.end <= cursor or rule.start >= span.end:
                continue
            piece(cursor, rule.start, span)
            cursor = max(cursor, rule.end)
        piece(cursor, span.end, span)
    return resolve_overlaps(sorted(out, key=lambda s: -(s.end - s.start)))
