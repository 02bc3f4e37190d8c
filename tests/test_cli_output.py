"""What the command line prints around its work: every ``Example:`` of a help text on a line of its own,
``annals report --help`` naming each report with its title, and a reader that stops early (``| head``) being no
error."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import typer.core
import typer.main
from typer._click.core import Command
from typer.testing import CliRunner

import annals
from annals.cli.app import examples_on_their_own_lines
from annals.cli.main import app
from annals.queries.reports.run import REPORTS

runner = CliRunner()


def _every_command() -> list[tuple[list[str], Command]]:
    """Each command and group as (its words after ``annals``, the click command), the groups' own commands too."""
    group = typer.main.get_command(app)
    found: list[tuple[list[str], Command]] = [([], group)]

    def walk(command: typer.core.TyperGroup, words: list[str]) -> None:
        for name, sub in command.commands.items():
            found.append(([*words, name], sub))
            if isinstance(sub, typer.core.TyperGroup):
                walk(sub, [*words, name])

    assert isinstance(group, typer.core.TyperGroup)
    walk(group, [])
    return found


def test_every_example_of_every_help_is_a_line_of_its_own() -> None:
    checked = 0
    for words, command in _every_command():
        written = re.findall(r"Example: (.+?)(?=\s+Example: |\n|$)", command.help or "")
        shown = runner.invoke(app, [*words, "--help"], terminal_width=80)
        assert shown.exit_code == 0, shown.output
        lines = [line.strip() for line in shown.output.splitlines()]
        for example in written:
            assert f"Example: {example.strip()}" in lines, (words, example, shown.output)
            checked += 1
    assert checked >= 40  # simulate and report have two each; every command has one


def test_examples_are_split_from_the_sentence_and_from_each_other() -> None:
    text = "Make keys. Example: annals key new k\n\nMore.\n\nExample: a\nExample: b  # a comment"
    assert examples_on_their_own_lines(text) == (
        "Make keys.\n\n\b\nExample: annals key new k\n\nMore.\n\n\b\nExample: a\nExample: b  # a comment"
    )
    assert examples_on_their_own_lines(examples_on_their_own_lines(text)) == examples_on_their_own_lines(text)


def test_report_help_gives_each_report_its_title() -> None:
    shown = runner.invoke(app, ["report", "--help"], terminal_width=100)
    assert shown.exit_code == 0, shown.output
    listed = dict(
        line.strip().split(None, 1) for line in shown.output.split("Reports:", 1)[1].splitlines() if line.strip()
    )
    assert listed == {name: spec.title for name, spec in REPORTS.items()}


def test_a_reader_that_stops_early_is_no_error(tmp_path: Path) -> None:
    """``annals show ... | head`` in a real shell pipe: annals exits 0 (pipefail gives its code) and says nothing on
    stderr, though head closed the pipe long before annals had written all it had."""
    annals.simulate("morana", 6, decks=["clash", "glory"], out=tmp_path / "games", seed=1)
    whole = runner.invoke(app, ["show", str(tmp_path / "games" / "*.log"), "--format", "json"])
    assert whole.exit_code == 0 and len(whole.output) > 4 * 65536  # far more than a pipe's buffer holds
    bin_dir = Path(sys.executable).parent
    for fmt in ("text", "json"):
        done = subprocess.run(
            ["bash", "-c", f"set -o pipefail; annals show 'games/*.log' --format {fmt} | head -3"],
            cwd=tmp_path,
            env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert (done.returncode, done.stderr) == (0, ""), (fmt, done.returncode, done.stderr)
        assert len(done.stdout.splitlines()) == 3


def test_help_contexts_reach_every_group() -> None:
    """The walk above sees the groups' commands (annals key new ...), so no help escapes the check."""
    names = {" ".join(words) for words, _ in _every_command()}
    assert {"key new", "judge backup", "event run", "scenario run", "report", "simulate"} <= names
