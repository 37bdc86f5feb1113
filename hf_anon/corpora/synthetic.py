"""Synthetic German decisions with gold spans, for what the public corpus lacks.

Published decisions (LER) hide exactly what a model must learn to find: Rubrum parties
with addresses, lawyers, flats and floors, licence plates, IBANs, phone numbers. This
module writes Amtsgericht decisions in tenancy (``mietrecht``) and traffic
(``verkehrsrecht``) cases, or passages of them, with gold spans that follow
ANNOTATION.md: titles, roles, legal forms and ``Az.`` stay outside, a genitive ``s``
inside, date and attached time form one span. Text is built by appending pieces, and a
span is recorded when its piece is appended, so offsets are exact by construction.

Values come from :class:`hf_anon.corpora.surrogates.SurrogateFactory`. Risk is the label's
usual risk except for these rules, taken from the annotated dev decisions:

- ``date-fact`` is ``low`` for interest start dates, billing periods and payment
  deadlines (they say little about a person);
- ``address-name`` is ``medium`` for accident places (a street without house number, a
  town of passage) and ``low`` for towns of employers and workshops;
- ``jur-name`` is ``medium`` for businesses that only appear in the facts (a workshop,
  a bakery at the accident site), not as parties;
- ``nat-idx`` is ``low`` for household details (``zwei Kleinkindern``).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hf_anon.corpora.surrogates import (
    DATE_STYLES,
    LANDGERICHTE,
    MONTHS,
    PersonName,
    SurrogateFactory,
    format_date,
    genitive,
)
from hf_anon.data import Document, Span
from hf_anon.labels import DEFAULT_LABELS

DOMAINS = ("mietrecht", "verkehrsrecht")


@dataclass(frozen=True)
class Part:
    """A piece of text; with a label it becomes a gold span."""

    text: str
    label: str | None = None
    risk: str | None = None


Piece = str | Part | Sequence["Piece"] | Callable[[], "Piece"]


class Writer:
    """Appends text and records a span for every labelled :class:`Part` as it goes."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.spans: list[Span] = []
        self.length = 0

    def add(self, piece: Piece) -> None:
        while callable(piece):
            piece = piece()
        if isinstance(piece, str):
            self.chunks.append(piece)
            self.length += len(piece)
        elif isinstance(piece, Part):
            if piece.label is not None:
                risk = piece.risk or DEFAULT_LABELS[piece.label].risk
                end = self.length + len(piece.text)
                self.spans.append(Span(self.length, end, piece.label, risk))
            self.add(piece.text)
        else:
            for item in piece:
                self.add(item)

    def say(self, template: str, **fields: Piece) -> None:
        """Append ``template`` with its ``{field}``s filled in; a sentence that starts with
        a field gets a capital (``{K} beantragt`` → ``Der Kläger beantragt``)."""
        pos = 0
        for match in re.finditer(r"\{(\w+)\}", template):
            self.add(template[pos : match.start()])
            value = fields[match.group(1)]
            if match.start() == 0 or template[: match.start()].endswith((". ", "\n\n")):
                value = _capitalized(value)
            self.add(value)
            pos = match.end()
        self.add(template[pos:])

    def document(self, doc_id: str, domain: str) -> Document:
        text = "".join(self.chunks)
        trimmed = text.rstrip()
        return Document(doc_id, trimmed, list(self.spans), domain)


def _capitalized(value: Piece) -> Piece:
    while callable(value):
        value = value()
    if isinstance(value, str):
        return value[:1].upper() + value[1:]
    if isinstance(value, list | tuple) and value:
        return [_capitalized(value[0]), *value[1:]]
    return value


# ----------------------------------------------------------------------------- cast


@dataclass(eq=False)
class Person:
    """Someone who is named; the first mention gives the full name, later ones vary."""

    name: PersonName
    title: str = ""
    label: str = "nat-name"
    introduced: bool = False

    @property
    def gender(self) -> str:
        return self.name.gender


@dataclass(frozen=True)
class Address:
    street: str
    postcode_town: str

    @property
    def town(self) -> str:
        return self.postcode_town.split(" ", 1)[1]


@dataclass(eq=False)
class Company:
    name: str
    form: str
    register: str
    register_court: str
    address: Address
    representative: Person | None = None


@dataclass(eq=False)
class Party:
    """A side of the case: ``role`` is ``kläger`` or ``beklagte``; ``suffix`` `` zu 1)``."""

    role: str
    person: Person | None = None
    company: Company | None = None
    suffix: str = ""
    person_address: Address | None = None

    @property
    def gender(self) -> str:
        return self.person.gender if self.person else "f"

    @property
    def address(self) -> Address:
        if self.company:
            return self.company.address
        assert self.person_address is not None
        return self.person_address


