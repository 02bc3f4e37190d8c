"""How the command line fails: exit 2 and one line for a bad argument (typer's own usage errors and names annals
does not know, with the closest known name suggested), exit 1 and one line for an error found while running;
never a traceback, never the exception's class name."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest
import typer.core
import typer.main
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.registry import get_ruleset
from annals.engine.simulate import make_header, simulate
from annals.engine.views import viewer_of
from annals.queries.positions.timeline import CoordinateError, Timeline
from annals.queries.reports.run import run_report
from annals.schemas.errors import BadArgumentError, UnknownNameError, did_you_mean
from tests.helpers import toy_log

runner = CliRunner()
ANNALS = Path(sys.executable).with_name("annals")
GE = "Input should be greater than or equal to"  # typer's words for a value below an option's min


def _commands() -> list[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return list(group.list_commands(typer.Context(group)))


@pytest.fixture(scope="module")
def miras9_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("m9")
    list(simulate("miras9", 1, 3, ["vanguard", "bastion"], ["heuristic", "random"], folder))
    return next(folder.glob("*.log"))


def _one_line_error(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and stderr.endswith("\n"), stderr
    assert lines[0].startswith("error: ") and "Traceback" not in stderr, stderr
    assert re.search(r"[a-z]Error\b", stderr) is None, f"an exception class name: {stderr}"
    return lines[0]


# One wrong argument per command, run as a real process: a misspelled name where the command takes one, else a
# value typer refuses. A command not listed here (added later) is still run below with an unknown option.
def _wrong(command: str, tmp: Path, log: Path) -> tuple[list[str], str]:
    cases: dict[str, tuple[list[str], str]] = {
        "demo": (["--games", "0"], f"Invalid value for '--games' / '-n': {GE} 1"),
        "simulate": (["miras9", "--decks", "vangard,bastion"], "unknown deck 'vangard'; did you mean 'vanguard'?"),
        "play": (["morana", "--players", "human,heuristc"], "unknown bot 'heuristc'; did you mean 'heuristic'?"),
        "show": ([str(log), "--view", "playr1"], "unknown view 'playr1'; did you mean 'player1'?"),
        "verify": ([], "Missing argument 'LOG'"),
        "ingest": ([str(tmp), "--workers", "0"], f"Invalid value for '--workers': {GE} 1"),
        "tables": (["--format", "xml"], "'xml' is not one of 'table', 'csv', 'json', 'parquet'"),
        "report": (["card_winrate", "--min-games", "-1"], f"Invalid value for '--min-games': {GE} 0"),
        "sql": ([], "Missing argument 'QUERY'"),
        "position": ([str(log), "--at", "damge:1"], "unknown coordinate kind 'damge'; did you mean 'damage'?"),
        "continue": (["pos.json", "--max-turns", "-1"], f"Invalid value for '--max-turns': {GE} 0"),
    }
    return cases.get(command, (["--no-such-option"], "No such option: --no-such-option"))


@pytest.mark.parametrize("command", _commands())
def test_a_wrong_argument_exits_2_with_one_line(command: str, tmp_path: Path, miras9_log: Path) -> None:
    args, expected = _wrong(command, tmp_path, miras9_log)
    done = subprocess.run(
        [str(ANNALS), command, *args], capture_output=True, text=True, timeout=60, cwd=tmp_path, check=False
    )
    assert done.returncode == 2, (done.stdout, done.stderr)
    line = _one_line_error(done.stderr)
    assert expected in line, line
    assert done.stdout == ""
    assert list(tmp_path.iterdir()) == [], "a refused command wrote nothing"


def _usage_lines() -> dict[str, str]:
    """Every command's usage line, by its path (``event result``), as ``--help`` prints it."""
    lines: dict[str, str] = {}

    def walk(command: typer.core.TyperGroup, path: list[str]) -> None:
        for name in command.list_commands(typer.Context(command)):
            sub = command.get_command(typer.Context(command), name)
            if isinstance(sub, typer.core.TyperGroup):
                walk(sub, [*path, name])
            elif sub is not None:
                shown = runner.invoke(app, [*path, name, "--help"]).output
                lines[" ".join([*path, name])] = next(line for line in shown.splitlines() if line.startswith("Usage:"))

    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    walk(group, [])
    return lines


def test_usage_lines_name_arguments_upper_case_as_click_does() -> None:
    """``annals card [OPTIONS] NAME``, ``[RESULT]`` when optional, ``LOG...`` for many: typer wrote ``{name}``,
    ``{LOG...}...`` and ``[[RESULT]]``. Only a metavar of literal words (``start|end``) stays lower case."""
    lines = _usage_lines()
    assert lines["card"] == "Usage: annals card [OPTIONS] NAME"  # its hidden second argument is not shown
    assert lines["event result"] == "Usage: annals event result [OPTIONS] EVENT [RESULT]"
    assert lines["replay"] == "Usage: annals replay [OPTIONS] LOG..."
    assert lines["judge warn"] == "Usage: annals judge warn [OPTIONS] LOG"
    for line in lines.values():
        arguments = line.partition("[OPTIONS]")[2].split()
        assert all(a == a.upper() or "|" in a for a in arguments), line
        assert not re.search(r"[{}]|\[\[|\.\.\.\.\.\.|\.\.\.\]\.\.\.", line), line


