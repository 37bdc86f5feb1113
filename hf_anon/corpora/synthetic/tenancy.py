"""Tenancy cases (``mietrecht``): the cast (tenant, landlord, flat, neighbours) and the
facts, one writer per sentence of
:data:`~hf_anon.corpora.synthetic.templates.mietrecht.SENTENCES`.

A writer draws its template, then fills its fields; the fields decide what is a gold
span. The background sentences come in a shuffled order after the contract, the story of
each kind of case follows (``STORIES``).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from hf_anon.corpora.surrogates import PersonName
from hf_anon.corpora.synthetic.cast import Address, Party, article
from hf_anon.corpora.synthetic.people import circumstances as person_circumstances
from hf_anon.corpora.synthetic.people import household
from hf_anon.corpora.synthetic.templates import mietrecht as templates
from hf_anon.corpora.synthetic.writer import Part, Piece, sentence_case

if TYPE_CHECKING:
    from hf_anon.corpora.synthetic.decision import Decision


def cast(d: Decision) -> None:
    """Tenant and landlord (a person or a company), who sues whom, the flat, a property
    manager, neighbours, witnesses."""
    town = d.court_town if d.rng.random() < 0.6 else None
    flat = Address(d.fake.street(feminine=True), d.fake.postcode_town(town))
    tenant = Party("", d.person(title=d.maybe("Dr.", 0.06)), person_address=flat)
    if d.rng.random() < 0.55:
        landlord = Party("", company=d.company("landlord", town=d.court_town))
    else:
        landlord = Party("", d.person(title=d.maybe("Dr.", 0.1)), person_address=d.local_address())
    d.kind = d.pick(*templates.KINDS)
    tenant_sues = d.kind in {"deposit", "reduction"}
    d.plaintiff, d.defendant = (tenant, landlord) if tenant_sues else (landlord, tenant)
    d.plaintiff.role, d.defendant.role = "kläger", "beklagte"
    d.tenant, d.landlord = tenant, landlord
    d.defendants = [d.defendant]
    d.flat = tenant.address
    d.floor = d.fake.floor()
    d.cellar = d.fake.cellar()
    d.manager = d.company("landlord", "GmbH") if d.rng.random() < 0.4 else None
    d.neighbours = (d.person("m"), d.person("f"))
    d.neighbours[1].name = PersonName(
        d.neighbours[1].name.first, d.neighbours[0].name.last, "f", "de_DE"
    )
    d.witnesses = [d.person() for _ in range(d.rng.randint(1, 2))]


def facts(d: Decision) -> None:
    """The opening, the background (the contract first, then some of the rest, shuffled),
    the story of the case's kind."""
    tenant, landlord = d.tenant, d.landlord
    opening = d.pick(*templates.OPENINGS)
    fields = {"K": d.party(d.plaintiff), "B_dat": d.party(d.defendant, "dat")}
    d.w.add(sentence_case(opening.format(**fields)) + " ")
    story = [WRITERS[name] for name in templates.STORIES[d.kind]]
    optional = [extras, rent, parcel, number, account, occupant]
    if tenant.person is not None or landlord.person is not None:
        optional += [circumstances, circumstances]
    if d.manager is not None:
        optional.insert(5, manager)
    if landlord.company is not None:
        optional.insert(0, registered)
    d.sentences(contract, *optional, optional=0.45, shuffle=True)
    d.w.add("\n\n")
    d.sentences(*story, optional=0.8)


def _tenant_role(d: Decision) -> str:
    return "kläger" if d.tenant is d.plaintiff else "beklagte"


def _tenant(d: Decision, case: str = "nom") -> str:
    """The tenant by role: ``der Kläger``, ``die Beklagte`` …"""
    return d.role(_tenant_role(d), d.tenant.gender, case)


# -- the background


def contract(d: Decision) -> None:
    tenant, landlord = d.tenant, d.landlord
    rooms = d.pick(*templates.FLATS)
    d.w.say(
        d.template(*templates.SENTENCES["contract"]),
        T=d.party_ref(tenant),
        L=["der ", d.party_name(landlord)] if landlord.company else d.party(landlord, "dat"),
        L_nom=["die ", d.party_name(landlord)] if landlord.company else d.party(landlord),
        date=d.date(d.contract),
        rooms=rooms,
        floor=Part(d.floor, "address-idx"),
        street=Part(d.flat.street, "address-name"),
        fstreet=Part(d.flat.street, "address-name"),
        town=Part(d.flat.town, "address-name"),
        pc=Part(d.flat.postcode_town, "address-name"),
        **{
            "in": "in" if tenant.gender == "f" else "",
            "lin": "in" if landlord.gender == "f" else "",
        },
    )


def extras(d: Decision) -> None:
    things = [Part(d.cellar, "address-idx")]
    if d.rng.random() < 0.5:
        things.append(Part(d.fake.parking_space(), "address-idx"))
    joined: list[Piece] = [article(things[0].text) + " ", things[0]]
    if len(things) > 1:
        joined += [" und " + article(things[1].text) + " ", things[1]]
    d.w.say(
        d.template(*templates.SENTENCES["extras"]),
        things=joined,
        verb="gehören" if len(things) > 1 else "gehört",
        are="sind" if len(things) > 1 else "ist",
    )


def parcel(d: Decision) -> None:
    landlord = d.landlord
    d.w.say(
        d.template(*templates.SENTENCES["parcel"]),
        parcel=Part(d.fake.parcel_number(), "address-idx"),
        L=d.party(landlord, "gen")
        if landlord.company is None
        else ["der ", d.company_name(landlord.company)],
        town=Part(d.flat.town, "address-name", "medium"),
    )


