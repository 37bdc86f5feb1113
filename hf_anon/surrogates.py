"""Realistic surrogates, and pseudonymization of span documents with them.

Seed 002 (AnGer guidelines, B.1) asks for pseudonyms that a reader does not notice:
surnames replace surnames and first names first names, the order and structure of a
name (double names, ``Nachname, Vorname``) are kept, first and last name sound like
one person, and the same person gets the same pseudonym throughout a decision. The
same holds for every other category: a street stays a street with a house number, a
partly masked date keeps its visible year, a register number its ``HRB``.

:class:`SurrogateFactory` makes single values (Faker-backed names and towns, German
formats for everything else); :class:`Pseudonymizer` replaces the spans of a document
(placeholders of a published decision or real gold spans) with consistent surrogates
and returns a new document whose spans sit exactly on them. Both are deterministic:
all randomness comes from one ``random.Random``.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache

from hf_anon.data import Document, Span, check_no_overlap
from hf_anon.labels import DEFAULT_LABELS, LabelSet
from hf_anon.names import (
    NAME_LOCALES,
    NAME_PARTICLES,
    ends_sentence,
    first_name_genders,
    gender_after,
    gender_cue,
    gender_near,
    genitive,
    known_last_names,
    split_name,
    split_titles,
    words_before,
)
from hf_anon.placeholders.shapes import (
    ELLIPSIS_RUN,
    LETTER_PLACE,
    has_mask,
    nfkc,
    placeholder_kind,
)

# ---------------------------------------------------------------------------- values


def _items(text: str) -> tuple[str, ...]:
    """A comma-separated word list (keeps the tables below short to read)."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


GENDERS = ("f", "m")

MONTHS = _items(
    "Januar, Februar, März, April, Mai, Juni, Juli, August, September, Oktober, November, Dezember"
)
#: Date formats of German decisions: ``long`` 3. März 2021, ``padded`` 03.03.2021,
#: ``short`` 3.3.2021, ``month`` März 2021.
DATE_STYLES = ("long", "padded", "short")

