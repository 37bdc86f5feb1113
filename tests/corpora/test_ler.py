"""LER import: CoNLL and raw TimeML reading, detokenization, mapping, placeholders, script.

All data here is invented in LER's style (tokenized, one ``token TAG`` a line); nothing
comes from the real corpus. Sentences are written with ``{tokens}CLASS`` for mentions:
``Herr {G.}PER`` is ``Herr O`` / ``G. B-PER``.
"""

from __future__ import annotations

import importlib.util
import json
import re
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.corpora.corpus import load_corpus
from hf_anon.corpora.ler import (
    LER_CLASS_MAPPING,
    LER_CLASSES,
    Anomalies,
    LerSentence,
    Mention,
    convert_sentence,
    decision_ends,
    detokenize,
    group_sentences,
    ler_documents,
    ler_placeholder_key,
    locate_sentences,
    map_mention,
    parse_timex_line,
    pseudonymize_ler,
    read_conll,
    read_raw_lines,
    read_raw_timex,
)
from hf_anon.corpora.placeholders import is_placeholder_mention, placeholder_parts
from hf_anon.text.data import load_jsonl, validate_document

ROOT = Path(__file__).resolve().parents[2]


def annotated(sentence: str) -> list[tuple[str, str]]:
    """``"in {X}ST ."`` → ``[("in", "O"), ("X", "B-ST"), (".", "O")]``."""
    pairs: list[tuple[str, str]] = []
    for match in re.finditer(r"\{([^}]*)\}([A-Z]+)|(\S+)", sentence):
        if match.group(3):
            pairs.append((match.group(3), "O"))
        else:
            tokens = match.group(1).split()
            cls = match.group(2)
            pairs += [(t, ("B-" if i == 0 else "I-") + cls) for i, t in enumerate(tokens)]
    return pairs


def conll_text(*sentences: str, newline: str = "\n") -> str:
    blocks = ["".join(f"{t} {tag}{newline}" for t, tag in annotated(s)) for s in sentences]
    return newline.join(blocks) + newline


def sentence(text: str) -> LerSentence:
    pairs = annotated(text)
    return LerSentence([t for t, _ in pairs], [tag for _, tag in pairs], "test.conll")


def spans_of(text: str) -> list[tuple[str, str]]:
    converted = convert_sentence(sentence(text))
    return [(converted.text[s.start : s.end], s.label) for s in converted.spans]


PARTY = "Der Kläger , Herr {G.}PER , wohnt in der {A-Straße}STR in {X}ST ."
COMPANY = "Die {X GmbH}UN hat gegen das Urteil des {Landgerichts Kleve}GRT Revision eingelegt ."
STATUTE = "Gemäß {§ 8 Abs. 2 MarkenG}GS ist die Marke {„ NIVONA “}MRK nicht schutzfähig ."
LAWYER = "{Rechtsanwalt K …}AN vertrat die Beklagte in {München}ST ."
JUDGE = "{Schmidt}RR"


# --- reading CoNLL --------------------------------------------------------------------


def test_a_conll_file_reads_into_sentences_with_tags_and_their_origin(tmp_path):
    path = tmp_path / "ler_dev.conll"
    path.write_bytes(conll_text(PARTY, JUDGE, newline="\r\n").encode("utf-8"))
    sentences, anomalies = read_conll(path)
    assert [len(s.tokens) for s in sentences] == [13, 1]
    assert sentences[0].tokens[:5] == ["Der", "Kläger", ",", "Herr", "G."]
    assert sentences[0].tags[4] == "B-PER"
    assert (sentences[1].index, sentences[1].line, sentences[1].source) == (1, 15, path.name)
    assert sentences[0].mentions() == [Mention("PER", 4, 5), Mention("STR", 9, 10),
                                       Mention("ST", 11, 12)]  # fmt: skip
    assert not anomalies.counts  # CRLF is a quirk (a note), not a problem
    assert anomalies.notes["ler_dev.conll: CRLF line ends (read as LF)"] == 16


