"""The learned citation filter: fitted on a detector's spans and the gold, it drops the dates,
courts and dockets that stand in citations and keeps this case's
(``hf_anon.model.recognizers.cited_filter``)."""

import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.model.recognizers.cited_filter import (
    CONFIG_FILE,
    WEIGHTS_FILE,
    CitedFilter,
    CitedFilterConfig,
    DocumentContext,
    feature_ids,
    sentence_around,
    span_features,
)
from hf_anon.text.data import Span

CITED = [
    "Das entspricht ständiger Rechtsprechung (vgl. BGH, Urteil vom {d} – VIII ZR 1/19 –, juris).",
    "Der Senat folgt dem Urteil des Bundesverwaltungsgerichts vom {d} (2 C 10.02), NVwZ 2003, 12.",
    "So auch OVG Münster, Beschluss vom {d} – 8 A 475/10 –, juris Rn. 12 m. w. N.",
]
OWN = [
    "Der Kläger kündigte den Mietvertrag mit Schreiben vom {d} fristlos.",
    "Die Beklagte übergab ihm die Wohnung am {d} mit allen Schlüsseln.",
    "Am {d} stürzte die Klägerin auf dem vereisten Gehweg vor dem Haus.",
]
DATES = ["12. Mai 2020", "3. März 2021", "1.4.2003", "27. Februar 2003", "5.7.2022"]


def date_span(text: str, date: str) -> Span:
    start = text.index(date)
    return Span(start, start + len(date), "date-fact", "medium", 0.9)


def corpus(templates, cited: bool):
    texts, predicted, gold = [], [], []
    for template in templates:
        for date in DATES:
            text = template.format(d=date)
            span = date_span(text, date)
            texts.append(text)
            predicted.append([span])
            gold.append([] if cited else [span])
    return texts, predicted, gold


@pytest.fixture(scope="module")
def fitted() -> CitedFilter:
    a, b = corpus(CITED, True), corpus(OWN, False)
    return CitedFilter.fit(
        a[0] + b[0], a[1] + b[1], a[2] + b[2], CitedFilterConfig(buckets=1 << 14, threshold=0.9)
    )


def test_a_fitted_filter_drops_cited_dates_and_keeps_the_cases_own(fitted):
    cited = "Vgl. BGH, Urteil vom 9. Juni 2011 – IX ZR 1/10 –, juris Rn. 4."
    own = "Der Kläger kündigte den Vertrag mit Schreiben vom 9. Juni 2011 fristlos."
    assert fitted.drop(cited, [date_span(cited, "9. Juni 2011")]) == []
    kept = [date_span(own, "9. Juni 2011")]
    assert fitted.drop(own, kept) == kept
    assert fitted.config.examples == {"spans": 30, "cited": 15}


def test_labels_it_does_not_judge_pass_untouched(fitted):
    text = "Vgl. BGH, Urteil vom 9. Juni 2011 – Klaus Weber –, juris."
    name = Span(text.index("Klaus"), text.index("Klaus") + 11, "nat-name", "high", 0.9)
    assert fitted.probabilities(text, [name]) == [None]
    assert fitted.drop(text, [name]) == [name]


def test_save_and_load_give_the_same_probabilities(fitted, tmp_path):
    fitted.save_pretrained(tmp_path)
    loaded = CitedFilter.from_folder(tmp_path)
    text = CITED[2].format(d="1.4.2003")
    spans = [date_span(text, "1.4.2003")]
    assert loaded.config == fitted.config
    assert loaded.probabilities(text, spans) == pytest.approx(fitted.probabilities(text, spans))


def test_a_folder_without_a_filter_has_none_and_half_a_filter_is_an_error(fitted, tmp_path):
    assert CitedFilter.from_folder(tmp_path) is None
    fitted.save_pretrained(tmp_path)
    (tmp_path / WEIGHTS_FILE).unlink()
    with pytest.raises(ValueError, match=CONFIG_FILE):
        CitedFilter.from_folder(tmp_path)


def test_fitting_needs_both_kinds_of_span():
    texts, predicted, gold = corpus(OWN, False)
    with pytest.raises(ValueError, match="both inside and outside"):
        CitedFilter.fit(texts, predicted, gold, CitedFilterConfig(buckets=1 << 10))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"threshold": 0.0}, "threshold"),
        ({"threshold": 1.5}, "threshold"),
        ({"buckets": 1}, "buckets"),
        ({"labels": ("nat-name",)}, "judges only"),
        ({"window": 0}, "positive"),
    ],
)
def test_a_config_that_cannot_work_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        CitedFilterConfig(**kwargs)


def test_a_file_name_docket_is_known_as_the_cases_own():
    text = "Az.: 7 K 1138/05\nUrteil\n…\nhttp://www.justiz.nrw.de/nrwe/j2006/7_K_1138_05urteil.html"
    start = text.index("7_K_1138_05")
    span = Span(start, start + 11, "court-docket", "medium", 1.0)
    names = span_features(text, span, DocumentContext.of(text), CitedFilterConfig())
    assert "SELFOWN" in names


def test_the_sentence_variant_reads_markers_beyond_ten_words():
    # `st. Rspr.` stands fourteen words before the date: only the sentence's bag sees it
    text = (
        "Der Kläger rügt dies. Nach st. Rspr. des Gerichts, der die Kammer in allen hier "
        "erheblichen Punkten folgt, gilt das Urteil vom 12. Mai 2020 fort. Der Beklagte schweigt."
    )
    span = date_span(text, "12. Mai 2020")
    context = DocumentContext.of(text)
    plain = span_features(text, span, context, CitedFilterConfig())
    with_sentence = span_features(text, span, context, CitedFilterConfig(sentence=True))
    assert "L:rspr" not in plain and "S:rspr" in with_sentence
    assert "S:kläger" not in with_sentence and "S:beklagte" not in with_sentence  # other sentences
    assert set(plain) <= set(with_sentence)