STREETS = _items(
    "Hauptstraße, Bahnhofstraße, Schulstraße, Gartenstraße, Dorfstraße, Bergstraße, "
    "Kirchstraße, Waldstraße, Ringstraße, Friedhofstraße, Mühlweg, Lindenstraße, Poststraße, "
    "Marktplatz, Am Anger, Am Markt, Am Bach, Am Sportplatz, Am Mühlbach, Im Winkel, "
    "Im Wiesengrund, An der Kirche, An der Mühle, Zum Sportplatz, Hinter den Gärten, "
    "Alte Dorfstraße, Neue Straße, Obere Hauptstraße, Untere Bachgasse, Kapellenweg, "
    "Schillerstraße, Goethestraße, Beethovenstraße, Mozartstraße, Kantstraße, Uhlandstraße, "
    "Friedrich-Ebert-Straße, Konrad-Adenauer-Straße, Max-Planck-Straße, Robert-Koch-Straße, "
    "Industriestraße, Gewerbestraße, Feldstraße, Wiesenstraße, Talstraße, Sonnenstraße, "
    "Breite Straße, Lange Straße, Kurze Gasse, Königstraße, Schloßstraße, Burgstraße, "
    "Rathausplatz, Kirchplatz, Parkstraße, Rosenweg, Am Stadtpark, Auf der Höhe, "
    "Unter den Linden, Hohe Straße"
)
STREET_ROOTS = _items(
    "Ahorn, Birken, Buchen, Eichen, Erlen, Linden, Kastanien, Tannen, Fichten, Rosen, "
    "Tulpen, Flieder, Nelken, Wiesen, Garten, Mühlen, Brunnen, Sonnen, Feld, Wald, Berg, "
    "Bach, Kirch, Schul, Lerchen, Amsel, Finken, Drossel, Hasel, Holunder"
)
STREET_SUFFIXES = ("straße", "straße", "weg", "weg", "gasse", "ring", "allee", "steig", "pfad")
DISTRICTS = _items(
    "Altstadt, Innenstadt, Nordstadt, Südstadt, Weststadt, Oststadt, Neustadt, Haidhausen, "
    "Schwabing, Gostenhof, Sendling, Bogenhausen, Giesing, Eimsbüttel, Ehrenfeld, "
    "Sachsenhausen, Bockenheim, Linden, Gaarden, Plagwitz, Connewitz, Neustadt-Süd, Am Hart, "
    "Lichtenberg, Pankow, Wedding, Bornheim, Mühlburg, Wöhrd, Gaustadt, Wunderburg, "
    "Kirchheim, Oberdorf, Unterdorf, Heidenheim, Hochfeld"
)
#: Seats of Landgerichte (``Landgericht München I``) and Oberlandesgerichte.
LANDGERICHTE = _items(
    "Berlin, Hamburg, München I, München II, Köln, Frankfurt am Main, Stuttgart, Düsseldorf, "
    "Dortmund, Essen, Bremen, Leipzig, Dresden, Hannover, Nürnberg-Fürth, Duisburg, Bochum, "
    "Wuppertal, Bielefeld, Bonn, Münster, Mannheim, Karlsruhe, Augsburg, Wiesbaden, "
    "Mönchengladbach, Aachen, Braunschweig, Kiel, Chemnitz, Halle, Magdeburg, Freiburg, "
    "Krefeld, Lübeck, Erfurt, Mainz, Rostock, Kassel, Potsdam, Saarbrücken, Regensburg, "
    "Würzburg, Bamberg, Bayreuth, Coburg, Hof, Ansbach, Passau, Landshut, Traunstein, "
    "Kempten, Memmingen, Ingolstadt, Darmstadt, Gießen, Hanau, Fulda, Koblenz, Trier, "
    "Frankenthal, Kaiserslautern, Osnabrück, Oldenburg, Göttingen, Hildesheim, Lüneburg, "
    "Stade, Verden, Detmold, Paderborn, Hagen, Siegen, Arnsberg, Kleve"
)
OBERLANDESGERICHTE = _items(
    "München, Nürnberg, Bamberg, Frankfurt am Main, Köln, Düsseldorf, Hamm, Celle, "
    "Oldenburg, Stuttgart, Karlsruhe, Zweibrücken, Koblenz, Dresden, Naumburg, Jena, "
    "Rostock, Schleswig, Bremen, Braunschweig, Saarbrücken"
)
LEGAL_FORMS: dict[str, float] = {
    "GmbH": 45,
    "GmbH & Co. KG": 12,
    "AG": 8,
    "UG (haftungsbeschränkt)": 6,
    "KG": 5,
    "e.V.": 5,
    "eG": 4,
    "OHG": 3,
    "e.K.": 2,
    "PartG mbB": 2,
    "SE": 1,
}
#: Register (``HRB 123456``) by legal form.
REGISTER_PREFIX = {
    "GmbH": "HRB",
    "AG": "HRB",
    "UG (haftungsbeschränkt)": "HRB",
    "SE": "HRB",
    "GmbH & Co. KG": "HRA",
    "KG": "HRA",
    "OHG": "HRA",
    "e.K.": "HRA",
    "e.V.": "VR",
    "eG": "GnR",
    "PartG mbB": "PR",
}
COMPANY_WORDS = _items(
    "Immobilien, Hausverwaltung, Wohnbau, Grundbesitz, Bau, Transporte, Logistik, "
    "Gebäudeservice, Haustechnik, Elektro, Sanitär, Dachdeckerei, Handel, Consulting, "
    "Vermögensverwaltung, Projektentwicklung"
)
BRAND_WORDS = _items(
    "Nordstern, Sonnenhof, Lindenhof, Alpenblick, Rheinland, Mainufer, Isartal, Frankonia, "
    "Bavaria, Westfalia, Saxonia, Hanseatic, Aurora, Vitalis, Optima, Primus, Merkur, "
    "Kompass, Eichenhof, Waldblick"
)
INSURER_REGIONS = _items(
    "Hanseatische, Rheinische, Fränkische, Westfälische, Badische, Schwäbische, "
    "Norddeutsche, Süddeutsche, Mitteldeutsche, Allgemeine, Deutsche, Pfälzische"
)
INSURER_WORDS = _items(
    "Versicherung, Kraftfahrtversicherung, Haftpflichtversicherung, "
    "Versicherungsgesellschaft, Assekuranz"
)
CAR_MODELS: dict[str, tuple[str, ...]] = {
    "VW": _items("Golf, Polo, Passat, Tiguan, Touran, T-Roc, Up, Caddy, ID.3"),
    "BMW": _items("320d, 118i, 520d, X1, X3, X5, i3, 330i"),
    "Mercedes-Benz": _items("C 200, E 220 d, A 180, B 200, GLC 300, Sprinter, Vito"),
    "Audi": _items("A3, A4 Avant, A6, Q3, Q5, A1"),
    "Opel": _items("Astra, Corsa, Insignia, Zafira, Mokka, Meriva"),
    "Ford": _items("Focus, Fiesta, Mondeo, Kuga, Transit, Puma"),
    "Skoda": _items("Octavia, Fabia, Superb, Kodiaq, Yeti"),
    "Seat": _items("Leon, Ibiza, Ateca, Arona"),
    "Renault": _items("Clio, Megane, Kangoo, Captur, Zoe"),
    "Toyota": _items("Yaris, Corolla, Auris, RAV4, Aygo"),
    "Hyundai": _items("i30, i20, Tucson, Kona"),
    "Kia": _items("Ceed, Picanto, Sportage, Rio"),
    "Fiat": _items("500, Panda, Punto, Doblo, Ducato"),
    "Peugeot": _items("208, 308, 3008, Partner"),
    "Citroën": _items("C3, C4, Berlingo"),
    "Mazda": _items("CX-5, Mazda3, MX-5, Mazda6"),
    "Dacia": _items("Duster, Sandero, Logan"),
    "Volvo": _items("XC60, V60, V40, XC90"),
    "Tesla": _items("Model 3, Model Y"),
    "Porsche": _items("Cayenne, 911 Carrera, Macan"),
    "Mini": _items("Cooper, One, Countryman"),
    "Nissan": _items("Micra, Qashqai, Juke"),
}
#: World manufacturer identifiers (first three VIN characters) of common makes.
VIN_PREFIXES = ("WVW", "WV1", "WBA", "WDD", "WDB", "WAU", "W0L", "WF0", "TMB", "VSS", "VF1")
VIN_ALPHABET = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
#: District codes of German licence plates (a selection of real ones).
PLATE_CODES = _items(
    "A, B, BA, BAD, BB, BC, BI, BK, BM, BN, BO, BT, BZ, C, CB, CE, CO, CW, D, DA, DAH, DD, "
    "DE, DEG, DN, DO, DU, E, EBE, ED, EI, EM, EN, ER, ES, F, FB, FD, FFB, FN, FR, FS, FÜ, G, "
    "GAP, GE, GI, GL, GM, GÖ, GP, GR, GS, GT, H, HA, HAM, HB, HD, HE, HF, HG, HH, HI, HL, "
    "HM, HN, HO, HRO, HS, HU, IN, J, K, KA, KE, KF, KI, KL, KN, KO, KR, KS, L, LA, LB, LD, "
    "LG, LI, LIP, LU, M, MA, MB, MD, ME, MG, MH, MI, MK, MM, MN, MR, MS, MZ, N, NB, ND, NE, "
    "NEA, NES, NEW, NM, NU, OA, OB, OD, OF, OG, OH, OL, OS, PA, PAF, PB, PF, PI, PM, R, RA, "
    "RD, RE, REG, RO, RT, RV, S, SB, SE, SHA, SI, SK, SL, SM, SN, SO, SP, ST, STA, SU, SW, "
    "TBB, TF, TÖL, TR, TS, TÜ, UL, V, VK, W, WAF, WEN, WES, WI, WN, WOB, WT, WÜ, WUN, Z, ZW"
)
PLATE_RE = re.compile(r"[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} [1-9]\d{0,3}[EH]?")
VIN_RE = re.compile(r"[A-HJ-NPR-Z0-9]{17}")
LANDLINE_PREFIXES = _items(
    "030, 040, 089, 069, 0221, 0211, 0711, 0911, 0951, 0341, 0351, 0511, 0421, 0201, 0231, "
    "0621, 0761, 0821, 0941, 0931, 0921, 0851, 0871, 06221, 07071, 08031, 09281, 04131, "
    "05251, 02241, 0731, 0681"
)
MOBILE_PREFIXES = _items(
    "0151, 0152, 0157, 0159, 0160, 0162, 0163, 0170, 0171, 0172, 0173, 0175, 0176, 0177, 0178, 0179"
)
MAIL_DOMAINS = _items(
    "gmx.de, web.de, t-online.de, gmail.com, outlook.de, posteo.de, mail.de, freenet.de, "
    "icloud.com, yahoo.de"
)
NATIONALITIES = _items(
    "türkisch, polnisch, italienisch, rumänisch, kroatisch, syrisch, griechisch, bulgarisch, "
    "ukrainisch, russisch, serbisch, kosovarisch, österreichisch, ungarisch, afghanisch, "
    "irakisch, spanisch, portugiesisch, französisch, niederländisch, amerikanisch, bosnisch, "
    "albanisch, vietnamesisch"
)
#: Professions as (male, female) forms.
PROFESSIONS = tuple(
    tuple(pair.split("/"))
    for pair in _items(
        "Altenpfleger/Altenpflegerin, Bankkaufmann/Bankkauffrau, Busfahrer/Busfahrerin, "
        "Elektriker/Elektrikerin, Erzieher/Erzieherin, Fachinformatiker/Fachinformatikerin, "
        "Friseur/Friseurin, Kfz-Mechatroniker/Kfz-Mechatronikerin, "
        "Krankenpfleger/Krankenpflegerin, Lehrer/Lehrerin, Lagerist/Lageristin, "
        "Oberarzt am Klinikum/Oberärztin am Klinikum, Polizeibeamter/Polizeibeamtin, "
        "Rentner/Rentnerin, Schreiner/Schreinerin, Softwareentwickler/Softwareentwicklerin, "
        "Steuerberater/Steuerberaterin, Student/Studentin, Taxifahrer/Taxifahrerin, "
        "Verkäufer/Verkäuferin, Versicherungsvertreter/Versicherungsvertreterin, "
        "Zahnarzt/Zahnärztin, selbständiger Handwerksmeister/selbständige Handwerksmeisterin, "
        "Hausmeister/Hausmeisterin, Koch/Köchin, Architekt/Architektin, "
        "Berufskraftfahrer/Berufskraftfahrerin, Industriemechaniker/Industriemechanikerin, "
        "Pflegehelfer/Pflegehelferin, Physiotherapeut/Physiotherapeutin, "
        "Sachbearbeiter bei der Stadtverwaltung/Sachbearbeiterin bei der Stadtverwaltung, "
        "Landwirt/Landwirtin"
    )
)
HEALTH_CONDITIONS = _items(
    "Bandscheibenvorfall, Multiple Sklerose, Depression, Diabetes mellitus Typ 2, "
    "Asthma bronchiale, Schleudertrauma, Gehbehinderung, Herzinsuffizienz, Rheuma, Tinnitus"
)
FLOORS = ("EG", "1. OG", "2. OG", "3. OG", "4. OG", "5. OG", "DG", "UG")
FLOOR_WORDS = {
    "EG": "Erdgeschoss",
    "DG": "Dachgeschoss",
    "UG": "Untergeschoss",
}
POSITIONS = ("links", "rechts", "Mitte", "links", "rechts")

#: Faker's de_DE towns that are no towns (districts, typos).
_ODD_TOWNS = frozenset(
    {"Leipziger Land", "Neustadtner Waldnaab", "Main-Höchst", "Griesbach Rottal"}
)


@cache
def _faker(locale: str):
    """One Faker per locale and process: building one takes tens of milliseconds."""
    from faker import Faker

    return Faker(locale)


_CLEAN_NAME = re.compile(r"[^\W\d_]+(?:[ '-][^\W\d_]+)*")


def _is_clean_name(name: str) -> bool:
    """Reject Faker's oddities (``Hans-J.``, ``Koch II``, ``auch Schlauchin``)."""
    if not _CLEAN_NAME.fullmatch(name):
        return False
    words = name.replace("-", " ").split()
    if any(len(w) > 1 and w.isupper() for w in words):
        return False
    first, last = words[0], words[-1]
    return last[0].isupper() and (first[0].isupper() or first in NAME_PARTICLES)


@cache
def _double_first_names(locale: str, gender: str) -> tuple[str, ...]:
    """The locale's own double first names (``Hans-Peter``, ``Anna Maria``), if it has some."""
    import importlib

    provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
    names = getattr(provider, "first_names_female" if gender == "f" else "first_names_male", ())
    return tuple(
        sorted(
            n for n in names if (" " in n or "-" in n) and _is_clean_name(n) and n.count(" ") < 2
        )
    )


def iban_check_digits(country: str, bban: str) -> str:
    """ISO 13616 check digits: the IBAN's number mod 97 must be 1."""
    digits = "".join(str(int(c, 36)) for c in bban + country) + "00"
    return f"{98 - int(digits) % 97:02d}"


