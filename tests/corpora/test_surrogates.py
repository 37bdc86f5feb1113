"""Surrogate values and pseudonymization: examples first, then a property test."""

from __future__ import annotations

import datetime as dt
import importlib
import random
import re
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hf_anon.corpora.placeholders import looks_like_placeholder
from hf_anon.corpora.surrogates import (
    MONTHS,
    PLATE_RE,
    VIN_RE,
    Pseudonymizer,
    SurrogateFactory,
    format_date,
    is_valid_iban,
    pseudonymize_documents,
)
from hf_anon.text.data import Document, Span, ValidationError, validate_document
from hf_anon.text.labels import DEFAULT_LABELS, Label, LabelSet
from hf_anon.text.names import NAME_LOCALES

MONTH = "(?:" + "|".join(MONTHS) + ")"


def marked(text: str, doc_id: str = "doc-1") -> Document:
    """``"Herr [A.|nat-name] wohnt …"`` → a document with a span on ``A.``."""
    spans, plain, pos = [], "", 0
    for match in re.finditer(r"\[([^\]|]+)\|([\w-]+)(?:\|(\w+))?\]", text):
        plain += text[pos : match.start()]
        spans.append(
            Span(len(plain), len(plain) + len(match.group(1)), match.group(2), match.group(3))
        )
        plain += match.group(1)
        pos = match.end()
    return Document(doc_id, plain + text[pos:], spans)


def pseudonymize(text: str, seed: int = 0, **kwargs) -> tuple[Document, list[str]]:
    out = Pseudonymizer(seed=seed).pseudonymize(marked(text), **kwargs)
    validate_document(out)
    return out, [out.span_text(s) for s in out.spans]


def first_names(gender: str) -> set[str]:
    attr = "first_names_female" if gender == "f" else "first_names_male"
    names: set[str] = set()
    for locale in NAME_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        names.update(getattr(provider, attr))
    return names


# ------------------------------------------------------------------------- factory


@pytest.fixture
def fake() -> SurrogateFactory:
    return SurrogateFactory(random.Random(7))


def test_equal_generators_give_equal_values():
    a, b = SurrogateFactory(random.Random(3)), SurrogateFactory(random.Random(3))
    assert [a.full_name() for _ in range(20)] == [b.full_name() for _ in range(20)]
    assert [a.street() for _ in range(20)] == [b.street() for _ in range(20)]


def test_ibans_are_german_grouped_in_fours_and_pass_mod_97(fake):
    for _ in range(200):
        iban = fake.iban()
        assert re.fullmatch(r"DE\d{2}( \d{4}){4} \d{2}", iban), iban
        assert is_valid_iban(iban)
    assert is_valid_iban("DE89 3704 0044 0532 0130 00")
    assert not is_valid_iban("DE88 3704 0044 0532 0130 00")


def test_plates_vins_and_postcodes_have_valid_formats(fake):
    for _ in range(300):
        plate = fake.licence_plate()
        assert PLATE_RE.fullmatch(plate), plate
        assert len(plate.replace("-", "").replace(" ", "")) <= 8
        assert VIN_RE.fullmatch(fake.vin())
        assert re.fullmatch(r"\d{5} \S.*", fake.postcode_town())
    assert fake.licence_plate("M", 2, 4).startswith("M-")


def test_german_formats_of_dates_numbers_and_dockets(fake):
    day = dt.date(2021, 3, 3)
    assert format_date(day, "long") == "3. März 2021"
    assert format_date(day, "padded") == "03.03.2021"
    assert format_date(day, "short") == "3.3.2021"
    assert format_date(day, "month") == "März 2021"
    assert re.fullmatch(r".+, \d{2}[:.]\d{2} Uhr", fake.date_text(with_time=True))
    assert re.fullmatch(r"\S.* \d+[ab]?", fake.street())
    assert re.fullmatch(r"HRB \d{3,6}", fake.register_number("HRB"))
    assert fake.register_number(legal_form="e.V.").startswith("VR ")
    assert re.fullmatch(r"(?:\+49 1|\(?01)[\d ()/-]+", fake.phone("mobile"))
    assert re.fullmatch(r"[a-z0-9.-]+@[a-z-]+\.[a-z]+", fake.email())
    assert re.fullmatch(r"\d+ [CM] \d+/21", fake.docket_number("civil", 2021))
    assert re.fullmatch(r"(?:\d+ [DC]s )?\d+ Js \d+/21", fake.docket_number("criminal", 2021))
    assert re.fullmatch(r"[IVX]+ Z[RB] \d+/19", fake.docket_number("federal", 2019))


