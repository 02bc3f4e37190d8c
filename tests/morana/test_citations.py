"""Bookkeeping for the standards: every paragraph the MORANA issue lists is cited by a test, and every ruling
R-MOR-NN in RULINGS.md names tests that exist and cite it (by its id in their name or docstring)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests" / "morana"

# The paragraphs issue 4 lists under "Rules to enforce" (ranges written out).
ISSUE_PARAGRAPHS = [5, 7, 8, 9, 10, 12, 14, 15, 16, 17, 18, 19, 21, 23, 24, 25, 27, 28, 29, 31, 33, 35, 37, 39]


def _tests() -> dict[str, str]:
    """``path::name`` -> the test's name and docstring, for every test function under tests/morana."""
    out: dict[str, str] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                key = f"tests/morana/{path.name}::{node.name}"
                out[key] = f"{node.name}\n{ast.get_docstring(node) or ''}"
    # run by tests/queries/workbench/test_scenarios.py
    for path in sorted((ROOT / "tests" / "scenarios" / "morana").glob("*.toml")):
        rules = tomllib.loads(path.read_text()).get("rules", [])
        out[f"tests/scenarios/morana/{path.name}"] = "\n" + " ".join(f"[{r}]" for r in rules)
    return out


def _cites(text: str, paragraph: int) -> bool:
    return f"[MOR-{paragraph:02d}]" in text or re.search(rf"_mor{paragraph:02d}(_|$)", text.split("\n")[0]) is not None


def test_every_paragraph_the_issue_lists_is_cited_by_a_test() -> None:
    """Each [MOR-NN] of the issue appears in some test's name (``mor05``) or docstring (``[MOR-05]``)."""
    tests = _tests()
    uncited = [p for p in ISSUE_PARAGRAPHS if not any(_cites(text, p) for text in tests.values())]
    assert uncited == [], f"paragraphs cited by no test: {uncited}"


def _rulings() -> dict[str, list[str]]:
    """R-MOR-NN -> the ``Test:`` entries of its ruling in RULINGS.md."""
    text = (ROOT / "RULINGS.md").read_text()
    section = text[text.index("## MORANA") :]
    out: dict[str, list[str]] = {}
    for block in re.split(r"\n- \*\*", section)[1:]:
        m = re.match(r"(R-MOR-\d\d)", block)
        if m:
            out[m.group(1)] = re.findall(r"tests/morana/\S+?\.py::\w+", block)
    return out


def test_every_ruling_names_existing_tests_that_cite_it() -> None:
    """Every R-MOR-NN names at least one test; each named test exists, and at least one cites the ruling."""
    tests = _tests()
    rulings = _rulings()
    assert len(rulings) >= 20
    for ruling, named in rulings.items():
        assert named, f"{ruling} names no test"
        missing = [t for t in named if t not in tests]
        assert missing == [], f"{ruling} names tests that do not exist: {missing}"
        snake = ruling.lower().replace("-", "_")
        assert any(ruling in tests[t] or snake in tests[t] for t in named), f"no test named by {ruling} cites it"
