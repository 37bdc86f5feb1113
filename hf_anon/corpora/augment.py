"""Variants of gold documents that real decisions have and generated ones lack.

Real published decisions are written in capitals (a rubrum, sometimes the whole text),
broken into short lines or hyphenated across them (PDF and web copies), and full of what
looks sensitive but is not: cited precedents with their courts, dates and dockets,
publication references, commentaries named after their authors, statutes, authorities
without a place, drugs and body parts. A model trained on clean generated text misses the
first and marks the second (issue 13). Each function here takes a :class:`Document` and
returns a new one whose spans still cover exactly their (changed) characters: character
offsets stay the currency, so the variants can be applied to any gold corpus.

The hard negatives are generated from tables (courts, docket shapes, reporters, statutes,
nouns), never copied from the real gold sets, which are kept for choosing and measuring.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from hf_anon.corpora.surrogates import MONTHS, format_date
from hf_anon.text.data import Document
from hf_anon.text.nouns import resource_lines

# -- length-preserving capitals ------------------------------------------------------------


def upper_keep_length(text: str) -> str:
    """``text.upper()`` but one character for one, so every offset stays valid: ``ß`` stays
    ``ß`` (``STRAßE``, as capitals from older court systems write it), not ``SS``."""
    return "".join(c.upper() if len(c.upper()) == 1 else c for c in text)


def shout(doc: Document, start: int = 0, end: int | None = None) -> Document:
    """The characters ``start:end`` (default: all) in capitals; spans keep their offsets."""
    end = len(doc.text) if end is None else end
    text = doc.text[:start] + upper_keep_length(doc.text[start:end]) + doc.text[end:]
    return replace(doc, text=text)


def rubrum_end(text: str) -> int:
    """Where the head of a decision ends: the first ``Tenor``/``Tatbestand``/``Gründe``
    heading or the first line that says what was decided, else a fifth of the text."""
    lowered = text.lower()
    marks = [
        lowered.find(word)
        for word in ("\ntenor", "\ntatbestand", "\ngründe", "für recht erkannt", "beschlossen")
    ]
    found = [m for m in marks if m > 0]
    return min(found) if found else len(text) // 5


# -- inserting text ------------------------------------------------------------------------


def insert(doc: Document, position: int, text: str) -> Document:
    """``text`` inserted at ``position``. Spans after it move; a span that strictly contains
    the position grows (a hyphen and line break inside a name stay inside its span)."""
    if not 0 <= position <= len(doc.text):
        raise ValueError(f"position {position} outside the text (0..{len(doc.text)})")
    n = len(text)
    spans = []
    for s in doc.spans:
        if s.start >= position:
            spans.append(replace(s, start=s.start + n, end=s.end + n))
        elif s.end > position:
            spans.append(replace(s, end=s.end + n))
        else:
            spans.append(s)
    return replace(doc, text=doc.text[:position] + text + doc.text[position:], spans=spans)


def insert_many(doc: Document, pieces: list[tuple[int, str]]) -> Document:
    """Several insertions, positions in the original text (applied right to left)."""
    for position, text in sorted(pieces, key=lambda p: p[0], reverse=True):
        doc = insert(doc, position, text)
    return doc


# -- line breaks ---------------------------------------------------------------------------


def break_lines(doc: Document, width: int) -> Document:
    """Hard line breaks about every ``width`` characters, as in PDF copies: a space becomes
    a newline (the length is kept, so are the spans, which then hold the break inside)."""
    chars = list(doc.text)
    column = 0
    last_space = -1
    for i, c in enumerate(chars):
        if c == "\n":
            column, last_space = 0, -1
            continue
        if c == " ":
            last_space = i
        column += 1
        if column > width and last_space >= 0:
            chars[last_space] = "\n"
            column = i - last_space
            last_space = -1
    return replace(doc, text="".join(chars))


def hyphenate(
    doc: Document, rng: random.Random, share: float = 0.3, min_length: int = 9
) -> Document:
    """Some long words split by ``-`` and a line break (``Leistun-\\ngen``), as in PDF copies;
    a split inside a span grows the span."""
    pieces = []
    position = 0
    for word in doc.text.split(" "):
        if len(word) >= min_length and word.isalpha() and rng.random() < share:
            cut = rng.randint(3, len(word) - 3)
            pieces.append((position + cut, "-\n"))
        position += len(word) + 1
    return insert_many(doc, pieces)


# -- hard negatives ------------------------------------------------------------------------

#: (court as cited, docket shapes): ``{n}`` a number, ``{yy}`` a two-digit year.
CITED_COURTS = (
    ("BGH", ("VIII ZR {n}/{yy}", "VI ZR {n}/{yy}", "XII ZB {n}/{yy}", "1 StR {n}/{yy}")),
    ("BVerwG", ("{d} C {n}.{yy}", "{d} B {n}.{yy}", "{d} VR {n}.{yy}")),
    ("BVerfG", ("1 BvR {n}/{yy}", "2 BvR {n}/{yy}", "1 BvL {n}/{yy}")),
    ("BAG", ("{d} AZR {n}/{yy}", "{d} ABR {n}/{yy}")),
    ("BSG", ("B {d} AS {n}/{yy} R", "B {d} KR {n}/{yy} R", "B {d} U {n}/{yy} R")),
    ("BFH", ("IX R {n}/{yy}", "VI R {n}/{yy}", "X B {n}/{yy}")),
    ("BayVGH", ("{d} CS {yy}.{nnnn}", "{d} B {yy}.{nnnn}", "{d} ZB {yy}.{nnnn}")),
    ("VGH Baden-Württemberg", ("{d} S {nnnn}/{yy}",)),
    ("OVG Nordrhein-Westfalen", ("{d} A {nnnn}/{yy}", "{d} B {nnnn}/{yy}")),
    ("OVG Berlin-Brandenburg", ("OVG {d} S {n}.{yy}", "OVG {d} N {n}.{yy}")),
    ("OLG München", ("{d} U {nnnn}/{yy}",)),
    ("OLG Hamm", ("{d} U {n}/{yy}",)),
    ("KG", ("{d} U {n}/{yy}",)),
    ("LAG Köln", ("{d} Sa {n}/{yy}",)),
    ("LSG Nordrhein-Westfalen", ("L {d} AS {nnnn}/{yy}",)),
    ("LSG Berlin-Brandenburg", ("L {d} AS {nnnn}/{yy} B ER",)),
    ("Bundesgerichtshof", ("VIII ZR {n}/{yy}",)),
    ("Bundesverwaltungsgericht", ("{d} C {n}.{yy}",)),
    ("EuGH", ("C-{n}/{yy}",)),
)
DECISION_KINDS = ("Urteil", "Beschluss", "Urt.", "Beschl.", "B.", "U.", "Kammerbeschluss")
REPORTERS = (
    "juris Rn. {r}",
    "NJW {y}, {p}",
    "NJW-RR {y}, {p}",
    "NVwZ {y}, {p}",
    "NVwZ-RR {y}, {p} Rn. {r}",
    "BeckRS {y}, {nnnnn}",
    "NZA {y}, {p}",
    "DStR {y}, {p}",
    "ZfS {y}, {p}",
    "BVerwGE {v}, {p}",
    "BGHZ {v}, {p}",
    "BVerfGE {v}, {p} <{p2}>",
    "openJur {y}, {nnnnn}",
)
COMMENTARIES = ("BGB", "VwGO", "ZPO", "SGB II", "StPO", "AufenthG", "VwVfG", "GG", "StGB")
STATUTES = (
    "§ {s} Abs. {a} BGB",
    "§ {s} Abs. {a} Satz {a2} VwGO",
    "§ {s} ZPO",
    "Art. {a} Abs. {a2} GG",
    "§ {s} Abs. {a} Nr. {a2} SGB II",
    "§ {s} SGB X",
    "§ {s} Abs. {a} StGB",
    "§ {a} Nr. {a2} BtMG",
    "§ {s} AufenthG",
    "Art. {a} Abs. {a2} BayBO",
    "§ {s} Abs. {a} KSchG",
    "§ {s} EStG",
)
AUTHORITIES = (
    "das Landratsamt",
    "die Ausländerbehörde",
    "das Jobcenter",
    "die Bauaufsichtsbehörde",
    "das Finanzamt",
    "die Staatsanwaltschaft",
    "die Polizei",
    "die Agentur für Arbeit",
    "das Bundesamt für Migration und Flüchtlinge",
    "die Fahrerlaubnisbehörde",
    "die Krankenkasse",
    "das Oberverwaltungsgericht",
    "das Landgericht",
    "das Amtsgericht",
    "das Bundesverwaltungsgericht",
    "der Bundesgerichtshof",
    "das Sozialgericht",
    "die Berufsgenossenschaft",
)
AUTHORITY_CLAUSES = (
    "ist hierfür sachlich zuständig",
    "hat ihr Ermessen in diesem Punkt nicht ausgeübt",
    "hat diese Frage bislang offengelassen",
    "ist an diese Auslegung nicht gebunden",
    "hat in vergleichbaren Fällen ebenso entschieden",
    "muss den Sachverhalt von Amts wegen ermitteln",
)
SUBSTANCES = (
    "Cannabis",
    "Marihuana",
    "Kokain",
    "Amphetamin",
    "Heroin",
    "Methadon",
    "Ecstasy",
    "Alkohol",
    "Ibuprofen",
    "Insulin",
    "Diazepam",
    "Blei",
    "Asbest",
    "Quecksilber",
    "Schimmel",
)
BODY_PARTS = (
    "Lendenwirbelsäule",
    "Halswirbelsäule",
    "Bandscheibe",
    "Schulter",
    "Kniegelenk",
    "Hüfte",
    "Sprunggelenk",
    "Lunge",
    "Leber",
    "Handgelenk",
)
THINGS = (
    "Heizkörper",
    "Dachrinne",
    "Fenster",
    "Thermostat",
    "Wasserschaden",
    "Abgasanlage",
    "Steuergerät",
    "Photovoltaikanlage",
    "Wärmepumpe",
    "Zaun",
)
HEADINGS = (
    "Tenor",
    "Gründe",
    "Tatbestand",
    "Entscheidungsgründe",
    "GRÜNDE",
    "TENOR",
    "Leitsätze",
    "Rechtsmittelbelehrung",
    "I.",
    "II.",
)


def _date(rng: random.Random, earliest: int = 1990, latest: int = 2024) -> str:
    day = dt.date(rng.randint(earliest, latest), rng.randint(1, 12), rng.randint(1, 28))
    style = rng.choice(("long", "padded", "short", "short"))
    if style == "short" and rng.random() < 0.3:
        return f"{day.day}.{day.month}.{day.year % 100:02d}"
    return format_date(day, style)


def _fill(template: str, rng: random.Random) -> str:
    year = rng.randint(1990, 2024)
    return template.format(
        n=rng.randint(1, 499),
        nnnn=rng.randint(100, 2999),
        nnnnn=rng.randint(1000, 99999),
        d=rng.randint(1, 12),
        yy=f"{year % 100:02d}",
        y=year,
        p=rng.randint(100, 3999),
        p2=rng.randint(100, 3999),
        r=rng.randint(3, 60),
        v=rng.randint(50, 170),
        s=rng.randint(1, 300),
        a=rng.randint(1, 20),
        a2=rng.randint(1, 6),
    )


def citation(rng: random.Random) -> str:
    """A cited precedent: ``vgl. BVerwG, Urteil vom 3.5.2016 – 4 C 17.15 –, juris Rn. 12``."""
    court, dockets = rng.choice(CITED_COURTS)
    docket = _fill(rng.choice(dockets), rng)
    reporter = _fill(rng.choice(REPORTERS), rng)
    dash = rng.choice(("–", "-"))
    kind = rng.choice(DECISION_KINDS)
    head = rng.choice(("vgl. ", "so ", "siehe ", "st. Rspr., vgl. ", ""))
    if rng.random() < 0.5:
        return f"{head}{court}, {kind} vom {_date(rng)} {dash} {docket} {dash}, {reporter}"
    return f"{head}{court}, {kind} v. {_date(rng)}, {docket}, {reporter}"


def commentary(rng: random.Random, surnames: Callable[[], str]) -> str:
    """Literature: ``Kopp/Schenke, VwGO, 27. Aufl. 2021, § 80 Rn. 152`` (authors are no spans)."""
    authors = "/".join(surnames() for _ in range(rng.choice((1, 2, 2, 3))))
    law = rng.choice(COMMENTARIES)
    edition = (
        f"{rng.randint(2, 84)}. Aufl. {rng.randint(2005, 2024)}, " if rng.random() < 0.6 else ""
    )
    return f"{authors}, {law}, {edition}§ {rng.randint(1, 300)} Rn. {rng.randint(1, 200)}"


def hard_negative(rng: random.Random, surnames: Callable[[], str]) -> str:
    """One sentence (or heading) with nothing sensitive in it that looks as if it had."""
    kind = rng.randrange(8)
    statute = _fill(rng.choice(STATUTES), rng)
    if kind == 0:
        return f"Dies entspricht der ständigen Rechtsprechung ({citation(rng)})."
    if kind == 1:
        return (
            f"Nach {statute} kommt es hierauf nicht an ({citation(rng)}; "
            f"{commentary(rng, surnames)})."
        )
    if kind == 2:
        authority = rng.choice(AUTHORITIES)
        return (
            f"{authority[:1].upper()}{authority[1:]} {rng.choice(AUTHORITY_CLAUSES)} ({statute})."
        )
    if kind == 3:
        return rng.choice(
            (
                f"Der Umgang mit {rng.choice(SUBSTANCES)} ist nach {statute} zu beurteilen.",
                f"Die Einnahme von {rng.choice(SUBSTANCES)} kann die Fahrtüchtigkeit mindern.",
                f"Schäden an der {rng.choice(BODY_PARTS)} sind bei solchen Unfällen häufig.",
                f"Ein Defekt am {rng.choice(THINGS)} begründet für sich genommen keinen Mangel.",
            )
        )
    if kind == 4:
        return f"Vgl. auch {commentary(rng, surnames)}; {citation(rng)}."
    if kind == 5:
        return rng.choice(HEADINGS)
    if kind == 6:
        month = rng.choice(MONTHS)
        return (
            f"Die Vorschrift gilt in der Fassung der Bekanntmachung vom {rng.randint(1, 28)}. "
            f"{month} {rng.randint(1990, 2023)} (BGBl. I S. {rng.randint(100, 3999)})."
        )
    return f"Das Gericht folgt insoweit {citation(rng)}."


# -- everyday nouns and the times of rules ------------------------------------------------

#: (article of the nominative, dative, accusative; the dative after ``in``/``an``/``von``
#: /``zu``/``bei`` contracted as courts write it) per gender
ARTICLES = {
    "m": {"N": "der", "NI": "ein", "D": "dem", "DI": "einem", "A": "den", "AI": "einen",
          "in": "im", "an": "am", "von": "vom", "zu": "zum", "bei": "beim"},
    "n": {"N": "das", "NI": "ein", "D": "dem", "DI": "einem", "A": "das", "AI": "ein",
          "in": "im", "an": "am", "von": "vom", "zu": "zum", "bei": "beim"},
    "f": {"N": "die", "NI": "eine", "D": "der", "DI": "einer", "A": "die", "AI": "eine",
          "in": "in der", "an": "an der", "von": "von der", "zu": "zur", "bei": "bei der"},
}  # fmt: skip
#: Sentences around a common noun where a model that learned "capitalised word after an
#: article or preposition" marks a name or place (``die Ampel sei auf Gelb umgesprungen``,
#: ``ein Ausweichmanöver vor einem Reh``, ``im Innenhof``, ``die Gartenpflege``). ``{X}``
#: is the noun with the article or contraction ``X`` of :data:`ARTICLES`, ``{Q}`` the
#: bare nominative, ``{Nc}`` the nominative phrase with a capital article.
EVERYDAY_FRAMES = (
    "Nach den Feststellungen entstand {in} kein weiterer Schaden.",
    "Der Zeuge hat {an} nichts Auffälliges bemerkt.",
    "Die Kosten für {A} sind nicht umlagefähig.",
    "Das Gericht hat {A} im Termin in Augenschein genommen.",
    "Es handelt sich um {AI} im Sinne der Vorschrift.",
    "Der Kläger ist nach seinen Angaben {DI} ausgewichen.",
    "{Nc} war nach dem Gutachten nicht mangelhaft.",
    "Streitig ist allein, ob {N} rechtzeitig gemeldet wurde.",
    "Die Beklagte verweist insoweit auf {A}.",
    "Die Angaben {zu} sind nicht nachvollziehbar.",
    "Ein Zusammenhang mit {D} ist nicht ersichtlich.",
    "Das Gebäude sei {NI}; das sei bei der Bewertung zu berücksichtigen.",
    "Im Übrigen fehlt es an {DI}.",
    "Hinweise auf {AI} ergeben sich aus der Akte nicht.",
    "Die Sachverständige hat vor {D} keine Spuren gefunden.",
    "Die Zeugin schilderte, sie habe {A} erst später bemerkt.",
    "Unter der Position „{Q}“ sind 120,00 € angesetzt.",
    "Der Begriff {Q} ist hier weit zu verstehen.",
    "Die Beteiligten haben sich {bei} nicht mehr über diesen Punkt geeinigt.",
    "Die Rechnung stammt nicht {von}, sondern aus dem Vorjahr.",
    "Der Kläger behauptet, er sei {bei} gestürzt.",
    "Wegen {Q} und der Folgen wird auf die Akte verwiesen.",
    "Die Klägerin rügt zu Recht, dass {N} nicht berücksichtigt wurde.",
    "Das Schreiben betrifft ausschließlich {A}.",
)
#: Rules, not facts: opening hours, quiet hours, the statutory night (ANNOTATION.md marks
#: dates and times *of the facts*)
RULE_TIME_FRAMES = (
    "Die Hausordnung sieht Ruhezeiten von {t1} bis {t2} vor.",
    "Die Geschäftsstelle ist werktags von {t1} bis {t2} erreichbar.",
    "Nach der Satzung ist die Benutzung zwischen {t1} und {t2} untersagt.",
    "Als Nachtzeit gilt nach der Verordnung die Zeit von {t1} bis {t2}.",
    "Die Anlage darf nach der Genehmigung nur von {t1} bis {t2} betrieben werden.",
    "Der Mietvertrag erlaubt das Musizieren nur zwischen {t1} und {t2}.",
)
#: Dates of world events and of statutes, which are no facts of a case
WORLD_DATE_FRAMES = (
    "Das Gesetz ist am {date} in Kraft getreten.",
    "Seit dem {date} gilt für diese Fälle eine Übergangsregelung.",
    "Die Vorschrift wurde mit Wirkung vom {date} geändert.",
    "Die Verordnung trat mit Ablauf des {date} außer Kraft.",
    "Die Neuregelung gilt für Bescheide, die nach dem {date} ergangen sind.",
)


@lru_cache(maxsize=1)
def everyday_nouns() -> tuple[tuple[str, str, str, str], ...]:
    """(gender, nominative, dative, accusative) of common nouns that are never names, people
    or floors (``resources/noun_cases.tsv.gz``, built by
    ``datasets_scripts/build_noun_lexicon.py``)."""
    return tuple(tuple(line.split("\t")) for line in resource_lines("noun_cases.tsv.gz"))


def everyday_sentence(rng: random.Random) -> str:
    """A common noun in a sentence where names stand: ``Der Zeuge hat am Bankett nichts
    Auffälliges bemerkt.``"""
    gender, nominative, dative, accusative = rng.choice(everyday_nouns())
    articles = ARTICLES[gender]
    noun_for = {"N": nominative, "NI": nominative, "A": accusative, "AI": accusative}
    fields = {key: f"{article} {noun_for.get(key, dative)}" for key, article in articles.items()}
    fields["Nc"] = f"{articles['N'].capitalize()} {nominative}"
    fields["Q"] = nominative
    return rng.choice(EVERYDAY_FRAMES).format(**fields)


def _clock(rng: random.Random, hour: int) -> str:
    return rng.choice((f"{hour}:00 Uhr", f"{hour}.00 Uhr", f"{hour} Uhr", f"{hour:02d}:00 Uhr"))


def rule_sentence(rng: random.Random) -> str:
    """Times of a rule or dates of a statute: ``Ruhezeiten von 22:00 Uhr bis 6:00 Uhr``."""
    if rng.random() < 0.5:
        start = rng.choice((6, 7, 8, 9, 13, 19, 20, 22))
        end = (start + rng.choice((2, 4, 8))) % 24
        return rng.choice(RULE_TIME_FRAMES).format(t1=_clock(rng, start), t2=_clock(rng, end))
    return rng.choice(WORLD_DATE_FRAMES).format(date=_date(rng, 1995, 2025))


def add_everyday_negatives(doc: Document, rng: random.Random, count: int) -> Document:
    """``count`` sentences of :func:`everyday_sentence` (three in four) or
    :func:`rule_sentence`, each a paragraph after the head."""

    def write() -> str:
        return everyday_sentence(rng) if rng.random() < 0.75 else rule_sentence(rng)

    return insert_paragraphs(doc, rng, count, write)


def insert_paragraphs(
    doc: Document, rng: random.Random, count: int, write: Callable[[], str]
) -> Document:
    """``count`` paragraphs from ``write()``, each at a paragraph break after the head that
    no span crosses."""
    head = rubrum_end(doc.text)
    breaks = [i for i in range(head, len(doc.text)) if doc.text.startswith("\n\n", i)]
    breaks = [i for i in breaks if not any(s.start < i < s.end for s in doc.spans)]
    if not breaks:
        breaks = [len(doc.text)]
    return insert_many(doc, [(rng.choice(breaks), "\n\n" + write()) for _ in range(count)])


def add_hard_negatives(
    doc: Document, rng: random.Random, count: int, surnames: Callable[[], str]
) -> Document:
    """``count`` hard-negative sentences inserted as paragraphs after the head."""
    return insert_paragraphs(doc, rng, count, lambda: hard_negative(rng, surnames))


# -- all together --------------------------------------------------------------------------


@dataclass(frozen=True)
class AugmentConfig:
    """How often each variant is drawn per document (probabilities)."""

    hard_negatives: float = 0.8  # 1–4 hard-negative paragraphs
    shout_head: float = 0.15  # the head (rubrum) in capitals
    shout_all: float = 0.03  # the whole decision in capitals
    line_breaks: float = 0.15  # hard breaks every 50–90 characters
    hyphens: float = 0.1  # hyphenated line breaks in long words
    #: 2–6 paragraphs of everyday nouns and rule times (off by default: the corpora of
    #: stages 4 and 5 were drawn without them and regenerate byte for byte)
    everyday_negatives: float = 0.0


def augment(
    doc: Document,
    rng: random.Random,
    config: AugmentConfig = AugmentConfig(),
    surnames: Callable[[], str] | None = None,
) -> Document:
    """One variant of ``doc``; each change keeps the spans exact."""
    if surnames is None:
        from faker import Faker

        faker = Faker("de_DE")
        faker.seed_instance(rng.random())
        surnames = faker.last_name
    if rng.random() < config.hard_negatives:
        doc = add_hard_negatives(doc, rng, rng.randint(1, 4), surnames)
    if config.everyday_negatives and rng.random() < config.everyday_negatives:
        doc = add_everyday_negatives(doc, rng, rng.randint(2, 6))
    if rng.random() < config.shout_all:
        doc = shout(doc)
    elif rng.random() < config.shout_head:
        doc = shout(doc, 0, rubrum_end(doc.text))
    if rng.random() < config.hyphens:
        doc = hyphenate(doc, rng)
    if rng.random() < config.line_breaks:
        doc = break_lines(doc, rng.randint(50, 90))
    return doc


def check_spans(doc: Document, original: Document) -> None:
    """Raise if a span's text changed other than by capitals, breaks and hyphens."""
    for new, old in zip(doc.spans, original.spans, strict=True):
        got = doc.text[new.start : new.end].replace("-\n", "").replace("\n", " ").casefold()
        want = original.text[old.start : old.end].replace("\n", " ").casefold()
        if got != want:
            raise AssertionError(f"{doc.id}: span {old} became {got!r}")


__all__ = [
    "AugmentConfig",
    "add_everyday_negatives",
    "add_hard_negatives",
    "augment",
    "break_lines",
    "check_spans",
    "citation",
    "commentary",
    "everyday_sentence",
    "hard_negative",
    "hyphenate",
    "insert",
    "insert_many",
    "insert_paragraphs",
    "rubrum_end",
    "rule_sentence",
    "shout",
    "upper_keep_length",
]