def test_names_are_gendered_latin_and_sometimes_double(fake):
    women, men = first_names("f"), first_names("m")
    for _ in range(100):
        assert fake.first_name("f", double=False) in women
        assert fake.first_name("m", double=False) in men
    assert " " in fake.first_name("m", "tr_TR", double=True)
    assert fake.last_name(double=True).count("-") == 1
    letters = "".join(fake.full_name() for _ in range(500)).replace(" ", "").replace("-", "")
    assert all(unicodedata.name(c).startswith("LATIN") for c in letters.replace("'", ""))


def test_company_names_carry_no_legal_form(fake):
    for _ in range(100):
        name = fake.company_name()
        assert not re.search(r"\b(?:GmbH|AG|KG|e\.V\.|eG|UG|OHG)\b", name), name


# --------------------------------------------------------------- pseudonymization


def test_a_person_keeps_one_surrogate_and_an_initial_introduces_a_full_name():
    out, (first, again) = pseudonymize("Herr [A.|nat-name] klagt. Später sagte [A.|nat-name] aus.")
    given, surname = first.rsplit(" ", 1)
    assert again == surname and given and surname not in {"A.", "A"}
    assert out.text == f"Herr {first} klagt. Später sagte {surname} aus."


def test_real_names_map_part_by_part_with_genitive_and_first_name_alone():
    _, names = pseudonymize(
        "[Hans Müller|nat-name] und [Erika Müller|nat-name] streiten. [Müller|nat-name] sagt, "
        "[Müllers|nat-name] Auto sei alt. [Hans|nat-name] lacht."
    )
    hans, erika, muller, genitive, lone = names
    assert hans.split()[-1] == erika.split()[-1] == muller  # one family, one surname
    assert genitive in (muller + "s", muller + "'")
    assert lone == hans.split()[0]
    assert "Müller" not in " ".join(names) and "Hans" not in names


def test_initials_of_first_and_last_name():
    _, (full, again) = pseudonymize("Die Klägerin [H... O...|nat-name] und Frau [O...|nat-name].")
    assert len(full.split()) == 2 and full.split()[1] == again


def test_different_entities_get_different_surrogates():
    _, names = pseudonymize(
        "Die Zeugen [A.|nat-name], [B.|nat-name], [C.|nat-name] und [D.|nat-name] sagten aus."
    )
    assert len({n.split()[-1] for n in names}) == 4


@pytest.mark.parametrize(
    ("before", "gender"),
    [
        ("Herr", "m"),
        ("Herrn", "m"),
        ("Frau", "f"),
        ("der Kläger", "m"),
        ("die Klägerin", "f"),
        ("der Zeuge", "m"),
        ("die Zeugin", "f"),
        ("der Beklagte", "m"),
        ("die Beklagte", "f"),
        ("Rechtsanwältin Dr.", "f"),
    ],
)
def test_gender_follows_the_words_before_the_name(before, gender):
    names = first_names(gender)
    for seed in range(8):
        _, (name,) = pseudonymize(f"Es erschien {before} [A.|nat-name] zum Termin.", seed)
        assert name.split()[0] in names


@pytest.mark.parametrize(
    ("span", "shape"),
    [
        ("Müller", r"\S+"),  # a surname stays a surname
        ("Xxxxx", r"\S+"),
        ("Hans Müller", r"\S+ \S+"),
        ("Hans Peter Müller", r"\S+ \S+ \S+"),
        ("Ayşe Yılmaz-Berger", r"\S+ \S+-\S+"),
        ("Müller, Hans", r"\S+, \S+"),
    ],
)
def test_the_shape_of_a_name_is_kept(span, shape):
    for seed in range(5):
        _, (name,) = pseudonymize(f"Die Zeugin [{span}|nat-name] sagte aus.", seed)
        assert re.fullmatch(shape, name), name


def test_a_guessed_label_gets_a_first_name_only_with_a_cue():
    _, (plain, cued) = pseudonymize("Universität [G|unknown] und Frau [C|unknown].")
    assert " " not in plain and " " in cued


def test_judges_and_lawyers_keep_a_surname():
    _, (lawyer, judge) = pseudonymize(
        "Rechtsanwalt [F|nat-jur] und Richterin am Amtsgericht [A.|nat-jur] entschieden."
    )
    assert " " not in lawyer and " " not in judge


