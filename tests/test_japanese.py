"""Japanese precedents (issue #17): placeholders, surrogates, synthetic passages, span
boundaries, the leak check without spaces, and the bundled Japanese model."""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.apply.anonymize.engine import replace_spans
from hf_anon.corpora.japanese.placeholders import find_japanese_placeholders
from hf_anon.corpora.japanese.surrogates import JapaneseSurrogates, pseudonymize_japanese
from hf_anon.corpora.japanese.synthetic import generate_japanese_document
from hf_anon.corpora.placeholders import placeholder_spans, rule_placeholders
from hf_anon.model.detection import SpanDetector
from hf_anon.model.metrics import SpanScorer
from hf_anon.model.model_folder import REPO_ROOT, default_model
from hf_anon.text.data import Document, Span
from hf_anon.text.languages import (
    LEGAL_FORMS_JA,
    ROLES_JA,
    japanese_boundaries,
    resolve_language,
    script_language,
)

JA_DATA = REPO_ROOT / "data" / "ja"
JA_MODEL = REPO_ROOT / "models" / "hf-anon-ja-e5-small"


def found(text: str) -> list[tuple[str, str]]:
    return [(text[p.start : p.end], p.label) for p in find_japanese_placeholders(text)]


# --- placeholders ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("被告人Ａは、被害者Ｂに対し", [("Ａ", "nat-name"), ("Ｂ", "nat-name")]),
        ("証人bは、原告Xの妻である。", [("b", "nat-name"), ("X", "nat-name")]),
        ("被告人ｂと共犯者γは", [("ｂ", "nat-name"), ("γ", "nat-name")]),
        ("Ａ社の従業員であった", [("Ａ", "jur-name")]),
        ("株式会社Ｃの代表取締役", [("Ｃ", "jur-name")]),
        ("弁護人Ｄの弁論", [("Ｄ", "nat-jur")]),
        ("Ｅ銀行ｆ支店の口座", [("Ｅ", "jur-name"), ("ｆ", "jur-idx")]),
        ("被告人甲は、乙に対し", [("甲", "nat-name"), ("乙", "nat-name")]),
        ("原告甲野太郎と被告乙山花子は、乙山の実家で", None),
        ("被告人○○は", [("○○", "nat-name")]),
        ("住居　東京都千代田区（以下略）", [("東京都千代田区（以下略）", "address-name")]),
        ("平成○年○月○日生の被告人", [("平成○年○月○日", "nat-idx")]),
        ("電話番号０９０－＊＊＊＊－＊＊＊＊に", [("０９０－＊＊＊＊－＊＊＊＊", "id-number")]),
        ("普通乗用自動車（ａａ５００あ＊＊＊＊）を運転し", [("ａａ５００あ＊＊＊＊", "car-idx")]),
        ("原告Ｘ１及び原告Ｘ２は", [("Ｘ１", "nat-name"), ("Ｘ２", "nat-name")]),
    ],
)
def test_japanese_placeholders_and_their_labels(text, expected):
    if expected is None:  # court pseudonyms: the full form, then the surname alone
        assert [t for t, _ in found(text)] == ["甲野太郎", "乙山花子", "乙山"]
    else:
        assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "ＤＮＡ型鑑定の結果",
        "Ａ４判の書面",
        "血液型はＡ型である",
        "Ｘ線写真によれば",
        "白色のＴシャツを着用し",
        "ＣＤ－Ｒ（甲第５号証）",
        "甲第１号証ないし甲第３号証、乙１",
        "甲Ａ第２号証の診療録",
        "甲状腺の疾患",
        "（ａ）原告の主張",
        "別紙Ａ記載の物件",
        "本件契約書第１２条には、「乙が賃料の支払を怠ったときは、甲は解除できる。」とある。",
        "ＪＲ新宿駅のＡＴＭで、ＬＩＮＥ",
        "○印を付した",
    ],
)
def test_japanese_look_alikes_are_not_placeholders(text):
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # numbered parties: once after a role word, every "Ｂ１２" of the decision
        (
            "被告Ｂ１２の妻である。Ｂ１２は死亡した。",
            [("Ｂ１２", "nat-name"), ("Ｂ１２", "nat-name")],
        ),
        ("控訴人Ａ１８及び控訴人Ａ１\n９は", [("Ａ１８", "nat-name"), ("Ａ１\n９", "nat-name")]),
        ("株式会社Ａ銀行Ａ１支店において", [("Ａ", "jur-name"), ("Ａ１", "jur-idx")]),
        # party letters after more roles and before institutions
        ("被控訴人は，控訴人甲に対し", [("甲", "nat-name")]),
        ("同市内の甲病院において", [("甲", "jur-name")]),
        ("被告人は、甲及び乙と共謀の上", [("甲", "nat-name"), ("乙", "nat-name")]),
        # a PDF's line ends: an omission broken in two, a list going on after a comma
        ("鹿児島市（住所\n省略）において", [("鹿児島市（住所\n省略）", "address-name")]),
        ("母、姉、弟、\nＢ、Ａが生活していた", [("Ｂ", "nat-name"), ("Ａ", "nat-name")]),
        ("広島市●区長は", [("●", "address-name")]),
        # a letter keeps the label its cued mention gives it
        ("Ｄ株式会社に入社した。Ｄの業務は", [("Ｄ", "jur-name"), ("Ｄ", "jur-name")]),
        ("保育施設「Ｅ」（以下「本件施設」）", [("Ｅ", "jur-name")]),
    ],
)
def test_placeholders_of_real_precedents(text, expected):
    """Conventions read off the exhaustively annotated training precedents
    (``data/ja/real/train.key.jsonl``) and checked on the validation half."""
    assert found(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # numbered letters that a sentence or an organisation's word makes someone
        ("被告人Ｂは、Ｄ１の運転技量を知りながら、Ｄ１が運転するバスに", ["Ｂ", "Ｄ１", "Ｄ１"]),
        ("被告の運営するＹ１病院で勤務した", ["Ｙ１"]),
        ("リハビリテーション施設「Ｙ２」（以下「Ｙ２」という。）", ["Ｙ２", "Ｙ２"]),
        # what the court left out of an address or a number
        ("被告人Ａは，岐阜市（省略）に本店を置き", ["Ａ", "岐阜市（省略）"]),
        ("東京都羽村市（以下住所省略）に本社を置く", ["東京都羽村市（以下住所省略）"]),
        ("普通乗用自動車（登録番号省略）を運転し", ["（登録番号省略）"]),
        # a role word across the spaces of a rubrum
        ("判決\n原告  Ｐ１\n同訴訟代理人弁護士", ["Ｐ１"]),
    ],
)
def test_placeholders_of_the_precedents_of_session_39(text, expected):
    """Conventions read off 50 precedents the detector had never seen (session 39) and
    checked on the validation half and the earlier training key."""
    assert [surface for surface, _ in found(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "発行価額は一株一〇〇円、資本の額一五〇〇万円",  # zeros of kanji numerals
        "八万八○○○株を保有し",
        "（証拠の標目）\n（略）\n（法令の適用）",  # the court's own text left out
        "会社は（中略）雇用契約を更新",
        "別表１（添付省略）記載のとおり",
        "一般入学試験Ａ方式で受験した",  # a kind of examination
        "hepatitis B virus の感染",  # a letter of English text
        "医学博士を意味する「M.D、Ph.D」",
        # intellectual-property cases: Sperrsatz, element symbols, claim elements, evidence
        "被控訴人  A p p l e   J a p a n 合 同 会 社",
        "株 式 会 社 Ｆ Ｃ Ｆ\n同訴訟代理人",
        "分子量は、Ｃ（１２．０１）、Ｈ（１．０１）である",
        "被告製品は構成要件Ａを充足する",
        "（以上につき、甲 5、6）",
    ],
)
def test_look_alikes_of_the_precedents_of_session_39_are_not_placeholders(text):
    """Read off the precedents of session 39 (the intellectual-property cases among them),
    checked on the validation half and the earlier training key."""
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an address left out in angle brackets
        ("原告\n静岡県沼津市〈以下略〉\n被告", ["静岡県沼津市〈以下略〉"]),
        ("名古屋市＜以下略＞に住む原告Ａ", ["名古屋市＜以下略＞", "Ａ"]),
        # a party beside claim elements and defined terms stays one
        ("被告Ｂの製品は構成要件ＢないしＥを充足する", ["Ｂ"]),
        ("本件被告人Ａは、本件車両Ｂを運転した", ["Ａ"]),  # a role, not a defined term
    ],
)
def test_placeholders_of_the_precedents_of_session_40(text, expected):
    """Read off 24 precedents of session 40 the detector had never seen (IP, high-court and
    administrative cases), checked on validation and the other training keys."""
    assert [surface for surface, _ in found(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "構成要件Ａ及びＦを充足する",  # claim elements in a list the reference word opens
        "構成要件１－Ｂ，１－Ｄ，１－Ｆを充足しない",
        "構成要件\nＢないしＥの充足性",
        "被告製品はａないしｊの構成を有する",  # a list that ends in 構成
        "（以下，符号に従い「構成Ａ」などという。）",
        "（以下「本件車両Ａ」という。）原告は、本件車両Ａを購入した",  # defined terms
        "代表取締役の地位にあり，ｅ・ｈｏｍｅの屋号で",  # a name in Latin letters
        "オランダ法人Ｆｅｒｒａｒｉ  Ｎ．\nＶ．（以下",  # a legal form's abbreviation
    ],
)
def test_look_alikes_of_the_precedents_of_session_40_are_not_placeholders(text):
    assert found(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # circled letters: the convention of some courts (read as the usual letters)
        ("又は明白性が認められないⒶ鑑定及びⒷ・Ⓒ新鑑定について", ["Ⓐ", "Ⓑ", "Ⓒ"]),
        ("原告らが，福島県双葉郡ⓖ町大字ⓗに居住していた", ["ⓖ町大字ⓗ"]),
        # a masked date relative to the month or year named before
        ("その後、同月▲日、脳内出血により死亡した", ["同月▲日"]),
        ("原告は，同年▲月▲日，本件被疑事実により逮捕された", ["同年▲月▲日"]),
    ],
)
def test_placeholders_of_the_precedents_of_session_41(text, expected):
    """Read off 24 precedents of session 41 (the circled letters of two courts, a masked
    relative date); the relative dates checked on validation and the training key."""
    assert [surface for surface, _ in found(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # organisations named by party letters, numbered and chained
        (
            "三代目甲１會、四代目甲１會と代替わりした",
            [("甲１會", "jur-name"), ("甲１會", "jur-name")],
        ),
        ("二代目甲１連合甲２一家の組員であった", [("甲１連合甲２一家", "jur-name")]),
        ("指定暴力団乙組の幹部", [("乙組", "jur-name")]),
        # a letter defined as itself stands for someone, unlike a contract's party letters
        (
            "本件は，甲（以下「甲」という。）の相続人である原告らが",
            [("甲", "nat-name"), ("甲", "nat-name")],
        ),
        # the short form of a value's omission
        (
            "原告Ｂ（生年月日略）は，二男である。",
            [("Ｂ", "nat-name"), ("（生年月日略）", "nat-idx")],
        ),
    ],
)
def test_placeholders_read_off_the_training_key_in_session_43(text, expected):
    """Read off the training key (470 precedents); checked on the 67 of the calibration set,
    which they were not written from: none lost, six counters no longer marked."""
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "被告人は，手製けん銃２丁を所持した",  # a counter
        "東京商事株式会社（以下「甲」という。）と大阪物産株式会社（以下「乙」という。）は，甲乙間で",
        "甲会社の取締役であった",  # a word that goes on
    ],
)
def test_look_alikes_read_off_the_training_key_in_session_43(text):
    assert found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "本件事故のあった平成四年一〇月三一日から支払済みまで",  # the zero of a kanji numeral
        "損害金の連帯支払を求め（㋐），被告各商品の破棄（㋑－２）を求める",  # list items
        "別紙図面ⓐにいた人に声をかけた",  # a reference to a drawing
    ],
)
def test_look_alikes_of_the_precedents_of_session_41_are_not_placeholders(text):
    assert found(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "表皮壊死融解症とも言い，ＴＥ\nＮと略称する。",  # a word broken by a line end
        "毛髪のＤ\nＮＡ型鑑定",
        "地上高約１２９ｃ\nｍの位置",
        "（甲\n７０）３条１項",  # evidence numbers, also broken and in series
        "（乙イ２３）",
        "（甲イないしウの各１）",
        "台車Ｂ班に配属になり",
        "記載部分Ａ\n本件記事の小見出し",
        "６Ｈ－ジベンゾ〔ｂ・ｄ〕ピラン",
        "双極 I 型感情障害",
    ],
)
def test_look_alikes_of_real_precedents_are_not_placeholders(text):
    assert found(text) == []


