"""The placeholder tagger on Japanese precedents: placeholders re-rendered in other courts'
conventions, what a Japanese stand-in can be, and the tagger reading Japanese text the way
the Japanese span model does (through a PDF's wrapped line ends, spans glued to kanji)."""

from __future__ import annotations

import json
import random
import re
import shutil

import numpy as np
import pytest
import torch
from documents import pieces_with_spans
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.cli import main as cli_main
from hf_anon.corpora.japanese.placeholder_shapes import (
    JAPANESE_SHAPES,
    could_be_japanese_stand_in,
    render_japanese_shape,
    rerender_japanese,
)
from hf_anon.corpora.japanese.placeholders import no_placeholder_at
from hf_anon.model.placeholder_tagger import (
    PlaceholderTagger,
    TaggerConfig,
    build_head,
    find_placeholders_with,
    rerender,
    rerender_for,
)
from hf_anon.text.data import Span

PRECEDENT = "被告人Ａは、Ａ病院において被害者④に暴行を加え、甲川家の長男であると述べた。"


JAPANESE_PIECES = [
    "被告人", "Ａ", "は、", "Ａ病院", "において", "被害者④", "ａ市", "（住所省略）", "甲",
]  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(pieces_with_spans(JAPANESE_PIECES, separator=""), st.integers(0, 10_000))
def test_rerendering_moves_spans_with_the_text_and_keeps_the_rest(case, seed):
    text, spans = case
    new_text, new_spans = rerender_japanese(text, spans, random.Random(seed), keep=0.0)
    assert [s.label for s in new_spans] == [s.label for s in spans]
    old_edges = [0, *[p for s in spans for p in (s.start, s.end)], len(text)]
    new_edges = [0, *[p for s in new_spans for p in (s.start, s.end)], len(new_text)]
    for k in range(0, len(old_edges), 2):  # what lies between the placeholders is untouched
        assert text[old_edges[k] : old_edges[k + 1]] == new_text[new_edges[k] : new_edges[k + 1]]
    for old, new in zip(spans, new_spans, strict=True):
        surface, rendered = text[old.start : old.end], new_text[new.start : new.end]
        if surface in ("は、", "において", "（住所省略）"):  # no stand-in at its head: as it was
            assert rendered == surface
        if surface.endswith(("病院", "市")):  # the suffix the court kept stays
            assert rendered.endswith(surface[1:])
        assert could_be_japanese_stand_in(rendered) == could_be_japanese_stand_in(surface)


def test_each_convention_is_written_as_courts_write_it():
    rng = random.Random(0)
    assert render_japanese_shape("Ｂ", "fullwidth", rng) == "Ｂ"
    assert render_japanese_shape("Ｂ", "halfwidth", rng) == "B"
    assert render_japanese_shape("Ｂ", "lower", rng) == "ｂ"
    assert render_japanese_shape("Ｂ", "stem", rng) == "乙"
    assert render_japanese_shape("Ｂ", "circled-letter", rng) == "Ⓑ"
    assert render_japanese_shape("Ｂ", "circled-number", rng) == "②"
    assert render_japanese_shape("Ｂ", "bracketed", rng) == "【Ｂ】"
    assert re.fullmatch(r"Ｂ[１-９]{1,2}", render_japanese_shape("Ｂ", "numbered", rng))
    assert render_japanese_shape("Ｂ", "mask", rng) in {"○○", "〇〇", "××", "＊＊＊", "●●",
                                                         "■■", "△△", "○○○"}  # fmt: skip
    for shape in JAPANESE_SHAPES:
        assert could_be_japanese_stand_in(render_japanese_shape("Ａ", shape, rng))
    with pytest.raises(ValueError, match="unknown shape"):
        render_japanese_shape("Ａ", "emoji", rng)


def test_each_language_rerenders_its_own_conventions():
    assert rerender_for("ja") is rerender_japanese
    assert rerender_for("de") is rerender


@pytest.mark.parametrize(
    "surface",
    ["Ａ", "ｂ", "A", "Ａ１", "甲", "乙湖", "被害者④", "Ⓑ", "α市", "○○", "＊＊＊", "【Ａ】",
     "（住所省略）", "エ寺院", "北海道・・・"],
)  # fmt: skip
def test_every_japanese_convention_could_be_a_stand_in(surface):
    assert could_be_japanese_stand_in(surface)


@pytest.mark.parametrize("surface", ["山田", "東京都千代田区", "令和２年", "病院", "アパート"])
def test_names_places_and_words_in_clear_are_no_stand_in(surface):
    assert not could_be_japanese_stand_in(surface)