def test_addresses_fit_their_placeholder():
    _, (_, street, town, again, masked, kept, place) = pseudonymize(
        "[H... O...|nat-name], [X-Straße 1|address-name], [00000 Y-Stadt|address-name]; "
        "auch [X-Straße 1|address-name], […straße …|address-name], [xxxxx Regensburg|address-name]."
        " Er fuhr nach […|address-name]."
    )
    assert re.fullmatch(r"\D+ \d+[ab]?", street) and again == street
    assert re.fullmatch(r"\d{5} \D+", town)
    assert re.fullmatch(r"\D+ \d+[ab]?", masked) and masked != street
    assert re.fullmatch(r"\d{5} Regensburg", kept)
    assert not re.search(r"\d", place)


def test_a_rubrum_reads_name_street_town():
    _, (_, street, town) = pseudonymize("[A.|nat-name], […|address-name], […|address-name]\n")
    assert re.search(r"\d", street) and re.fullmatch(r"\d{5} .+", town), (street, town)


def test_dates_keep_format_and_visible_parts():
    _, (numeric, month, day, full, time) = pseudonymize(
        "Vertrag vom [xx.xx.2016|date-fact], Mängel im [… 2023|date-fact], Schreiben vom "
        "[… 2023|date-fact], Unfall am [3. März 2021, 14:30 Uhr|date-fact] gegen "
        "[14:30 Uhr|date-fact]."
    )
    assert re.fullmatch(r"\d{2}\.\d{2}\.2016", numeric)
    assert re.fullmatch(rf"{MONTH} 2023", month)
    assert re.fullmatch(rf"\d{{1,2}}\. {MONTH} 2023", day)
    assert re.fullmatch(rf"\d{{1,2}}\. {MONTH} \d{{4}}, \d{{2}}[:.]\d{{2}} Uhr", full)
    assert full != "3. März 2021, 14:30 Uhr"
    assert re.fullmatch(r"\d{2}[:.]\d{2} Uhr", time)


def test_companies_registers_and_vehicles():
    _, (firm, clinic, register, plate, vin, make) = pseudonymize(
        "Die [X|jur-name] GmbH, die [Klinik X|jur-name] und [HRB …|jur-idx]; Kennzeichen "
        "[N-XX 0000|car-idx], FIN [...|car-idx], ein [VW Golf|car-name]."
    )
    assert not re.search(r"\b(?:GmbH|AG|KG)\b", firm)
    assert clinic.startswith("Klinik ") and clinic != "Klinik X"
    assert re.fullmatch(r"HRB \d+", register)
    assert PLATE_RE.fullmatch(plate) and plate.startswith("N-")
    assert VIN_RE.fullmatch(vin)
    assert make.startswith("VW ") and make != "VW Golf"


def test_identifiers_follow_their_context():
    _, (iban, phone, mail, url, contract) = pseudonymize(
        "IBAN [DE00 0000 0000 0000 0000 00|id-number], Telefon […|id-number], an "
        "[a@x.de|id-number], unter [www.x.de|id-number], Vertragsnummer […|id-number]."
    )
    assert is_valid_iban(iban)
    assert re.fullmatch(r"(?:\+49 |\(?0)[\d ()/-]+", phone)
    assert "@" in mail and mail != "a@x.de"
    assert "." in url and "www.x.de" not in url
    assert not looks_like_placeholder(contract) and re.search(r"\d", contract)


def test_dockets_keep_their_register_and_year():
    _, (docket,) = pseudonymize("Az. [432 C 1234/21|court-docket]")
    assert re.fullmatch(r"\d+ C \d+/21", docket) and docket != "432 C 1234/21"


def test_a_surrogate_never_equals_what_it_replaces():
    doc = marked(
        "[Müller|nat-name], [Bahnhofstraße 12|address-name], [80331 München|address-name], "
        "[VW Golf|car-name], [3. März 2021|date-fact], [089 1234567|id-number]"
    )
    for seed in range(40):
        out = Pseudonymizer(seed).pseudonymize(doc)
        for old, new in zip(doc.spans, out.spans, strict=True):
            assert out.span_text(new) != doc.span_text(old)


def test_seeds_reproduce_and_documents_do_not_depend_on_each_other():
    a = marked("Herr [A.|nat-name] wohnt in der [X-Straße 1|address-name].", "a")
    b = marked("Frau [B.|nat-name] am [xx.xx.2016|date-fact].", "b")
    assert pseudonymize_documents([a, b], seed=1) == pseudonymize_documents([a, b], seed=1)
    assert pseudonymize_documents([a, b], seed=1) != pseudonymize_documents([a, b], seed=2)
    assert pseudonymize_documents([b, a], seed=1)[::-1] == pseudonymize_documents([a, b], seed=1)


