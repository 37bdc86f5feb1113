"""Personal circumstances (``nat-idx``) in the shapes decisions use: age, career, health,
family, studies, a side business. Spans leave articles outside; pairs are (male, female).
"""

#: One sentence on a person (``{T}``); filled by
#: :func:`hf_anon.corpora.synthetic.people.circumstances`.
CIRCUMSTANCES = (
    "{T} ist {age} und {job}.",
    "{T}, {career}, ist seit {year} ohne Arbeit.",
    "{T} ist {career} und lebt von einer kleinen Rente.",
    "{T} arbeitet als {job} bei der {employer}.",
    "{T} ist seit {year} als {job} tätig.",
    "{T} leidet seit Jahren an {health_art}{health}.",
    "{T} ist nach eigenen Angaben wegen {health_art}{health} in Behandlung.",
    "{T} betreibt nebenberuflich {side_art} {side}.",
    "{T} ist {family}.",
    "{T} ist {study}.",
    "{T}, {job}, hat die Wohnung im Internet gefunden.",
    "{T} ({age_adj}) erschien in Begleitung.",
    "{T} besitzt die {nation_noun}.",
)

#: (article in the dative, condition) after ``leidet an``.
HEALTH = (
    ("einer", "chronischen Bronchitis"),
    ("einem", "Tinnitus"),
    ("", "Migräne"),
    ("einer", "Hüftarthrose"),
    ("einer", "posttraumatischen Belastungsstörung"),
    ("", "Epilepsie"),
    ("", "Morbus Crohn"),
    ("einer", "schweren Depression"),
    ("einer", "Niereninsuffizienz"),
    ("einem", "Schleudertrauma der Halswirbelsäule"),
    ("einer", "Arthrose im linken Kniegelenk"),
    ("einer", "Angststörung"),
    ("", "Diabetes mellitus Typ 1"),
    ("einer", "Sehbehinderung"),
    ("einer", "Krebserkrankung"),
    ("einem", "Herzfehler"),
    ("einer", "Alkoholabhängigkeit"),
    ("", "chronischen Rückenschmerzen"),
    ("einer", "rheumatoiden Arthritis"),
    ("einer", "Lungenerkrankung"),
)
#: (article in the accusative, business) after ``betreibt nebenberuflich``.
SIDELINES = (
    ("eine", "Hundepension"),
    ("einen", "Kiosk"),
    ("eine", "Schafzucht"),
    ("einen", "Online-Handel mit Autoteilen"),
    ("ein", "Nagelstudio"),
    ("einen", "Hofladen"),
    ("eine", "kleine Pferdezucht"),
    ("einen", "Hausmeisterservice"),
    ("eine", "Fahrradwerkstatt"),
    ("ein", "Tattoostudio"),
    ("eine", "Ferienwohnung"),
    ("einen", "Partyservice"),
)
SUBJECTS = (
    "Informatik",
    "Rechtswissenschaften",
    "Zahnmedizin",
    "Betriebswirtschaftslehre",
    "Soziale Arbeit",
    "Maschinenbau",
    "Germanistik",
    "Physik",
)
#: Prefixes to a profession.
CAREER = (
    ("gelernter", "gelernte"),
    ("ausgebildeter", "ausgebildete"),
    ("pensionierter", "pensionierte"),
    ("ehemaliger", "ehemalige"),
    ("angestellter", "angestellte"),
    ("selbständiger", "selbständige"),
    ("arbeitsloser", "arbeitslose"),
)
#: ``{n}``: one of :data:`COUNT_WORDS`.
FAMILY = (
    ("Vater von {n} Kindern", "Mutter von {n} Kindern"),
    ("verheiratet", "verheiratet"),
    ("verwitwet", "verwitwet"),
    ("alleinerziehender Vater", "alleinerziehende Mutter"),
    ("Vater eines schwerbehinderten Sohnes", "Mutter einer schwerbehinderten Tochter"),
    ("geschieden", "geschieden"),
)
COUNT_WORDS = ("zwei", "drei", "vier", "fünf")
UNIVERSITIES = ("Universität", "Hochschule", "Technischen Hochschule")
#: ``{subject}`` from :data:`SUBJECTS`, ``{university}`` from :data:`UNIVERSITIES` and a
#: ``{town}``, ``{job}`` a profession.
STUDIES = (
    (
        "Student der {subject} an der {university} {town}",
        "Studentin der {subject} an der {university} {town}",
    ),
    ("Doktorand am Institut für {subject}", "Doktorandin am Institut für {subject}"),
    ("Auszubildender zum {job}", "Auszubildende zur {job}"),
)
#: (ending of ``sein``/``ihr`` in the dative, family detail): ``seinen zwei Kleinkindern``.
HOUSEHOLD = (
    ("en", "zwei Kleinkindern"),
    ("en", "drei Kindern"),
    ("er", "pflegebedürftigen Mutter"),
    ("em", "schwerbehinderten Sohn"),
    ("er", "schwangeren Lebensgefährtin"),
)
