"""Sentences on people's circumstances (``nat-idx``), in both domains; wording from
:mod:`hf_anon.corpora.synthetic.templates.people`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hf_anon.corpora.synthetic.cast import Party, Person
from hf_anon.corpora.synthetic.templates import people as templates
from hf_anon.corpora.synthetic.writer import Part, Piece

if TYPE_CHECKING:
    from hf_anon.corpora.synthetic.decision import Decision


def household(d: Decision, party: Party) -> Piece:
    """``seinen zwei Kleinkindern``: a family detail (``nat-idx``, low risk)."""
    ending, detail = d.rng.choice(templates.HOUSEHOLD)
    return [d.poss(party, ending) + " ", Part(detail, "nat-idx", "low")]


def circumstances(d: Decision, ref: Piece, person: Person) -> None:
    """One sentence on a person's circumstances: age, career, health, family, study
    or side business (``nat-idx``), in the shapes decisions use."""
    f = person.gender == "f"
    job = d.fake.profession(person.gender)
    prefix = d.rng.choice(templates.CAREER)[f]
    health_article, health = d.rng.choice(templates.HEALTH)
    side_article, side = d.rng.choice(templates.SIDELINES)
    family = d.rng.choice(templates.FAMILY)[f].format(n=d.rng.choice(templates.COUNT_WORDS))
    age = d.rng.randint(19, 84)
    subject = d.rng.choice(templates.SUBJECTS)
    university = d.pick(*templates.UNIVERSITIES)
    town = d.fake.town()  # drawn before the wording of the study
    study = d.pick(*templates.STUDIES)[f].format(
        subject=subject, university=university, town=town, job=job
    )
    d.w.say(
        d.template(*templates.CIRCUMSTANCES),
        T=ref,
        age=Part(f"{age} Jahre alt", "nat-idx"),
        age_adj=Part(f"{age} Jahre", "nat-idx"),
        job=Part(job, "nat-idx"),
        career=Part(f"{prefix} {job}", "nat-idx"),
        year=Part(str(d.event.year - d.rng.randint(1, 20)), "date-fact"),
        employer=Part(d.fake.company_name(), "jur-name"),
        health_art=health_article + " " if health_article else "",
        health=Part(health, "nat-idx"),
        side_art=side_article,
        side=Part(side, "nat-idx"),
        family=Part(family, "nat-idx"),
        study=Part(study, "nat-idx"),
        nation_noun=Part(
            d.fake.nationality("f").replace("Staatsangehörige", "Staatsangehörigkeit"),
            "nat-idx",
        ),
    )