def test_kept_spans_stay_verbatim_and_move():
    doc = marked("Herr [A.|nat-name] verklagt die [Y-Bank|jur-name] in [München|address-name].")
    out = Pseudonymizer().pseudonymize(doc, replace=lambda span: span.label == "nat-name")
    assert [out.span_text(s) for s in out.spans][1:] == ["Y-Bank", "München"]
    assert out.text.endswith("verklagt die Y-Bank in München.")


def test_labels_risks_and_metadata_carry_over():
    doc = marked("[A.|unknown] und [B.|nat-name|medium].")
    doc.domain, doc.meta = "mietrecht", {"source": "test"}
    out = Pseudonymizer().pseudonymize(doc)
    assert [(s.label, s.risk) for s in out.spans] == [("nat-name", "high"), ("nat-name", "medium")]
    assert (out.id, out.domain, out.meta) == ("doc-1", "mietrecht", {"source": "test"})
    assert out is not doc and doc.text == "A. und B.."


def test_a_period_swallowed_by_a_placeholder_comes_back():
    out, _ = pseudonymize("Gehört wurde die Zeugin [C.|nat-name]\nDie Klage")
    assert ".\nDie Klage" in out.text
    out, _ = pseudonymize("Die Zeugin [C.|nat-name] stimmt zu.")
    assert ". stimmt" not in out.text


def test_overlapping_spans_are_rejected():
    doc = Document("d", "Hans Müller", [Span(0, 11, "nat-name"), Span(5, 11, "nat-name")])
    with pytest.raises(ValidationError, match="overlaps"):
        Pseudonymizer().pseudonymize(doc)


def test_labels_without_surrogates_are_refused():
    labels = LabelSet((*DEFAULT_LABELS.labels, Label("person", "high", "Person", "person", "#000")))
    with pytest.raises(ValueError, match="no surrogates for label 'person'"):
        Pseudonymizer(labels=labels).pseudonymize(Document("d", "Hans", [Span(0, 4, "person")]))


def test_no_placeholder_survives_a_published_decision():
    text = (
        "In dem Rechtsstreit [Xxxxx|nat-name], [A-Straße 1|address-name], "
        "[xxxxx Regensburg|address-name]"
        " gegen [X|jur-name] GmbH, vertreten durch den Geschäftsführer [A.|nat-name], "
        "[…straße …|address-name], […|address-name]. Die Zeugin [Ｂ|nat-name] sah am "
        "[…|date-fact] um [...|date-fact] Uhr den Wagen [FÜ-XX 00|car-idx]. Frau [Yyyyy|nat-name]s "
        "Wohnung im [...|address-idx] des Anwesens. Az. [...|court-docket], Mobilnummer "
        "[...|id-number]."
    )
    _, names = pseudonymize(text)
    assert not [n for n in names if looks_like_placeholder(n)]


# ------------------------------------------------------------------------ property

WORDS = [
    "Herr",
    "Frau",
    "der",
    "Kläger",
    "wohnt",
    "in",
    "am",
    "Die",
    "Zeugin",
    "sagte",
    "GmbH",
    ".",
]
SPANS = [
    ("A.", "nat-name"),
    ("H... O...", "nat-name"),
    ("Xxxxx", "unknown"),
    ("Hans Müller", "nat-name"),
    ("Müllers", "nat-name"),
    ("F", "nat-jur"),
    ("…", "nat-jur"),
    ("X-Straße 1", "address-name"),
    ("00000 Y-Stadt", "address-name"),
    ("…", "address-name"),
    ("3. OG links", "address-idx"),
    ("xx.xx.2016", "date-fact"),
    ("… 2023", "date-world"),
    ("X", "jur-name"),
    ("HRB …", "jur-idx"),
    ("N-XX 0000", "car-idx"),
    ("VW Golf", "car-name"),
    ("432 C 1234/21", "court-docket"),
    ("Amtsgericht München", "court-name"),
    ("...", "nat-idx"),
    ("a@x.de", "id-number"),
    ("DE00 0000 0000 0000 0000 00", "id-number"),
]
SEPARATORS = [" ", ", ", "\n", ". ", "\n\n"]


