"""Masking an annotated Japanese precedent the way a court would: the tuned Japanese
tagger's training text (issue 34)."""

from __future__ import annotations

import random
import re

from documents import pieces_with_spans, spans_of
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.corpora.japanese.masking import (
    JapaneseConvention,
    mask_japanese_precedent,
    mask_japanese_surface,
)
from hf_anon.corpora.japanese.placeholder_shapes import (
    JAPANESE_SHAPES,
    could_be_japanese_stand_in,
)
from hf_anon.text.data import Span

PRECEDENT = (
    "被告人山田太郎は，令和４年３月１５日午後２時３０分頃，東京都新宿区西新宿二丁目８番１号の"
    "株式会社さくら銀行新宿支店において，証人鈴木花子に対し暴行を加えた。"
    "山田太郎は犯行を認めている。"
)


GOLD = spans_of(
    PRECEDENT,
    ("山田太郎", "nat-name", 0),
    ("令和４年３月１５日午後２時３０分", "date-fact", 0),
    ("東京都新宿区西新宿二丁目８番１号", "address-name", 0),
    ("さくら銀行", "jur-name", 0),
    ("新宿支店", "jur-idx", 0),
    ("鈴木花子", "nat-name", 0),
    ("山田太郎", "nat-name", 1),
)
EVERYTHING = dict.fromkeys(("nat-name", "date-fact", "address-name", "jur-name", "jur-idx"), 1.0)


def test_a_court_masks_parties_in_order_and_keeps_roles_and_legal_forms_in_clear():
    convention = JapaneseConvention("fullwidth", place_letters="lower", digit_mask="○")
    text, placeholders = mask_japanese_precedent(
        PRECEDENT, GOLD, random.Random(0), convention, EVERYTHING
    )
    surfaces = [(text[p.start : p.end], p.label) for p in placeholders]
    assert surfaces[0] == ("Ａ", "nat-name")  # the first person is Ａ
    assert surfaces[-1] == ("Ａ", "nat-name")  # and stays Ａ at the next mention
    assert "被告人Ａは" in text and "証人Ｄに" in text  # the role stays outside
    assert "株式会社Ｂ銀行" in text  # the legal form and the kind of organisation in clear
    assert ("ａ都ｂ区ｃ○丁目○番○号", "address-name") in surfaces
    assert ("令和○年○月○○日午後○時○○分", "date-fact") in surfaces
    assert "Ｃ支店" in text


def test_labels_risks_and_the_text_between_placeholders_are_kept():
    gold = [Span(s.start, s.end, s.label, "high") for s in GOLD]
    text, placeholders = mask_japanese_precedent(
        PRECEDENT, gold, random.Random(1), chance=EVERYTHING
    )
    assert [p.label for p in placeholders] == [s.label for s in GOLD]
    assert {p.risk for p in placeholders} == {"high"}
    pieces = re.split("|".join(re.escape(text[p.start : p.end]) for p in placeholders), text)
    assert "において，証人" in pieces[-4] or any("において，証人" in p for p in pieces)
    assert text.endswith("は犯行を認めている。")


def test_a_label_never_masked_stays_in_clear():
    text, placeholders = mask_japanese_precedent(
        PRECEDENT, GOLD, random.Random(2), chance={"nat-name": 0.0, "date-fact": 0.0}
    )
    assert "山田太郎" in text and "鈴木花子" in text and "令和４年" in text
    assert all(p.label not in ("nat-name", "date-fact") for p in placeholders)


def test_every_name_shape_writes_a_stand_in_a_court_could_write():
    for shape in JAPANESE_SHAPES:
        convention = JapaneseConvention(shape, seed=3)
        for surface, label in (("山田太郎", "nat-name"), ("さくら銀行", "jur-name")):
            masked = mask_japanese_surface(surface, label, convention, random.Random(0))
            assert could_be_japanese_stand_in(masked), (shape, masked)


@settings(max_examples=80, deadline=None)
@given(
    pieces_with_spans(["山田太郎", "鈴木花子", "被告人", "は", "Ａ"], separator="，"),
    st.integers(0, 2**16),
)
def test_putting_each_surface_back_gives_the_original_text(text_spans, seed):
    text, spans = text_spans
    masked, placeholders = mask_japanese_precedent(
        text, spans, random.Random(seed), chance={"nat-name": 0.6}
    )
    # each placeholder replaced one span, in order: the clear text between them is the
    # original's, and the original comes back when the surfaces are put back
    starts = {s.start: s for s in spans}
    rebuilt, position, original = [], 0, 0
    for p in placeholders:
        assert could_be_japanese_stand_in(masked[p.start : p.end])
        clear = masked[position : p.start]
        source = starts[original + len(clear)]
        assert text[original : source.start] == clear
        rebuilt += [clear, text[source.start : source.end]]
        position, original = p.end, source.end
    rebuilt.append(masked[position:])
    assert "".join(rebuilt) == text
