"""What every decision says, whatever its domain: header, rubrum, tenor, requests,
evidence, reasons, instructions on remedies, signature.

Filled by the sections in :mod:`hf_anon.corpora.synthetic.frame`; tuples are wordings one
is drawn from.
"""

# --- header

#: ``{court}`` the court, ``{docket}`` this case's docket number.
HEADERS = (
    "{court}\n\nAz.: {docket}\n\n",
    "{court}\nAktenzeichen: {docket}\n\n",
    "Abschrift\n\n{court}\nGeschäftsnummer: {docket}\n\n",
    "Az. {docket}\n{court}\n\n",
    "{court}\n- Abteilung für Zivilsachen -\nAz.: {docket}\n\n",
)
#: The clerk's note in the header; ``{in}``: ``in`` or ``er`` (Urkundsbeamtin/-beamter).
PROMULGATION_HEADER = (
    "Verkündet am {date}\n{clerk}, {rank}\nals Urkundsbeamt{in} der Geschäftsstelle\n\n"
)
FORMULAS = ("IM NAMEN DES VOLKES", "Im Namen des Volkes", "IM NAMEN DES VOLKES")
#: The clerk's rank, spelt out or abbreviated, by gender.
CLERK_RANKS = {
    "f": ("Justizsekretärin", "JSekr'in", "JOSekr'in", "Justizbeschäftigte"),
    "m": ("Justizsekretär", "JSekr", "JOSekr", "Justizbeschäftigter", "JAng"),
}

# --- rubrum

RUBRUM_OPENINGS = ("In dem Rechtsstreit\n\n", "In Sachen\n\n", "In dem Rechtsstreit\n")
COUNSEL_HEADINGS = ("Prozessbevollmächtigte", "Prozessbevollmächtigter")
#: After ``Rechtsanwälte Müller & Schmidt``.
FIRM_SUFFIXES = (" PartG mbB", " & Partner mbB", " Rechtsanwälte PartG mbB", "")
#: Which register a company's register number is in, by its prefix.
REGISTERS = {
    "VR": "Vereinsregister",
    "GnR": "Genossenschaftsregister",
    "PR": "Partnerschaftsregister",
}
#: ``{court}``, ``{judge}`` (``den Richter am Amtsgericht Dr. Müller``), the dates of the
#: ``{hearing}`` and the ``{judgment}``.
INTROS = (
    "erlässt das {court} durch {judge} auf Grund der mündlichen Verhandlung vom "
    "{hearing} am {judgment} folgendes\n\nEndurteil",
    "hat das {court} durch {judge} auf die mündliche Verhandlung vom {hearing} für Recht erkannt:",
    "erkennt das {court} durch {judge} im schriftlichen Verfahren gemäß § 495a ZPO "
    "am {judgment} für Recht:",
    "hat das {court} durch {judge} aufgrund der mündlichen Verhandlung vom {hearing} "
    "am {judgment}\n\nfür Recht erkannt:",
)

# --- tenor

#: ``{subject}`` the defendant(s) ``wird``/``werden``, ``{winner}`` the plaintiff, the
#: interest ``{since}`` a date or ``Rechtshängigkeit``.
PAYMENT = (
    "{subject} verurteilt, an {winner} {amount} € nebst Zinsen {hieraus}in Höhe von "
    "{pp} Prozentpunkten über dem Basiszinssatz seit {since} zu zahlen."
)
#: Percentage points over the base rate (5 for consumers, 9 between businesses).
INTEREST_POINTS = ("5", "5", "9")
EVICTION = (
    "{Der} wird verurteilt, die Wohnung im {floor} des Anwesens {street}, {town}, "
    "bestehend aus {rooms} Zimmern, Küche, Bad und Flur{cellar}, zu räumen und an "
    "{K} herauszugeben."
)
ROOM_COUNTS = ("zwei", "drei", "vier", "zweieinhalb")
DISMISSAL = "Im Übrigen wird die Klage abgewiesen."
#: ``{loser}`` the defendant(s), ``{winner}`` the plaintiff; ``{carry}`` and ``{have}``
#: agree with the loser (``trägt``/``tragen``, ``hat``/``haben``).
COSTS = (
    "{loser} {carry} die Kosten des Rechtsstreits.",
    "Die Kosten des Rechtsstreits {have} {loser} zu tragen.",
    "Von den Kosten des Rechtsstreits haben {winner} 1/4 und {loser} 3/4 zu tragen.",
    "Die Kosten des Rechtsstreits werden gegeneinander aufgehoben.",
)
ENFORCEABILITY = (
    "Das Urteil ist vorläufig vollstreckbar.",
    "Das Urteil ist gegen Sicherheitsleistung in Höhe von 110 % des jeweils zu "
    "vollstreckenden Betrages vorläufig vollstreckbar.",
    "Das Urteil ist vorläufig vollstreckbar. Der Beklagtenseite wird nachgelassen, "
    "die Vollstreckung durch Sicherheitsleistung in Höhe von 110 % abzuwenden.",
)
AMOUNT_IN_DISPUTE = "Der Streitwert wird auf {amount} € festgesetzt."

