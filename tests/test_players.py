"""People and programs in the seats of a local table: the terminal client and JSON-lines programs, on real
processes, speaking the protocol of ``schemas.protocol``."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.clients.terminal import human_seat
from annals.engine.players import play_live
from annals.engine.replay import rerun
from annals.schemas.errors import IllegalDecisionError
from annals.schemas.logfile import read_log

FIRST_OPTION_BOT = """
import json, sys
seen = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        assert message["protocol"] == 4 and message["seat"] == 0
    elif message["type"] == "event":
        seen += 1
    elif message["type"] == "decide":
        assert seen > 0 and message["options"][0]["kind"] == "Take"
        print(json.dumps({"type": "answer", "choose": 0, "decision": message["decision"]}), flush=True)
"""

BARE_ANSWER_BOT = """
import json, sys
for line in sys.stdin:
    if json.loads(line)["type"] == "decide":
        print('{"choose": 0}', flush=True)
"""


def test_a_person_at_the_terminal_sees_events_and_named_options(tmp_path: Path) -> None:
    answers = io.StringIO("x\n0\n99\n" + "1\n" * 40)
    shown = io.StringIO()
    log = tmp_path / "human.log"
    result = play_live("toy", ["pile", "pile"], ["human", "random"], 4, log, human=human_seat(answers, shown))
    text = shown.getvalue()
    assert "Pile Shuffled: size" in text and "your decision, turn" in text
    assert "    1  Take: amount 1" in text  # options counted from 1, as the web page's keys 1-9
    assert "'x' is not an option or a command" in text and "'99' is not an option: type a number from 1 to" in text
    assert "'0' is not an option: type a number from 1 to" in text
    game = read_log(log)
    human_choices = [d for d in game.decisions if d.player == 0]
    assert human_choices and all(d.chosen == 0 for d in human_choices)
    assert rerun(game).ok and result.end_reason == "took_last"


@pytest.mark.parametrize("program", [FIRST_OPTION_BOT, BARE_ANSWER_BOT])
def test_an_external_program_plays_over_json_lines(tmp_path: Path, program: str) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(program)
    log = tmp_path / "external.log"
    play_live("toy", ["pile", "pile"], [f"external:{sys.executable} {bot}", "random"], 8, log)
    game = read_log(log)
    assert game.header.players[0].agent == "external"
    assert [d.chosen for d in game.decisions if d.player == 0] == [0] * sum(d.player == 0 for d in game.decisions)
    assert rerun(game).ok


def test_a_bad_answer_is_an_error_and_the_question_again(tmp_path: Path) -> None:
    """A wrong index, then a line that is not JSON: each gets an error message and the same decide again; the
    third answer is taken, and the log holds only it."""
    bot = tmp_path / "retry.py"
    bot.write_text(
        "import json, sys\n"
        "tries = 0\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'error':\n"
        "        print(json.dumps(m), file=sys.stderr)\n"
        "    if m['type'] == 'decide':\n"
        "        tries += 1\n"
        '        print([\'{"type": "answer", "choose": 99}\', \'not json\', \'{"choose": 0}\'][min(tries, 3) - 1],'
        " flush=True)\n"
        "        if tries >= 3: tries = 0\n"
    )
    log = tmp_path / "retry.log"
    play_live("toy", ["pile", "pile"], [f"external:{sys.executable} {bot}", "random"], 8, log)
    game = read_log(log)
    assert rerun(game).ok and all(d.chosen == 0 for d in game.decisions if d.player == 0)


def test_a_program_that_never_answers_sensibly_is_a_named_error(tmp_path: Path) -> None:
    bot = tmp_path / "bad.py"
    bot.write_text(
        "import sys, json\nfor line in sys.stdin:\n"
        "    if json.loads(line)['type'] == 'decide': print('{\"choose\": 99}', flush=True)\n"
    )
    with pytest.raises(IllegalDecisionError, match=r"answers in a row that could not be taken at 'take'"):
        play_live("toy", ["pile", "pile"], [f"external:{sys.executable} {bot}", "random"], 8, tmp_path / "bad.log")


def test_play_command_records_a_human_game(tmp_path: Path) -> None:
    log = tmp_path / "cli.log"
    args = ["play", "toy", "--decks", "pile,pile", "--players", "random,human", "--out", str(log), "--seed", "3"]
    result = CliRunner().invoke(app, args, input="1\n" * 40)
    assert result.exit_code == 0, result.output
    assert f"log written to {log}" in result.output
    assert read_log(log).header.players[1].agent == "human"
    # the client's own lines in names and words: the players, the decision and the end (they read "you are seat 1;
    # p0 random-0", "your decision (take)" and "winner 0 (took_last)"); the toy rules' events have no words of their
    # own (the indented lines: engine.words' fallback)
    assert "you are human-1" in result.output and "random-0 (pile) against human-1 (pile)" in result.output
    own = "\n".join(line for line in result.output.splitlines() if not line.startswith(" "))
    assert not re.search(r"\bwinner -?\d|\bp[01]\b|\bseat \d|your decision \(", own), own
    assert re.search(r"\(seed 3\): (random-0|human-1) wins: |\(seed 3\): no winner: ", result.output)


def test_play_rejects_an_unknown_seat(tmp_path: Path) -> None:
    args = ["play", "toy", "--decks", "pile,pile", "--players", "random,wizard", "--out", str(tmp_path / "x.log")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "unknown bot 'wizard'" in result.stderr


def test_messages_are_json_objects_with_a_type(tmp_path: Path) -> None:
    """The first message a program gets is the hello; every line is one JSON object naming its type."""
    bot = tmp_path / "dump.py"
    dump = tmp_path / "seen.jsonl"
    bot.write_text(
        "import json, sys\n"
        f"out = open({str(dump)!r}, 'w')\n"
        "for line in sys.stdin:\n"
        "    out.write(line); out.flush()\n"
        "    if json.loads(line)['type'] == 'decide': print('{\"type\": \"answer\", \"choose\": 0}', flush=True)\n"
    )
    play_live("toy", ["pile", "pile"], [f"external:{sys.executable} {bot}", "random"], 2, tmp_path / "d.log")
    types = [json.loads(line)["type"] for line in dump.read_text().splitlines()]
    assert types[0] == "hello" and types[-2:] == ["game_over", "close"] and "decide" in types and "board" in types


def test_annals_resume_seats_a_person_and_a_program_after_a_backup(tmp_path: Path) -> None:
    """R-CORE-3: a game backed up by a judge is played on at a live table by the terminal client and a JSON-lines
    program; both are told the game so far in their own view, the log is appended to (the abandoned branch stays
    byte for byte) and re-runs whole."""
    from annals.engine.players import resume_live
    from tests.helpers import toy_log

    path, _ = toy_log(tmp_path, seed=4)
    original = path.read_bytes()
    first = read_log(path)
    cut = CliRunner().invoke(app, ["judge", "backup", str(path), "--judge", "R. Vance", "--to", "3"])
    assert cut.exit_code == 0, cut.output
    bot = tmp_path / "first.py"
    bot.write_text(FIRST_OPTION_BOT)
    shown = io.StringIO()
    human = human_seat(io.StringIO("1\n" * 40), shown)
    result = resume_live(path, [f"external:{sys.executable} {bot}", "human"], human=human)
    assert path.read_bytes().startswith(original)
    game = read_log(path)
    assert result.path == str(path) and result.game_id == first.header.game_id
    assert game.decisions[:3] == first.decisions[:3] and len(game.branches) == 1
    assert game.decisions[3].player == first.decisions[3].player  # the seat the backup named decides again
    assert (game.close.events, game.close.decisions) == (len(game.events), len(game.decisions))
    assert "Pile Shuffled: size" in shown.getvalue()  # the event before the backup, told on resuming
    assert rerun(game).ok


OPTING_IN_BOT = """
import json, sys
told = False
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "decide":
        if told and len(message["options"]) == 1:
            print("a lone question after settings", file=sys.stderr)
            sys.exit(1)
        if not told:  # opts in (protocol 3) before its first answer; the table then answers lone questions
            print(json.dumps({"type": "settings", "automatic": True, "auto_pass": True}), flush=True)
            told = True
        print(json.dumps({"type": "answer", "choose": 0, "decision": message["decision"]}), flush=True)