@pytest.fixture(scope="module")
def japanese_tagged_model(tiny_model_dir, tmp_path_factory):
    """The tiny model, read as a Japanese model through wrapped line ends, with a random
    Japanese placeholder head beside it."""
    folder = tmp_path_factory.mktemp("ja-tagged") / "model"
    shutil.copytree(tiny_model_dir, folder)
    config = json.loads((folder / "config.json").read_text())
    config.update(language="ja", unwrap_lines=True)
    (folder / "config.json").write_text(json.dumps(config))
    tagger = PlaceholderTagger.from_pretrained(folder, require_head=False)
    assert tagger.config.language == "ja"  # taken from the model without a head
    torch.manual_seed(0)
    tagger.config = TaggerConfig(tagger.config.hidden_size, head_units=8, language="ja")
    tagger.head = build_head(tagger.config).eval()
    tagger.save_head(folder)
    return folder


def _says_inside(tagger, text, parts):
    """The tagger's encoding of ``text`` with probabilities that put exactly the tokens
    inside ``parts`` into a placeholder."""
    ((offsets, _hidden, label_probs),) = tagger.encode([text])
    probs = np.zeros((len(offsets), 3), dtype=np.float32)
    probs[:, 0] = 1.0
    inside = [(text.index(p), text.index(p) + len(p)) for p in parts]
    for row, (start, end) in enumerate(offsets):
        if end > start and any(a <= start and end <= b for a, b in inside):
            probs[row] = (0.0, 1.0, 0.0)
    return offsets, probs, label_probs


def test_a_japanese_placeholder_glued_to_kanji_is_kept(japanese_tagged_model):
    """German drops a span that is part of a word; Japanese has no spaces to tell by."""
    tagger = PlaceholderTagger.from_pretrained(japanese_tagged_model)
    text = "被告人Ａ、「Ｂ」と述べた。"
    offsets, probs, label_probs = _says_inside(tagger, text, ["Ａ", "「Ｂ」"])
    found = [text[s.start : s.end] for s in tagger.spans_from(text, offsets, probs, label_probs)]
    assert "Ａ" in found and "Ｂ" in found  # the quotation marks are no part of it


def test_the_stand_in_filter_reads_japanese_conventions(japanese_tagged_model):
    tagger = PlaceholderTagger.from_pretrained(japanese_tagged_model)
    text = "被告人Ａ、山田に会った。"
    offsets, probs, label_probs = _says_inside(tagger, text, ["Ａ", "山田"])
    tagger.config.stand_in_only = False
    found = [text[s.start : s.end] for s in tagger.spans_from(text, offsets, probs, label_probs)]
    assert found == ["Ａ", "山田"]
    tagger.config.stand_in_only = True
    found = [text[s.start : s.end] for s in tagger.spans_from(text, offsets, probs, label_probs)]
    assert found == ["Ａ"]


def test_the_tagger_reads_through_wrapped_lines_with_offsets_of_the_original(
    japanese_tagged_model,
):
    tagger = PlaceholderTagger.from_pretrained(japanese_tagged_model)
    wrapped = "被告人Ａは、平成３０年８月１４日に被害\n者Ｂの住居に侵入した。"
    ((offsets, hidden, _),) = tagger.encode([wrapped])
    assert len(offsets) == len(hidden)
    covered = "".join(wrapped[s:e] for s, e in offsets if e > s)
    assert covered == wrapped.replace("\n", "")  # the line end read through, not lost
    assert all(0 <= s <= e <= len(wrapped) for s, e in offsets)


def test_japanese_rules_and_tagger_combine(japanese_tagged_model):
    tagger = PlaceholderTagger.from_pretrained(japanese_tagged_model)
    (rules,) = find_placeholders_with([PRECEDENT], method="rules", labels="cues", language="ja")
    surfaces = {PRECEDENT[s.start : s.end] for s in rules}
    assert "Ａ" in surfaces
    for method in ("tagger", "both"):
        (found,) = find_placeholders_with([PRECEDENT], method=method, labels="cues", tagger=tagger)
        assert all(0 <= s.start < s.end <= len(PRECEDENT) for s in found)
        if method == "both":
            assert {(s.start, s.end) for s in rules} <= {(s.start, s.end) for s in found}


