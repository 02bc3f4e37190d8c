"""Everywhere a bot is chosen (simulate, play, resume, serve, an event): the help names every bot, the search bot
with what it costs in time, and a misspelt bot is a named error that lists the choices, exit 2, never a
traceback. ``annals serve --table`` with a misspelt bot started the server and died in its startup with a
traceback (exit 3)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.names import BOTS, BOTS_COST

ANNALS = str(Path(sys.executable).parent / "annals")
runner = CliRunner()

CHOOSING = [["simulate"], ["play"], ["resume"], ["serve"], ["event", "new"], ["event", "register"]]


@pytest.mark.parametrize("command", CHOOSING, ids=" ".join)
def test_the_help_names_every_bot_and_what_search_costs(command: list[str]) -> None:
    shown = " ".join(runner.invoke(app, [*command, "--help"], terminal_width=200).output.split())
    assert ", ".join(BOTS) in shown
    assert BOTS_COST in shown and "second a decision" in BOTS_COST


def _annals(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ANNALS_HOME": str(tmp_path / "home")}
    return subprocess.run([ANNALS, *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["simulate", "morana", "--games", "1", "--bots", "heuristic,serch"], "bot"),
        (["play", "morana", "--players", "human,serch"], "bot"),
        (["serve", "--port", "1", "--table", "morana clash,glory human,serch"], "seat"),
    ],
    ids=["simulate", "play", "serve"],
)
def test_a_misspelt_bot_is_a_named_error_listing_the_choices(tmp_path: Path, args: list[str], kind: str) -> None:
    ran = _annals(tmp_path, *args)
    assert ran.returncode == 2, ran.stderr
    assert f"unknown {kind} 'serch'; did you mean 'search'?" in ran.stderr
    assert "heuristic, " in ran.stderr and "search" in ran.stderr.rpartition("choose one of:")[2]
    assert "Traceback" not in ran.stderr and "annals serve on" not in ran.stdout


def test_a_misspelt_bot_of_an_event_is_a_named_error_with_the_closest_bot(tmp_path: Path) -> None:
    made = _annals(tmp_path, "event", "new", "ev", "--ruleset", "morana", "--rounds", "1", "--seed", "3")
    assert made.returncode == 0, made.stderr
    assert _annals(tmp_path, "deck", "morana", "clash", "--output", "clash.txt").returncode == 0
    ran = _annals(tmp_path, "event", "register", "ev", "--name", "Ann", "--deck", "clash.txt", "--bot", "serch")
    assert ran.returncode == 2, ran.stderr
    assert "unknown bot 'serch'; did you mean 'search'? choose from: heuristic, random, search" in ran.stderr
    made = _annals(tmp_path, "event", "new", "ev2", "--ruleset", "morana", "--rounds", "1", "--bot", "serch")
    assert made.returncode == 2 and "unknown bot 'serch'; did you mean 'search'? choose from:" in made.stderr
    assert not (tmp_path / "ev2").exists()
