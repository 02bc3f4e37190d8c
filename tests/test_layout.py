"""The layout a newcomer reads: imports point down the layers, no module imports itself round a circle, and the
product holds no test fixture. Read with ``ast`` from the source files, so a lazy import inside a function or
under ``TYPE_CHECKING`` counts like any other."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parent.parent
# Lowest first: a module may import its own layer and the layers before it, never one after it.
LAYERS = ["schemas", "engine", "ingest", "queries", "cli"]


def module_files() -> dict[str, Path]:
    """Dotted module name (``annals.engine.core``) -> source file, for every module of the five code folders."""
    found: dict[str, Path] = {}
    for layer in LAYERS:
        for path in sorted((CHECKOUT / layer).rglob("*.py")):
            parts = list(path.relative_to(CHECKOUT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(["annals", *parts])] = path
    return found


def imported(path: Path) -> set[str]:
    """Every module name an import statement of the file names (``from a import b`` names ``a`` and ``a.b``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


MODULES = module_files()
GRAPH = {module: imported(path) for module, path in MODULES.items()}


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "annals" and parts[1] in LAYERS else None


def test_the_layers_are_all_there() -> None:
    assert {layer_of(m) for m in MODULES} == set(LAYERS)
    assert len(MODULES) > 60  # every module of the five folders is read, not a handful


@pytest.mark.parametrize("layer", LAYERS)
def test_imports_point_down_the_layers(layer: str) -> None:
    allowed = set(LAYERS[: LAYERS.index(layer) + 1])
    wrong = sorted(
        f"{module} imports {name}"
        for module, names in GRAPH.items()
        if layer_of(module) == layer
        for name in names
        if (other := layer_of(name)) is not None and other not in allowed
    )
    assert not wrong, wrong


def test_the_product_imports_no_test_code_and_names_no_toy_ruleset() -> None:
    to_tests = sorted(f"{m} imports {n}" for m, names in GRAPH.items() for n in names if n.split(".")[0] == "tests")
    assert not to_tests, to_tests
    toys = sorted(str(p) for p in MODULES.values() if re.search(r"\b(card)?toy\b", p.read_text()))
    assert not toys, toys


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each one import cycle or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
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
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_cycles_finds_a_cycle() -> None:
    """The checker itself: a circle of three is found, a chain is not."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_cycles_between_modules() -> None:
    # A package's __init__ is not an edge: importing annals.engine.core runs annals/engine/__init__.py anyway.
    graph = {m: {n for n in names if n in GRAPH and not m.startswith(n + ".")} for m, names in GRAPH.items()}
    assert cycles(graph) == []