def registered(d: Decision) -> None:
    company = d.landlord.company
    assert company is not None
    d.w.say(
        d.template(*templates.SENTENCES["registered"]),
        L=d.party(d.landlord),
        name=d.company_name(company),
        reg=d.register(company),
    )


def rent(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["rent"]),
        rent=d.money(380, 1900),
        costs=d.money(60, 320),
        T=_tenant(d),
    )


def number(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["number"]),
        no=Part(d.fake.reference_number(d.pick("contract", "customer")), "id-number"),
        L=d.party(d.landlord),
    )


def account(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["account"]),
        iban=Part(d.fake.iban(), "id-number"),
        T=_tenant(d),
        of=d.party(d.landlord, "gen"),
    )


def manager(d: Decision) -> None:
    assert d.manager is not None
    clerk = d.person()
    d.w.say(
        d.template(*templates.SENTENCES["manager"]),
        hv=d.company_name(d.manager),
        clerk=d.herr(clerk),
        phone=Part(d.fake.phone("landline"), "id-number"),
        L=d.party(d.landlord),
        **{"in": "in" if clerk.gender == "f" else ""},
    )


def occupant(d: Decision) -> None:
    tenant = d.tenant
    person = tenant.person
    assert person is not None
    d.w.say(
        d.template(*templates.SENTENCES["occupant"]),
        T=d.party_ref(tenant),
        job=Part(d.fake.profession(person.gender), "nat-idx"),
        nation=Part(d.fake.nationality(person.gender), "nat-idx"),
        poss=d.poss(tenant, "er"),
        kids=household(d, tenant),
    )


def circumstances(d: Decision) -> None:
    party = d.rng.choice([p for p in (d.tenant, d.landlord) if p.person is not None])
    assert party.person is not None
    person_circumstances(d, d.party_ref(party), party.person)


# -- the story


def defect(d: Decision) -> None:
    start = d.later((0, 20))
    d.w.say(
        d.template(*templates.SENTENCES["defect"]),
        date=d.date(start),
        month=d.month(start),
        T=d.party_ref(d.tenant),
        L=d.party(d.landlord, "dat"),
        defect=d.rng.choice(templates.DEFECTS),
        defect_nom=d.pick(*templates.DEFECTS_NOMINATIVE),
    )


def letter(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["letter"]),
        date=d.date(d.later()),
        deadline=d.date(d.cursor + dt.timedelta(days=14), risk="low"),
        mail=Part(d.fake.email(), "id-number"),
        phone=Part(d.fake.phone(), "id-number"),
        T=d.party_ref(d.tenant),
        L=d.party(d.landlord, "acc"),
        L_nom=d.party(d.landlord),
    )


def reminder(d: Decision) -> None:
    tenant = d.tenant
    d.w.say(
        d.template(*templates.SENTENCES["reminder"]),
        date=d.date(d.later()),
        deadline=d.date(d.cursor + dt.timedelta(days=14), risk="low"),
        mail=Part(d.fake.email(tenant.person.name if tenant.person else None), "id-number"),
        phone=Part(d.fake.phone(), "id-number"),
        L=d.party(d.landlord),
        T_acc=_tenant(d, "acc"),
        H=d.full(d.person()),
    )


def handover(d: Decision) -> None:
    end = d.later((0, 10))
    d.w.say(
        d.template(*templates.SENTENCES["handover"]),
        end=d.date(end),
        date=d.date(d.later((1, 5))),
        T=_tenant(d, "acc"),
        pron="er" if d.tenant.gender == "m" else "sie",
    )


def deposit(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["deposit"]),
        T=d.party_ref(d.tenant),
        L=d.party(d.landlord),
        amount=d.money(900, 4500),
        date=d.date(d.later()),
        iban=Part(d.fake.iban(), "id-number"),
    )


def neighbours(d: Decision) -> None:
    husband, wife = d.neighbours
    d.w.say(
        d.template(*templates.SENTENCES["neighbours"]),
        date=d.date(d.contract + dt.timedelta(days=d.rng.randint(30, 900))),
        noise=lambda: d.date(d.later((1, 20))),
        time=Part(d.fake.time(), "date-fact"),
        h=Part(husband.name.first, "nat-name"),
        w=d.full(wife),
        wfull=d.full(wife),
        hfull=d.full(husband),
        floor=Part(d.fake.floor(), "address-idx"),
    )


def termination(d: Decision) -> None:
    first = d.later()
    last = first + dt.timedelta(days=d.rng.randint(31, 150))
    d.w.say(
        d.template(*templates.SENTENCES["termination"]),
        m1=d.month(first),
        m2=d.month(last),
        date=d.date(last + dt.timedelta(days=d.rng.randint(3, 30))),
        T=_tenant(d),
        L=d.party(d.landlord),
        pct=d.pick(*templates.REDUCTIONS),
    )


def billing(d: Decision) -> None:
    year = d.event.year - 1
    d.w.say(
        d.template(*templates.SENTENCES["billing"]),
        date=d.date(d.later()),
        a=d.date(dt.date(year, 1, 1), risk="low", style="padded"),
        b=d.date(dt.date(year, 12, 31), risk="low", style="padded"),
        year=Part(str(year), "date-fact", "low"),
        L=d.party(d.landlord),
        T_dat=_tenant(d, "dat"),
        amount=d.money(80, 1400),
    )


#: The writer of each sentence of the table, by its name there.
WRITERS = {
    "contract": contract,
    "extras": extras,
    "parcel": parcel,
    "registered": registered,
    "rent": rent,
    "number": number,
    "account": account,
    "manager": manager,
    "occupant": occupant,
    "defect": defect,
    "letter": letter,
    "reminder": reminder,
    "handover": handover,
    "deposit": deposit,
    "neighbours": neighbours,
    "termination": termination,
    "billing": billing,
}