# --- facts: headings, requests, evidence

#: The heading of the facts: usually ``Tatbestand``, else ``Gründe`` with a first part.
FACTS_HEADINGS = ("Tatbestand\n\n", "Gründe\n\nI.\n\n")
#: ``{K}`` the plaintiff, ``{obj}`` the defendant(s) in the accusative, ``{K_acc}`` the
#: plaintiff again (a pronoun or the role).
REQUEST = (
    "{K} {verb},\n{obj} zu verurteilen, an {K_acc} {amount} € nebst Zinsen in Höhe von "
    "5 Prozentpunkten über dem Basiszinssatz seit Rechtshängigkeit zu zahlen.\n\n"
)
REQUEST_DISMISSAL = "{B} {verb},\ndie Klage abzuweisen."
#: ``{ws}`` the witnesses in the genitive, ``{ws_acc}`` the first in the accusative.
EVIDENCE = (
    "Das Gericht hat Beweis erhoben durch Vernehmung {ws}.",
    "Das Gericht hat {ws_acc} uneidlich vernommen.",
    "Es wurde Beweis erhoben durch Vernehmung {ws}. Wegen des Ergebnisses wird auf das "
    "Protokoll vom {hearing} verwiesen.",
)
#: ``{B}`` the defendant(s) in the dative.
SERVICE = (
    " Die Klage ist {B} am {service} zugestellt worden.",
    " Die Klageschrift ging am {filing} bei Gericht ein und wurde {B} am {service} zugestellt.",
    "\n\nDie Klage wurde am {service} zugestellt.",
)

# --- reasons

