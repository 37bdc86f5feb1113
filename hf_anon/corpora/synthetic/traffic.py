"""Traffic cases (``verkehrsrecht``): the cast (plaintiff, driver and insurer, cars,
witnesses, an expert) and the facts, one writer per sentence of
:data:`~hf_anon.corpora.synthetic.templates.verkehrsrecht.SENTENCES`.

A writer draws its template, then fills its fields; the fields decide what is a gold
span. The accident comes first (in order), the damage after it (shuffled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hf_anon.corpora.synthetic.cast import Party
from hf_anon.corpora.synthetic.people import circumstances as person_circumstances
from hf_anon.corpora.synthetic.templates import verkehrsrecht as templates
from hf_anon.corpora.synthetic.writer import Part, sentence_case

if TYPE_CHECKING:
    from hf_anon.corpora.synthetic.decision import Decision


def cast(d: Decision) -> None:
    """The plaintiff, the other driver (defendant 1) and the insurer (defendant 2), two
    cars, the place, a passenger and another witness, an expert."""
    d.kind = "accident"
    plaintiff = d.person(title=d.maybe("Dr.", 0.06))
    d.plaintiff = Party("kläger", plaintiff, person_address=d.local_address())
    driver = Party("beklagte", d.person(), suffix=" zu 1)", person_address=d.local_address())
    insurer = Party("beklagte", company=d.company("insurer", "AG"), suffix=" zu 2)")
    d.driver, d.insurer = driver, insurer
    d.defendants = [driver, insurer]
    d.defendant = driver
    d.cars = (d.fake.car(), d.fake.car())
    d.plates = (d.fake.licence_plate(), d.fake.licence_plate())
    d.place = (d.fake.street(False, feminine=True), d.fake.town())
    d.passenger = d.person("f" if d.plaintiff.gender == "m" else "m")
    d.witnesses = [d.passenger, d.person()]
    d.expert = d.person(title="Dipl.-Ing.")


def facts(d: Decision) -> None:
    """The opening, the accident (``accident`` always, the others mostly, in order), the
    damage (``expert`` always, the others mostly, shuffled)."""
    opening = d.pick(*templates.OPENINGS)
    d.w.add(sentence_case(opening.format(K=d.party(d.plaintiff))) + "\n\n")
    d.sentences(accident, other_car, vin, passenger, police, about, circumstances, optional=0.6)
    d.w.add("\n\n")
    d.sentences(expert, workshop, claim, contact, optional=0.6, shuffle=True)


# -- the accident


def accident(d: Decision) -> None:
    k, driver = d.plaintiff, d.driver
    street, town = d.place
    day = d.event
    d.w.say(
        d.template(*templates.SENTENCES["accident"]),
        when=d.date(day, time=True),
        day=d.date(day),
        time=Part(d.fake.time(), "date-fact"),
        K=d.party_ref(k),
        K_gen=d.party(k, "gen"),
        B_gen=d.party(driver, "gen"),
        poss=d.poss(k, "em"),
        car=Part(d.cars[0], "car-name"),
        car2=Part(d.cars[1], "car-name"),
        plate=Part(d.plates[0], "car-idx"),
        street=Part(street, "address-name", "medium"),
        street2=Part(d.fake.street(False, feminine=True), "address-name", "medium"),
        town=Part(town, "address-name", "medium"),
        town2=Part(d.fake.town(), "address-name", "medium"),
    )


def other_car(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["other_car"]),
        B1=d.party_ref(d.driver),
        B2=d.party(d.insurer, "dat"),
        K_gen=d.party(d.plaintiff, "gen"),
        car2=Part(d.cars[1], "car-name"),
        plate2=Part(d.plates[1], "car-idx"),
        manoeuvre=d.rng.choice(templates.MANOEUVRES),
    )


def vin(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["vin"]),
        K_gen=d.party(d.plaintiff, "gen"),
        vin=Part(d.fake.vin(), "car-idx"),
        age=d.pick(*templates.CAR_AGES),
        car=Part(d.cars[0], "car-name"),
    )


def passenger(d: Decision) -> None:
    k = d.plaintiff
    d.w.say(
        d.template(*templates.SENTENCES["passenger"]),
        pron="ihm" if k.gender == "m" else "ihr",
        spouse=("seine Ehefrau" if k.gender == "m" else "ihr Ehemann")
        if d.passenger.gender != k.gender
        else "ein Arbeitskollege",
        W=d.witness(d.passenger),
    )


def police(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["police"]),
        ref=Part(d.fake.file_reference(d.pick("police", "authority")), "court-docket"),
        B1=d.party(d.driver, "acc"),
    )


def about(d: Decision) -> None:
    person = d.driver.person
    assert person is not None
    d.w.say(
        d.template(*templates.SENTENCES["about"]),
        B1=d.party_ref(d.driver),
        job=Part(d.fake.profession(person.gender), "nat-idx"),
        nation=Part(d.fake.nationality(person.gender), "nat-idx"),
        year=Part(str(d.event.year - d.rng.randint(1, 30)), "date-fact"),
    )


def circumstances(d: Decision) -> None:
    k, driver = d.plaintiff, d.driver
    person = d.rng.choice([k.person, driver.person])
    assert person is not None
    ref = d.party_ref(k if person is k.person else driver)
    person_circumstances(d, ref, person)


# -- the damage


def expert(d: Decision) -> None:
    e = d.expert
    d.w.say(
        d.template(*templates.SENTENCES["expert"]),
        Der="die" if e.gender == "f" else "der",
        des="der" if e.gender == "f" else "des",
        poss=d.poss(e, "em"),
        E=d.full(e),
        date=d.date(d.later((2, 15))),
        amount=d.money(900, 14000),
    )


def workshop(d: Decision) -> None:
    shop = d.company("car_dealer", d.pick("GmbH", "GmbH & Co. KG", "e.K."))
    d.w.say(
        d.template(*templates.SENTENCES["workshop"]),
        shop=d.company_name(shop, "medium"),
        town=Part(shop.address.town, "address-name", "low"),
        date=d.date(d.later((2, 20))),
        amount=d.money(900, 9000),
    )


def claim(d: Decision) -> None:
    d.w.say(
        d.template(*templates.SENTENCES["claim"]),
        B2=d.party(d.insurer),
        date=d.date(d.later((10, 60))),
        claim=Part(d.fake.reference_number("claim"), "id-number"),
        amount=d.money(300, 6000),
    )


def contact(d: Decision) -> None:
    k, driver = d.plaintiff, d.driver
    d.w.say(
        d.template(*templates.SENTENCES["contact"]),
        B1=d.party_ref(driver),
        poss=d.poss(driver, "e"),
        possK=d.poss(k),
        phone=Part(d.fake.phone(d.pick("mobile", None)), "id-number"),
        mail=Part(d.fake.email(), "id-number"),
        iban=Part(d.fake.iban(), "id-number"),
        K=d.party_ref(k),
        B2_gen=d.party(d.insurer, "gen"),
        clerk=d.herr(d.person("f")),
    )
