"""The dates and dockets of statutes and cited precedents are no spans in Japanese text
(rule 7 of the Japanese annotation guide; hf_anon.text.japanese_citations)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.text.data import Span
from hf_anon.text.japanese_citations import drop_cited_japanese
from hf_anon.text.languages import find_japanese_dates

TEXT = (
    "被告人は，令和元年６月１３日，Ａ方に侵入した。消費税法（平成２４年法律第６８号による"
    "改正前のもの）３０条による。同法は平成２５年５月３１日に公布，⏎平成２７年１０月５日に"
    "施行された。拘束力は及ばない（最高裁昭和４３年１０月⏎２５日第二小法廷判決・刑集２２巻"
    "１１号９６１頁参照）。当裁判所大法廷判例（昭和２２年（れ）第４３号同２３年３月１０日判決"
    "・刑集２巻３号４２０頁）による。原告が，同日，最高裁平成２９年１月３１⏎日決定民集７１巻"
    "１号６３頁（以下「平成２９年最決」という。）を送付した。最高裁判所（差戻前上告審）は，"
    "平成２８年３月２４日，原判決を破棄した。"
).replace("⏎", "\n")


def span(surface: str, label: str) -> Span:
    start = TEXT.index(surface)
    return Span(start, start + len(surface), label, "medium")


def kept(spans):
    return [TEXT[s.start : s.end] for s in drop_cited_japanese(TEXT, spans)]


def test_the_dates_of_the_facts_and_of_the_earlier_instance_stay():
    spans = [span("令和元年６月１３日", "date-fact"), span("平成２８年３月２４日", "date-world")]
    assert kept(spans) == ["令和元年６月１３日", "平成２８年３月２４日"]


def test_statute_numbers_and_a_statutes_dates_are_no_spans():
    spans = [
        span("平成２４年", "court-docket"),
        span("平成２５年５月３１日に", "date-world"),
        span("平成２７年１０月５日", "date-fact"),
    ]
    assert kept(spans) == []


def test_cited_precedents_lose_their_dates_dockets_and_courts():
    spans = [
        span("最高裁", "court-name"),
        span("昭和４３年１０月\n２５日", "date-world"),
        span("昭和２２年（れ）第４３号", "court-docket"),
        span("同２３年３月１０日", "date-world"),
        span("平成２９年１月３１\n日", "date-world"),
        span("平成２９年", "date-fact"),  # 「平成２９年最決」: a decision named by its year
    ]
    assert kept(spans) == []


def test_names_pass_even_inside_a_citation():
    names = [span("Ａ", "nat-name"), span("刑集", "jur-name")]
    assert drop_cited_japanese(TEXT, names) == names


def test_the_date_grammar_keeps_only_the_cases_own_dates():
    # ja-dates finds every era date; the filter leaves those of this case
    kept_dates = kept(find_japanese_dates(TEXT))
    assert "令和元年６月１３日" in kept_dates
    assert any(d.startswith("平成２８年３月２４日") for d in kept_dates)
    assert not any(d.startswith(("平成２４年", "昭和４３年", "平成２５年")) for d in kept_dates)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_filter_only_removes_spans_and_keeps_their_order(data):
    labels = ["date-fact", "date-world", "court-docket", "court-name", "nat-name"]
    spans = []
    for _ in range(data.draw(st.integers(0, 8))):
        start = data.draw(st.integers(0, len(TEXT) - 1))
        end = data.draw(st.integers(start + 1, min(len(TEXT), start + 20)))
        spans.append(Span(start, end, data.draw(st.sampled_from(labels)), "medium"))
    spans.sort(key=lambda s: (s.start, s.end))
    out = drop_cited_japanese(TEXT, spans)
    assert [s for s in spans if s in out] == out
    assert all(s in out for s in spans if s.label == "nat-name")
