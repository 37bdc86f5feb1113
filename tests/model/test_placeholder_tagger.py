"""The learned placeholder tagger: re-rendering, combining with the rules, saving and
loading its head beside a model, and the command line that scores it by court."""

from __future__ import annotations

import gzip
import json
import random
import re

import numpy as np
import pytest
import torch
from documents import pieces_with_spans
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.cli import main as cli_main
from hf_anon.corpora.placeholders.shapes import is_glyph_code
from hf_anon.model.placeholder_tagger import (
    HEAD_CONFIG,
    PlaceholderTagger,
    TaggerConfig,
    build_head,
    combine,
    could_be_stand_in,
    find_placeholders_with,
    render_shape,
    rerender,
)
from hf_anon.text.data import Span

DECISION = "In der Verwaltungsrechtssache des Herrn A., wohnhaft A-Straße 1, gegen die XXX GmbH."


@settings(max_examples=200, deadline=None)
@given(
    pieces_with_spans(["Herr", "A.", "B-Straße 3", "XXX", "der", "…", "Kläger"]),
    st.integers(0, 10_000),
)
def test_rerender_moves_spans_with_the_text_and_keeps_the_rest(case, seed):
    text, spans = case
    new_text, new_spans = rerender(text, spans, random.Random(seed))
    assert len(new_spans) == len(spans)
    assert [s.label for s in new_spans] == [s.label for s in spans]
    # what lies between the placeholders is untouched
    old_edges = [0, *[p for s in spans for p in (s.start, s.end)], len(text)]
    new_edges = [0, *[p for s in new_spans for p in (s.start, s.end)], len(new_text)]
    for k in range(0, len(old_edges), 2):
        assert text[old_edges[k] : old_edges[k + 1]] == new_text[new_edges[k] : new_edges[k + 1]]
    assert all(new_text[s.start : s.end].strip() for s in new_spans)


def test_render_shape_writes_each_courts_convention():
    rng = random.Random(0)
    assert render_shape("Müller", "initial", rng) == "M."
    assert set(render_shape("A.", "XXX", rng)) == {"X"}
    assert set(render_shape("A.", "###", rng)) == {"#"}
    assert render_shape("A.", "ellipsis", rng) in {"…", "..."}
    assert render_shape("B.", "initial-ellipsis", rng) == "B…"
    # the second key's conventions: bare letters, lettered codes, numbered and underscored
    assert render_shape("I AG", "bare", rng) == "I"
    assert re.fullmatch(r"G[A-G]\.", render_shape("G.", "code", rng))
    assert re.fullmatch(r"X[1-9]", render_shape("X.", "numbered", rng))
    assert re.fullmatch(r"S_{3,5}", render_shape("S.", "underscore", rng))


def test_combine_adds_only_what_the_rules_did_not_find():
    rules = [Span(0, 3, "nat-name"), Span(10, 14, "address-name")]
    tagged = [Span(1, 2, "jur-name"), Span(20, 23, "nat-name"), Span(12, 16, "nat-name")]
    assert combine(rules, tagged) == [rules[0], rules[1], Span(20, 23, "nat-name")]


@pytest.fixture(scope="module")
def tagged_model(tiny_model_dir, tmp_path_factory):
    """The tiny model with a random placeholder head saved beside it."""
    import shutil

    folder = tmp_path_factory.mktemp("tagged") / "model"
    shutil.copytree(tiny_model_dir, folder)
    tagger = PlaceholderTagger.from_pretrained(folder, require_head=False)
    torch.manual_seed(0)
    tagger.config = TaggerConfig(tagger.config.hidden_size, head_units=8, threshold=0.3)
    tagger.head = build_head(tagger.config).eval()
    tagger.save_head(folder)
    return folder


def test_a_folder_without_a_head_says_how_to_train_one(tiny_model_dir):
    with pytest.raises(ValueError, match="train_placeholder_tagger"):
        PlaceholderTagger.from_pretrained(tiny_model_dir)


def test_the_head_loads_with_its_settings(tagged_model):
    tagger = PlaceholderTagger.from_pretrained(tagged_model)
    saved = json.loads((tagged_model / HEAD_CONFIG).read_text())
    assert saved["threshold"] == tagger.config.threshold == 0.3
    assert saved["head_units"] == 8
    spans = tagger.predict([DECISION, ""])
    assert spans[1] == []
    for span in spans[0]:
        assert 0 <= span.start < span.end <= len(DECISION)
        assert span.label in tagger.labels
        assert DECISION[span.start : span.end] == DECISION[span.start : span.end].strip()


@pytest.mark.parametrize("method", ["rules", "tagger", "both"])
def test_every_method_gives_labelled_placeholders(tagged_model, method):
    tagger = PlaceholderTagger.from_pretrained(tagged_model)
    (found,) = find_placeholders_with([DECISION], method=method, labels="model", tagger=tagger)
    surfaces = [DECISION[s.start : s.end] for s in found]
    if method != "tagger":
        assert {"A.", "A-Straße 1", "XXX"} <= set(surfaces)
    assert all(s.label in tagger.labels for s in found)  # no "unknown" with model labels


def test_cues_keep_the_rules_labels_without_a_model():
    (found,) = find_placeholders_with([DECISION], method="rules", labels="cues")
    assert [(DECISION[s.start : s.end], s.label) for s in found] == [
        ("A.", "nat-name"),
        ("A-Straße 1", "address-name"),
        ("XXX", "jur-name"),
    ]
    with pytest.raises(ValueError, match="method"):
        find_placeholders_with([DECISION], method="magic")