def is_valid_iban(iban: str) -> bool:
    """Whether ``iban`` (spaces allowed) passes the mod-97 check."""
    compact = iban.replace(" ", "")
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", compact):
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def _ascii_fold(text: str) -> str:
    """``Müller`` → ``mueller``, ``Yılmaz`` → ``yilmaz``: for e-mail addresses and URLs."""
    text = text.lower()
    for src, dst in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"), ("ı", "i"), ("ł", "l")):
        text = text.replace(src, dst)
    text = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9.-]", "", "".join(c for c in text if not unicodedata.combining(c)))


@dataclass(frozen=True)
class PersonName:
    """A surrogate person: names from one locale, so that they sound like one person."""

    first: str
    last: str
    gender: str
    locale: str

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"


class SurrogateFactory:
    """Realistic German surrogate values, reproducible from one ``random.Random``.

    Faker objects are built once per process and locale and draw from ``rng`` on every
    call, so two factories with equally seeded generators give equal values.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # -- helpers
    def _fake(self, locale: str):
        fake = _faker(locale)
        fake.random = self.rng
        return fake

    def _digits(self, n: int, *, leading_zero: bool = False) -> str:
        if leading_zero:
            return f"{self.rng.randrange(10**n):0{n}d}"
        return str(self.rng.randrange(10 ** (n - 1), 10**n))

    def _number(self, low: int, high: int) -> str:
        """A number, small ones more likely (court numbers, house numbers)."""
        return str(min(self.rng.randint(low, high) for _ in range(2)))

    def pick(self, weights: dict[str, float]) -> str:
        return self.rng.choices(list(weights), weights=list(weights.values()))[0]

    # -- people
    def gender(self) -> str:
        return self.rng.choice(GENDERS)

    def name_locale(self) -> str:
        return self.pick(NAME_LOCALES)

    def first_name(
        self, gender: str | None = None, locale: str | None = None, double: bool | None = None
    ) -> str:
        """A first name; ``double=True`` gives ``Hans Peter``/``Anna-Lena``, ``False`` one word."""
        gender = gender or self.gender()
        locale = locale or self.name_locale()
        if double is None:
            double = self.rng.random() < 0.05
        if double:
            known = _double_first_names(locale, gender)
            if len(known) >= 5:
                return self.rng.choice(known)
            first, second = (self.first_name(gender, locale, double=False) for _ in range(2))
            while second == first:
                second = self.first_name(gender, locale, double=False)
            return f"{first} {second}"
        fake = self._fake(locale)
        draw = fake.first_name_female if gender == "f" else fake.first_name_male
        for _ in range(50):
            name = draw()
            if _is_clean_name(name) and " " not in name and "-" not in name:
                return name
        return "Maria" if gender == "f" else "Thomas"

    def last_name(
        self, gender: str | None = None, locale: str | None = None, double: bool | None = None
    ) -> str:
        """A surname; ``double=True`` gives ``Yılmaz-Berger`` (second part usually German)."""
        gender = gender or self.gender()
        locale = locale or self.name_locale()
        if double is None:
            double = self.rng.random() < (0.06 if gender == "f" else 0.01)
        if double:
            first = self.last_name(gender, locale, double=False)
            second_locale = "de_DE" if self.rng.random() < 0.7 else self.name_locale()
            second = self.last_name(gender, second_locale, double=False)
            while second == first:
                second = self.last_name(gender, second_locale, double=False)
            return f"{first}-{second}"
        fake = self._fake(locale)
        draw = fake.last_name_female if gender == "f" else fake.last_name_male
        for _ in range(50):
            name = draw()
            if _is_clean_name(name) and "-" not in name:
                return name
        return "Schneider"

    def person(
        self,
        gender: str | None = None,
        locale: str | None = None,
        *,
        double_first: bool | None = None,
        double_last: bool | None = None,
    ) -> PersonName:
        gender = gender or self.gender()
        locale = locale or self.name_locale()
        first = self.first_name(gender, locale, double_first)
        return PersonName(first, self.last_name(gender, locale, double_last), gender, locale)

    def full_name(self, gender: str | None = None) -> str:
        return self.person(gender).full

    def profession(self, gender: str | None = None) -> str:
        male, female = self.rng.choice(PROFESSIONS)
        return female if (gender or self.gender()) == "f" else male

    def nationality(self, gender: str | None = None) -> str:
        """``türkischer Staatsangehöriger`` / ``türkische Staatsangehörige``."""
        adjective = self.rng.choice(NATIONALITIES)
        if (gender or self.gender()) == "f":
            return f"{adjective}e Staatsangehörige"
        return f"{adjective}er Staatsangehöriger"

    def health_condition(self) -> str:
        return self.rng.choice(HEALTH_CONDITIONS)

    # -- places
    def town(self) -> str:
        fake = self._fake("de_DE")
        for _ in range(50):
            town = fake.city()
            if re.fullmatch(r"[A-ZÄÖÜ][a-zäöüß]+(?:[ -][A-ZÄÖÜa-zäöüß][a-zäöüß]+)*", town) and not (
                re.match(r"Bad[a-zäöü]", town) or town in _ODD_TOWNS
            ):
                return town
        return "Bamberg"

    def district(self) -> str:
        return self.rng.choice(DISTRICTS)

    def street_name(self) -> str:
        """``Bahnhofstraße``, ``Am Anger``, ``Memmelsdorfer Straße``, ``Lindenweg``, …"""
        roll = self.rng.random()
        if roll < 0.4:
            return self.rng.choice(STREETS)
        if roll < 0.65:
            return self.rng.choice(STREET_ROOTS) + self.rng.choice(STREET_SUFFIXES)
        if roll < 0.85:
            town = self.town()
            while " " in town or "-" in town:
                town = self.town()
            return f"{town}{'r' if town.endswith('e') else 'er'} Straße"
        person = self.person(locale="de_DE", double_first=False, double_last=False)
        if roll < 0.93 and not person.last.endswith(("s", "z", "ß", "x")):
            return f"{person.last}straße"
        return f"{person.first}-{person.last}-Straße"

    def house_number(self) -> str:
        roll = self.rng.random()
        number = self.rng.randint(1, 30) if roll < 0.6 else self.rng.randint(1, 250)
        suffix = self.rng.choice("ab") if self.rng.random() < 0.08 else ""
        return f"{number}{suffix}"

    def street(self, with_number: bool = True, *, feminine: bool = False) -> str:
        """``Bahnhofstraße 12``, ``Am Anger 3a``, ``Memmelsdorfer Straße 201``.

        ``feminine``: one that fits after ``in der`` (``-straße``, ``-gasse``, ``-allee``).
        """
        name = self.street_name()
        while feminine and not name.endswith(("straße", "Straße", "gasse", "allee")):
            name = self.street_name()
        return f"{name} {self.house_number()}" if with_number else name

    def postcode(self) -> str:
        return f"{self.rng.randint(1067, 99998):05d}"

    def postcode_town(self, town: str | None = None) -> str:
        """``80331 München`` (five-digit postcode; the town kept when given)."""
        return f"{self.postcode()} {town or self.town()}"

    # -- legal persons
    def legal_form(self) -> str:
        return self.pick(LEGAL_FORMS)

    def company_word(self) -> str:
        """One word that names a firm on its own (``Bäckerei Hoffmann``, ``Klinik Lindenhof``)."""
        if self.rng.random() < 0.7:
            return self.last_name(locale=self.rng.choice(("de_DE", "de_DE", "de_AT", "tr_TR")))
        return self.rng.choice(BRAND_WORDS)

    def company_name(self, kind: str | None = None) -> str:
        """A firm without legal form: ``Schmidt Immobilien``, ``Autohaus Berger``, …

        ``kind``: ``landlord``, ``insurer``, ``car_dealer``, ``cooperative`` or None (any).
        """
        kind = kind or self.rng.choice(("landlord", "generic", "generic", "car_dealer"))
        last = self.last_name(locale=self.rng.choice(("de_DE", "de_DE", "de_AT", "tr_TR", "it_IT")))
        if kind == "insurer":
            return f"{self.rng.choice(INSURER_REGIONS)} {self.rng.choice(INSURER_WORDS)}"
        if kind == "car_dealer":
            return self.rng.choice((f"Autohaus {last}", f"Auto {last}", f"Autozentrum {last}"))
        if kind == "cooperative":
            town = self.town()
            return self.rng.choice(
                (f"Wohnungsbaugenossenschaft {town}", f"Baugenossenschaft {town}", f"{town}er Bau")
            )
        if kind == "landlord":
            word = self.rng.choice(("Immobilien", "Hausverwaltung", "Wohnbau", "Grundbesitz"))
            return self.rng.choice(
                (
                    f"{last} {word}",
                    f"Hausverwaltung {last}",
                    f"{self.rng.choice(BRAND_WORDS)} {word}",
                )
            )
        other = self.last_name(locale="de_DE")
        return self.rng.choice(
            (
                f"{last} {self.rng.choice(COMPANY_WORDS)}",
                f"{last} & {other}",
                f"{self.rng.choice(BRAND_WORDS)} {self.rng.choice(COMPANY_WORDS)}",
                f"{last} {self.rng.choice(COMPANY_WORDS)} {self.town()}",
                f"{last} & Söhne",
            )
        )

    def register_number(self, prefix: str | None = None, legal_form: str | None = None) -> str:
        """``HRB 123456`` (``HRA``, ``VR``, ``GnR``, ``PR`` by legal form or ``prefix``)."""
        prefix = prefix or REGISTER_PREFIX.get(legal_form or "", "HRB")
        digits = self.rng.randint(3, 6) if prefix in {"HRB", "HRA"} else self.rng.randint(2, 5)
        return f"{prefix} {self._digits(digits)}"

    def tax_number(self) -> str:
        return f"{self._digits(3)}/{self._digits(3)}/{self._digits(5)}"

    def vat_id(self) -> str:
        return f"DE{self._digits(9)}"

    # -- vehicles
    def car(self, make: str | None = None) -> str:
        """``VW Golf``, ``BMW 320d``."""
        make = make or self.rng.choice(list(CAR_MODELS))
        return f"{make} {self.rng.choice(CAR_MODELS[make])}"

    def licence_plate(
        self, district: str | None = None, letters: int | None = None, digits: int | None = None
    ) -> str:
        """``M-AB 1234``: a real district code, 1–2 letters, 1–4 digits, rarely E/H.

        At most eight characters without separators, as the FZV prescribes.
        """
        district = district or self.rng.choice(PLATE_CODES)
        letters = letters or self.rng.choice((1, 2, 2, 2))
        suffix = self.rng.choice("EH") if self.rng.random() < 0.03 else ""
        room = 8 - len(district) - letters - len(suffix)
        digits = max(1, min(digits or self.rng.choice((1, 2, 3, 3, 4, 4, 4)), room, 4))
        alphabet = "ABCDEFGHIJKLMNOPRSTUVWXYZ"
        while True:
            code = "".join(self.rng.choice(alphabet) for _ in range(letters))
            if code not in {"HJ", "KZ", "NS", "SA", "SS", "XX"}:  # banned, or a mask
                break
        return f"{district}-{code} {self._digits(digits)}{suffix}"

    def vin(self) -> str:
        """17 characters without I, O, Q: manufacturer, descriptor, year, plant, serial."""
        descriptor = (
            "ZZZ" if self.rng.random() < 0.5 else "".join(self.rng.choices(VIN_ALPHABET, k=3))
        )
        descriptor += "".join(self.rng.choices(VIN_ALPHABET, k=3))
        year_plant = "".join(self.rng.choices("ABCDEFGHJKLMNPRSTVWXY123456789", k=2))
        return (
            self.rng.choice(VIN_PREFIXES)
            + descriptor
            + year_plant
            + self._digits(6, leading_zero=True)
        )

    # -- numbers
    def iban(self) -> str:
        """A German IBAN with valid check digits, grouped in fours."""
        bank_code = f"{self.rng.randint(1, 8)}{self._digits(7, leading_zero=True)}"
        bban = bank_code + self._digits(10, leading_zero=True)
        compact = "DE" + iban_check_digits("DE", bban) + bban
        return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))

    def phone(self, kind: str | None = None) -> str:
        """A German landline (``089 12345678``) or mobile (``0171 2345678``) number."""
        kind = kind or self.rng.choice(("landline", "mobile"))
        if kind == "mobile":
            prefix, rest = self.rng.choice(MOBILE_PREFIXES), self._digits(self.rng.choice((7, 8)))
        else:
            prefix = self.rng.choice(LANDLINE_PREFIXES)
            rest = self._digits(max(5, 10 - len(prefix) + self.rng.randint(0, 1)))
        style = self.rng.random()
        if style < 0.45:
            return f"{prefix} {rest}"
        if style < 0.7:
            return f"{prefix}/{rest}"
        if style < 0.85:
            return f"+49 {prefix[1:]} {rest}"
        if style < 0.93:
            return f"({prefix}) {rest}"
        return f"{prefix}-{rest}"

    def email(self, person: PersonName | None = None) -> str:
        person = person or self.person(double_first=False)
        first, last = _ascii_fold(person.first), _ascii_fold(person.last)
        local = self.rng.choice(
            (
                f"{first}.{last}",
                f"{first[0]}.{last}",
                f"{first}{last}",
                f"{last}{self.rng.randint(1, 99)}",
                f"{first}.{last}{self.rng.randint(60, 99)}",
            )
        )
        return f"{local}@{self.rng.choice(MAIL_DOMAINS)}"

    def url(self, name: str | None = None) -> str:
        slug = _ascii_fold((name or self.company_name()).replace(" & ", "-").replace(" ", "-"))
        slug = re.sub(r"-{2,}", "-", slug).strip("-.") or "kanzlei"
        return self.rng.choice((f"www.{slug}.de", f"https://www.{slug}.de", f"{slug}.de"))

    def reference_number(self, kind: str = "contract") -> str:
        """Contract, policy, claim, customer or member number in a typical German shape."""
        year = self.rng.randint(2012, 2024)
        d = self._digits

        def letters(n: int) -> str:
            return "".join(self.rng.choice("ABCDEFGHKLMNPRSTVWZ") for _ in range(n))

        shapes: dict[str, tuple[Callable[[], str], ...]] = {
            "contract": (
                lambda: f"MV-{year}-{d(5)}",
                lambda: f"{d(3)}/{d(6)}",
                lambda: f"V{d(8)}",
                lambda: f"{d(4)}-{d(4)}",
            ),
            "policy": (
                lambda: f"KH {d(8)}",
                lambda: f"{d(3)}.{d(3)}.{d(3)}",
                lambda: f"{d(2)}/{d(7)}-K",
                lambda: f"VS{d(9)}",
                lambda: f"{letters(2)}-{d(2)} {d(3)} {d(3)}",
                lambda: f"{letters(1)} {d(2)} {d(4)} {d(3)}",
            ),
            "claim": (
                lambda: f"{d(2)}-{d(2)}-{d(6)}/{d(1)}",
                lambda: f"SN {year}-{d(6)}",
                lambda: f"S{d(9)}",
                lambda: d(10),
                lambda: f"{letters(2)}-{year}-{d(3)}-{d(4)}",
                lambda: f"{letters(3)}/{d(2)}/{d(5)}",
            ),
            "customer": (lambda: d(9), lambda: f"KD-{d(7)}", lambda: f"{d(4)} {d(4)} {d(2)}"),
            "member": (lambda: d(6), lambda: f"M-{d(5)}", lambda: f"{d(3)} {d(3)}"),
        }
        return self.rng.choice(shapes.get(kind, shapes["contract"]))()

    def docket_number(self, kind: str | None = None, year: int | None = None) -> str:
        """``432 C 1234/21``, ``5 Js 123/21``, ``2 O 55/20``, ``VI ZR 12/19``, …

        ``kind``: ``civil`` (Amtsgericht), ``regional`` (Landgericht), ``appeal``,
        ``criminal``, ``family``, ``federal`` or None (any).
        """
        kind = kind or self.rng.choice(("civil", "civil", "regional", "appeal", "criminal"))
        yy = f"{(year or self.rng.randint(2014, 2024)) % 100:02d}"
        chamber, number = self._number(1, 40), self._number(1, 3999)
        if kind == "civil":
            chamber = self.rng.choice((chamber, self._number(100, 480)))
            return f"{chamber} {self.rng.choice(('C', 'C', 'C', 'M'))} {number}/{yy}"
        if kind == "regional":
            return f"{chamber} {self.rng.choice(('O', 'O', 'OH', 'T'))} {number}/{yy}"
        if kind == "appeal":
            return f"{chamber} {self.rng.choice(('S', 'U', 'W'))} {self._number(1, 999)}/{yy}"
        if kind == "criminal":
            js = f"{chamber} Js {self._number(1, 29999)}/{yy}"
            return self.rng.choice(
                (js, f"{self._number(1, 20)} Ds {js}", f"{self._number(1, 20)} Cs {js}")
            )
        if kind == "family":
            return f"{chamber} F {number}/{yy}"
        senate = self.rng.choice(
            ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")
        )
        return f"{senate} {self.rng.choice(('ZR', 'ZR', 'ZB'))} {self._number(1, 399)}/{yy}"

    def file_reference(self, kind: str = "police") -> str:
        """File reference of the police, an insurer or an authority."""
        yy = f"{self.rng.randint(2014, 2024) % 100:02d}"
        d = self._digits
        shapes: dict[str, tuple[Callable[[], str], ...]] = {
            "police": (
                lambda: f"BY{d(4)}-{d(6, leading_zero=True)}-{yy}/{d(1)}",
                lambda: f"{d(4)}-{d(6)}/{yy}",
                lambda: f"VU/20{yy}/{d(5)}",
                lambda: f"ST/{d(7, leading_zero=True)}/20{yy}",
            ),
            "insurer": (
                lambda: f"{d(2)}-{d(3)}-{d(5)}-{d(1)}",
                lambda: f"KS-20{yy}-{d(6)}",
                lambda: f"{d(8)}/{yy}",
            ),
            "authority": (
                lambda: f"{d(2)}.{d(2)}-{d(4)}/{yy}",
                lambda: f"{d(3)}-{d(4)}",
                lambda: f"{d(5)}-20{yy}",
            ),
        }
        return self.rng.choice(shapes.get(kind, shapes["police"]))()

    def court(self, kind: str | None = None, town: str | None = None) -> str:
        """``Amtsgericht München``, ``Landgericht Nürnberg-Fürth``, ``Oberlandesgericht Celle``."""
        kind = kind or self.rng.choice(("Amtsgericht", "Amtsgericht", "Landgericht"))
        if kind == "Landgericht":
            return f"Landgericht {town or self.rng.choice(LANDGERICHTE)}"
        if kind == "Oberlandesgericht":
            return f"Oberlandesgericht {town or self.rng.choice(OBERLANDESGERICHTE)}"
        if town is None:
            town = self.rng.choice(LANDGERICHTE) if self.rng.random() < 0.5 else self.town()
            town = town.removesuffix(" I").removesuffix(" II").replace("Nürnberg-Fürth", "Nürnberg")
        return f"{kind} {town}"

    # -- dates
    def date(self, year: int | None = None, *, start: int = 2014, end: int = 2024) -> dt.date:
        year = year or self.rng.randint(start, end)
        return dt.date(year, 1, 1) + dt.timedelta(days=self.rng.randint(0, 364))

    def time(self) -> str:
        """``14:30 Uhr`` (rarely ``14.30 Uhr``)."""
        hour = self.rng.choice(range(6, 23))
        minute = self.rng.choice(
            (0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, self.rng.randint(0, 59))
        )
        return f"{hour:02d}{':' if self.rng.random() < 0.85 else '.'}{minute:02d} Uhr"

    def date_text(
        self,
        style: str | None = None,
        year: int | None = None,
        *,
        with_time: bool = False,
        date: dt.date | None = None,
    ) -> str:
        """A date in one of :data:`DATE_STYLES` (or ``month``), optionally ``, 14:30 Uhr``."""
        style = style or self.rng.choice(DATE_STYLES)
        text = format_date(date or self.date(year), style)
        return f"{text}, {self.time()}" if with_time else text

    # -- dwellings and plots
    def floor(self) -> str:
        """``3. OG links``, ``Erdgeschoss rechts``, ``Dachgeschoss``."""
        floor = self.rng.choice(FLOORS)
        if self.rng.random() < 0.3:
            floor = FLOOR_WORDS.get(floor, floor.replace("OG", "Obergeschoss"))
        if floor in {"DG", "Dachgeschoss", "UG", "Untergeschoss"} and self.rng.random() < 0.5:
            return floor
        return f"{floor} {self.rng.choice(POSITIONS)}"

    def cellar(self) -> str:
        word = self.rng.choice(("Kellerabteil", "Kellerabteil", "Kellerraum", "Keller"))
        return f"{word} Nr. {self._number(1, 60)}"

    def parking_space(self) -> str:
        word = self.rng.choice(("Tiefgaragenstellplatz", "Stellplatz", "Garage", "Carport"))
        return f"{word} Nr. {self._number(1, 120)}"

    def parcel_number(self) -> str:
        word = self.rng.choice(("Flurnummer", "Flurstück", "Fl.-Nr.", "Flst."))
        return f"{word} {self._number(1, 3999)}/{self._number(1, 40)}"

    def flat_number(self) -> str:
        return self.rng.choice(("Wohnung Nr. ", "WE ", "Nr. ")) + self._number(1, 80)


def format_date(date: dt.date, style: str) -> str:
    """``long`` 3. März 2021, ``padded`` 03.03.2021, ``short`` 3.3.2021, ``month`` März 2021."""
    if style == "long":
        return f"{date.day}. {MONTHS[date.month - 1]} {date.year}"
    if style == "padded":
        return f"{date.day:02d}.{date.month:02d}.{date.year}"
    if style == "short":
        return f"{date.day}.{date.month}.{date.year}"
    if style == "month":
        return f"{MONTHS[date.month - 1]} {date.year}"
    raise ValueError(f"unknown date style {style!r}; known: {[*DATE_STYLES, 'month']}")


def _name_key(token: str, occurrence: str) -> str:
    """Mentions of one person share keys: ``A.``/``A...``/``Ａ`` → ``ph:A``; a bare ``…``
    could hide anyone, so each gets a key of its own."""
    token = nfkc(token)
    kind = placeholder_kind(token)
    if kind == "ellipsis":
        return f"…{occurrence}"
    if kind in ("initial", "genitive"):
        return "ph:" + token[0]
    return ("ph:" if kind else "tx:") + token


@dataclass
class _NameMention:
    """One name span, taken apart; ``last`` is None for a first name alone."""

    firsts: list[str]
    last: str | None
    genitive: bool
    comma: bool
    cue: str | None
    first_keys: tuple[str, ...]
    last_key: str | None
    introduce: bool = False
    prefix: str = ""


@dataclass
class _NameBook:
    """One document's name parts: original surname/first names → surrogate ones."""

    factory: SurrogateFactory
    surnames: dict[str, tuple[str, str]] = field(default_factory=dict)
    firsts: dict[tuple[tuple[str, ...], str | None], str] = field(default_factory=dict)
    lone_firsts: dict[str, str] = field(default_factory=dict)
    genders: dict[str, str] = field(default_factory=dict)
    used: set[str] = field(default_factory=set)
    claimed: set[str] = field(default_factory=set)

    def gender(self, mention: _NameMention) -> str:
        if mention.cue:
            return mention.cue
        if mention.firsts and mention.firsts[0] in first_name_genders():
            return first_name_genders()[mention.firsts[0]]
        key = mention.last_key or mention.first_keys[0]
        if key not in self.genders:
            self.genders[key] = self.factory.gender()
        return self.genders[key]

    def surname(self, key: str, original: str, gender: str) -> tuple[str, str]:
        if key not in self.surnames:
            double = "-" in original.strip("-")
            locale, attempt = self.factory.name_locale(), 0
            name = self.factory.last_name(gender, locale, double=double)
            while name == original or (name in self.used and attempt < 40):
                attempt += 1
                if attempt % 4 == 0:
                    locale = self.factory.name_locale()
                name = self.factory.last_name(gender, locale, double=double)
            self.used.add(name)
            self.surnames[key] = (name, locale)
        return self.surnames[key]

    def first_names(
        self, keys: tuple[str, ...], originals: list[str], last_key: str | None, gender: str
    ) -> str:
        introduced = self.firsts.get((("intro",), last_key))
        if (keys, last_key) not in self.firsts and introduced and last_key not in self.claimed:
            # `Herr A.` (introduced as `Kemal Aydın`) reappears as `H... A...`
            self.claimed.add(last_key or "")
            if len(originals) == 1:
                self.firsts[(keys, last_key)] = introduced
        if (keys, last_key) not in self.firsts:
            locale = self.surnames[last_key][1] if last_key in self.surnames else None
            if locale is None or self.factory.rng.random() < 0.1:
                locale = self.factory.name_locale()
            names = []
            for original in originals:
                double = "-" in original.strip("-") and placeholder_kind(original) is None
                name = self.factory.first_name(gender, locale, double=double)
                while name == original or name in names:
                    name = self.factory.first_name(gender, locale, double=double)
                if double and "-" not in name:
                    name = name.replace(" ", "-")
                names.append(name)
            self.firsts[(keys, last_key)] = " ".join(names)
            for key, name in zip(keys, names, strict=True):
                self.lone_firsts.setdefault(key, name)
        return self.firsts[(keys, last_key)]

    def render(self, mention: _NameMention) -> str:
        return mention.prefix + self._name(mention)

    def _name(self, mention: _NameMention) -> str:
        gender = self.gender(mention)
        if mention.last is None:  # a first name alone
            key = mention.first_keys[0]
            if key not in self.lone_firsts:
                self.first_names(mention.first_keys, mention.firsts, None, gender)
            return self.lone_firsts[key]
        assert mention.last_key is not None
        last, _ = self.surname(mention.last_key, mention.last, gender)
        if mention.genitive:
            last = genitive(last)
        firsts = mention.firsts
        keys = mention.first_keys
        if mention.introduce:
            firsts, keys = ["…"], ("intro",)
        if not firsts:
            return last
        first = self.first_names(keys, firsts, mention.last_key, gender)
        return f"{last}, {first}" if mention.comma else f"{first} {last}"


