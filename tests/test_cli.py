"""The command line, in-process with typer's CliRunner, and as a real subprocess where it matters."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer.core
import typer.main
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine import ENGINE_VERSION
from annals.engine.compiled import engine_build
from tests import toyrules
from tests.helpers import toy_log

runner = CliRunner()


def _commands() -> list[str]:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return sorted(group.commands)


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help_with_an_example(command: str) -> None:
    result = runner.invoke(app, [command, "--help"])
    assert result.exit_code == 0, result.output
    assert "Example:" in result.output and "annals " in result.output


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.splitlines() == [f"annals {ENGINE_VERSION}", f"engine: {engine_build()}"]


def test_show_prints_header_events_decisions_and_end(tmp_path: Path) -> None:
    path, game = toy_log(tmp_path)
    result = runner.invoke(app, ["show", "--format", "records", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"game {game.game_id}  toy 1")
    event_lines = [line for line in lines if line.startswith("#")]
    assert len(event_lines) == game.events
    assert event_lines[0].startswith("#0      t0   setup") and "PileShuffled size=" in event_lines[0]
    assert sum("? take: chose Take" in line for line in lines) == game.decisions
    assert lines[-2] == f"digest: {game.digest}"
    said = f"random-{game.winner} wins: took last"  # the end as every reader says it (Words.ending), not took_last
    assert lines[-1].startswith(f"result: p{game.winner} random-{game.winner} with 'pile': {said}, after ")


def test_verify_accepts_a_good_log(tmp_path: Path) -> None:
    path, game = toy_log(tmp_path)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert f"ok ({game.events} events re-run identically, digest {game.digest})" in result.output


def test_verify_names_the_damaged_frame(tmp_path: Path) -> None:
    path, _ = toy_log(tmp_path)
    data = bytearray(path.read_bytes())
    data[60] ^= 0x10
    path.write_bytes(bytes(data))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {path}: frame ") and "Error" not in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["show", str(tmp_path / "nope.log")])
    assert result.exit_code == 2  # a path typed that names nothing: a usage error
    assert result.stderr == f"error: no such file or folder: {tmp_path / 'nope.log'}; check the path\n"


def test_simulate_rejects_unknown_names(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "chess", "--decks", "a,b", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown ruleset 'chess'; choose one of: ")
    assert result.stderr.count("\n") == 1
    assert "miras9, morana" in result.stderr
    result = runner.invoke(app, ["simulate", "toy", "--decks", "pile,nope", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == "error: unknown deck 'nope'; choose one of: pile\n"


def test_simulate_writes_one_verifiable_log_per_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "toy", "-n", "4", "--decks", "pile,pile", "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    logs = sorted(tmp_path.glob("*.log"))
    assert len(logs) == 4
    assert "4 games written to" in result.output
    assert result.output.strip().endswith("(random/pile won 4, no winner 0)")


def test_one_game_and_one_scenario_are_counted_in_the_singular(tmp_path: Path) -> None:
    """It said "1 games written" and "1 scenario(s)"."""
    result = runner.invoke(app, ["simulate", "toy", "-n", "1", "--decks", "pile,pile", "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0 and result.output.startswith(f"1 game written to {tmp_path} ("), result.output
    starter = tmp_path / "starter.toml"
    assert runner.invoke(app, ["scenario", "new", "miras9", "--output", str(starter)]).exit_code == 0
    ran = runner.invoke(app, ["scenario", "run", str(starter), "--out", str(tmp_path / "s.log")])
    assert ran.exit_code == 0 and ran.output.splitlines()[-1] == "1 scenario: every expectation holds", ran.output


def test_simulate_counts_wins_per_side_not_per_seat(tmp_path: Path) -> None:
    """Seats alternate between games, so the summary names each bot and deck, whichever seat it had."""
    import re

    args = ["simulate", "miras9", "-n", "6", "--decks", "vanguard,bastion", "--bots", "heuristic,random"]
    result = runner.invoke(app, [*args, "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    found = re.search(r"heuristic/vanguard won (\d+), random/bastion won (\d+), no winner (\d+)\)", result.output)
    assert found is not None, result.output
    assert sum(int(g) for g in found.groups()) == 6


def test_real_subprocess_round_trip(tmp_path: Path) -> None:
    """The installed console entry point works as a process: exit codes and streams as a shell sees them. The toy
    ruleset is found as a plugin's would be, through its ``annals.rulesets`` entry point."""
    exe = Path(sys.executable).with_name("annals")
    env = toyrules.subprocess_env()
    sim = subprocess.run(
        [exe, "simulate", "toy", "-n", "2", "--decks", "pile,pile", "--out", str(tmp_path), "-q"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert sim.returncode == 0, sim.stderr
    log = sorted(tmp_path.glob("*.log"))[0]
    ok = subprocess.run([exe, "verify", str(log)], capture_output=True, text=True, check=False, env=env)
    assert ok.returncode == 0 and ": ok (" in ok.stdout
    log.write_bytes(log.read_bytes()[:-5])
    torn = subprocess.run([exe, "verify", str(log)], capture_output=True, text=True, check=False, env=env)
    assert torn.returncode == 1
    assert torn.stderr.startswith(f"error: {log}: frame 2 at byte ") and torn.stderr.count("\n") == 1
    assert "the 2 frame(s) before byte" in torn.stderr and "Error" not in torn.stderr


@pytest.mark.parametrize("name", ["miras9", "morana"])
def test_simulate_caps_bot_games_at_the_rulesets_default(tmp_path: Path, name: str) -> None:
    from annals.engine.registry import get_ruleset
    from annals.schemas.logfile import read_log

    ruleset = get_ruleset(name)
    decks = ",".join(sorted(ruleset.decks())[:2])
    result = runner.invoke(app, ["simulate", name, "-n", "1", "--decks", decks, "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    header = read_log(next(tmp_path.glob("*.log"))).header
    assert header.max_turns == ruleset.default_max_turns
    assert name != "miras9" or header.max_turns == 200


def test_missing_inputs_name_what_is_missing_and_the_fix(tmp_path: Path) -> None:
    """A folder to ingest that does not exist, a database that was never made, a report that does not exist."""
    result = runner.invoke(app, ["ingest", str(tmp_path / "nope"), "--db", str(tmp_path / "x.duckdb")])
    assert result.exit_code == 2
    assert result.stderr == f"error: no such file or folder: {tmp_path / 'nope'}; check the path\n"
    missing = tmp_path / "never.duckdb"
    result = runner.invoke(app, ["sql", "SELECT 1", "--db", str(missing)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: no annals database at '{missing}': create it with `annals ingest")
    assert not missing.exists(), "a read-only command must not create the database"
    (tmp_path / "logs").mkdir()
    toy_log(tmp_path / "logs")
    db = str(tmp_path / "real.duckdb")
    assert runner.invoke(app, ["ingest", str(tmp_path / "logs"), "--db", db]).exit_code == 0
    result = runner.invoke(app, ["report", "nosuch", "--db", db])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown report 'nosuch'; choose one of: card_winrate")


def test_show_as_a_player_hides_what_that_player_could_not_see(tmp_path: Path) -> None:
    """Hidden information is a view: player 1's text of a MORANA game shows none of player 0's hand or sealed
    cards, and none of player 0's decisions' options, while player 0's own text shows them."""
    from annals.engine.registry import get_ruleset
    from annals.schemas.logfile import read_log
    from annals.schemas.text import card_names

    ruleset = get_ruleset("morana")
    decks = ",".join(sorted(ruleset.decks())[:2])
    runner.invoke(app, ["simulate", "morana", "-n", "1", "--decks", decks, "--out", str(tmp_path), "-q"])
    path = next(tmp_path.glob("*.log"))
    game = read_log(path)
    drawn_by_0 = [e.card for e in game.events if type(e).__name__ == "Drew" and e.player == 0]
    mine = runner.invoke(app, ["show", "--format", "records", str(path), "--view", "player0"]).output
    theirs = runner.invoke(app, ["show", "--format", "records", str(path), "--view", "player1"])
    assert theirs.exit_code == 0, theirs.output
    their_draws = [line for line in theirs.output.splitlines() if " p0  Drew " in line]
    assert their_draws and all("card=-1 " in line for line in their_draws)
    names = card_names(game.header)
    assert all(f"card={names[card]}#{card} " in mine for card in drawn_by_0)
    assert " p0  ? " in theirs.output and all(
        line.endswith("(hidden)") for line in theirs.output.splitlines() if " p0  ? " in line
    )
    own = [line for line in mine.splitlines() if " p0  ? " in line]
    assert own and not any(line.endswith("(hidden)") for line in own)
    bad = runner.invoke(app, ["show", str(path), "--view", "god"])
    assert bad.exit_code == 2 and "unknown view 'god'; choose one of: omniscient, player0" in bad.stderr


@pytest.mark.parametrize("command", [["simulate"], ["continue"]])
def test_bots_help_names_the_bots_every_real_ruleset_has(command: list[str]) -> None:
    from annals.engine.names import BOTS
    from annals.engine.registry import get_ruleset

    for ruleset in ("miras9", "morana"):
        assert sorted(get_ruleset(ruleset).agents()) == sorted(BOTS), ruleset
    shown = " ".join(runner.invoke(app, [*command, "--help"], terminal_width=200).output.split())
    assert "from: random, heuristic, search" in shown
