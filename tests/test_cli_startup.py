"""The command line starts at once: building ``annals``'s commands (what ``--version``, ``--help`` and every usage
error do before anything else) imports no DuckDB, polars, pyarrow, Starlette, rich, pydantic, cryptography or rules,
and of annals only the command modules and the light names listed in ``LIGHT``; each command imports the library it
calls in its body. Checked in a fresh interpreter, where nothing else has imported them; and the
names the help lists without importing the library (``queries.names``, ``engine.names``) are the library's."""

from __future__ import annotations

import json
import subprocess
import sys

import typer.core
import typer.main
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine import ENGINE_VERSION
from annals.engine.compiled import engine_build
from annals.engine.players import DECISION_TIMEOUT
from annals.engine.views import VIEWERS
from annals.queries.export import VIEWS
from annals.queries.names import EXPORT_VIEWS

HEAVY = ("duckdb", "polars", "pyarrow", "starlette", "uvicorn", "rich", "pydantic", "cryptography", "xxhash")
# The annals modules outside annals.cli that building the command line may import: names for the help, errors and
# files (ANNALS_HOME, globs). A module added here costs every invocation its import time (measure it first).
LIGHT = {
    "annals",
    "annals.engine",
    "annals.engine.compiled",
    "annals.engine.names",
    "annals.queries",
    "annals.queries.names",
    "annals.queries.reports",
    "annals.queries.reports.specs",
    "annals.schemas",
    "annals.schemas.archive",
    "annals.schemas.commandline",
    "annals.schemas.errors",
    "annals.schemas.files",
    "annals.schemas.judge",
    "annals.schemas.screen",
}  # fmt: skip  (engine.compiled: annals.engine picks the compiled or pure engine there; the standard library only;
#  schemas.screen: os and shutil, rich only inside its functions, for the commands printed to copy)

BUILD = (
    f"HEAVY = {HEAVY!r}"
    + """
import json, sys
import typer.main
from annals.cli.main import app
group = typer.main.get_command(app)  # what every invocation does before parsing its arguments
print(json.dumps({"loaded": sorted(m for m in sys.modules if m.split(".")[0] in HEAVY),
    "annals": sorted(m for m in sys.modules if m.split(".")[0] == "annals" and not m.startswith("annals.cli")),
    "commands": sorted(group.commands)}))
"""
)

VERSION = (
    f"HEAVY = {HEAVY!r}"
    + """
import sys
from annals.cli.main import app
sys.argv = ["annals", "--version"]
try:
    app()
except SystemExit:
    pass
print(sorted(m for m in sys.modules if m.split(".")[0] in HEAVY))
"""
)


def test_building_the_command_line_imports_no_heavy_library() -> None:
    done = subprocess.run([sys.executable, "-c", BUILD], capture_output=True, text=True, check=True)
    built = json.loads(done.stdout)
    assert built["loaded"] == []
    assert set(built["annals"]) <= LIGHT, sorted(set(built["annals"]) - LIGHT)
    assert len(built["commands"]) >= 20  # the commands are all registered, not left out to start faster


def test_version_imports_no_heavy_library() -> None:
    done = subprocess.run([sys.executable, "-c", VERSION], capture_output=True, text=True, check=True)
    version, engine, heavy = done.stdout.splitlines()
    assert (version, heavy) == ("annals " + ENGINE_VERSION, "[]")
    assert engine == f"engine: {engine_build()}"  # which engine runs: compiled (mypyc), or pure Python and why


def test_the_check_sees_a_heavy_import() -> None:
    """The same script, with a command module that imports DuckDB or the log codec at its top: the check must see
    it."""
    script = BUILD.replace("import json", "import duckdb, annals.schemas.logfile, json")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    built = json.loads(done.stdout)
    assert "duckdb" in built["loaded"] and "annals.schemas.logfile" in set(built["annals"]) - LIGHT


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
