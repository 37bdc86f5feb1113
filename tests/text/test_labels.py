"""The label set of the annotation guidelines, risk order, and project-specific label sets."""

from __future__ import annotations

import pytest

from hf_anon.text.labels import BIO_TAGS, DEFAULT_LABELS, RISKS, Label, LabelSet

ANNOTATION_LABELS = {
    "nat-name": "high",
    "nat-idx": "medium",
    "nat-jur": "medium",
    "jur-name": "high",
    "jur-idx": "medium",
    "address-name": "high",
    "address-idx": "medium",
    "car-name": "low",
    "car-idx": "high",
    "court-name": "low",
    "court-docket": "medium",
    "date-fact": "medium",
    "date-world": "low",
    "id-number": "high",
}


def test_default_labels_are_the_fourteen_of_annotation_md_with_their_usual_risk():
    assert {label.name: label.risk for label in DEFAULT_LABELS} == ANNOTATION_LABELS
    assert len(DEFAULT_LABELS) == 14
    assert all(label.description_de and label.description_en for label in DEFAULT_LABELS)
    colours = [label.color for label in DEFAULT_LABELS]
    assert len(set(colours)) == 14 and all(c.startswith("#") and len(c) == 7 for c in colours)


def test_risks_are_ordered_high_over_medium_over_low():
    assert RISKS == ("low", "medium", "high")
    rank = DEFAULT_LABELS.risk_rank
    assert rank("high") > rank("medium") > rank("low")
    assert DEFAULT_LABELS.at_least("medium") == ("medium", "high")
    assert DEFAULT_LABELS.at_least("low") == RISKS


def test_ids_are_positions_and_unknown_names_fail_clearly():
    assert DEFAULT_LABELS.label_id("nat-name") == 0
    assert DEFAULT_LABELS.label_id("id-number") == 13
    assert BIO_TAGS == ("O", "B", "I")
    with pytest.raises(KeyError, match="unknown label 'person'"):
        DEFAULT_LABELS.label_id("person")
    with pytest.raises(KeyError, match="unknown risk 'critical'"):
        DEFAULT_LABELS.risk_id("critical")


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_a_project_can_load_its_own_label_set(tmp_path, suffix):
    custom = LabelSet(
        labels=(
            Label("person", "high", "Person", "person", "#ff0000"),
            Label("place", "low", "Ort", "place", "#00ff00"),
        ),
        risks=("low", "high"),
    )
    path = tmp_path / f"labels{suffix}"
    if suffix == ".json":
        custom.save(path)
    else:
        import yaml

        path.write_text(yaml.safe_dump(custom.to_dict(), allow_unicode=True), encoding="utf-8")
    loaded = LabelSet.from_file(path)
    assert loaded == custom
    assert loaded.names == ["person", "place"] and loaded.risks == ("low", "high")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"labels": []}, "at least one label"),
        ({"labels": [{"name": "x"}]}, "needs 'labels'"),
        (
            {
                "labels": [
                    {
                        "name": "x",
                        "risk": "huge",
                        "description_de": "",
                        "description_en": "",
                        "color": "#000000",
                    }
                ]
            },
            "usual risk 'huge'",
        ),
        (
            {
                "risks": ["low", "low"],
                "labels": [
                    {
                        "name": "x",
                        "risk": "low",
                        "description_de": "",
                        "description_en": "",
                        "color": "#000000",
                    }
                ],
            },
            "distinct",
        ),
    ],
)
def test_broken_label_sets_are_rejected(data, message):
    with pytest.raises(ValueError, match=message):
        LabelSet.from_dict(data)


def test_duplicate_labels_are_rejected():
    label = Label("x", "low", "", "", "#000000")
    with pytest.raises(ValueError, match="duplicate label 'x'"):
        LabelSet(labels=(label, label))


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("broken.yaml", "labels: [unclosed", "invalid YAML"),
        ("broken.json", "{labels", "invalid JSON"),
        ("list.json", "[1, 2]", "one object"),
        ("risks.json", '{"risks": "abc", "labels": []}', "'risks' must be a list"),
    ],
)
def test_unreadable_label_set_files_raise_value_error(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        LabelSet.from_file(path)


def test_person_labels_are_flagged_on_the_label():
    assert DEFAULT_LABELS.person_labels == {"nat-name", "nat-jur"}
    assert DEFAULT_LABELS["nat-name"].is_person and not DEFAULT_LABELS["jur-name"].is_person
    custom = LabelSet((Label("person", "high", "Person", "person", "#000000", is_person=True),))
    assert custom.person_labels == {"person"}
    assert LabelSet.from_dict(custom.to_dict()) == custom


def test_a_label_set_saved_without_the_person_flag_takes_the_default_one():
    # model configs written before `is_person` existed: nat-name stays a name of people
    old = DEFAULT_LABELS.to_dict()
    for entry in old["labels"]:
        del entry["is_person"]
    old["labels"].append(
        {"name": "ort", "risk": "low", "description_de": "", "description_en": "", "color": "#0"}
    )
    loaded = LabelSet.from_dict(old)
    assert loaded.person_labels == {"nat-name", "nat-jur"}
    assert not loaded["ort"].is_person
