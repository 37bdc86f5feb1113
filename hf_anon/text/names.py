"""People's names in German text: titles, particles, name parts, genitive, gender cues.

One home for what the anonymizer, the surrogates and the placeholder detector know about
names of people (the labels flagged :attr:`~hf_anon.text.labels.Label.is_person`): which
words before a name are titles or salutations (kept when a name is replaced), which are
particles of the surname (``von``, ``van der``), how a name splits into first names and
surname (``Hans Peter von Müller``, ``Müller, Hans``), its genitive (``Müllers``,
``Weiß'``), whether a period after it also ended the sentence, and which gender the words
around it tell (``Herrn``, ``die Zeugin``, ``der Beklagte``).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


def _items(text: str) -> tuple[str, ...]:
    """A comma-separated word list (keeps the tables below short to read)."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


#: Locales for person names with rough weights for people living in Germany (Latin
#: script only: Faker's Greek, Cyrillic and Arabic names would stand out in a German
#: decision that a court would have transliterated).
NAME_LOCALES: dict[str, float] = {
    "de_DE": 60.0,
    "de_AT": 6.0,
    "de_CH": 3.0,
    "tr_TR": 9.0,
    "pl_PL": 5.0,
    "it_IT": 3.0,
    "ro_RO": 2.5,
    "hr_HR": 2.5,
    "cs_CZ": 1.0,
    "hu_HU": 1.0,
    "es_ES": 1.0,
    "pt_PT": 1.0,
    "fr_FR": 1.0,
    "nl_NL": 0.5,
    "en_US": 1.0,
}
GENDERS = ("f", "m")

#: Academic titles and their parts, lower case (``Dr.``, ``Prof.``, ``Dipl.-Ing.``, ``med.``):
#: they stay when a name is replaced, and a word before a name is read past them.
TITLES = frozenset(
    _items(
        "b.sc., dent., dipl.-ing., dipl.-ing.(fh), dipl.-kfm., dipl.-psych., dr., dr.-ing., "
        "h.c., habil., ing., jur., ll.m., m.sc., mag., med., nat., oec., pd, phil., pol., "
        "prof., rer., univ.-prof., vet."
    )
)
#: Salutations before a name, kept like titles.
SALUTATIONS = frozenset({"Herr", "Herrn", "Frau"})
#: Particles that belong to the surname (``von der Au``, ``van Dijk``, ``zur Linde``), lower case.
NAME_PARTICLES = frozenset(
    _items("da, de, del, den, der, di, la, le, ten, ter, van, vom, von, zu, zum, zur")
)


# ------------------------------------------------------------------------- name parts


def split_name(text: str) -> tuple[list[str], str, bool]:
    """``Hans Peter von Müller`` → (``[Hans, Peter]``, ``von Müller``, False);
    ``Müller, Hans`` → (``[Hans]``, ``Müller``, True)."""
    if "," in text:
        last, _, rest = text.partition(",")
        return rest.split(), last.strip(), True
    tokens = text.split()
    i = len(tokens) - 1
    while i > 1 and tokens[i - 1].lower() in NAME_PARTICLES:
        i -= 1
    return tokens[:i], " ".join(tokens[i:]), False


def split_titles(text: str) -> tuple[str, str]:
    """``Dr. Hans Müller`` → (``Dr. ``, ``Hans Müller``): titles and salutations stay."""
    match = re.match(r"(?:(?:Herrn?|Frau|[\w.()-]+\.)\s+)+", text)
    if not match or match.end() == len(text):
        return "", text
    words = match.group(0).split()
    if not all(w.lower() in TITLES or w in SALUTATIONS for w in words):
        return "", text
    return match.group(0), text[match.end() :]


def parse_name(surface: str) -> tuple[str, list[str], str, bool]:
    """``Dr. Hans Müller`` → (``Dr. ``, [``Hans``], ``Müller``, False): titles, first
    names, surname, and whether it was written ``Müller, Hans``. A single word is a
    surname."""
    prefix, rest = split_titles(surface)
    firsts, last, comma = split_name(rest)
    if not last and firsts:
        last, firsts = firsts[-1], firsts[:-1]
    return prefix, firsts, last, comma


@lru_cache(maxsize=1)
def first_name_genders() -> dict[str, str]:
    """Known first names of the name locales → gender (names used for both are left out)."""
    import importlib

    seen: dict[str, set[str]] = {}
    for locale in NAME_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for gender, attr in (("f", "first_names_female"), ("m", "first_names_male")):
            for name in getattr(provider, attr, ()):
                seen.setdefault(name, set()).add(gender)
    return {name: next(iter(g)) for name, g in seen.items() if len(g) == 1}


