"""Single surrogate values: Faker-backed names and towns, German formats for everything else."""

from __future__ import annotations

import datetime as dt
import random
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from hf_anon.corpora.surrogates.organization_pool import OrganizationChoices
from hf_anon.corpora.surrogates.tables import (
    BRAND_WORDS,
    CAR_MODELS,
    COMPANY_WORDS,
    DATE_STYLES,
    DISTRICTS,
    FLOOR_WORDS,
    FLOORS,
    GENDERS,
    HEALTH_CONDITIONS,
    INSURER_REGIONS,
    INSURER_WORDS,
    LANDGERICHTE,
    LANDLINE_PREFIXES,
    LEGAL_FORM_WEIGHTS,
    MAIL_DOMAINS,
    MOBILE_PREFIXES,
    MONTHS,
    NATIONALITIES,
    OBERLANDESGERICHTE,
    ODD_TOWNS,
    PLATE_CODES,
    POSITIONS,
    PROFESSIONS,
    REGISTER_PREFIX,
    STREET_ENDINGS,
    STREET_ROOTS,
    STREETS,
    VIN_ALPHABET,
    VIN_PREFIXES,
)
from hf_anon.text.names import NAME_LOCALES, NAME_PARTICLES


@cache
def cached_faker(locale: str):
    """One Faker per locale and process: building one takes tens of milliseconds."""
    from faker import Faker

    return Faker(locale)


_CLEAN_NAME = re.compile(r"[^\W\d_]+(?:[ '-][^\W\d_]+)*")


def is_clean_name(name: str) -> bool:
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
        sorted(n for n in names if (" " in n or "-" in n) and is_clean_name(n) and n.count(" ") < 2)
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


def ascii_fold(text: str) -> str:
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
    ``organizations``: real organisation names to draw companies from instead of making
    them (:mod:`~hf_anon.corpora.surrogates.organization_pool`); none by default.
    """

    def __init__(
        self, rng: random.Random, organizations: OrganizationChoices | None = None
    ) -> None:
        self.rng = rng
        self.organizations = organizations or OrganizationChoices()

    # -- helpers
    def _fake(self, locale: str):
        fake = cached_faker(locale)
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
            if is_clean_name(name) and " " not in name and "-" not in name:
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
            if is_clean_name(name) and "-" not in name:
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
                re.match(r"Bad[a-zäöü]", town) or town in ODD_TOWNS
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
            return self.rng.choice(STREET_ROOTS) + self.rng.choice(STREET_ENDINGS)
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
        return self.pick(LEGAL_FORM_WEIGHTS)

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
        first, last = ascii_fold(person.first), ascii_fold(person.last)
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
        slug = ascii_fold((name or self.company_name()).replace(" & ", "-").replace(" ", "-"))
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
