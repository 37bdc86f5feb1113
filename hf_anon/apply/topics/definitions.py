"""Topics: seed words and a centroid phrase per topic, the built-in German ones, user
topics from ``NAME=word,…`` or YAML, and the neutral descriptions scores are contrasted
with."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

#: Span labels are ``topic:<name>``.
PREFIX = "topic:"
#: λ of a topic that has none (chosen on the calibration half of ``data/topics``).
DEFAULT_THRESHOLD = 0.07


class TopicError(ValueError):
    """A topic specification or an encoder that cannot be used."""


@dataclass(frozen=True)
class Topic:
    """A topic: seed words (and phrases), a centroid phrase that names it, its λ.

    As in the seed, the centroid is one more entry of the word list: it pulls the mean
    towards what the topic *is* rather than towards any one of its examples.
    """

    name: str
    words: tuple[str, ...]
    centroid: str | None = None
    threshold: float | None = None

    def __post_init__(self):
        if not re.fullmatch(r"[\w-]+", self.name or ""):
            raise TopicError(f"a topic name is letters, digits, - and _, got {self.name!r}")
        words = tuple(w.strip() for w in self.words if w and w.strip())
        if not words:
            raise TopicError(f"topic {self.name!r} has no words")
        object.__setattr__(self, "words", words)
        if self.threshold is not None and not -1.0 <= self.threshold <= 1.0:
            raise TopicError(f"topic {self.name!r}: λ must be in [-1, 1]")

    @property
    def label(self) -> str:
        return PREFIX + self.name

    @property
    def entries(self) -> tuple[str, ...]:
        return self.words + ((self.centroid,) if self.centroid else ())

    @property
    def lam(self) -> float:
        return DEFAULT_THRESHOLD if self.threshold is None else self.threshold


_HERKUNFT = (
    "Herkunft", "ethnische Herkunft", "Abstammung", "Nationalität", "Staatsangehörigkeit",
    "ausländischer Staatsangehöriger", "Volkszugehörigkeit", "Volksgruppe",
    "ethnische Minderheit", "Ethnie", "Hautfarbe", "dunkelhäutig", "hellhäutig", "schwarz",
    "Migrationshintergrund", "Muttersprache", "Dialekt", "Einwanderer", "Ausländer",
    "Flüchtling aus Syrien", "türkisch", "syrisch", "afghanisch", "irakisch", "iranisch",
    "kurdisch", "arabisch", "eritreisch", "somalisch", "nigerianisch", "ghanaisch",
    "marokkanisch", "algerisch", "tunesisch", "ägyptisch", "äthiopisch", "kongolesisch",
    "kamerunisch", "senegalesisch", "guineisch", "pakistanisch", "indisch", "bangladeschisch",
    "vietnamesisch", "chinesisch", "tschetschenisch", "russisch", "ukrainisch", "polnisch",
    "rumänisch", "bulgarisch", "serbisch", "kosovarisch", "albanisch", "bosnisch", "kroatisch",
    "griechisch", "italienisch", "georgisch", "armenisch", "libanesisch", "palästinensisch",
    "deutsch", "Deutscher", "Türke", "Syrer", "Afghane", "Iraker", "Kurde", "Araber",
    "Eritreer", "Somalier", "Nigerianer", "Marokkaner", "Tschetschene", "Roma", "Sinti",
    "Jeside", "Hazara", "Paschtune", "Tamile", "Uigure", "Afrikaner", "Asiat", "Kurmandschi",
    "Arabisch", "Farsi", "Dari", "Paschtu", "Tigrinya", "Türkisch", "Russisch",
    "stammt aus Syrien", "Herkunftsland", "Heimatland",
)  # fmt: skip

_RELIGION = (
    "Religion", "Glaube", "Konfession", "Religionszugehörigkeit", "Glaubensgemeinschaft",
    "Religionsgemeinschaft", "religiös", "gläubig", "fromm", "Muslim", "Muslimin", "Moslem",
    "Christ", "Christin", "Jude", "Jüdin", "Katholik", "Katholikin", "Protestant",
    "Protestantin", "Orthodoxer", "Kopte", "Alevit", "Sunnit", "Schiit", "Salafist", "Jeside",
    "Buddhist", "Hindu", "Sikh", "Atheist", "konfessionslos", "Zeugen Jehovas", "Mormone",
    "Baptist", "Freikirche", "katholisch", "evangelisch", "orthodox", "koptisch", "muslimisch",
    "islamisch", "sunnitisch", "schiitisch", "alevitisch", "jüdisch", "christlich",
    "buddhistisch", "Islam", "Christentum", "Judentum", "Buddhismus", "Kirchenmitglied",
    "Mitglied der katholischen Kirche", "Kirchenaustritt", "Konversion",
    "konvertiert zum Christentum", "Taufe", "getauft", "Moschee", "Synagoge", "Gottesdienst",
    "beten", "betet täglich", "Gebet", "fasten", "Ramadan", "Kopftuch", "Burka", "Koran",
    "Bibel",
)  # fmt: skip

_GESUNDHEIT = (
    "Krankheit", "Erkrankung", "Gesundheitszustand", "Diagnose", "Befund", "chronisch krank",
    "psychisch krank", "Behinderung", "Schwerbehinderung", "schwerbehindert", "GdB 50",
    "Pflegegrad", "pflegebedürftig", "Schwangerschaft", "schwanger", "Fehlgeburt", "Depression",
    "depressive Episode", "Angststörung", "Schizophrenie", "Psychose", "bipolare Störung",
    "posttraumatische Belastungsstörung", "Persönlichkeitsstörung", "Autismus", "ADHS",
    "Demenz", "Alzheimer", "Epilepsie", "Multiple Sklerose", "Parkinson", "Schlaganfall",
    "Herzinfarkt", "Krebs", "Tumor", "Leukämie", "Diabetes", "Diabetiker", "HIV", "HIV-positiv",
    "AIDS", "Hepatitis", "Tuberkulose", "Niereninsuffizienz", "Dialyse", "Asthma", "Rheuma",
    "blind", "gehörlos", "querschnittsgelähmt", "Rollstuhl", "Alkoholabhängigkeit",
    "alkoholkrank", "drogenabhängig", "heroinabhängig", "Sucht", "Entzug", "Entgiftung",
    "Substitution", "Methadon", "Therapie", "Psychotherapie", "psychiatrische Behandlung",
    "stationäre Behandlung", "Krankenhausaufenthalt", "Operation", "Chemotherapie",
    "Medikamente", "Antidepressiva", "Insulin", "Neuroleptika", "arbeitsunfähig krank",
    "Patient",
)  # fmt: skip

_SEXUALITAET = (
    "sexuelle Orientierung", "Sexualität", "Sexualleben", "sexuelle Identität", "homosexuell",
    "Homosexualität", "schwul", "lesbisch", "bisexuell", "heterosexuell",
    "gleichgeschlechtlich", "gleichgeschlechtliche Partnerschaft",
    "gleichgeschlechtliche Beziehung", "eingetragene Lebenspartnerschaft mit einem Mann",
    "transgeschlechtlich", "transsexuell", "transident", "Transfrau", "Transmann", "nichtbinär",
    "intersexuell", "divers", "queer", "Geschlechtsidentität", "Geschlechtsangleichung",
    "Geschlechtsumwandlung", "sexuelle Beziehung", "außereheliche Affäre", "Geschlechtsverkehr",
    "sexuelle Vorlieben", "Prostitution", "Sexarbeit",
)  # fmt: skip

BUILTIN_TOPICS: dict[str, Topic] = {
    t.name: t
    for t in (
        Topic(
            "herkunft", _HERKUNFT, "ethnische Herkunft, Nationalität und Hautfarbe eines Menschen"
        ),
        Topic("religion", _RELIGION, "Religion und Glaube eines Menschen"),
        Topic(
            "gesundheit",
            _GESUNDHEIT,
            "Krankheit, Behinderung und Gesundheitszustand eines Menschen",
        ),
        Topic("sexualitaet", _SEXUALITAET, "sexuelle Orientierung und Sexualleben eines Menschen"),
    )
}

#: What persons are described by that is *not* a special category: the contrast of the
#: score (a profession, an age or a role is a description of a person too).
NEUTRAL_DESCRIPTIONS = (
    "Maurer", "Rentner", "Rentnerin", "Student", "Schüler", "Angestellter", "Beamter",
    "Landwirt", "Unternehmer", "Hausfrau", "Kaufmann", "Lehrerin", "Geschäftsführer",
    "Krankenpfleger", "Ärztin", "Dolmetscherin", "Fahrer", "Handwerker", "Koch", "Verkäuferin",
    "Soldat", "Polizist", "arbeitslos", "berufstätig", "selbständig", "verheiratet", "ledig",
    "geschieden", "verwitwet", "getrennt lebend", "45 Jahre alt", "volljährig", "minderjährig",
    "jung", "älter", "Eigentümer", "Mieter", "Vermieter", "Erbe", "Gläubiger", "Schuldner",
    "Bürge", "Vorsitzender des Vereins", "Mitglied des Vorstands", "Mitglied des Gemeinderats",
    "Mitglied im Sportverein", "Gewerkschaftsmitglied", "Gesellschafter", "vorbestraft",
    "nicht vorbestraft", "zahlungsunfähig", "insolvent", "wohlhabend", "wohnhaft in München",
    "Inhaber eines Führerscheins", "Halter des Fahrzeugs", "Vater von zwei Kindern", "Mutter",
    "Alleinerziehende", "gelernter Koch", "Abitur", "Ausbildung", "Studium", "Einkommen",
    "Rente", "Arbeitslosengeld", "Bürgergeld", "Kündigung", "Arbeitsvertrag", "zuverlässig",
    "glaubwürdig", "pünktlich", "fleißig", "unter dem Baulärm", "dem Lärm der Nachbarn",
    "einer Handwerkerfamilie", "dem Jahr 2010", "Berlin", "der Hauptstraße", "Wohnung", "Auto",
    "Urlaub", "Hobby", "Fußball",
)  # fmt: skip

#: Phrases whose mean embedding is the centre the cosines are measured from.
BACKGROUND = (
    "Urteil", "Berufung", "Klage", "die Kosten des Verfahrens", "Vertrag", "Kündigung",
    "Wohnung", "Fahrzeug", "Bescheid", "Antrag", "Gericht", "Verwaltungsakt", "Schadensersatz",
    "Zeuge", "Kläger", "Beklagte", "Frist", "Zahlung", "Rechnung", "Gutachten", "Verhandlung",
    "Beweisaufnahme", "im Übrigen", "nicht begründet", "zulässig", "rechtzeitig", "schriftlich",
    "Straße", "Gebäude", "Fenster", "Auto", "Fliesen", "Kirche", "Restaurant", "Krankenkasse",
    "Behörde", "Gesetz",
)  # fmt: skip


def topic_from_spec(spec: str) -> Topic:
    """``herkunft`` (built in) or ``NAME=word,word,…`` (a user topic)."""
    name, sep, words = spec.partition("=")
    name = name.strip()
    if not sep:
        if name not in BUILTIN_TOPICS:
            raise TopicError(
                f"unknown topic {name!r}: built in are {', '.join(BUILTIN_TOPICS)}; "
                "a topic of your own is NAME=word,word,… or a YAML file"
            )
        return BUILTIN_TOPICS[name]
    return Topic(name, tuple(words.split(",")))


def load_topics(path: str | Path) -> list[Topic]:
    """Topics from a YAML (or JSON) file: ``NAME: {words: [...], centroid: ..., threshold:
    ...}`` or ``NAME: [word, ...]``; a built-in name with no words takes the built-in."""
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise TopicError(f"cannot read topics from {path}: {err}") from None
    if not isinstance(data, Mapping) or not data:
        raise TopicError(f"{path}: expected a mapping of topic names to words")
    topics = []
    for name, value in data.items():
        if value is None and name in BUILTIN_TOPICS:
            topics.append(BUILTIN_TOPICS[name])
            continue
        if isinstance(value, list):
            value = {"words": value}
        if not isinstance(value, Mapping) or not isinstance(value.get("words"), list):
            raise TopicError(f"{path}: topic {name!r} needs a list of words")
        unknown = set(value) - {"words", "centroid", "threshold"}
        if unknown:
            raise TopicError(f"{path}: topic {name!r}: unknown keys {sorted(unknown)}")
        topics.append(
            Topic(
                str(name),
                tuple(str(w) for w in value["words"]),
                value.get("centroid"),
                None if value.get("threshold") is None else float(value["threshold"]),
            )
        )
    return topics


def resolve_topics(specs: Iterable[str | Topic]) -> list[Topic]:
    """Topics from names, ``NAME=words`` specs, YAML files and :class:`Topic` objects."""
    topics: dict[str, Topic] = {}
    for spec in specs:
        if isinstance(spec, Topic):
            found = [spec]
        elif spec.endswith((".yaml", ".yml", ".json")) and "=" not in spec:
            found = load_topics(spec)
        else:
            found = [topic_from_spec(spec)]
        for topic in found:
            topics[topic.name] = topic
    if not topics:
        raise TopicError("no topic given")
    return list(topics.values())
