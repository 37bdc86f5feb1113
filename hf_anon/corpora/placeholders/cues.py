"""Context words of the placeholder detector: what the words around a placeholder tell.

Lower case, as the detector compares them (``Herr`` → ``nat-name``, ``Rechtsanwalt`` →
``nat-jur``; after ``Anlage`` a letter is a reference, not a name). Written as
whitespace-separated text, easy to read and extend. Lists that other modules read too
live in :mod:`hf_anon.text.names` (titles) and :mod:`hf_anon.text.lexicon` (legal forms, street
suffixes, party roles).
"""

from __future__ import annotations

from hf_anon.text.names import TITLES


def _words(text: str) -> frozenset[str]:
    """A word list written as whitespace-separated text (easier to read and extend)."""
    return frozenset(text.split())


def _word_tuple(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Abbreviations made of single letters, compact or tokenized ("i.d.R.", "a. a. O.").
ABBREVIATIONS = _words(
    """
    i.d.r. a.a.o. z.b. u.a. d.h. i.v.m. m.w.n. v.a. s.o. s.u. u.u. o.g. i.s.d. i.s.v.
    i.h.v. a.f. n.f. e.v. h.m. i.e. i.ü. u.ä. o.ä. z.t. i.r.d. i.v. a.d. b.v. e.k. g.e.
    v.h. n.v. z.hd. u.s.w. d.a. a.e. e.a. m.e. m.a.w. i.s. i.a. a.a. v.a.w. i.e.s.
    i.w.s. s.d. i.s.e. i.d.f. i.d. u.v.m. s.a. a.m. a.d.o. i.br. i.h.
    """
)
# Words after which a single letter is a reference, not a name ("Anlage K 3", "Teil B").
REFERENCE_NOUNS = _words(
    """
    anl. anlage anlagen anhang ziffer ziff. buchst. buchstabe buchstaben lit. litera
    teil teile abschnitt abschn. variante typ kategorie gruppe stufe tarif spalte zeile
    position pos. punkt klasse führerscheinklasse fahrerlaubnisklasse vitamin hepatitis
    blatt bl. block bauteil modul schema muster beilage gliederungspunkt zone kapitel
    kap. band bd. fall alternative alt. nr. nummer art. artikel abs. absatz satz § §§ s.
    seite rn. rdnr. randnummer randziffer rz. fn. fußnote vgl. siehe tz. tabelle abb.
    abbildung grafik stelle schedule annex note bewertung index reihe serie stadium grad
    hausnummer baufeld bauabschnitt flur planteil gebäudeteil treppenhaus aufgang
    eingang haus sgb hilfsantrag hauptantrag hilfsanträge liste unterreihe merkmal
    merkmale figur fig. schenkel unter ziffern ° anspruch patentanspruch senat kammer
    zivilsenat strafsenat abteilung referat dezernat hilfsanträgen hauptteile hauptteil
    wert merkzeichen vokal vokale vorschlagsliste wahlvorschlag kontaktfedern
    bezugszeichen ansprüche ansprüchen klassen fahrerlaubnisklassen führerscheinklassen kanal
    channel path betrag bild beiakte beiakten begründung
    """
)
# Compounds with a single capital letter that are ordinary words, not placeholders.
LETTER_COMPOUNDS = _words(
    """
    e-mail e-mails e-mail-adresse e-mail-verkehr u-bahn s-bahn t-shirt t-shirts e-bike
    e-bikes e-auto e-autos e-scooter d-mark dm- u-haft a-klasse b-klasse c-klasse
    e-klasse g-klasse s-klasse v-klasse x-beine o-beine v-mann v-leute v-person
    v-personen x-chromosom y-chromosom h-milch k.o. a-säule b-säule c-säule b-plan
    l-förmig u-förmig t-förmig s-förmig v-förmig x-achse y-achse z-achse a-note b-note
    a-team b-ware c-teile e-commerce e-government e-justice e-learning e-post e-rechnung
    e-zigarette e-zigaretten i-punkt o-ton t-träger u-boot x-mal n-fach j-lohn k-fall
    a-lage b-lage c-lage a-level b-probe a-probe s-kurve s-pedelec d-zug g-punkt
    y-modell b-seite a-seite a-kontingent b-kontingent a-rolle b-rolle a-schein b-schein
    a-führerschein c-führerschein e-führerschein t-online o2-netz h-kennzeichen
    e-kennzeichen z-wert t-test f-gas b-movie m-v s-h b-w r-p n-w
    """
)
# Nouns before which a letter names an organization ("Firma W", "Klinik X").
ORGANIZATION_NOUNS = _words(
    """
    firma fa. klinik kliniken klinikum krankenhaus bäckerei autohaus bank sparkasse
    versicherung kanzlei praxis hotel restaurant gaststätte verein stiftung
    genossenschaft unternehmen gesellschaft konzern brauerei metzgerei apotheke
    werkstatt spedition hausverwaltung immobilien baufirma reederei fluggesellschaft
    supermarkt discounter markt kita schule pflegeheim heim arbeitgeberin arbeitgeber
    herstellerin hersteller partei zeitung sender verlag bezeichnung
    """
)
PERSON_CUES = _words(
    """
    herr herrn frau fräulein zeuge zeugen zeugin zeuginnen kläger klägerin klägers
    beklagte beklagter beklagten antragsteller antragstellerin antragsgegner
    antragsgegnerin betroffene betroffener betroffenen angeklagte angeklagter
    angeklagten beschuldigte beschuldigter eheleute familie sachbearbeiter
    sachbearbeiterin mitarbeiter mitarbeiterin geschäftsführer geschäftsführerin mutter
    vater sohn tochter ehefrau ehemann lebensgefährte lebensgefährtin sachverständige
    sachverständigen sachverständiger vorstandsmitglieder vorstand inhaber inhaberin
    mieter mieterin vermieter vermieterin nachbar nachbarin halter halterin fahrer
    fahrerin erblasser erblasserin erbe erbin kind kinder kindes bruder schwester
    großmutter großvater enkel dr. prof. dipl.-ing. med. dent. jur. rer. nat. pol. phil.
    beschwerdeführer beschwerdeführerin revisionskläger berufungskläger patient
    patientin arzt ärztin orthopäden orthopäde hausarzt gesellschafter gesellschafterin
    insolvenzschuldner schuldner schuldnerin gläubiger gläubigerin geschädigte
    geschädigten geschädigter opfer jagdpächter eigentümer eigentümerin verstorbene
    verstorbenen partner partnerin freund freundin lebenspartner lebenspartnerin namens
    genannt geborene verwitwete
    """
)
LEGAL_PROFESSION_CUES = _words(
    """
    rechtsanwalt rechtsanwältin rechtsanwälte rechtsanwälten rechtsanwalts ra rain ra'in
    notar notarin richter richterin richters vorsitzende vorsitzender vorsitzenden
    justizsekretär justizsekretärin jsekr jsekr'in justizobersekretär
    justizobersekretärin urkundsbeamter urkundsbeamtin gerichtsvollzieher
    gerichtsvollzieherin staatsanwalt staatsanwältin oberstaatsanwalt rechtspfleger
    rechtspflegerin prozessbevollmächtigter prozessbevollmächtigte
    verfahrensbevollmächtigter verfahrensbevollmächtigte gez. syndikusrechtsanwalt
    steuerberater steuerberaterin patentanwalt patentanwältin insolvenzverwalter
    insolvenzverwalterin berufsbetreuer verfahrensbeistand vorsitzenden: beisitzer
    beisitzerin schöffe schöffin bundesrichter bundesrichterin vizepräsident
    vizepräsidentin präsident präsidentin prozessbevollmächtigt verfahrensbevollmächtigt
    bevollmächtigt bevollmächtigter bevollmächtigte proz.-bev. prozessbev. bevollm.
    """
)
#: Experts of the case: court-appointed unless said otherwise, so ``nat-jur``
#: (ANNOTATION.md, "People in official roles", and decision 19); ``Gutachten des Dr. N``
#: names the same expert.
EXPERT_CUES = _words(
    """
    sachverständige sachverständigen sachverständiger sv gerichtsgutachter
    gerichtsgutachterin gutachter gutachterin gutachters
    """
)
#: Words before (or after) a mask that make it a law firm, not one lawyer: the plural
#: ``Rechtsanwälte B.`` names the firm (real gold decision 6, both placeholder keys).
LAW_FIRM_CUES = _words(
    """
    rechtsanwälte rechtsanwälten rechtsanwältinnen anwälte kanzlei anwaltskanzlei
    rechtsanwaltskanzlei sozietät anwaltssozietät anwaltsbüro rechtsanwaltsgesellschaft
    partnerschaftsgesellschaft patentanwälte steuerberater-gesellschaft
    """
)
COURT_WORDS = _words(
    """
    amtsgericht amtsgerichts landgericht landgerichts oberlandesgericht
    oberlandesgerichts sozialgericht arbeitsgericht verwaltungsgericht finanzgericht
    landessozialgericht landesarbeitsgericht oberverwaltungsgericht
    verwaltungsgerichtshof ag lg olg sg vg lsg lag ovg vgh
    """
)
CAR_CUES = _words(
    """
    kennzeichen kfz-kennzeichen amtliches amtlichen fahrzeug-identifizierungsnummer fin
    fahrgestellnummer fahrzeugidentifikationsnummer kennzeichens
    """
)
DOCKET_CUES = _words(
    """
    az. az aktenzeichen geschäftszeichen vorgangsnummer tagebuchnummer tgb.-nr. gz.
    vorgangs-nr. ordnungsnummer
    """
)
ID_CUES = _words(
    """
    vertragsnummer mitgliedsnummer mobilnummer telefon telefonnummer tel.
    festnetzanschluss rückrufnummer schadennummer schaden-nr. schadens-nr.
    schadensnummer versicherungsschein-nr. versicherungsscheinnummer versicherungsnummer
    kundennummer kunden-nr. iban konto kontonummer bic e-mail-adresse adresse rufnummer
    handynummer faxnummer fax vertrags-nr. policennummer police rechnungsnummer
    steuernummer steuer-id personalnummer ausweisnummer patentnummer markennummer
    registernummer auftragsnummer referenznummer zählernummer aktennummer patent patents
    mandantennummer sozialversicherungsnummer versichertennummer
    """
)
JUR_IDX_CUES = {"hrb", "hra", "vr", "gnr", "pr", "handelsregister", "handelsregisternummer"}
DATE_CUES = _words(
    """
    vom am seit bis ab zum von datum datiert datierte ende anfang mitte zwischen den
    frühjahr sommer herbst winter stand jahr monat monate monaten nacht abend morgen tag
    tage dem
    """
)
NAT_IDX_CUES = _words(
    """
    ist als ein eine einer eines beruf tätig war wegen sei seien staatsangehöriger
    staatsangehörige
    """
)
COORDINATION = {"und", "sowie", "oder", "bzw.", "&", "bis", "u."}
PLACE_CUES = _words(
    """
    in aus nach richtung ort stadt gemeinde ortsteil landkreis wohnhaft wohnort
    gemarkung kreis anschrift anschriften kehrbezirk bezirk stadtteil landkreise
    wohnsitz
    """
)
ADDRESS_IDX_CUES = _words(
    """
    geschoss og eg dg stockwerk etage kellerabteil stellplatz garage flurnummer
    flurstück wohnung wohnungsnummer flur-nr. fl.-nr. flurstücks flurstücke parzelle flnr.
    fl.nr. fl.nr
    """
)
HEADINGS = _words(
    """
    tatbestand entscheidungsgründe gründe sachverhalt begründung tenor rubrum
    vorbemerkung zulässigkeit begründetheit rechtsmittelbelehrung rechtsbehelfsbelehrung
    verfahrensgang prozessgeschichte einleitung sachverhalts sachstand streitstand
    zusammenfassung ergebnis
    """
)


ARTICLES = {"der", "die", "das", "den", "dem", "des"}
#: Endings of person nouns (``Kriminaloberkommissarin``, ``Sachbearbeiter``).
ROLE_ENDINGS = (
    "kommissar",
    "kommissarin",
    "angeklagte",
    "angeklagten",
    "angeklagter",
    "beamte",
    "beamter",
    "beamtin",
    "meister",
    "meisterin",
    "leiter",
    "leiterin",
    "führer",
    "führerin",
    "arzt",
    "ärztin",
    "anwalt",
    "anwältin",
    "berater",
    "beraterin",
    "bearbeiter",
    "bearbeiterin",
    "arbeiter",
    "arbeiterin",
    "inhaber",
    "inhaberin",
    "pfleger",
    "pflegerin",
    "lehrer",
    "lehrerin",
    "gehilfe",
    "gehilfin",
    "händler",
    "händlerin",
    "fahrer",
    "fahrerin",
)
#: Capitalised short words with a period that abbreviate, not shorten a name.
NOT_SHORT_NAMES = TITLES | _words(
    """
    nr. abs. art. bl. rn. ca. co. fa. hr. fr. bd. ff. vgl. gem. ggf. inkl. zzgl. abb. anm.
    aufl. bsp. bzw. fn. kap. lit. rz. tz. ziff. str. tel. fax. az. ua. zb. ug. ag. kg. mwst.
    amt. ort. tag. weg. rat. see. hof. bus. zug. arm. bau. typ. gas. eis. tür. uhr. akt. art.
    bad. berg. bund. land. geld. zeit. recht. ehe. kind. sohn. haus. süd. nord. ost. west.
    """
)
#: Beginnings of the words of a signature line (``gez.``, ``Richter am …``).
SIGNATURE_WORDS = (
    "gez",
    "richter",
    "vorsitz",
    "präsident",
    "beisitz",
    "rechtsanw",
    "notar",
    "urkundsbeamt",
    "justiz",
    "rechtspfleg",
    "dr.",
)
#: Endings that make ``X-…`` a place (``X-Stadt``, ``Y-Dorf``).
PLACE_SUFFIXES = _word_tuple(
    """
    stadt dorf heim hausen ort burg feld bach tal kirchen gemeinde kreis land bahnhof
    """
)
#: Endings that make ``X-…`` a place or an organization (``M-GmbH``, ``X-Gruppe``).
ENTITY_SUFFIXES = PLACE_SUFFIXES + _word_tuple(
    """
    gmbh ag kg gbr ohg ug eg se ewiv kag bank konzern fonds gruppe werk verlag stiftung
    verein klinik krankenhaus versicherung holding kasse sparkasse firma zentrale
    gesellschaft partei kanzlei praxis hotel schule amt ministerium behörde center
    zentrum haus markt hof brauerei immobilien bau logistik service handel kliniken bv
    partnership ltd inc sarl llp llc plc händler einzelhändler vorwahl
    """
)
#: Authorities named by their place (``Landratsamt S.``, ``Jobcenter *****``): the mask
#: after them hides the place, an ``address-name`` (real gold decisions 4 and 38).
AUTHORITY_NOUNS = _words(
    """
    landratsamt landratsamtes landratsamts jobcenter jobcenters arbeitsagentur agentur
    stadt gemeinde landkreis landkreises kreis kreises bezirksamt bezirksamts finanzamt
    finanzamts polizeiinspektion polizeipräsidium polizeidirektion polizeirevier
    staatsanwaltschaft ausländerbehörde standesamt bürgermeisteramt ordnungsamt
    stadtverwaltung gemeindeverwaltung kreisverwaltung amtsverwaltung versorgungsamt
    landespolizeiinspektion kreispolizeibehörde verbandsgemeinde samtgemeinde sta
    staatsanwaltschaften polizeibehörde kreisverband ortsverband bezirksverband
    standortverwaltung versorgungsämter landratsämter bauamt bauaufsichtsbehörde
    regierungspräsidium kreisverwaltungsreferat ausländeramt sozialamt jugendamt
    gesundheitsamt straßenverkehrsamt
    """
)
