"""``annals review`` on Miras 9 (issue 32): ending the Attack phase with a lethal attack on the table is a blunder,
the attack the best choice; a whole game reviews, from the library and the command line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from annals.cli.main import app
from annals.queries.review import accuracy, review_game
from annals.queries.workbench.scenario import load_scenario, run_scenario
from annals.schemas.logfile import read_log
from annals.schemas.review import read_review

SCENARIO = Path(__file__).with_name("miras9-lethal-attack.toml")
runner = CliRunner()


def _played(tmp_path: Path, decision: str) -> Path:
    """The scenario's position played with p0's one decision ``decision`` (the file's own is the pass)."""
    source = tmp_path / "position.toml"
    source.write_text(SCENARIO.read_text().replace('decisions = ["p0 pass"]', f"decisions = [{decision!r}]"))
    log = tmp_path / "game.log"
    outcome = run_scenario(load_scenario(source), log)
    assert not outcome.failed
    return log


def test_ending_the_attack_phase_before_a_lethal_attack_is_a_blunder_and_the_attack_best(tmp_path: Path) -> None:
    # [M9-023]: p0 loses at the start of its next turn; [M9-086], [M9-024]: 3 points of Battle Damage against one
    # card to pay with end the game for p0 now
    reviews = review_game(read_log(_played(tmp_path, "p0 pass")), seats=[0], iterations=60)
    first = reviews[0]
    assert first.seat == 0 and first.point == "attack" and first.made == "End the Attack phase"
    assert first.verdict == "blunder"
    assert first.best == "Attack the Exterior lane"
    assert first.chance_best > 0.8 and first.chance_made < 0.1 and first.loss >= 0.2
    score = accuracy(reviews, 0)
    assert score is not None and score < 50


def test_the_lethal_attack_is_best(tmp_path: Path) -> None:
    log = _played(tmp_path, "p0 declare_at lane=exterior")
    first = review_game(read_log(log), seats=[0], iterations=60)[0]
    assert first.verdict == "best" and first.loss == 0.0 and first.made == "Attack the Exterior lane"


def test_the_command_prints_csv_and_json_and_saves(tmp_path: Path) -> None:
    log = _played(tmp_path, "p0 pass")
    before = log.read_bytes()
    result = runner.invoke(app, ["review", str(log), "-f", "csv", "--iterations", "60"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows[0]["verdict"] == "blunder" and rows[0]["best"] == "Attack the Exterior lane"
    result = runner.invoke(app, ["review", str(log), "-f", "json", "--iterations", "60", "--save"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["decisions"][0]["verdict"] == "blunder"
    saved = read_review(log.with_name(log.name + ".review.json"))
    assert saved.ruleset == "miras9" and saved.decisions[0].verdict == "blunder"
    assert log.read_bytes() == before  # the log itself is never changed
    result = runner.invoke(app, ["review", str(log), "--iterations", "60"])
    assert result.exit_code == 0 and "seat 0 (p0): accuracy" in result.stdout and "blunder" in result.stdout


def test_a_whole_game_is_reviewed_from_both_seats(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "miras9", "--games", "1", "--seed", "7", "--bots", "heuristic,random", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    (log,) = tmp_path.glob("miras9-*.log")
    game = read_log(log)
    reviews = review_game(game, iterations=4)
    rated = [d for d in game.decisions if len(d.offered) > 1]
    assert [r.decision for r in reviews] == [d.n for d in rated]  # every real decision of both seats, in order
    assert {r.seat for r in reviews} == {0, 1}
    assert all(0.0 <= r.chance_made <= 1.0 and r.loss >= 0.0 for r in reviews)
    assert review_game(game, iterations=4, jobs=2) == reviews  # shared among processes: the same review
