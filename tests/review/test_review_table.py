"""``annals review``'s table as a person reads it at a terminal: what the numbers are and whose, the thresholds in
force, each decision's choices in words within the terminal's width, and each seat's accuracy in words."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from annals.cli.main import app
from annals.queries.review import DecisionReview, Thresholds
from annals.queries.reviewtext import review_table
from tests.review.test_review import _played

LONG = "Play Frontier Outpost in random-1's Interior lane"  # a Miras 9 choice: the row is 120 columns and more


def _row(n: int, seat: int, point: str, verdict: str, loss: float, made: str, best: str) -> DecisionReview:
    return DecisionReview(n, n, 4, seat, point, 0.5, 0.5 - loss, 0.5, made, best, loss, verdict)


ROWS = [
    _row(1, 0, "action", "best", 0.0, "End the Action phase", "End the Action phase"),
    _row(2, 1, "action", "mistake", 0.12, LONG, "Play Survivor in random-1's Exterior lane"),
    _row(3, 1, "generate", "inaccuracy", 0.06, "Generate 0 resources", "Generate 2 resources"),
    _row(4, 0, "battle_damage", "best", 0.0, "Pay with a used card", "Pay with a used card"),
]


def test_at_80_columns_no_line_is_wider_and_each_decision_keeps_both_choices_in_words() -> None:
    lines = review_table(ROWS, players=["Ann", "heuristic-1"], iterations=50, width=80)
    assert all(len(line) <= 80 for line in lines), [line for line in lines if len(line) > 80]
    text = "\n".join(lines)
    assert "made: Play Frontier Outpost in random-1's Interior lane" in text  # on a line of its own
    assert "best: Play Survivor in random-1's Exterior lane" in text
    # whose chance, what it is, the budget and the thresholds, said before the numbers
    said = " ".join(lines[: lines.index(next(line for line in lines if line.lstrip().startswith("#")))])
    assert "the deciding seat's winning chance (0 to 1)" in said and "50 iterations a decision" in said
    assert "from 0.05 is an inaccuracy, from 0.1 a mistake, from 0.2 a blunder" in said
    assert "Seats: 0 Ann, 1 heuristic-1." in said
    # accuracy: whose, out of what, and each class counted in words (never "1 mistakes" or "0 inaccuracy")
    tail = " ".join(line.strip() for line in lines[-4:])  # each seat wrapped to two lines
    assert "seat 0 (Ann): accuracy 100.0 of 100 over 2 decisions: 2 best, 0 good, 0 inaccuracies, 0 mistakes" in tail
    # the point asked in words, as the record's identifier is not ("battle_damage")
    assert "battle damage" in text and "battle_damage" not in text
    assert "seat 1 (heuristic-1): accuracy" in tail and "2 decisions: 0 best, 0 good, 1 inaccuracy, 1 mistake, " in tail


def test_at_120_columns_a_row_that_fits_stays_one_line_and_in_a_pipe_every_row_does() -> None:
    wide = review_table(ROWS, players=["Ann", "heuristic-1"], width=120)
    assert any(line.endswith("Generate 0 resources  (best: Generate 2 resources)") for line in wide)
    assert all(len(line) <= 120 for line in wide)
    whole = review_table(ROWS, players=["Ann", "heuristic-1"])  # no width: one line a decision, for grep
    assert sum(LONG in line and "(best: Play Survivor" in line for line in whole) == 1


def test_the_thresholds_given_are_the_ones_the_table_states(tmp_path: Path) -> None:
    log = _played(tmp_path, 'decisions = ["p1 done", "p2 done"]')
    result = CliRunner().invoke(
        app, ["review", str(log), "--iterations", "20", "--inaccuracy", "0.02", "--mistake", "0.3", "--blunder", "0.6"]
    )
    assert result.exit_code == 0, result.output
    assert "from 0.02 is an inaccuracy, from 0.3 a mistake, from 0.6 a blunder" in result.stdout
    assert Thresholds(0.02, 0.3, 0.6).classify(0.25, False) == "inaccuracy"