def test_odd_lines_and_tags_are_repaired_and_counted_never_dropped(tmp_path):
    path = tmp_path / "odd.conll"
    lines = [
        "\ufeff-DOCSTART- O",
        "",
        "Die O",
        "Firma I-UN",  # I- without B-
        "X I-UN",
        "zahlte B-FOO",  # unknown class
        "an O",
        "Herrn",  # no tag
        "Hans Müller B-PER",  # three fields: two tokens
        "b-per",  # a tag without a token
        ". O",
        "",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    (s,), anomalies = read_conll(path)
    assert s.tokens == ["Die", "Firma", "X", "zahlte", "an", "Herrn", "Hans", "Müller", "."]
    assert s.tags == ["O", "B-UN", "I-UN", "O", "O", "O", "B-PER", "I-PER", "O"]
    assert anomalies.counts == {
        "byte order mark (removed)": 1,
        "-DOCSTART- line (skipped)": 1,
        "I- without B- (repaired to B-)": 1,
        "unknown tag 'B-FOO' (tagged O)": 1,
        "line with a token and no tag (tagged O)": 1,
        "line with more than two fields (split into tokens)": 1,
        "line with a tag and no token (skipped)": 1,
    }
    assert anomalies.examples["I- without B- (repaired to B-)"] == ["odd.conll:4: I-UN"]
    assert "unknown tag 'B-FOO'" in anomalies.format()


# --- detokenization -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "text"),
    [
        (
            "Der Kläger , Herr G. , wohnt in der A-Straße in X .",
            "Der Kläger, Herr G., wohnt in der A-Straße in X.",
        ),
        ("die Vokale „ a “ und „ o “ am Ende", "die Vokale „a“ und „o“ am Ende"),
        (
            'der Gruppe " Schickeria " ( vgl. BGH , Rn. 9 ) ;',
            'der Gruppe "Schickeria" (vgl. BGH, Rn. 9);',
        ),
        ("eines Pkw ' s und DVD ' s", "eines Pkw's und DVD's"),
        ("der Sorte ' Supermann ' um", "der Sorte 'Supermann' um"),
        ("BFH / NV 2011 , 612", "BFH/NV 2011, 612"),
        (
            "die R … GmbH in S … , Patentanwalt K … .",
            "die R… GmbH in S…, Patentanwalt K….",
        ),
        ("Verordnung [ … ] wurden", "Verordnung […] wurden"),
        ("im A. -Zentrum eine 100 % -ige Tochter", "im A.-Zentrum eine 100 %-ige Tochter"),
        (
            "Begnadigungsgründe oder -anlässe , Silben- und Vokalanzahl",
            "Begnadigungsgründe oder -anlässe, Silben- und Vokalanzahl",
        ),
        ("gemäß §§ 119 , 124 SGB V", "gemäß §§ 119, 124 SGB V"),
        ("BVerfGE 47 , 105 < 108 > ; Beatmung > 95", "BVerfGE 47, 105 <108>; Beatmung > 95"),
        ("et al. , “ Description ” , Z.", "et al., “Description”, Z."),
        (
            "die Marken - trotz der Übereinstimmung - derart",
            "die Marken - trotz der Übereinstimmung - derart",
        ),
    ],
)
def test_detokenize_writes_natural_german(tokens, text):
    assert detokenize(tokens.split())[0] == text


def test_detokenize_keeps_the_offsets_of_every_token():
    tokens = ["Herrn", "G.", ",", "X", "GmbH", "(", "„", "A-Straße", "“", ")", "."]
    text, offsets = detokenize(tokens)
    assert text == "Herrn G., X GmbH („A-Straße“)."
    assert [text[s:e] for s, e in offsets] == tokens


def test_detokenize_rejects_tokens_with_whitespace():
    with pytest.raises(ValueError, match="token 1"):
        detokenize(["a", "b c"])


TOKEN = st.one_of(
    st.sampled_from([",", ".", "(", ")", "[", "]", "„", "“", "”", '"', "'", "‚", "‘", "’", "/",
                     "…", "...", "-", "-ige", ".1", "<", ">", "§§", "%", "s", "K", "G."]),
    st.text(st.characters(blacklist_categories=("Z", "Cc", "Cs")), min_size=1, max_size=6),
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(TOKEN, max_size=30))
def test_every_token_is_in_the_text_at_its_offset(tokens):
    text, offsets = detokenize(tokens)
    assert [text[s:e] for s, e in offsets] == tokens
    assert all(a[1] <= b[0] for a, b in pairwise(offsets))
    assert all(text[a[1] : b[0]] in {"", " "} for a, b in pairwise(offsets))
    assert len(text) == (offsets[-1][1] if offsets else 0)


