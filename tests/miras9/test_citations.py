"""The test suite's own bookkeeping: every operative paragraph is cited by a Miras 9 test, every cited id
exists in the numbered rules, and every ruling R-M9-NN in RULINGS.md names a test that exists.

A test cites a paragraph in its name (``..._M9_086``) or docstring (``[M9-086]``; ``[M9-102]-[M9-105]`` cites the
whole range). Whether the test really exercises the rule is a reviewer's job; this file only keeps the index honest.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parent

# Every operative paragraph, [M9-003] (after the title and the authority line) to the last (issue 14).
FIRST_OPERATIVE = 3

LAST_PARAGRAPH = 125  # the numbered copy runs [M9-001]..[M9-125]
_ID = re.compile(r"\[M9-(\d{3})\](?:\s*[-–]\s*\[M9-(\d{3})\])?")
_NAME_ID = re.compile(r"M9_(\d{3})")


def _ids(text: str) -> set[int]:
    out: set[int] = set()
    for m in _ID.finditer(text):
        first = int(m.group(1))
        last = int(m.group(2)) if m.group(2) else first
        out.update(range(first, last + 1))
    return out


def cited_by_test() -> dict[str, set[int]]:
    """``path::name`` of every test function in tests/miras9 -> the paragraph ids it cites."""
    cited: dict[str, set[int]] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                ids = {int(x) for x in _NAME_ID.findall(node.name)} | _ids(ast.get_docstring(node) or "")
                cited[f"tests/miras9/{path.name}::{node.name}"] = ids
    # run by tests/queries/workbench/test_scenarios.py
    for path in sorted((ROOT / "tests" / "scenarios" / "miras9").glob("*.toml")):
        rules = tomllib.loads(path.read_text()).get("rules", [])
        cited[f"tests/scenarios/miras9/{path.name}"] = _ids(" ".join(f"[{r}]" for r in rules))
    return cited


def rulings() -> dict[str, list[str]]:
    """R-M9-NN -> the tests it names, from the Miras 9 section of RULINGS.md."""
    text = (ROOT / "RULINGS.md").read_text()
    section = text.split("## The Miras 9 TCG", 1)[1].split("\n## ", 1)[0]
    out: dict[str, list[str]] = {}
    for block in re.split(r"\n- (?=\*\*R-M9-)", section)[1:]:
        rid = re.match(r"\*\*(R-M9-\d+)", block)
        assert rid is not None
        flat = " ".join(block.split())
        listed = re.split(r"\bTests?:", flat, maxsplit=1)
        tests = re.findall(r"(tests/[\w/]+\.py::\w+)", listed[1]) if len(listed) > 1 else []
        out[rid.group(1)] = tests
    return out


def test_every_listed_paragraph_is_cited_by_a_test() -> None:
    wanted = set(range(FIRST_OPERATIVE, LAST_PARAGRAPH + 1))
    cited = set().union(*cited_by_test().values())
    missing = sorted(wanted - cited)
    assert not missing, [f"M9-{n:03d}" for n in missing]


def test_cited_paragraphs_exist() -> None:
    """A cited id outside the numbered copy ([M9-001]..[M9-125]) is a typo."""
    bad = {t: sorted(i for i in ids if not 1 <= i <= LAST_PARAGRAPH) for t, ids in cited_by_test().items()}
    assert not {t: b for t, b in bad.items() if b}


def test_every_ruling_names_an_existing_test() -> None:
    tests = cited_by_test()
    found = rulings()
    assert len(found) >= 25
    for rid, names in found.items():
        assert names, f"{rid} names no test"
        for name in names:
            assert name in tests, f"{rid} names {name!r}, which does not exist"
