"""Span edges the annotation guidelines fix per label, applied to decoded spans.

A model learns where spans of real decisions end from a few hundred examples and gets
the label-specific edges wrong in ways a rule gets right: ``1970-1993`` is two dates
(``ANNOTATION.md``: "a range is two spans"), the place alone is the span in
``Samtgemeinde Dörpen`` ("the authority noun stays outside"), ``Richter am
Verwaltungsgericht Engel`` names a judge, not a court. :func:`fix_boundaries` applies
these rules after the merge with the recognizers, before
:func:`hf_anon.model.decoding.edges.trim_edges` and once more after it (the trim joins spans that
only whitespace separates, which can
join what was split); each rule below has the example that motivates it.
Every rule only narrows, splits or relabels a span: none widens one or drops a name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hf_anon.model.decoding.edges import ONE_LINE_LABELS, SECTION_HEADINGS
from hf_anon.text.data import Span
from hf_anon.text.lexicon import LEGAL_FORMS

# `BUNDESVERWALTUNGSGERICHT\nBESCHLUSS\nBVerwG 7 B 28.10`: the kind of decision and the
# section headings stand on lines of their own and belong to no span.
DOCUMENT_TYPES = frozenset(
    {
        "beschluss", "beschluß", "urteil", "endurteil", "teilurteil", "schlussurteil",
        "versäumnisurteil", "anerkenntnisurteil", "gerichtsbescheid", "verfügung",
        "im namen des volkes", "in namen des volkes", "in dem rechtsstreit",
        "in der verwaltungsstreitsache", "in der verwaltungsrechtssache", "in der strafsache",
        "in der familiensache",
    }
)  # fmt: skip

# `1970-1993`, `6.9.2024 - 18.8.2025`: two dates joined by a dash (not the ISO
# `2020-05-03`, whose parts are no dates of their own).
_DATE_END = r"(?:\d{4}|\d{1,2}\.\d{1,2}\.\d{2,4}|\d{1,2}\.)"
_DASH = re.compile(r"\s*[-–]\s*(?=\d{1,2}\.|\d{4}\b)")
_ENDS_AS_DATE = re.compile(rf"(?:^|\s){_DATE_END}$")
# `31. 3., 16. 4.`: a comma before another day (not before a time, `…, 14:30 Uhr`)
_LIST_COMMA = re.compile(
    r",\s*(?!\d{1,2}[.:]\d{2}\s*(?:Uhr|h)\b)(?=\d{1,2}\.(?:/\d{1,2}\.)?\s?(?:\d|[A-ZÄÖÜ]))"
)
_ISO = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b")

# `Jahre 1989`, `Stichtagsmonat September 2008`: a noun that introduces a date is outside
# it (the guidelines mark `im Jahr 2011` as `2011`).
DATE_LEAD_NOUNS = re.compile(
    r"(?i:jahre?s?n?|stichtag\w*|monats?|datum|zeitpunkt|tag(?:es|s)?)", re.UNICODE
)

# `Samtgemeinde Dörpen`, `Kreisverwaltungsreferat München`, `Außenstelle Wiesbaden`: in the
# name of an authority or an area the place alone is an `address-name` (ANNOTATION.md,
# "Places in authority names"), so these nouns are cut off its start.
PLACE_LEAD_NOUNS = frozenset(
    {
        "samtgemeinde", "verbandsgemeinde", "gemeinde", "ortsgemeinde", "stadt",
        "stadtbereich", "stadtgebiet", "stadtteil", "ortsteil", "gemeindegebiet", "raum",
        "großraum", "bereich", "kreis", "kreisstadt", "landeshauptstadt", "außenstelle",
        "landratsamt", "kreisverwaltungsreferat", "polizeiinspektion", "polizeipräsidium",
        "polizeidirektion", "polizeistation", "polizeirevier", "finanzamt", "jobcenter",
        "ausländerbehörde", "staatsanwaltschaft", "regierung", "bezirksregierung",
        "stadtverwaltung", "kreisverwaltung", "gemeindeverwaltung", "bürgermeisteramt",
        "standesamt", "jugendamt", "sozialamt", "ordnungsamt", "bauamt", "arbeitsagentur",
        "agentur", "zweigstelle", "niederlassung", "justizvollzugsanstalt", "jva",
    }
)  # fmt: skip
# `Querfurter Raum`, `München I` (of `Staatsanwaltschaft München I`): an area noun or the
# number of an authority after the place is no part of it.
PLACE_TAIL_WORDS = frozenset({"raum", "gebiet", "umgebung", "umland", "bereich", "region"})
_ROMAN_NUMBER = re.compile(r"I{1,3}|IV|V|VI{1,3}")

# `Nordmark Bank`, `Kaulwerk-Gruppe`, `Vestra Pensionsfonds`: courts mask the name of a
# company, not the kind of business after it; the gold spans of real decisions never
# hold these nouns (data/real/README.md; not `Versicherung`, part of an insurer's name
# in `Donau-Inn Versicherung AG`, nor `Holding`, part of the name in LER), and a legal
# form is outside by the guidelines (`Nordkamp Limited`, `Förderverein Jugendhilfe e. V.`).
COMPANY_TAIL_NOUNS = frozenset(
    {
        "bank", "gruppe", "group", "konzern", "pensionsfonds", "pensionskasse",
        "klinik", "kliniken", "zentrum", "stiftung", "einzelhändler",
        "limited", "ltd", "gesamtschule",
    }
)  # fmt: skip
# `VEB Hochfrequenzbau`: the legal form of a nationally owned company, outside its name
COMPANY_LEAD_FORMS = frozenset({"VEB", "Fa.", "Firma", "Fa"})
# `litauischen Nordlita Bank`: an adjective of origin before a company's name
_ORIGIN_ADJECTIVE = re.compile(r"[a-zäöü]+(?:ischen|ische|ischer|isches|ischem)")

# `Richter am Verwaltungsgericht Engel`, `Präsidenten des Verwaltungsgerichtshofs Hüffer`:
# an official title holds the court type, and the word after it is the judge's name.
_TITLE_BEFORE_COURT = re.compile(
    r"(?:Richter(?:in)?|Richte\s?r|(?:Vize)?[Pp]räsident(?:in|en)?)\s+(?:am|des|der|beim)\s*$"
)
_COURT_TYPE = re.compile(
    r"(?:\w*gericht(?:shof)?(?:s|es)?|\w*gerichtshofs)\s+(?=[A-ZÄÖÜ])", re.UNICODE
)
# `Amtsgericht Neu-Ulm - Jugendrichter`: a judge's role after a dash is no part of the court
_COURT_ROLE_TAIL = re.compile(r"\s*[-–]\s*\w*(?:richter(?:in)?|rechtspfleger(?:in)?)\s*[-–]?$")

_WORD = re.compile(r"\S+")
#: Labels of names, which never begin with a number glued to them
NAME_LABELS = frozenset({"court-name", "nat-name", "nat-jur", "jur-name", "address-name"})
_NUMBER_BEFORE_NAME = re.compile(r"\d+(?=[A-ZÄÖÜ][a-zäöüß])")
_PRINT_DATE = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4}")
_PLACE_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüß]{2,}")
_DOCKET_END = re.compile(r"\d[.,]?$")
_COURT_ABBREVIATION = re.compile(r"VG|AG|LG|OLG|OVG|VGH|SG|LSG|LAG|ArbG|FG|KG|BayVGH")
# `13 K 4303/06 VG Köln`, `35 FH 11/04AG Mainz`: a docket followed by its court
_COURT_AFTER_DOCKET = re.compile(
    r"(?:(?<=\s)|(?<=\d))(?:" + _COURT_ABBREVIATION.pattern + r")\s+[A-ZÄÖÜ][\w-]+$"
)
# the `e` of `e. V.` at a span's end (the model stopped before its dot)
_E_V = re.compile(r"\.?\s?V\.")


def _core(word: str) -> str:
    return word.strip("\"'„“”‚‘’«»()[]{},;:.!?-–")


def _is_heading_line(line: str) -> bool:
    """``BESCHLUSS``, ``Tenor``, ``Im Namen des Volkes``: a line that is only a heading."""
    words = " ".join(_core(w) for w in line.split()).lower()
    return words in DOCUMENT_TYPES or words in SECTION_HEADINGS


def _looks_like(label: str, piece: str) -> bool:
    """Whether one line of a span cut at line breaks can stand alone: it has a digit, and a
    docket also a letter or separator (``1 F 320/18``, not the paragraph number ``4`` or
    the outline ``I``)."""
    if not any(c.isdigit() for c in piece):
        return False
    if label == "court-docket":
        return len(piece) >= 3 and any(c.isalpha() or c in "/._" for c in piece)
    return True


def split_lines(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans without the heading lines inside them (``BUNDESVERWALTUNGSGERICHT\\nBESCHLUSS``
    → ``BUNDESVERWALTUNGSGERICHT``; ``6 OWi 660 Js 13408/25\\nTenor`` → the docket); a
    docket span (:data:`~hf_anon.model.decoding.edges.ONE_LINE_LABELS`) cut at every line
    break, each line kept only if it can stand alone (``1 F 320/18.\\n4`` → ``1 F 320/18``)."""
    out: list[Span] = []
    for span in spans:
        if "\n" not in text[span.start : span.end]:
            out.append(span)
            continue
        one_line = span.label in ONE_LINE_LABELS
        group: list[tuple[int, int]] = []
        for m in re.finditer(r"[^\n]+", text[span.start : span.end]):
            line = m.group(0)
            a = span.start + m.start() + len(line) - len(line.lstrip())
            b = span.start + m.end() - len(line) + len(line.rstrip())
            heading = a >= b or _is_heading_line(line)
            if group and (heading or one_line):
                out.append(Span(group[0][0], group[-1][1], span.label, span.risk, span.score))
                group = []
            if heading or (one_line and not _looks_like(span.label, text[a:b])):
                continue
            if span.label == "court-docket":
                b = a + len(text[a:b].rstrip(".,;:"))  # `Az. 1 F 320/18.` ends a sentence
            group.append((a, b))
        if group:
            out.append(Span(group[0][0], group[-1][1], span.label, span.risk, span.score))
    return out


