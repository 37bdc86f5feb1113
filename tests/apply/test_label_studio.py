"""Review in Label Studio: spans with their doubt out as pre-annotated tasks, completed
annotations back as gold, then into outputs; every offset and label survives."""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import time
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hf_anon.apply.anonymize import Anonymizer
from hf_anon.apply.label_studio import from_export, from_utf16, labeling_config, to_tasks, to_utf16
from hf_anon.apply.review import doubt, given_spans, review_record
from hf_anon.cli.main import main
from hf_anon.text.data import Document, Span, load_jsonl
from hf_anon.text.labels import DEFAULT_LABELS

TEXTS = {
    "d1": "Der Kläger 𠮷田 Hans Müller wohnt in der Bahnhofstraße 12 in München.",
    "d2": "Die Zeugin Eva Schmidt 😀 sagte aus; Frau Schmidt blieb.",
}
SCORES = {"Hans Müller": 0.97, "Bahnhofstraße 12": 0.62, "Eva Schmidt": 0.9, "𠮷田": 0.55}
LABEL_OF = {"Bahnhofstraße 12": "address-name"}


def detector(texts):
    out = []
    for text in texts:
        spans = []
        for name, score in SCORES.items():
            for m in re.finditer(re.escape(name), text):
                label = LABEL_OF.get(name, "nat-name")
                spans.append(Span(m.start(), m.end(), label, DEFAULT_LABELS[label].risk, score))
        out.append(sorted(spans))
    return out


def records():
    anonymizer = Anonymizer(detector)
    thresholds = {"nat-name": 0.45, "address-name": 0.5}
    return [
        review_record(i, text, anonymizer.anonymize(text, mode="label", seed=1), thresholds)
        for i, text in TEXTS.items()
    ]


def js_offset(text: str, offset: int) -> int:
    """What JavaScript counts (UTF-16 code units), computed independently of the module."""
    return len(text[:offset].encode("utf-16-le")) // 2


def test_doubtful_spans_are_flagged():
    record = records()[0]
    by_text = {record["text"][s["start"] : s["end"]]: s for s in record["spans"]}

    assert by_text["Hans Müller"]["doubt"] is None  # 0.97: far above 0.45
    assert by_text["𠮷田"]["doubt"] == "near threshold"  # 0.55 < 0.45 + 0.15
    assert by_text["Bahnhofstraße 12"]["doubt"] == "near threshold"
    assert record["doubtful"] == 2
    assert doubt(0.99, "nat-name", source="leak-check") == "leak-check"
    assert doubt(None, "nat-name") is None  # a rule or a gold span


@given(st.text(alphabet=st.sampled_from("aä𠮷😀\n "), max_size=30), st.data())
def test_offsets_convert_both_ways(text, data):
    offset = data.draw(st.integers(0, len(text)))

    assert to_utf16(text, offset) == js_offset(text, offset)
    assert from_utf16(text, to_utf16(text, offset)) == offset


def test_an_offset_inside_a_character_is_refused():
    with pytest.raises(ValueError, match="inside the character at 1"):
        from_utf16("a𠮷b", 2)
    with pytest.raises(ValueError, match="beyond the text"):
        from_utf16("ab", 3)


def test_the_config_holds_every_label_and_risk():
    root = ElementTree.fromstring(labeling_config())

    assert [e.get("value") for e in root.iter("Label")] == DEFAULT_LABELS.names
    assert [e.get("value") for e in root.iter("Choice")] == ["low", "medium", "high"]
    assert root.find("Text").get("granularity") == "symbol"


def reviewed(task: dict) -> list[dict]:
    """What a reviewer does to a task: keeps the predicted regions but drops the one over
    the street, sets the risk of the 𠮷田 region to medium and adds ``München``."""
    text = task["data"]["text"]
    result = [dict(r) for r in task["predictions"][0]["result"]]
    dropped = {r["id"] for r in result if r["value"]["text"] == "Bahnhofstraße 12"}
    result = [r for r in result if r["id"] not in dropped]
    for r in result:
        if r["type"] == "choices" and r["value"]["text"] == "𠮷田":
            r["value"] = {**r["value"], "choices": ["medium"]}
    if "München" in text:
        i = text.index("München")
        value = {"start": js_offset(text, i), "end": js_offset(text, i + 7), "text": "München"}
        result.append(
            {"id": "added", "from_name": "label", "to_name": "text", "type": "labels",
             "value": {**value, "labels": ["address-name"]}}
        )  # fmt: skip
    return result


