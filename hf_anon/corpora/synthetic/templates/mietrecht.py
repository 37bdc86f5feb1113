"""Tenancy cases (``mietrecht``): the kinds of case, the facts sentence by sentence, the
legal reasoning.

The fields of :data:`SENTENCES` are filled by the sentence writer of the same name in
:mod:`hf_anon.corpora.synthetic.tenancy`. Fields used across the table: ``T`` the tenant,
``L`` the landlord (as a party, in the case the sentence needs), ``date`` a date of the
facts, ``floor`` and ``cellar`` rooms of the flat (``address-idx``), ``street``,
``town``, ``pc`` (postcode and town) the flat's address (``address-name``).
"""

#: What the case is about, drawn when the cast is made; the tenant sues in ``deposit``
#: and ``reduction`` cases, the landlord in the others.
KINDS = ("rent", "eviction", "deposit", "reduction", "costs")

#: ``wegen …`` at the end of the rubrum, by kind.
TOPICS = {
    "rent": "Forderung",
    "eviction": "Räumung und Herausgabe",
    "deposit": "Rückzahlung der Mietkaution",
    "reduction": "Mietminderung",
    "costs": "Forderung aus Betriebskostenabrechnung",
}

#: The sentences of the story (after the background), by kind: names of
#: :data:`SENTENCES`, the first always written, the others mostly, in order.
STORIES = {
    "rent": ("termination", "reminder"),
    "eviction": ("termination", "reminder", "reminder"),
    "deposit": ("handover", "deposit", "deposit"),
    "reduction": ("defect", "letter", "neighbours", "letter"),
    "costs": ("billing", "reminder"),
}

#: The first sentence of the facts: ``{K}`` the plaintiff, ``{B_dat}`` the defendant.
OPENINGS = (
    "Die Parteien streiten über Ansprüche aus einem Wohnraummietverhältnis.",
    "{K} verlangt von {B_dat} Zahlung.",
    "Die Parteien sind durch einen Mietvertrag über Wohnraum verbunden.",
)

#: The flat in the contract (``{rooms}``).
FLATS = ("Zweizimmerwohnung", "Dreizimmerwohnung", "Wohnung", "Vierzimmerwohnung")

#: Defects a tenant reports, in the accusative (``rügt …``).
DEFECTS = (
    "Schimmelbildung im Schlafzimmer",
    "Feuchtigkeit an der Außenwand des Kinderzimmers",
    "einen wiederholten Ausfall der Heizung",
    "erheblichen Lärm aus der darüberliegenden Wohnung",
    "einen Wasserschaden in der Küche",
    "eine defekte Gegensprechanlage",
    "Zugluft durch undichte Fenster",
    "einen Rohrbruch im Badezimmer",
)
#: Defects as the subject of a sentence (``Ab Juli trat … auf``).
DEFECTS_NOMINATIVE = ("Schimmel", "Feuchtigkeit", "ein Wasserschaden")

#: A rent reduction, in per cent.
REDUCTIONS = ("10", "15", "20", "25", "30")