# --- mapping --------------------------------------------------------------------------

DOCUMENTED = {
    "PER": "nat-name", "RR": "nat-jur", "AN": "nat-jur", "LD": None, "ST": "address-name",
    "STR": "address-name", "LDS": "address-name", "ORG": "jur-name", "UN": "jur-name",
    "INN": None, "GRT": "court-name", "MRK": "car-name", "GS": None, "VO": None, "EUN": None,
    "VS": None, "VT": None, "RS": None, "LIT": None,
}  # fmt: skip
CONDITIONAL = {"ST", "STR", "LDS", "ORG", "MRK"}


def test_the_mapping_table_covers_the_19_classes_as_documented():
    assert set(LER_CLASS_MAPPING) == set(LER_CLASSES) and len(LER_CLASSES) == 19
    assert {c: row.label for c, row in LER_CLASS_MAPPING.items()} == DOCUMENTED
    assert {c for c, row in LER_CLASS_MAPPING.items() if row.conditional} == CONDITIONAL
    assert all(row.rule for row in LER_CLASS_MAPPING.values() if row.label is None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Er wohnt in {X}ST .", "address-name"),  # a placeholder: the court hid it
        ("Das Verfahren wurde in {München}ST geführt .", None),  # seat of a court
        ("Die Beklagte ist {Berlin}ST wohnhaft .", None),
        ("Der Kläger ist wohnhaft in {Jena}ST .", "address-name"),
        ("Anschrift : {Elisabethstraße}STR 3 , 80331 {München}ST .", "address-name"),
        ("Der Unfall geschah auf der {Bundesstraße 3}STR .", None),
        ("Er parkte in der {Elisabethstraße}STR .", "address-name"),
        ("Atomwaffen in {Büchel}LDS .", None),
        ("das Grundstück in der Gemarkung {S.}LDS .", "address-name"),
        ("die Flurstücke {B}LDS und C .", "address-idx"),
        ("die Flurstücke B und {C}LDS .", "address-idx"),
        ("die {K-Klinik}ORG behandelte ihn .", "jur-name"),
        ("Mitglied der {AMEOS Krankenhausgesellschaft mbH}ORG .", "jur-name"),
        ("Mitglied bei {ver.di}ORG .", None),
        ("in der {Europäischen Union}ORG .", None),
        ("er fuhr einen {VW Tiguan}MRK .", "car-name"),
        ("die Widerspruchsmarke {NIVONA}MRK .", None),
        ("vom {Deutschen Patent- und Markenamt}INN .", None),
    ],
)
def test_conditional_classes_follow_their_documented_rule(text, expected):
    s = sentence(text)
    labels = {m.ler_class: map_mention(s, m) for m in s.mentions()}
    assert labels[s.mentions()[-1].ler_class] == expected


def test_every_unconditional_class_maps_to_its_label_in_context():
    for cls, label in DOCUMENTED.items():
        if cls in CONDITIONAL:
            continue
        s = sentence(f"Es geht um {{Wort}}{cls} .")
        assert map_mention(s, s.mentions()[0]) == label, cls


# --- span boundaries ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("an {Herrn G.}PER", [("G.", "nat-name")]),
        ("Zeuge {Prof. Dr. med. K.}PER sagte", [("K.", "nat-name")]),
        ("die {X GmbH}UN zahlte", [("X", "jur-name")]),
        ("die {R … GmbH & Co. KG}UN in", [("R…", "jur-name")]),
        ("die {X-GmbH}UN zahlte", [("X", "jur-name")]),
        ("die {C- B. V.}UN zahlte", [("C", "jur-name")]),
        ("die {Kucera & Söhne GmbH}UN zahlte", [("Kucera & Söhne", "jur-name")]),
        ("Geschädigten {W. und M. L.}PER", [("W.", "nat-name"), ("M. L.", "nat-name")]),
        ("der {„ Limmer “}UN", [("Limmer", "jur-name")]),
        ("der {Zentralverband der Haus- , Wohnungs- und Grundeigentümer e. V.}ORG",
         [("Zentralverband der Haus-, Wohnungs- und Grundeigentümer", "jur-name")]),
        ("{Rechtsanwalt K …}AN", [("K…", "nat-jur")]),
        ("Richterin {K. Schmidt}RR", [("K. Schmidt", "nat-jur")]),
        ("des {Landgerichts Kleve}GRT", [("Landgerichts Kleve", "court-name")]),
    ],
)  # fmt: skip
def test_spans_follow_our_boundaries(text, expected):
    assert spans_of(text) == expected