@pytest.mark.parametrize(
    ("args", "name"), [(["card"], "NAME"), (["judge", "warn"], "LOG"), (["event", "register"], "EVENT")]
)
def test_a_missing_argument_is_named_as_the_usage_line_names_it(args: list[str], name: str) -> None:
    done = runner.invoke(app, args)
    assert done.exit_code == 2
    assert done.stderr == f"error: Missing argument '{name}'; see 'annals {' '.join(args)} --help'\n"


def test_an_unknown_option_is_one_line_with_typers_suggestion() -> None:
    result = runner.invoke(app, ["simulate", "miras9", "--gams", "3"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: No such option: --gams (Possible options: --cards, --games); see 'annals simulate --help'\n"
    )


def test_runtime_errors_exit_1_with_one_line(tmp_path: Path, miras9_log: Path) -> None:
    """A case per command that can fail while running: the line says what and where, and the way out."""
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder\n")
    not_a_log = tmp_path / "notes.log"
    not_a_log.write_text("hello\n")
    torn = tmp_path / "torn.log"
    torn.write_bytes(miras9_log.read_bytes()[:-7])
    db = tmp_path / "db.duckdb"
    assert runner.invoke(app, ["ingest", str(miras9_log), "--db", str(db), "-q"]).exit_code == 0
    cases = {
        "simulate": (["simulate", "morana", "-n", "1", "--out", str(a_file), "-q"], f"{a_file} is a file"),
        "demo": (["demo", "--dir", str(a_file)], f"{a_file}: "),
        "show": (["show", str(not_a_log)], f"{not_a_log} at byte 0: not an annals log"),
        "verify": (["verify", str(torn)], f"{torn}: frame "),
        "sql": (["sql", "SELECT * FORM games", "--db", str(db)], 'near "games" LINE 1: SELECT * FORM games;'),
        "position": (["position", str(miras9_log), "--at", "turn:999"], "turn 999 does not occur"),
        "continue": (["continue", str(not_a_log)], f"{not_a_log}: not a position file"),
        "play": (["play", "miras9", "--players", "external:/no/such/program,random"], "does not exist"),
    }
    for name, (args, expected) in cases.items():
        result = runner.invoke(app, args)
        assert result.exit_code == 1, (name, result.output)
        line = _one_line_error(result.stderr)
        assert expected in line, (name, line)
    assert a_file.read_text() == "not a folder\n"


def test_did_you_mean_is_one_helper_the_library_errors_share(miras9_log: Path) -> None:
    """Decks, bots, rulesets, reports, views and coordinate kinds: each unknown name suggests the closest."""
    assert did_you_mean("vangard", ["bastion", "vanguard"]) == " did you mean 'vanguard'?"
    assert did_you_mean("zzz", ["bastion", "vanguard"]) == ""
    m9 = get_ruleset("miras9")
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: get_ruleset("miras"), "unknown ruleset 'miras'; did you mean 'miras9'?"),
        (lambda: make_header(m9, 1, ["bastoin", "vanguard"], ["random", "random"]), "did you mean 'bastion'?"),
        (lambda: make_header(m9, 1, ["bastion", "vanguard"], ["randm", "random"]), "did you mean 'random'?"),
        (lambda: run_report(duckdb.connect(), "first_playr"), "unknown report 'first_playr'; did you mean"),
        (lambda: viewer_of("spectater"), "unknown view 'spectater'; did you mean 'spectator'?"),
        (lambda: Timeline.from_file(miras9_log).resolve("wav:1"), "did you mean 'wave'?"),
        (lambda: Timeline.from_file(miras9_log).resolve("evnt:3"), "did you mean 'event'?"),
    ]
    for call, expected in cases:
        with pytest.raises(UnknownNameError) as caught:
            call()
        assert expected in str(caught.value)
        assert isinstance(caught.value, BadArgumentError)


def test_a_wrong_step_lists_the_steps_there(miras9_log: Path) -> None:
    timeline = Timeline.from_file(miras9_log)
    turn = next(e.turn for e in timeline.events if e.step.startswith("attack"))
    steps = list(dict.fromkeys(e.step for e in timeline.events if e.turn == turn))
    with pytest.raises(CoordinateError) as caught:
        timeline.resolve(f"turn:{turn}/atack")
    text = str(caught.value)
    assert f"no event at step 'atack' there; did you mean 'attack'? steps there: {', '.join(steps)}" in text
    assert not isinstance(caught.value, BadArgumentError), "a step the turn lacks is found running: exit 1"
    result = runner.invoke(app, ["position", str(miras9_log), "--at", "step:atack.declare"])
    assert result.exit_code == 1 and "did you mean 'attack.declare'?" in _one_line_error(result.stderr)