_CASES = {"nom": 0, "gen": 1, "dat": 2, "acc": 3}
_ROLE_FORMS = {
    "kläger": {
        "m": ("der Kläger", "des Klägers", "dem Kläger", "den Kläger"),
        "f": ("die Klägerin", "der Klägerin", "der Klägerin", "die Klägerin"),
    },
    "beklagte": {
        "m": ("der Beklagte", "des Beklagten", "dem Beklagten", "den Beklagten"),
        "f": ("die Beklagte", "der Beklagten", "der Beklagten", "die Beklagte"),
    },
    "zeuge": {
        "m": ("der Zeuge", "des Zeugen", "dem Zeugen", "den Zeugen"),
        "f": ("die Zeugin", "der Zeugin", "der Zeugin", "die Zeugin"),
    },
}
_DEFECTS = (
    "Schimmelbildung im Schlafzimmer",
    "Feuchtigkeit an der Außenwand des Kinderzimmers",
    "einen wiederholten Ausfall der Heizung",
    "erheblichen Lärm aus der darüberliegenden Wohnung",
    "einen Wasserschaden in der Küche",
    "eine defekte Gegensprechanlage",
    "Zugluft durch undichte Fenster",
    "einen Rohrbruch im Badezimmer",
)
_MANOEUVRES = (
    "übersah beim Linksabbiegen das entgegenkommende Fahrzeug",
    "fuhr beim Anfahren an der Ampel auf das Fahrzeug",
    "wechselte ohne auf den nachfolgenden Verkehr zu achten den Fahrstreifen und streifte das "
    "Fahrzeug",
    "missachtete die Vorfahrt und stieß gegen das Fahrzeug",
    "setzte beim Ausparken zurück und beschädigte das Fahrzeug",
)
#: Sentences of legal reasoning without spans (statutes, abbreviations and annex
#: references look like placeholders but are none: seed 000, appendix A.1).
_REASONS = {
    "mietrecht": [
        "Das Amtsgericht ist gemäß § 23 Nr. 2 lit. a GVG, § 29a ZPO ausschließlich zuständig.",
        "Ein Mangel im Sinne des § 536 Abs. 1 BGB liegt vor, wenn der tatsächliche Zustand der "
        "Mietsache vom vertraglich geschuldeten Zustand abweicht.",
        "Die Minderung tritt kraft Gesetzes ein; einer Erklärung des Mieters bedarf es nicht.",
        "Die Kündigung ist wirksam, weil der Rückstand zwei Monatsmieten übersteigt "
        "(§ 543 Abs. 2 Satz 1 Nr. 3 BGB).",
        "Nach Ziff. 4 des Mietvertrags (Anl. K 1, Bl. 12 d.A.) sind die Betriebskosten "
        "nach Wohnfläche umzulegen.",
        "Die Abrechnungsfrist des § 556 Abs. 3 Satz 2 BGB ist gewahrt.",
        "Der Vermieter darf die Kaution nach Ende des Mietverhältnisses nur so lange "
        "zurückhalten, wie dies zur Prüfung seiner Ansprüche erforderlich ist.",
        "Gewöhnliche Wohngeräusche sind i.d.R. hinzunehmen.",
    ],
    "verkehrsrecht": [
        "Wer auffährt, hat den Anschein gegen sich, den Sicherheitsabstand nicht eingehalten "
        "zu haben.",
        "Die Betriebsgefahr des klägerischen Fahrzeugs tritt hinter dem Verschulden des "
        "Unfallgegners vollständig zurück.",
        "Die Höhe des Schadens schätzt das Gericht gemäß § 287 ZPO.",
        "Die Kostenpauschale ist mit 25,00 € angemessen.",
        "Der Nutzungsausfall ist als Vermögensschaden zu ersetzen.",
        "Ein Verstoß gegen § 9 Abs. 3 StVO ist nicht erwiesen.",
        "Die Abwägung nach § 17 Abs. 1 und 2 StVG führt zur vollen Haftung der Beklagtenseite.",
    ],
    "any": [
        "Der Anspruch ist auch nicht verjährt (§ 195 BGB).",
        "Weitere Ansprüche bestehen nicht; insoweit war die Klage abzuweisen.",
        "Auf die zwischen den Parteien streitige Frage kommt es danach nicht mehr an.",
        "Die Darlegungs- und Beweislast liegt insoweit bei der Klagepartei.",
        "Dem Beweisangebot war nicht nachzugehen, weil die Tatsache als wahr unterstellt "
        "werden kann (vgl. Zöller/Greger, ZPO, § 284 Rn. 4, a.a.O.).",
        "Der nicht nachgelassene Schriftsatz gibt keinen Anlass, die mündliche Verhandlung "
        "wiederzueröffnen (§ 156 ZPO).",
    ],
}
#: Personal circumstances (``nat-idx``): spans leave the article outside.
#: (article in the dative, condition) after ``leidet an``.
_HEALTH = (
    ("einer", "chronischen Bronchitis"),
    ("einem", "Tinnitus"),
    ("", "Migräne"),
    ("einer", "Hüftarthrose"),
    ("einer", "posttraumatischen Belastungsstörung"),
    ("", "Epilepsie"),
    ("", "Morbus Crohn"),
    ("einer", "schweren Depression"),
    ("einer", "Niereninsuffizienz"),
    ("einem", "Schleudertrauma der Halswirbelsäule"),
    ("einer", "Arthrose im linken Kniegelenk"),
    ("einer", "Angststörung"),
    ("", "Diabetes mellitus Typ 1"),
    ("einer", "Sehbehinderung"),
    ("einer", "Krebserkrankung"),
    ("einem", "Herzfehler"),
    ("einer", "Alkoholabhängigkeit"),
    ("", "chronischen Rückenschmerzen"),
    ("einer", "rheumatoiden Arthritis"),
    ("einer", "Lungenerkrankung"),
)
#: (article in the accusative, business) after ``betreibt nebenberuflich``.
_SIDELINES = (
    ("eine", "Hundepension"),
    ("einen", "Kiosk"),
    ("eine", "Schafzucht"),
    ("einen", "Online-Handel mit Autoteilen"),
    ("ein", "Nagelstudio"),
    ("einen", "Hofladen"),
    ("eine", "kleine Pferdezucht"),
    ("einen", "Hausmeisterservice"),
    ("eine", "Fahrradwerkstatt"),
    ("ein", "Tattoostudio"),
    ("eine", "Ferienwohnung"),
    ("einen", "Partyservice"),
)
_SUBJECTS = (
    "Informatik",
    "Rechtswissenschaften",
    "Zahnmedizin",
    "Betriebswirtschaftslehre",
    "Soziale Arbeit",
    "Maschinenbau",
    "Germanistik",
    "Physik",
)
#: (male, female) prefixes to a profession.
_CAREER = (
    ("gelernter", "gelernte"),
    ("ausgebildeter", "ausgebildete"),
    ("pensionierter", "pensionierte"),
    ("ehemaliger", "ehemalige"),
    ("angestellter", "angestellte"),
    ("selbständiger", "selbständige"),
    ("arbeitsloser", "arbeitslose"),
)
_FAMILY = (
    ("Vater von {n} Kindern", "Mutter von {n} Kindern"),
    ("verheiratet", "verheiratet"),
    ("verwitwet", "verwitwet"),
    ("alleinerziehender Vater", "alleinerziehende Mutter"),
    ("Vater eines schwerbehinderten Sohnes", "Mutter einer schwerbehinderten Tochter"),
    ("geschieden", "geschieden"),
)
_COUNT_WORDS = ("zwei", "drei", "vier", "fünf")
_HOUSEHOLD = (
    ("en", "zwei Kleinkindern"),
    ("en", "drei Kindern"),
    ("er", "pflegebedürftigen Mutter"),
    ("em", "schwerbehinderten Sohn"),
    ("er", "schwangeren Lebensgefährtin"),
)
_CITATIONS = (
    ("BGH", "Urteil", "VIII ZR"),
    ("BGH", "Beschluss", "VIII ZR"),
    ("BGH", "Urteil", "VI ZR"),
    ("BGH", "Urteil", "XII ZR"),
    ("OLG München", "Urteil", "10 U"),
    ("LG Berlin", "Urteil", "67 S"),
)


def _article(thing: str, case: str = "nom") -> str:
    """``das Kellerabteil``, ``der Stellplatz``, ``die Garage`` (``dem``/``der`` in the dative)."""
    word = thing.split()[0]
    gender = "f" if word == "Garage" else "n" if word.endswith("abteil") else "m"
    if case == "dat":
        return "der" if gender == "f" else "dem"
    return {"f": "die", "n": "das", "m": "der"}[gender]


def _money(rng: random.Random, low: float, high: float) -> str:
    """``1.234,56`` (German separators)."""
    value = f"{rng.uniform(low, high):,.2f}"
    return value.replace(",", "_").replace(".", ",").replace("_", ".")


