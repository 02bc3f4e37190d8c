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


# Inside ``queries``, the floors of ``queries/__init__.py``, lowest first: a module may import its own floor and the
# floors before it. A top-level module of ``queries`` is a floor of its own; the subpackages are named by folder.
QUERY_FLOORS = ["names", "cards", "positions", "reports", "pictures", "workbench", "top"]
TOP_OF_QUERIES = {"export", "tournament", "eventpages", "demo", "sqlfiles", "review", "reviewtext"}


def query_floor(module: str) -> str | None:
    """The floor of a module of ``annals.queries`` (``annals.queries.pictures.viewer`` -> ``pictures``)."""
    parts = module.split(".")
    if parts[:2] != ["annals", "queries"] or len(parts) < 3:
        return None
    name = parts[2]
    if name in TOP_OF_QUERIES:
        return "top"
    return name if name in QUERY_FLOORS else None


def test_every_module_of_queries_has_a_floor() -> None:
    homeless = sorted(m for m in MODULES if m.startswith("annals.queries.") and query_floor(m) is None)
    assert not homeless, f"add each to QUERY_FLOORS or TOP_OF_QUERIES: {homeless}"
    assert {query_floor(m) for m in MODULES} - {None} == set(QUERY_FLOORS)


def upward_in_queries(graph: dict[str, set[str]], floor: str) -> list[str]:
    """The imports of ``floor``'s modules that name a module of a higher floor of ``queries``."""
    allowed = set(QUERY_FLOORS[: QUERY_FLOORS.index(floor) + 1])
    return sorted(
        f"{module} imports {name}"
        for module, names in graph.items()
        if query_floor(module) == floor
        for name in names
        if (other := query_floor(name)) is not None and other not in allowed
    )


@pytest.mark.parametrize("floor", QUERY_FLOORS)
def test_imports_inside_queries_point_down_its_floors(floor: str) -> None:
    """Pictures may use positions, never the reverse; the workbench and the export sit above both."""
    assert upward_in_queries(GRAPH, floor) == []


def test_the_floor_check_catches_an_upward_import() -> None:
    """The checker itself: positions importing pictures is named, pictures importing positions is not."""
    graph = {
        "annals.queries.positions.timeline": {"annals.queries.pictures.svgboard"},
        "annals.queries.pictures.viewer": {"annals.queries.positions.timeline", "annals.queries.cards"},
    }
    assert upward_in_queries(graph, "positions") == [
        "annals.queries.positions.timeline imports annals.queries.pictures.svgboard"
    ]
    assert upward_in_queries(graph, "pictures") == []


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