@lru_cache(maxsize=1)
def known_last_names() -> frozenset[str]:
    import importlib

    names: set[str] = set()
    for locale in NAME_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for attr in ("last_names", "last_names_male", "last_names_female"):
            names.update(getattr(provider, attr, ()))
    return frozenset(names)


def genitive(name: str) -> str:
    """``Müller`` → ``Müllers``, ``Weiß`` → ``Weiß'``."""
    return name + ("'" if name.endswith(("s", "ß", "x", "z", "ce")) else "s")


#: Words after which a period that a span swallowed also ended the sentence.
SENTENCE_STARTS = frozenset(
    _items(
        "allerdings, als, am, anschließend, auch, auf, aus, außerdem, bei, dabei, daher, damit, "
        "danach, darauf, darüber, das, dass, dem, den, denn, der, deshalb, die, dies, diese, "
        "dieser, dieses, dort, ein, eine, einer, eines, er, es, ferner, folglich, für, gegen, "
        "gemäß, hier, hierzu, hinsichtlich, ich, im, in, insoweit, jedoch, laut, man, mit, nach, "
        "nachdem, nicht, ob, obwohl, schließlich, sie, so, sodann, somit, soweit, unter, von, "
        "vor, was, wegen, weil, weiter, wenn, wer, wie, wir, zudem, zum, zunächst, zur, zwar, "
        "über"
    )
)


def ends_sentence(after: str) -> bool:
    """Whether the text after a span ending in ``.`` starts a new sentence."""
    if not after.strip() or after.startswith(("\n", "\r")):
        return True
    match = re.match(r"[ \t]+[„\"(]?(\S+)", after)
    return bool(match) and match.group(1)[0].isupper() and match.group(1).lower() in SENTENCE_STARTS


# ------------------------------------------------------------------------ gender cues

#: Person nouns as (male, female) pairs: the word before a name tells its gender.
ROLE_PAIRS = (
    ("kläger", "klägerin"),
    ("zeuge", "zeugin"),
    ("antragsteller", "antragstellerin"),
    ("antragsgegner", "antragsgegnerin"),
    ("beschwerdeführer", "beschwerdeführerin"),
    ("berufungskläger", "berufungsklägerin"),
    ("nebenkläger", "nebenklägerin"),
    ("mieter", "mieterin"),
    ("vermieter", "vermieterin"),
    ("untermieter", "untermieterin"),
    ("sachbearbeiter", "sachbearbeiterin"),
    ("geschäftsführer", "geschäftsführerin"),
    ("richter", "richterin"),
    ("rechtsanwalt", "rechtsanwältin"),
    ("notar", "notarin"),
    ("nachbar", "nachbarin"),
    ("halter", "halterin"),
    ("fahrer", "fahrerin"),
    ("schuldner", "schuldnerin"),
    ("gläubiger", "gläubigerin"),
    ("inhaber", "inhaberin"),
    ("verwalter", "verwalterin"),
    ("hausmeister", "hausmeisterin"),
    ("mitarbeiter", "mitarbeiterin"),
    ("erblasser", "erblasserin"),
    ("patient", "patientin"),
    ("dolmetscher", "dolmetscherin"),
    ("gutachter", "gutachterin"),
    ("eigentümer", "eigentümerin"),
    ("käufer", "käuferin"),
    ("verkäufer", "verkäuferin"),
    ("kunde", "kundin"),
    ("arzt", "ärztin"),
    ("oberarzt", "oberärztin"),
    ("polizeibeamter", "polizeibeamtin"),
    ("polizeimeister", "polizeimeisterin"),
    ("polizeiobermeister", "polizeiobermeisterin"),
    ("polizeikommissar", "polizeikommissarin"),
    ("justizsekretär", "justizsekretärin"),
    ("rechtspfleger", "rechtspflegerin"),
    ("herr", "frau"),
    ("vater", "mutter"),
    ("sohn", "tochter"),
    ("ehemann", "ehefrau"),
    ("bruder", "schwester"),
    ("großvater", "großmutter"),
    ("onkel", "tante"),
    ("neffe", "nichte"),
    ("witwer", "witwe"),
    ("lebensgefährte", "lebensgefährtin"),
    ("freund", "freundin"),
    ("kollege", "kollegin"),
    ("erbe", "erbin"),
)


def _role_genders() -> dict[str, str]:
    genders: dict[str, str] = {"herrn": "m"}
    for male, female in ROLE_PAIRS:
        genders[male] = "m"
        genders[male + ("n" if male.endswith("e") else "s")] = "m"  # des Zeugen, des Klägers
        genders[female] = "f"
        if female.endswith("in"):
            genders[female + "nen"] = "f"  # die Zeuginnen
    return genders