REASONS_HEADINGS = ("Entscheidungsgründe\n\n", "Entscheidungsgründe:\n\n", "II.\n\n")
REASONS_OPENINGS = (
    "Die zulässige Klage ist begründet.",
    "Die zulässige Klage ist teilweise begründet.",
    "Die Klage ist zulässig und überwiegend begründet.",
)
#: ``{K}`` the plaintiff, ``{B_acc}`` the defendant, ``{basis}`` the domain's ``BASIS``.
CLAIM = "I. {K} hat gegen {B_acc} einen Anspruch aus {basis}. "
#: Sentences of legal reasoning without spans, in every domain (after the domain's own).
REASONS = (
    "Der Anspruch ist auch nicht verjährt (§ 195 BGB).",
    "Weitere Ansprüche bestehen nicht; insoweit war die Klage abzuweisen.",
    "Auf die zwischen den Parteien streitige Frage kommt es danach nicht mehr an.",
    "Die Darlegungs- und Beweislast liegt insoweit bei der Klagepartei.",
    "Dem Beweisangebot war nicht nachzugehen, weil die Tatsache als wahr unterstellt "
    "werden kann (vgl. Zöller/Greger, ZPO, § 284 Rn. 4, a.a.O.).",
    "Der nicht nachgelassene Schriftsatz gibt keinen Anlass, die mündliche Verhandlung "
    "wiederzueröffnen (§ 156 ZPO).",
)
#: How the court weighs a witness: ``{W}``/``{W_gen}`` the witness, ``{B}`` the defendant.
WITNESS_ASSESSMENTS = (
    "Das Gericht ist aufgrund der glaubhaften Aussage {W_gen} davon überzeugt, "
    "dass sich der Sachverhalt wie vorgetragen ereignet hat.",
    "{W} hat ruhig und ohne erkennbare Belastungstendenz ausgesagt.",
    "Nach der Vernehmung {W_gen} steht fest, dass {B} die Pflichtverletzung begangen hat.",
)
#: A witness's account, with the genitive of a known surname (``Müllers Schilderung``).
WITNESS_ACCOUNTS_GENITIVE = (
    "{gen} Schilderung war detailreich und in sich stimmig.",
    "{gen} Angaben decken sich mit den vorgelegten Lichtbildern (Anl. K 3).",
)
#: The same without the genitive: ``{W_gen}`` ``des Zeugen Müller``, ``{herr}``
#: ``Herr Müller``.
WITNESS_ACCOUNTS = (
    "Die Schilderung {W_gen} war detailreich und in sich stimmig.",
    "Soweit {herr} bekundet hat, sich an Einzelheiten nicht mehr zu erinnern, "
    "spricht dies nicht gegen die Glaubhaftigkeit (vgl. BGH, a.a.O.).",
)
#: Cited decisions: (court, kind of decision, register of the docket).
CITED = (
    ("BGH", "Urteil", "VIII ZR"),
    ("BGH", "Beschluss", "VIII ZR"),
    ("BGH", "Urteil", "VI ZR"),
    ("BGH", "Urteil", "XII ZR"),
    ("OLG München", "Urteil", "10 U"),
    ("LG Berlin", "Urteil", "67 S"),
)
#: A citation in running text (no spans): the decision's date as ``{padded}`` 03.03.2021
#: or ``{short}`` 3.3.2021, a marginal number ``{rn}``, a ``{page}``.
CITATIONS = (
    "Dies entspricht der ständigen Rechtsprechung ({court}, {kind} vom {padded} – {docket}).",
    "Insoweit gilt nichts anderes (vgl. {court}, {kind} vom {short} – {docket}, juris Rn. {rn}).",
    "Das ist i.d.R. der Fall (vgl. {court}, {kind} vom {padded} – {docket}, S. {page} ff.).",
)
INTEREST_REASONS = (
    "II. Der Zinsanspruch folgt aus §§ 286, 288 Abs. 1 BGB.",
    "II. Der Zinsanspruch ergibt sich aus §§ 291, 288 Abs. 1 BGB.",
)
COST_REASONS = (
    "III. Die Kostenentscheidung beruht auf § 91 ZPO, die Entscheidung über die "
    "vorläufige Vollstreckbarkeit auf §§ 708 Nr. 11, 711, 713 ZPO.",
    "III. Die Nebenentscheidungen beruhen auf §§ 92 Abs. 1, 708 Nr. 11, 711 ZPO.",
)

# --- instructions on remedies, signature

REMEDY_HEADING = "Rechtsbehelfsbelehrung:\n\n"
#: ``{lg}``/``{lg2}``: the court of appeal.
REMEDIES = (
    "Gegen die Entscheidung kann das Rechtsmittel der Berufung eingelegt werden. Die "
    "Berufung ist nur zulässig, wenn der Wert des Beschwerdegegenstandes 600 Euro "
    "übersteigt oder das Gericht die Berufung zugelassen hat. Die Berufung ist binnen "
    "einer Notfrist von einem Monat bei dem {lg} einzulegen.",
    "Diese Entscheidung kann mit der Berufung angefochten werden. Sie ist innerhalb "
    "einer Notfrist von einem Monat bei dem\n\n{lg}\n\neinzulegen. Die Frist beginnt "
    "mit der Zustellung der vollständigen Entscheidung.",
    "Gegen dieses Urteil ist die Berufung zum {lg} statthaft, wenn der Wert des "
    "Beschwerdegegenstandes 600 Euro übersteigt. Die Berufung muss binnen eines "
    "Monats schriftlich bei dem {lg2} eingelegt werden.",
)
#: ``{judge}`` the judge's name, ``{role}`` ``Richter(in) am Amtsgericht``.
SIGNATURES = (
    "{judge}\n{role}",
    "gez. {judge}\n{role}",
    "{role}\n\n{judge}",
    "{judge}, {role}",
)
PROMULGATION_SIGNATURE = "\n\nVerkündet am {date}\n{clerk}, {rank}"
