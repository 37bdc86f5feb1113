"""Placeholder shapes: what the courts' anonymization marks look like, in one place.

Three readers of placeholders use them, each for its own purpose, so each has its own
table below (the shapes differ where the purposes do):

- **Elements of published decisions** (:mod:`hf_anon.corpora.placeholders.detector`): the
  whitespace-separated elements of a decision (``…``, ``H...``, ``Xxxxx``,
  ``xx.xx.2016``, ``A.``, ``A-Straße``, ``a@x.de``, ``Ａ``); an ellipsis is three dots or
  ``…`` there (two dots end abbreviations). Whether a *potential* shape (a single letter)
  is a placeholder, the detector's context rules decide.
- **Tokens of spans to replace** (:func:`placeholder_kind`, :func:`has_mask`,
  :func:`looks_like_placeholder`, read by :mod:`hf_anon.corpora.surrogates`): what kind of
  placeholder a token of a span is, so that its surrogate keeps the shape (``A.`` is the
  initial of a person, ``xx.xx.2016`` keeps its year); two dots count as a mask here.
- **Parts of LER mentions** (:func:`is_placeholder_part`, :func:`placeholder_parts`,
  :func:`is_placeholder_mention`, read by :mod:`hf_anon.corpora.ler`): a rule on the words of a
  tagged mention, without context (``G.``, ``B1``, ``Ts.``, ``A.B.``, ``K…``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from itertools import pairwise

from hf_anon.text.lexicon import LEGAL_FORM_PAIRS, LEGAL_FORMS

# --- elements of published decisions (the detector) -------------------------------------

_ELLIPSIS = r"(?:\.{3,}|…)"
_LETTER = r"[A-ZÄÖÜ]"
_FULLWIDTH = r"[\uFF21-\uFF3A\uFF41-\uFF5A]"

RE_ELLIPSIS = re.compile(rf"^{_ELLIPSIS}$")
# A word with an ellipsis in it: "H...", "B...s", "…straße", "a...", "Dr...".
RE_MASKED_WORD = re.compile(
    rf"^(?:[A-Za-zÄÖÜäöüß]{{1,2}}\d?{_ELLIPSIS}[a-zäöüß]{{0,3}}|{_ELLIPSIS}[a-zäöüß][\w-]*"
    rf"|{_ELLIPSIS}-[A-ZÄÖÜ][\w-]*)$"  # also "…-Straße"
)
# The same letter repeated: "Xxxxx", "YYY", "zzzz", optionally with a suffix "Zzzz-Weg".
RE_REPEATED = re.compile(r"^(?P<c>[A-Za-z])(?i:(?P=c)){2,}(?:-[\wäöüÄÖÜß]+)?$")
RE_ROMAN = re.compile(r"^[IVXLC]+\.?$")
RE_MASKED_DATE = re.compile(
    rf"^(?:\d{{1,2}}|x{{1,2}}|X{{1,2}}|{_ELLIPSIS})\.(?:\d{{1,2}}|x{{1,2}}|X{{1,2}}|{_ELLIPSIS})\."
    rf"(?:\d{{2,4}}|x{{2,4}}|X{{2,4}}|{_ELLIPSIS})$"
)
# A date masked with zeros, possibly ending a sentence: "vom 00.00.00." (its digits alone
# make RE_MASKED_DATE match any date, so this one is told apart).
RE_ZERO_DATE = re.compile(r"^0{1,2}\.0{1,2}\.0{2,4}\.?$")
RE_MASKED_YEAR = re.compile(r"^(?:19|20)(?:\.\.|xx|XX|…)\.?$")
RE_MASKED_POSTCODE = re.compile(r"^(?:0{5}|x{5}|X{5})$")
RE_MASKED_DIGITS = re.compile(r"^(?:0{2,}|[xX]{2,})$")
RE_MASKED_PLATE = re.compile(r"^[A-ZÄÖÜ]{1,3}-(?:X{1,2}|x{1,2}|\.{3}|…)$")
RE_MASKED_IBAN = re.compile(r"^[A-Z]{2}(?:00|xx|XX)$")
RE_SINGLE_LETTER = re.compile(rf"^{_LETTER}\.?$")
RE_SINGLE_LETTER_GENITIVE = re.compile(rf"^{_LETTER}\.?s$")
RE_LETTER_SUFFIX = re.compile(rf"^{_LETTER}\.?-[A-ZÄÖÜa-zäöü][\wäöüÄÖÜß.-]*$")
RE_FULLWIDTH = re.compile(rf"^{_FULLWIDTH}+\.?$")
# A mask run in an element (every court's family of masks): ``XXX``, ``xxxx``, ``Xxxxx``,
# ``###``, ``****``, alone or glued to what the court left visible (``B*****``,
# ``41******``, ``xxx2007``, ``473#######116``, ``xxx-museum``, ``XX-XXXXX``).
_MASK_RUN = r"(?:[xX]{3,}|#{2,}|\*{3,})"
RE_MASK_IN_ELEMENT = re.compile(
    rf"[\w'’-]*{_MASK_RUN}(?:[\w'’-]|{_MASK_RUN})*|[A-ZÄÖÜ]\.?-{{3,}}[a-zäöüß]+"  # Q.-----weg
)
RE_MASKED_ELEMENT = re.compile(rf"^[\w'’&/.-]*{_MASK_RUN}[\w*#'’&/.-]*$")
# A date whose day and month are dots (``am ....2022``, ``..05.2019``).
RE_DOTTED_DATE = re.compile(r"^(?:\.{2,}|…)(?:\d{1,2}\.)?(?:19|20)\d{2}$")
# An IBAN's visible country and check digits before a masked rest (``DE38 XXXX XXXX 31``).
RE_IBAN_START = re.compile(r"^[A-Z]{2}\d{2}$")
RE_OTHER_MASK = re.compile(r"^(?:\*{3,}|○{2,}|●{2,}|×{2,}|＊{2,})$")
# A court's own words in brackets for what it removed, one or more words
# (``[Name]``, ``[weitere Beteiligte]``, ``[Anschrift des Klägers]``).
RE_BRACKET_PHRASE = re.compile(
    r"\[(?:weitere[rn]? |die |der |des )?(?:Beteiligte[rn]?|Name[n]?|Anschrift|Adresse|Ort|"
    r"Firma|Kläger(?:in)?|Beklagte[rn]?|Zeug(?:e|in|en)|Geburtsdatum|Datum)"
    r"(?: (?:des|der|von) [\wäöüÄÖÜß]+)?\]"
)
RE_BRACKET_MASK = re.compile(
    r"^\[(?:anonymisiert|geschwärzt|entfernt|gelöscht|Name|Anschrift|Adresse)\]$", re.IGNORECASE
)
RE_SINGLE_LETTER_EMAIL = re.compile(
    r"^[\w.+-]+@[a-z]\.[a-z]{2,}$|^[a-z]@[\w-]+(?:\.[\w-]+)+$", re.IGNORECASE
)
RE_SINGLE_LETTER_URL = re.compile(
    r"^(?:https?://)?(?:www\.)?[a-z](?:\.[a-z]{2,})?(?:/\S*)?$", re.IGNORECASE
)
RE_YEAR = re.compile(r"^(?:19|20)\d{2}$")
RE_HOUSE_NUMBER = re.compile(r"^\d{1,4}[a-z]?$|^(?:\.{3}|…|#+|[xX]{1,3})$")
RE_DIGITISH = re.compile(r"^\d")
RE_LETTER_PERIOD_S = re.compile(rf"^{_LETTER}\.s$")  # "A.s"
RE_DOCKET_NUMBER = re.compile(r"^(?:[A-Z]-)?\d+/\d{2}|^\d+\.\d{2}$")  # also "C-241/91"
RE_GLUED_STREET = re.compile(r"^[A-ZÄÖÜ](?:straße|strasse|str\.|weg|gasse|platz|allee|ring)$")
RE_SHORT_NAME = re.compile(r"^[A-ZÄÖÜ][a-zäöü]{1,2}\.$")

# Numbered, glued and portal masks, and masked streets inside or across elements (issue 30).
RE_NUMBERED_DOTS = re.compile(r"[A-ZÄÖÜ]\d{1,2}\.{2,}")  # "F3..", "F1...": dots mask the rest
RE_NUMBERED = re.compile(r"[A-ZÄÖÜ]\d{1,2}\.?|[XYZ]{2,3}")  # "X1", "L2", "XY"
RE_NUMBERED_WORD = re.compile(r"(?:Ort|Person|Name|Firma|Anschrift|Adresse|Straße)\d{2,3}")
RE_GLUED_ENTITY = re.compile(r"\(?[A-ZÄÖÜ]\.{1,3}-?\)?-?([A-Za-zäöüß]{2,})")  # "C.bank", "D...-AG"
RE_PORTAL_TOKEN = re.compile(r"[A-Za-zÄÖÜäöü]+0{5,}\d*[a-z]?")  # a portal's pseudonym token
RE_MASKED_CODE = re.compile(r"[A-ZÄÖÜ]{1,3}-[xX]{2,}\d*")  # "W-XX1": a file number masked
RE_MASKED_STREET_IN_TEXT = re.compile(
    r"(?<![\w.])[A-ZÄÖÜ]\d{0,2}\.{0,3}\*{0,6}-\s?(?:[Ss]tra(?:ß|ss)e|[Ss]tr\.|[Ww]eg|[Gg]asse|"
    r"[Pp]latz|[Aa]llee|[Rr]ing|[Ss]tadt|[Dd]orf)\b"
)

# Unmistakable masks: shapes no ordinary German text has, whatever the court's convention
# (``XXX``, ``xxxx``, ``Xxxxx``, ``###``, ``****``, ``xx.xx.2016``, ``....2022``). The audit
# counts those left outside every placeholder (:mod:`hf_anon.corpora.placeholders.audit`).
# Runs glued to ``/`` or ``;`` are a PDF font's glyph codes (``/;###/g43``), not masks.
RE_GLYPH_CODE = re.compile(r"/;|/g\d")
RE_MASK_TOKEN = re.compile(
    r"(?<![\w#*/;])(?:"
    r"[xX]{1,2}\.[xX]{1,2}\.(?:\d{2,4}|[xX]{2,4})"  # xx.xx.2016, xx.xx.xxxx
    r"|\.{2,}(?:19|20)\d{2}"  # ....2022
    r"|[xX]{3,}"  # XXX, xxx, Xxxxx
    r"|(?P<rep>[A-WYZ])(?=[a-z])(?i:(?P=rep)){3,}"  # Yyyy, Zzzzz
    r"|#{3,}|\*{3,}"  # ###, ****
    r")(?![\w#*/])"
)

# Cheap test that rules out most words before the context rules run (speed: most
# elements of a decision are ordinary words).
MAYBE_PLACEHOLDER = re.compile(
    r"…|\.\.\.|@|^www|^http|^[^\W\d_]\.?s?$|^[^\W\d_]\.?-|-[xX]{1,2}$|^(.)\1\1|^[0xX]{2,}"
    r"|[xX]{3}|#{2}|\*{3}|^[A-Z]{2}\d\d$|^\.\.+\d|^[A-ZÄÖÜ]\d\d?\.?$|^[A-ZÄÖÜ]\*"
    r"|^[A-Z]{2}(?:00|xx|XX)$|^(?:19|20)\.(?:\.|$)|^[XYZ]{2,3}$|[\uFF21-\uFF3A\uFF41-\uFF5A]|^\[|[○●×＊]"
    r"|^[A-ZÄÖÜ]['’]er$|^[A-ZÄÖÜ][a-zäöü]{1,2}\.$|^[A-ZÄÖÜ](?:straße|strasse|str\.|weg|gasse|platz|allee|ring)$",
    re.IGNORECASE,
)


# --- tokens of spans to replace (the surrogates) ----------------------------------------

ELLIPSIS_RUN = re.compile(r"(?:\.{2,}|…)+")
_INITIAL = re.compile(r"[A-ZÄÖÜ](?:\.{1,3}|…)?")
_INITIAL_GENITIVE = re.compile(r"[A-ZÄÖÜ](?:\.{2,}|…)s")
_REPEATED = re.compile(r"([A-ZÄÖÜ])([a-zäöü])\2{2,}")
_MASKED = re.compile(r"[xX*]{2,}|X")
LETTER_PLACE = re.compile(
    r"[A-ZÄÖÜ]-(?:Straße|Str\.|Weg|Platz|Allee|Gasse|Stadt|Dorf|Ort|Gemeinde)"
)
MASK_RUN = re.compile(r"[xX]{2,}|\.{2,}|…|\*{2,}")


def nfkc(text: str) -> str:
    """Full-width placeholders (``Ａ``, seed 004) read as ASCII."""
    return unicodedata.normalize("NFKC", text)


def placeholder_kind(token: str) -> str | None:
    """What kind of placeholder one token is: ``ellipsis`` (``…``, ``...``), ``initial``
    (``A.``, ``A...``, ``F``, ``Ａ``), ``genitive`` (``B...s``), ``repeated`` (``Xxxxx``),
    ``masked`` (``xxxxx``, ``0000``), or None for ordinary text."""
    token = nfkc(token)
    if ELLIPSIS_RUN.fullmatch(token):
        return "ellipsis"
    if _INITIAL.fullmatch(token):
        return "initial"
    if _INITIAL_GENITIVE.fullmatch(token):
        return "genitive"
    match = _REPEATED.fullmatch(token)
    if match and match.group(2) == match.group(1).lower():
        return "repeated"
    if _MASKED.fullmatch(token):
        return "masked"
    return None


def is_zeroed(text: str) -> bool:
    """Digits that are all zeros (``00000 Y-Stadt``, ``DE00 0000 …``, ``N-XX 0000``); a
    real IBAN may hold ``0000`` among other digits."""
    digits = re.findall(r"\d", text)
    return len(digits) >= 2 and set(digits) == {"0"}


def looks_like_placeholder(text: str) -> bool:
    """Whether ``text`` still contains placeholder material (bare capitals like the
    ``A`` of ``Mercedes-Benz A 180`` do not count)."""
    text = nfkc(text)
    if "…" in text or ".." in text or LETTER_PLACE.search(text) or is_zeroed(text):
        return True
    if re.search(r"\b[a-z]@[a-z]\.[a-z]{2,3}\b|www\.[a-z]\.[a-z]{2,3}\b", text):
        return True
    return any(
        placeholder_kind(token) not in (None, "initial") or re.fullmatch(r"[A-ZÄÖÜ]\.", token)
        for token in re.split(r"[\s/-]+", text)
        if token
    )


def has_mask(text: str) -> bool:
    """Whether part of ``text`` is hidden (a bare capital such as the ``C`` of a docket
    number is not: it only counts where a name is expected)."""
    text = nfkc(text)
    return (
        bool(MASK_RUN.search(text))
        or is_zeroed(text)
        or any(placeholder_kind(t) and len(t) > 1 for t in text.split())
    )


# --- parts of LER mentions --------------------------------------------------------------

_CAP = "A-ZÄÖÜ"
# Street endings glued to a letter (``Kstraße``, ``K-weg``; regex syntax). The detector's
# RE_GLUED_STREET has its own: no hyphen there, ``strasse`` but not ``damm``/``ufer``.
_GLUED_STREET = ("straße", "str\\.", "weg", "platz", "allee", "gasse", "ring", "damm", "ufer")
_LOW = "a-zäöüß"
RE_PLACEHOLDER_SHAPES: tuple[re.Pattern[str], ...] = (
    re.compile(rf"^[{_CAP}]\d{{0,2}}\.?-?$"),  # A  A.  B1  C-
    re.compile(rf"^[{_CAP}][{_LOW}]{{1,2}}\.$"),  # Ts.  Sch.
    re.compile(rf"^(?:[{_CAP}]\.){{2,}}$"),  # A.B.  N.N.
    re.compile(rf"^[{_CAP}]\d?\.?(?:-[{_CAP}]\d?\.?)*-[\w.ÄÖÜäöüß]+$"),  # A-Straße  M-R
    re.compile(r"^(?:\.{2,}|…+)$"),  # ...  …
    re.compile(rf"^[{_CAP}][{_LOW}]{{0,2}}\d{{0,2}}(?:\.{{2,}}|…)[{_LOW}]*\.?$"),  # K…  B1…  B...s
    re.compile(rf"^[{_CAP}]-?(?:{'|'.join(_GLUED_STREET)})$"),  # Kstraße  K-weg
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


def word_cores(text: str) -> list[tuple[int, int, str]]:
    """Whitespace-separated words without surrounding quotes/brackets: (start, end, word)."""
    cores = []
    for match in re.finditer(r"\S+", text):
        word = match.group()
        core = word.strip(PART_EDGE_CHARS)
        if core:
            start = match.start() + word.index(core)
            cores.append((start, start + len(core), core))
    return cores


def legal_form_words(words: Sequence[str]) -> set[int]:
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
    cores = word_cores(text)
    legal = legal_form_words([word for _, _, word in cores])
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
    cores = word_cores(text)
    return bool(cores) and placeholder_parts(text) == [(cores[0][0], cores[-1][1])]


def is_glyph_code(raw: str) -> bool:
    """Whether ``raw``, a piece of text between spaces, is a PDF font's glyph codes
    (``/g43/g68/;###``): what a text extraction writes where it could not map a font to
    letters. Why: its runs of ``#`` look like a court's ``###`` masks to every detector, the
    rules and the learned tagger alike, but they hide nothing."""
    return bool(RE_GLYPH_CODE.search(raw))