def test_at_a_number_means_that_event(miras9_log: Path) -> None:
    timeline = Timeline.from_file(miras9_log)
    assert timeline.resolve("120") == timeline.resolve("event:120") == 121
    by_number = runner.invoke(app, ["position", str(miras9_log), "--at", "120", "--format", "json"])
    by_name = runner.invoke(app, ["position", str(miras9_log), "--at", "event:120", "--format", "json"])
    assert by_number.exit_code == 0, by_number.output
    assert by_number.stdout.replace('"120"', '"event:120"') == by_name.stdout


def test_external_program_that_cannot_start_or_exits_says_so(tmp_path: Path) -> None:
    from annals.engine.external import ExternalProgramError
    from annals.engine.players import play_live

    with pytest.raises(ExternalProgramError, match=r"'/no/such/prog' does not exist; give an executable"):
        play_live("miras9", None, ["external:/no/such/prog", "random"], 1, tmp_path / "a.log")
    assert not (tmp_path / "a.log").exists()  # refused before the game: no log
    bot = tmp_path / "dies.py"
    bot.write_text("import sys\nsys.stdin.readline()\nprint('out of ideas', file=sys.stderr)\nsys.exit(3)\n")
    with pytest.raises(ExternalProgramError) as caught:
        play_live("miras9", None, [f"external:{sys.executable} {bot}", "random"], 1, tmp_path / "b.log")
    assert "(exited with status 3) at " in str(caught.value)
    assert str(caught.value).endswith("its last stderr line: out of ideas")
    assert "answered" not in str(caught.value)


def test_show_and_verify_refuse_a_pattern_matching_nothing(tmp_path: Path) -> None:
    toy_log(tmp_path)
    for command in ("show", "verify"):
        result = runner.invoke(app, [command, str(tmp_path / "x*.log")])
        assert result.exit_code == 2
        assert _one_line_error(result.stderr) == (
            f"error: no file matches {str(tmp_path / 'x*.log')!r}; check the folder and the pattern"
        )


def test_a_path_typed_that_is_missing_is_a_usage_error_in_every_command(
    tmp_path: Path, miras9_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file or folder named on the command line that is not there is a usage error (exit 2), as click's own
    ``exists=True`` and an unknown name are: one line naming it. ``scenario run missing.toml`` exited 1, as did
    ``show``, ``ingest``, ``--cards``, ``--key``, ``--db`` and an event folder; a file a command looks for itself
    (the default database) is still found missing while running (exit 1)."""
    gone = tmp_path / "gone"
    event = tmp_path / "ev"
    assert runner.invoke(app, ["event", "new", str(event), "--ruleset", "miras9"]).exit_code == 0
    cases = [
        ["scenario", "run", f"{gone}.toml"],
        ["scenario", "new", "--from", f"{gone}.log", "--at", "turn:1", "--output", str(tmp_path / "s.toml")],
        ["show", f"{gone}.log"],
        ["show", f"{gone}/*.log"],
        ["verify", f"{gone}.log"],
        ["verify", str(miras9_log), "--key", f"{gone}.pub"],
        ["ingest", str(gone), "--db", str(tmp_path / "db.duckdb")],
        ["position", f"{gone}.log", "--at", "turn:1"],
        ["continue", f"{gone}.json"],
        ["resume", f"{gone}.log"],
        ["review", f"{gone}.log"],
        ["view", f"{gone}.log", "--output", str(tmp_path / "v.html")],
        ["annotate", f"{gone}.log", "--at", "turn:1", "a note"],
        ["judge", "warn", f"{gone}.log", "--judge", "Rae", "--player", "p0", "--reason", "slow"],
        ["replay", str(miras9_log), "--cards", f"{gone}.toml"],
        ["simulate", "miras9", "-n", "1", "--cards", f"{gone}.toml", "--out", str(tmp_path / "g")],
        ["sql", "SELECT 1", "--db", f"{gone}.duckdb"],
        ["tables", "--db", f"{gone}.duckdb"],
        ["report", "first_player", "--db", f"{gone}.duckdb"],
        ["key", "export", f"{gone}.key"],
        ["key", "sign", str(miras9_log), "--key", f"{gone}.key"],
        ["event", "standings", str(gone)],
        ["event", "verify", str(gone)],
        ["event", "verify", str(event), "--key", f"{gone}.pub"],
        ["event", "register", str(event), "--name", "Ada", "--deck", f"{gone}.txt"],
        ["serve", "--event", str(gone), "--port", "1"],
    ]
    for args in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        line = _one_line_error(result.stderr)
        assert str(gone) in line, (args, line)
    monkeypatch.setenv("ANNALS_HOME", str(tmp_path / "home"))
    default = runner.invoke(app, ["tables"])  # no --db typed: the default database is missing, found running
    assert default.exit_code == 1 and "no annals database at" in _one_line_error(default.stderr)