def test_a_tagger_of_one_language_refuses_the_other(japanese_tagged_model):
    tagger = PlaceholderTagger.from_pretrained(japanese_tagged_model)
    with pytest.raises(ValueError, match="reads 'ja' decisions"):
        find_placeholders_with(["Der Kläger A. klagt."], tagger=tagger, language="de")


def test_cli_scores_a_japanese_key_with_the_tagger(tmp_path, japanese_tagged_model, capsys):
    key = tmp_path / "key.jsonl"
    start = PRECEDENT.index("Ａ")
    row = {"id": "a", "text": PRECEDENT, "court": "甲地裁",
           "placeholders": [{"start": start, "end": start + 1, "label": "nat-name"}]}  # fmt: skip
    key.write_text(json.dumps(row, ensure_ascii=False) + "\n")
    args = ["placeholders", "--language", "ja", "--evaluate", str(key), "--method", "both",
            "--tagger", str(japanese_tagged_model), "--json", "--no-progress"]  # fmt: skip
    assert cli_main(args) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["recall"] == 1.0  # the rules find it; the tagger only adds
    german = tmp_path / "de.jsonl"
    german.write_text(json.dumps({"id": "b", "text": "Der Zeuge B. sagte aus.",
                                  "placeholders": []}) + "\n")  # fmt: skip
    args = ["placeholders", "--language", "de", "--evaluate", str(german), "--method", "both",
            "--tagger", str(japanese_tagged_model), "--no-progress"]  # fmt: skip
    assert cli_main(args) != 0
    assert "reads 'ja' decisions" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "char", "rejected"),
    [
        ("ＷｈａｔｓＡｐｐを通じて連絡した", "Ａ", True),  # a letter of a Latin word
        ("その結果（乙７のＣＴ画像）", "乙", True),  # an evidence number
        ("当事者\nア  Ｄ（昭和６３年生）", "ア", True),  # an outline mark opening a line
        ("携帯電話であって，\nＢ  当該携帯電話の", "Ｂ", True),  # a claim's element
        ("Ａ型の血液が検出された", "Ａ", True),  # a blood type
        ("被告人Ａは，帰宅した", "Ａ", False),  # a person
        ("被害者④に対し暴行を加えた", "④", False),  # no reason known: the tagger decides
        ("甲は乙に対し", "甲", False),
    ],
)
def test_the_rules_say_where_a_character_stands_for_no_one(text, char, rejected):
    assert no_placeholder_at(text, text.index(char)) is rejected


def test_the_rule_veto_drops_what_the_rules_know_is_no_placeholder(japanese_tagged_model):
    tagger = PlaceholderTagger.from_pretrained(japanese_tagged_model)
    text = "被告人Ａ、乙７、Ｂ。"
    offsets, probs, label_probs = _says_inside(tagger, text, ["Ａ", "乙", "Ｂ"])
    tagger.config.rule_veto = False
    found = [text[s.start : s.end] for s in tagger.spans_from(text, offsets, probs, label_probs)]
    assert "乙" in found
    tagger.config.rule_veto = True
    found = [text[s.start : s.end] for s in tagger.spans_from(text, offsets, probs, label_probs)]
    assert "乙" not in found and "Ａ" in found


def _keyed(text: str, *placeholders: str) -> tuple[str, list[Span]]:
    spans, position = [], 0
    for surface in placeholders:
        start = text.index(surface, position)
        spans.append(Span(start, start + len(surface), "nat-name"))
        position = start + len(surface)
    return text, spans


def test_training_chooses_every_setting_on_the_choice_keys(
    japanese_tagged_model, tmp_path, monkeypatch
):
    """``train_placeholder_tagger.py --language ja`` end to end on a tiny model: the head is
    fitted on the training keys, and threshold, combination, stand-in filter, rule veto and
    labels are chosen on the choice keys, then saved with the language beside the model."""
    import importlib
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets_scripts"))
    script = importlib.import_module("train_placeholder_tagger")
    train = [
        _keyed("被告人Ａは、Ｂ病院に入院した。", "Ａ", "Ｂ病院"),
        _keyed("原告甲は、被告乙に対し、売買代金を請求した。", "甲", "乙"),
    ]
    choice = [_keyed("被害者Ｃは、ａ市に住んでいた。", "Ｃ", "ａ市")]
    monkeypatch.setattr(script, "japanese_keys", lambda: (train, choice))
    out, choices = tmp_path / "head", tmp_path / "choices.json"
    args = ["--language", "ja", "--model", str(japanese_tagged_model), "--output", str(out),
            "--epochs", "2", "--label-epochs", "2", "--choices-json", str(choices)]  # fmt: skip
    assert script.main(args) == 0
    saved = json.loads((out / "placeholder_head.json").read_text())
    assert saved["language"] == "ja"
    assert saved["combine_threshold"] in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98)
    runs = json.loads(choices.read_text())
    assert runs["rules"]["recall"] == 1.0  # the rules find both placeholders of the choice key
    assert len(runs) == 1 + 2 * 2 * 6  # rules, then stand-in × veto × six thresholds


