"""A text is read once where it enters: one TextView, handed to every stage after."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hf_anon.text import views
from hf_anon.text.views import TextView, read_text

RUBRUM = "In Sachen\nM a r t i n  S c h u l z, HANS\x00MÜLLER, Kläger"


def test_a_view_holds_what_each_stage_reads():
    view = read_text(RUBRUM)

    assert view.original == RUBRUM
    assert view.detection == RUBRUM.replace("\x00", " ")  # decoding, operators, topics
    assert view.model == "In Sachen\nMartin  Schulz, Hans Müller, Kläger"  # the span model
    # every character the model reads is the original character at its index, up to case
    index = view.model_index
    assert all(view.model[i].lower() == view.detection[index[i]].lower() for i in range(20))


def test_japanese_is_read_as_its_detection_view():
    view = read_text("原告Ａは\x00東京都に住む。", "ja")

    assert view.model == view.detection == "原告Ａは 東京都に住む。"
    assert view.model_index is None


def test_a_view_is_reused_not_recomputed(monkeypatch):
    calls = []
    real = views.detection_view
    monkeypatch.setattr(views, "detection_view", lambda t: calls.append(t) or real(t))
    view = read_text("Hans\x00Müller")

    for _ in range(3):
        assert read_text(view) is view
        assert view.detection == "Hans Müller" and view.model == "Hans Müller"
    assert len(calls) == 1
    assert read_text(view, "ja") is not view  # another language reads it anew


def test_bad_text_is_refused():
    import pytest

    with pytest.raises(TypeError, match="must be a string"):
        TextView(b"bytes")


@given(st.text(alphabet=st.sampled_from("ab AB\x00\x07\n-Ü"), max_size=60))
def test_views_keep_the_offsets_of_the_original(text):
    view = read_text(text)

    assert len(view.detection) == len(text)
    index = view.model_index
    if index is None:
        assert len(view.model) == len(text)
    else:
        assert len(index) == len(view.model) + 1 and index[-1] == len(text)
        assert all(
            view.model[i].lower() == view.detection[index[i]].lower()
            for i in range(len(view.model))
        )


WRAPPED = (
    "主　　文\n"
    "被告人を懲役３年に処する。\n"
    "理　　由\n"
    "被告人は，令和２年５月１日，海事鑑定人が右チー・リ\n"
    "ンと控訴人の折衝の場で，「と\n"
    "びうお」の船長に対し，暴行を加えたものである。\n"
    "第１　事実\n"
)


def test_a_japanese_model_trained_so_reads_through_the_line_ends_of_the_pdf_wrapping():
    view = read_text(WRAPPED, "ja", unwrap_lines=True)

    # a wrapped line (15 characters or more, not ending a sentence) joins the next;
    # headings, short lines and sentence ends keep their line end
    assert "チー・リンと控訴人" in view.model and "「とびうお」" not in view.model
    assert view.model.startswith("主　　文\n被告人を懲役３年に処する。\n理　　由\n")
    assert view.model.endswith("ものである。\n第１　事実\n")
    index = view.model_index
    assert all(view.model[i] == WRAPPED[index[i]] for i in range(len(view.model)))
    assert read_text(view, "ja", unwrap_lines=True) is view
    assert read_text(view, "ja").model == WRAPPED  # a model not trained so reads it as it is


@given(st.text(alphabet=st.sampled_from("あ。第１（）\n 　Ａ"), max_size=80))
def test_unwrapping_only_drops_line_ends_and_keeps_offsets(text):
    view = read_text(text, "ja", unwrap_lines=True)
    index = view.model_index
    if index is None:
        assert view.model == text
        return
    assert len(index) == len(view.model) + 1 and index[-1] == len(text)
    dropped = set(range(len(text))) - set(index[:-1].tolist())
    assert all(text[i] == "\n" for i in dropped)
    assert all(view.model[i] == text[index[i]] for i in range(len(view.model)))
