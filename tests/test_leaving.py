"""Leaving a game at the terminal: ``quit`` (``exit``, ``q``) stops a local table with its log open and prints the
command that plays on; ``concede`` gives the game up. Both said in ``help`` and docs/player.md."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.replay import rerun
from annals.engine.table import read_live
from annals.schemas.logfile import read_log
from annals.schemas.records import CONCESSION_REASON


@pytest.mark.parametrize("word", ["quit", "exit", "q"])
def test_quit_saves_a_local_game_and_prints_how_to_resume_it(tmp_path: Path, word: str) -> None:
    """R-CORE-5, R-CORE-3: a game left with quit is not conceded: its log stops before its end, every decision kept;
    the printed command, run as it is, plays it on to a whole log that re-runs."""
    log = tmp_path / "my games" / "left game.log"
    log.parent.mkdir()
    args = ["play", "toy", "--decks", "pile,pile", "--players", "human,random", "--out", str(log), "--seed", "4"]
    result = CliRunner().invoke(app, args, input=f"1\n{word}\n")
    assert result.exit_code == 0, result.output
    assert "is not an option or a command" not in result.output
    assert "leaving stops the game here, saved in its log" in result.output
    line = next(x for x in result.output.splitlines() if "play on with: annals resume" in x)
    command = shlex.split(line[line.index("annals resume") :])
    assert command == ["annals", "resume", str(log), "--players", "human,random"]
    _, _, decisions, close, _ = read_live(log)
    assert close is None and decisions and decisions[0].player == 0  # the person's answer is kept
    again = CliRunner().invoke(app, [*command[1:-1], "random,random"])
    assert again.exit_code == 0, again.output
    game = read_log(log)
    assert game.close is not None and game.decisions[: len(decisions)] == decisions and rerun(game).ok


def test_concede_at_the_prompt_ends_the_game_as_a_loss(tmp_path: Path) -> None:
    log = tmp_path / "conceded.log"
    args = ["play", "toy", "--decks", "pile,pile", "--players", "human,random", "--out", str(log), "--seed", "4"]
    result = CliRunner().invoke(app, args, input="concede\n")
    assert result.exit_code == 0, result.output
    game = read_log(log)
    assert (game.close.end_reason, game.close.winner) == (CONCESSION_REASON, 1)


def test_help_at_the_prompt_names_quit_and_concede(tmp_path: Path) -> None:
    args = ["play", "toy", "--decks", "pile,pile", "--players", "human,random", "--out", str(tmp_path / "h.log")]
    result = CliRunner().invoke(app, args, input="help\nquit\n")
    assert "  quit         leave the game without conceding" in result.output
    assert "  concede      give up the game" in result.output