"""


def test_an_external_program_opts_in_to_automatic_answers(tmp_path: Path) -> None:
    """R-CORE-8: a program that sends ``settings`` is asked no lone question after it; the table answers those,
    recorded as automatic; a program that sends none is asked everything (the other tests here)."""
    bot = tmp_path / "optin.py"
    bot.write_text(OPTING_IN_BOT)
    log = tmp_path / "optin.log"
    play_live("morana", ["clash", "glory"], [f"external:{sys.executable} {bot}", "heuristic"], 4, log)
    game = read_log(log)
    automatic = [d for d in game.decisions if d.automatic]
    assert automatic and all(d.player == 0 and len(d.offered) == 1 for d in automatic)
    assert rerun(game).ok


def test_play_max_turns_caps_the_game_as_simulate_does(tmp_path: Path) -> None:
    """``annals play --max-turns`` (it had none): the cap is in the header, the game ends at it with no winner, and
    the line says so in words; without it the ruleset's cap, as ``simulate`` and ``serve`` take."""
    from annals.engine.registry import get_ruleset

    capped, default = tmp_path / "capped.log", tmp_path / "default.log"
    args = ["play", "miras9", "--players", "random,random", "--seed", "5"]
    result = CliRunner().invoke(app, [*args, "--max-turns", "2", "--out", str(capped)])
    assert result.exit_code == 0, result.output
    game = read_log(capped)
    assert (game.header.max_turns, game.close.winner, game.close.end_reason) == (2, -1, "turn_cap")
    assert game.close.turns == 3  # two whole turns played; it ends as turn 3 begins, as in simulate
    assert "(seed 5): no winner: the turn cap was reached" in result.output
    result = CliRunner().invoke(app, [*args, "--max-turns", "-1", "--out", str(default)])
    assert result.exit_code == 2 and not default.exists()
    result = CliRunner().invoke(app, [*args, "--out", str(default)])
    assert result.exit_code == 0, result.output
    assert read_log(default).header.max_turns == get_ruleset("miras9").default_max_turns