# ------------------------------------------------------------------- pseudonymization

#: Labels the :class:`Pseudonymizer` knows how to fill.
SUPPORTED_LABELS = frozenset(DEFAULT_LABELS.names)
_NAME_LABELS = frozenset({"nat-name", "nat-jur"})
_LEGAL_FORM_AFTER = re.compile(
    r"\s*(?:GmbH|gGmbH|AG|e\.\s?V\.|eG|UG|KG|OHG|mbH|PartG|SE|e\.\s?K\.|Ltd\.?|Inc\.?|& Co\.?)\b"
)
_COURT_KINDS = (
    "Amtsgericht",
    "Landgericht",
    "Oberlandesgericht",
    "Arbeitsgericht",
    "Landesarbeitsgericht",
    "Sozialgericht",
    "Verwaltungsgericht",
    "Finanzgericht",
)
_NUMERIC_DATE = re.compile(
    r"(?P<d>\d{1,2}|[xX]{1,2}|\.\.|…)\.(?P<m>\d{1,2}|[xX]{1,2}|\.\.|…)\.(?P<y>\d{4}|\d{2}|[xX]{2,4})"
)
_WORD_DATE = re.compile(
    r"(?:(?P<d>\d{1,2}|[xX]{1,2}|…|\.{2,})\.?\s+)?(?P<m>[A-ZÄÖÜ][a-zäöü]+|…|\.{2,})\s+"
    r"(?P<y>\d{4}|[xX]{4}|…|\.{2,})"
)
_TIME_AFTER_DATE = re.compile(r"(?P<date>.+?)(?P<sep>,\s*|\s+(?:um|gegen|ca\.)\s+)(?P<t>\S+\s*Uhr)")


