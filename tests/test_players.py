"""People and programs in the seats: the terminal agent and the JSON-lines external agent, on real processes."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.players import play_live
from annals.engine.replay import rerun
from annals.schemas.errors import IllegalDecisionError
from annals.schemas.logfile import read_log

FIRST_OPTION_BOT = """
import json, sys
seen = 0
for line in sys.stdin:
    message = json.loads(line)
    if "event" in message:
        seen += 1
    else:
        assert seen > 0 and message["decide"]["options"][0]["kind"] == "Take"
        print(json.dumps({"choose": 0}), flush=True)
"""


def test_a_person_at_the_terminal_sees_events_and_numbered_options(tmp_path: Path) -> None:
    answers = io.StringIO("x\n9\n" + "0\n" * 40)
    shown = io.StringIO()
    log = tmp_path / "human.log"
    result = play_live("toy", ["pile", "pile"], ["human", "random"], 4, log, stdin=answers, stdout=shown)
    text = shown.getvalue()
    assert "PileShuffled size=" in text and ", take: choose one" in text
    assert "    0  Take amount=1" in text
    assert "'x' is not an option: type a number from 0 to" in text and "'9' is not an option" in text
    game = read_log(log)
    human_choices = [d for d in game.decisions if d.player == 0]
    assert human_choices and all(d.chosen == 0 for d in human_choices)
    assert rerun(game).ok and result.end_reason == "took_last"


def test_an_external_program_plays_over_json_lines(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(FIRST_OPTION_BOT)
    log = tmp_path / "external.log"
    play_live("toy", ["pile", "pile"], [f"external:{sys.executable} {bot}", "random"], 8, log)
    game = read_log(log)
    assert game.header.players[0].agent == "external"
    assert [d.chosen for d in game.decisions if d.player == 0] == [0] * sum(d.player == 0 for d in game.decisions)
    assert rerun(game).ok


def test_a_bad_answer_from_a_program_is_a_named_error(tmp_path: Path) -> None:
    bot = tmp_path / "bad.py"
    bot.write_text(
        "import sys\nfor line in sys.stdin:\n    if 'decide' in line: print('{\"choose\": 99}', flush=True)\n"
    )
    with pytest.raises(IllegalDecisionError, match=r'answered \'{"choose": 99}\' at \'take\'; expected a line'):
        play_live("toy", ["pile", "pile"], [f"external:{sys.executable} {bot}", "random"], 8, tmp_path / "bad.log")


def test_play_command_records_a_human_game(tmp_path: Path) -> None:
    log = tmp_path / "cli.log"
    args = ["play", "toy", "--decks", "pile,pile", "--players", "random,human", "--out", str(log), "--seed", "3"]
    result = CliRunner().invoke(app, args, input="0\n" * 40)
    assert result.exit_code == 0, result.output
    assert f"log written to {log}" in result.output
    assert read_log(log).header.players[1].agent == "human"


def test_play_rejects_an_unknown_seat(tmp_path: Path) -> None:
    args = ["play", "toy", "--decks", "pile,pile", "--players", "random,wizard", "--out", str(tmp_path / "x.log")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "unknown bot 'wizard'" in result.stderr
