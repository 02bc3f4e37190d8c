"""Every event ruling R-EVT-NN in RULINGS.md names tests that exist, and they cite the paragraphs it rests on."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_event_ruling_names_existing_tests_that_cite_its_paragraphs() -> None:
    section = (ROOT / "RULINGS.md").read_text().split("## Events (tournaments)", 1)[1].split("\n## ", 1)[0]
    blocks = re.split(r"\n- (?=\*\*R-EVT-)", section)[1:]
    ids = [re.findall(r"^\*\*(R-EVT-\d+)", b) for b in blocks]
    assert ids == [[f"R-EVT-0{i}"] for i in range(1, 10)]
    for block in blocks:
        flat = " ".join(block.split())
        rests, tests_text = flat.split("Test:", 1)
        paragraphs = {p.replace("-", "_") for p in re.findall(r"\[((?:M9|MOR)-\d+)\]", rests.split("Rests on", 1)[1])}
        tests = re.findall(r"(tests/[\w/]+\.py)::(\w+)", tests_text)
        assert tests, block
        cited: set[str] = set()
        for path, name in tests:
            tree = ast.parse((ROOT / path).read_text())
            names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
            assert name in names, f"{path}::{name} does not exist"
            cited |= set(re.findall(r"(?:M9|MOR)_\d+", name))
        assert paragraphs <= cited, (block[:40], sorted(paragraphs - cited))