def test_the_bundled_japanese_tagger_finds_a_convention_the_rules_miss():
    """Victims numbered with circled figures: a convention of one court no rule was written
    for. The bundled Japanese model's tagger finds both mentions, and nothing in clear text."""
    from hf_anon.model.model_folder import default_model

    tagger = PlaceholderTagger.from_pretrained(default_model("ja"))
    assert tagger.config.language == "ja" and tagger.config.stand_in_only
    victims = "被告人は、被害者④に対し、その顔面を手拳で殴打した。被害者④は負傷した。"
    clear = "被告人は、令和３年５月２日、東京都内の路上で被害者に暴行を加えた。"
    (rules, _), (both, nothing) = (
        find_placeholders_with([victims, clear], method=method, labels="model", tagger=tagger)
        for method in ("rules", "both")
    )
    assert rules == []
    assert [victims[s.start : s.end] for s in both] == ["④", "④"]
    assert nothing == []


def test_hard_negatives_keep_every_look_alike_at_its_own_weight(japanese_tagged_model):
    """With ``--hard-negatives`` every token that looks like a stand-in but is none (a letter
    of ``ＤＮＡ``, an outline mark) is kept at weight 1; the other ``O`` tokens are sampled
    and weigh ``1 / o_keep``; placeholder tokens are all kept."""
    import importlib
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets_scripts"))
    script = importlib.import_module("train_placeholder_tagger")
    tagger = PlaceholderTagger.from_pretrained(japanese_tagged_model)
    docs = [_keyed("被告人Ａは、ＤＮＡ鑑定の結果を争った。", "Ａ")]
    names = list(tagger.labels.names)
    ((offsets, _, _),) = tagger.encode([docs[0][0]])
    for hard in (False, True):
        x, y, w, lx, ly = script.features(
            tagger, docs, 0.25, np.random.default_rng(0), names, 1, hard
        )
        assert len(x) == len(y) == len(w) and set(w[y > 0]) == {1.0}
        assert len(lx) == len(ly) == 1 and names[ly[0]] == "nat-name"
        negatives = sorted(w[y == 0].tolist())
        if hard:  # the letters of ＤＮＡ at weight 1, whatever the draw took besides
            look_alikes = sum(1 for s, e in offsets if e > s and "Ｄ" in docs[0][0][s:e])
            assert negatives.count(1.0) >= look_alikes >= 1
        else:
            assert set(negatives) <= {4.0}


def test_tuning_windows_read_japanese_through_wrapped_lines(japanese_tagged_model):
    """The tuned tagger learns on the text the span model reads: a placeholder broken by a
    PDF's line end (``Ａ⏎病院``) is one target on the unwrapped view."""
    from hf_anon.model.placeholder_tuning import training_windows
    from hf_anon.text.data import Document

    tagger = PlaceholderTagger.from_pretrained(japanese_tagged_model)
    line = "被告人は、令和３年５月２日の午後になってから、Ａ"
    text = line + "\n病院において治療を受けた。\n"
    start = text.index("Ａ")
    doc = Document("d", text, [Span(start, start + len("Ａ\n病院"), "jur-name")])
    (window,) = training_windows(
        [doc], tagger.tokenizer, tagger.labels, keep_empty=0.0, rng=random.Random(0),
        language="ja", unwrap_lines=True,
    )  # fmt: skip
    unwrapped = tagger.tokenizer(text.replace("\n病院", "病院"))["input_ids"]
    assert window.input_ids == unwrapped  # the line end inside the placeholder is gone
    inside = [tag for tag in window.tags if tag > 0]
    assert inside == [1, 2, 2]  # Ａ, 病, 院: one placeholder, begun and continued
    jur = tagger.labels.names.index("jur-name")
    assert {label for label, tag in zip(window.label_ids, window.tags, strict=True) if tag > 0} == {
        jur
    }


