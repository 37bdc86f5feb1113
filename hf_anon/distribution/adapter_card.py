"""The card of a LoRA adapter: which model it adapts, on what, how to load it.

An adapter (``train.py --lora_r 8 --save_adapter true``, e.g. one court's) is a small PEFT
folder, ``adapter_config.json`` and ``adapter_model.safetensors``, that only works on top of
the model it was trained from. Its card says which one, what it was trained on, its
scores where the run measured them, and the two lines that load it.
"""

from __future__ import annotations

import json
from pathlib import Path

CARD_TEMPLATE = """\
---
library_name: peft
base_model: {base}
pipeline_tag: token-classification
tags:
- hf-anon
- anonymization
- lora
language:
- {language}
---

# {name}: a LoRA adapter for {base}

A LoRA adapter (rank {rank}, alpha {alpha}; {size}) for the hf-anon model `{base}`, trained
on {training}. It adapts the model to the conventions of the decisions it was trained on,
for example one court's; it does nothing without that model.

```python
from hf_anon import Anonymizer

anonymizer = Anonymizer.from_pretrained("{base}", adapter="{name}")
```

```bash
hf-anon anonymize decisions/ --output anonymized/ --model {base} --adapter {name}
```

The adapter is merged into the model's weights when it loads, so it runs as fast as the
model alone (with torch).

## Training

{settings}

## Scores

{scores}

Check recall on decisions of your own before relying on it; an adapter trained on a few
decisions of one court may do worse on other courts.
"""


def adapter_card(folder: str | Path) -> str:
    """The card text of an adapter folder, from its ``adapter_config.json``,
    ``training_config.json`` and ``eval_results.json``."""
    folder = Path(folder)
    peft = json.loads((folder / "adapter_config.json").read_text(encoding="utf-8"))
    training = _read(folder / "training_config.json")
    results = _read(folder / "eval_results.json")
    weights = folder / "adapter_model.safetensors"
    size = f"{weights.stat().st_size / 2**20:.1f} MB" if weights.is_file() else "weights missing"
    files = training.get("train_files") or []
    trained_on = ", ".join(f"`{Path(f).name}`" for f in files) or "documents of its run"
    settings = "\n".join(
        f"- `{key}`: {training[key]}"
        for key in ("learning_rate", "num_train_epochs", "max_steps", "max_length", "seed")
        if key in training
    )
    scores = (
        "\n".join(
            f"- {key}: {value:.4f}" for key, value in results.items() if isinstance(value, float)
        )
        if results
        else "No validation set was given in the run."
    )
    return CARD_TEMPLATE.format(
        name=folder.name,
        base=peft.get("base_model_name_or_path") or "its base model",
        language=training.get("language", "de"),
        rank=peft.get("r"),
        alpha=peft.get("lora_alpha"),
        size=size,
        training=trained_on,
        settings=settings or "- (no training config saved)",
        scores=scores,
    )


def write_adapter_card(folder: str | Path) -> Path:
    path = Path(folder) / "README.md"
    path.write_text(adapter_card(folder), encoding="utf-8")
    return path


def _read(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