def split_ranges(text: str, spans: Sequence[Span]) -> list[Span]:
    """Dates joined by a dash as two spans (ANNOTATION.md: a range is two spans):
    ``1970-1993``, ``6.9.2024 - 18.8.2025``; the ISO ``2020-05-03`` stays one. A list of
    dates is one span per date (``31. 3., 16. 4.``), a date with its time one span
    (``3. März 2021, 14:30 Uhr``)."""
    out: list[Span] = []
    for span in spans:
        piece = text[span.start : span.end]
        if not span.label.startswith("date") or _ISO.search(piece):
            out.append(span)
            continue
        cuts = sorted(
            (span.start + m.start(), span.start + m.end())
            for joiner in (_DASH, _LIST_COMMA)
            for m in joiner.finditer(piece)
            if _ENDS_AS_DATE.search(piece[: m.start()])
        )
        start = span.start
        for a, b in cuts:
            out.append(Span(start, a, span.label, span.risk, span.score))
            start = b
        out.append(Span(start, span.end, span.label, span.risk, span.score))
    return out


def _judge_in_court(text: str, span: Span) -> Span | None:
    """``Richter am Verwaltungsgericht Engel`` read as a court: the judge's name."""
    if span.label != "court-name" or not _TITLE_BEFORE_COURT.search(
        text[max(0, span.start - 40) : span.start]
    ):
        return None
    m = _COURT_TYPE.match(text, span.start, span.end)
    if m is None or m.end() >= span.end:
        return None
    return Span(m.end(), span.end, "nat-jur", "medium", span.score)


