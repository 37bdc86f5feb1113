"""Property-based fuzzing of :meth:`Anonymizer.anonymize` and
:func:`hf_anon.apply.anonymize.engine.replace_spans` (issue 15).

Hypothesis draws integer seeds (derandomized: the same seeds on every run, no example
database, no shrinking: a nearby seed is an unrelated document); :mod:`fuzzdocs` turns
each seed into a hostile document with injected entities of every label, and an oracle
detector reports the injected spans (all of them, only the first mention of each entity,
or a subset). Invariants of every case:

- no exception but :class:`LeakError` (which returns nothing), and ``ValueError`` from
  :class:`Anonymizer` for text with lone surrogates (not valid Unicode, refused before
  detection; :func:`replace_spans` takes any ``str`` and keeps them);
- the output equals the input character for character outside the replaced stretches,
  and ``result.replacements`` say exactly where those are (old and new offsets);
- every reported span that the plan selects lies inside a replacement;
- no mention of a high-risk entity (risk ``high``) is left in the output, reported or
  not, nor inside preserved text;
- with ``key=True`` the key (also through JSON) restores the input exactly, without it
  :meth:`AnonymizationResult.key` refuses;
- the same seed gives the same document and the same output.

The default run executes at least 1,000 cases; ``--fuzz-long`` (or
``HF_ANON_FUZZ_LONG=1``) ten times as many. ``tests/conftest.py`` prints the count.
Reproduce a failure with ``fuzzdocs.make_doc(seed)`` and :func:`run_options`.
"""

from __future__ import annotations

import bisect
import json
import random
import re
import time

import fuzzdocs
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from hf_anon.apply.anonymize import (
    AnonymizationPlan,
    AnonymizationResult,
    Anonymizer,
    FormMatcher,
    Label,
    LeakError,
    Redact,
    protected_forms,
    replace_spans,
    restore,
)
from hf_anon.apply.anonymize.leakcheck import in_references, unreferenced
from hf_anon.text.data import Span
from hf_anon.text.labels import DEFAULT_LABELS
from hf_anon.text.views import detection_view

#: Cases per test: (default run, ``--fuzz-long``).
CASES = {
    "anonymizer": (720, 7200),
    "engine": (300, 3000),
    "huge": (1, 3),
    "model": (8, 40),
}
#: What the whole module must have run: (default run, ``--fuzz-long``).
TARGET = (1000, 10000)
#: Documents up to this length are anonymized twice to check reproducibility.
TWICE_BELOW = 30_000
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def n_cases(name: str, long: bool) -> int:
    return CASES[name][1 if long else 0]


def fuzz_settings(n: int) -> settings:
    return settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )


# --- how one case is run ---------------------------------------------------------------


def run_options(seed: int) -> dict:
    """The arguments of ``anonymize`` for case ``seed``: operators, risks, secret, key.

    High-risk labels are always replaced (never ``keep``), so their mentions must be gone.
    """
    rng = random.Random(f"options {seed}")
    mode = rng.choice(
        ["pseudonym"] * 4
        + ["label", "label", "redact", "initials"]
        + [Redact(""), Redact("█"), Label(numbered=False)]
    )
    operators = None
    if rng.random() < 0.3:
        operators = {}
        for label in rng.sample(DEFAULT_LABELS.names, k=rng.randint(1, 6)):
            choices = ["redact", "label", "pseudonym", "initials"]
            if label not in fuzzdocs.HIGH_RISK:
                choices.append("keep")
            operators[label] = rng.choice(choices)
    return {
        "mode": mode,
        "operators": operators,
        "min_risk": rng.choice([None, None, None, None, "low", "medium", "high"]),
        "seed": seed,
        "secret": "fuzz secret" if rng.random() < 0.2 else None,
        "key": rng.random() < 0.85,
    }


def oracle(*docs: fuzzdocs.FuzzDoc):
    """A detector that reports the injected spans of ``docs`` (it is given the detection
    view of each text: control characters as spaces, same length)."""
    by_view = {detection_view(d.text): d.reported for d in docs}

    def detect(texts):
        return [list(by_view[text]) for text in texts]

    return detect


def _plan(options: dict) -> AnonymizationPlan:
    return AnonymizationPlan.build(
        mode=options["mode"], operators=options["operators"], min_risk=options["min_risk"]
    )


def _replaced(plan: AnonymizationPlan, span) -> bool:
    return plan.selects(span) and plan.operators[span.label].operator_name() != "keep"


