"""What is done before turn 1 (Planets placed, starting Sites picked, opening hands and mulligans) is the setup, in
the rules' word [M9-020], wherever a person reads it: ``annals show``, ``annals review``'s table and the viewer's
graph, the terminal's board and question. It said "turn 0". Machine outputs keep the number: ``show --format
records``, the review's CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from annals.cli.main import app
from annals.clients.terminal import render_board
from annals.queries.pictures.reviewgraph import decision_line
from annals.queries.review import DecisionReview
from annals.queries.reviewtext import review_csv, review_json, review_table
from annals.schemas import protocol as p
from annals.schemas.logfile import read_log

runner = CliRunner()


def _log(tmp_path: Path) -> Path:
    made = runner.invoke(app, ["simulate", "miras9", "--games", "1", "--seed", "3", "--max-turns", "2", "--out",
                               str(tmp_path), "--quiet"])  # fmt: skip
    assert made.exit_code == 0, made.output
    return next(tmp_path.glob("*.log"))


def test_annals_show_says_setup_for_what_is_done_before_turn_1_and_records_keep_turn_0_M9_020(
    tmp_path: Path,
) -> None:
    path = _log(tmp_path)
    game = read_log(path)
    before = {e.n for e in game.events if e.turn == 0}
    assert before and any(e.turn == 1 for e in game.events)  # a starting Site was picked [M9-020], then turn 1
    shown = runner.invoke(app, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    numbered = {int(m[1]): m[2] for m in re.finditer(r"^\s+(\d+)  (\S+ ?\S*)\s{2,}", shown.output, re.M)}
    setup = {n for n, when in numbered.items() if when.strip() == "setup"}
    assert setup and setup <= before and not re.search(r"\bturn 0\b", shown.output), shown.output[:2000]
    assert {n for n, when in numbered.items() if when.strip() == "turn 1"}  # a turn is still its number
    records = runner.invoke(app, ["show", "--format", "records", str(path)])
    assert re.search(r"^#0\s+t0\s", records.output, re.M), records.output[:500]  # records keep the number


def _review(turn: int) -> DecisionReview:
    return DecisionReview(0, 2, turn, 0, "mulligan", 0.5, 0.4, 0.5, "Take a mulligan", "Keep this hand", 0.1, "mistake")


def test_the_review_says_setup_to_a_person_and_keeps_turn_0_in_its_files_M9_021() -> None:
    """[M9-021] A mulligan is decided before turn 1."""
    rows = [_review(0), _review(3)]
    table = review_table(rows, players=["Ann", "Bo"])
    turns = [line.split()[1] for line in table if re.match(r"\s+\d+ ", line)]
    assert turns == ["setup", "3"], table
    assert decision_line(rows[0], "Ann's mistake").startswith("Setup · Ann's mistake")
    assert decision_line(rows[1], "Ann's mistake").startswith("Turn 3 · Ann's mistake")
    assert [r["turn"] for r in csv.DictReader(io.StringIO(review_csv(rows)))] == ["0", "3"]
    assert [d["turn"] for d in json.loads(review_json(rows))["decisions"]] == [0, 3]


def test_the_terminals_board_and_question_say_setup_M9_020() -> None:
    console = Console(record=True, width=120)
    console.print(render_board(p.Board(0, "setup.site", [], {}, 0), 0, ["Ann", "Bo"], "miras9"))
    console.print(render_board(p.Board(2, "main.action", [], {}, 0), 0, ["Ann", "Bo"], "miras9"))
    said = " ".join(console.export_text().split())  # the title wraps at the table's width
    assert "setup, setup: site" in said and "turn 2, main: action" in said and "turn 0" not in said, said