# --- placeholders ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["G.", "A", "B1", "Ts.", "A. B.", "N.N.", "D P T S", "A-Straße", "M-R", "K. straße",
     "Kstraße", "...", "…", "K…", "H...", "Xxxxx", "XXX", "Ａ", '" A "', "„ X “", "Y-Straße ..."],
)  # fmt: skip
def test_placeholder_shapes_are_placeholders(text):
    assert is_placeholder_mention(text)


@pytest.mark.parametrize(
    "text",
    ["Müller", "K. Schmidt", "X GmbH", "Dr.", "Abs.", "E-Mail", "U-Haft", "EU", "2017",
     "A und B", "Hans-Böckler-Straße", "", "„ “"],
)  # fmt: skip
def test_names_abbreviations_and_words_are_not(text):
    assert not is_placeholder_mention(text)


def test_placeholder_parts_find_the_hidden_part_of_a_mention():
    text = "VEB Elektronik G."
    assert [text[s:e] for s, e in placeholder_parts(text)] == ["G."]
    text = "Zentralverband e. V. - Haus X"
    assert [text[s:e] for s, e in placeholder_parts(text)] == ["X"]  # e. V. is a legal form


def test_the_placeholder_key_holds_the_placeholder_parts_of_sensitive_mentions():
    sentences = [sentence(s) for s in (PARTY, COMPANY, STATUTE, LAWYER, JUDGE)]
    sentences.append(sentence("{Ekliniken M-R GmbH & Co KG}UN und {Dr. Müller}PER ."))
    (key,) = ler_placeholder_key(sentences, split="dev")
    (doc,) = ler_documents(sentences, split="dev")
    assert (key.id, key.text) == (doc.id, doc.text) == ("ler-dev-00001", doc.text)
    assert [(key.span_text(s), s.label, s.risk) for s in key.spans] == [
        ("G.", "nat-name", None),
        ("A-Straße", "address-name", None),
        ("X", "address-name", None),
        ("X", "jur-name", None),
        ("K…", "nat-jur", None),
        ("M-R", "jur-name", None),
    ]
    validate_document(key, require_risk=False)


def test_documents_have_spans_with_the_usual_risk_and_say_where_they_came_from():
    sentences = [sentence(s) for s in (PARTY, COMPANY, STATUTE, LAWYER, JUDGE)]
    docs = ler_documents(sentences, split="test", sentences_per_document=2)
    assert [d.id for d in docs] == ["ler-test-00001", "ler-test-00002", "ler-test-00003"]
    assert docs[0].text.split("\n")[0] == "Der Kläger, Herr G., wohnt in der A-Straße in X."
    assert [(docs[0].span_text(s), s.label, s.risk) for s in docs[0].spans] == [
        ("G.", "nat-name", "high"),
        ("A-Straße", "address-name", "high"),
        ("X", "address-name", "high"),
        ("X", "jur-name", "high"),
        ("Landgerichts Kleve", "court-name", "low"),
    ]
    assert docs[2].meta == {"source": "test.conll", "sentence_index": [0]}
    assert docs[1].domain == "ler"
    for doc in docs:
        validate_document(doc)


# --- pseudonymization -----------------------------------------------------------------


def test_pseudonymize_replaces_placeholders_and_keeps_real_names():
    sentences = [sentence(s) for s in (PARTY, COMPANY, LAWYER, JUDGE)]
    (doc,) = ler_documents(sentences)
    (new,) = pseudonymize_ler([doc], seed=1)
    texts = {s.label: [] for s in new.spans}
    for s in new.spans:
        texts[s.label].append(new.span_text(s))
    assert texts["nat-name"][0] not in {"G.", "G"} and "A-Straße" not in new.text
    assert texts["court-name"] == ["Landgerichts Kleve"] and texts["nat-jur"][1] == "Schmidt"
    assert "GmbH hat gegen das Urteil" in new.text  # the legal form outside stays
    assert (new.id, new.domain, new.meta) == (doc.id, doc.domain, doc.meta)
    assert [s.label for s in new.spans] == [s.label for s in doc.spans]
    validate_document(new)
    assert pseudonymize_ler([doc], seed=1)[0].text == new.text  # reproducible from the seed


