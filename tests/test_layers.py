"""The package's layers, read from its import graph: a newcomer can trust the folders.

``hf_anon`` is built in layers, each a folder that imports only the ones below it:

    cli → distribution → apply → model → corpora → text

The top-level ``hf_anon`` package is the façade (``from hf_anon import Anonymizer``) and
may import anything. Imports made only for type checking do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

grimp = pytest.importorskip("grimp")

PACKAGE = Path(__file__).resolve().parent.parent / "hf_anon"
#: Top to bottom.
LAYERS = ("cli", "distribution", "apply", "model", "corpora", "text")
MAX_LINES = 600


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph("hf_anon", exclude_type_checking_imports=True)


def layer_of(module: str) -> int | None:
    """The layer's rank (0 = top) of ``hf_anon.<layer>...``; None for the façade."""
    parts = module.split(".")
    if len(parts) < 2:
        return None
    return LAYERS.index(parts[1]) if parts[1] in LAYERS else -1


def test_every_module_lives_in_a_layer(graph):
    loose = sorted(m for m in graph.modules if layer_of(m) == -1)
    assert loose == [], f"modules outside the layer folders {LAYERS}: {loose}"


def test_layers_import_only_downwards(graph):
    upward = []
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if not imported.startswith("hf_anon."):
                continue
            here, there = layer_of(module), layer_of(imported)
            if here is not None and there is not None and there < here:
                upward.append(f"{module} imports {imported}")
    assert upward == []


def strongly_connected(graph) -> list[list[str]]:
    """Tarjan's components of more than one module: the import cycles."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return cycles


def test_no_import_cycles(graph):
    assert strongly_connected(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    """The check above would pass on any graph if the finder found nothing."""

    class Graph:
        modules = frozenset({"a", "b", "c"})

        @staticmethod
        def find_modules_directly_imported_by(m):
            return {"a": {"b"}, "b": {"a"}, "c": {"a"}}[m]

    assert strongly_connected(Graph) == [["a", "b"]]


def test_no_module_is_longer_than_a_screenful_of_screens():
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}, f"modules over {MAX_LINES} lines: {long}"


def private_reach_ins(root: Path) -> list[str]:
    """``from hf_anon.x import _name``: one module using another's private name."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hf_anon"):
                private = [a.name for a in node.names if a.name.startswith("_")]
                private = [name for name in private if not name.startswith("__")]
                found += [f"{path.name}:{node.lineno} {node.module}.{n}" for n in private]
    return found


@pytest.mark.parametrize("folder", ["hf_anon", "tests", "benchmarks", "datasets_scripts"])
def test_no_private_reach_ins(folder):
    assert private_reach_ins(PACKAGE.parent / folder) == []


def test_a_private_reach_in_is_found(tmp_path):
    (tmp_path / "m.py").write_text("from hf_anon.text.lexicon import _EXTRA\n")
    assert private_reach_ins(tmp_path) == ["m.py:1 hf_anon.text.lexicon._EXTRA"]