_ROLE_GENDER = _role_genders()
#: Nouns that inflect like adjectives: their article tells the gender.
ADJECTIVAL = frozenset(
    _items(
        "angeklagte, angestellte, beklagte, beschuldigte, beteiligte, betroffene, "
        "bevollmächtigte, geschädigte, sachverständige, verletzte, versicherte, verstorbene, "
        "vorsitzende"
    )
)

#: Nouns for groups of people that stand before names (``Familie Kowalczyk``, ``Eheleute
#: Weber``), lower case.
GROUP_NOUNS = frozenset(_items("familie, eheleute, ehepaar, geschwister, eltern, kinder"))


#: compounds that name an office or a job (``Polizeibeamte``, ``Verwaltungsangestellter``,
#: ``Sachbearbeiterin``, ``Hauswart``); no German surname ends so (Faker's de_DE, de_AT and
#: de_CH lists)
ROLE_COMPOUND = re.compile(
    r"\w(?:beamte[rn]?|beamtin(?:nen)?|angestellte[rn]?|bearbeiter(?:in|innen|n)?|wart(?:in)?)$"
)


def is_person_noun(word: str) -> bool:
    """Whether ``word`` (any case, edge punctuation ignored) names a person by role,
    kinship or salutation rather than by name: ``Mutter``, ``Zeugin``, ``Herrn``,
    ``Sachbearbeiterin``, ``Beklagten``, ``Familie`` (ANNOTATION.md: roles are outside
    a name's span, and never a name part)."""
    core = unicodedata.normalize("NFC", word.strip("„“\"'()[],:;.!?")).lower()
    if core in _ROLE_GENDER or core in GROUP_NOUNS or ROLE_COMPOUND.search(core):
        return True
    stem = core.removesuffix("n").removesuffix("r")  # der Beklagter, des Beklagten
    return core in ADJECTIVAL or stem in ADJECTIVAL


def words_before(before: str, n: int = 3) -> list[str]:
    """Up to ``n`` words right before a span, nearest first, titles (``Dr.``) skipped."""
    words: list[str] = []
    for word in reversed(before.split()[-8:]):
        word = word.strip("„“\"'()[],:;")
        if not word or word.lower() in TITLES:
            continue
        words.append(word)
        if len(words) == n:
            break
    return words


FEMININE_ARTICLES = frozenset(_items("die, der, einer, ihrer, seiner, unserer"))
MASCULINE_ARTICLES = frozenset(
    _items("dem, den, des, einem, einen, eines, ihrem, ihren, ihres, seinem, seinen, seines")
)


def _word_gender(word: str, article: str) -> str | None:
    if not word[:1].isupper():
        return None
    word, article = word.lower(), article.lower()
    if word in _ROLE_GENDER:
        return _ROLE_GENDER[word]
    if word.endswith("r") and word[:-1] in ADJECTIVAL:
        return "m"  # Beklagter
    if word in ADJECTIVAL:
        return {"die": "f", "der": "m"}.get(article)
    if word.endswith("n") and word[:-1] in ADJECTIVAL:
        return {"der": "f", "den": "m", "dem": "m", "des": "m"}.get(article)
    if article in FEMININE_ARTICLES and word.endswith("in") and len(word) > 5:
        return "f"  # seiner Orthopädin
    if article in MASCULINE_ARTICLES and word.endswith(("en", "er", "es", "s")) and len(word) > 4:
        return "m"  # seines Orthopäden
    return None


def gender_cue(before: str) -> str | None:
    """``f``/``m`` when the words right before a name say so (``Herrn``, ``die Zeugin``,
    ``der Beklagte``), else None."""
    words = words_before(before)
    return _word_gender(words[0], words[1] if len(words) > 1 else "") if words else None


def gender_near(before: str, n: int = 6) -> str | None:
    """The nearest cue within ``n`` words (``Frau Yyyyy ist …`` → ``f``)."""
    words = words_before(before, n + 1)
    for j, word in enumerate(words[:n]):
        gender = _word_gender(word, words[j + 1] if j + 1 < len(words) else "")
        if gender:
            return gender
    return None


def gender_after(after: str) -> str | None:
    """The party role a Rubrum puts after name and address (``- Klägerin -``)."""
    paragraph = re.split(r"\n\s*\n", after, maxsplit=1)[0]
    match = re.search(
        r"(?:^|\n)[ \t]*-[ \t]*([A-ZÄÖÜ][a-zäöüß]+)(?:[ \t]+zu[ \t]+\S+)?[ \t]*-", paragraph
    )
    return _word_gender(match.group(1), "") if match else None
