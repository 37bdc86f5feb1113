"""The label set: information categories and risk levels of the annotation guidelines
(``ANNOTATION.md``, applied in ``data/real/annotation/GUIDE.md``; docs: "Data format").

One place for labels. Everything else (validation, token tags, metrics, model heads,
colours in the demo) takes a :class:`LabelSet` and defaults to :data:`DEFAULT_LABELS`,
so a project for another language or tagset loads its own with
:meth:`LabelSet.from_file` and changes nothing else.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

#: Risk levels from least to most re-identifying; the position is the order.
RISKS: tuple[str, ...] = ("low", "medium", "high")

#: Tags of the span head: outside, beginning, inside.
BIO_TAGS: tuple[str, ...] = ("O", "B", "I")


@dataclass(frozen=True)
class Label:
    """An information category with the risk its occurrences usually carry.

    ``is_person``: its spans are names of people (``Hans Müller``, ``Dr. Bauer``). The
    anonymizer and the surrogates take such spans apart into titles, first names and a
    surname, the leak check also searches each name part, and edge trimming keeps name
    particles (``von der Au``).
    """

    name: str
    risk: str
    description_de: str
    description_en: str
    color: str
    is_person: bool = False


@dataclass(frozen=True)
class LabelSet:
    """An ordered set of labels and ordered risk levels (ids are positions)."""

    labels: tuple[Label, ...]
    risks: tuple[str, ...] = RISKS
    _by_name: dict[str, Label] = field(init=False, repr=False, compare=False)
    _ids: dict[str, int] = field(init=False, repr=False, compare=False)
    _persons: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.labels:
            raise ValueError("a label set needs at least one label")
        if len(set(self.risks)) != len(self.risks) or not self.risks:
            raise ValueError(f"risk levels must be distinct and non-empty: {self.risks}")
        by_name: dict[str, Label] = {}
        for label in self.labels:
            if label.name in by_name:
                raise ValueError(f"duplicate label {label.name!r}")
            if label.risk not in self.risks:
                raise ValueError(
                    f"label {label.name!r} has usual risk {label.risk!r}, "
                    f"not one of {list(self.risks)}"
                )
            by_name[label.name] = label
        object.__setattr__(self, "_by_name", by_name)
        object.__setattr__(self, "_ids", {name: i for i, name in enumerate(by_name)})
        persons = frozenset(label.name for label in self.labels if label.is_person)
        object.__setattr__(self, "_persons", persons)

    @property
    def names(self) -> list[str]:
        return [label.name for label in self.labels]

    @property
    def person_labels(self) -> frozenset[str]:
        """The names of the labels whose spans name people (:attr:`Label.is_person`)."""
        return self._persons

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __len__(self) -> int:
        return len(self.labels)

    def __iter__(self):
        return iter(self.labels)

    def __getitem__(self, name: str) -> Label:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"unknown label {name!r}; known: {self.names}") from None

    def label_id(self, name: str) -> int:
        return self._ids[self[name].name]

    def risk_id(self, risk: str) -> int:
        if risk not in self.risks:
            raise KeyError(f"unknown risk {risk!r}; known: {list(self.risks)}")
        return self.risks.index(risk)

    def risk_rank(self, risk: str) -> int:
        """Higher is riskier: ``risk_rank('high') > risk_rank('medium')``."""
        return self.risk_id(risk)

    def at_least(self, min_risk: str) -> tuple[str, ...]:
        """The risk levels at or above ``min_risk``."""
        return self.risks[self.risk_rank(min_risk) :]

    def to_dict(self) -> dict:
        return {"risks": list(self.risks), "labels": [asdict(label) for label in self.labels]}

    @classmethod
    def from_dict(cls, data: dict) -> LabelSet:
        """A label set from :meth:`to_dict`'s form.

        An entry without ``is_person`` (saved before the flag existed, as in the configs of
        earlier models) takes the flag of the default label of the same name, so a model's
        ``nat-name`` stays a name of people.
        """
        try:
            labels = tuple(
                Label(**{"is_person": _default_is_person(entry.get("name")), **entry})
                for entry in data["labels"]
            )
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(
                f"a label set needs 'labels': [{{name, risk, description_de, "
                f"description_en, color[, is_person]}}, ...]: {err}"
            ) from None
        risks = data.get("risks", RISKS)
        if not isinstance(risks, list | tuple) or not all(isinstance(r, str) for r in risks):
            raise ValueError(f"'risks' must be a list of names from least to most risky: {risks!r}")
        return cls(labels=labels, risks=tuple(risks))

    @classmethod
    def from_file(cls, path: str | Path) -> LabelSet:
        """Load a label set from JSON (or YAML, if PyYAML is installed)."""
        path = Path(path)
        raw = path.read_text(encoding="utf-8")
        if path.suffix in {".yaml", ".yml"}:
            import yaml

            try:
                data = yaml.safe_load(raw)
            except yaml.YAMLError as err:
                raise ValueError(f"{path}: invalid YAML ({err})") from None
        else:
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}: invalid JSON ({err.msg})") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: a label set file holds one object with 'labels'")
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(
            json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )


def _default_is_person(name: object) -> bool:
    return isinstance(name, str) and name in DEFAULT_LABELS and DEFAULT_LABELS[name].is_person


DEFAULT_LABELS = LabelSet(
    labels=(
        Label(
            "nat-name",
            "high",
            "Namen natürlicher Personen (Parteien, Zeugen, Angehörige)",
            "names of natural persons (parties, witnesses, relatives)",
            "#e6194b",
            is_person=True,
        ),
        Label(
            "nat-idx",
            "medium",
            "sonstige Merkmale natürlicher Personen (Geburtsdatum, Beruf, Gesundheit)",
            "other features identifying a natural person (birth date, job, health)",
            "#f58231",
        ),
        Label(
            "nat-jur",
            "medium",
            "Namen von Richtern, Rechtsanwälten und anderen Rechtsberufen",
            "names of judges, lawyers and other legal professionals",
            "#911eb4",
            is_person=True,
        ),
        Label(
            "jur-name",
            "high",
            "Namen juristischer Personen (Firmen, Vereine, Genossenschaften)",
            "names of legal persons (companies, associations, cooperatives)",
            "#4363d8",
        ),
        Label(
            "jur-idx",
            "medium",
            "Merkmale juristischer Personen (Handelsregister-, Steuernummer)",
            "features identifying a legal person (register and tax numbers)",
            "#42d4f4",
        ),
        Label(
            "address-name",
            "high",
            "Adressen und Orte (Straße mit Hausnummer, PLZ mit Ort)",
            "addresses and places (street with number, postcode with town)",
            "#3cb44b",
        ),
        Label(
            "address-idx",
            "medium",
            "Lagemerkmale (Geschoss, Kellerabteil, Flurnummer)",
            "details pinning down a dwelling or plot (floor, cellar, parcel)",
            "#bfef45",
        ),
        Label(
            "car-name",
            "low",
            "Fahrzeughersteller und -modell",
            "vehicle make and model",
            "#808000",
        ),
        Label(
            "car-idx",
            "high",
            "Fahrzeugkennzeichen und Fahrgestellnummern",
            "licence plates and vehicle identification numbers",
            "#800000",
        ),
        Label(
            "court-name",
            "low",
            "Namen von Gerichten",
            "names of courts",
            "#469990",
        ),
        Label(
            "court-docket",
            "medium",
            "Aktenzeichen von Gerichten, Behörden, Polizei und Versicherern",
            "docket numbers and file references",
            "#000075",
        ),
        Label(
            "date-fact",
            "medium",
            "Daten und Uhrzeiten des Sachverhalts",
            "dates and times of the facts of the case",
            "#f032e6",
        ),
        Label(
            "date-world",
            "low",
            "Daten des Verfahrens (Eingang, Verhandlung, Urteil, Zustellung)",
            "dates of the proceedings (filing, hearing, judgment, service)",
            "#dcbeff",
        ),
        Label(
            "id-number",
            "high",
            "sonstige Kennungen (IBAN, Telefon, E-Mail, URL, Vertragsnummern)",
            "other identifiers (IBAN, phone, e-mail, URL, contract numbers)",
            "#9a6324",
        ),
    )
)
