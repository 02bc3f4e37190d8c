"""The documentation runs: docstring examples, and every ``annals`` command the README shows exists."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest
import typer.core
import typer.main

from annals.cli.main import app

DOCTESTED = ["annals.engine.rng", "annals.schemas.logfile", "annals.schemas.keys"]
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("module", DOCTESTED)
def test_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{module} has no examples"
    assert result.failed == 0


def test_every_command_in_the_readme_exists() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    shown = set(re.findall(r"^annals ([a-z]+)", README.read_text(), flags=re.MULTILINE))
    assert {"simulate", "verify", "show", "play", "ingest", "report", "sql", "position", "continue"} <= shown
    assert shown <= set(group.commands), shown - set(group.commands)
