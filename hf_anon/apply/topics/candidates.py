"""Candidates: phrases that describe a person, from a light German chunker.

Only phrases attached to a person are candidates (predicatives of a clause with a person
in it, attributes of person nouns, appositions, cue phrases such as ``stammt aus`` or
``leidet an``): that is what keeps the seed's "white walls" (``ein weißer VW Golf``, the
``katholische Kirche`` as a building) out, before any embedding is computed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from hf_anon.text.data import Span

_WORD = re.compile(r"[^\W\d_][\w-]*|\d+(?:[.,]\d+)*\s?%?|\S", re.UNICODE)
#: Words whose full stop does not end a sentence.
_ABBREVIATIONS = {
    "st", "dr", "nr", "abs", "art", "bzw", "ca", "vgl", "z", "b", "u", "a", "s", "prof",
    "hr", "fr", "geb", "ggf", "evtl", "sog", "inkl", "bspw",
}  # fmt: skip
#: Finite verbs that start a new predicate after ``und`` (``… Maurer und hat zwei Kinder``).
_VERBS = {
    "hat", "habe", "hatte", "haben", "lebt", "lebe", "lebte", "wohnt", "wohne", "wohnte",
    "arbeitet", "arbeite", "arbeitete", "ist", "sei", "war", "wurde", "wird", "befindet",
    "leidet", "litt", "nimmt", "gehört", "gehöre", "stammt", "besucht", "trägt", "betet",
    "erhielt", "erhält", "bezieht", "beantragte", "beantragt", "reiste", "kam", "kommt",
    "könne", "kann", "konnte", "könnte", "müsse", "muss", "musste", "solle", "soll", "wolle",
    "will", "dürfe", "darf", "benötigt", "benötige", "braucht", "verließ", "gab",
}  # fmt: skip
#: Words after the information that end a candidate (``Kurde [aus der Provinz Mardin]``).
_STOP_AFTER = {
    "aus", "bei", "seit", "von", "vom", "nach", "wegen", "für", "mit", "ohne", "durch",
    "gegen", "bis", "in", "im", "am", "auf", "täglich", "regelmäßig", "wöchentlich",
    "dreimal", "zweimal", "mehrfach", "vorzeitig", "bereits", "wiederholt",
}  # fmt: skip
_MONTHS = {
    "januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september",
    "oktober", "november", "dezember",
}  # fmt: skip

_PERSON_WORDS = (
    r"Herr|Herrn|Frau|Mann|Männer|Kind|Kinder|Sohn|Söhne|Tochter|Töchter|Vater|Mutter|"
    r"Eltern|Bruder|Schwester|Ehemann|Ehefrau|Ehegatte|Ehegattin|Partner|Partnerin|"
    r"Lebensgefährte|Lebensgefährtin|Person|Personen|Mensch|Menschen|Zeuge|Zeugen|Zeugin|"
    r"Opfer|Patient|Patientin|Schüler|Schülerin|Mitarbeiter|Mitarbeiterin|Arbeitnehmer|"
    r"Arbeitnehmerin|Mieter|Mieterin|Großmutter|Großvater|Enkel|Neffe|Nichte|Witwe|Witwer|"
    r"Jugendliche|Jugendlicher|Jugendlichen|Asylbewerber|Asylbewerberin|Flüchtling|"
    r"Ausländer|Ausländerin|Betreute|Betreuten|Betreuter|Versicherte|Versicherten|"
    r"Versicherter|Verstorbene|Verstorbenen|Erblasser|Erblasserin|Täter|Täterin|Nachbar|"
    r"Nachbarn|Nachbarin|Kindesvater|Kindesmutter|Beigeladene|Beigeladenen|Beigeladener"
)
#: Parties and participants of a case by the suffix of their role (Kläger, Antragstellerin,
#: Beschwerdeführer, Angeklagte, Betroffener, Geschädigten, …).
_ROLE = re.compile(
    r"(?:\w*(?:kläger|steller|führer|gegner|nehmer|beklagte|klagte|schuldigte|troffene|"
    r"teiligte|schädigte|dete)(?:in|innen|n|r|s)?|" + _PERSON_WORDS + r")",
    re.IGNORECASE,
)
_PRONOUN = {"er", "sie", "ich", "wir", "ihm", "ihr", "dieser", "diese", "jener"}
_NAME_INITIAL = re.compile(r"[A-ZÄÖÜ]")
_COPULA = {
    "ist", "sei", "war", "wäre", "wird", "wurde", "sind", "seien", "waren", "wären",
    "werden", "wurden", "bin", "bist", "gilt", "galt", "gelte", "gelten",
}  # fmt: skip
_POSSESSIVE = {"sein", "seine", "seiner", "seinem", "seinen", "ihre", "ihrer", "ihrem", "ihren"}
#: Words a candidate never starts or ends with.
_LEAD = {
    "ein", "eine", "einer", "eines", "einem", "einen", "der", "die", "das", "des", "dem",
    "den", "zum", "zur", "am", "im", "an", "in", "unter", "auch", "ebenfalls", "nach",
    "eigenen", "angaben", "zudem", "bereits", "selbst", "nicht", "kein", "keine", "offenbar",
    "angeblich", "seit", "jahren", "wegen", *_POSSESSIVE,
}  # fmt: skip
#: Words that open a clause with the verb last (``…, der Buddhist ist``).
_RELATIVE = {
    "der", "die", "das", "dessen", "deren", "welcher", "welche", "dass", "daß", "weil", "da",
    "ob", "obwohl", "wenn", "nachdem",
}  # fmt: skip
#: Nouns whose predicative is the information: ``Muttersprache ist [Farsi]``.
_SAID_NOUNS = {"muttersprache", "religion", "konfession", "herkunft", "diagnose"}
_ARTICLES = {"der", "die", "das", "den", "dem", "des", "ein", "eine", "einer", "einem"}
_CLAUSE_END = {".", ";", ":", "!", "?", "(", ")", "–", "—"}
_BREAK_WORDS = {
    "und", "oder", "aber", "sondern", "weil", "da", "dass", "daß", "wenn", "obwohl",
    "sowie", "denn", "wobei", "nachdem", "bevor", "als", "wie", "so", "sodass",
}  # fmt: skip
#: Verbs whose prepositional phrase is about their subject: ``stammt aus [Syrien]``,
#: ``an [Multipler Sklerose] erkrankt``, ``der [evangelischen Kirche] angehört`` (by stem).
_CUE_VERBS = {
    "stamm": ("aus",), "kommt": ("aus",), "kam": ("aus",), "leid": ("an", "unter"),
    "litt": ("an", "unter"), "erkrank": ("an",), "konvertier": ("zum", "zur"),
    "bekenn": ("zum", "zur"), "zugewandt": ("dem", "der"), "gehör": ("der", "dem"),
    "angehör": ("der", "dem"), "identifizier": ("als",), "befind": ("in",), "nimmt": (),
    "nehme": (),
    "spricht": (), "spreche": (),
}  # fmt: skip
#: Nouns followed by the information in the genitive: ``Volksgruppe der [Tigrinya]``.
_CUE_NOUNS = {"volksgruppe", "minderheit", "mitglied", "angehöriger", "angehörige",
              "volkszugehörigkeit", "glaubensgemeinschaft", "religionsgemeinschaft"}  # fmt: skip
#: Nouns that name a special category: with their adjectives (or as the end of a
#: compound) they are candidates wherever a person is in the sentence.
_CATEGORY_HEADS = (
    "staatsangehörigkeit", "staatsangehöriger", "staatsangehörige", "staatsangehörigen",
    "volkszugehörigkeit", "herkunft", "abstammung", "migrationshintergrund", "muttersprache",
    "religion", "glauben", "glaube", "konfession", "erkrankung", "krankheit", "störung",
    "behinderung", "sucht", "partnerschaft", "beziehung", "orientierung", "identität",
    "behandlung", "behandlungen", "therapie", "diagnose", "episode", "syndrom",
    "schwangerschaft", "demenz", "insuffizienz",
)  # fmt: skip
#: Verbs of religious practice: the verb itself is the information.
_PRACTICE = {"betet", "fastet", "praktiziert"}
_MAX_WORDS = 6


@dataclass(frozen=True)
class Candidate:
    """A phrase that describes a person: ``text[start:end]``, found by ``rule``."""

    start: int
    end: int
    text: str
    rule: str


@dataclass(frozen=True)
class _Tok:
    start: int
    end: int
    text: str

    @property
    def low(self) -> str:
        return self.text.lower()

    @property
    def is_word(self) -> bool:
        return self.text[0].isalpha()

    @property
    def is_adjective(self) -> bool:
        t = self.text
        return (
            t[0].islower()
            and t.isalpha()
            and t.lower() not in _LEAD
            and t.lower() not in _BREAK_WORDS
            and t.endswith(("e", "er", "en", "es", "em"))
        )


def _tokens(text: str) -> list[_Tok]:
    return [_Tok(m.start(), m.end(), m.group().rstrip()) for m in _WORD.finditer(text)]


def _is_person(tok: _Tok, names: Sequence[tuple[int, int]]) -> bool:
    if any(s <= tok.start < e for s, e in names):
        return True
    if (tok.low in _PRONOUN and tok.text[0].islower()) or tok.low in {"er", "sie"}:
        return True
    if tok.low in _POSSESSIVE:  # seine Muttersprache, ihre Religion
        return True
    return bool(_ROLE.fullmatch(tok.text)) or bool(_NAME_INITIAL.fullmatch(tok.text))


def _sentences(tokens: list[_Tok]) -> list[list[list[_Tok]]]:
    """Sentences as lists of clauses (stretches between commas and other punctuation). A
    full stop after an initial (``Herr A.``), an abbreviation (``St.``) or an ordinal
    (``16. Lebensjahr``) ends nothing."""
    sentences: list[list[list[_Tok]]] = [[]]
    clause: list[_Tok] = []
    for i, tok in enumerate(tokens):
        if tok.text == "." and i and tokens[i - 1].end == tok.start:
            before = tokens[i - 1].text
            ordinal = before.isdigit() and len(before) <= 2 and i + 1 < len(tokens)
            if _NAME_INITIAL.fullmatch(before) or before.lower() in _ABBREVIATIONS or ordinal:
                continue
        if tok.text in _CLAUSE_END or tok.text == ",":
            if clause:
                sentences[-1].append(clause)
            clause = []
            if tok.text != "," and sentences[-1]:
                sentences.append([])
        else:
            clause.append(tok)
    if clause:
        sentences[-1].append(clause)
    return [s for s in sentences if s]


def _phrase(toks: Sequence[_Tok], text: str, rule: str, *, cut: bool = True):
    """A candidate from words: no leading function words, dates or numbers; cut before a
    conjunction, a finite verb or (``cut``) a preposition or adverb after the first
    content word; at most six words."""
    toks = list(toks)
    while toks and (
        toks[0].low in _LEAD
        or toks[0].low in _MONTHS
        or toks[0].text[0].isdigit()
        or not toks[0].is_word
    ):
        toks.pop(0)
    for i, tok in enumerate(toks):
        stop = tok.low in _BREAK_WORDS or (i and tok.low in _VERBS)
        if stop or (cut and i and tok.low in _STOP_AFTER):
            toks = toks[:i]
            break
    toks = toks[:_MAX_WORDS]
    while toks and (toks[-1].low in _LEAD or (not toks[-1].is_word and toks[-1].text != "%")):
        toks.pop()
    if not toks:
        return None
    start, end = toks[0].start, toks[-1].end
    return Candidate(start, end, text[start:end], rule)


def _split_and(toks: Sequence[_Tok]) -> list[list[_Tok]]:
    """``Kurde und Alevit`` → two phrases (each can be its own topic); a finite verb or a
    subordinating word ends the list."""
    parts: list[list[_Tok]] = [[]]
    for tok in toks:
        if tok.low in {"und", "sowie", "oder"}:
            parts.append([])
        elif tok.low in _BREAK_WORDS - {"als"} or tok.low in _VERBS:
            break
        else:
            parts[-1].append(tok)
    return [p for p in parts if p]


def _cue_prepositions(word: str) -> tuple[str, ...] | None:
    for stem, preps in _CUE_VERBS.items():
        if word.startswith(stem):
            return preps
    return None


def _attributes(clause, persons, text):
    """der [türkische] Kläger, ein [schwarzer] Mann, von [sunnitischen] Nachbarn"""
    for i in persons:
        j = i
        while j > 0 and clause[j - 1].is_adjective:
            j -= 1
        if j < i:
            yield _phrase(clause[j:i], text, "attribute")


def _predicatives(clause, persons, text, subject_before):
    """Der Kläger ist [Muslim]; Seit 2015 ist der Kläger [Muslim]; …, der [Buddhist] ist."""
    low = [t.low for t in clause]
    for c, word in enumerate(low):
        if word not in _COPULA:
            continue
        if c == len(clause) - 1 or (c == len(clause) - 2 and low[-1] in _COPULA):
            # verb last (a relative or subordinate clause): the words before the copula
            first = max([i for i in persons if i < c], default=-1) + 1
            if first == 0 and low[0] not in _RELATIVE:
                continue
            yield _phrase(clause[max(first, 1) : c], text, "predicative")
            continue
        after = [i for i in persons if i > c]
        rest = clause[c + 1 :]
        if after and all(t.low in _ARTICLES for t in clause[c + 1 : after[0]]):
            rest = clause[after[0] + 1 :]
        elif not any(i < c for i in persons) and not (c == 0 and subject_before):
            continue  # (subject_before: "Der Antragsteller, ein …, [ist Alevit]")
        for part in _split_and(rest):
            yield _phrase(part, text, "predicative")


def _cues(clause, text):
    """stammt aus [Syrien]; der an [frühkindlichem Autismus] leidet; nimmt [Antidepressiva];
    Volksgruppe der [Tigrinya]; Muttersprache ist [Farsi]; betet [fünfmal täglich]."""
    low = [t.low for t in clause]
    for v, word in enumerate(low):
        preps = _cue_prepositions(word)
        if word in _PRACTICE:
            yield _phrase(clause[v : v + 4], text, "cue", cut=False)
        elif preps == ():  # nimmt [Antidepressiva], nimmt wegen … täglich [Methylphenidat] ein
            yield _phrase(clause[v + 1 :], text, "cue")
            nouns = [t for t in clause[v + 1 :] if t.text[0].isupper()]
            if nouns:
                yield _phrase(nouns[-1:], text, "cue")
        elif preps:
            later = [p for p in range(v + 1, len(clause)) if low[p] in preps]
            earlier = [p for p in range(v) if low[p] in preps]
            if later:
                tail = clause[later[0] + 1 :]
                if tail and tail[-1].low == "an":  # gehört der [evangelischen Kirche] an
                    tail = tail[:-1]
                yield from (_phrase(p, text, "cue") for p in _split_and(tail))
            elif earlier:
                yield _phrase(clause[earlier[-1] + 1 : v], text, "cue")
        if word in _CUE_NOUNS and v + 1 < len(clause) and low[v + 1] in _ARTICLES:
            yield _phrase(clause[v + 2 :], text, "cue")
        if word in _SAID_NOUNS and v + 1 < len(clause) and low[v + 1] in _COPULA:
            yield _phrase(clause[v + 2 :], text, "cue")


def _category_phrases(clause, text):
    """[deutsche Staatsangehörigkeit], [posttraumatische Belastungsstörung],
    [ADHS-Erkrankung], zwei [stationäre Entgiftungsbehandlungen]."""
    for h, tok in enumerate(clause):
        word = tok.low
        head = next((x for x in _CATEGORY_HEADS if word.endswith(x)), None)
        if head is None or not tok.text[0].isupper():
            continue
        j = h
        while j > 0 and clause[j - 1].is_adjective:
            j -= 1
        if j < h or len(word) > len(head) + 2:
            yield _phrase(clause[j : h + 1], text, "category")


def _appositions(tokens, text, names):
    """Herr A., ein [afghanischer Staatsangehöriger], …; Frau B., [Katholikin], …"""
    for i, tok in enumerate(tokens):
        if tok.text != "," or i == 0:
            continue
        before = tokens[i - 2] if tokens[i - 1].text == "." and i > 1 else tokens[i - 1]
        if not _is_person(before, names):
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].text not in {",", *_CLAUSE_END}:
            j += 1
        inner = tokens[i + 1 : j]
        if not inner or j == len(tokens) or tokens[j].text != "," or len(inner) > 7:
            continue
        if inner[0].low in _RELATIVE or any(t.low in _COPULA for t in inner):
            continue  # a relative clause, not an apposition
        for part in _split_and(inner):
            yield _phrase(part, text, "apposition")


def find_candidates(
    text: str, person_spans: Iterable[Span | tuple[int, int]] = ()
) -> list[Candidate]:
    """Phrases of ``text`` that describe a person, sorted and without duplicates.

    A sentence is about a person when it names one (a role such as ``Kläger`` or
    ``Zeugin``, a pronoun, an initial, a span in ``person_spans``); only such sentences
    give candidates, except appositions to a person.
    """
    names = [(s.start, s.end) if isinstance(s, Span) else tuple(s) for s in person_spans]
    tokens = _tokens(text)
    found: list[Candidate | None] = []
    for sentence in _sentences(tokens):
        about_person = any(_is_person(t, names) for clause in sentence for t in clause)
        if not about_person:
            continue
        seen_person = False
        for clause in sentence:
            persons = [i for i, t in enumerate(clause) if _is_person(t, names)]
            found += _attributes(clause, persons, text)
            found += _predicatives(clause, persons, text, seen_person)
            seen_person = seen_person or bool(persons)
            found += _cues(clause, text)
            found += _category_phrases(clause, text)
            low = [t.low for t in clause]
            for a, word in enumerate(low):  # als [Muslim], sich als [nichtbinär] identifiziert
                if word == "als" and a + 1 < len(clause):
                    found.append(_phrase(clause[a + 1 :], text, "als"))
    found += _appositions(tokens, text, names)
    unique: dict[tuple[int, int], Candidate] = {}
    for cand in found:
        if cand is not None and (cand.start, cand.end) not in unique:
            unique[(cand.start, cand.end)] = cand
    return sorted(unique.values(), key=lambda c: (c.start, c.end))