LETTERS = "ＡＢＣＤＥＦＧＸＹＺabcdeｂｃｄαβγ甲乙丙"
CONTEXT = st.text(alphabet="のはがにをと、。被告人原告証人東京都三丁目本件事故当時", max_size=20)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(CONTEXT, st.sampled_from(LETTERS)), min_size=1, max_size=5), CONTEXT)
def test_letters_after_roles_are_found_and_spans_are_sorted_and_disjoint(parts, tail):
    """Any letter right after a role word is a placeholder; spans stay inside the text,
    sorted and never overlapping, whatever stands around them."""
    text, wanted = "", []
    for before, letter in parts:
        text += before + "被告人"
        wanted.append((len(text), len(text) + 1))
        text += letter + "は、"
    text += tail
    spans = placeholder_spans(text, "ja")
    assert all(0 <= s.start < s.end <= len(text) for s in spans)
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
    for start, end in wanted:
        assert any(s.start <= start and end <= s.end for s in spans), text


def test_placeholder_language_auto_picks_by_script():
    japanese, german = "被告人Ａは、被害者Ｂに対し", "Der Kläger A. wohnt in X-Stadt."
    assert placeholder_spans(japanese, "auto") == placeholder_spans(japanese, "ja")
    assert placeholder_spans(german, "auto") == placeholder_spans(german, "de")
    assert script_language(japanese) == "ja" and script_language(german) == "de"
    assert resolve_language("auto", [japanese, japanese, german]) == "ja"
    # the spans and the rules' placeholders (what the tagger relabels) come from one door
    found = rule_placeholders(japanese, "auto")
    assert [p.to_span() for p in found] == placeholder_spans(japanese, "ja")
    assert [japanese[p.start : p.end] for p in found] == ["Ａ", "Ｂ"]
    assert [p.label for p in rule_placeholders(german)] == ["nat-name", "address-name"]
    with pytest.raises(ValueError, match="language must be one of"):
        resolve_language("fr", [german])