def test_cli_scores_a_key_by_court_with_intervals(tmp_path, tagged_model, capsys):
    key = tmp_path / "key.jsonl"
    rows = [
        {"id": "a", "text": DECISION, "court_family": "VG Eins",
         "placeholders": [{"start": 40, "end": 42, "label": "nat-name"}]},
        {"id": "b", "text": "Der Zeuge B. sagte aus.", "court_family": "VG Zwei",
         "placeholders": [{"start": 10, "end": 12, "label": "nat-name"}]},
    ]  # fmt: skip
    key.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert cli_main(["placeholders", "--evaluate", str(key), "--by", "court_family", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result["groups"]) == {"VG Eins", "VG Zwei"}
    assert result["groups"]["VG Zwei"]["recall"] == 1.0
    low, high = result["intervals"]["recall"]
    assert 0.0 <= low <= result["recall"] <= high <= 1.0
    assert cli_main(["placeholders", "--evaluate", str(key), "--method", "both", "--labels",
                     "model", "--tagger", str(tagged_model), "--no-progress"]) == 0  # fmt: skip
    assert "95% interval of recall" in capsys.readouterr().out


def test_cli_audit_writes_a_report_per_court(tmp_path, capsys):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        json.dumps({"id": "1", "court": "VG Eins", "text": "Nach Kapitel XXX gilt das."}) + "\n"
        + json.dumps({"id": "2", "court": "VG Zwei", "text": "Der Kläger XXX klagt."}) + "\n"
    )  # fmt: skip
    out = tmp_path / "audit.md"
    assert cli_main(["placeholders", "--audit", str(corpus), "--output", str(out)]) == 0
    assert "1 of 2 unmistakable masks outside" in capsys.readouterr().err
    report = json.loads(out.with_suffix(".json").read_text())
    assert report[0]["groups"][0]["group"] == "VG Eins" and report[0]["masks_outside"] == 1
    packed = tmp_path / "corpus.jsonl.gz"  # corpora as the shared data ship them
    packed.write_bytes(gzip.compress(corpus.read_bytes()))
    assert cli_main(["placeholders", "--audit", str(packed)]) == 0
    assert "1 of 2 unmistakable masks outside" in capsys.readouterr().err
    excluded = tmp_path / "ids.txt"
    excluded.write_text("wwl:other-decision\n1\n")  # ids as they are, not JSON
    assert cli_main(["placeholders", "--audit", str(corpus), "--exclude", str(excluded)]) == 0
    assert "0 of 1 unmistakable masks" in capsys.readouterr().err


@pytest.mark.parametrize(
    "surface",
    ["A.", "X1", "Sch.", "d.", "G. I.", "A-Stadt", "N2-I1.", "XXX XXX", "nnnnnnn", "Xxxxx",
     "W_____", "…", "...", "xx.xx.2016", "00000", "###", "***", "Ａ", "H9"],
)  # fmt: skip
def test_every_convention_could_be_a_stand_in(surface):
    assert could_be_stand_in(surface)


@pytest.mark.parametrize(
    "surface", ["Hochspeyer", "September", "2010", "651", "links", "Hans Müller", "Mayen-Koblenz"]
)
def test_clear_words_and_numbers_are_no_stand_in(surface):
    """What a context-only reader proposes where a name, a year or a town stands in clear."""
    assert not could_be_stand_in(surface)


def test_stand_in_only_drops_what_no_court_writes(tagged_model):
    text = "Er fuhr in Richtung Hochspeyer, Herr A. ebenso."
    tagger = PlaceholderTagger.from_pretrained(tagged_model)
    ((offsets, _hidden, label_probs),) = tagger.encode([text])
    probs = np.zeros((len(offsets), 3), dtype=np.float32)
    probs[:, 0] = 1.0
    inside = [(text.index(w), text.index(w) + len(w)) for w in ("Hochspeyer", "A.")]
    for row, (start, end) in enumerate(offsets):  # the tagger says: both are placeholders
        if any(a <= start and end <= b for a, b in inside):
            probs[row] = (0.0, 1.0, 0.0)
    tagger.config.stand_in_only = False
    found = [text[s.start : s.end] for s in tagger.spans_from(text, offsets, probs, label_probs)]
    assert "Hochspeyer" in found and "A." in found
    tagger.config.stand_in_only = True
    found = [text[s.start : s.end] for s in tagger.spans_from(text, offsets, probs, label_probs)]
    assert found == ["A."]


def test_a_pdf_fonts_glyph_codes_are_no_placeholder_for_the_tagger_either(tagged_model):
    """A text extraction that could not map a font writes ``/g43/;###``; the rules skip its
    ``#`` runs, and so does the tagger, though a court's ``###`` mask in the same text stays."""
    text = "Der Kläger ### wohnt dort. /g43/g68/;### /;###/g50 Ende."
    tagger = PlaceholderTagger.from_pretrained(tagged_model)
    ((offsets, _hidden, label_probs),) = tagger.encode([text])
    probs = np.zeros((len(offsets), 3), dtype=np.float32)
    probs[:, 0] = 1.0
    for row, (start, end) in enumerate(offsets):  # the tagger says: every '#' is a mask
        if end > start and set(text[start:end]) <= {"#"}:
            probs[row] = (0.0, 1.0, 0.0)
    found = [
        (s.start, text[s.start : s.end])
        for s in tagger.spans_from(text, offsets, probs, label_probs)
    ]
    assert found == [(text.index("###"), "###")]


@pytest.mark.parametrize(
    ("piece", "glyphs"),
    [("/g43/g68/;###", True), ("/;###", True), ("###/g50", True), ("###", False),
     ("A./B.", False), ("1/2", False)],
)  # fmt: skip
def test_glyph_codes_are_told_from_masks_and_fractions(piece, glyphs):
    assert is_glyph_code(piece) is glyphs