def expected_gold() -> dict[str, list[tuple]]:
    d1 = TEXTS["d1"]
    return {
        "d1": sorted(
            [
                (d1.index("𠮷田"), d1.index("𠮷田") + 2, "nat-name", "medium"),
                (d1.index("Hans"), d1.index("Hans") + 11, "nat-name", "high"),
                (d1.index("München"), d1.index("München") + 7, "address-name", "high"),
            ]
        ),
        "d2": [(11, 22, "nat-name", "high"), (41, 48, "nat-name", "high")],
    }


def spans_of(documents: list[Document]) -> dict[str, list[tuple]]:
    return {d.id: [(s.start, s.end, s.label, s.risk) for s in d.spans] for d in documents}


def test_a_review_round_trip_without_a_server():
    tasks = to_tasks(records())
    export = [
        {**task, "id": n, "annotations": [{"id": 1, "result": reviewed(task)}]}
        for n, task in enumerate(tasks)
    ]
    export.append({"id": 9, "data": {"id": "d3", "text": "offen"}, "annotations": []})

    documents, open_ids = from_export(export)

    assert spans_of(documents) == expected_gold()
    assert open_ids == ["d3"]


def test_an_export_that_does_not_fit_its_text_is_named():
    task = to_tasks(records())[0]
    result = reviewed(task)
    result[0]["value"] = {**result[0]["value"], "text": "Hans"}
    with pytest.raises(ValueError, match=r"task d1: the nat-name span \[11:13\] reads '𠮷田'"):
        from_export([{**task, "annotations": [{"result": result}]}])
    result[0]["value"] = {**result[0]["value"], "labels": ["name"]}
    with pytest.raises(ValueError, match="task d1: unknown label 'name'"):
        from_export([{**task, "annotations": [{"result": result}]}])


