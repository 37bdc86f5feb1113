"""The sections every decision has, whatever its domain: header, rubrum, tenor, facts
(the domain's, then requests and evidence), reasons, remedies, signature.

Each section is a function of the :class:`~hf_anon.corpora.synthetic.decision.Decision`;
its wording comes from :mod:`hf_anon.corpora.synthetic.templates.frame`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from hf_anon.corpora.surrogates import format_date, genitive
from hf_anon.corpora.synthetic.cast import Party, Person, article
from hf_anon.corpora.synthetic.templates import DOMAIN_TEMPLATES
from hf_anon.corpora.synthetic.templates import frame as templates
from hf_anon.corpora.synthetic.templates import mietrecht as tenancy_templates
from hf_anon.corpora.synthetic.templates import verkehrsrecht as traffic_templates
from hf_anon.corpora.synthetic.writer import Part, Piece, sentence_case

if TYPE_CHECKING:
    from hf_anon.corpora.synthetic.decision import Decision


# -- header and rubrum


def header(d: Decision) -> None:
    court, docket = Part(d.court, "court-name"), Part(d.docket, "court-docket")
    d.w.say(d.template(*templates.HEADERS), court=court, docket=docket)
    if d.rng.random() < 0.3:
        d.w.say(
            templates.PROMULGATION_HEADER,
            date=d.date(d.judgment, "date-world"),
            clerk=d.surname(d.clerk),
            rank=d.clerk_rank(),
            **{"in": "in" if d.clerk.gender == "f" else "er"},
        )
    d.w.add(d.pick(*templates.FORMULAS))


def rubrum(d: Decision) -> None:
    d.w.add(d.pick(*templates.RUBRUM_OPENINGS))
    party_block(d, d.plaintiff, 0)
    lawyer_block(d, d.pick(*templates.COUNSEL_HEADINGS))
    d.w.add("\n\ngegen\n\n")
    for n, party in enumerate(d.defendants, start=1):
        party_block(d, party, n if len(d.defendants) > 1 else 0)
    lawyer_block(d, "Prozessbevollmächtigte" + (" zu 1 und 2" if len(d.defendants) > 1 else ""))
    # The wording of a traffic case's topic is drawn in every decision (it always was), so
    # that the draws after it, and thereby the corpora, stay as they were.
    accident = d.pick(*traffic_templates.TOPICS)
    topic = tenancy_templates.TOPICS.get(d.kind, accident)
    d.w.add(f"\n\nwegen {topic}\n\n")
    intro(d)


def party_block(d: Decision, party: Party, number: int) -> None:
    if number:
        d.w.add(f"{number}. ")
    if party.company:
        c = party.company
        d.w.add(d.company_name(c))
        if d.rng.random() < 0.3:
            d.w.add([", eingetragen ", d.register(c)])
        rep = c.representative
        if rep is None:
            d.w.add(", vertreten durch den Vorstand")
        else:
            d.w.add(
                [
                    ", vertreten durch "
                    + ("die Geschäftsführerin " if rep.gender == "f" else "den Geschäftsführer "),
                    d.full(rep),
                ]
            )
    else:
        assert party.person is not None
        d.w.add(d.full(party.person))
        if d.rng.random() < 0.15:
            born = d.fake.date(d.event.year - d.rng.randint(20, 75))
            d.w.add([", ", Part("geboren am " + format_date(born, "padded"), "nat-idx")])
    address = party.address
    d.w.add([", ", Part(address.street, "address-name"), ", "])
    d.w.add(Part(address.postcode_town, "address-name"))
    role = {"kläger": ("Kläger", "Klägerin"), "beklagte": ("Beklagter", "Beklagte")}
    word = role[party.role][party.gender == "f"]
    dash = d.pick("-", "–")
    d.w.add(f"\n{dash} {word}{party.suffix} {dash}\n")


def lawyer_block(d: Decision, heading: str) -> None:
    lawyers = [d.person(label="nat-jur", title=d.maybe("Dr.", 0.3)) for _ in range(2)]
    first = lawyers[0]
    address = d.address(d.court_town if d.rng.random() < 0.7 else None)
    d.w.add(f"\n{heading}: ")
    shape = d.rng.random()
    if shape < 0.55:
        word = "Rechtsanwältin " if first.gender == "f" else "Rechtsanwalt "
        d.w.add([word, d.full(first) if d.rng.random() < 0.6 else d.ref_title(first)])
    else:
        second = d.surname(lawyers[1])
        tail = d.pick(*templates.FIRM_SUFFIXES)
        d.w.add(["Rechtsanwälte ", d.surname(first), " & ", second, tail])
    d.w.add([", ", Part(address.street, "address-name"), ", "])
    d.w.add(Part(address.postcode_town, "address-name"))


def intro(d: Decision) -> None:
    judge = d.judge
    role = "die Richterin" if judge.gender == "f" else "den Richter"
    fields = {
        "court": Part(d.court, "court-name"),
        "judge": [f"{role} am Amtsgericht ", d.ref_title(judge)],
        "hearing": d.date(d.hearing, "date-world"),
        "judgment": d.date(d.judgment, "date-world"),
    }
    d.w.say(d.template(*templates.INTROS), **fields)


# -- tenor


def tenor(d: Decision) -> None:
    items: list[Callable[[], None]] = []
    winner = d.party(d.plaintiff)
    loser = "die Beklagten" if len(d.defendants) > 1 else d.party(d.defendant)
    if d.kind == "eviction":
        items.append(lambda: tenor_eviction(d))
    items.append(lambda: tenor_payment(d))
    if d.rng.random() < 0.4:
        items.append(lambda: d.w.add(templates.DISMISSAL))
    plural = loser.endswith("ten")
    costs = d.pick(*templates.COSTS).format(
        loser=loser,
        winner=winner,
        carry="tragen" if plural else "trägt",
        have="haben" if plural else "hat",
    )
    items.append(lambda: d.w.add(sentence_case(costs)))
    items.append(lambda: d.w.add(d.pick(*templates.ENFORCEABILITY)))
    if d.rng.random() < 0.5:
        items.append(lambda: d.w.add(templates.AMOUNT_IN_DISPUTE.format(amount=d.money(400, 9000))))
    for n, item in enumerate(items, start=1):
        d.w.add(f"{'' if n == 1 else chr(10)}{n}. ")
        item()


def tenor_payment(d: Decision) -> None:
    loser = d.defendant if len(d.defendants) == 1 else None
    subject = f"{d.party(loser)} wird" if loser else "Die Beklagten werden als Gesamtschuldner"
    since: Piece = "Rechtshängigkeit"
    roll = d.rng.random()
    if roll < 0.3:
        since = d.date(d.service, "date-world")
    elif roll < 0.6:
        since = d.date(d.filing - dt.timedelta(days=d.rng.randint(5, 40)), risk="low")
    d.w.say(
        templates.PAYMENT,
        subject=sentence_case(subject),
        winner=d.party(d.plaintiff, "acc"),
        amount=d.money(150, 12000),
        hieraus=d.maybe("hieraus ", 0.4),
        pp=d.pick(*templates.INTEREST_POINTS),
        since=since,
    )


def tenor_eviction(d: Decision) -> None:
    cellar = d.cellar
    rooms = d.pick(*templates.ROOM_COUNTS)
    d.w.say(
        templates.EVICTION,
        Der=d.party(d.defendant),
        floor=Part(d.floor, "address-idx"),
        street=Part(d.flat.street, "address-name"),
        town=Part(d.flat.postcode_town, "address-name"),
        rooms=rooms,
        cellar=[" sowie " + article(cellar, "dat") + " ", Part(cellar, "address-idx")]
        if d.rng.random() < 0.5
        else "",
        K=d.party(d.plaintiff, "acc"),
    )


# -- Tatbestand


def facts(d: Decision) -> None:
    headings = templates.FACTS_HEADINGS
    d.w.add(headings[0] if d.rng.random() < 0.9 else headings[1])
    d.domain_module.facts(d)
    d.w.add("\n\n")
    requests(d)
    evidence(d)


def requests(d: Decision) -> None:
    k = d.plaintiff
    d.w.say(
        templates.REQUEST,
        K=d.party(k),
        verb="beantragt",
        obj="die Beklagten als Gesamtschuldner"
        if len(d.defendants) > 1
        else d.party(d.defendant, "acc"),
        K_acc=d.pick("ihn" if k.gender == "m" else "sie", d.party(k, "acc")),
        amount=d.money(200, 12000),
    )
    d.w.say(
        templates.REQUEST_DISMISSAL,
        B="die Beklagten" if len(d.defendants) > 1 else d.party(d.defendant),
        verb="beantragen" if len(d.defendants) > 1 else "beantragt",
    )


def evidence(d: Decision) -> None:
    witnesses = d.witnesses
    pieces: list[Piece] = []
    for n, p in enumerate(witnesses):
        if n:
            pieces.append(" und ")
        pieces.append(d.witness(p, "gen"))
    d.w.add("\n\n")
    d.w.say(
        d.template(*templates.EVIDENCE),
        ws=pieces,
        ws_acc=d.witness(witnesses[0], "acc"),
        hearing=d.date(d.hearing, "date-world"),
    )
    d.w.say(
        d.template(*templates.SERVICE),
        B="den Beklagten" if len(d.defendants) > 1 else d.party(d.defendant, "dat"),
        service=d.date(d.service, "date-world"),
        filing=d.date(d.filing, "date-world"),
    )


# -- Entscheidungsgründe


def reasons(d: Decision) -> None:
    domain = DOMAIN_TEMPLATES[d.domain]
    d.w.add(d.pick(*templates.REASONS_HEADINGS))
    d.w.add(d.pick(*templates.REASONS_OPENINGS))
    d.w.add("\n\n")
    d.w.add(
        templates.CLAIM.format(
            K=sentence_case(d.party(d.plaintiff)),
            B_acc=d.party(d.defendant, "acc"),
            basis=domain.BASIS,
        )
    )
    witness = d.rng.choice(d.witnesses)
    prose = domain.REASONS + templates.REASONS
    for sentence in d.rng.sample(prose, d.rng.randint(1, 4)):
        d.w.add(sentence + " ")
    d.sentences(
        lambda d: d.w.say(
            d.template(*templates.WITNESS_ASSESSMENTS),
            W=d.witness(witness),
            W_gen=d.witness(witness, "gen"),
            B=d.party(d.defendant),
        ),
        lambda d: about_witness(d, witness),
        citation,
        optional=0.7,
    )
    d.w.add("\n\n" + d.pick(*templates.INTEREST_REASONS) + "\n\n" + d.pick(*templates.COST_REASONS))


def about_witness(d: Decision, p: Person) -> None:
    """A sentence on a witness's account, with a genitive ``Müllers`` where German
    allows it (a known person whose name does not end in an s sound)."""
    if p.introduced and not p.name.last.endswith(("s", "ß", "x", "z")):
        template = d.pick(*templates.WITNESS_ACCOUNTS_GENITIVE)
    else:
        template = d.pick(*templates.WITNESS_ACCOUNTS)
    d.w.say(
        template,
        gen=Part(genitive(p.name.last), p.label),
        W_gen=d.witness(p, "gen"),
        herr=d.herr(p),
    )


def citation(d: Decision) -> None:
    court, kind, register = d.rng.choice(templates.CITED)
    day = d.fake.date(start=1995, end=d.event.year)
    docket = f"{register} {d.rng.randint(1, 400)}/{day.year % 100:02d}"
    rn, page = d.rng.randint(5, 40), d.rng.randint(10, 900)  # drawn before the wording
    d.w.add(
        d.pick(*templates.CITATIONS).format(
            court=court,
            kind=kind,
            padded=format_date(day, "padded"),
            short=format_date(day, "short"),
            docket=docket,
            rn=rn,
            page=page,
        )
    )


# -- Rechtsbehelfsbelehrung, signature


def remedy(d: Decision) -> None:
    d.w.add(templates.REMEDY_HEADING)
    d.w.say(
        d.template(*templates.REMEDIES),
        lg=Part(d.appeal_court, "court-name"),
        lg2=Part(d.appeal_court, "court-name"),
    )


def signature(d: Decision) -> None:
    judge = d.judge
    role = "Richterin am Amtsgericht" if judge.gender == "f" else "Richter am Amtsgericht"
    d.w.say(d.template(*templates.SIGNATURES), judge=d.ref_title(judge), role=role)
    if d.rng.random() < 0.3:
        d.w.say(
            templates.PROMULGATION_SIGNATURE,
            date=d.date(d.judgment, "date-world"),
            clerk=d.surname(d.clerk),
            rank=d.clerk_rank(),
        )


#: A whole decision, in order; a passage is a run of one to three of them.
SECTIONS: list[Callable[[Decision], None]] = [
    header,
    rubrum,
    tenor,
    facts,
    reasons,
    remedy,
    signature,
]
