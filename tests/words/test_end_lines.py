"""A game's end reads the same wherever a person sees it: the end line ``Words.ending`` (MORANA [MOR-05]: ``Ann
reaches 13 Slava and wins``; Miras 9: ``Ann wins by Battle Damage``), never its code (``slava_13``,
``judge_game_loss``). An analyst's CSV and JSON keep the codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.errata import ErrataReplay
from annals.engine.simulate import simulate
from annals.engine.words import Words
from annals.queries.pictures.svgboard import render_svg
from annals.queries.positions.files import position_file
from annals.queries.positions.timeline import Timeline
from annals.queries.reports.output import for_people, render
from annals.schemas.logfile import GameLog, read_log

runner = CliRunner()
CODE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")  # a snake_case end code


def said(log: GameLog, result: tuple[int, str] | None = None) -> str:
    return Words(log.header.ruleset, str, [p.name for p in log.header.players]).ending(*(result or log.result))


def games(tmp_path: Path, ruleset: str, decks: list[str]) -> list[Path]:
    for _ in simulate(ruleset, 2, 4, decks, ["heuristic", "random"], tmp_path / ruleset):
        pass
    return sorted((tmp_path / ruleset).glob("*.log"))


def test_mor05_show_verify_and_the_judged_result_say_the_end_line(tmp_path: Path) -> None:
    """[MOR-05] ``annals show --format records`` ends with the end line, ``annals verify`` says it, and a judge's
    game loss is said as the judged end (``a judge gave the opponent a game loss``), not ``(judge_game_loss)``."""
    path = games(tmp_path, "morana", ["clash", "glory"])[0]
    log = read_log(path)
    shown = runner.invoke(app, ["show", "-f", "records", str(path)]).output.splitlines()
    assert f": {said(log)}, after {log.close.turns} turns" in shown[-1] and not CODE.search(shown[-1].split(":")[1])
    verified = runner.invoke(app, ["verify", str(path)]).output
    assert f"the game ends where the log does: {said(log)}, after {log.close.turns} turns" in verified
    loser = log.close.winner if log.close.winner >= 0 else 0
    judged = runner.invoke(app, ["judge", "game-loss", str(path), "--judge", "R. Vance", "--player", f"p{loser}",
                                 "--reason", "marked cards"])  # fmt: skip
    assert judged.exit_code == 0, judged.output
    log = read_log(path)
    assert log.result == (1 - loser, "judge_game_loss")
    shown = runner.invoke(app, ["show", "-f", "records", str(path)]).output.splitlines()
    ending = said(log)
    assert ending.endswith("wins: a judge gave the opponent a game loss")
    assert f"result as judged: {ending}" in shown and f": {ending}, after" in shown[-1]
    assert not any("judge_game_loss" in line for line in shown)


def test_continue_says_the_end_line(tmp_path: Path) -> None:
    """``annals continue`` ends with how the continued game ended, as its log's end line says it."""
    path = games(tmp_path, "miras9", ["bastion", "tempest"])[0]
    position = tmp_path / "p.json"
    position.write_bytes(position_file(Timeline.from_file(path), 0))
    out = tmp_path / "c.log"
    result = runner.invoke(app, ["continue", str(position), "--out", str(out)])
    assert result.exit_code == 0, result.output
    log = read_log(out)
    assert result.output.strip().endswith(f"; {said(log)}, after {log.close.events} events"), result.output
    assert log.close.end_reason not in result.output


def test_the_errata_lines_say_the_end_line() -> None:
    """``annals replay --cards``: what a game would have become, as the end line says it (it read ``player 0
    (slava_13)``)."""
    report = ErrataReplay("g.log", "id", True, 12, "event differs", -1, "", 1, "most_slava", True, "result_changed",
                          0, "slava_13", -1, "", "morana", ("Ann", "Bob"))  # fmt: skip
    line = report.line()
    assert "it would have ended Bob wins with the most Slava, not Ann reaches 13 Slava and wins;" in line, line
    assert not CODE.search(line.split(": ", 2)[2])


def test_the_board_big_line_is_the_end_line(tmp_path: Path) -> None:
    """The end's big line on the SVG board reads as the end line (it read ``Ann wins · 13 Slava`` beside the Turn
    panel's ``Game over: Ann reaches 13 Slava and wins``)."""
    for ruleset, decks in (("morana", ["clash", "glory"]), ("miras9", ["bastion", "tempest"])):
        for path in games(tmp_path, ruleset, decks):
            log = read_log(path)
            state = Timeline(log).state_after(len(log.events))
            svg = render_svg(ruleset, state, None, players=["Ann", "Bob"])
            big = re.search(r'class="win[^"]*"[^>]*>([^<]*)<', svg)
            assert big is not None, ruleset
            assert big[1] == Words(ruleset, str, ["Ann", "Bob"]).ending(log.close.winner, log.close.end_reason)


def test_game_length_says_endings_in_words_for_people_and_codes_in_files() -> None:
    frame = pl.DataFrame(
        {"ruleset": ["morana", "miras9"], "end_reason": ["slava_13", "battle_damage"], "games": [3, 1]}
    )
    people = for_people(frame)
    assert people["ended by"].to_list() == ["13 Slava", "Battle Damage"] and "end_reason" not in people.columns
    assert "slava_13" in (render(frame, "csv", None) or "")
    assert json.loads(render(frame, "json", None) or "[]")[0]["end_reason"] == "slava_13"