class _Decision:
    """One synthetic decision: its cast, timeline, and the sections that write it."""

    def __init__(self, rng: random.Random, doc_id: str) -> None:
        self.rng = rng
        self.fake = SurrogateFactory(rng)
        self.doc_id = doc_id
        self.w = Writer()
        self.used_templates: set[str] = set()
        self.domain = rng.choice(DOMAINS)
        self.style = rng.choice(DATE_STYLES)
        self._court()
        self._timeline()
        if self.domain == "mietrecht":
            self._tenancy_cast()
        else:
            self._traffic_cast()
        self.judge = self.person(label="nat-jur", title=self.maybe("Dr.", 0.2))
        self.clerk = self.person(label="nat-jur")

    # -- small helpers
    def maybe(self, text: str, p: float = 0.5) -> str:
        return text if self.rng.random() < p else ""

    def pick(self, *options):
        return self.rng.choice(options)

    def template(self, *options: str) -> str:
        """A sentence template, preferring one this document has not used yet."""
        fresh = [o for o in options if o not in self.used_templates] or list(options)
        choice = self.rng.choice(fresh)
        self.used_templates.add(choice)
        return choice

    def person(
        self, gender: str | None = None, *, label: str = "nat-name", title: str = ""
    ) -> Person:
        return Person(self.fake.person(gender), title, label)

    def address(self, town: str | None = None) -> Address:
        return Address(self.fake.street(), self.fake.postcode_town(town))

    def company(self, kind: str, form: str | None = None, town: str | None = None) -> Company:
        form = form or self.fake.legal_form()
        if kind == "landlord" and form in {"e.V.", "PartG mbB", "e.K."}:
            form = "GmbH"
        name = self.fake.company_name(kind)
        if form == "eG" and kind == "landlord":
            name = self.fake.company_name("cooperative")
        rep = self.person() if form not in {"AG", "eG", "SE", "e.V."} else None
        register = self.fake.register_number(legal_form=form)
        seat = town or self.fake.court("Amtsgericht").split(" ", 1)[1]
        return Company(name, form, register, f"Amtsgerichts {seat}", self.address(town), rep)

    def date(self, day: dt.date, label: str = "date-fact", risk: str | None = None, **kw) -> Part:
        style = self.style if self.rng.random() < 0.85 else self.rng.choice(DATE_STYLES)
        text = format_date(day, kw.get("style", style))
        if kw.get("time"):
            text += ", " + self.fake.time()
        return Part(text, label, risk)

    def month(self, day: dt.date, risk: str | None = None) -> Part:
        """``Juli 2023``, sometimes a season (``Winter 2022/2023``)."""
        if self.rng.random() < 0.12:
            season = ("Winter", "Frühjahr", "Sommer", "Herbst")[(day.month % 12) // 3]
            year = str(day.year)
            if season == "Winter":
                first = day.year - 1 if day.month < 3 else day.year
                year = f"{first}/{first + 1}"
            return Part(f"{season} {year}", "date-fact", risk)
        return Part(f"{MONTHS[day.month - 1]} {day.year}", "date-fact", risk)

    def later(self, days: tuple[int, int] = (3, 40)) -> dt.date:
        """The next date of the story (facts come in order)."""
        self.cursor += dt.timedelta(days=self.rng.randint(*days))
        return self.cursor

    # -- naming people: mentions are deferred, so that a template that does not use one
    # -- does not count it as said (the first mention in the text gets the full name)
    def full(self, p: Person) -> Piece:
        def said() -> list[Piece]:
            p.introduced = True
            title = [p.title + " "] if p.title else []
            return [*title, Part(p.name.full, p.label)]

        return said

    def ref(self, p: Person) -> Piece:
        """First mention: full name; later mostly the surname."""

        def said() -> Piece:
            if not p.introduced or self.rng.random() < 0.15:
                return self.full(p)
            title = [p.title + " "] if p.title and self.rng.random() < 0.5 else []
            return [*title, Part(p.name.last, p.label)]

        return said

    def surname(self, p: Person) -> Part:
        return Part(p.name.last, p.label)

    def herr(self, p: Person, case: str = "nom") -> Piece:
        """``Herr Müller``, ``Herrn Dr. Müller``, ``Frau Müller``."""
        word = "Frau" if p.gender == "f" else ("Herr" if case == "nom" else "Herrn")
        return [word + " ", self.ref(p)]

    def role(self, role: str, gender: str, case: str = "nom", suffix: str = "") -> str:
        return _ROLE_FORMS[role][gender][_CASES[case]] + suffix

    def witness(self, p: Person, case: str = "nom") -> Piece:
        return [self.role("zeuge", p.gender, case) + " ", self.ref(p)]

    def party(self, party: Party, case: str = "nom") -> str:
        return self.role(party.role, party.gender, case, party.suffix)

    def poss(self, party: Party | Person, ending: str = "") -> str:
        return ("sein" if party.gender == "m" else "ihr") + ending

    def register(self, c: Company) -> Piece:
        """``im Handelsregister des Amtsgerichts München unter HRB 12345``."""
        book = {
            "VR": "Vereinsregister",
            "GnR": "Genossenschaftsregister",
            "PR": "Partnerschaftsregister",
        }
        kind = book.get(c.register.split()[0], "Handelsregister")
        return [
            f"im {kind} des ",
            Part(c.register_court, "court-name"),
            " unter ",
            Part(c.register, "jur-idx"),
        ]

    def clerk_rank(self) -> str:
        if self.clerk.gender == "f":
            return self.pick("Justizsekretärin", "JSekr'in", "JOSekr'in", "Justizbeschäftigte")
        return self.pick("Justizsekretär", "JSekr", "JOSekr", "Justizbeschäftigter", "JAng")

    def household(self, party: Party) -> Piece:
        """``seinen zwei Kleinkindern``: a family detail (``nat-idx``, low risk)."""
        ending, detail = self.rng.choice(_HOUSEHOLD)
        return [self.poss(party, ending) + " ", Part(detail, "nat-idx", "low")]

    def circumstances(self, ref: Piece, person: Person) -> None:
        """One sentence on a person's circumstances: age, career, health, family, study
        or side business (``nat-idx``), in the shapes decisions use."""
        f = person.gender == "f"
        job = self.fake.profession(person.gender)
        prefix = self.rng.choice(_CAREER)[f]
        health_article, health = self.rng.choice(_HEALTH)
        side_article, side = self.rng.choice(_SIDELINES)
        family = self.rng.choice(_FAMILY)[f].format(n=self.rng.choice(_COUNT_WORDS))
        age = self.rng.randint(19, 84)
        subject = self.rng.choice(_SUBJECTS)
        university = self.pick("Universität", "Hochschule", "Technischen Hochschule")
        study = self.pick(
            f"Student{'in' if f else ''} der {subject} an der {university} {self.fake.town()}",
            f"Doktorand{'in' if f else ''} am Institut für {subject}",
            f"Auszubildende{'' if f else 'r'} zu{'r' if f else 'm'} {job}",
        )
        self.w.say(
            self.template(
                "{T} ist {age} und {job}.",
                "{T}, {career}, ist seit {year} ohne Arbeit.",
                "{T} ist {career} und lebt von einer kleinen Rente.",
                "{T} arbeitet als {job} bei der {employer}.",
                "{T} ist seit {year} als {job} tätig.",
                "{T} leidet seit Jahren an {health_art}{health}.",
                "{T} ist nach eigenen Angaben wegen {health_art}{health} in Behandlung.",
                "{T} betreibt nebenberuflich {side_art} {side}.",
                "{T} ist {family}.",
                "{T} ist {study}.",
                "{T}, {job}, hat die Wohnung im Internet gefunden.",
                "{T} ({age_adj}) erschien in Begleitung.",
                "{T} besitzt die {nation_noun}.",
            ),
            T=ref,
            age=Part(f"{age} Jahre alt", "nat-idx"),
            age_adj=Part(f"{age} Jahre", "nat-idx"),
            job=Part(job, "nat-idx"),
            career=Part(f"{prefix} {job}", "nat-idx"),
            year=Part(str(self.event.year - self.rng.randint(1, 20)), "date-fact"),
            employer=Part(self.fake.company_name(), "jur-name"),
            health_art=health_article + " " if health_article else "",
            health=Part(health, "nat-idx"),
            side_art=side_article,
            side=Part(side, "nat-idx"),
            family=Part(family, "nat-idx"),
            study=Part(study, "nat-idx"),
            nation_noun=Part(
                self.fake.nationality("f").replace("Staatsangehörige", "Staatsangehörigkeit"),
                "nat-idx",
            ),
        )

    def company_name(self, c: Company, risk: str | None = None) -> list[Piece]:
        return [Part(c.name, "jur-name", risk), " " + c.form]

    def party_name(self, party: Party) -> Piece:
        if party.company:
            return self.company_name(party.company)
        assert party.person is not None
        return self.full(party.person)

    def party_ref(self, party: Party, case: str = "nom") -> Piece:
        """``der Kläger``, or (for a person) ``der Kläger Müller``/``Herr Müller``."""

        def said() -> Piece:
            if party.person is None or self.rng.random() < 0.7:
                return self.party(party, case)
            if self.rng.random() < 0.5:
                return [self.party(party, case) + " ", self.ref(party.person)]
            return self.herr(party.person, case)

        return said

    # -- cast and timeline
    def _court(self) -> None:
        seat = self.rng.choice(LANDGERICHTE)
        town = seat.removesuffix(" I").removesuffix(" II")
        town = town.replace("Nürnberg-Fürth", self.pick("Nürnberg", "Fürth"))
        self.court_town = town if self.rng.random() < 0.7 else self.fake.town()
        self.court = f"Amtsgericht {self.court_town}"
        self.appeal_court = f"Landgericht {seat}"

    def _timeline(self) -> None:
        year = self.rng.randint(2015, 2023)
        self.event = self.fake.date(year)
        self.contract = self.event - dt.timedelta(days=self.rng.randint(200, 3000))
        self.cursor = self.event
        self.filing = self.event + dt.timedelta(days=self.rng.randint(120, 330))
        self.service = self.filing + dt.timedelta(days=self.rng.randint(10, 45))
        self.hearing = self.service + dt.timedelta(days=self.rng.randint(40, 160))
        self.judgment = self.hearing + dt.timedelta(days=self.rng.choice((0, 14, 21, 28, 35)))
        self.docket = self.fake.docket_number("civil", self.filing.year)

    def _local(self) -> Address:
        return self.address(self.court_town if self.rng.random() < 0.6 else None)

    def _tenancy_cast(self) -> None:
        town = self.court_town if self.rng.random() < 0.6 else None
        flat = Address(self.fake.street(feminine=True), self.fake.postcode_town(town))
        tenant = Party("", self.person(title=self.maybe("Dr.", 0.06)), person_address=flat)
        if self.rng.random() < 0.55:
            landlord = Party("", company=self.company("landlord", town=self.court_town))
        else:
            landlord = Party(
                "", self.person(title=self.maybe("Dr.", 0.1)), person_address=self._local()
            )
        self.kind = self.pick("rent", "eviction", "deposit", "reduction", "costs")
        tenant_sues = self.kind in {"deposit", "reduction"}
        self.plaintiff, self.defendant = (tenant, landlord) if tenant_sues else (landlord, tenant)
        self.plaintiff.role, self.defendant.role = "kläger", "beklagte"
        self.tenant, self.landlord = tenant, landlord
        self.defendants = [self.defendant]
        self.flat = tenant.address
        self.floor = self.fake.floor()
        self.cellar = self.fake.cellar()
        self.manager = self.company("landlord", "GmbH") if self.rng.random() < 0.4 else None
        self.neighbours = (self.person("m"), self.person("f"))
        self.neighbours[1].name = PersonName(
            self.neighbours[1].name.first, self.neighbours[0].name.last, "f", "de_DE"
        )
        self.witnesses = [self.person() for _ in range(self.rng.randint(1, 2))]

    def _traffic_cast(self) -> None:
        self.kind = "accident"
        plaintiff = self.person(title=self.maybe("Dr.", 0.06))
        self.plaintiff = Party("kläger", plaintiff, person_address=self._local())
        driver = Party("beklagte", self.person(), suffix=" zu 1)", person_address=self._local())
        insurer = Party("beklagte", company=self.company("insurer", "AG"), suffix=" zu 2)")
        self.driver, self.insurer = driver, insurer
        self.defendants = [driver, insurer]
        self.defendant = driver
        self.cars = (self.fake.car(), self.fake.car())
        self.plates = (self.fake.licence_plate(), self.fake.licence_plate())
        self.place = (self.fake.street(False, feminine=True), self.fake.town())
        self.passenger = self.person("f" if self.plaintiff.gender == "m" else "m")
        self.witnesses = [self.passenger, self.person()]
        self.expert = self.person(title="Dipl.-Ing.")

    # -- document
    def build(self) -> Document:
        sections: list[Callable[[], None]] = [
            self.header,
            self.rubrum,
            self.tenor,
            self.facts,
            self.reasons,
            self.remedy,
            self.signature,
        ]
        if self.rng.random() < 0.35:  # a passage: a run of sections
            start = self.rng.randrange(len(sections))
            sections = sections[start : start + self.rng.randint(1, 3)]
        for n, section in enumerate(sections):
            if n:
                self.w.add("\n\n")
            section()
        return self.w.document(self.doc_id, self.domain)

    # -- sections
    def header(self) -> None:
        court, docket = Part(self.court, "court-name"), Part(self.docket, "court-docket")
        self.w.say(
            self.template(
                "{court}\n\nAz.: {docket}\n\n",
                "{court}\nAktenzeichen: {docket}\n\n",
                "Abschrift\n\n{court}\nGeschäftsnummer: {docket}\n\n",
                "Az. {docket}\n{court}\n\n",
                "{court}\n- Abteilung für Zivilsachen -\nAz.: {docket}\n\n",
            ),
            court=court,
            docket=docket,
        )
        if self.rng.random() < 0.3:
            self.w.say(
                "Verkündet am {date}\n{clerk}, {rank}\n"
                "als Urkundsbeamt{in} der Geschäftsstelle\n\n",
                date=self.date(self.judgment, "date-world"),
                clerk=self.surname(self.clerk),
                rank=self.clerk_rank(),
                **{"in": "in" if self.clerk.gender == "f" else "er"},
            )
        self.w.add(self.pick("IM NAMEN DES VOLKES", "Im Namen des Volkes", "IM NAMEN DES VOLKES"))

    def rubrum(self) -> None:
        self.w.add(self.pick("In dem Rechtsstreit\n\n", "In Sachen\n\n", "In dem Rechtsstreit\n"))
        self.party_block(self.plaintiff, 0)
        self.lawyer_block(self.pick("Prozessbevollmächtigte", "Prozessbevollmächtigter"))
        self.w.add("\n\ngegen\n\n")
        for n, party in enumerate(self.defendants, start=1):
            self.party_block(party, n if len(self.defendants) > 1 else 0)
        self.lawyer_block(
            "Prozessbevollmächtigte" + (" zu 1 und 2" if len(self.defendants) > 1 else "")
        )
        topic = {
            "rent": "Forderung",
            "eviction": "Räumung und Herausgabe",
            "deposit": "Rückzahlung der Mietkaution",
            "reduction": "Mietminderung",
            "costs": "Forderung aus Betriebskostenabrechnung",
            "accident": self.pick("Schadensersatz aus Verkehrsunfall", "Schadensersatzes"),
        }[self.kind]
        self.w.add(f"\n\nwegen {topic}\n\n")
        self.intro()

    def party_block(self, party: Party, number: int) -> None:
        if number:
            self.w.add(f"{number}. ")
        if party.company:
            c = party.company
            self.w.add(self.company_name(c))
            if self.rng.random() < 0.3:
                self.w.add([", eingetragen ", self.register(c)])
            rep = c.representative
            if rep is None:
                self.w.add(", vertreten durch den Vorstand")
            else:
                self.w.add(
                    [
                        ", vertreten durch "
                        + (
                            "die Geschäftsführerin "
                            if rep.gender == "f"
                            else "den Geschäftsführer "
                        ),
                        self.full(rep),
                    ]
                )
        else:
            assert party.person is not None
            self.w.add(self.full(party.person))
            if self.rng.random() < 0.15:
                born = self.fake.date(self.event.year - self.rng.randint(20, 75))
                self.w.add([", ", Part("geboren am " + format_date(born, "padded"), "nat-idx")])
        address = party.address
        self.w.add([", ", Part(address.street, "address-name"), ", "])
        self.w.add(Part(address.postcode_town, "address-name"))
        role = {"kläger": ("Kläger", "Klägerin"), "beklagte": ("Beklagter", "Beklagte")}
        word = role[party.role][party.gender == "f"]
        dash = self.pick("-", "–")
        self.w.add(f"\n{dash} {word}{party.suffix} {dash}\n")

    def lawyer_block(self, heading: str) -> None:
        lawyers = [self.person(label="nat-jur", title=self.maybe("Dr.", 0.3)) for _ in range(2)]
        first = lawyers[0]
        address = self.address(self.court_town if self.rng.random() < 0.7 else None)
        self.w.add(f"\n{heading}: ")
        shape = self.rng.random()
        if shape < 0.55:
            word = "Rechtsanwältin " if first.gender == "f" else "Rechtsanwalt "
            self.w.add(
                [word, self.full(first) if self.rng.random() < 0.6 else self.ref_title(first)]
            )
        else:
            second = self.surname(lawyers[1])
            tail = self.pick(" PartG mbB", " & Partner mbB", " Rechtsanwälte PartG mbB", "")
            self.w.add(["Rechtsanwälte ", self.surname(first), " & ", second, tail])
        self.w.add([", ", Part(address.street, "address-name"), ", "])
        self.w.add(Part(address.postcode_town, "address-name"))

    def ref_title(self, p: Person) -> list[Piece]:
        p.introduced = True
        return [p.title + " "] * bool(p.title) + [self.surname(p)]

    def intro(self) -> None:
        judge = self.judge
        role = "die Richterin" if judge.gender == "f" else "den Richter"
        fields = {
            "court": Part(self.court, "court-name"),
            "judge": [f"{role} am Amtsgericht ", self.ref_title(judge)],
            "hearing": self.date(self.hearing, "date-world"),
            "judgment": self.date(self.judgment, "date-world"),
        }
        self.w.say(
            self.template(
                "erlässt das {court} durch {judge} auf Grund der mündlichen Verhandlung vom "
                "{hearing} am {judgment} folgendes\n\nEndurteil",
                "hat das {court} durch {judge} auf die mündliche Verhandlung vom {hearing} "
                "für Recht erkannt:",
                "erkennt das {court} durch {judge} im schriftlichen Verfahren gemäß § 495a ZPO "
                "am {judgment} für Recht:",
                "hat das {court} durch {judge} aufgrund der mündlichen Verhandlung vom {hearing} "
                "am {judgment}\n\nfür Recht erkannt:",
            ),
            **fields,
        )

    def tenor(self) -> None:
        items: list[Callable[[], None]] = []
        winner = self.party(self.plaintiff)
        loser = "die Beklagten" if len(self.defendants) > 1 else self.party(self.defendant)
        if self.kind == "eviction":
            items.append(self.tenor_eviction)
        items.append(self.tenor_payment)
        if self.rng.random() < 0.4:
            items.append(lambda: self.w.add("Im Übrigen wird die Klage abgewiesen."))
        plural = loser.endswith("ten")
        costs = self.pick(
            f"{loser} {'tragen' if plural else 'trägt'} die Kosten des Rechtsstreits.",
            f"Die Kosten des Rechtsstreits {'haben' if plural else 'hat'} {loser} zu tragen.",
            f"Von den Kosten des Rechtsstreits haben {winner} 1/4 und {loser} 3/4 zu tragen.",
            "Die Kosten des Rechtsstreits werden gegeneinander aufgehoben.",
        )
        items.append(lambda: self.w.add(costs[:1].upper() + costs[1:]))
        items.append(
            lambda: self.w.add(
                self.pick(
                    "Das Urteil ist vorläufig vollstreckbar.",
                    "Das Urteil ist gegen Sicherheitsleistung in Höhe von 110 % des jeweils zu "
                    "vollstreckenden Betrages vorläufig vollstreckbar.",
                    "Das Urteil ist vorläufig vollstreckbar. Der Beklagtenseite wird nachgelassen, "
                    "die Vollstreckung durch Sicherheitsleistung in Höhe von 110 % abzuwenden.",
                )
            )
        )
        if self.rng.random() < 0.5:
            items.append(
                lambda: self.w.add(
                    f"Der Streitwert wird auf {_money(self.rng, 400, 9000)} € festgesetzt."
                )
            )
        for n, item in enumerate(items, start=1):
            self.w.add(f"{'' if n == 1 else chr(10)}{n}. ")
            item()

    def tenor_payment(self) -> None:
        loser = self.defendant if len(self.defendants) == 1 else None
        subject = (
            f"{self.party(loser)} wird" if loser else "Die Beklagten werden als Gesamtschuldner"
        )
        since: Piece = "Rechtshängigkeit"
        roll = self.rng.random()
        if roll < 0.3:
            since = self.date(self.service, "date-world")
        elif roll < 0.6:
            since = self.date(self.filing - dt.timedelta(days=self.rng.randint(5, 40)), risk="low")
        self.w.say(
            "{subject} verurteilt, an {winner} {amount} € nebst Zinsen {hieraus}in Höhe von "
            "{pp} Prozentpunkten über dem Basiszinssatz seit {since} zu zahlen.",
            subject=subject[:1].upper() + subject[1:],
            winner=self.party(self.plaintiff, "acc"),
            amount=_money(self.rng, 150, 12000),
            hieraus=self.maybe("hieraus ", 0.4),
            pp=self.pick("5", "5", "9"),
            since=since,
        )

    def tenor_eviction(self) -> None:
        cellar = self.cellar
        rooms = self.pick("zwei", "drei", "vier", "zweieinhalb")
        self.w.say(
            "{Der} wird verurteilt, die Wohnung im {floor} des Anwesens {street}, {town}, "
            "bestehend aus {rooms} Zimmern, Küche, Bad und Flur{cellar}, zu räumen und an "
            "{K} herauszugeben.",
            Der=self.party(self.defendant),
            floor=Part(self.floor, "address-idx"),
            street=Part(self.flat.street, "address-name"),
            town=Part(self.flat.postcode_town, "address-name"),
            rooms=rooms,
            cellar=[" sowie " + _article(cellar, "dat") + " ", Part(cellar, "address-idx")]
            if self.rng.random() < 0.5
            else "",
            K=self.party(self.plaintiff, "acc"),
        )

    # -- Tatbestand
    def facts(self) -> None:
        self.w.add("Tatbestand\n\n" if self.rng.random() < 0.9 else "Gründe\n\nI.\n\n")
        if self.domain == "mietrecht":
            self.tenancy_facts()
        else:
            self.traffic_facts()
        self.w.add("\n\n")
        self.requests()
        self.evidence()

    def sentences(
        self, *writers: Callable[[], None], optional: float = 0.7, shuffle: bool = False
    ) -> None:
        """Write some of ``writers`` (the first always, the others in order or shuffled)."""
        rest = [f for f in writers[1:] if self.rng.random() < optional]
        if shuffle:
            self.rng.shuffle(rest)
        chosen = [writers[0], *rest]
        for n, writer in enumerate(chosen):
            if n:
                self.w.add("\n\n" if self.rng.random() < 0.35 else " ")
            writer()

    def tenancy_facts(self) -> None:
        tenant, landlord = self.tenant, self.landlord
        t_role = "kläger" if tenant is self.plaintiff else "beklagte"
        t_word = self.role(t_role, tenant.gender)
        l_word = self.party(landlord)

        def contract() -> None:
            rooms = self.pick(
                "Zweizimmerwohnung", "Dreizimmerwohnung", "Wohnung", "Vierzimmerwohnung"
            )
            self.w.say(
                self.template(
                    "Mit Mietvertrag vom {date} mietete {T} von {L} eine {rooms} im {floor} des "
                    "Anwesens {street} in {town}.",
                    "{T} ist seit dem {date} Mieter{in} einer {rooms} im {floor} des Anwesens "
                    "{street}, {pc}.",
                    "Grundlage ist ein Mietvertrag vom {date} über die im {floor} "
                    "gelegene {rooms} in der {fstreet}, {pc}.",
                    "Aufgrund Mietvertrags vom {date} bewohnt {T} die {rooms} im {floor} des "
                    "Hauses {street} in {town}; Vermieter{lin} ist {L_nom}.",
                ),
                T=self.party_ref(tenant),
                L=["der ", self.party_name(landlord)]
                if landlord.company
                else self.party(landlord, "dat"),
                L_nom=["die ", self.party_name(landlord)]
                if landlord.company
                else self.party(landlord),
                date=self.date(self.contract),
                rooms=rooms,
                floor=Part(self.floor, "address-idx"),
                street=Part(self.flat.street, "address-name"),
                fstreet=Part(self.flat.street, "address-name"),
                town=Part(self.flat.town, "address-name"),
                pc=Part(self.flat.postcode_town, "address-name"),
                **{
                    "in": "in" if tenant.gender == "f" else "",
                    "lin": "in" if landlord.gender == "f" else "",
                },
            )

        def extras() -> None:
            things = [Part(self.cellar, "address-idx")]
            if self.rng.random() < 0.5:
                things.append(Part(self.fake.parking_space(), "address-idx"))
            joined: list[Piece] = [_article(things[0].text) + " ", things[0]]
            if len(things) > 1:
                joined += [" und " + _article(things[1].text) + " ", things[1]]
            verb = "gehören" if len(things) > 1 else "gehört"
            self.w.say(
                self.template(
                    "Zur Wohnung {verb} {things}.",
                    "Mitvermietet " + ("sind" if len(things) > 1 else "ist") + " {things}.",
                    "Zur Mietsache {verb} außerdem {things}.",
                ),
                things=joined,
                verb=verb,
            )

        def parcel() -> None:
            self.w.say(
                self.template(
                    "Das Anwesen ({parcel}) steht im Eigentum {L}.",
                    "Das Grundstück ist im Grundbuch von {town} als {parcel} verzeichnet.",
                ),
                parcel=Part(self.fake.parcel_number(), "address-idx"),
                L=self.party(landlord, "gen")
                if landlord.company is None
                else ["der ", self.company_name(landlord.company)],
                town=Part(self.flat.town, "address-name", "medium"),
            )

        def registered() -> None:
            assert landlord.company is not None
            self.w.say(
                self.template(
                    "{L} ist {reg} eingetragen.",
                    "Vermieterin ist die {name}, eingetragen {reg}.",
                ),
                L=self.party(landlord),
                name=self.company_name(landlord.company),
                reg=self.register(landlord.company),
            )

        def rent() -> None:
            self.w.say(
                self.template(
                    "Die monatliche Nettokaltmiete beträgt {rent} €, hinzu kommt eine "
                    "Betriebskostenvorauszahlung von {costs} €.",
                    "Vereinbart ist eine Bruttomiete von {rent} € monatlich.",
                    "{T} zahlt monatlich {rent} € zuzüglich {costs} € Vorauszahlungen.",
                ),
                rent=_money(self.rng, 380, 1900),
                costs=_money(self.rng, 60, 320),
                T=t_word,
            )

        def number() -> None:
            self.w.say(
                self.template(
                    "Der Mietvertrag wird unter der Vertragsnummer {no} geführt.",
                    "In der Korrespondenz verwendet {L} die Mieternummer {no}.",
                ),
                no=Part(self.fake.reference_number(self.pick("contract", "customer")), "id-number"),
                L=l_word,
            )

        def account() -> None:
            self.w.say(
                self.template(
                    "Die Miete ist auf das Konto mit der IBAN {iban} zu überweisen.",
                    "{T} leistete die Zahlungen auf das Konto {of} (IBAN {iban}).",
                    "Als Bankverbindung nennt der Vertrag die IBAN {iban}.",
                ),
                iban=Part(self.fake.iban(), "id-number"),
                T=t_word,
                of=self.party(landlord, "gen"),
            )

        def manager() -> None:
            assert self.manager is not None
            clerk = self.person()
            self.w.say(
                self.template(
                    "Die Verwaltung des Anwesens obliegt der {hv}.",
                    "Hausverwalterin ist die {hv}; zuständige Sachbearbeiter{in} ist {clerk}.",
                    "{L} hat die {hv} mit der Verwaltung beauftragt, die unter {phone} "
                    "erreichbar ist.",
                ),
                hv=self.company_name(self.manager),
                clerk=self.herr(clerk),
                phone=Part(self.fake.phone("landline"), "id-number"),
                L=l_word,
                **{"in": "in" if clerk.gender == "f" else ""},
            )

        def occupant() -> None:
            person = tenant.person
            assert person is not None
            self.w.say(
                self.template(
                    "{T} ist {job} und arbeitet im Schichtdienst.",
                    "{T}, {nation}, lebt dort mit {poss} Familie.",
                    "{T} bewohnt die Wohnung gemeinsam mit {kids}.",
                ),
                T=self.party_ref(tenant),
                job=Part(self.fake.profession(person.gender), "nat-idx"),
                nation=Part(self.fake.nationality(person.gender), "nat-idx"),
                poss=self.poss(tenant, "er"),
                kids=self.household(tenant),
            )

        def defect() -> None:
            start = self.later((0, 20))
            self.w.say(
                self.template(
                    "Seit dem {date} rügt {T} {defect}.",
                    "Ab {month} trat in der Wohnung {defect_nom} auf.",
                    "Am {date} zeigte {T} {L} {defect} an.",
                    "Im {month} bemerkte {T} {defect}.",
                ),
                date=self.date(start),
                month=self.month(start),
                T=self.party_ref(tenant),
                L=self.party(landlord, "dat"),
                defect=self.rng.choice(_DEFECTS),
                defect_nom=self.pick("Schimmel", "Feuchtigkeit", "ein Wasserschaden"),
            )

        def letter() -> None:
            self.w.say(
                self.template(
                    "Mit Schreiben vom {date} forderte {T} {L} zur Beseitigung bis zum {deadline} "
                    "auf.",
                    "Mit E-Mail vom {date} an {mail} kündigte {T} eine Minderung der Miete an.",
                    "Am {date} teilte {L_nom} telefonisch unter der Nummer {phone} mit, ein "
                    "Handwerker werde kommen.",
                    "Eine Antwort auf das Schreiben vom {date} erhielt {T} nicht.",
                ),
                date=self.date(self.later()),
                deadline=self.date(self.cursor + dt.timedelta(days=14), risk="low"),
                mail=Part(self.fake.email(), "id-number"),
                phone=Part(self.fake.phone(), "id-number"),
                T=self.party_ref(tenant),
                L=self.party(landlord, "acc"),
                L_nom=self.party(landlord),
            )

        def reminder() -> None:
            self.w.say(
                self.template(
                    "Mit Schreiben vom {date} mahnte {L} die Rückstände an und setzte eine Frist "
                    "bis zum {deadline}.",
                    "{L} erinnerte {T_acc} am {date} per E-Mail an {mail} an die offenen Beträge.",
                    "Eine Zahlung erfolgte auch nach der Mahnung vom {date} nicht.",
                    "Am {date} wies der Hausmeister {H} {T_acc} telefonisch unter {phone} auf "
                    "den Rückstand hin.",
                ),
                date=self.date(self.later()),
                deadline=self.date(self.cursor + dt.timedelta(days=14), risk="low"),
                mail=Part(
                    self.fake.email(tenant.person.name if tenant.person else None), "id-number"
                ),
                phone=Part(self.fake.phone(), "id-number"),
                L=l_word,
                T_acc=self.role(t_role, tenant.gender, "acc"),
                H=self.full(self.person()),
            )

        def handover() -> None:
            end = self.later((0, 10))
            self.w.say(
                self.template(
                    "Das Mietverhältnis endete zum {end}; die Wohnung wurde am {date} übergeben.",
                    "Nach Kündigung durch {T} gab {pron} die Wohnung am {date} zurück.",
                ),
                end=self.date(end),
                date=self.date(self.later((1, 5))),
                T=self.role(t_role, tenant.gender, "acc"),
                pron="er" if tenant.gender == "m" else "sie",
            )

        def deposit() -> None:
            self.w.say(
                self.template(
                    "Bei Mietbeginn hatte {T} eine Kaution von {amount} € geleistet.",
                    "Mit Schreiben vom {date} forderte {T} die Rückzahlung der Kaution auf das "
                    "Konto mit der IBAN {iban}.",
                    "{L} rechnete am {date} mit angeblichen Schäden an der Küche auf.",
                ),
                T=self.party_ref(tenant),
                L=l_word,
                amount=_money(self.rng, 900, 4500),
                date=self.date(self.later()),
                iban=Part(self.fake.iban(), "id-number"),
            )

        def neighbours() -> None:
            husband, wife = self.neighbours
            self.w.say(
                self.template(
                    "In der Wohnung darüber wohnen seit {date} die Eheleute {h} und {w}.",
                    "Die Nachbarin {wfull}, die im {floor} wohnt, bestätigte die Geräusche.",
                    "Der Nachbar {hfull} hörte nach eigenen Angaben am {noise} gegen {time} laute "
                    "Musik.",
                ),
                date=self.date(self.contract + dt.timedelta(days=self.rng.randint(30, 900))),
                noise=lambda: self.date(self.later((1, 20))),
                time=Part(self.fake.time(), "date-fact"),
                h=Part(husband.name.first, "nat-name"),
                w=self.full(wife),
                wfull=self.full(wife),
                hfull=self.full(husband),
                floor=Part(self.fake.floor(), "address-idx"),
            )

        def termination() -> None:
            first = self.later()
            last = first + dt.timedelta(days=self.rng.randint(31, 150))
            self.w.say(
                self.template(
                    "Die Mieten für die Monate {m1} bis {m2} zahlte {T} nicht.",
                    "Mit Schreiben vom {date} kündigte {L} das Mietverhältnis fristlos wegen "
                    "Zahlungsverzugs.",
                    "Von {m1} bis {m2} minderte {T} die Miete um {pct} %.",
                ),
                m1=self.month(first),
                m2=self.month(last),
                date=self.date(last + dt.timedelta(days=self.rng.randint(3, 30))),
                T=t_word,
                L=l_word,
                pct=self.pick("10", "15", "20", "25", "30"),
            )

        def billing() -> None:
            year = self.event.year - 1
            self.w.say(
                self.template(
                    "Mit der Betriebskostenabrechnung vom {date} für den Zeitraum {a} bis {b} "
                    "forderte {L} eine Nachzahlung von {amount} €.",
                    "Die Abrechnung über die Betriebskosten für das Jahr {year} ging {T_dat} am "
                    "{date} zu.",
                ),
                date=self.date(self.later()),
                a=self.date(dt.date(year, 1, 1), risk="low", style="padded"),
                b=self.date(dt.date(year, 12, 31), risk="low", style="padded"),
                year=Part(str(year), "date-fact", "low"),
                L=l_word,
                T_dat=self.role(t_role, tenant.gender, "dat"),
                amount=_money(self.rng, 80, 1400),
            )

        self.w.add(
            self.pick(
                "Die Parteien streiten über Ansprüche aus einem Wohnraummietverhältnis.",
                f"{self.party(self.plaintiff)[:1].upper()}{self.party(self.plaintiff)[1:]} "
                f"verlangt von {self.party(self.defendant, 'dat')} Zahlung.",
                "Die Parteien sind durch einen Mietvertrag über Wohnraum verbunden.",
            )
            + " "
        )
        story = {
            "rent": (termination, reminder),
            "eviction": (termination, reminder, reminder),
            "deposit": (handover, deposit, deposit),
            "reduction": (defect, letter, neighbours, letter),
            "costs": (billing, reminder),
        }[self.kind]

        def circumstances() -> None:
            party = self.rng.choice([p for p in (tenant, landlord) if p.person is not None])
            assert party.person is not None
            self.circumstances(self.party_ref(party), party.person)

        optional = [extras, rent, parcel, number, account, occupant]
        if tenant.person is not None or landlord.person is not None:
            optional += [circumstances, circumstances]
        if self.manager is not None:
            optional.insert(5, manager)
        if landlord.company is not None:
            optional.insert(0, registered)
        self.sentences(contract, *optional, optional=0.45, shuffle=True)
        self.w.add("\n\n")
        self.sentences(*story, optional=0.8)

    def traffic_facts(self) -> None:
        k, driver, insurer = self.plaintiff, self.driver, self.insurer
        assert k.person is not None and driver.person is not None
        street, town = self.place

        def accident() -> None:
            day = self.event
            self.w.say(
                self.template(
                    "Am {when} befuhr {K} mit {poss} {car}, amtliches Kennzeichen {plate}, die "
                    "{street} in {town} in Richtung {town2}.",
                    "Am {day} gegen {time} kam es in {town} auf der {street} zu einem "
                    "Zusammenstoß zwischen dem {car} {K_gen} (amtliches Kennzeichen {plate}) und "
                    "dem {car2} {B_gen}.",
                    "Der streitgegenständliche Unfall ereignete sich am {when} in {town} an der "
                    "Einmündung der {street} in die {street2}.",
                ),
                when=self.date(day, time=True),
                day=self.date(day),
                time=Part(self.fake.time(), "date-fact"),
                K=self.party_ref(k),
                K_gen=self.party(k, "gen"),
                B_gen=self.party(driver, "gen"),
                poss=self.poss(k, "em"),
                car=Part(self.cars[0], "car-name"),
                car2=Part(self.cars[1], "car-name"),
                plate=Part(self.plates[0], "car-idx"),
                street=Part(street, "address-name", "medium"),
                street2=Part(self.fake.street(False, feminine=True), "address-name", "medium"),
                town=Part(town, "address-name", "medium"),
                town2=Part(self.fake.town(), "address-name", "medium"),
            )

        def other_car() -> None:
            self.w.say(
                self.template(
                    "{B1} fuhr mit dem bei {B2} haftpflichtversicherten {car2}, amtliches "
                    "Kennzeichen {plate2}.",
                    "Halter und Fahrer des {car2} mit dem Kennzeichen {plate2} war {B1}; das "
                    "Fahrzeug ist bei {B2} haftpflichtversichert.",
                    "{B1} {manoeuvre} {K_gen}.",
                ),
                B1=self.party_ref(driver),
                B2=self.party(insurer, "dat"),
                K_gen=self.party(k, "gen"),
                car2=Part(self.cars[1], "car-name"),
                plate2=Part(self.plates[1], "car-idx"),
                manoeuvre=self.rng.choice(_MANOEUVRES),
            )

        def vin() -> None:
            self.w.say(
                self.template(
                    "Das Fahrzeug {K_gen} (Fahrzeug-Identifizierungsnummer {vin}) war zum "
                    "Unfallzeitpunkt {age} Jahre alt.",
                    "Laut Zulassungsbescheinigung trägt der {car} die FIN {vin}.",
                ),
                K_gen=self.party(k, "gen"),
                vin=Part(self.fake.vin(), "car-idx"),
                age=self.pick("zwei", "drei", "fünf", "sieben", "neun"),
                car=Part(self.cars[0], "car-name"),
            )

        def passenger() -> None:
            self.w.say(
                self.template(
                    "Neben {pron} saß {spouse}, {W}.",
                    "Im Fahrzeug befand sich außerdem {W}.",
                ),
                pron="ihm" if k.gender == "m" else "ihr",
                spouse=("seine Ehefrau" if k.gender == "m" else "ihr Ehemann")
                if self.passenger.gender != k.gender
                else "ein Arbeitskollege",
                W=self.witness(self.passenger),
            )

        def police() -> None:
            self.w.say(
                self.template(
                    "Die Polizei nahm den Unfall unter der Vorgangsnummer {ref} auf.",
                    "Die hinzugerufenen Polizeibeamten fertigten eine Unfallmitteilung "
                    "(Tagebuchnummer {ref}).",
                    "Gegen {B1} wurde ein Bußgeldverfahren eingeleitet (Az. {ref}).",
                ),
                ref=Part(
                    self.fake.file_reference(self.pick("police", "authority")), "court-docket"
                ),
                B1=self.party(driver, "acc"),
            )

        def expert() -> None:
            self.w.say(
                self.template(
                    "{Der} Sachverständige {E} ermittelte in {poss} Gutachten vom {date} "
                    "Reparaturkosten von {amount} € netto.",
                    "Nach dem Gutachten {des} Sachverständigen {E} vom {date} beträgt der "
                    "Wiederbeschaffungswert {amount} €.",
                ),
                Der="die" if self.expert.gender == "f" else "der",
                des="der" if self.expert.gender == "f" else "des",
                poss=self.poss(self.expert, "em"),
                E=self.full(self.expert),
                date=self.date(self.later((2, 15))),
                amount=_money(self.rng, 900, 14000),
            )

        def workshop() -> None:
            shop = self.company("car_dealer", self.pick("GmbH", "GmbH & Co. KG", "e.K."))
            self.w.say(
                self.template(
                    "Die Reparatur erfolgte in der Werkstatt des {shop} in {town}.",
                    "Nach dem Kostenvoranschlag des {shop} vom {date} betragen die "
                    "Reparaturkosten {amount} € netto.",
                ),
                shop=self.company_name(shop, "medium"),
                town=Part(shop.address.town, "address-name", "low"),
                date=self.date(self.later((2, 20))),
                amount=_money(self.rng, 900, 9000),
            )

        def claim() -> None:
            self.w.say(
                self.template(
                    "{B2} zahlte am {date} unter der Schadennummer {claim} einen Betrag von "
                    "{amount} €.",
                    "Mit Schreiben vom {date} (Schaden-Nr. {claim}) lehnte {B2} weitere "
                    "Zahlungen ab.",
                    "{B2} regulierte den Schaden unter der Schadennummer {claim} nur zur Hälfte.",
                ),
                B2=self.party(insurer),
                date=self.date(self.later((10, 60))),
                claim=Part(self.fake.reference_number("claim"), "id-number"),
                amount=_money(self.rng, 300, 6000),
            )

        def contact() -> None:
            self.w.say(
                self.template(
                    "An der Unfallstelle gab {B1} {poss} Mobilnummer {phone} an.",
                    "{K} übersandte die Rechnung per E-Mail an {mail}.",
                    "{K} forderte Zahlung auf {possK} Konto mit der IBAN {iban}.",
                    "Die Sachbearbeiterin {B2_gen}, {clerk}, war unter {phone} erreichbar.",
                ),
                B1=self.party_ref(driver),
                poss=self.poss(driver, "e"),
                possK=self.poss(k),
                phone=Part(self.fake.phone(self.pick("mobile", None)), "id-number"),
                mail=Part(self.fake.email(), "id-number"),
                iban=Part(self.fake.iban(), "id-number"),
                K=self.party_ref(k),
                B2_gen=self.party(insurer, "gen"),
                clerk=self.herr(self.person("f")),
            )

        def about() -> None:
            person = driver.person
            assert person is not None
            self.w.say(
                self.template(
                    "{B1} ist {job} und war auf dem Weg zur Arbeit.",
                    "{B1}, {nation}, besitzt seit {year} eine Fahrerlaubnis.",
                ),
                B1=self.party_ref(driver),
                job=Part(self.fake.profession(person.gender), "nat-idx"),
                nation=Part(self.fake.nationality(person.gender), "nat-idx"),
                year=Part(str(self.event.year - self.rng.randint(1, 30)), "date-fact"),
            )

        self.w.add(
            self.pick(
                "Die Parteien streiten um Schadensersatz aus einem Verkehrsunfall.",
                "Die Parteien streiten um die Haftungsquote nach einem Verkehrsunfall.",
                f"{self.party(k)[:1].upper()}{self.party(k)[1:]} macht Ansprüche aus einem "
                "Verkehrsunfall geltend.",
            )
            + "\n\n"
        )

        def circumstances() -> None:
            person = self.rng.choice([k.person, driver.person])
            assert person is not None
            ref = self.party_ref(k if person is k.person else driver)
            self.circumstances(ref, person)

        self.sentences(
            accident, other_car, vin, passenger, police, about, circumstances, optional=0.6
        )
        self.w.add("\n\n")
        self.sentences(expert, workshop, claim, contact, optional=0.6, shuffle=True)

    def requests(self) -> None:
        k = self.plaintiff
        self.w.say(
            "{K} {verb},\n{obj} zu verurteilen, an {K_acc} {amount} € nebst Zinsen in Höhe von "
            "5 Prozentpunkten über dem Basiszinssatz seit Rechtshängigkeit zu zahlen.\n\n",
            K=self.party(k),
            verb="beantragt",
            obj="die Beklagten als Gesamtschuldner"
            if len(self.defendants) > 1
            else self.party(self.defendant, "acc"),
            K_acc=self.pick("ihn" if k.gender == "m" else "sie", self.party(k, "acc")),
            amount=_money(self.rng, 200, 12000),
        )
        self.w.say(
            "{B} {verb},\ndie Klage abzuweisen.",
            B="die Beklagten" if len(self.defendants) > 1 else self.party(self.defendant),
            verb="beantragen" if len(self.defendants) > 1 else "beantragt",
        )

    def evidence(self) -> None:
        witnesses = self.witnesses
        pieces: list[Piece] = []
        for n, p in enumerate(witnesses):
            if n:
                pieces.append(" und ")
            pieces.append(self.witness(p, "gen"))
        self.w.add("\n\n")
        self.w.say(
            self.template(
                "Das Gericht hat Beweis erhoben durch Vernehmung {ws}.",
                "Das Gericht hat {ws_acc} uneidlich vernommen.",
                "Es wurde Beweis erhoben durch Vernehmung {ws}. Wegen des Ergebnisses wird auf das "
                "Protokoll vom {hearing} verwiesen.",
            ),
            ws=pieces,
            ws_acc=self.witness(witnesses[0], "acc"),
            hearing=self.date(self.hearing, "date-world"),
        )
        self.w.say(
            self.template(
                " Die Klage ist {B} am {service} zugestellt worden.",
                " Die Klageschrift ging am {filing} bei Gericht ein und wurde {B} am {service} "
                "zugestellt.",
                "\n\nDie Klage wurde am {service} zugestellt.",
            ),
            B="den Beklagten" if len(self.defendants) > 1 else self.party(self.defendant, "dat"),
            service=self.date(self.service, "date-world"),
            filing=self.date(self.filing, "date-world"),
        )

    # -- Entscheidungsgründe
    def reasons(self) -> None:
        self.w.add(self.pick("Entscheidungsgründe\n\n", "Entscheidungsgründe:\n\n", "II.\n\n"))
        self.w.add(
            self.pick(
                "Die zulässige Klage ist begründet.",
                "Die zulässige Klage ist teilweise begründet.",
                "Die Klage ist zulässig und überwiegend begründet.",
            )
        )
        self.w.add("\n\n")
        basis = (
            "§ 535 Abs. 2 BGB"
            if self.domain == "mietrecht"
            else "§§ 7 Abs. 1, 18 Abs. 1 StVG, § 115 Abs. 1 Satz 1 Nr. 1 VVG"
        )
        self.w.add(
            f"I. {self.party(self.plaintiff)[:1].upper()}{self.party(self.plaintiff)[1:]} hat "
            f"gegen {self.party(self.defendant, 'acc')} einen Anspruch aus {basis}. "
        )
        witness = self.rng.choice(self.witnesses)
        prose = _REASONS[self.domain] + _REASONS["any"]
        for sentence in self.rng.sample(prose, self.rng.randint(1, 4)):
            self.w.add(sentence + " ")
        self.sentences(
            lambda: self.w.say(
                self.template(
                    "Das Gericht ist aufgrund der glaubhaften Aussage {W_gen} davon überzeugt, "
                    "dass sich der Sachverhalt wie vorgetragen ereignet hat.",
                    "{W} hat ruhig und ohne erkennbare Belastungstendenz ausgesagt.",
                    "Nach der Vernehmung {W_gen} steht fest, dass {B} die Pflichtverletzung "
                    "begangen hat.",
                ),
                W=self.witness(witness),
                W_gen=self.witness(witness, "gen"),
                B=self.party(self.defendant),
            ),
            lambda: self.about_witness(witness),
            self.citation,
            optional=0.7,
        )
        self.w.add(
            "\n\n"
            + self.pick(
                "II. Der Zinsanspruch folgt aus §§ 286, 288 Abs. 1 BGB.",
                "II. Der Zinsanspruch ergibt sich aus §§ 291, 288 Abs. 1 BGB.",
            )
            + "\n\n"
            + self.pick(
                "III. Die Kostenentscheidung beruht auf § 91 ZPO, die Entscheidung über die "
                "vorläufige Vollstreckbarkeit auf §§ 708 Nr. 11, 711, 713 ZPO.",
                "III. Die Nebenentscheidungen beruhen auf §§ 92 Abs. 1, 708 Nr. 11, 711 ZPO.",
            )
        )

    def about_witness(self, p: Person) -> None:
        """A sentence on a witness's account, with a genitive ``Müllers`` where German
        allows it (a known person whose name does not end in an s sound)."""
        if p.introduced and not p.name.last.endswith(("s", "ß", "x", "z")):
            template = self.pick(
                "{gen} Schilderung war detailreich und in sich stimmig.",
                "{gen} Angaben decken sich mit den vorgelegten Lichtbildern (Anl. K 3).",
            )
        else:
            template = self.pick(
                "Die Schilderung {W_gen} war detailreich und in sich stimmig.",
                "Soweit {herr} bekundet hat, sich an Einzelheiten nicht mehr zu erinnern, "
                "spricht dies nicht gegen die Glaubhaftigkeit (vgl. BGH, a.a.O.).",
            )
        self.w.say(
            template,
            gen=Part(genitive(p.name.last), p.label),
            W_gen=self.witness(p, "gen"),
            herr=self.herr(p),
        )

    def citation(self) -> None:
        court, kind, register = self.rng.choice(_CITATIONS)
        day = self.fake.date(start=1995, end=self.event.year)
        docket = f"{register} {self.rng.randint(1, 400)}/{day.year % 100:02d}"
        self.w.add(
            self.pick(
                f"Dies entspricht der ständigen Rechtsprechung ({court}, {kind} vom "
                f"{format_date(day, 'padded')} – {docket}).",
                f"Insoweit gilt nichts anderes (vgl. {court}, {kind} vom "
                f"{format_date(day, 'short')} – {docket}, juris Rn. {self.rng.randint(5, 40)}).",
                f"Das ist i.d.R. der Fall (vgl. {court}, {kind} vom {format_date(day, 'padded')} "
                f"– {docket}, S. {self.rng.randint(10, 900)} ff.).",
            )
        )

    def remedy(self) -> None:
        self.w.add("Rechtsbehelfsbelehrung:\n\n")
        self.w.say(
            self.template(
                "Gegen die Entscheidung kann das Rechtsmittel der Berufung eingelegt werden. Die "
                "Berufung ist nur zulässig, wenn der Wert des Beschwerdegegenstandes 600 Euro "
                "übersteigt oder das Gericht die Berufung zugelassen hat. Die Berufung ist binnen "
                "einer Notfrist von einem Monat bei dem {lg} einzulegen.",
                "Diese Entscheidung kann mit der Berufung angefochten werden. Sie ist innerhalb "
                "einer Notfrist von einem Monat bei dem\n\n{lg}\n\neinzulegen. Die Frist beginnt "
                "mit der Zustellung der vollständigen Entscheidung.",
                "Gegen dieses Urteil ist die Berufung zum {lg} statthaft, wenn der Wert des "
                "Beschwerdegegenstandes 600 Euro übersteigt. Die Berufung muss binnen eines "
                "Monats schriftlich bei dem {lg2} eingelegt werden.",
            ),
            lg=Part(self.appeal_court, "court-name"),
            lg2=Part(self.appeal_court, "court-name"),
        )

    def signature(self) -> None:
        judge = self.judge
        role = "Richterin am Amtsgericht" if judge.gender == "f" else "Richter am Amtsgericht"
        self.w.say(
            self.template(
                "{judge}\n{role}",
                "gez. {judge}\n{role}",
                "{role}\n\n{judge}",
                "{judge}, {role}",
            ),
            judge=self.ref_title(judge),
            role=role,
        )
        if self.rng.random() < 0.3:
            self.w.say(
                "\n\nVerkündet am {date}\n{clerk}, {rank}",
                date=self.date(self.judgment, "date-world"),
                clerk=self.surname(self.clerk),
                rank=self.clerk_rank(),
            )


def generate_document(index: int, seed: int = 0) -> Document:
    """The ``index``-th synthetic document (``synthetic-000001`` for 1); it depends only on
    ``seed`` and ``index``, so any slice of a corpus can be regenerated alone."""
    rng = random.Random(f"synthetic\x00{seed}\x00{index}")
    return _Decision(rng, f"synthetic-{index:06d}").build()


def generate_documents(n: int, seed: int = 0) -> list[Document]:
    """``n`` synthetic documents with gold spans, ids ``synthetic-000001`` …"""
    return [generate_document(i, seed) for i in range(1, n + 1)]
