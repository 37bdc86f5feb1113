"""Shared fixtures: tokenizers trained on the fly (no network, no downloads)."""

from __future__ import annotations

import os

# Tests never touch the network: anything that would download fails fast instead. Set
# before anything imports huggingface_hub (through transformers, datasets, evaluate),
# which reads these once, when it is first imported.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
# Models run in torch unless a test asks for ONNX Runtime (or for `auto`): the tiny random
# models of the tests would each be exported once, for nothing.
os.environ.setdefault("HF_ANON_BACKEND", "torch")

import pytest
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from tokenizers.processors import TemplateProcessing
from transformers import PreTrainedTokenizerFast

CORPUS = [
    "Herr Hans Müller wohnt in der Bahnhofstraße 12, 80331 München.",
    "Die Klägerin Ayşe Yılmaz-Berger fuhr am 3. März 2021 um 14:30 Uhr mit dem VW Golf.",
    "Das Amtsgericht Nürnberg-Fürth hat durch Richterin am Amtsgericht Schulz entschieden.",
    "Az. 5 Js 123/21; IBAN DE89 3704 0044 0532 0130 00; Kennzeichen M-AB 1234.",
    "Die Beklagte, die Schmidt Immobilien GmbH, ist im Handelsregister unter HRB 123456.",
    "Tatbestand\n\nDer Kläger verlangt Schadensersatz. Die Zeugin Öztürk sah den Unfall.",
]


def _wordpiece() -> PreTrainedTokenizerFast:
    """A cased BERT-style WordPiece tokenizer: offsets exclude whitespace."""
    from hf_anon.model.training import train_wordpiece_tokenizer

    return train_wordpiece_tokenizer(CORPUS * 5, vocab_size=300)


def _unigram() -> PreTrainedTokenizerFast:
    """An XLM-R/e5-style SentencePiece Unigram tokenizer: tokens carry their leading space."""
    tok = Tokenizer(models.Unigram())
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.decoder = decoders.Metaspace()
    specials = ["<s>", "<pad>", "</s>", "<unk>"]
    tok.train_from_iterator(
        CORPUS * 5,
        trainers.UnigramTrainer(vocab_size=200, special_tokens=specials, unk_token="<unk>"),
    )
    tok.post_processor = TemplateProcessing(
        single="<s> $A </s>",
        special_tokens=[("<s>", tok.token_to_id("<s>")), ("</s>", tok.token_to_id("</s>"))],
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="<unk>",
        pad_token="<pad>",
        bos_token="<s>",
        eos_token="</s>",
    )


@pytest.fixture(scope="session")
def wordpiece_tokenizer() -> PreTrainedTokenizerFast:
    return _wordpiece()


@pytest.fixture(scope="session")
def unigram_tokenizer() -> PreTrainedTokenizerFast:
    return _unigram()


@pytest.fixture(scope="session", params=["wordpiece", "unigram"])
def tokenizer(request, wordpiece_tokenizer, unigram_tokenizer) -> PreTrainedTokenizerFast:
    return {"wordpiece": wordpiece_tokenizer, "unigram": unigram_tokenizer}[request.param]


TINY_MODEL_SENTENCE = "Der Kläger Hans Müller wohnt in der Bahnhofstraße 12 in 80331 München. "


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory):
    """A random tiny hf-anon model on disk that finds something (its O bias lowered)."""
    import torch
    from transformers import AutoTokenizer

    from hf_anon.model.modeling import AnonModel
    from hf_anon.model.training import tiny_random_encoder
    from hf_anon.text.labels import DEFAULT_LABELS

    root = tmp_path_factory.mktemp("tiny-model")
    encoder = tiny_random_encoder(root / "encoder", [TINY_MODEL_SENTENCE] * 30, vocab_size=150)
    torch.manual_seed(3)
    model = AnonModel.from_encoder(
        str(encoder),
        DEFAULT_LABELS.names,
        list(DEFAULT_LABELS.risks),
        label_set=DEFAULT_LABELS.to_dict(),
    )
    with torch.no_grad():
        model.span_head.bias[0] = -0.5
    model.save_pretrained(root / "model")
    AutoTokenizer.from_pretrained(str(encoder)).save_pretrained(root / "model")
    return root / "model"


REPORT_TEXT = (
    "Der Kläger Jonas Weber wohnt in der Gartenstraße 3 in 80331 München seit dem 3. Mai 2021."
)


@pytest.fixture(scope="session")
def sample_gold():
    """Three gold documents with a name, two address parts and a date."""
    from hf_anon.text.data import Document, Span
    from hf_anon.text.labels import DEFAULT_LABELS

    def span(part: str, label: str) -> Span:
        start = REPORT_TEXT.index(part)
        return Span(start, start + len(part), label, DEFAULT_LABELS[label].risk)

    spans = [
        span("Jonas Weber", "nat-name"),
        span("Gartenstraße 3", "address-name"),
        span("80331 München", "address-name"),
        span("3. Mai 2021", "date-fact"),
    ]
    return [Document(f"d{i}", REPORT_TEXT, list(spans)) for i in range(3)]


# --- the fuzz suite (tests/apply/test_fuzz.py) ---------------------------------------------------


def pytest_addoption(parser):
    parser.addoption(
        "--fuzz-long",
        action="store_true",
        default=False,
        help="run the long fuzz suite (10x the cases of tests/apply/test_fuzz.py; "
        "also HF_ANON_FUZZ_LONG=1)",
    )


@pytest.fixture(scope="session")
def fuzz_long(request) -> bool:
    """Whether the fuzz suite runs its long version (``--fuzz-long`` or
    ``HF_ANON_FUZZ_LONG=1``)."""
    env = os.environ.get("HF_ANON_FUZZ_LONG", "").strip().lower()
    return bool(request.config.getoption("--fuzz-long")) or env in {"1", "true", "yes"}


def pytest_terminal_summary(terminalreporter):
    import sys

    fuzzdocs = sys.modules.get("fuzzdocs")
    if fuzzdocs is not None and fuzzdocs.CASES:
        counts = ", ".join(f"{name} {n}" for name, n in sorted(fuzzdocs.CASES.items()))
        terminalreporter.write_line(
            f"fuzz: {sum(fuzzdocs.CASES.values())} cases ({counts}); {fuzzdocs.stats_line()}"
        )
