"""The numbers of a Japanese IP case (recognizer ``ja-ip-numbers``): the parties' patents
and applications lead to them through the register; prior art does not."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.model.recognizers import RECOGNIZERS
from hf_anon.model.recognizers.registry import DEFAULT_RECOGNIZERS_BY_LANGUAGE


def found(text: str) -> list[tuple[str, str, str]]:
    return [(text[s.start : s.end], s.label, s.risk) for s in RECOGNIZERS["ja-ip-numbers"](text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "本件特許：特許第４９７４９７１号の特許",
            [("特許第４９７４９７１号", "id-number", "high")],
        ),
        ("商標登録第６１２３４５６号の商標", [("商標登録第６１２３４５６号", "id-number", "high")]),
        (
            "本件出願（特願２０１５－７７４６７号）",
            [("特願２０１５－７７４６７号", "id-number", "high")],
        ),
        (
            "商標登録出願（商願２０２１－１０２６２５号）",
            [("商願２０２１－１０２６２５号", "id-number", "high")],
        ),
        (
            "特許庁が不服２０２２－１３７９５号事件について",
            [("不服２０２２－１３７９５号", "court-docket", "medium")],
        ),
        (
            "特許庁は、同請求を無効２０２１－８０００７３号として",
            [("無効２０２１－８０００７３号", "court-docket", "medium")],
        ),
    ],
)
def test_patents_applications_and_appeals_of_the_case_are_found(text, expected):
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "乙１文献：特開２００５－４６０５１公開特許公報",  # a publication: prior art
        "国際公開番号ＷＯ２００６／１１２２２３",
        "特許第１２３４５６７号公報に記載の発明",  # a patent's gazette, cited as a document
        "特許法２９条２項",  # a statute
        "甲第１号証",  # evidence
    ],
)
def test_prior_art_statutes_and_evidence_are_left_alone(text):
    assert found(text) == []


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_number_broken_by_the_pdfs_line_ends_is_one_span_over_them(data):
    number = "特願２０１５－７７４６７号"
    cuts = sorted(data.draw(st.sets(st.integers(1, len(number) - 1), max_size=3)))
    broken = "".join(
        number[a:b] + ("\n" if b < len(number) else "")
        for a, b in zip([0, *cuts], [*cuts, len(number)], strict=True)
    )
    text = "本件出願（" + broken + "）を行った。"
    spans = RECOGNIZERS["ja-ip-numbers"](text)
    assert len(spans) == 1
    assert text[spans[0].start : spans[0].end].replace("\n", "") == number
    assert text[spans[0].start] != "\n" and text[spans[0].end - 1] != "\n"


def test_japanese_models_are_calibrated_with_it():
    assert "ja-ip-numbers" in DEFAULT_RECOGNIZERS_BY_LANGUAGE["ja"]
