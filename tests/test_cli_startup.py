"""The command line starts at once: building ``annals``'s commands (what ``--version``, ``--help`` and every usage
error do before anything else) imports no DuckDB, polars, pyarrow, Starlette or rules; each command imports the
library it calls in its body. Checked in a fresh interpreter, where nothing else has imported them; and the
names the help lists without importing the library (``queries.names``, ``engine.names``) are the library's."""

from __future__ import annotations

import json
import subprocess
import sys

import typer.core
import typer.main
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.players import DECISION_TIMEOUT
from annals.engine.views import VIEWERS
from annals.queries.export import VIEWS
from annals.queries.names import EXPORT_VIEWS

HEAVY = ("duckdb", "polars", "pyarrow", "starlette", "uvicorn", "annals.engine.miras9", "annals.engine.morana")

BUILD = """
import json, sys
import typer.main
from annals.cli.main import app
group = typer.main.get_command(app)  # what every invocation does before parsing its arguments
print(json.dumps({"loaded": sorted(m for m in sys.modules if m.split(".")[0] in ("duckdb", "polars", "pyarrow",
    "starlette", "uvicorn") or m.startswith(("annals.engine.miras9", "annals.engine.morana"))),
    "commands": sorted(group.commands)}))
"""


def test_building_the_command_line_imports_no_heavy_library() -> None:
    done = subprocess.run([sys.executable, "-c", BUILD], capture_output=True, text=True, check=True)
    built = json.loads(done.stdout)
    assert built["loaded"] == []
    assert len(built["commands"]) >= 20  # the commands are all registered, not left out to start faster


def test_the_check_sees_a_heavy_import() -> None:
    """The same script, with a command module that imports DuckDB at its top: the check must see it."""
    script = "import duckdb\n" + BUILD
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "duckdb" in json.loads(done.stdout)["loaded"]


def test_help_lists_every_command_with_its_help_text() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    result = CliRunner().invoke(app, ["--help"])
    assert result.exit_code == 0
    listed = {line.split()[0]: line for line in result.output.splitlines() if line.startswith("  ") and line.split()}
    for name, command in group.commands.items():
        first_words = command.get_short_help_str(limit=200).split()[:3]
        assert first_words and " ".join(first_words) in listed[name], (name, listed.get(name))


def test_the_light_names_are_the_librarys() -> None:
    assert EXPORT_VIEWS == VIEWS
    assert VIEWERS["spectator"] == -1 and DECISION_TIMEOUT == 30.0
