"""Command-line values coerced without pydantic (``cli.coerce``) are the values typer's own coercion gives, for every
parameter of every command; where typer refuses a value the quick path leaves it to typer (so the usage error is
typer's); and running a command imports no pydantic at all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.core
import typer.main
from typer._click import Context
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param

from annals.cli import coerce
from annals.cli.main import app

VALUES = [
    "", "0", "5", "007", "-1", "1_000", " 5", "5 ", "2.5", "1e3", "٣", "abc", "miras9", "table", "csv", "CSV", "json",
    ".", "./x", "x/", "a//b", "/tmp", "/no/such/folder/file.log", "~", "-", "Thursday Club", "\udcff", "a\tb",
]  # fmt: skip


def _params() -> list[tuple[str, typer.core.TyperOption | typer.core.TyperArgument, typer.core.TyperCommand]]:
    group = typer.main.get_command(app)
    found = []

    def walk(command: Any, words: list[str]) -> None:
        for param in command.params:
            if isinstance(param, typer.core.TyperOption | typer.core.TyperArgument):
                found.append((" ".join([*words, param.name or "?"]), param, command))
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*words, name])

    walk(group, [])
    return found


PARAMS = _params()


def _typer(param: Any, value: object, ctx: Context) -> tuple[str, object]:
    try:
        return "value", build_runtime_param(param.type_descriptor).coerce(value, param=param, ctx=ctx)
    except BadParameter as exc:
        return "refused", exc.format_message()


def test_every_command_parameter_is_reached() -> None:
    names = {name for name, _, _ in PARAMS}
    assert {"report name", "report min_games", "report db", "report fmt", "simulate games", "sql query"} <= names
    assert len(PARAMS) > 200


def test_quick_values_are_typers_values() -> None:
    """Each value the quick path gives is the one typer gives (same type); each value typer refuses goes to typer."""
    quick_taken = 0
    for name, param, command in PARAMS:
        ctx = Context(command)
        for value in [*VALUES, 0, 7, param.default]:
            quick = coerce.plain(value, param, ctx)
            if quick is coerce._NOT_PLAIN:
                continue
            quick_taken += 1
            kind, expected = _typer(param, value, ctx)
            assert kind == "value", (name, value, expected)
            assert (type(quick), quick) == (type(expected), expected), (name, value)
    assert quick_taken > 1000  # the quick path is what a command's plain values take, not a rare case


def test_a_refused_value_reads_as_typer_writes_it(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).with_name("annals")), "report", "card_metrics", "--min-games", "-1"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "error: Invalid value for '--min-games': Input should be greater than or equal to 0; "
        "see 'annals report --help'\n"
    )


RUN = """
import sys
from annals.cli.main import app
try:
    app(sys.argv[1:])
except SystemExit as end:
    print(end.code, sorted(m for m in sys.modules if m.split(".")[0] == "pydantic"), file=sys.stderr)
"""


@pytest.mark.parametrize("argv", [["card", "Ember Sprite"], ["simulate", "morana", "-n", "1", "--out"]])
def test_running_a_command_imports_no_pydantic(argv: list[str], tmp_path: Path) -> None:
    argv = [*argv, str(tmp_path / "games")] if argv[-1] == "--out" else argv
    done = subprocess.run([sys.executable, "-c", RUN, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.stderr.splitlines()[-1] == "0 []", done.stderr  # done, and pydantic never imported