# --- raw TimeML text ------------------------------------------------------------------

RAW_BGH = """<?xml version="1.0"?>
<!DOCTYPE TimeML SYSTEM "TimeML.dtd">
<TimeML>
Der Antrag vom <TIMEX3 tid="t4" type="DATE" value="2017-05-27">27. Mai 2017</TIMEX3> ist unbegründet .
Die Revision ( 1 K <TIMEX3 tid="t5" type="DATE" value="1725">1725</TIMEX3>/14 ) wird binnen <TIMEX3 tid="t6" type="DURATION" value="P1Y">einem Jahr</TIMEX3> verworfen .
Der Kläger , Herr G. , wohnt in der A-Straße in X .
Becker
Spaniol
Dr. Tiemann
Die Beschwerde < Klägerin zu 1. > wird zurückgewiesen .
Kayser
Lohmann
Pape

</TimeML>
"""  # noqa: E501


def test_a_timex_line_loses_its_tags_and_keeps_their_offsets():
    line = 'vom <TIMEX3 tid="t1" type="DATE" value="2017-06-16">16. 6. 2017</TIMEX3> bis < 3 J.'
    text, (timex,) = parse_timex_line(line)
    assert text == "vom 16. 6. 2017 bis < 3 J."
    assert text[timex.start : timex.end] == "16. 6. 2017"
    assert (timex.type, timex.value) == ("DATE", "2017-06-16")


def test_broken_timex_tags_are_repaired_and_counted():
    anomalies = Anomalies()
    line = 'am <TIMEX3 type="DATE">1. Mai</TIMEX3></TIMEX3> und <TIMEX3 type="DATE">2017'
    text, timexes = parse_timex_line(line, "f:1", anomalies)
    assert text == "am 1. Mai und 2017"
    assert [text[t.start : t.end] for t in timexes] == ["1. Mai", "2017"]
    assert set(anomalies.counts) == {
        "stray </TIMEX3> (ignored)",
        "unclosed TIMEX3 (closed at the end of the line)",
    }


def test_raw_files_become_decisions_with_timex_dates(tmp_path):
    path = tmp_path / "bgh_timex.txt"
    path.write_text(RAW_BGH, encoding="utf-8")
    docs = read_raw_timex(path)
    assert [d.id for d in docs] == ["ler-raw-bgh-00001", "ler-raw-bgh-00002"]  # two decisions
    assert {d.domain for d in docs} == {"bgh"}
    first = docs[0].text.split("\n")
    assert first[:2] == [
        "Der Antrag vom 27. Mai 2017 ist unbegründet.",
        "Die Revision (1 K 1725/14) wird binnen einem Jahr verworfen.",
    ]
    assert first[-3:] == ["Becker", "Spaniol", "Dr. Tiemann"]
    dates = [docs[0].text[s:e] for s, e in docs[0].meta["timex_dates"]]
    assert dates == ["27. Mai 2017", "1725"]  # DATE only: the DURATION is left out
    assert docs[1].text.startswith("Die Beschwerde <Klägerin zu 1.> wird")


def test_a_court_without_signature_blocks_is_cut_into_chunks(tmp_path):
    path = tmp_path / "bfh_timex.txt"
    body = "\n".join(f'Satz {i} vom <TIMEX3 type="DATE">{i}. Mai</TIMEX3> .' for i in range(1, 6))
    path.write_text(f"<TimeML>\n{body}\n</TimeML>\n", encoding="utf-8")
    docs = read_raw_timex(path, sentences_per_document=2)
    assert [d.text.count("\n") + 1 for d in docs] == [2, 2, 1]
    assert [[d.text[s:e] for s, e in d.meta["timex_dates"]] for d in docs] == [
        ["1. Mai", "2. Mai"], ["3. Mai", "4. Mai"], ["5. Mai"]
    ]  # fmt: skip
    assert decision_ends(read_raw_lines(path)) == []


