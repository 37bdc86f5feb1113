"""One synthetic decision: its random draws, cast and timeline, and the ways it names
people, parties and dates; the sections in :mod:`~hf_anon.corpora.synthetic.frame` and
the domains' facts write it with these."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from types import ModuleType

from hf_anon.corpora.surrogates import (
    DATE_STYLES,
    LANDGERICHTE,
    MONTHS,
    SurrogateFactory,
    format_date,
)
from hf_anon.corpora.synthetic.cast import CASES, ROLE_FORMS, Address, Company, Party, Person
from hf_anon.corpora.synthetic.templates import frame as templates
from hf_anon.corpora.synthetic.writer import Part, Piece, Writer
from hf_anon.text.data import Document


class Decision:
    """One synthetic decision: its cast, timeline, and the helpers its sections write with.

    The cast is made by the domain's module (``cast(decision)`` in
    :mod:`~hf_anon.corpora.synthetic.tenancy` or :mod:`~hf_anon.corpora.synthetic.traffic`);
    it sets at least ``kind``, ``plaintiff``, ``defendant``, ``defendants`` and
    ``witnesses``.
    """

    kind: str
    plaintiff: Party
    defendant: Party
    defendants: list[Party]
    witnesses: list[Person]

    def __init__(self, rng: random.Random, doc_id: str, domains: dict[str, ModuleType]) -> None:
        self.rng = rng
        self.fake = SurrogateFactory(rng)
        self.doc_id = doc_id
        self.w = Writer()
        self.used_templates: set[str] = set()
        self.domain = rng.choice(tuple(domains))
        self.domain_module = domains[self.domain]
        self.style = rng.choice(DATE_STYLES)
        self._court()
        self._timeline()
        self.domain_module.cast(self)
        self.judge = self.person(label="nat-jur", title=self.maybe("Dr.", 0.2))
        self.clerk = self.person(label="nat-jur")

    def build(self, sections: list[Callable[[Decision], None]]) -> Document:
        """Write ``sections`` (or, for a passage, a run of one to three of them)."""
        if self.rng.random() < 0.35:  # a passage: a run of sections
            start = self.rng.randrange(len(sections))
            sections = sections[start : start + self.rng.randint(1, 3)]
        for n, section in enumerate(sections):
            if n:
                self.w.add("\n\n")
            section(self)
        return self.w.document(self.doc_id, self.domain)

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

    def sentences(
        self,
        *writers: Callable[[Decision], None],
        optional: float = 0.7,
        shuffle: bool = False,
    ) -> None:
        """Write some of ``writers`` (the first always, the others in order or shuffled)."""
        rest = [f for f in writers[1:] if self.rng.random() < optional]
        if shuffle:
            self.rng.shuffle(rest)
        chosen = [writers[0], *rest]
        for n, writer in enumerate(chosen):
            if n:
                self.w.add("\n\n" if self.rng.random() < 0.35 else " ")
            writer(self)

    def money(self, low: float, high: float) -> str:
        """``1.234,56`` (German separators)."""
        value = f"{self.rng.uniform(low, high):,.2f}"
        return value.replace(",", "_").replace(".", ",").replace("_", ".")

    def person(
        self, gender: str | None = None, *, label: str = "nat-name", title: str = ""
    ) -> Person:
        return Person(self.fake.person(gender), title, label)

    def address(self, town: str | None = None) -> Address:
        return Address(self.fake.street(), self.fake.postcode_town(town))

    def local_address(self) -> Address:
        """An address, more often than not in the court's town."""
        return self.address(self.court_town if self.rng.random() < 0.6 else None)

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

    def ref_title(self, p: Person) -> list[Piece]:
        p.introduced = True
        return [p.title + " "] * bool(p.title) + [self.surname(p)]

    def herr(self, p: Person, case: str = "nom") -> Piece:
        """``Herr Müller``, ``Herrn Dr. Müller``, ``Frau Müller``."""
        word = "Frau" if p.gender == "f" else ("Herr" if case == "nom" else "Herrn")
        return [word + " ", self.ref(p)]

    def role(self, role: str, gender: str, case: str = "nom", suffix: str = "") -> str:
        return ROLE_FORMS[role][gender][CASES[case]] + suffix

    def witness(self, p: Person, case: str = "nom") -> Piece:
        return [self.role("zeuge", p.gender, case) + " ", self.ref(p)]

    def party(self, party: Party, case: str = "nom") -> str:
        return self.role(party.role, party.gender, case, party.suffix)

    def poss(self, party: Party | Person, ending: str = "") -> str:
        return ("sein" if party.gender == "m" else "ihr") + ending

    def register(self, c: Company) -> Piece:
        """``im Handelsregister des Amtsgerichts München unter HRB 12345``."""
        kind = templates.REGISTERS.get(c.register.split()[0], "Handelsregister")
        return [
            f"im {kind} des ",
            Part(c.register_court, "court-name"),
            " unter ",
            Part(c.register, "jur-idx"),
        ]

    def clerk_rank(self) -> str:
        return self.pick(*templates.CLERK_RANKS["f" if self.clerk.gender == "f" else "m"])

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

    # -- the court and the timeline
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
