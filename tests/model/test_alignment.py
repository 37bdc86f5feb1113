"""Token alignment: spans → tags → windows → spans, with any fast tokenizer."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hf_anon.model.alignment import (
    CUT_PARAGRAPH,
    CUT_SENTENCE,
    CUT_WORD,
    IGNORE_INDEX,
    TAG_B,
    TAG_I,
    TAG_O,
    cut_scores,
    decode_spans,
    encode_document,
    encode_documents,
    merge_windows,
    one_hot,
    plan_windows,
    snap_to_words,
    spans_to_token_tags,
    tags_to_spans,
    trim_punctuation,
)
from hf_anon.text.data import Document, Span, validate_document
from hf_anon.text.labels import DEFAULT_LABELS

WORDS = [
    "Herr",
    "Hans",
    "Müller",
    "Müllers",
    "wohnt",
    "in",
    "der",
    "Bahnhofstraße",
    "12,",
    "80331",
    "München.",
    "Ayşe",
    "Yılmaz-Berger",
    "am",
    "3.",
    "März",
    "2021",
    "14:30",
    "Uhr",
    "VW",
    "Golf",
    "M-AB",
    "1234",
    "Az.",
    "5",
    "Js",
    "123/21",
    "(Anl.",
    "K",
    "3)",
    "GmbH",
    "§",
    "823",
    "BGB",
    "Öztürk",
    "ß",
    "é",
    "😀",
    "ＡＢ",
    "i.d.R.",
    "„Haus“",
]
SEPARATORS = [" ", " ", " ", "  ", "\n", "\n\n", "\t", " \n "]


def without_scores(spans: list[Span]) -> list[Span]:
    return [Span(s.start, s.end, s.label, s.risk) for s in spans]


def tokens_of(tokenizer, text: str) -> np.ndarray:
    enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    return np.asarray(enc["offset_mapping"], dtype=np.int64).reshape(-1, 2)


def trimmed_token_ranges(text: str, offsets: np.ndarray) -> list[tuple[int, int]]:
    """Token character ranges without whitespace (dropping whitespace-only tokens)."""
    out = []
    for start, end in offsets.tolist():
        piece = text[start:end]
        if not piece.strip():
            continue
        start += len(piece) - len(piece.lstrip())
        end -= len(piece) - len(piece.rstrip())
        out.append((start, end))
    return out


@st.composite
def documents_on_token_boundaries(draw, tokenizer):
    any_word = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=6)
    words = draw(st.lists(st.sampled_from(WORDS) | any_word, min_size=0, max_size=40))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(words), max_size=len(words)))
    lead = draw(st.sampled_from(["", " ", "\n"]))
    text = lead + "".join(w + s for w, s in zip(words, seps, strict=True))
    ranges = trimmed_token_ranges(text, tokens_of(tokenizer, text))
    # Byte-level tokenizers may give several tokens the same characters: not a boundary.
    assume(all(a[1] <= b[0] for a, b in itertools.pairwise(ranges)))
    spans, i = [], 0
    while i < len(ranges):
        action = draw(st.integers(0, 3))
        if action == 0:  # a span of 1-4 tokens starts here
            length = draw(st.integers(1, 4))
            j = min(len(ranges), i + length)
            label = draw(st.sampled_from(DEFAULT_LABELS.names))
            risk = draw(st.sampled_from(DEFAULT_LABELS.risks))
            spans.append(Span(ranges[i][0], ranges[j - 1][1], label, risk))
            i = j
        else:
            i += 1
    return Document(id="doc", text=text, spans=spans)


@pytest.mark.parametrize("max_length", [8, 16, 512])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_gold_spans_round_trip_through_tags_and_windows(tokenizer, max_length, data):
    doc = data.draw(documents_on_token_boundaries(tokenizer))
    validate_document(doc)  # the generated spans are valid gold spans
    stride = data.draw(st.integers(0, (max_length - 2) // 2))
    encoded = encode_document(doc, tokenizer, max_length=max_length, stride=stride)
    assert all(len(w.input_ids) <= max_length for w in encoded.windows)
    assert without_scores(tags_to_spans(encoded)) == doc.spans


def test_windows_carry_special_tokens_and_ignored_targets(wordpiece_tokenizer):
    tok = wordpiece_tokenizer
    text = "Herr Hans Müller wohnt in München."
    doc = Document("d", text, [Span(5, 16, "nat-name", "high")])
    (window,) = encode_document(doc, tok).windows
    assert window.input_ids[0] == tok.cls_token_id
    assert window.input_ids[-1] == tok.sep_token_id
    assert window.content_offset == 1
    assert window.span_tags[0] == window.span_tags[-1] == IGNORE_INDEX
    # Position of each content token in the window, by the character it starts at.
    starts = {int(s): k + 1 for k, (s, _) in enumerate(encode_document(doc, tok).offsets)}
    herr, hans, wohnt = starts[0], starts[5], starts[text.index("wohnt")]
    assert window.span_tags[herr] == TAG_O
    assert window.span_tags[hans] == TAG_B
    assert all(window.span_tags[i] == TAG_I for i in range(hans + 1, wohnt))
    assert window.span_tags[wohnt] == TAG_O
    nat_name, high = DEFAULT_LABELS.label_id("nat-name"), DEFAULT_LABELS.risk_id("high")
    assert window.label_ids[hans] == nat_name and window.risk_ids[hans] == high
    assert window.label_ids[herr] == IGNORE_INDEX  # "Herr" is outside any span


def test_span_not_on_token_boundary_tags_every_touched_token(wordpiece_tokenizer):
    text = "Müllers Auto"
    offsets = tokens_of(wordpiece_tokenizer, text)
    tags, labels, _ = spans_to_token_tags(offsets, [Span(0, 6, "nat-name", "high")])
    # "Müller" is not a single token here: every token overlapping [0, 6) is tagged.
    covered = [i for i, (s, e) in enumerate(offsets.tolist()) if s < 6 and e > 0]
    assert tags[covered[0]] == TAG_B
    assert all(tags[i] == TAG_I for i in covered[1:])
    assert labels[covered[-1] + 1 :].tolist() == [IGNORE_INDEX] * (len(offsets) - covered[-1] - 1)


def test_long_document_is_windowed_never_truncated(tokenizer):
    sentence = "Herr Hans Müller wohnt in der Bahnhofstraße 12, 80331 München. "
    text = sentence * 200
    starts = [i * len(sentence) + 5 for i in range(200)]
    spans = [Span(s, s + 11, "nat-name", "high") for s in starts]
    doc = Document("long", text, spans)
    encoded = encode_document(doc, tokenizer, max_length=64, stride=16)
    assert len(encoded.windows) > 10
    covered = np.zeros(encoded.num_tokens, dtype=bool)
    for w in encoded.windows:
        covered[w.token_start : w.token_end] = True
        assert len(w.input_ids) <= 64
    assert covered.all()
    assert without_scores(tags_to_spans(encoded)) == spans


def test_windows_end_at_sentence_or_paragraph_boundaries(wordpiece_tokenizer):
    paragraph = "Der Kläger verlangt Schadensersatz von der Beklagten. " * 3
    text = (paragraph.strip() + "\n\n") * 6
    encoded = encode_document(Document("p", text), wordpiece_tokenizer, max_length=64, stride=8)
    scores = cut_scores(text, encoded.offsets)
    for w in encoded.windows[:-1]:
        assert scores[w.token_end] >= CUT_SENTENCE
        following = text[encoded.offsets[w.token_end - 1, 1] : encoded.offsets[w.token_end, 0]]
        assert following.strip() == "" and following  # never inside a word


def test_cut_scores_rank_paragraph_over_sentence_over_word(tokenizer):
    text = "Erster Satz. Zweiter Satz\n\nNeuer Absatz"
    offsets = tokens_of(tokenizer, text)
    scores = cut_scores(text, offsets)
    assert scores[_first_at(text, offsets, "Neuer")] == CUT_PARAGRAPH
    assert scores[_first_at(text, offsets, "Zweiter")] == CUT_SENTENCE
    assert scores[_first_at(text, offsets, "Satz\n")] == CUT_WORD


def _first_at(text: str, offsets: np.ndarray, word: str) -> int:
    """The token that begins ``word`` (Metaspace tokens start on the space before it)."""
    position = text.index(word)
    return int(np.searchsorted(offsets[:, 0], position - 1, side="left"))


@settings(max_examples=200, deadline=None)
@given(
    scores=st.lists(st.integers(0, 4), min_size=0, max_size=300),
    capacity=st.integers(1, 40),
    data=st.data(),
)
def test_planned_windows_cover_all_tokens_in_order(scores, capacity, data):
    stride = data.draw(st.integers(0, capacity // 2))
    windows = plan_windows(np.asarray(scores, dtype=np.int8), capacity, stride)
    if not scores:
        assert windows == []
        return
    assert windows[0][0] == 0 and windows[-1][1] == len(scores)
    for (s1, e1), (s2, e2) in itertools.pairwise(windows):
        assert s1 < s2 <= e1 < e2  # progress, overlap, no gap
        assert e1 - s2 <= stride
    assert all(0 < e - s <= capacity for s, e in windows)


def test_plan_windows_rejects_impossible_settings():
    with pytest.raises(ValueError, match="capacity"):
        plan_windows(np.zeros(5, dtype=np.int8), 0, 0)
    with pytest.raises(ValueError, match="stride"):
        plan_windows(np.zeros(5, dtype=np.int8), 10, 6)


def test_empty_and_whitespace_documents_have_no_windows(tokenizer):
    for text in ["", "   \n\n  "]:
        encoded = encode_document(Document("e", text), tokenizer)
        assert encoded.windows == [] or tags_to_spans(encoded) == []


def test_batched_encoding_matches_single_documents(wordpiece_tokenizer):
    docs = [
        Document("a", "Herr Hans Müller.", [Span(5, 16, "nat-name", "high")]),
        Document("b", "Frau Öztürk aus Köln", [Span(5, 11, "nat-name", "high")]),
    ]
    batched = encode_documents(docs, wordpiece_tokenizer, max_length=32, stride=4)
    for doc, enc in zip(docs, batched, strict=True):
        single = encode_document(doc, wordpiece_tokenizer, max_length=32, stride=4)
        assert [w.input_ids for w in enc.windows] == [w.input_ids for w in single.windows]
        assert without_scores(tags_to_spans(enc)) == doc.spans


def test_slow_tokenizer_is_refused():
    class Slow:
        is_fast = False

    with pytest.raises(TypeError, match="fast tokenizer"):
        encode_documents([Document("a", "x")], Slow())


def _probs(rows: list[list[float]]) -> np.ndarray:
    return np.asarray(rows, dtype=np.float64)


def test_decode_uses_threshold_to_trade_precision_for_recall():
    text = "Hans Müller kam"
    offsets = np.array([[0, 4], [5, 11], [12, 15]])
    tags = _probs([[0.4, 0.5, 0.1], [0.6, 0.1, 0.3], [0.9, 0.05, 0.05]])
    labels = one_hot([0, 0, 0], len(DEFAULT_LABELS))
    risks = one_hot([2, 2, 2], 3)
    argmax = decode_spans(text, offsets, tags, labels, risks)
    assert [(s.start, s.end) for s in argmax] == [(0, 4)]
    lenient = decode_spans(text, offsets, tags, labels, risks, threshold=0.3)
    assert [(s.start, s.end, s.label, s.risk) for s in lenient] == [(0, 11, "nat-name", "high")]
    assert lenient[0].score == pytest.approx((0.6 + 0.4) / 2)


def test_decode_takes_majority_label_and_trims_whitespace():
    text = " Bahnhofstraße 12 ,"
    offsets = np.array([[0, 14], [14, 17], [17, 19]])  # tokens carry whitespace
    tags = one_hot([TAG_B, TAG_I, TAG_O], 3)
    address, name = DEFAULT_LABELS.label_id("address-name"), DEFAULT_LABELS.label_id("nat-name")
    labels = _probs([[0.0] * len(DEFAULT_LABELS)] * 3)
    labels[0, address], labels[1, address], labels[1, name] = 0.9, 0.4, 0.6
    (span,) = decode_spans(text, offsets, tags, labels, one_hot([2, 2, 0], 3))
    assert (span.start, span.end, span.label) == (1, 17, "address-name")
    assert text[span.start : span.end] == "Bahnhofstraße 12"


def test_decode_never_returns_overlapping_spans_from_overlapping_offsets():
    text = "😀x"
    offsets = np.array([[0, 1], [0, 1], [1, 2]])  # byte-level pieces of one character
    tags = one_hot([TAG_B, TAG_B, TAG_I], 3)
    spans = decode_spans(text, offsets, tags, one_hot([0, 1, 1], 14), one_hot([2, 2, 2], 3))
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
    # the second piece of the emoji starts no second span on it: one span a character
    assert [(s.start, s.end) for s in spans] == [(0, 1), (1, 2)]


def test_merge_windows_averages_overlapping_predictions(wordpiece_tokenizer):
    text = "eins zwei drei vier fünf sechs sieben acht neun zehn"
    encoded = encode_document(Document("n", text), wordpiece_tokenizer, max_length=8, stride=2)
    assert len(encoded.windows) > 1
    outputs = [np.full((len(w.input_ids), 1), float(k)) for k, w in enumerate(encoded.windows)]
    merged = merge_windows(encoded, outputs)
    first, second = encoded.windows[0], encoded.windows[1]
    overlap = slice(second.token_start, first.token_end)
    if second.token_start < first.token_end:
        assert np.allclose(merged[overlap], 0.5)
    assert np.allclose(merged[: second.token_start], 0.0)
    with pytest.raises(ValueError, match="window outputs"):
        merge_windows(encoded, outputs[:-1])


def test_snap_to_words_widens_partial_words_and_keeps_punctuation_out():
    text = "Zeitraum 01.01.2022 bis (Az. 51.2-BS-1187/23). „Frau Brandstätters Brief"
    part = lambda word: Span(text.index(word), text.index(word) + len(word), "x")  # noqa: E731
    snapped = snap_to_words(text, [part("2022"), part("-1187"), part("Brandstätte")])
    assert [text[s.start : s.end] for s in snapped] == [
        "01.01.2022",
        "51.2-BS-1187/23",
        "Brandstätters",
    ]


@pytest.mark.parametrize(
    ("text", "part", "expected"),
    [
        ("Seite 2 von 3Verwaltungsgericht Münster", "Verwaltungsgericht", "Verwaltungsgericht"),
        ("11 K 32/05 26.03.2011http://www.justiz.nrw.de", "26.03.2011", "26.03.2011"),
        ("Bahnhofstraße 12a in", "12", "12a"),  # a house-number letter is part of the number
        ("im 3.OG links", "3", "3.OG"),
    ],
)
def test_snap_to_words_stops_where_a_number_runs_into_a_word(text, part, expected):
    start = text.index(part)
    (snapped,) = snap_to_words(text, [Span(start, start + len(part), "x")])
    assert text[snapped.start : snapped.end] == expected


def test_snap_to_words_merges_pieces_of_one_word_keeping_the_longest_label():
    text = "am 10.12.2022 wegen"
    pieces = [Span(3, 5, "date-world", "low", 0.6), Span(9, 13, "date-fact", "medium", 0.9)]
    assert snap_to_words(text, pieces) == [Span(3, 13, "date-fact", "medium", 0.9)]


def test_snap_to_words_stops_after_max_extend_characters():
    text = "x" * 200
    assert snap_to_words(text, [Span(100, 101, "x")], max_extend=10) == [Span(90, 111, "x")]


@given(
    text=st.text(alphabet=st.sampled_from("ab .,„“-/\n"), max_size=60),
    data=st.data(),
)
def test_snapped_spans_cover_the_originals_and_never_overlap(text, data):
    assume(text)
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=8)))
    spans = [Span(a, b, "x") for a, b in itertools.pairwise(cuts[: len(cuts) // 2 * 2]) if a < b]
    spans = spans[::2]
    snapped = snap_to_words(text, spans)
    for a, b in itertools.pairwise(snapped):
        assert a.end <= b.start
    for span in spans:
        assert any(s.start <= span.start and span.end <= s.end for s in snapped)
    for s in snapped:
        original = [o for o in spans if s.start <= o.start and o.end <= s.end]
        assert original
        # widening only crosses non-whitespace characters, within each word
        added = (
            text[s.start : min(o.start for o in original)]
            + text[max(o.end for o in original) : s.end]
        )
        assert not any(c.isspace() for c in added)


def test_trim_punctuation_leaves_out_what_the_guidelines_leave_out():
    text = "Hauptstraße 21, Kellerabteil Nr. 7. (TK-88 403 771) Bahnhofstr. „),"
    spans = [
        Span(0, 15, "address-name"),  # "Hauptstraße 21,"
        Span(16, 35, "address-idx"),  # "Kellerabteil Nr. 7."
        Span(36, 51, "id-number"),  # "(TK-88 403 771)"
        Span(52, 63, "address-name"),  # "Bahnhofstr." keeps its abbreviation dot
        Span(64, 67, "x"),  # punctuation only: dropped
    ]
    assert [text[s.start : s.end] for s in trim_punctuation(text, spans)] == [
        "Hauptstraße 21",
        "Kellerabteil Nr. 7",
        "TK-88 403 771",
        "Bahnhofstr.",
    ]


@given(text=st.text(alphabet=st.sampled_from("ab1 .,()„“-\n"), max_size=40), data=st.data())
def test_trimmed_spans_lie_inside_the_originals(text, data):
    assume(text)
    a = data.draw(st.integers(0, len(text) - 1))
    b = data.draw(st.integers(a + 1, len(text)))
    trimmed = trim_punctuation(text, [Span(a, b, "x", "low", 0.5)])
    for span in trimmed:
        assert a <= span.start < span.end <= b and (span.label, span.score) == ("x", 0.5)
        assert not text[span.start].isspace() and not text[span.end - 1].isspace()
    if not trimmed:
        assert not any(c.isalnum() or c == "-" for c in text[a:b])


def test_the_readme_loop_decodes_each_document(wordpiece_tokenizer):
    """The README's alignment snippet: ``encode_documents`` gives one encoding per
    document; a "model" that returns each window's own targets gives the gold back."""
    from hf_anon.model.alignment import one_hot
    from hf_anon.text.labels import BIO_TAGS

    texts = ["Herr Hans Müller wohnt in der Bahnhofstraße 12, 80331 München.", "Kurz."]
    start = texts[0].index("Hans")
    docs = [
        Document("a", texts[0], [Span(start, start + 11, "nat-name", "high")]),
        Document("b", texts[1], []),
    ]

    def model_probabilities(window):  # stands for the model: a window's targets
        return [
            one_hot(window.span_tags, len(BIO_TAGS)),
            one_hot(window.label_ids, len(DEFAULT_LABELS)),
            one_hot(window.risk_ids, len(DEFAULT_LABELS.risks)),
        ]

    found = []
    encoded = encode_documents(docs, wordpiece_tokenizer, max_length=8, stride=2)
    for doc in encoded:
        outputs = [model_probabilities(window) for window in doc.windows]
        tag_probs, label_probs, risk_probs = (
            merge_windows(doc, [out[head] for out in outputs]) for head in range(3)
        )
        spans = decode_spans(doc.text, doc.offsets, tag_probs, label_probs, risk_probs)
        found.append([(s.start, s.end, s.label, s.risk) for s in spans])
    assert len(encoded) == 2 and len(encoded[0].windows) > 1
    assert found == [[(start, start + 11, "nat-name", "high")], []]