#: Each sentence of the facts with its wordings.
SENTENCES: dict[str, tuple[str, ...]] = {
    # the background, written in a shuffled order after `contract`
    "contract": (
        "Mit Mietvertrag vom {date} mietete {T} von {L} eine {rooms} im {floor} des "
        "Anwesens {street} in {town}.",
        "{T} ist seit dem {date} Mieter{in} einer {rooms} im {floor} des Anwesens {street}, {pc}.",
        "Grundlage ist ein Mietvertrag vom {date} über die im {floor} "
        "gelegene {rooms} in der {fstreet}, {pc}.",
        "Aufgrund Mietvertrags vom {date} bewohnt {T} die {rooms} im {floor} des "
        "Hauses {street} in {town}; Vermieter{lin} ist {L_nom}.",
    ),
    "extras": (
        "Zur Wohnung {verb} {things}.",
        "Mitvermietet {are} {things}.",
        "Zur Mietsache {verb} außerdem {things}.",
    ),
    "parcel": (
        "Das Anwesen ({parcel}) steht im Eigentum {L}.",
        "Das Grundstück ist im Grundbuch von {town} als {parcel} verzeichnet.",
    ),
    "registered": (
        "{L} ist {reg} eingetragen.",
        "Vermieterin ist die {name}, eingetragen {reg}.",
    ),
    "rent": (
        "Die monatliche Nettokaltmiete beträgt {rent} €, hinzu kommt eine "
        "Betriebskostenvorauszahlung von {costs} €.",
        "Vereinbart ist eine Bruttomiete von {rent} € monatlich.",
        "{T} zahlt monatlich {rent} € zuzüglich {costs} € Vorauszahlungen.",
    ),
    "number": (
        "Der Mietvertrag wird unter der Vertragsnummer {no} geführt.",
        "In der Korrespondenz verwendet {L} die Mieternummer {no}.",
    ),
    "account": (
        "Die Miete ist auf das Konto mit der IBAN {iban} zu überweisen.",
        "{T} leistete die Zahlungen auf das Konto {of} (IBAN {iban}).",
        "Als Bankverbindung nennt der Vertrag die IBAN {iban}.",
    ),
    "manager": (
        "Die Verwaltung des Anwesens obliegt der {hv}.",
        "Hausverwalterin ist die {hv}; zuständige Sachbearbeiter{in} ist {clerk}.",
        "{L} hat die {hv} mit der Verwaltung beauftragt, die unter {phone} erreichbar ist.",
    ),
    "occupant": (
        "{T} ist {job} und arbeitet im Schichtdienst.",
        "{T}, {nation}, lebt dort mit {poss} Familie.",
        "{T} bewohnt die Wohnung gemeinsam mit {kids}.",
    ),
    # the story
    "defect": (
        "Seit dem {date} rügt {T} {defect}.",
        "Ab {month} trat in der Wohnung {defect_nom} auf.",
        "Am {date} zeigte {T} {L} {defect} an.",
        "Im {month} bemerkte {T} {defect}.",
    ),
    "letter": (
        "Mit Schreiben vom {date} forderte {T} {L} zur Beseitigung bis zum {deadline} auf.",
        "Mit E-Mail vom {date} an {mail} kündigte {T} eine Minderung der Miete an.",
        "Am {date} teilte {L_nom} telefonisch unter der Nummer {phone} mit, ein "
        "Handwerker werde kommen.",
        "Eine Antwort auf das Schreiben vom {date} erhielt {T} nicht.",
    ),
    "reminder": (
        "Mit Schreiben vom {date} mahnte {L} die Rückstände an und setzte eine Frist "
        "bis zum {deadline}.",
        "{L} erinnerte {T_acc} am {date} per E-Mail an {mail} an die offenen Beträge.",
        "Eine Zahlung erfolgte auch nach der Mahnung vom {date} nicht.",
        "Am {date} wies der Hausmeister {H} {T_acc} telefonisch unter {phone} auf "
        "den Rückstand hin.",
    ),
    "handover": (
        "Das Mietverhältnis endete zum {end}; die Wohnung wurde am {date} übergeben.",
        "Nach Kündigung durch {T} gab {pron} die Wohnung am {date} zurück.",
    ),
    "deposit": (
        "Bei Mietbeginn hatte {T} eine Kaution von {amount} € geleistet.",
        "Mit Schreiben vom {date} forderte {T} die Rückzahlung der Kaution auf das "
        "Konto mit der IBAN {iban}.",
        "{L} rechnete am {date} mit angeblichen Schäden an der Küche auf.",
    ),
    "neighbours": (
        "In der Wohnung darüber wohnen seit {date} die Eheleute {h} und {w}.",
        "Die Nachbarin {wfull}, die im {floor} wohnt, bestätigte die Geräusche.",
        "Der Nachbar {hfull} hörte nach eigenen Angaben am {noise} gegen {time} laute Musik.",
    ),
    "termination": (
        "Die Mieten für die Monate {m1} bis {m2} zahlte {T} nicht.",
        "Mit Schreiben vom {date} kündigte {L} das Mietverhältnis fristlos wegen Zahlungsverzugs.",
        "Von {m1} bis {m2} minderte {T} die Miete um {pct} %.",
    ),
    "billing": (
        "Mit der Betriebskostenabrechnung vom {date} für den Zeitraum {a} bis {b} "
        "forderte {L} eine Nachzahlung von {amount} €.",
        "Die Abrechnung über die Betriebskosten für das Jahr {year} ging {T_dat} am {date} zu.",
    ),
}

#: The claim's legal basis (``einen Anspruch aus …``).
BASIS = "§ 535 Abs. 2 BGB"

#: Sentences of legal reasoning without spans (statutes, abbreviations and annex
#: references look like placeholders but are none: seed 000, appendix A.1).
REASONS = (
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
)
