"""The people and companies of a synthetic decision, and how German names their roles."""

from __future__ import annotations

from dataclasses import dataclass

from hf_anon.corpora.surrogates import PersonName


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


#: The grammatical cases, in the order of :data:`ROLE_FORMS`.
CASES = {"nom": 0, "gen": 1, "dat": 2, "acc": 3}
#: A role with its article, by gender and case.
ROLE_FORMS = {
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


def article(thing: str, case: str = "nom") -> str:
    """``das Kellerabteil``, ``der Stellplatz``, ``die Garage`` (``dem``/``der`` in the dative)."""
    word = thing.split()[0]
    gender = "f" if word == "Garage" else "n" if word.endswith("abteil") else "m"
    if case == "dat":
        return "der" if gender == "f" else "dem"
    return {"f": "die", "n": "das", "m": "der"}[gender]