def _split_prefix(text: str) -> tuple[str, str]:
    """Lower-case words leading a span (``geboren am``) stay; the rest is replaced."""
    tokens = re.split(r"(\s+)", text)
    n = 0
    while n + 2 < len(tokens) and tokens[n][:1].islower() and not has_mask(tokens[n]):
        n += 2
    return "".join(tokens[:n]), "".join(tokens[n:])


class _DocumentState:
    """Everything one document's surrogates share: the factory, the caches that keep
    one entity's surrogate stable, and document-wide choices (base year, date style)."""

    def __init__(self, factory: SurrogateFactory, text: str, spans: list[Span], labels: list[str]):
        self.factory = factory
        self.text = text
        self.spans = spans
        self.labels = labels
        self.guessed: set[int] = set()
        self.cache: dict[tuple[str, str], str] = {}
        self.used: dict[str, set[str]] = {}
        self.names = _NameBook(factory)
        self.mentions: dict[int, _NameMention] = {}
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
        if label in _NAME_LABELS:
            return self.names.render(self.mentions[i])
        if label not in SUPPORTED_LABELS:
            raise ValueError(
                f"no surrogates for label {label!r}; known: {sorted(SUPPORTED_LABELS)}"
            )
        original = self.context(i)[0]
        key, make = getattr(self, "_" + label.replace("-", "_"))(i)
        return self.value(label, key, make, original)

    # -- names: a first pass over all name spans, so that cues anywhere count
    def read_names(self, indices: Iterable[int]) -> None:
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
            mention = self._mention(i, firsts, last, comma, cue, known_firsts, known_lasts)
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

    def _mention(self, i, firsts, last, comma, cue, known_firsts, known_lasts) -> _NameMention:
        genitive = False
        kind = placeholder_kind(last)
        if kind == "genitive":
            last, genitive = last[:-1], True
        elif kind is None and last.endswith("s") and not firsts:
            stem = last[:-1]
            genitive = stem in known_lasts or (
                last not in known_last_names() and stem in known_last_names()
            )
            last = stem if genitive else last
        lone_first = (
            not firsts
            and kind is None
            and not genitive
            and (
                last in known_firsts
                or (
                    last in first_name_genders()
                    and last not in known_last_names()
                    and last not in known_lasts
                )
            )
        )
        if lone_first:
            return _NameMention([last], None, False, False, cue, (_name_key(last, f"{i}:0"),), None)
        first_keys = tuple(_name_key(t, f"{i}:{n}") for n, t in enumerate(firsts))
        last_key = _name_key(last, f"{i}:last")
        return _NameMention(firsts, last, genitive, comma, cue, first_keys, last_key)

    # -- the other labels: each returns (consistency key, value maker)
    def _nat_idx(self, i: int):
        text, before, after = self.context(i)
        low = (before[-40:] + " " + text).lower()
        gender = gender_near(before)
        if gender is None and re.search(r"\beine?\s*$", before):
            gender = "f" if before.rstrip().endswith("eine") else "m"
        factory = self.factory
        if re.search(r"\bgeb(?:oren|\.|urtsdatum)", low):
            return self._dates(i, text, "date-fact", birth=True)
        if "staatsangeh" in low or "nationalität" in low:
            return self.key(text), lambda: factory.nationality(gender)
        if re.match(r"\s*(?:Jahre|-jährig)", after) or "jährig" in text:
            return self.key(text), lambda: str(factory.rng.randint(19, 88))
        if re.match(r"\s+[A-ZÄÖÜ]\w+", after) and re.search(
            r"\b(?:der|die|das|des|dem|den)\s*$", before, re.I
        ):
            ending = "e" if re.search(r"\b(?:der|die|das)\s*$", before, re.I) else "en"
            return None, lambda: f"{factory.rng.randint(19, 88)}-jährig{ending}"  # `Der … Kläger`
        if re.search(r"erkrank|leide|diagnos|krankheit|behinder", low):
            return self.key(text), factory.health_condition
        return self.key(text), lambda: factory.profession(gender)

    def _jur_name(self, i: int):
        text, before, after = self.context(i)
        factory = self.factory
        tokens = nfkc(text).split()
        hidden = [placeholder_kind(t) is not None for t in tokens]
        if any(hidden) and not all(hidden):  # `Klinik X`, `Bäckerei Y`
            return self.key(text), lambda: " ".join(
                factory.company_word() if h else t for t, h in zip(tokens, hidden, strict=True)
            )
        low = (before[-30:] + " " + text + " " + after[:25]).lower()
        kind = None
        if "versicher" in low:
            kind = "insurer"
        elif "autohaus" in low:
            kind = "car_dealer"
        elif "genossenschaft" in low or re.match(r"\s*eG\b", after):
            kind = "cooperative"
        elif re.search(r"vermiet|hausverwalt|immobilien", low):
            kind = "landlord"
        one_word = re.match(r"\s+[A-ZÄÖÜ][a-zäöüß]{2,}", after) or re.search(
            r"(?:Firma|Autohaus)\s*$", before
        )
        if all(hidden) and one_word and not _LEGAL_FORM_AFTER.match(after):
            return self.key(text), factory.company_word  # `X Versicherung AG`, `Firma W`
        return self.key(text), lambda: factory.company_name(kind)

    def _jur_idx(self, i: int):
        text, before, _ = self.context(i)
        factory = self.factory
        norm = nfkc(text)
        low = before[-40:].lower()
        prefix = re.match(r"(HRB|HRA|VR|GnR|GsR|PR)\b", norm)
        if prefix:
            return self.key(text), lambda: factory.register_number(prefix.group(1))
        if re.search(r"steuer-?nummer|st\.-?nr", low):
            return self.key(text), factory.tax_number
        if re.search(r"ust|umsatzsteuer", low):
            return self.key(text), factory.vat_id
        register = "HRB"
        for word, reg in (
            ("vereinsreg", "VR"),
            ("genossenschaftsreg", "GnR"),
            ("partnerschaftsreg", "PR"),
        ):
            if word in low:
                register = reg
        return self.key(text), lambda: factory.register_number(register)

    def _address_kind(self, i: int) -> str:
        if i in self.address_kinds:
            return self.address_kinds[i]
        text, before, _ = self.context(i)
        norm = nfkc(text).strip()
        low_before = before.lower()
        kind = "town"
        if re.match(r"(?:\d{5}|[xX0]{4,5}|…|\.{2,})\s+\S", norm):
            kind = "postcode_town"
        elif re.search(
            r"(?i)stra(?:ß|ss)e|str\.|weg\b|gasse|allee|platz\b|ring\b|damm\b|ufer\b", norm
        ):
            kind = "street"
        elif re.fullmatch(r"[^\d,]+\s\d+\s?[a-z]?", norm):
            kind = "street"  # `Am Anger 3a`
        elif ELLIPSIS_RUN.fullmatch(norm):
            prev_street = (
                i > 0
                and self.labels[i - 1] == "address-name"
                and re.fullmatch(r",\s*", self.text[self.spans[i - 1].end : self.spans[i].start])
                and self._address_kind(i - 1) == "street"
            )
            next_address = (
                i + 1 < len(self.spans)
                and self.labels[i + 1] == "address-name"
                and re.fullmatch(r",\s*", self.text[self.spans[i].end : self.spans[i + 1].start])
            )
            if prev_street:
                kind = "postcode_town"
            elif re.search(r"\b(?:die|der|den|dem)\s*$", low_before):
                kind = "road"  # `befuhr die …`, `Einmündung der …`
            elif next_address or re.search(
                r"(?:anwesens?|hauses|grundstücks?|in der)\s*$", low_before
            ):
                kind = "street"
        if kind == "town" and re.search(r"(?:stadtteil|ortsteil|stadtbezirk)\s*$", low_before):
            kind = "district"
        self.address_kinds[i] = kind
        return kind

    def _address_name(self, i: int):
        text, _, _ = self.context(i)
        factory = self.factory
        kind = self._address_kind(i)
        norm = nfkc(text).strip()
        if kind == "postcode_town":
            code, _, town = norm.partition(" ")
            # a town the court left visible (`xxxxx Regensburg`) stays; a real one is replaced
            visible = has_mask(code) and not has_mask(town) and not LETTER_PLACE.search(town)
            return self.key(text), lambda: factory.postcode_town(town if visible else None)
        if kind == "street":
            with_number = has_mask(text) or bool(re.search(r"\d", text))
            article = re.search(r"\b(?:der|die)\s*$", self.context(i)[1]) is not None
            return self.key(text), lambda: factory.street(with_number, feminine=article)
        if kind == "road":
            return self.key(text), lambda: factory.street(False, feminine=True)
        if kind == "district":
            return self.key(text), factory.district
        return self.key(text), factory.town

    def _address_idx(self, i: int):
        text, before, _ = self.context(i)
        factory = self.factory
        low = (before[-30:] + " " + text).lower()
        if "keller" in low or re.search(r"gehör(?:t|en)\s+(?:das|der|ein)\s*$", before):
            make = factory.cellar
        elif re.search(r"stellplatz|garage|carport", low):
            make = factory.parking_space
        elif re.search(r"flur|fl\.-?nr|flst|grundbuch|gemarkung", low):
            make = factory.parcel_number
        elif re.search(r"wohnung\s+nr|\bwe\b", low):
            make = factory.flat_number
        else:
            make = factory.floor
        tokens = nfkc(text).split()
        hidden = [i for i, t in enumerate(tokens) if has_mask(t)]
        if hidden and hidden[0] > 0:  # `Kellerabteil Nr. …`: keep the words, new number
            head = " ".join(tokens[: hidden[0]])
            return self.key(text), lambda: f"{head} {make().rsplit(' ', 1)[-1]}"
        if re.search(r"\bNr\.?\s*$", before) and make is not factory.floor:
            return self.key(text), lambda: make().rsplit(" ", 1)[-1]
        return self.key(text), make

    def _car_name(self, i: int):
        text, _, _ = self.context(i)
        tokens = text.split()
        makes = {m.lower(): m for m in CAR_MODELS} | {
            "mercedes": "Mercedes-Benz",
            "volkswagen": "VW",
        }
        make = makes.get(tokens[0].lower()) if tokens else None
        if make and len(tokens) > 1:
            return self.key(text), lambda: self.factory.car(make)
        return self.key(text), self.factory.car

    def _car_idx(self, i: int):
        text, before, _ = self.context(i)
        norm = nfkc(text).strip()
        factory = self.factory
        if re.search(r"(?i)identifi|fahrgestell|\bFIN\b|\bVIN\b", before[-40:]) or re.fullmatch(
            r"[A-Z0-9]{17}", norm
        ):
            return self.key(text), factory.vin
        plate = re.fullmatch(
            r"(?P<code>[A-ZÄÖÜ]{1,3})-(?P<l>[A-ZX]{1,2}) (?P<d>\d{1,4})[EH]?", norm
        )
        if plate:
            code = plate.group("code")
            district = code if code in PLATE_CODES else None
            letters, digits = len(plate.group("l")), len(plate.group("d"))
            return self.key(text), lambda: factory.licence_plate(district, letters, digits)
        return self.key(text), factory.licence_plate

    def _court_name(self, i: int):
        text, before, _ = self.context(i)
        factory = self.factory
        norm = nfkc(text)
        kind = next((k for k in _COURT_KINDS if norm.startswith(k)), None)
        if kind is None:
            kind = "Landgericht" if "landgericht" in before[-30:].lower() else "Amtsgericht"
        # `des Amtsgerichts München` keeps its genitive; both forms name one court
        genitive_s = "s" if norm.startswith(kind + "s ") else ""
        key = self.key(norm.replace(kind + "s ", kind + " ", 1))

        def make() -> str:
            if kind in ("Amtsgericht", "Landgericht", "Oberlandesgericht"):
                court = factory.court(kind)
            else:
                court = f"{kind} {factory.rng.choice(LANDGERICHTE).split()[0]}"
            return court.replace(kind, kind + genitive_s, 1)

        if key is not None and genitive_s:  # the cache holds the nominative
            cached = self.cache.get(("court-name", key))
            if cached:
                return None, lambda: cached.replace(kind, kind + genitive_s, 1)
        return (key if not genitive_s else None), make

    def _court_docket(self, i: int):
        text, before, _ = self.context(i)
        factory = self.factory
        norm = nfkc(text).strip()
        if re.search(r"\d", norm) and re.search(r"[A-Za-z]", norm):
            return self.key(text), lambda: self._redigit(norm)
        low = before[-60:].lower()
        year = self.year
        if re.search(r"polizei|vorgangs|tagebuch|\bpi\b|einsatz", low):
            return self.key(text), lambda: factory.file_reference("police")
        if re.search(r"versicher|schaden|regulier", low):
            return self.key(text), lambda: factory.file_reference("insurer")
        if re.search(r"jugendamt|beistandschaft|behörde|landratsamt|bußgeld|stadt\b|amt\b", low):
            return self.key(text), lambda: factory.file_reference("authority")
        kind = "civil"
        for pattern, docket_kind in (
            (r"staatsanwalt|ermittlungs|straf", "criminal"),
            (r"famili", "family"),
            (r"landgericht", "regional"),
            (r"bundesgerichtshof|\bbgh\b", "federal"),
            (r"berufung|beschwerde", "appeal"),
        ):
            if re.search(pattern, low):
                kind = docket_kind
        return self.key(text), lambda: factory.docket_number(kind, year)

    def _redigit(self, text: str) -> str:
        """New digits (and digits for masks) in the same shape; a final ``/21`` year stays."""
        rng = self.factory.rng
        year = re.search(r"/(\d{2}|\d{4})$", text)

        def digits(match: re.Match) -> str:
            run = match.group(0)
            if year and match.start() == year.start(1):
                return run
            n = len(run) if run not in ("…", "...") else rng.randint(2, 4)
            return str(rng.randint(1, 9)) + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))

        return re.sub(r"\d+|[xX]{2,}|…|\.{3}", digits, text)

    def _id_number(self, i: int):
        text, before, _ = self.context(i)
        factory = self.factory
        norm = nfkc(text).strip()
        low = before[-40:].lower()
        compact = norm.replace(" ", "")
        if "@" in norm or re.search(r"e-?mail|mailadresse", low):
            return self.key(text), factory.email
        if re.match(r"(?:www\.|https?:)", norm) or re.search(
            r"internet|homepage|website|webseite", low
        ):
            return self.key(text), factory.url
        if re.fullmatch(r"[A-Z]{2}\d{2}[\dX]{12,30}", compact) or re.search(
            r"iban|konto|bankverb", low
        ):
            return self.key(text), factory.iban
        mobile = re.fullmatch(r"\(?(?:\+49\s?|0)1\d[\d ()/-]{6,}", norm)
        if re.search(r"mobil|handy", low) or mobile:
            return self.key(text), lambda: factory.phone("mobile")
        landline = re.fullmatch(r"\(?(?:\+49\s?|0)[2-9][\d ()/-]{6,}", norm)
        if re.search(r"festnetz|fax", low) or landline:
            return self.key(text), lambda: factory.phone("landline")
        if re.search(r"telefon|tel\.|rufnummer|anschluss", low) or re.fullmatch(
            r"(?:\+49|\(?0)[\d ()/-]{6,}", norm
        ):
            return self.key(text), factory.phone
        if re.search(r"\d", norm) and not has_mask(norm):  # a real number keeps its shape
            return self.key(text), lambda: self._redigit(norm)
        for pattern, kind in (
            (r"versicherungs(?:schein|nummer|-nr)|police|vers\.-nr", "policy"),
            (r"schaden", "claim"),
            (r"kunden", "customer"),
            (r"mitglied", "member"),
        ):
            if re.search(pattern, low):
                return self.key(text), lambda kind=kind: factory.reference_number(kind)
        return self.key(text), factory.reference_number

    def _date_fact(self, i: int):
        text, _, _ = self.context(i)
        return self._dates(i, text, "date-fact")

    def _date_world(self, i: int):
        text, _, _ = self.context(i)
        return self._dates(i, text, "date-world")

    def _dates(self, i: int, text: str, label: str, birth: bool = False):
        """Dates keep their format and visible parts: ``xx.xx.2016`` → a 2016 date written
        ``dd.mm.yyyy``, ``… 2023`` → ``März 2023``, ``3. März 2021, 14:30 Uhr`` → alike.
        Hidden dates of the facts follow each other in document order (a Tatbestand tells
        the story in order), and ``… bis …`` ends after it starts."""
        _, before, after = self.context(i)
        factory = self.factory
        norm = nfkc(text).strip()
        key = None if has_mask(norm) else norm
        prefix, core = _split_prefix(norm)
        sep, time = "", None
        timed = _TIME_AFTER_DATE.fullmatch(core)
        if timed:
            core, sep, time = timed.group("date"), timed.group("sep"), timed.group("t")
        if re.fullmatch(r"(?:\d{1,2}[:.]\d{2}|…|\.{2,}|[xX]{2}[:.][xX]{2})\s*Uhr", core):
            return key, lambda: prefix + factory.time()
        if ELLIPSIS_RUN.fullmatch(core) and re.match(r"\s*Uhr", after):
            return key, lambda: prefix + factory.time().removesuffix(" Uhr")
        if re.fullmatch(r"(?:19|20)\d{2}", core):
            return key, lambda: prefix + str(int(core) + factory.rng.choice((-2, -1, 1, 2)))

        style, visible = self.date_style, None
        numeric, words = _NUMERIC_DATE.fullmatch(core), _WORD_DATE.fullmatch(core)
        if numeric:
            padded = len(numeric.group("m")) == 2 or numeric.group("d").startswith("0")
            style = "padded" if padded else "short"
            visible = numeric.group("y")
        elif words and (words.group("m") in MONTHS or has_mask(words.group("m"))):
            on_a_day = re.search(r"\b(?:am|vom|zum|dem)\s*$", (before + " " + prefix).lower())
            style = (
                "long" if words.group("d") or (on_a_day and has_mask(words.group("m"))) else "month"
            )
            visible = words.group("y")
        elif has_mask(core) and re.search(
            r"\b(?:im|monats?|monate|ende|anfang|mitte)\s*$", before.lower()
        ):
            style = "month"
        year = int(visible) if visible and re.fullmatch(r"(?:19|20)\d{2}", visible) else None
        start_of_range = None
        if i > 0 and self.labels[i - 1] in ("date-fact", "date-world"):
            between = self.text[self.spans[i - 1].end : self.spans[i].start]
            if re.fullmatch(r"\s*(?:bis(?:\s+zum)?|-|–)\s*", between):
                start_of_range = i - 1

        def make() -> str:
            if start_of_range is not None and start_of_range in self.dates:
                first, first_style = self.dates[start_of_range]
                date = first + dt.timedelta(days=factory.rng.randint(1, 180))
                chosen = first_style if style == self.date_style else style
            elif birth:
                date, chosen = factory.date(year or self.year - factory.rng.randint(18, 80)), style
            else:
                date, chosen = self._next_date(label, year), style
            self.dates[i] = (date, chosen)
            value = format_date(date, chosen)
            if time is not None:
                value += sep + factory.time()
            return prefix + value

        return key, make

    def _next_date(self, label: str, year: int | None) -> dt.date:
        """The next date of the facts (or of the proceedings, which come after them)."""
        rng = self.factory.rng
        last = self.last_dates.get(label)
        if last is None and label == "date-world" and "date-fact" in self.last_dates:
            last = self.last_dates["date-fact"] + dt.timedelta(days=rng.randint(20, 200))
        if year is not None:
            if last is not None and last.year == year and last < dt.date(year, 12, 1):
                date = last + dt.timedelta(days=rng.randint(1, (dt.date(year, 12, 31) - last).days))
            else:
                date = self.factory.date(year)
        elif last is not None:
            date = last + dt.timedelta(days=rng.randint(1, 60 if label == "date-fact" else 120))
        else:
            date = self.factory.date(self.year - (label == "date-fact"))
        self.last_dates[label] = date
        return date