def test_tuning_a_japanese_tagger_chooses_on_the_choice_keys(
    japanese_tagged_model, tmp_path, monkeypatch
):
    """``tune_placeholder_tagger.py --language ja`` end to end on a tiny model: annotated
    precedents masked in Japanese conventions and the training keys tune an adapter; every
    setting, the combination with the rules included, is chosen on the choice keys."""
    import importlib
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets_scripts"))
    script = importlib.import_module("tune_placeholder_tagger")
    gold = "被告人山田太郎は、さくら銀行において鈴木花子に暴行を加えた。"
    spans = [
        {"start": gold.index(s), "end": gold.index(s) + len(s), "label": label}
        for s, label in (("山田太郎", "nat-name"), ("さくら", "jur-name"), ("鈴木花子", "nat-name"))
    ]
    train = tmp_path / "train.jsonl"
    train.write_text(json.dumps({"id": "t1", "text": gold, "spans": spans}) + "\n")
    key_text, key_spans = _keyed("被告人Ａは、Ｂ病院に入院した。", "Ａ", "Ｂ病院")
    key = tmp_path / "train.key.jsonl"
    placeholders = [{"start": s.start, "end": s.end, "label": s.label} for s in key_spans]
    key.write_text(json.dumps({"id": "t1", "text": key_text, "placeholders": placeholders}) + "\n")
    choice = [_keyed("被害者Ｃは、ａ市に住んでいた。", "Ｃ", "ａ市")]
    monkeypatch.setattr(script, "japanese_keys", lambda: ([], choice))
    out = tmp_path / "tuned"
    args = ["--language", "ja", "--model", str(japanese_tagged_model), "--output", str(out),
            "--train", str(train), "--train-key", str(key), "--masked-copies", "2",
            "--batch-size", "2", "--lora-r", "2", "--save-every", "1"]  # fmt: skip
    assert script.main(args) == 0
    saved = json.loads((out / "placeholder_head.json").read_text())
    assert saved["language"] == "ja" and saved["adapter"] and saved["token_labels"]
    assert saved["combine_threshold"] in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98)
    record = json.loads((out / "placeholder_tuning.json").read_text())
    assert record["args"]["language"] == "ja" and record["texts"] == 2 + 2
    assert "rules" in record["combination"]
    tuned = PlaceholderTagger.from_pretrained(out)
    assert tuned.config.language == "ja" and tuned.config.adapter
    assert record["args"]["silver"] == 0  # Japanese tuning reads no silver
    with pytest.raises(SystemExit, match="German only"):
        script.main([*args, "--validation-key", str(key)])
    with pytest.raises(SystemExit, match="German only"):
        script.main([*args, "--silver", "5"])


def test_the_frozen_head_learns_from_masked_precedents_too(
    japanese_tagged_model, tmp_path, monkeypatch, capsys
):
    """``train_placeholder_tagger.py --masked-copies N``: the annotated training precedents,
    masked as a court would, join the keys as training text, their placeholders with the
    labels the annotators gave (label examples of every convention)."""
    import importlib
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "datasets_scripts"))
    script = importlib.import_module("train_placeholder_tagger")
    gold = "被告人山田太郎は、さくら銀行において鈴木花子に暴行を加えた。"
    rows = [{"id": "t1", "text": gold, "spans": [
        {"start": gold.index(s), "end": gold.index(s) + len(s), "label": label}
        for s, label in (("山田太郎", "nat-name"), ("さくら", "jur-name"), ("鈴木花子", "nat-name"))
    ]}]  # fmt: skip
    masked = script.masked_gold(rows, 3, random.Random(0), "ja")
    assert len(masked) == 3
    for text, spans in masked:
        assert "被告人" in text and "において" in text  # roles and the clear text stay
        assert all(could_be_japanese_stand_in(text[s.start : s.end]) for s in spans)
        assert {s.label for s in spans} <= {"nat-name", "jur-name"}
    train = [_keyed("被告人Ａは、Ｂ病院に入院した。", "Ａ", "Ｂ病院")]
    choice = [_keyed("被害者Ｃは、ａ市に住んでいた。", "Ｃ", "ａ市")]
    monkeypatch.setattr(script, "japanese_keys", lambda: (train, choice))
    monkeypatch.setattr(script, "exhaustive_rows", lambda language, path=None: rows)
    args = ["--language", "ja", "--model", str(japanese_tagged_model), "--output",
            str(tmp_path / "head"), "--epochs", "2", "--label-epochs", "2", "--renders", "1",
            "--masked-copies", "2"]  # fmt: skip
    assert script.main(args) == 0
    assert "4 texts" in capsys.readouterr().out  # one key, once re-rendered, twice masked
