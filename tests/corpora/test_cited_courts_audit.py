"""The gold audit of cited courts (``benchmarks/cited_courts_audit.py``)."""

import sys
from pathlib import Path

from hf_anon.text.data import Document, Span

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from cited_courts_audit import audit, cited_courts


def test_a_court_counts_where_a_citation_names_it_and_not_as_this_case_names_it():
    text = (
        "Das VG Köln hat die Klage abgewiesen (vgl. OVG NRW, Beschluss vom 21. August 2008 "
        "- 8 B 913/08). Das BVerwG, Urteil vom 3. Mai 2012, hob es auf."
    )

    found = [text[s:e] for s, e in cited_courts(text)]

    assert found == ["OVG NRW"]  # the BVerwG is named as this case's court, not cited


def test_marked_cited_courts_are_counted_by_round():
    text = "Die Beschwerde blieb ohne Erfolg (OLG Hamm, Beschluss vom 4. März 1999 - 18 W 6/99)."
    at = text.index("OLG Hamm")
    marked = Document("a", text, [Span(at, at + 8, "court-name", "low")])
    unmarked = Document("b", text, [])

    found, touched, shown = audit([marked, unmarked], {"a": "annotation-train9"}, "validation")

    assert found == {"annotation-train9": 1, "validation": 1}
    assert touched == {"annotation-train9": 1}
    assert shown[0][:2] == ("annotation-train9", "a")