class Pseudonymizer:
    """Replace a document's spans with consistent, realistic surrogates.

    Works on placeholders of published decisions (``Herr A.``, ``X-Straße 1``,
    ``xx.xx.2016``, ``HRB …``) and on real gold spans alike, and returns a new document
    whose spans lie exactly on the surrogates (same labels; risk as given, else the
    label's usual risk). Each document's randomness comes from ``seed`` and its id, so
    the output does not depend on which other documents are processed or in what order.

    Documented choices:

    - A person hidden behind a one-letter initial (``Herr A.``) is introduced with first
      and last name at its first mention (the court shortened a full name), later
      mentions get the surname; so is a line-initial ``Xxxxx`` (a Rubrum party). Judges
      and lawyers (``nat-jur``), and ``unknown`` spans without a cue such as ``Herr``
      (they may be no person at all), keep a surname only.
    - A bare ``…`` or ``...`` could hide anything, so each gets a surrogate of its own;
      equal texts otherwise mean equal entities (``X-Straße 1`` twice → one street),
      except partly masked dates, which are usually different days.
    - When a placeholder's final period also ended the sentence (``… die Zeugin C.``
      at the end of a sentence), a period is put back after the surrogate.
    """

    def __init__(
        self, seed: int = 0, labels: LabelSet = DEFAULT_LABELS, unknown_label: str = "nat-name"
    ) -> None:
        if unknown_label not in labels:
            raise ValueError(f"unknown_label {unknown_label!r} is not in the label set")
        self.seed = seed
        self.labels = labels
        self.unknown_label = unknown_label

    def rng_for(self, doc_id: str) -> random.Random:
        """The document's own generator: string seeds hash with SHA-512, stable across runs."""
        return random.Random(f"{self.seed}\x00{doc_id}")

    def pseudonymize(
        self, doc: Document, replace: Callable[[Span], bool] | None = None
    ) -> Document:
        """A new document with each span (where ``replace(span)``, default all) replaced."""
        spans = sorted(doc.spans)
        check_no_overlap(spans, doc.id)
        labels = [self.unknown_label if s.label == "unknown" else s.label for s in spans]
        chosen = [replace is None or replace(s) for s in spans]
        state = _DocumentState(SurrogateFactory(self.rng_for(doc.id)), doc.text, spans, labels)
        state.guessed = {i for i, s in enumerate(spans) if s.label == "unknown"}
        state.read_names(i for i, label in enumerate(labels) if chosen[i] and label in _NAME_LABELS)
        text = doc.text
        pieces: list[str] = []
        out: list[Span] = []
        cursor = length = 0
        for i, span in enumerate(spans):
            gap = text[cursor : span.start]
            original = text[span.start : span.end]
            value = state.surrogate(i, labels[i]) if chosen[i] else original
            pieces += (gap, value)
            start = length + len(gap)
            length = start + len(value)
            risk = span.risk or self.labels[labels[i]].risk
            out.append(Span(start, length, labels[i], risk, span.score))
            cursor = span.end
            after = text[span.end : span.end + 30]
            if (
                chosen[i]
                and re.search(r"[^.]\.$", original)
                and not value.endswith(".")
                and not after.startswith(".")
                and ends_sentence(after)
            ):
                pieces.append(".")
                length += 1
        pieces.append(text[cursor:])
        return Document(doc.id, "".join(pieces), out, doc.domain, dict(doc.meta))


def pseudonymize_documents(docs: Iterable[Document], seed: int = 0, **kwargs) -> list[Document]:
    """Pseudonymize many documents with one :class:`Pseudonymizer` (``kwargs``: its
    ``labels``/``unknown_label``, and ``replace`` for :meth:`Pseudonymizer.pseudonymize`)."""
    replace = kwargs.pop("replace", None)
    pseudonymizer = Pseudonymizer(seed=seed, **kwargs)
    return [pseudonymizer.pseudonymize(doc, replace) for doc in docs]
