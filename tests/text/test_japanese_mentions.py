"""A name the model found once is a span in every mention (hf_anon.text.japanese_mentions)."""

from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.text.data import Span
from hf_anon.text.japanese_mentions import MIN_SCORE, spread_names
from hf_anon.text.japanese_words import word_boundaries

TEXT = "有限会社三星住設（以下「三星住設」という。）原告は，三星住設に対し，森林の中の森を見た。"


def spans_of(text, found):
    return [(text[s.start : s.end], s.label) for s in found]


def at(text: str, surface: str, label: str = "jur-name", score: float = 0.9, nth: int = 0) -> Span:
    start = -1
    for _ in range(nth + 1):
        start = text.index(surface, start + 1)
    return Span(start, start + len(surface), label, "high", score)


def test_a_company_found_once_is_marked_in_every_mention():
    found = spread_names(TEXT, [at(TEXT, "三星住設")], word_boundaries(TEXT))
    assert spans_of(TEXT, found) == [("三星住設", "jur-name")] * 3


def test_a_name_does_not_spread_into_a_longer_word():
    # 森 (a surname) is not marked inside 森林 (a forest), one word for the analyzer
    found = spread_names(TEXT, [at(TEXT, "森", "nat-name", nth=1)], word_boundaries(TEXT))
    assert spans_of(TEXT, found) == [("森", "nat-name")]


def test_doubtful_names_placeholders_and_other_labels_do_not_spread():
    text = "原告Ａは，Ａ社に勤め，札幌市に住む。被告は札幌市の三星住設と三星住設で会った。"
    found = [
        at(text, "Ａ", "nat-name"),  # a court's placeholder: the placeholder detector's work
        at(text, "札幌市", "address-name"),  # places do not spread
        at(text, "三星住設", score=MIN_SCORE - 0.1),  # the model was not sure
    ]
    assert spread_names(text, found, word_boundaries(text)) == sorted(found)


def test_the_longer_name_goes_first():
    text = "三星住設の社長三星太郎と三星住設の取引"
    found = [at(text, "三星住設"), at(text, "三星", "nat-name", nth=1)]
    spread = spans_of(text, spread_names(text, found, word_boundaries(text)))
    assert spread.count(("三星住設", "jur-name")) == 2  # not 三星 + 住設


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.sampled_from(["三星住設", "は", "，", "森", "森林", "原告", "に対し", "。"]), max_size=25
    )
)
def test_spans_stay_inside_the_text_sorted_disjoint_and_cover_what_was_found(words):
    text = "三星住設" + "".join(words)
    found = [Span(0, 4, "jur-name", "high", 0.9)]
    spread = spread_names(text, found, word_boundaries(text))
    assert all(0 <= s.start < s.end <= len(text) for s in spread)
    assert all(a.end <= b.start for a, b in pairwise(spread))
    assert any(s.start == 0 and s.end >= 4 for s in spread)
    assert all(text[s.start : s.end] == "三星住設" for s in spread)
