"""Word tables of the surrogates: what realistic German values are drawn from.

Data only (the code that draws is :class:`~hf_anon.corpora.surrogates.factory.SurrogateFactory`).
Tables for *reading* text live elsewhere: name lexicons in :mod:`hf_anon.text.names`, legal
forms and street suffixes as they appear in decisions in :mod:`hf_anon.text.lexicon`.
"""

from __future__ import annotations

import re


def _items(text: str) -> tuple[str, ...]:
    """A comma-separated word list (keeps the tables below short to read)."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


GENDERS = ("f", "m")

MONTHS = _items(
    "Januar, Februar, März, April, Mai, Juni, Juli, August, September, Oktober, November, Dezember"
)
#: Date formats of German decisions: ``long`` 3. März 2021, ``padded`` 03.03.2021,
#: ``short`` 3.3.2021, ``month`` März 2021.
DATE_STYLES = ("long", "padded", "short")

STREETS = _items(
    "Hauptstraße, Bahnhofstraße, Schulstraße, Gartenstraße, Dorfstraße, Bergstraße, "
    "Kirchstraße, Waldstraße, Ringstraße, Friedhofstraße, Mühlweg, Lindenstraße, Poststraße, "
    "Marktplatz, Am Anger, Am Markt, Am Bach, Am Sportplatz, Am Mühlbach, Im Winkel, "
    "Im Wiesengrund, An der Kirche, An der Mühle, Zum Sportplatz, Hinter den Gärten, "
    "Alte Dorfstraße, Neue Straße, Obere Hauptstraße, Untere Bachgasse, Kapellenweg, "
    "Schillerstraße, Goethestraße, Beethovenstraße, Mozartstraße, Kantstraße, Uhlandstraße, "
    "Friedrich-Ebert-Straße, Konrad-Adenauer-Straße, Max-Planck-Straße, Robert-Koch-Straße, "
    "Industriestraße, Gewerbestraße, Feldstraße, Wiesenstraße, Talstraße, Sonnenstraße, "
    "Breite Straße, Lange Straße, Kurze Gasse, Königstraße, Schloßstraße, Burgstraße, "
    "Rathausplatz, Kirchplatz, Parkstraße, Rosenweg, Am Stadtpark, Auf der Höhe, "
    "Unter den Linden, Hohe Straße"
)
STREET_ROOTS = _items(
    "Ahorn, Birken, Buchen, Eichen, Erlen, Linden, Kastanien, Tannen, Fichten, Rosen, "
    "Tulpen, Flieder, Nelken, Wiesen, Garten, Mühlen, Brunnen, Sonnen, Feld, Wald, Berg, "
    "Bach, Kirch, Schul, Lerchen, Amsel, Finken, Drossel, Hasel, Holunder"
)
#: Endings of generated street names (``Lindenweg``), repeated by how often to draw them.
STREET_ENDINGS = ("straße", "straße", "weg", "weg", "gasse", "ring", "allee", "steig", "pfad")
DISTRICTS = _items(
    "Altstadt, Innenstadt, Nordstadt, Südstadt, Weststadt, Oststadt, Neustadt, Haidhausen, "
    "Schwabing, Gostenhof, Sendling, Bogenhausen, Giesing, Eimsbüttel, Ehrenfeld, "
    "Sachsenhausen, Bockenheim, Linden, Gaarden, Plagwitz, Connewitz, Neustadt-Süd, Am Hart, "
    "Lichtenberg, Pankow, Wedding, Bornheim, Mühlburg, Wöhrd, Gaustadt, Wunderburg, "
    "Kirchheim, Oberdorf, Unterdorf, Heidenheim, Hochfeld"
)
#: Seats of Landgerichte (``Landgericht München I``) and Oberlandesgerichte.
LANDGERICHTE = _items(
    "Berlin, Hamburg, München I, München II, Köln, Frankfurt am Main, Stuttgart, Düsseldorf, "
    "Dortmund, Essen, Bremen, Leipzig, Dresden, Hannover, Nürnberg-Fürth, Duisburg, Bochum, "
    "Wuppertal, Bielefeld, Bonn, Münster, Mannheim, Karlsruhe, Augsburg, Wiesbaden, "
    "Mönchengladbach, Aachen, Braunschweig, Kiel, Chemnitz, Halle, Magdeburg, Freiburg, "
    "Krefeld, Lübeck, Erfurt, Mainz, Rostock, Kassel, Potsdam, Saarbrücken, Regensburg, "
    "Würzburg, Bamberg, Bayreuth, Coburg, Hof, Ansbach, Passau, Landshut, Traunstein, "
    "Kempten, Memmingen, Ingolstadt, Darmstadt, Gießen, Hanau, Fulda, Koblenz, Trier, "
    "Frankenthal, Kaiserslautern, Osnabrück, Oldenburg, Göttingen, Hildesheim, Lüneburg, "
    "Stade, Verden, Detmold, Paderborn, Hagen, Siegen, Arnsberg, Kleve"
)
OBERLANDESGERICHTE = _items(
    "München, Nürnberg, Bamberg, Frankfurt am Main, Köln, Düsseldorf, Hamm, Celle, "
    "Oldenburg, Stuttgart, Karlsruhe, Zweibrücken, Koblenz, Dresden, Naumburg, Jena, "
    "Rostock, Schleswig, Bremen, Braunschweig, Saarbrücken"
)
#: Legal forms of generated companies, weighted by how often to draw them.
LEGAL_FORM_WEIGHTS: dict[str, float] = {
    "GmbH": 45,
    "GmbH & Co. KG": 12,
    "AG": 8,
    "UG (haftungsbeschränkt)": 6,
    "KG": 5,
    "e.V.": 5,
    "eG": 4,
    "OHG": 3,
    "e.K.": 2,
    "PartG mbB": 2,
    "SE": 1,
}
#: Register (``HRB 123456``) by legal form.
REGISTER_PREFIX = {
    "GmbH": "HRB",
    "AG": "HRB",
    "UG (haftungsbeschränkt)": "HRB",
    "SE": "HRB",
    "GmbH & Co. KG": "HRA",
    "KG": "HRA",
    "OHG": "HRA",
    "e.K.": "HRA",
    "e.V.": "VR",
    "eG": "GnR",
    "PartG mbB": "PR",
}
COMPANY_WORDS = _items(
    "Immobilien, Hausverwaltung, Wohnbau, Grundbesitz, Bau, Transporte, Logistik, "
    "Gebäudeservice, Haustechnik, Elektro, Sanitär, Dachdeckerei, Handel, Consulting, "
    "Vermögensverwaltung, Projektentwicklung"
)
BRAND_WORDS = _items(
    "Nordstern, Sonnenhof, Lindenhof, Alpenblick, Rheinland, Mainufer, Isartal, Frankonia, "
    "Bavaria, Westfalia, Saxonia, Hanseatic, Aurora, Vitalis, Optima, Primus, Merkur, "
    "Kompass, Eichenhof, Waldblick"
)
INSURER_REGIONS = _items(
    "Hanseatische, Rheinische, Fränkische, Westfälische, Badische, Schwäbische, "
    "Norddeutsche, Süddeutsche, Mitteldeutsche, Allgemeine, Deutsche, Pfälzische"
)
INSURER_WORDS = _items(
    "Versicherung, Kraftfahrtversicherung, Haftpflichtversicherung, "
    "Versicherungsgesellschaft, Assekuranz"
)
CAR_MODELS: dict[str, tuple[str, ...]] = {
    "VW": _items("Golf, Polo, Passat, Tiguan, Touran, T-Roc, Up, Caddy, ID.3"),
    "BMW": _items("320d, 118i, 520d, X1, X3, X5, i3, 330i"),
    "Mercedes-Benz": _items("C 200, E 220 d, A 180, B 200, GLC 300, Sprinter, Vito"),
    "Audi": _items("A3, A4 Avant, A6, Q3, Q5, A1"),
    "Opel": _items("Astra, Corsa, Insignia, Zafira, Mokka, Meriva"),
    "Ford": _items("Focus, Fiesta, Mondeo, Kuga, Transit, Puma"),
    "Skoda": _items("Octavia, Fabia, Superb, Kodiaq, Yeti"),
    "Seat": _items("Leon, Ibiza, Ateca, Arona"),
    "Renault": _items("Clio, Megane, Kangoo, Captur, Zoe"),
    "Toyota": _items("Yaris, Corolla, Auris, RAV4, Aygo"),
    "Hyundai": _items("i30, i20, Tucson, Kona"),
    "Kia": _items("Ceed, Picanto, Sportage, Rio"),
    "Fiat": _items("500, Panda, Punto, Doblo, Ducato"),
    "Peugeot": _items("208, 308, 3008, Partner"),
    "Citroën": _items("C3, C4, Berlingo"),
    "Mazda": _items("CX-5, Mazda3, MX-5, Mazda6"),
    "Dacia": _items("Duster, Sandero, Logan"),
    "Volvo": _items("XC60, V60, V40, XC90"),
    "Tesla": _items("Model 3, Model Y"),
    "Porsche": _items("Cayenne, 911 Carrera, Macan"),
    "Mini": _items("Cooper, One, Countryman"),
    "Nissan": _items("Micra, Qashqai, Juke"),
}
#: World manufacturer identifiers (first three VIN characters) of common makes.
VIN_PREFIXES = ("WVW", "WV1", "WBA", "WDD", "WDB", "WAU", "W0L", "WF0", "TMB", "VSS", "VF1")
VIN_ALPHABET = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
#: District codes of German licence plates (a selection of real ones).
PLATE_CODES = _items(
    "A, B, BA, BAD, BB, BC, BI, BK, BM, BN, BO, BT, BZ, C, CB, CE, CO, CW, D, DA, DAH, DD, "
    "DE, DEG, DN, DO, DU, E, EBE, ED, EI, EM, EN, ER, ES, F, FB, FD, FFB, FN, FR, FS, FÜ, G, "
    "GAP, GE, GI, GL, GM, GÖ, GP, GR, GS, GT, H, HA, HAM, HB, HD, HE, HF, HG, HH, HI, HL, "
    "HM, HN, HO, HRO, HS, HU, IN, J, K, KA, KE, KF, KI, KL, KN, KO, KR, KS, L, LA, LB, LD, "
    "LG, LI, LIP, LU, M, MA, MB, MD, ME, MG, MH, MI, MK, MM, MN, MR, MS, MZ, N, NB, ND, NE, "
    "NEA, NES, NEW, NM, NU, OA, OB, OD, OF, OG, OH, OL, OS, PA, PAF, PB, PF, PI, PM, R, RA, "
    "RD, RE, REG, RO, RT, RV, S, SB, SE, SHA, SI, SK, SL, SM, SN, SO, SP, ST, STA, SU, SW, "
    "TBB, TF, TÖL, TR, TS, TÜ, UL, V, VK, W, WAF, WEN, WES, WI, WN, WOB, WT, WÜ, WUN, Z, ZW"
)
PLATE_RE = re.compile(r"[A-ZÄÖÜ]{1,3}-[A-Z]{1,2} [1-9]\d{0,3}[EH]?")
VIN_RE = re.compile(r"[A-HJ-NPR-Z0-9]{17}")
LANDLINE_PREFIXES = _items(
    "030, 040, 089, 069, 0221, 0211, 0711, 0911, 0951, 0341, 0351, 0511, 0421, 0201, 0231, "
    "0621, 0761, 0821, 0941, 0931, 0921, 0851, 0871, 06221, 07071, 08031, 09281, 04131, "
    "05251, 02241, 0731, 0681"
)
MOBILE_PREFIXES = _items(
    "0151, 0152, 0157, 0159, 0160, 0162, 0163, 0170, 0171, 0172, 0173, 0175, 0176, 0177, 0178, 0179"
)
MAIL_DOMAINS = _items(
    "gmx.de, web.de, t-online.de, gmail.com, outlook.de, posteo.de, mail.de, freenet.de, "
    "icloud.com, yahoo.de"
)
NATIONALITIES = _items(
    "türkisch, polnisch, italienisch, rumänisch, kroatisch, syrisch, griechisch, bulgarisch, "
    "ukrainisch, russisch, serbisch, kosovarisch, österreichisch, ungarisch, afghanisch, "
    "irakisch, spanisch, portugiesisch, französisch, niederländisch, amerikanisch, bosnisch, "
    "albanisch, vietnamesisch"
)
#: Professions as (male, female) forms.
PROFESSIONS = tuple(
    tuple(pair.split("/"))
    for pair in _items(
        "Altenpfleger/Altenpflegerin, Bankkaufmann/Bankkauffrau, Busfahrer/Busfahrerin, "
        "Elektriker/Elektrikerin, Erzieher/Erzieherin, Fachinformatiker/Fachinformatikerin, "
        "Friseur/Friseurin, Kfz-Mechatroniker/Kfz-Mechatronikerin, "
        "Krankenpfleger/Krankenpflegerin, Lehrer/Lehrerin, Lagerist/Lageristin, "
        "Oberarzt am Klinikum/Oberärztin am Klinikum, Polizeibeamter/Polizeibeamtin, "
        "Rentner/Rentnerin, Schreiner/Schreinerin, Softwareentwickler/Softwareentwicklerin, "
        "Steuerberater/Steuerberaterin, Student/Studentin, Taxifahrer/Taxifahrerin, "
        "Verkäufer/Verkäuferin, Versicherungsvertreter/Versicherungsvertreterin, "
        "Zahnarzt/Zahnärztin, selbständiger Handwerksmeister/selbständige Handwerksmeisterin, "
        "Hausmeister/Hausmeisterin, Koch/Köchin, Architekt/Architektin, "
        "Berufskraftfahrer/Berufskraftfahrerin, Industriemechaniker/Industriemechanikerin, "
        "Pflegehelfer/Pflegehelferin, Physiotherapeut/Physiotherapeutin, "
        "Sachbearbeiter bei der Stadtverwaltung/Sachbearbeiterin bei der Stadtverwaltung, "
        "Landwirt/Landwirtin"
    )
)
HEALTH_CONDITIONS = _items(
    "Bandscheibenvorfall, Multiple Sklerose, Depression, Diabetes mellitus Typ 2, "
    "Asthma bronchiale, Schleudertrauma, Gehbehinderung, Herzinsuffizienz, Rheuma, Tinnitus"
)
FLOORS = ("EG", "1. OG", "2. OG", "3. OG", "4. OG", "5. OG", "DG", "UG")
FLOOR_WORDS = {
    "EG": "Erdgeschoss",
    "DG": "Dachgeschoss",
    "UG": "Untergeschoss",
}
POSITIONS = ("links", "rechts", "Mitte", "links", "rechts")

#: Faker's de_DE towns that are no towns (districts, typos).
ODD_TOWNS = frozenset({"Leipziger Land", "Neustadtner Waldnaab", "Main-Höchst", "Griesbach Rottal"})
#: Kinds of courts a ``court-name`` surrogate keeps (``Arbeitsgericht X`` → ``Arbeitsgericht Y``).
COURT_KINDS = (
    "Amtsgericht",
    "Landgericht",
    "Oberlandesgericht",
    "Arbeitsgericht",
    "Landesarbeitsgericht",
    "Sozialgericht",
    "Verwaltungsgericht",
    "Finanzgericht",
)
#: A legal form right after a company span (``X GmbH``): the span is the name alone.
LEGAL_FORM_AFTER = re.compile(
    r"\s*(?:GmbH|gGmbH|AG|e\.\s?V\.|eG|UG|KG|OHG|mbH|PartG|SE|e\.\s?K\.|Ltd\.?|Inc\.?|& Co\.?)\b"
)