@pytest.mark.parametrize("split", ["validation", "test"])
def test_placeholder_targets_on_the_hand_written_passages(split):
    """Issue #17's target: placeholder precision and recall >= 0.95 (README numbers)."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "hf_anon.cli",
            "placeholders",
            "--language",
            "ja",
            "--evaluate",
            str(JA_DATA / f"{split}.key.jsonl"),
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    scores = json.loads(result.stdout)
    precision = scores["tp"] / max(1, scores["tp"] + scores["fp"])
    recall = scores["tp"] / max(1, scores["tp"] + scores["fn"])
    assert precision >= 0.95 and recall >= 0.95, scores


# --- surrogates and pseudonymization ---------------------------------------------------------


def test_pseudonymized_precedent_is_consistent_and_spans_lie_on_the_values():
    text = "被告人Ａは、Ａ社の従業員Ｂに対し、住居　東京都千代田区（以下略）において、Ａは"
    doc = Document("p1", text, placeholder_spans(text, "ja"))
    out = pseudonymize_japanese(doc, seed=3)
    values = [(out.text[s.start : s.end], s.label) for s in out.spans]
    names = [v for v, label in values if label == "nat-name"]
    assert names[0] == names[-1] != names[1]  # Ａ twice is one person, Ｂ another
    assert out.text.count("社の従業員") == 1 and "Ａ" not in out.text
    company = next(v for v, label in values if label == "jur-name")
    assert not company.startswith(LEGAL_FORMS_JA)  # the form stays outside the span
    address = next(v for v, label in values if label == "address-name")
    assert address.startswith("東京都千代田区") and "以下略" not in address
    assert pseudonymize_japanese(doc, seed=3) == out  # same seed, same text


@pytest.mark.parametrize(
    "label",
    ["nat-name", "jur-name", "address-name", "car-idx", "court-docket", "date-fact", "nat-idx"],
)
def test_japanese_surrogates_look_japanese(label):
    value = JapaneseSurrogates(random.Random(label)).value(label)
    assert value.strip() == value and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", value)


# --- synthetic passages ----------------------------------------------------------------------


@pytest.mark.parametrize("index", range(1, 30))
def test_synthetic_passages_follow_the_guide(index):
    doc = generate_japanese_document(index, seed=5)
    assert doc == generate_japanese_document(index, seed=5)
    assert doc.spans and all(
        a.end <= b.start for a, b in zip(doc.spans, doc.spans[1:], strict=False)
    )
    for span in doc.spans:
        value = doc.text[span.start : span.end]
        assert value == value.strip() and "{" not in value
        if span.label in {"nat-name", "nat-jur"}:
            assert not value.startswith(ROLES_JA[:8]) and not value.endswith(("さん", "は"))
        if span.label == "jur-name":
            assert not value.startswith(LEGAL_FORMS_JA) and not value.endswith(LEGAL_FORMS_JA)
    assert "{" not in doc.text


# --- span boundaries and metrics on text without spaces ---------------------------------------


def test_japanese_boundaries_trim_roles_honorifics_forms_and_particles():
    text = "被告人田中太郎は、株式会社山田商事のまことさんと令和３年５月２日頃〒160-0023"

    def span(piece: str, label: str) -> Span:
        return Span(text.index(piece), text.index(piece) + len(piece), label)

    spans = [
        span("被告人田中太郎は", "nat-name"),
        span("株式会社山田", "jur-name"),
        span("まことさん", "nat-name"),
        span("令和３年５月２日頃", "date-fact"),
        span("〒160-0023", "address-name"),
    ]
    trimmed = [text[s.start : s.end] for s in japanese_boundaries(text, spans)]
    assert trimmed == ["田中太郎", "山田", "まこと", "令和３年５月２日", "160-0023"]


def test_a_letter_spaced_legal_form_stays_outside_and_alone_is_no_organisation():
    # a rubrum set in spaced type: 株 式 会 社 is the form, 一 竹 工 房 the name
    text = "被告  株 式 会 社 一 竹 工 房\n原告  株 式 会 社\nＦ Ｃ Ｆ"
    start = text.index("株")
    second = text.index("株", start + 1)
    spans = [
        Span(start, text.index("\n"), "jur-name", "high"),
        Span(second, second + len("株 式 会 社"), "jur-idx", "medium"),
    ]
    assert [text[s.start : s.end] for s in japanese_boundaries(text, spans)] == ["一 竹 工 房"]


@pytest.mark.parametrize(
    ("text", "court", "expected"),
    [
        ("神戸地方裁判所第４刑事部は", "神戸地方裁判所", "神戸地方裁判所第４刑事部"),
        ("名古屋地方裁判所刑事第１部で", "名古屋地方裁判所", "名古屋地方裁判所刑事第１部"),
        ("最高裁判所第三小法廷判決", "最高裁判所", "最高裁判所第三小法廷"),
        (
            "福岡地方裁判所小倉支部　第２刑事部",
            "福岡地方裁判所",
            "福岡地方裁判所小倉支部　第２刑事部",
        ),
        ("東京地方裁判所に提起した", "東京地方裁判所", "東京地方裁判所"),
    ],
)
def test_a_court_span_grows_over_its_division(text, court, expected):
    start = text.index(court)
    span = Span(start, start + len(court), "court-name", "low")
    assert [text[s.start : s.end] for s in japanese_boundaries(text, [span])] == [expected]


def test_a_name_grows_over_its_surname_only_when_something_of_it_is_left():
    text = "被告人百目鬼 玲子は、田中　の件"
    given = Span(text.index("玲子"), text.index("玲子") + 2, "nat-name")
    assert [text[s.start : s.end] for s in japanese_boundaries(text, [given])] == ["百目鬼 玲子"]
    # a space and a particle are no name: the surname before them is not taken instead
    stray = Span(text.index("　の"), text.index("　の") + 2, "nat-name")
    assert japanese_boundaries(text, [stray]) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="被告人田中太郎はさん株式会社の、。頃〒 　（", max_size=40), st.data())
def test_japanese_boundaries_keep_spans_clean_sorted_and_disjoint(text, data):
    """Whatever the model gives, boundaries give spans inside the text, sorted, disjoint,
    never starting or ending on a space or punctuation, each overlapping a span it came
    from (a name may grow only over the surname before a space)."""
    spans = []
    for _ in range(data.draw(st.integers(0, 3))):
        if not text:
            break
        start = data.draw(st.integers(0, len(text) - 1))
        end = data.draw(st.integers(start + 1, len(text)))
        label = data.draw(st.sampled_from(["nat-name", "jur-name", "date-fact", "address-name"]))
        spans.append(Span(start, end, label))
    out = japanese_boundaries(text, spans)
    assert all(0 <= s.start < s.end <= len(text) for s in out)
    assert all(a.end <= b.start for a, b in itertools.pairwise(out))
    for span in out:
        assert text[span.start] not in "、。 　（" and text[span.end - 1] not in "、。 　（"
        assert any(s.start < span.end and span.start < s.end for s in spans)


def test_lenient_metrics_on_text_without_spaces():
    """Lenient counts characters: a role glued to a name costs precision, not recall; half
    a name is not recalled; two touching halves are; an ideographic space is whitespace."""
    text = "被告人田中太郎は、証人佐藤　花子と会った。"
    gold = [Span(3, 7, "nat-name", "high"), Span(11, 16, "nat-name", "high")]

    def lenient(pred):
        scorer = SpanScorer()
        scorer.add(text, gold, pred)
        return scorer.result().lenient

    glued = lenient([Span(0, 7, "nat-name"), Span(11, 16, "nat-name")])
    assert (glued.recall, glued.precision) == (1.0, 0.5)
    half = lenient([Span(3, 5, "nat-name"), Span(11, 13, "nat-name"), Span(14, 16, "nat-name")])
    assert half.recall == 0.5 and half.precision == 1.0


# --- anonymization without spaces ------------------------------------------------------------

TEXT = (
    "被告人田中太郎は、山田商事の店舗で窃取した。その後、田中太郎は山田商事の従業員に発見された。"
)
SPANS = [Span(3, 7, "nat-name", "high", 0.99), Span(9, 13, "jur-name", "high", 0.99)]


@pytest.mark.parametrize("mode", ["pseudonym", "initials", "label", "redact"])
def test_japanese_leak_check_finds_later_mentions_inside_running_text(mode):
    result = replace_spans(TEXT, SPANS, mode=mode, language="ja", seed=1, key=True)
    assert "田中太郎" not in result.text and "山田商事" not in result.text
    assert {r.source for r in result.replacements} == {"detector", "leak-check"}
    assert result.restore() == TEXT
    if mode == "initials":
        assert result.text.startswith("被告人Ａは、Ａの店舗") and "その後、Ａは" in result.text
    if mode == "pseudonym":
        first, again = [r.text for r in result.replacements if r.label == "nat-name"]
        assert first == again and re.fullmatch(r"[\u3040-\u30ff\u4e00-\u9fff 　]+", first)


def test_one_character_is_never_spread():
    result = replace_spans("田は田中の田", [Span(0, 1, "nat-name", "high")], language="ja")
    assert result.text.endswith("は田中の田")


# --- the bundled Japanese model --------------------------------------------------------------

needs_model = pytest.mark.skipif(
    not (JA_MODEL / "config.json").is_file(), reason="models/hf-anon-ja-e5-small not built"
)


@needs_model
def test_default_model_per_language():
    assert default_model("ja") == str(JA_MODEL)
    assert default_model("de").endswith("hf-anon-de-e5-small")
    with pytest.raises(ValueError, match="no default model"):
        default_model("fr")


@needs_model
def test_detect_and_anonymize_japanese_on_the_cli(tmp_path: Path):
    text = (
        "被告人田中太郎は、令和３年５月２日午後１１時頃、東京都足立区千住三丁目４番５号"
        "において、被害者佐藤花子に対し暴行を加えた。"
    )
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"id": "j1", "text": text}, ensure_ascii=False) + "\n")
    detected = tmp_path / "spans.jsonl"
    cli = [sys.executable, "-m", "hf_anon.cli"]
    subprocess.run([*cli, "detect", "--input", str(source), "--output", str(detected)], check=True)
    row = json.loads(detected.read_text())
    names = {row["text"][s["start"] : s["end"]] for s in row["spans"] if s["label"] == "nat-name"}
    assert {"田中太郎", "佐藤花子"} <= names
    out = tmp_path / "out"
    subprocess.run(
        [
            *cli,
            "anonymize",
            str(source),
            "--output",
            str(out),
            "--language",
            "ja",
            "--mode",
            "initials",
            "--seed",
            "1",
        ],
        check=True,
    )
    anonymized = json.loads(next(out.glob("*.jsonl")).read_text())["text"]
    assert "田中" not in anonymized and "佐藤" not in anonymized
    assert anonymized.startswith("被告人Ａは、")
    german = subprocess.run(
        [
            *cli,
            "detect",
            "--input",
            str(source),
            "--output",
            str(detected),
            "--language",
            "de",
            "--model",
            str(JA_MODEL),
        ],
        capture_output=True,
        text=True,
    )
    assert german.returncode != 0 and "reads ja text, not de" in german.stderr


@needs_model
@pytest.mark.parametrize("split", ["validation", "test"])
def test_japanese_model_targets_on_the_hand_written_passages(split, tmp_path: Path):
    """Issue #17's target on passages written by hand and never trained on: lenient recall
    on names >= 0.90 with precision >= 0.80 (names: nat-name and nat-jur), measured with
    the README's commands."""
    cli = [sys.executable, "-m", "hf_anon.cli"]
    gold, pred = JA_DATA / f"{split}.jsonl", tmp_path / "pred.jsonl"
    subprocess.run(
        [*cli, "detect", "--language", "ja", "--input", str(gold), "--output", str(pred)],
        check=True,
        capture_output=True,
    )
    result = subprocess.run(
        [
            *cli,
            "evaluate",
            "--gold",
            str(gold),
            "--pred",
            str(pred),
            "--json",
            "--labels",
            "nat-name",
            "nat-jur",
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    lenient = json.loads(result.stdout)["lenient"]
    assert lenient["recall"] >= 0.90 and lenient["precision"] >= 0.80, lenient


# --- real published precedents -> training documents ----------------------------------------


def test_address_letters_are_one_address_but_the_resident_stays_a_person():
    text = (
        "鹿児島県奄美市ａ町ｂ番ｃ号Ａ方に侵入し、北蒲原郡ａ村大字ｂｃ番地Ｂ方で、時速６０ｋｍ／ｈで"
    )
    assert found(text) == [
        ("ａ町ｂ番ｃ号", "address-name"),
        ("Ａ", "nat-name"),
        ("ａ村大字ｂｃ番地", "address-name"),
        ("Ｂ", "nat-name"),
    ]


def test_a_real_precedent_becomes_a_pseudonymized_training_document():
    from hf_anon.corpora.japanese.precedents import precedent_document, silver_spans, unwrap_lines

    wrapped = (
        "当裁判所は、検察官村岡崇央、同坂哉萌及び同上ノ町秀作並びに主任弁護人永里桂太郎、弁護人菅野\n"
        "浩平出席の上審理し、次のとおり判決する。\n"
        "第１  被告人は、令和元年６月１３日頃、鹿児島県奄美市ａ町ｂ番ｃ号Ａ方に侵入し、Ａ（当時８\n"
        "７歳）に対し暴行を加えた。\n"
        "福岡地方裁判所第２刑事部"
    )
    text = unwrap_lines(wrapped)
    assert "菅野浩平" in text and "当時８７歳" in text and text.split("\n")[1].startswith("第１")
    silver = [(text[s.start : s.end], s.label) for s in silver_spans(text)]
    for name in ("村岡崇央", "坂哉萌", "上ノ町秀作", "永里桂太郎", "菅野浩平"):
        assert (name, "nat-jur") in silver
    assert ("令和元年６月１３日", "date-fact") in silver and ("８７歳", "nat-idx") in silver
    assert ("福岡地方裁判所", "court-name") in silver
    doc = precedent_document({"id": "jla-1", "text": wrapped, "court": "福岡地方裁判所"})
    assert doc.meta == {"court": "福岡地方裁判所"} and doc.domain == "ja-precedent"
    out = pseudonymize_japanese(doc, seed=0)
    assert "ａ町" not in out.text and "Ａ方" not in out.text
    names = [out.text[s.start : s.end] for s in out.spans if s.label == "nat-name"]
    assert len(names) == 2 and names[0] == names[1]  # Ａ twice: one person
    age = next(out.text[s.start : s.end] for s in out.spans if s.label == "nat-idx")
    assert age.endswith("歳")


def test_relative_and_era_dates_are_found_by_rule():
    from hf_anon.model.recognizers import RECOGNIZERS

    text = (
        "被告人は、令和４年３月１５日午後２時頃、同年８月１４日及び同月２０日にも来店し、"
        "同日午前３時２６分に退店した。同日は雨であった。平成２０年法律第８９号による。"
        "原告田中一郎（昭和６２年８月１９日生）は、令和４年６月上旬から同３１年３月３１日まで勤務した。"
    )
    found = [(text[s.start : s.end], s.label) for s in RECOGNIZERS["ja-dates"](text)]

    assert found == [
        ("令和４年３月１５日午後２時", "date-fact"),  # 頃 stays outside
        ("同年８月１４日", "date-fact"),
        ("同月２０日", "date-fact"),
        ("同日午前３時２６分", "date-fact"),  # 同日 alone (は雨) is no span
        ("昭和６２年８月１９日", "nat-idx"),  # a birth
        ("令和４年６月上旬", "date-fact"),
        ("同３１年３月３１日", "date-fact"),
    ]  # 平成２０年法律 is a law's year


def test_a_date_broken_by_a_line_end_is_one_span():
    from hf_anon.model.recognizers import RECOGNIZERS

    text = "被告人は、同年７\n月３０日、同日午\n前３時頃に来た。\n令和４年３月１日に去った。"
    found = [text[s.start : s.end] for s in RECOGNIZERS["ja-dates"](text)]

    assert found == ["同年７\n月３０日", "同日午\n前３時", "令和４年３月１日"]


@pytest.mark.parametrize(
    ("text", "piece", "expected"),
    [
        (
            "これに対する平成２８年４月１日から支払済みまで",
            "平成２８年４月１日から",
            "平成２８年４月１日",
        ),
        ("日本は昭和５４年に批准し", "昭和５４年に", "昭和５４年"),
        ("同年９月２１日までに届け出た", "同年９月２１日までに", "同年９月２１日"),
        ("なお、以下の月日は、断わりのない限り", "月日は", None),  # no number: no date
        ("同日、被告人は", "同日", None),  # 同日 alone adds no day (data/ja/GUIDE.md)
        ("同月末に退職した", "同月末", "同月末"),
    ],
)
def test_a_date_span_ends_before_its_particle_and_needs_a_number(text, piece, expected):
    """The model's tokens run on past a date (``日から`` is one token); the guide keeps
    particles outside, and a date without a number is a fragment."""
    start = text.index(piece)
    spans = japanese_boundaries(text, [Span(start, start + len(piece), "date-fact")])
    assert [text[s.start : s.end] for s in spans] == ([expected] if expected else [])


def test_authorities_are_no_spans_but_a_placeholder_stays():
    from hf_anon.text.japanese_authorities import drop_authorities

    text = "沖縄防衛局は、沖縄県知事に対し申請し、Ａ知事は大阪市北区の株式会社ミナミに勤めた。"

    def span(piece: str, label: str) -> Span:
        start = text.index(piece)
        return Span(start, start + len(piece), label)

    spans = [
        span("沖縄防衛局", "jur-name"),  # a regional bureau of a ministry
        span("沖縄県", "address-name"),  # the prefecture only names its governor
        span("Ａ", "address-name"),  # the court's placeholder for a prefecture
        span("大阪市北区", "address-name"),
        span("ミナミ", "jur-name"),
    ]
    kept = [text[s.start : s.end] for s in drop_authorities(text, spans)]
    assert kept == ["Ａ", "大阪市北区", "ミナミ"]


def test_a_month_and_day_without_a_year_and_a_broken_era_are_dates():
    from hf_anon.model.recognizers import RECOGNIZERS

    text = (
        "同日に来て、３月２日午後３時頃に去り、平\n成２７年４月１６日に戻った。１２か月、毎月１日。"
    )
    found = [text[s.start : s.end] for s in RECOGNIZERS["ja-dates"](text)]

    assert found == ["３月２日午後３時", "平\n成２７年４月１６日"]  # no span in 毎月１日


def test_the_next_day_or_month_and_a_part_of_a_month_are_dates():
    from hf_anon.model.recognizers import RECOGNIZERS

    text = "翌日、帰った。被告人は、翌２５日に到着し、翌\n１１月に離婚した。２月下旬頃に会った。"
    found = [text[s.start : s.end] for s in RECOGNIZERS["ja-dates"](text)]

    assert found == ["翌２５日", "翌\n１１月", "２月下旬"]  # 翌日 alone adds no day


def test_calibrate_runs_the_rules_of_the_models_language(tmp_path, capsys):
    # a Japanese model is calibrated with the Japanese rules beside it, never the German ones
    import shutil

    from hf_anon.cli.main import main

    model = tmp_path / "ja"
    shutil.copytree(default_model("ja"), model)
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        "".join(
            (REPO_ROOT / "data" / "ja" / "validation.jsonl")
            .read_text(encoding="utf-8")
            .splitlines(True)[:4]
        )
    )

    assert main(["calibrate", "--model", str(model), "--gold", str(gold)]) == 0
    assert "recognizers: ja-dates, ja-ip-numbers\n" in capsys.readouterr().out


def test_calibrate_reads_several_gold_sets_as_one(tmp_path, capsys):
    # validation and precedents no candidate trained on, together: more high-risk spans
    # to tell the candidates' recall apart
    import shutil

    from hf_anon.cli.main import main

    model = tmp_path / "ja"
    shutil.copytree(default_model("ja"), model)
    lines = (REPO_ROOT / "data" / "ja" / "validation.jsonl").read_text(encoding="utf-8")
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("".join(lines.splitlines(True)[:2]), encoding="utf-8")
    second.write_text("".join(lines.splitlines(True)[2:5]), encoding="utf-8")

    args = ["calibrate", "--model", str(model), "--gold", str(first), str(second), "--write"]
    assert main(args) == 0
    assert capsys.readouterr().out.startswith("5 documents;")
    record = json.loads((model / "calibration.json").read_text(encoding="utf-8"))
    assert record["gold"] == f"{first} + {second}" and record["documents"] == 5


def test_calibrate_names_the_checkpoint_its_rule_prefers(tmp_path, capsys):
    # checkpoints of one run, each calibrated and stored; the rule names one of them
    import shutil

    from hf_anon.cli.main import EXIT_INVALID_INPUT, main

    first, second = tmp_path / "step-100", tmp_path / "step-200"
    for folder in (first, second):
        shutil.copytree(default_model("ja"), folder)
    gold = tmp_path / "gold.jsonl"
    lines = (REPO_ROOT / "data" / "ja" / "validation.jsonl").read_text(encoding="utf-8")
    gold.write_text("".join(lines.splitlines(True)[:3]), encoding="utf-8")

    args = ["calibrate", "--model", str(first), str(second), "--gold", str(gold)]
    assert main([*args, "--high-risk-slack-se", "1", "--write"]) == 0
    out = capsys.readouterr().out
    assert f"== {first}" in out and "high-risk recall floor" in out
    assert out.rstrip().endswith(f"chosen: {first}")  # equal scores: the first one given
    for folder in (first, second):
        record = json.loads((folder / "calibration.json").read_text(encoding="utf-8"))
        assert record["high_risk_slack_se"] == 1.0 and record["high_risk_floor"] <= 1.0
    # calibrated in parallel processes, chosen among in one call: the stored results are read
    stored = json.loads((second / "calibration.json").read_text(encoding="utf-8"))
    stored["after"]["f_beta"] += 0.01  # as if the second had calibrated better
    (second / "calibration.json").write_text(json.dumps(stored), encoding="utf-8")
    assert main([*args, "--high-risk-slack-se", "1", "--reuse"]) == 0
    out = capsys.readouterr().out
    assert out.count("stored calibration reused") == 2
    assert out.rstrip().endswith(f"chosen: {second}")
    # the model in use stays unless a candidate keeps its high-risk recall and passes the
    # gate (here the same weights: no loss, it passes)
    gate = [*args, "--high-risk-slack-se", "1", "--reuse", "--incumbent", str(first)]
    assert main([*gate, "--gate", str(gold)]) == 0
    out = capsys.readouterr().out
    assert "gate (3 documents)" in out and ": passes" in out
    assert out.rstrip().endswith(f"chosen: {second}")
    # chosen on other decisions instead, paired: the same weights tie, and a tie keeps the
    # model in use whatever the calibration gold's F-beta says
    assert main([*gate, "--choose-on", str(gold)]) == 0
    out = capsys.readouterr().out
    assert "choice (3 documents)" in out and ": ties" in out and "F-beta" in out
    assert out.rstrip().endswith(f"chosen: {first}")
    assert main([*gate, "--choose-on", str(gold), "--gate", str(gold)]) == EXIT_INVALID_INPUT
    assert "give it or --gate" in capsys.readouterr().err
    assert main([*args, "--reuse", "--choose-on", str(gold)]) == EXIT_INVALID_INPUT
    assert "give --incumbent" in capsys.readouterr().err
    assert main([*args, "--reuse", "--gate", str(gold)]) == EXIT_INVALID_INPUT
    assert "give --incumbent" in capsys.readouterr().err
    assert main([*args, "--reuse", "--incumbent", str(tmp_path)]) == EXIT_INVALID_INPUT
    assert "must be one of the --model" in capsys.readouterr().err
    # another rule (no slack) is not what was stored: calibrated again
    assert main([*args, "--reuse"]) == 0
    out = capsys.readouterr().out
    assert "stored calibration reused" not in out and "argmax" in out
    assert main([*args, "--adapter", str(tmp_path)]) == EXIT_INVALID_INPUT
    assert "single --model" in capsys.readouterr().err
    assert main([*args, "--high-risk-slack-se", "-1"]) == EXIT_INVALID_INPUT
    assert "0 or more" in capsys.readouterr().err


def test_the_japanese_model_keeps_name_spans_to_words():
    detector = SpanDetector.from_pretrained(default_model("ja"))
    assert detector.word_analyzer == "sudachi" and detector.label_thresholds
    off = SpanDetector.from_pretrained(default_model("ja"), word_analyzer="")
    assert off.word_analyzer is None


def test_the_japanese_model_runs_its_date_rule():
    detector = SpanDetector.from_pretrained(default_model("ja"))
    text = "被告人は、同年８月１４日、同日午前３時２６分頃に店に入った。"

    assert detector.recognizers == ("ja-dates", "ja-ip-numbers")
    spans = [text[s.start : s.end] for s in detector.detect([text])[0]]
    assert "同年８月１４日" in spans and "同日午前３時２６分" in spans


def test_a_model_trained_on_unwrapped_text_reads_through_the_pdf_line_ends():
    detector = SpanDetector.from_pretrained(default_model("ja"))
    assert detector.unwrap_lines  # the bundled model was trained so (train.py --unwrap_lines)
    text = (
        "原告は，令和２年５月１日，東京都内において，被告の従業員である佐藤健\n"
        "一と面会し，その際，被告の代表者である株式会社ミドリ商会の社長と会った。\n"
    )
    ((encoded, *_),) = detector.predict_probabilities([Document("d", text)])

    assert encoded.text == text  # decoding reads the original, offsets mapped back
    tokens = [text[start:end] for start, end in encoded.offsets]
    assert "健" in tokens and "一" in tokens and "\n一" not in tokens  # the wrap is gone
    spans = [text[s.start : s.end] for s in detector.detect([text])[0]]
    assert "佐藤健\n一" in spans and "令和２年５月１日" in spans
    detector.model.config.unwrap_lines = False  # a model not trained so reads the line ends
    as_it_stands = SpanDetector(detector.model, detector.tokenizer)
    detector.model.config.unwrap_lines = True
    ((encoded, *_),) = as_it_stands.predict_probabilities([Document("d", text)])
    assert "\n一" in [text[start:end] for start, end in encoded.offsets]  # a word boundary
