"""Spans trimmed of closed-class words, verbs, roles and headings at their edges
(:func:`trim_edges`), joined where one label touches itself (:func:`join_touching`) and
split where a list joins several (:func:`split_joined`); a span kept only if it has its
label's shape (a date a number or a calendar word, a docket a joining sign).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS, LabelSet
from hf_anon.text.lexicon import (
    EDGE_PUNCT,
    ROLE_NOUNS,
    core_word,
    is_closed_class,
)
from hf_anon.text.names import NAME_PARTICLES
from hf_anon.text.tables import MONTH_ABBREVIATIONS, MONTHS, SEASONS

#: Nouns of legal prose that name a thing, an amount, a step or a time, never a person, a
#: company, a place or a date on their own (``Zinsen in Höhe von``, ``Akte I. Instanz``, ``in
#: der Nacht``); none is a German surname. A span of them alone is dropped.
COMMON_NOUNS = frozenset(
    [
        "Höhe",
        "Hälfte",
        "Raten",
        "Rate",
        "Instanz",
        "Betrag",
        "Summe",
        "Zinsen",
        "Kosten",
        "Gebühr",
        "Frist",
        "Antrag",
        "Klage",
        "Berufung",
        "Revision",
        "Beschwerde",
        "Urteil",
        "Beschluss",
        "Akte",
        "Akten",
        "Blatt",
        "Anlage",
        "Seite",
        "Fußnote",
        "Eides",
        "Büro",
        "Grundbuch",
        "Flurstück",
        "Gemarkung",
        "Terrasse",
        "Wohnung",
        "Grundstück",
        "Fahrzeug",
        "PKW",
        "Pkw",
        "Kfz",
        "Pistole",
        "Waffe",
        "Kellerraum",
        "Laufbahngruppe",
        "Besoldungsgruppe",
        "Schadstoffklasse",
        "Holding",
        "Kinderheim",
        "Justizvollzugsanstalt",
        "Hehlerei",
        "Diebstahl",
        "Betrug",
        "Turnus",
        "Szenario",
        "Grafik",
        "Nacht",
        "Vormittag",
        "Nachmittag",
        "Urlaub",
        "qm",
        "km",
        "Euro",
        "EUR",
        "Prozent",
        "Alleinerbin",
        "Alleinerbe",
        "Schädiger",
        "Wochenende",
        "Feiertag",
        "Feiertage",
        "Monaten",
        "Jahre",
        "Tage",
        "Wochen",
    ]
)
#: Weekdays stand outside a date (``Montag, 29.09.2014``: GUIDE no. 36); alone they date
#: nothing. Several are surnames (``Freitag``), so only date spans of them are dropped.
WEEKDAYS = frozenset(
    [
        "Montag",
        "Dienstag",
        "Mittwoch",
        "Donnerstag",
        "Freitag",
        "Samstag",
        "Sonnabend",
        "Sonntag",
        "Sonntage",
    ]
)
#: A court named by its type alone (``das Arbeitsgericht``, ``beim SG``) or a chamber
#: (``21. Senat``) is no court name: the guidelines ask for a place or a federal/state
#: identity (ANNOTATION.md; ``3. Kammer``: GUIDE no. 8).
GENERIC_COURT = re.compile(
    r"(?i:(?:amts|land|oberlandes|arbeits|landesarbeits|sozial|landessozial|familien|"
    r"verwaltungs|oberverwaltungs|finanz|insolvenz|vollstreckungs|betreuungs|nachlass|"
    r"register|grundbuch|schöffen|jugend)?gericht(?:s|es|e|en)?)"
    r"|SG|LG|AG|VG|OLG|LSG|LAG|ArbG|FG|OVG|VGH|Senats?|Kammer"
    r"|\d{1,2}[a-z]?\.\s*(?i:(?:zivil|straf|familien|fach|revisions|wehrdienst)?(?:senat|kammer)\w*)"
)
#: Every docket has numbers joined by a slash, dot, underscore or dash (`4 K 840/11`,
#: `M 12 K 20.1234`, `1_K_592_08`, `20-3607023-0-0`, `ECLI:DE:…`): a number alone
#: (`Antrag Nr. 9a`) or a chamber (`Zivilkammer 15`) is none.
DOCKET_SHAPE = re.compile(r"\d\s?[/._:-]\s?\w|\w\s?[/._:-]\s?\d")
# The headings of a German decision are never spans, nor part of one (`Tenor` alone on its
# line is read as a name by a model that saw few of them); a roman outline number after a
# heading (`Tenor\nI`) goes with it.
SECTION_HEADINGS = frozenset(
    [
        "tenor",
        "gründe",
        "tatbestand",
        "entscheidungsgründe",
        "leitsatz",
        "leitsätze",
        "orientierungssatz",
        "rubrum",
        "sachverhalt",
        "rechtsmittelbelehrung",
        "rechtsbehelfsbelehrung",
        "rechtsmittelbelehrungen",
    ]
)
_ROMAN = re.compile(r"[IVX]{1,4}\.?")
# Street and business names may begin with a preposition or article (``Am Kugelfang 3``,
# ``An der Alster 5``, ``Zur Linde``): capitalised and followed by a capitalised word.
NAMED_PLACE_LABELS = frozenset({"address-name", "jur-name"})
_WORD = re.compile(r"\S+")


def _names_a_place(rest: Sequence[str]) -> bool:
    """``Kugelfang 3`` or ``der Alster 5`` after a capitalised preposition: a street name."""
    if rest and rest[0].istitle() and not is_closed_class(rest[0]):
        return True
    articles = {"der", "die", "das", "den", "dem"}
    return len(rest) > 1 and rest[0] in articles and rest[1].istitle()


# Personal features are phrases that may begin with a preposition (ANNOTATION.md:
# `seit Mai 2018 verheiratete`, `geboren am 12.03.1975`): never trimmed.
PHRASE_LABELS = frozenset({"nat-idx"})


def join_touching(text: str, spans: Sequence[Span]) -> list[Span]:
    """Spans of one label separated by whitespace only, joined: a model that tags
    ``Maximilian Graf von`` and ``Reutern`` apart meant one name, and trimming ``von``
    off the first part must not open a gap in it. Dockets on two lines stay two
    (``5 C 08.1191\nAu 4 K 07.1771``)."""
    out: list[Span] = []
    for span in sorted(spans):
        last = out[-1] if out else None
        if (
            last is not None
            and last.label == span.label
            and last.end <= span.start
            and not text[last.end : span.start].strip()
            and not ("\n" in text[last.end : span.start] and span.label in ONE_LINE_LABELS)
        ):
            score = max(last.score or 0.0, span.score or 0.0)
            out[-1] = Span(last.start, span.end, last.label, last.risk, score)
        else:
            out.append(span)
    return out


def _is_dangling(word: str, *, at_start: bool, closed: bool = False) -> bool:
    """A dash or other sign without letters or digits, or a bracket opened at a span's end
    (``Ford Transit (Kennzeichen``) or closed at its start: never an edge of a span. A
    bracket the text closes right after the span is no dangling one (``Bundessozialgericht
    (BSG)``, ``closed``)."""
    if not any(c.isalnum() for c in word):
        return True
    if at_start:
        return word.endswith(")") and "(" not in word
    return word.startswith("(") and ")" not in word and not closed


def _is_heading(word: str) -> bool:
    return word.strip(EDGE_PUNCT).lower() in SECTION_HEADINGS


def _is_lower_word(word: str) -> bool:
    """A word of two or more letters, all lower case, no digit: ``bog``, ``stadteinwärts``
    (not ``12a``, ``e.V.``, ``mbH`` or the house-number letter ``a``)."""
    core = word.strip(EDGE_PUNCT)
    letters = [c for c in core if c.isalpha()]
    return (
        len(letters) >= 2
        and not any(c.isdigit() for c in core)
        and all(c.islower() for c in letters)
    )


def _has_name_word(words: Sequence[str]) -> bool:
    """Some word with an upper-case letter or a digit: what a name or address is made of."""
    return any(any(c.isupper() or c.isdigit() for c in w) for w in words)


#: Labels whose spans are proper names or addresses: never a lower-case word at an edge.
CASED_NAME_LABELS = frozenset({"address-name", "court-name"})


#: Labels whose spans never run over a line break (a docket; a date may: `17. Februar\n2026`).
ONE_LINE_LABELS = frozenset({"court-docket"})

#: Conjunctions that join two names into one span (``Jakub und Ewa Kowalczyk``).
NAME_JOINERS = frozenset({"und", "oder", "sowie", "bzw.", "bzw", "u.", "&"})
#: Labels of numbered expressions: a closed-class word after a number ends one
#: (``Bahnhofstraße 12 in Regensburg``, ``16.07.2024 am 06.08.2024``).
NUMBERED_LABELS = frozenset({"address-name", "date-fact", "date-world"})


def _split_points(words: Sequence[str], label: str, label_set: LabelSet) -> list[int]:
    """Indices of the words inside a span at which it falls apart into two (the word
    itself belongs to neither): a conjunction between two names of people or two personal
    features, a closed-class word after a number in an address or date."""
    points = []
    for i in range(1, len(words) - 1):
        w = words[i]
        joins = w.lower() in NAME_JOINERS and w != "&" and not words[i - 1].endswith("-")
        if joins and (label in label_set.person_labels or label in PHRASE_LABELS):
            # `Jakub und Ewa Kowalczyk`, `chilenische Staatsangehörige und Doktorandin`;
            # not `Kunststoff- und Kautschuktechnik`, and `&` joins partners' names
            points.append(i)
        elif (
            label in NUMBERED_LABELS
            and w == w.lower()
            and is_closed_class(w)
            and any(c.isdigit() for c in words[i - 1])
        ):
            points.append(i)  # `Bahnhofstraße 12 in Regensburg`
    return points


def split_joined(text: str, spans: Sequence[Span], label_set: LabelSet = DEFAULT_LABELS):
    """Spans that hold two expressions joined by a function word, as two spans
    (:func:`_split_points`); the joining word stays in the text."""
    out: list[Span] = []
    for span in spans:
        found = list(_WORD.finditer(text, span.start, span.end))
        points = _split_points([m.group(0) for m in found], span.label, label_set)
        if not points:
            out.append(span)
            continue
        bounds = [-1, *points, len(found)]
        for a, b in pairwise(bounds):
            if a + 1 < b:
                start, end = found[a + 1].start(), found[b - 1].end()
                out.append(Span(start, end, span.label, span.risk, span.score))
    return out


def _off_start(word: str, rest: Sequence[str], label: str, label_set: LabelSet) -> bool:
    """Whether ``word``, the first word of a span of ``label`` before ``rest``, is cut off
    (the rules of :func:`trim_edges`)."""
    from hf_anon.text.names import TITLES, is_person_noun

    person = label in label_set.person_labels
    if person and word.lower() in NAME_PARTICLES and rest and rest[-1][:1].isupper():
        return False  # `von der Au`, `van Dijk`
    if is_closed_class(word):  # `in der Bahnhofstraße`, but `Am Kugelfang 3`
        return not (label in NAMED_PLACE_LABELS and word.istitle() and _names_a_place(rest))
    if not _has_name_word(rest):
        return False
    if (person or label in CASED_NAME_LABELS) and _is_lower_word(word):
        return True  # `sagte Hans Müller`
    role = is_person_noun(word) or word.lower() in TITLES
    return person and role and not word.endswith(",")  # not `Richter, Anna`


def _after_person_noun(text: str, start: int) -> bool:
    """Whether the word before ``start`` names a person by role or salutation: then a
    role-like word is a surname (``Zeugen Richter``, ``Polizeibeamte Richter``, ``Herr
    Koch``), not a role."""
    from hf_anon.text.names import is_person_noun, words_before

    before = words_before(text[max(0, start - 80) : start], 1)
    return bool(before) and is_person_noun(before[0])


def trim_edges(
    text: str, spans: Sequence[Span], label_set: LabelSet = DEFAULT_LABELS
) -> list[Span]:
    """Spans without words at their edges that cannot belong to them; spans made only of
    such words are dropped. Each rule with the example that motivates it:

    - **Closed-class words** (:func:`is_closed_class`) never start or end a span
      (ANNOTATION.md): ``in der Bahnhofstraße 12`` → ``Bahnhofstraße 12``,
      ``Bahnhofstraße 12 in`` → ``Bahnhofstraße 12``; a lone ``der`` disappears.
      Particles of person names stay (``von der Au`` as ``nat-jur``), and so do a
      capitalised preposition or article that begins a street or company name (``Am
      Kugelfang 3``, ``An der Alster 5``). Phrases (``nat-idx``: ``seit Mai 2018
      verheiratet``) may begin with one, never end with one (``Pflegefachkraft auf der
      Intensivstation der`` → ``… Intensivstation``).
    - **Verbs and other lower-case words** never start or end a name of a person or an
      address, since German writes names capitalised: ``Tobias Wendrich bog`` → ``Tobias
      Wendrich``, ``sagte Hans Müller`` → ``Hans Müller``, ``Allersberger Straße
      stadteinwärts`` → ``Allersberger Straße``. A particle before a capitalised name stays
      (``van Dijk``, ``de la Cruz``); a house-number letter (``12 a``) is no word here. A
      span of such words alone (``entgangene``, ``ebenda``) names nobody and is dropped.
    - **Salutations, titles, roles** are outside a person's name (ANNOTATION.md): ``Frau
      Brandstätters`` → ``Brandstätters``, ``Mutter Katharina Moser`` → ``Katharina
      Moser``, ``Familie Kowalczyk`` → ``Kowalczyk`` (:func:`hf_anon.text.names.is_person_noun`).
      A word followed by a comma is the surname of ``Richter, Anna`` and stays. A span of
      role nouns alone (``der Kläger``) is no name and is dropped, unless a role or
      salutation stands right before it: then it is a surname (``Zeugen Richter``).
    - **Section headings** (``Tenor``, ``Gründe``) are cut off the start; so are dashes and
      other signs without letters or digits at either edge (``Landgericht Passau –``) and
      a bracket opened at the end (``Ford Transit (Kennzeichen``).
    - **Common nouns of legal prose** (:data:`COMMON_NOUNS`: ``Zinsen in Höhe von``) and, in
      a date, weekdays (:data:`WEEKDAYS`) are no span on their own; nor is a court named by
      its type alone or a chamber (:data:`GENERIC_COURT`: ``das Arbeitsgericht``, ``21. Senat``).

    - **Two expressions in one span** are split where a function word joins them
      (:func:`split_joined`): ``Jakub und Ewa Kowalczyk`` → ``Jakub``, ``Ewa Kowalczyk``;
      ``Bahnhofstraße 12 in Regensburg`` → ``Bahnhofstraße 12``, ``Regensburg``;
      ``16.07.2024 am 06.08.2024`` → two dates. Other closed-class words inside a span
      stay: ``von der Au``, ``Frankfurt am Main``, ``Straße des 17. Juni``, ``Amtsgericht
      München``, ``Müller und Söhne`` (a company).

    Spans of one label separated by whitespace only are joined first
    (:func:`join_touching`), then split and trimmed.
    """
    from hf_anon.text.names import is_person_noun

    out = []
    for span in split_joined(text, join_touching(text, spans), label_set):
        words = [m.span() for m in _WORD.finditer(text, span.start, span.end)]
        word = [text[a:b] for a, b in words]
        first, last = 0, len(words)
        person = span.label in label_set.person_labels
        cased = person or span.label in CASED_NAME_LABELS
        phrase = span.label in PHRASE_LABELS
        if cased and not _has_name_word(word):
            continue  # `entgangene`, `ebenda`: no name
        while first < last and _is_dangling(word[first], at_start=True):
            first += 1
        while (
            first < last
            and not phrase
            and _off_start(word[first], word[first + 1 : last], span.label, label_set)
        ):
            first += 1
        while (
            last > first
            and (
                _is_dangling(  # `Landgericht Passau –`
                    word[last - 1],
                    at_start=False,
                    closed=text.startswith(")", words[last - 1][1]),
                )
                or is_closed_class(word[last - 1])  # `Bahnhofstraße 12 in`
                or (  # `Tobias Wendrich bog`, not `Ober-\nverwaltungsgericht`
                    cased
                    and _is_lower_word(word[last - 1])
                    and _has_name_word(word[first : last - 1])
                    and not word[last - 2].endswith("-")
                )
            )
        ):
            last -= 1
        while first < last and _is_heading(word[first]):
            first += 1
            while first < last and _ROMAN.fullmatch(word[first]):
                first += 1
        if first >= last:
            continue
        if all(
            core_word(w).lower() in ROLE_NOUNS or (person and is_person_noun(w))
            for w in word[first:last]
        ) and not (person and _after_person_noun(text, words[first][0])):
            continue  # a role noun is not a name (`der Kläger`, ANNOTATION.md)
        if not phrase and all(
            core_word(w) in COMMON_NOUNS
            or (span.label.startswith("date") and core_word(w) in WEEKDAYS)
            for w in word[first:last]
        ):
            continue  # `in Höhe von`, `am Freitag, 13.2.2026`: a common noun, no span
        if not _holds_its_shape(text, span.label, words[first][0], words[last - 1][1]):
            continue  # `drei Monaten`, `78,5 m²`, `nach links`, `Antrag Nr. 9a`
        if span.label in ("court-name", "court-docket") and GENERIC_COURT.fullmatch(
            core_word(text[words[first][0] : words[last - 1][1]])
        ):
            continue  # `das Arbeitsgericht`, `21. Senat`: no court of its own
        start, end = words[first][0], words[last - 1][1]
        if (start, end) == (span.start, span.end):
            out.append(span)
        else:
            out.append(Span(start, end, span.label, span.risk, span.score))
    return out


#: Month names and their abbreviations, as one alternation
_MONTH_NAMES = "|".join([*MONTHS, *(re.escape(m) for m in MONTH_ABBREVIATIONS)])
#: Words that date without a number (`im Sommer 2021` has one; `zur Jahrtausendwende`)
CALENDAR_WORDS = re.compile(
    r"\b(?:"
    + "|".join([_MONTH_NAMES, *SEASONS])
    + r"|Ostern|Pfingsten|Weihnachten|Silvester|Neujahr|Jahrtausendwende|Jahreswechsel|"
    r"Mitternacht|Mittag|Uhr)"
)
#: `9 - 12/2025`, `zwischen 22 und 24 Uhr`: a bare day, month or hour opening a range
_RANGE_AFTER = re.compile(r"\s*(?:[-–]|bis|und)\s*\d")
#: What follows a bare number that is a day or an hour: `13.30 Uhr`, `05:45`, `3. bis zum
#: 7. Mai`, `5./6. Juni`, `31. 3.`, `1. Januar`; not a list's or a chamber's number
#: (`die Anträge zu 1. bis 8.: …`, `12. die Beklagte zu verurteilen`)
_DAY_OR_HOUR_AFTER = re.compile(
    rf":\d|\.\s?\d|\.\s*(?:(?:bis(?:\s+zu[mr])?|und|oder|[-–,/])\s*\d|{_MONTH_NAMES})"
)
#: A measure is no floor, flat or plot (`78,5 m²`, `70 km/h`)
_UNIT = re.compile(r"(?:m²|qm|km/h|km|%|€|Euro)(?!\w)")
_DWELLING = re.compile(
    r"(?i:geschoss|wohnung|etage|stock|keller|abteil|stellplatz|garage|flur)|OG|EG|DG"
)
_DIRECTIONS = frozenset({"links", "rechts", "mitte", "vorne", "hinten", "oben", "unten"})
_ANNEX_BEFORE = re.compile(r"\b(?:Anlagen?|Anl\.)\s*$")


def _holds_its_shape(text: str, label: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` has what every span of ``label`` has (ANNOTATION.md):
    a date a number or a calendar word, and a bare number of one to three digits only
    as a day or hour (``1. Januar``, ``13.30 Uhr``, ``3. bis 7. Mai``) or before a range
    (``9 - 12/2025``), never as a list's number (``12. die Beklagte zu verurteilen``) or
    with a letter (``18a.``); a floor,
    flat or plot no measure without its dwelling (``78,5 m²``, not ``48 qm große
    Erdgeschosswohnung``), not a direction alone (``nach links``), no annex (``Anlage
    K 6``); a docket numbers joined by a sign (:data:`DOCKET_SHAPE`: not ``Antrag Nr. 9a``,
    ``Anlage AST 3``, ``Zivilkammer 15``)."""
    value = text[start:end]
    if label == "court-docket":
        return DOCKET_SHAPE.search(value) is not None
    if label.startswith("date"):
        if not any(c.isdigit() for c in value):
            return CALENDAR_WORDS.search(value) is not None  # not `drei Monaten`
        if re.fullmatch(r"\d{1,3}[a-z]", value):
            return False  # `des 18a. Zivilsenats`: no date has a letter
        return (
            not re.fullmatch(r"\d{1,3}", value)
            or _DAY_OR_HOUR_AFTER.match(text, end) is not None  # `13.30 Uhr`, `3. bis 7. Mai`
            or _RANGE_AFTER.match(text, end) is not None
        )
    if label == "address-idx":
        return not (
            (_UNIT.search(value) and not _DWELLING.search(value))
            or value.lower() in _DIRECTIONS
            or _ANNEX_BEFORE.search(text[max(0, start - 12) : start])
        )
    return True
