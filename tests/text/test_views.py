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
