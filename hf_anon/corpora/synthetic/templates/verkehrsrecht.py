"""Traffic cases (``verkehrsrecht``): the facts of an accident sentence by sentence, the
legal reasoning.

The fields of :data:`SENTENCES` are filled by the sentence writer of the same name in
:mod:`hf_anon.corpora.synthetic.traffic`. Fields used across the table: ``K`` the
plaintiff, ``B1`` the other driver (defendant 1), ``B2`` the insurer (defendant 2), in
the case the suffix names (``K_gen``: genitive), ``car``/``car2`` and ``plate``/``plate2``
the two vehicles.
"""

#: ``wegen …`` at the end of the rubrum.
TOPICS = ("Schadensersatz aus Verkehrsunfall", "Schadensersatzes")

#: The first sentence of the facts: ``{K}`` the plaintiff.
OPENINGS = (
    "Die Parteien streiten um Schadensersatz aus einem Verkehrsunfall.",
    "Die Parteien streiten um die Haftungsquote nach einem Verkehrsunfall.",
    "{K} macht Ansprüche aus einem Verkehrsunfall geltend.",
)

#: What the other driver did (``{B1} {manoeuvre} {K_gen}.``).
MANOEUVRES = (
    "übersah beim Linksabbiegen das entgegenkommende Fahrzeug",
    "fuhr beim Anfahren an der Ampel auf das Fahrzeug",
    "wechselte ohne auf den nachfolgenden Verkehr zu achten den Fahrstreifen und streifte das "
    "Fahrzeug",
    "missachtete die Vorfahrt und stieß gegen das Fahrzeug",
    "setzte beim Ausparken zurück und beschädigte das Fahrzeug",
)

#: The plaintiff's car's age in years.
CAR_AGES = ("zwei", "drei", "fünf", "sieben", "neun")

#: Each sentence of the facts with its wordings: the accident (``accident`` always, the
#: others mostly, in order), then the damage (``expert`` always, the others shuffled).
SENTENCES: dict[str, tuple[str, ...]] = {
    "accident": (
        "Am {when} befuhr {K} mit {poss} {car}, amtliches Kennzeichen {plate}, die "
        "{street} in {town} in Richtung {town2}.",
        "Am {day} gegen {time} kam es in {town} auf der {street} zu einem "
        "Zusammenstoß zwischen dem {car} {K_gen} (amtliches Kennzeichen {plate}) und "
        "dem {car2} {B_gen}.",
        "Der streitgegenständliche Unfall ereignete sich am {when} in {town} an der "
        "Einmündung der {street} in die {street2}.",
    ),
    "other_car": (
        "{B1} fuhr mit dem bei {B2} haftpflichtversicherten {car2}, amtliches "
        "Kennzeichen {plate2}.",
        "Halter und Fahrer des {car2} mit dem Kennzeichen {plate2} war {B1}; das "
        "Fahrzeug ist bei {B2} haftpflichtversichert.",
        "{B1} {manoeuvre} {K_gen}.",
    ),
    "vin": (
        "Das Fahrzeug {K_gen} (Fahrzeug-Identifizierungsnummer {vin}) war zum "
        "Unfallzeitpunkt {age} Jahre alt.",
        "Laut Zulassungsbescheinigung trägt der {car} die FIN {vin}.",
    ),
    "passenger": (
        "Neben {pron} saß {spouse}, {W}.",
        "Im Fahrzeug befand sich außerdem {W}.",
    ),
    "police": (
        "Die Polizei nahm den Unfall unter der Vorgangsnummer {ref} auf.",
        "Die hinzugerufenen Polizeibeamten fertigten eine Unfallmitteilung (Tagebuchnummer {ref}).",
        "Gegen {B1} wurde ein Bußgeldverfahren eingeleitet (Az. {ref}).",
    ),
    "about": (
        "{B1} ist {job} und war auf dem Weg zur Arbeit.",
        "{B1}, {nation}, besitzt seit {year} eine Fahrerlaubnis.",
    ),
    "expert": (
        "{Der} Sachverständige {E} ermittelte in {poss} Gutachten vom {date} "
        "Reparaturkosten von {amount} € netto.",
        "Nach dem Gutachten {des} Sachverständigen {E} vom {date} beträgt der "
        "Wiederbeschaffungswert {amount} €.",
    ),
    "workshop": (
        "Die Reparatur erfolgte in der Werkstatt des {shop} in {town}.",
        "Nach dem Kostenvoranschlag des {shop} vom {date} betragen die "
        "Reparaturkosten {amount} € netto.",
    ),
    "claim": (
        "{B2} zahlte am {date} unter der Schadennummer {claim} einen Betrag von {amount} €.",
        "Mit Schreiben vom {date} (Schaden-Nr. {claim}) lehnte {B2} weitere Zahlungen ab.",
        "{B2} regulierte den Schaden unter der Schadennummer {claim} nur zur Hälfte.",
    ),
    "contact": (
        "An der Unfallstelle gab {B1} {poss} Mobilnummer {phone} an.",
        "{K} übersandte die Rechnung per E-Mail an {mail}.",
        "{K} forderte Zahlung auf {possK} Konto mit der IBAN {iban}.",
        "Die Sachbearbeiterin {B2_gen}, {clerk}, war unter {phone} erreichbar.",
    ),
}

#: The claim's legal basis (``einen Anspruch aus …``).
BASIS = "§§ 7 Abs. 1, 18 Abs. 1 StVG, § 115 Abs. 1 Satz 1 Nr. 1 VVG"

#: Sentences of legal reasoning without spans.
REASONS = (
    "Wer auffährt, hat den Anschein gegen sich, den Sicherheitsabstand nicht eingehalten zu haben.",
    "Die Betriebsgefahr des klägerischen Fahrzeugs tritt hinter dem Verschulden des "
    "Unfallgegners vollständig zurück.",
    "Die Höhe des Schadens schätzt das Gericht gemäß § 287 ZPO.",
    "Die Kostenpauschale ist mit 25,00 € angemessen.",
    "Der Nutzungsausfall ist als Vermögensschaden zu ersetzen.",
    "Ein Verstoß gegen § 9 Abs. 3 StVO ist nicht erwiesen.",
    "Die Abwägung nach § 17 Abs. 1 und 2 StVG führt zur vollen Haftung der Beklagtenseite.",
)