def _whole_words(form: str, text: str) -> list[tuple[int, int]]:
    """Where ``form`` stands in ``text`` as whole words, any whitespace between them, case
    as written (``str.find`` for its first word first: megabytes, dozens of forms)."""
    words = form.split()
    pattern = re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, words)) + r"(?!\w)")
    found, at = [], text.find(words[0])
    while at != -1:
        match = pattern.match(text, at)
        if match:
            found.append(match.span())
        at = text.find(words[0], at + 1)
    return found


def _where(text: str, at: int) -> str:
    return repr(text[max(0, at - 40) : at + 40])


def check_result(
    text: str,
    result: AnonymizationResult,
    plan: AnonymizationPlan,
    *,
    key: bool,
    doc: fuzzdocs.FuzzDoc | None = None,
) -> None:
    """The invariants of one anonymized text (see the module's docstring)."""
    out = result.text
    assert isinstance(out, str)
    # 1. outside the replaced stretches the text is kept character for character
    cursor = new_cursor = 0
    covered = []
    for r in sorted(result.replacements, key=lambda r: r.start):
        assert cursor <= r.start < r.end <= len(text), (r, cursor, len(text))
        assert r.new_start - new_cursor == r.start - cursor, r
        assert out[new_cursor : r.new_start] == text[cursor : r.start], _where(text, cursor)
        assert out[r.new_start : r.new_end] == r.text, r
        cursor, new_cursor = r.end, r.new_end
        covered.append((r.start, r.end))
    assert out[new_cursor:] == text[cursor:], _where(text, cursor)
    assert len(out) - new_cursor == len(text) - cursor

    def is_covered(start: int, end: int) -> bool:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start == end:
            return True
        at = bisect.bisect_right(covered, (start, len(text) + 1)) - 1  # sorted, disjoint
        return at >= 0 and covered[at][0] <= start and end <= covered[at][1]

    # 2. every selected span the detector found is replaced
    for span in result.spans:
        if _replaced(plan, span):
            assert is_covered(span.start, span.end), (span, _where(text, span.start))
    for span in result.new_spans():
        assert 0 <= span.start < span.end <= len(out)

    # 3. no protected form the engine knows of is left (its own final check, repeated)
    forms = protected_forms(
        text,
        [s for s in result.spans if _replaced(plan, s)],
        plan.label_set,
        min_score=plan.leak_min_score,
    )
    matcher = FormMatcher(forms)
    left = unreferenced(out, matcher.finditer(out), matcher)
    assert not left, [(m.group(0), _where(out, m.start())) for m in left]

    # 4. no mention of an injected high-risk entity is left, reported or not (but where
    #    the leak check's rule 6 reads it as another text's: a court's postal address)
    if doc is not None:
        missed, left = [], []
        for entity in doc.entities:
            if not entity.high_risk:
                continue
            mentions = doc.mentions_of(entity.index)
            missed += [
                Span(m.start, m.end, m.label) for m in mentions if not is_covered(m.start, m.end)
            ]
            for form in {entity.value, *(m.text for m in mentions)}:
                for start, end in _whole_words(form, out):
                    left.append(Span(start, end, entity.label))
        for where, spans in ((text, missed), (out, left)):
            for span, exempt in zip(spans, in_references(where, spans), strict=True):
                assert exempt, (span, _where(where, span.start), where is out)
                fuzzdocs.STATS["rule-6 exempt"] += 1

    # 5. the key restores the input; without the key there is none
    if key:
        assert result.keyed
        assert result.restore() == text
        assert restore(out, json.loads(json.dumps(result.key()))) == text
    else:
        with pytest.raises(ValueError, match="no key"):
            result.key()


def _same(a: AnonymizationResult, b: AnonymizationResult) -> None:
    assert a.text == b.text
    assert a.replacements == b.replacements


# --- the fuzz tests ----------------------------------------------------------------------


def test_fuzz_anonymizer_with_an_oracle_detector(fuzz_long):
    """:meth:`Anonymizer.anonymize` on random documents, the injected spans reported."""

    @fuzz_settings(n_cases("anonymizer", fuzz_long))
    @given(SEEDS)
    def case(seed):
        fuzzdocs.CASES["anonymizer"] += 1
        doc = fuzzdocs.make_doc(seed)
        if len(doc.text) < TWICE_BELOW:
            assert fuzzdocs.make_doc(seed) == doc
        options = run_options(seed)
        plan = _plan(options)
        anonymizer = Anonymizer(oracle(doc))
        by_plan = random.Random(seed).random() < 0.5
        kwargs = {"plan": plan} if by_plan else {k: options[k] for k in ("mode", "operators")}
        if not by_plan:
            kwargs["min_risk"] = options["min_risk"]
        call = {k: options[k] for k in ("seed", "secret", "key")} | kwargs
        try:
            result = anonymizer.anonymize(doc.text, **call)
        except LeakError:
            fuzzdocs.STATS["leak-error"] += 1
            return
        fuzzdocs.STATS[f"policy {doc.policy}"] += 1
        fuzzdocs.STATS["replacements"] += len(result.replacements)
        check_result(doc.text, result, plan, key=options["key"], doc=doc)
        if len(doc.text) < TWICE_BELOW:
            _same(result, anonymizer.anonymize(doc.text, **call))

    case()