@given(st.text(min_size=1, max_size=300), st.data())
def test_the_sentence_around_a_span_never_holds_the_span_or_a_line_end(text, data):
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    sentence = sentence_around(text, Span(start, end, "date-fact", "medium", 0.5))
    assert "\n" not in sentence
    assert len(sentence) <= len(text) - (end - start) + 1


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(min_size=1, max_size=200),
    data=st.data(),
)
def test_features_are_defined_for_any_span_and_hash_into_the_buckets(text, data):
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    span = Span(start, end, "court-name", "low", 0.5)
    config = CitedFilterConfig(buckets=1 << 8)
    names = span_features(text, span, DocumentContext.of(text), config)
    ids = feature_ids(names, span.label, config.buckets)
    assert len(ids) == 2 * len(names)
    assert all(0 <= i < config.buckets for i in ids)
    assert feature_ids(names, span.label, config.buckets) == ids  # stable: CRC-32, not hash()


def test_the_detector_applies_the_folders_filter_unless_told_not_to(tiny_model_dir, tmp_path):
    from hf_anon.model.detection import SpanDetector

    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    assert SpanDetector.from_pretrained(folder, backend="torch").cited_filter is None
    texts, predicted, gold = corpus(CITED, True)
    own = corpus(OWN, False)
    always = CitedFilter.fit(
        texts + own[0], predicted + own[1], gold + own[2],
        CitedFilterConfig(buckets=1 << 10, threshold=1e-9),
    )  # fmt: skip
    always.save_pretrained(folder)
    settings = {"backend": "torch", "label_thresholds": {}, "recognizers": ("dates",)}
    detector = SpanDetector.from_pretrained(folder, **settings)
    assert detector.cited_filter is not None
    off = SpanDetector.from_pretrained(folder, cited_filter=False, **settings)
    assert off.cited_filter is None
    text = "Der Kläger Jonas Weber wohnt seit dem 3. Mai 2021 in München."
    found_off = off.detect([text])[0]
    found_on = detector.detect([text])[0]
    judged = [s for s in found_off if s.label in always.config.labels]
    assert judged  # the dates recognizer finds one at least, and the filter drops them all
    assert found_on == [s for s in found_off if s.label not in always.config.labels]
    assert len(found_on) == len(found_off) - len(judged)


def test_detect_on_the_command_line_can_leave_the_filter_out(tiny_model_dir, tmp_path):
    import json

    from hf_anon.cli import main
    from hf_anon.text.data import load_jsonl

    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    texts, predicted, gold = corpus(CITED, True)
    own = corpus(OWN, False)
    CitedFilter.fit(
        texts + own[0], predicted + own[1], gold + own[2],
        CitedFilterConfig(buckets=1 << 10, threshold=1e-9),
    ).save_pretrained(folder)  # fmt: skip
    source = tmp_path / "in.jsonl"
    text = "Der Kläger Jonas Weber wohnt seit dem 3. Mai 2021 in München."
    source.write_text(json.dumps({"id": "a", "text": text}, ensure_ascii=False) + "\n")
    found = {}
    for flag in ([], ["--no-cited-filter"]):
        out = tmp_path / f"out{len(flag)}.jsonl"
        args = ["detect", "--model", str(folder), "--input", str(source), "--output", str(out)]
        assert main([*args, "--recognizers", "dates", "--no-progress", *flag]) == 0
        found[bool(flag)] = load_jsonl(out)[0].spans
    labels = CitedFilterConfig().labels
    assert any(s.label in labels for s in found[True])
    assert not any(s.label in labels for s in found[False])


@pytest.mark.parametrize(
    ("fold_numbers", "names"),
    [((0, 1, 2, 3, 4), {"1", "2", "3", "4", "5"}), ((1, 2, 3, 4), {"2", "3", "4", "5"})],
    ids=["five folds", "fold 1 left out (the model trained on it)"],
)
def test_a_nested_threshold_is_chosen_without_the_fold_it_is_scored_on(fold_numbers, names):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from cited_filter_cv import NESTED_THRESHOLDS, nested_out_of_fold

    from hf_anon.text.data import Document
    from hf_anon.text.labels import DEFAULT_LABELS

    a, b = corpus(CITED, True), corpus(OWN, False)
    texts, predicted, gold = a[0] + b[0], a[1] + b[1], a[2] + b[2]
    docs = [Document(f"d{i}", t, s) for i, (t, s) in enumerate(zip(texts, gold, strict=True))]
    # every fold holds both kinds; a fold keeps its number when another is left out
    folds = [fold_numbers[i % len(fold_numbers)] for i in range(len(docs))]
    spans, chosen = nested_out_of_fold(
        docs, predicted, folds, DEFAULT_LABELS, buckets=1 << 12, sentence=True
    )
    assert set(chosen) == names
    assert all(t in NESTED_THRESHOLDS for t in chosen.values())
    own = [s for s, g in zip(spans, gold, strict=True) if g]
    assert all(s for s in own)  # this case's dates stay
    assert sum(not s for s, g in zip(spans, gold, strict=True) if not g) >= len(a[0]) // 2
