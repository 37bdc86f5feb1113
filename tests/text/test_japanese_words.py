"""A Japanese name span must be a word of a name (hf_anon.text.japanese_words)."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.text.data import Span
from hf_anon.text.japanese_words import ANALYZERS, analyze, drop_fragments

TEXT = (
    "被告人真下は、八ッ橋を買った直後に実子の森に電話した。上不正な行為である。"
    "森一郎と百目鬼玲子は、るを見た。Ａは林に会った。飲食店「とり松」前で。"
)


def span(surface: str, label: str = "nat-name", text: str = TEXT) -> Span:
    start = text.index(surface)
    return Span(start, start + len(surface), label, "high")


def kept(spans, analyzer="sudachi", text=TEXT):
    return [text[s.start : s.end] for s in drop_fragments(text, spans, analyzer)]


@pytest.mark.parametrize("analyzer", ANALYZERS)
def test_fragments_function_words_and_common_nouns_are_no_names(analyzer):
    found = ["八", "直後", "実子", "上不", "る", "真実"]
    spans = [span(s) for s in found if s in TEXT]
    assert kept(spans, analyzer) == []


@pytest.mark.parametrize("analyzer", ANALYZERS)
def test_names_placeholders_and_names_the_text_confirms_stay(analyzer):
    # 真下 after a role, 森 because 森一郎 is a name in the text, Ａ a placeholder,
    # とり松 in quotation marks (a shop), 玲子 a given name the dictionary knows
    names = ["真下", "森一郎", "玲子", "Ａ", "とり松"]
    spans = sorted([span(s) for s in names] + [span("森")], key=lambda s: s.start)
    assert sorted(kept(spans, analyzer)) == sorted([*names, "森"])


def test_an_edge_inside_a_name_moves_to_the_word():
    text = "弁護人永里桂太郎が出席した。"
    assert kept([span("太郎", "nat-jur", text)], text=text) == ["桂太郎"]


def test_an_edge_inside_a_common_word_moves_in_past_it():
    # the model ran one character into 訴外 (a non-party): the name stays, without 外
    # (Janome reads 亡訴外 as one unknown word, so the edge moves out over it instead)
    text = "亡訴外山本誠一の相続人である控訴人が請求した。"
    assert kept([span("外山本誠一", text=text)], text=text) == ["山本誠一"]


def test_a_fragment_is_not_confirmed_by_a_name_that_loses_it():
    # the model marked 外 and 外久保田洋子 (訴外: a non-party); 外久保田洋子 becomes
    # 久保田洋子, so it no longer holds 外, and 外 goes
    text = "原告久保田悟及び訴外久保田洋子以外の者は相続放棄をした。"
    start = text.index("外")
    spans = [Span(start, start + 1, "nat-name", "high"), span("外久保田洋子", text=text)]
    assert kept(spans, text=text) == ["久保田洋子"]


@pytest.mark.parametrize("analyzer", ANALYZERS)
def test_words_are_read_across_a_pdfs_line_ends(analyzer):
    text = "控訴人ファイターズは、ファウル\nボールの危険性を説明した。"
    words = {text[w.start : w.end] for w in analyze(text, analyzer)}
    assert "ファウル\nボール" in words or {"ファウル", "ボール"} <= words
    assert not {"ル\nボ", "ル\n", "\nボ"} & words
    # so a piece of the word is a fragment, not an organisation (Sudachi: a common word)
    if analyzer == "sudachi":
        assert kept([span("ル\nボール", "jur-name", text)], analyzer, text) == []


def test_other_labels_pass_unchanged():
    spans = [span("直後", "date-fact"), span("上不", "court-docket")]
    assert drop_fragments(TEXT, spans) == spans


PLACES = (
    "原告の横浜医療専門学校に係るあん摩マッサージ指圧師養成施設。商事法定利率。"
    "市町村長は当該市町村が備える住民票による。白山中央病院へ通院し、ミクル株式会社を経て、"
    "大阪市北区内のＣ銀行ｆ支店に行った。"
)


@pytest.mark.parametrize(
    ("surface", "label", "expected"),
    [
        ("あ", "jur-name", []),  # a piece of あん摩, a common word
        ("事", "jur-name", []),  # a piece of 商事
        ("市町村", "address-name", []),  # a whole word, but a place of no one
        ("横浜医療専門学校", "jur-name", ["横浜医療専門学校"]),
        ("白山中央", "jur-name", ["白山中央病院"]),  # grows over 中央病院
        ("ル", "jur-name", ["ミクル"]),  # a single kana inside a name grows to it
        ("大阪市北区", "address-name", ["大阪市北区"]),
        ("Ｃ銀行", "jur-name", ["Ｃ銀行"]),  # a placeholder stays as it is
    ],
)
def test_organisations_and_places_stand_on_whole_words(surface, label, expected):
    assert kept([span(surface, label, PLACES)], text=PLACES) == expected


ORGANISATIONS = "被告は、パチスロに興じ、新株を発行した。店名は「球団」。球団ファイターズ。"


@pytest.mark.parametrize(
    ("surface", "expected"),
    [
        ("パチスロ", []),  # one common word: a pastime, not an organisation
        ("新株", []),  # new shares
        ("球団」", ["球団"]),  # in quotation marks: a shop's name (the span ends before 」)
        ("球団ファイターズ", ["球団ファイターズ"]),  # a name of common words stays
    ],
)
def test_an_organisation_of_one_common_word_needs_confirmation(surface, expected):
    start = ORGANISATIONS.index(surface)
    end = start + len(surface.rstrip("」"))
    assert kept([Span(start, end, "jur-name", "high")], text=ORGANISATIONS) == expected


@pytest.mark.parametrize(
    "text",
    [
        "本件は、株式会社マーベラスが建てた。被上告人はマーベラスと契約した。",
        "本件は、マーベラス株式会社が建てた。被上告人はマーベラスと契約した。",
        "商号  株 式 会 社 マーベラス\n被上告人はマーベラスと契約した。",
    ],
)
def test_a_legal_form_anywhere_confirms_a_company_of_one_common_word(text):
    # マーベラス (marvellous) is one common word; written with its legal form once, it is
    # a company's name in every mention, as the Supreme Court's decision has it 19 times
    starts = [i for i in range(len(text)) if text.startswith("マーベラス", i)]
    spans = [Span(i, i + 5, "jur-name", "high") for i in starts]
    assert kept(spans, text=text) == ["マーベラス", "マーベラス"]
    without = text.replace("株式会社", "").replace("株 式 会 社", "")
    starts = [i for i in range(len(without)) if without.startswith("マーベラス", i)]
    spans = [Span(i, i + 5, "jur-name", "high") for i in starts]
    assert kept(spans, text=without) == []


def test_a_common_noun_without_confirmation_goes_but_with_a_role_stays():
    text = "Ａは林に会った。証人林は述べた。"
    alone = Span(2, 3, "nat-name", "high")
    after_role = Span(text.index("証人林") + 2, text.index("証人林") + 3, "nat-name", "high")
    assert kept([alone], text=text) == []
    assert kept([after_role], text=text) == ["林"]


def test_unknown_analyzer_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown Japanese analyzer"):
        analyze("田中", "mecab")


@pytest.mark.parametrize("analyzer", ANALYZERS)
def test_words_cover_long_texts_in_order(analyzer):
    # Sudachi reads at most about 49 KB at once: long texts are cut at line ends
    text = ("被告人Ａは、令和３年５月２日、東京都内で田中一郎に会った。\n" * 1200)[:-1]
    words = analyze(text, analyzer)
    assert words[0].start == 0 and words[-1].end == len(text)
    assert all(a.end <= b.start for a, b in itertools.pairwise(words))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_spans_stay_inside_the_text_sorted_and_disjoint(data):
    text = TEXT
    spans = []
    for _ in range(data.draw(st.integers(0, 6))):
        start = data.draw(st.integers(0, len(text) - 1))
        end = data.draw(st.integers(start + 1, min(len(text), start + 6)))
        label = data.draw(st.sampled_from(["nat-name", "nat-jur", "date-fact"]))
        spans.append(Span(start, end, label, "high"))
    disjoint = []
    for s in sorted(spans, key=lambda s: (s.start, s.end)):
        if not disjoint or s.start >= disjoint[-1].end:
            disjoint.append(s)
    out = drop_fragments(text, disjoint)
    assert all(0 <= s.start < s.end <= len(text) for s in out)
    assert all(a.end <= b.start for a, b in itertools.pairwise(out))