def test_fuzz_replace_spans_with_lone_surrogates(fuzz_long):
    """:func:`replace_spans` (the engine alone) on random documents, some with lone
    surrogates, which :class:`Anonymizer` refuses and the engine keeps."""

    @fuzz_settings(n_cases("engine", fuzz_long))
    @given(SEEDS)
    def case(seed):
        fuzzdocs.CASES["engine"] += 1
        doc = fuzzdocs.make_doc(seed, surrogates=True)
        options = run_options(seed)
        plan = _plan(options)
        if "surrogates" in doc.features:
            fuzzdocs.STATS["surrogates"] += 1
            with pytest.raises(ValueError, match="not valid Unicode"):
                Anonymizer(oracle(doc)).anonymize(doc.text)
            with pytest.raises(UnicodeEncodeError):
                doc.text.encode("utf-8")
        call = {k: options[k] for k in ("seed", "secret", "key")}
        try:
            result = replace_spans(doc.text, doc.reported, plan=plan, **call)
        except LeakError:
            fuzzdocs.STATS["leak-error"] += 1
            return
        check_result(doc.text, result, plan, key=options["key"], doc=doc)
        # the output keeps lone surrogates as they were; written with surrogatepass
        out = result.text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass")
        assert out == result.text
        if len(doc.text) < TWICE_BELOW:
            _same(result, replace_spans(doc.text, doc.reported, plan=plan, **call))

    case()


def test_fuzz_huge_documents(fuzz_long):
    """Documents of 5 MB, with thousands of mentions, in one call."""
    seeds = range(n_cases("huge", fuzz_long))
    for seed in seeds:
        fuzzdocs.CASES["huge"] += 1
        doc = fuzzdocs.make_doc(10_000 + seed, size="huge")
        assert len(doc.text) >= fuzzdocs.HUGE_SIZE
        options = run_options(seed) | {"key": True}
        plan = _plan(options)
        began = time.perf_counter()
        try:
            result = Anonymizer(oracle(doc)).anonymize(
                doc.text, plan=plan, seed=seed, secret=options["secret"], key=True
            )
        except LeakError:
            fuzzdocs.STATS["leak-error"] += 1
            continue
        fuzzdocs.STATS["huge seconds"] += round(time.perf_counter() - began)
        check_result(doc.text, result, plan, key=True, doc=doc)


@pytest.fixture(scope="module")
def default_model():
    return Anonymizer.from_pretrained()


def test_fuzz_the_bundled_model(fuzz_long, default_model):
    """A few short random documents through the bundled default model, in batches
    (what it finds is its business; the invariants hold for whatever it finds)."""
    rng = random.Random(15)
    seeds = [rng.getrandbits(63) for _ in range(n_cases("model", fuzz_long))]
    for batch_start in range(0, len(seeds), 4):
        batch = seeds[batch_start : batch_start + 4]
        docs = [fuzzdocs.make_doc(s, size=rng.choice(["tiny", "small", "empty"])) for s in batch]
        options = run_options(batch[0])
        plan = _plan(options)
        call = {k: options[k] for k in ("seed", "secret", "key")} | {"plan": plan}
        fuzzdocs.CASES["model"] += len(docs)
        try:
            results = default_model.anonymize([d.text for d in docs], **call)
        except LeakError:
            fuzzdocs.STATS["leak-error"] += 1
            continue
        assert len(results) == len(docs)
        for doc, result in zip(docs, results, strict=True):
            check_result(doc.text, result, plan, key=options["key"])
        again = default_model.anonymize([d.text for d in docs], **call)
        for a, b in zip(results, again, strict=True):
            _same(a, b)


def test_fuzz_ran_enough_cases(request, fuzz_long):
    """The module ran at least the promised number of cases (when it ran whole)."""
    names = {item.name for item in request.session.items if item.module is request.module}
    if len(names) < len(CASES) + 1:
        pytest.skip("only part of the fuzz suite was selected")
    total = sum(fuzzdocs.CASES[name] for name in CASES)
    print(f"fuzz: {total} cases, {dict(fuzzdocs.CASES)}; {fuzzdocs.stats_line()}")
    assert total >= TARGET[1 if fuzz_long else 0]
