"""No import circle anywhere in the package: every module's imports (at any depth of the module,
deferred ones too; only those under ``TYPE_CHECKING`` left out) drawn as a graph, which must have
no cycle. A deferred import is how a circle hides; this finds it all the same."""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = "agent_loop_sim"


def modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Every module of the package: its dotted name -> (file, whether it is a package's __init__)."""
    out = {}
    for path in (root / PACKAGE).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def _imported(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: dict) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    base = module.split(".") if is_package else module.split(".")[:-1]
    if node.level > 1:
        base = base[:len(base) - (node.level - 1)]
    prefix = ".".join(base + [node.module]) if node.level and node.module else (
        ".".join(base) if node.level else node.module or "")
    # ``from a import b``: the submodule a.b if there is one, else module a (b is its attribute)
    return [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in known else prefix for a in node.names]


def import_graph(root: Path) -> dict[str, set[str]]:
    known = modules(root)
    graph: dict[str, set[str]] = {}
    for module, (path, is_package) in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(sub) for node in ast.walk(tree)
                       if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                       for sub in ast.walk(node)}
        graph[module] = {name for node in ast.walk(tree)
                         if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in typing_only
                         for name in _imported(module, is_package, node, known)
                         if name in known and name != module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_circle():
    graph = import_graph(ROOT)
    assert len(graph) > 50  # (it read the package)
    assert cycles(graph) == []


def test_a_circle_is_found():
    """The test above can fail: one deferred import back from the registry to the loader is a circle."""
    graph = import_graph(ROOT)
    graph["agent_loop_sim.protocols"].add("agent_loop_sim.scenarios")
    assert ["agent_loop_sim.protocols", "agent_loop_sim.scenarios"] in cycles(graph)


def test_a_deferred_import_counts(tmp_path: Path):
    """An import inside a function is an edge like any other; one under TYPE_CHECKING is not."""
    package = tmp_path / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from . import b\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nfrom .a import f\nif TYPE_CHECKING:\n    from . import c\n")
    (package / "c.py").write_text("from . import b\n")
    graph = import_graph(tmp_path)
    assert cycles(graph) == [[f"{PACKAGE}.a", f"{PACKAGE}.b"]]
