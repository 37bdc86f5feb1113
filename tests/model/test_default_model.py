"""The model bundled under models/ is what a fresh clone uses: it must load and work."""

from __future__ import annotations

import pytest

from hf_anon import Anonymizer
from hf_anon.model.model_folder import DEFAULT_MODEL_NAME, REPO_ROOT, default_model

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


def capitals(text: str) -> str:
    """ALL CAPS, character for character (``ß`` stays: its upper case is two letters)."""
    return "".join(c.upper() if len(c.upper()) == 1 else c for c in text)


def test_names_in_all_caps_decisions_are_found_like_normal_ones(anonymizer):
    """Some courts print whole rubra in capitals (`HANS HUBER`): at least 99 % of the names
    in generated decisions written entirely in capitals are found."""
    from hf_anon.corpora.synthetic import generate_documents

    docs = generate_documents(20, seed=7)
    texts = [capitals(doc.text) for doc in docs]
    found_spans = anonymizer.detect(texts)
    names = hits = 0
    for doc, text, spans in zip(docs, texts, found_spans, strict=True):
        for gold in (s for s in doc.spans if s.label == "nat-name"):
            names += 1
            hits += all(
                any(s.start <= i < s.end for s in spans)
                for i in range(gold.start, gold.end)
                if not text[i].isspace()
            )
    assert names > 50
    assert hits / names >= 0.99, f"{hits} of {names} names found in capitals"


def test_letter_spaced_names_are_read_as_words(anonymizer):
    """Sperrsatz and PDF extraction write `M a r t i n  S c h u l z`: the model reads the
    letters closed up and its spans cover the spaced letters of the original."""
    text = (
        "In dem Rechtsstreit\nM a r t i n  S c h u l z, Lindenweg 4, 80331 München,\n"
        "g e g e n\ndie Stadt Augsburg\nwegen Schadensersatz. Die Zeugin P e t r a  W e b e r "
        "bestätigte das."
    )

    spans = anonymizer.detect([text])[0]
    names = [text[s.start : s.end] for s in spans if s.label == "nat-name"]
    anonymized = anonymizer.anonymize(text, mode="label").text

    assert "M a r t i n  S c h u l z" in names and "P e t r a  W e b e r" in names
    assert "g e g e n" in anonymized  # a spaced word is not a name for being spaced
    for part in ("M a r t i n", "S c h u l z", "P e t r a", "W e b e r"):
        assert part not in anonymized


def test_the_bundled_model_decodes_with_its_calibration_and_rules(anonymizer):
    detector = anonymizer.detector
    assert detector.label_thresholds and set(detector.label_thresholds) <= set(
        detector.labels.names
    )
    assert "dockets" in detector.recognizers
    text = "Verwaltungsgericht München\nM 12 K 20.1234\nIn der Verwaltungsstreitsache"
    assert "M 12 K 20.1234" in [text[s.start : s.end] for s in anonymizer.detect([text])[0]]


def test_issue_14_example_reads_like_the_original_with_only_the_names_changed(anonymizer):
    """The text a new user tried (issue 14): one doubtful `der` must not spread, and a
    span never swallows the verb or preposition at its edge."""
    text = (
        "Herr Hans Müller wohnt in der Bahnhofstraße 12. Die Kündigung der Wohnung ist "
        "wirksam. Der Vermieter hat der Mieterin gekündigt."
    )
    assert anonymizer.anonymize(text, mode="label").text == (
        "Herr <nat-name-1> wohnt in der <address-name-1>. Die Kündigung der Wohnung ist "
        "wirksam. Der Vermieter hat der Mieterin gekündigt."
    )
    text = "Tobias Wendrich bog in die Bahnhofstraße 12 in Regensburg ein."
    assert anonymizer.anonymize(text, mode="label").text == (
        "<nat-name-1> bog in die <address-name-1> in <address-name-2> ein."
    )
