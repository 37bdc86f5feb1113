"""The model bundled under models/ is what a fresh clone uses: it must load and work."""

from __future__ import annotations

import pytest

from hf_anon import Anonymizer
from hf_anon.hub import DEFAULT_MODEL_NAME, REPO_ROOT, default_model

BUNDLED = REPO_ROOT / "models" / DEFAULT_MODEL_NAME

DECISION = """Amtsgericht Regensburg
Az. 4 C 1187/24

In dem Rechtsstreit

Jonas Weber, Gartenstraße 3, 93047 Regensburg,
- Kläger -

gegen

Petra Schulz, Bahnhofstraße 12, 93053 Regensburg,
- Beklagte -

Am 12.03.2024 fuhr die Beklagte mit ihrem VW Golf, amtliches Kennzeichen R-PS 4711, gegen
das geparkte Fahrzeug des Klägers Weber.
"""


@pytest.fixture(scope="module")
def anonymizer():
    if not (BUNDLED / "model.safetensors").is_file():
        pytest.fail(f"the default model is missing from {BUNDLED}")
    return Anonymizer.from_pretrained()


def found(anonymizer, label: str) -> list[str]:
    return [DECISION[s.start : s.end] for s in anonymizer.detect([DECISION])[0] if s.label == label]


def test_the_default_model_is_the_bundled_one(monkeypatch):
    monkeypatch.delenv("HF_ANON_MODEL", raising=False)
    assert default_model() == str(BUNDLED)
    monkeypatch.setenv("HF_ANON_MODEL", "org/other")
    assert default_model() == "org/other"


def test_bundled_weights_stay_small():
    assert (BUNDLED / "model.safetensors").stat().st_size < 60_000_000
    assert (BUNDLED / "README.md").read_text(encoding="utf-8").startswith("---\n")


def test_bundled_model_finds_names_addresses_and_the_plate(anonymizer):
    names = found(anonymizer, "nat-name")
    assert "Jonas Weber" in names and "Petra Schulz" in names
    addresses = found(anonymizer, "address-name")
    assert "Gartenstraße 3" in addresses and "Bahnhofstraße 12" in addresses
    assert "R-PS 4711" in found(anonymizer, "car-idx")


def test_bundled_model_anonymizes_without_leaking_them(anonymizer):
    result = anonymizer.anonymize(DECISION, mode="label", seed=1)
    for secret in ("Jonas", "Weber", "Petra", "Schulz", "Gartenstraße 3", "R-PS 4711"):
        assert secret not in result.text
    assert "<nat-name-1>" in result.text