def test_reviewed_spans_go_into_outputs(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    for name, text in TEXTS.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    gold = [
        Document(i, TEXTS[i], [Span(*s) for s in spans]) for i, spans in expected_gold().items()
    ]
    spans_file = tmp_path / "gold.jsonl"
    spans_file.write_text("".join(json.dumps(d.to_dict(), ensure_ascii=False) + "\n" for d in gold))

    code = main(["anonymize", str(folder), "--output", str(tmp_path / "out"), "--mode", "label",
                 "--spans-from", str(spans_file), "--no-progress"])  # fmt: skip

    assert code == 0
    assert (tmp_path / "out" / "d1.txt").read_text(encoding="utf-8") == (
        "Der Kläger <nat-name-1> <nat-name-2> wohnt in der Bahnhofstraße 12 in <address-name-1>."
    )  # the street the reviewer rejected stays
    (folder / "d3.txt").write_text("ein anderer Text", encoding="utf-8")
    assert main(["anonymize", str(folder / "d3.txt"), "--output", str(tmp_path / "o2"),
                 "--spans-from", str(spans_file), "--no-progress"]) == 1  # fmt: skip
    assert "no reviewed spans for text 0" in capsys.readouterr().err
    with pytest.raises(ValueError, match="must hold the same texts"):
        given_spans(gold)(["unbekannt"])


# ----------------------------------------------------------------- a real Label Studio

LABEL_STUDIO = os.environ.get("HF_ANON_LABEL_STUDIO") or shutil.which("label-studio")
START_TIMEOUT = 240


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def label_studio(tmp_path_factory):
    """A Label Studio server on SQLite, started for these tests: (url, headers)."""
    import httpx

    if not LABEL_STUDIO or not Path(LABEL_STUDIO).exists():
        pytest.skip(
            "needs Label Studio: pip install label-studio in an environment of its own and "
            "set HF_ANON_LABEL_STUDIO to its label-studio executable (.ci/run does)"
        )
    data = tmp_path_factory.mktemp("label-studio")
    token = secrets.token_hex(20)
    port = free_port()
    env = {**os.environ, "LABEL_STUDIO_ENABLE_LEGACY_API_TOKEN": "true", "DJANGO_DB": "sqlite"}
    env.pop("PYTHONPATH", None)
    log = (data / "server.log").open("w")
    process = subprocess.Popen(
        [LABEL_STUDIO, "start", "--no-browser", "--port", str(port), "--data-dir", str(data),
         "--username", "review@example.org", "--password", secrets.token_hex(8),
         "--user-token", token],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=data,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                tail = (data / "server.log").read_text()[-2000:]
                pytest.skip(f"Label Studio did not start ({process.poll()}):\n{tail}")
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(1)
        yield url, {"Authorization": f"Token {token}"}
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def test_a_round_trip_through_a_real_label_studio(label_studio, tmp_path):
    import httpx

    url, headers = label_studio
    client = httpx.Client(base_url=url, headers=headers, timeout=60)
    config = tmp_path / "config.xml"
    review = tmp_path / "review.jsonl"
    review.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records()))
    assert main(["label-studio", "config", "--output", str(config)]) == 0
    tasks_file = tmp_path / "t.json"
    assert (
        main(["label-studio", "export", "--input", str(review), "--output", str(tasks_file)]) == 0
    )
    project = client.post(
        "/api/projects", json={"title": "hf-anon review", "label_config": config.read_text()}
    )
    assert project.status_code == 201, project.text
    project_id = project.json()["id"]
    tasks = json.loads(tasks_file.read_text())
    imported = client.post(f"/api/projects/{project_id}/import", json=tasks)
    assert imported.status_code == 201, imported.text
    assert imported.json()["prediction_count"] == 2

    # the reviewer: each task in the order of its doubt, predictions corrected and saved
    listed = client.get("/api/tasks", params={"project": project_id}).json()["tasks"]
    assert sorted(t["data"]["doubtful"] for t in listed) == [1, 2]
    for task in listed:
        ours = next(t for t in tasks if t["data"]["id"] == task["data"]["id"])
        saved = client.post(f"/api/tasks/{task['id']}/annotations", json={"result": reviewed(ours)})
        assert saved.status_code == 201, saved.text
    export = client.get(f"/api/projects/{project_id}/export", params={"exportType": "JSON"})
    assert export.status_code == 200
    exported = tmp_path / "export.json"
    exported.write_text(export.text, encoding="utf-8")

    gold = tmp_path / "gold.jsonl"
    assert main(["label-studio", "import", "--input", str(exported), "--output", str(gold)]) == 0
    assert spans_of(load_jsonl(gold)) == expected_gold()  # every offset, label and risk


def test_the_command_writes_spans_for_review(tmp_path, monkeypatch):
    folder = tmp_path / "in"
    folder.mkdir()
    for name, text in TEXTS.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    anonymizer = Anonymizer(detector)
    monkeypatch.setattr(Anonymizer, "from_pretrained", classmethod(lambda cls, *a, **k: anonymizer))
    review = tmp_path / "review.jsonl"

    code = main(["anonymize", str(folder), "--output", str(tmp_path / "out"),
                 "--review-out", str(review), "--no-progress"])  # fmt: skip

    assert code == 0
    assert review.stat().st_mode & 0o777 == 0o600  # it holds the originals
    written = {r["id"]: r for r in map(json.loads, review.read_text().splitlines())}
    assert written["d1"]["text"] == TEXTS["d1"] and written["d1"]["file"] == "d1.txt"
    street = next(s for s in written["d1"]["spans"] if s["label"] == "address-name")
    assert street["doubt"] == "near threshold" and street["score"] == 0.62  # 0.62 < 0.5 + 0.15
    assert [s["source"] for s in written["d2"]["spans"]] == ["detector", "leak-check"]