def test_conll_sentences_are_put_back_into_raw_order_per_court(tmp_path):
    path = tmp_path / "bgh_timex.txt"
    path.write_text(RAW_BGH, encoding="utf-8")
    raw = {"bgh": read_raw_lines(path)}
    sentences = [sentence(JUDGE), sentence("Nicht im Rohtext ."), sentence(PARTY)]
    locations = locate_sentences(sentences, raw)
    assert [(w.court, w.line) if w else None for w in locations] == [None, None, ("bgh", 2)]
    groups = group_sentences(sentences, "dev", 25, locations)
    assert [(g.id, g.domain, len(g.sentences)) for g in groups] == [
        ("ler-dev-00001", "bgh", 1),
        ("ler-dev-00002", "ler", 2),
    ]


# --- the script -----------------------------------------------------------------------


def load_script():
    spec = importlib.util.spec_from_file_location(
        "import_ler", ROOT / "datasets_scripts" / "import_ler.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def ler_dir(tmp_path) -> Path:
    folder = tmp_path / "ler"
    (folder / "raw").mkdir(parents=True)
    (folder / "ler_dev.conll").write_text(
        conll_text(PARTY, "{Becker}RR", STATUTE, newline="\r\n"), encoding="utf-8"
    )
    (folder / "ler_test.conll").write_text(conll_text(COMPANY, LAWYER), encoding="utf-8")
    extra = (
        "Die X GmbH hat gegen das Urteil des Landgerichts Kleve Revision eingelegt .\n"
        "Gemäß § 8 Abs. 2 MarkenG ist die Marke „ NIVONA “ nicht schutzfähig .\n"
        "Rechtsanwalt K … vertrat die Beklagte in München .\n"
    )
    (folder / "raw" / "bgh_timex.txt").write_text(RAW_BGH, encoding="utf-8")
    (folder / "raw" / "bpatg_timex.txt").write_text(
        f"<TimeML>\n{extra}</TimeML>\n", encoding="utf-8"
    )
    return folder


def test_the_script_builds_corpus_key_and_raw_decisions(ler_dir, tmp_path, capsys):
    out, key, raw = tmp_path / "corpus", tmp_path / "key.jsonl", tmp_path / "raw.jsonl"
    args = ["--ler-dir", str(ler_dir), "--output", str(out), "--seed", "3"]
    code = load_script().main([*args, "--key-jsonl", str(key), "--raw-jsonl", str(raw)])
    assert code == 0
    corpus = load_corpus(out)
    assert {name: len(docs) for name, docs in corpus.items()} == {"train": 2, "test": 1}
    assert [d.domain for d in corpus["train"] + corpus["test"]] == ["bgh", "bpatg", "bpatg"]
    assert "Herr G." not in corpus["train"][0].text  # pseudonymized
    keys = load_jsonl(key, spans_key="placeholders", require_risk=False)
    assert [d.id for d in keys] == ["ler-dev-00001", "ler-dev-00002", "ler-test-00001"]
    rows = [json.loads(line) for line in raw.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [
        "ler-raw-bgh-00001",
        "ler-raw-bgh-00002",
        "ler-raw-bpatg-00001",
    ]
    assert set(rows[0]) == {"id", "domain", "text", "timex_dates"}
    printed = capsys.readouterr().out
    for expected in (
        "spans by label",
        "PER ",
        "pseudonymized by label",
        "anomalies: none",
        "placeholder key: 3 documents",
        "raw decisions: 3 documents",
        "done in",
    ):
        assert expected in printed  # fmt: skip


def test_without_pseudonymization_the_key_matches_the_corpus_texts(ler_dir, tmp_path):
    out, key = tmp_path / "corpus", tmp_path / "key.jsonl"
    args = ["--ler-dir", str(ler_dir), "--output", str(out), "--no-pseudonymize", "--order", "file"]
    assert load_script().main([*args, "--key-jsonl", str(key)]) == 0
    corpus = load_corpus(out)
    keys = {d.id: d for d in load_jsonl(key, spans_key="placeholders", require_risk=False)}
    for doc in corpus["train"] + corpus["test"]:
        assert keys[doc.id].text == doc.text
        assert doc.domain == "ler"
    assert "Herr G., wohnt in der A-Straße in X." in corpus["train"][0].text


def test_the_script_says_clearly_when_the_data_is_missing(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        load_script().main(["--ler-dir", str(tmp_path / "nowhere"), "--output", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "missing ler_dev.conll, ler_test.conll" in capsys.readouterr().err
