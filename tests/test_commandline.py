"""A command annals prints for a person to run next can be pasted as printed: a path or name with a space, a quote
or a ``$`` in it is quoted (``schemas.commandline.quoted``). ``annals event new "Thursday Club"`` said to check it
with ``annals event verify Thursday Club``, which the shell hands over as two arguments."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from annals.cli.main import app
from annals.schemas.commandline import quoted

runner = CliRunner()


@given(st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), max_size=40))
def test_a_quoted_value_is_one_argument_to_the_shell(text: str) -> None:
    assert shlex.split(f"annals verify {quoted(text)}") == ["annals", "verify", text]


@pytest.mark.parametrize("name", ["Thursday Club", "Ann's $5 night", "plain"])
def test_the_commands_event_new_prints_run_as_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(app, ["event", "new", name, "--ruleset", "miras9"])
    assert made.exit_code == 0, made.output
    said = " ".join(made.output.split())  # the console wraps long lines
    command = re.search(r"check the event with (annals event verify .*?)\)", said)
    assert command is not None, said
    argv = shlex.split(command.group(1))
    assert argv[3] == name, argv  # one argument, the folder
    checked = runner.invoke(app, argv[1:])
    assert checked.exit_code == 0, checked.output


def test_key_new_prints_an_export_command_that_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    made = runner.invoke(app, ["key", "new", "my keys/spring", "--name", "Spring Open"])
    assert made.exit_code == 0, made.output
    line = next(line for line in made.output.splitlines() if "export the public key with:" in line)
    argv = shlex.split(line.split("export the public key with: ", 1)[1])
    assert argv[:3] == ["annals", "key", "export"] and argv[3] == "my keys/spring/event.key", argv
    exported = runner.invoke(app, [*argv[1:], "--out", "spring.pub"])
    assert exported.exit_code == 0, exported.output
    assert (tmp_path / "spring.pub").exists()