def _trimmed_words(text: str, span: Span) -> tuple[int, int] | None:
    """The word bounds of ``span`` after the label's lead and tail words are cut off (an
    empty span when nothing is left), or None when nothing changes."""
    words = [m.span() for m in _WORD.finditer(text, span.start, span.end)]
    word = [text[a:b] for a, b in words]
    first, last = 0, len(words)
    label = span.label
    if not words:
        return None
    if label in NAME_LABELS and (glued := _NUMBER_BEFORE_NAME.match(word[0])):
        words[0] = (words[0][0] + glued.end(), words[0][1])  # `3Oberverwaltungsgericht NRW`
        word[0] = word[0][glued.end() :]
    if label.startswith("date"):
        while last > first and DATE_LEAD_NOUNS.fullmatch(_core(word[first])):
            first += 1
    elif label == "address-name":
        while last > first and _core(word[first]).lower() in PLACE_LEAD_NOUNS:
            first += 1
        while last > first and (
            _core(word[last - 1]).lower() in PLACE_TAIL_WORDS
            or _ROMAN_NUMBER.fullmatch(_core(word[last - 1]))
        ):
            last -= 1
    elif label == "jur-name":
        while last > first and (
            word[first] in COMPANY_LEAD_FORMS or _ORIGIN_ADJECTIVE.fullmatch(word[first])
        ):
            first += 1
        while last > first and (
            _core(word[last - 1]).lower() in COMPANY_TAIL_NOUNS
            or word[last - 1] in LEGAL_FORMS
            or (word[last - 1] in ("e", "e.") and _E_V.match(text, words[last - 1][1]))
        ):
            last -= 1
    elif label == "court-docket":
        while last - first > 2 and _COURT_ABBREVIATION.fullmatch(word[last - 2]):
            last -= 2  # a court after its docket that `split_courts` left (`… VG Köln,`)
        while last - first > 1 and (
            _PRINT_DATE.fullmatch(word[last - 1])  # `26 K 1871/04 27.11.2009`
            or _PLACE_WORD.fullmatch(word[last - 1])  # `VG 3 L 21/26 Berlin`
        ):
            last -= 1
        nr = next((i for i in range(first + 1, last) if word[i] == "Nr."), None)
        if nr is not None and _DOCKET_END.search(word[nr - 1]):
            last = nr  # `VG 3 M 12/12 Nr. 1.13`: the number of a paragraph after it
    if (first, last) == (0, len(words)) and words[0][0] == span.start:
        return None
    if first >= last:  # `Samtgemeinde`, `Jahre`, `Bank` alone: no place, date or name
        return span.start, span.start
    return words[first][0], words[last - 1][1]