@st.composite
def documents(draw) -> Document:
    text, spans = "", []
    for _ in range(draw(st.integers(1, 12))):
        if text:
            text += draw(st.sampled_from(SEPARATORS))
        if draw(st.booleans()):
            piece, label = draw(st.sampled_from(SPANS))
            spans.append(Span(len(text), len(text) + len(piece), label))
        else:
            piece = draw(st.sampled_from(WORDS))
        text += piece
    return Document("doc", text + draw(st.sampled_from(["", ".", " Ende"])), spans)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=documents(), seed=st.integers(0, 3))
def test_pseudonymized_documents_keep_structure_and_the_text_between_spans(doc, seed):
    out = Pseudonymizer(seed).pseudonymize(doc)
    validate_document(out)
    assert [s.label for s in out.spans] == [
        "nat-name" if s.label == "unknown" else s.label for s in doc.spans
    ]
    cuts = [0] + [x for s in doc.spans for x in (s.start, s.end)] + [len(doc.text)]
    new_cuts = [0] + [x for s in out.spans for x in (s.start, s.end)] + [len(out.text)]
    for k in range(0, len(cuts), 2):
        gap, new_gap = doc.text[cuts[k] : cuts[k + 1]], out.text[new_cuts[k] : new_cuts[k + 1]]
        swallowed = k > 0 and re.search(r"[^.]\.$", doc.text[cuts[k - 1] : cuts[k]])
        assert new_gap == gap or (swallowed and new_gap == "." + gap)
    for old, new in zip(doc.spans, out.spans, strict=True):
        value = out.span_text(new)
        assert value == value.strip() and value != doc.span_text(old)
        assert not looks_like_placeholder(value), value


def test_a_span_whose_shape_leaves_nothing_to_vary_still_gets_a_different_surrogate():
    from hf_anon.corpora.surrogates import Pseudonymizer
    from hf_anon.text.data import Document, Span

    text = "Az.: VU/20, erneut VU/20."
    doc = Document("d", text, [Span(5, 10, "court-docket", "medium"), Span(19, 24, "court-docket")])
    out = Pseudonymizer(seed=0).pseudonymize(doc)
    first, second = (out.text[s.start : s.end] for s in out.spans)
    assert first == second != "VU/20"


def test_each_label_has_a_registered_rule_and_a_new_label_can_get_one():
    from hf_anon.corpora.surrogates import SUPPORTED_LABELS, SURROGATES, register_surrogate

    assert set(SURROGATES) | DEFAULT_LABELS.person_labels == set(DEFAULT_LABELS.names)
    assert set(DEFAULT_LABELS.names) == SUPPORTED_LABELS
    assert not DEFAULT_LABELS.person_labels & set(SURROGATES)  # names: the name book

    labels = LabelSet((*DEFAULT_LABELS.labels, Label("kundennr", "high", "", "", "#000")))

    @register_surrogate("kundennr")
    def kundennr(doc, i):
        text, _, _ = doc.context(i)
        return doc.key(text), lambda: f"KD-{doc.factory.rng.randint(1000, 9999)}"

    try:
        doc = Document("d", "Kunde 4711, erneut 4711.", [Span(6, 10, "kundennr", "high")])
        doc.spans.append(Span(19, 23, "kundennr", "high"))
        out = Pseudonymizer(labels=labels).pseudonymize(doc)
        first, second = (out.span_text(s) for s in out.spans)
        assert re.fullmatch(r"KD-\d{4}", first) and first == second  # one entity, one value
    finally:
        del SURROGATES["kundennr"]


def test_a_name_book_with_an_injected_generator_draws_each_name_part_from_its_key():
    from hf_anon.corpora.surrogates import NameBook, SurrogateFactory
    from hf_anon.corpora.surrogates.namebook import NameMention

    def keyed(*key):  # the same part → the same generator, whatever the document
        return random.Random("\x1f".join(key))

    def mention(first, last):
        return NameMention([first], last, False, False, "m", (f"tx:{first}",), f"tx:{last}")

    one = NameBook(SurrogateFactory(random.Random(1)), rng_for=keyed)
    two = NameBook(SurrogateFactory(random.Random(2)), rng_for=keyed)
    # another person drawn first in one book must not change Müller's surrogate
    one.render(mention("Eva", "Schmidt"))
    assert one.render(mention("Hans", "Müller")) == two.render(mention("Hans", "Müller"))
    # without an injected generator, the factory's stream decides
    plain = [
        NameBook(SurrogateFactory(random.Random(seed))).render(mention("Hans", "Müller"))
        for seed in range(5)
    ]
    assert len(set(plain)) > 1
    assert all("Müller" not in name for name in plain)