def _company_compound(text: str, span: Span) -> int | None:
    """``Kaulwerk-Gruppe`` → the end of ``Kaulwerk``: a business noun glued by a hyphen."""
    if span.label != "jur-name":
        return None
    piece = text[span.start : span.end]
    dash = piece.rfind("-")
    if dash <= 0 or " " in piece[dash:]:
        return None
    tail = _core(piece[dash + 1 :]).lower()
    return span.start + dash if tail in COMPANY_TAIL_NOUNS else None


def split_courts(text: str, spans: Sequence[Span]) -> list[Span]:
    """A docket span that runs into the court after it, as a docket and a court
    (``13 K 4303/06 VG Köln`` → ``13 K 4303/06``, ``VG Köln``)."""
    out: list[Span] = []
    for span in spans:
        court = (
            _COURT_AFTER_DOCKET.search(text, span.start, span.end)
            if span.label == "court-docket"
            else None
        )
        docket_end = court.start() if court else span.start
        while docket_end > span.start and text[docket_end - 1].isspace():
            docket_end -= 1
        if court is None or not any(c.isdigit() for c in text[span.start : docket_end]):
            out.append(span)
            continue
        out.append(Span(span.start, docket_end, span.label, span.risk, span.score))
        out.append(Span(court.start(), span.end, "court-name", "low", span.score))
    return out


def fix_boundaries(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans with the label-specific edges of the guidelines; see the module docstring.

    - headings and line breaks: :func:`split_lines`; date ranges: :func:`split_ranges`; a
      docket and its court: :func:`split_courts`;
    - a date's introducing noun is outside (``Jahre 1989`` → ``1989``);
    - an authority or area noun is outside a place (``Samtgemeinde Dörpen`` → ``Dörpen``,
      ``Querfurter Raum`` → ``Querfurter``, ``München I`` → ``München``);
    - a company's business noun, legal form or origin adjective is outside its name
      (``Nordmark Bank``, ``Kaulwerk-Gruppe``, ``Nordkamp Limited``, ``VEB
      Hochfrequenzbau``, ``litauischen Nordlita`` → the name);
    - a judge's role after a court is outside it (``Amtsgericht Neu-Ulm - Jugendrichter``);
      a court type after an official title is the title, the word after it the judge
      (``Richter am Verwaltungsgericht Engel`` → ``Engel``, ``nat-jur``).
    """
    out: list[Span] = []
    for span in split_courts(text, split_ranges(text, split_lines(text, spans))):
        judge = _judge_in_court(text, span)
        if judge is not None:
            out.append(judge)
            continue
        role = (
            _COURT_ROLE_TAIL.search(text, span.start, span.end)
            if span.label == "court-name"
            else None
        )
        if role and role.start() > span.start:
            span = Span(span.start, role.start(), span.label, span.risk, span.score)
        end = _company_compound(text, span)
        if end is not None:
            span = Span(span.start, end, span.label, span.risk, span.score)
        bounds = _trimmed_words(text, span)
        if bounds is not None:
            span = Span(*bounds, span.label, span.risk, span.score)
        if span.end > span.start:
            out.append(span)
    return out
