"""A whole game's review takes a minute or more at the default budget: ``annals review`` says how far it is while
it runs (decisions reviewed of all, time gone and left) at a terminal, and nothing into a pipe."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from annals.cli.main import app
from annals.cli.review import review_progress
from annals.queries.review import review_game
from annals.schemas.logfile import read_log


def _game(tmp_path: Path) -> Path:
    made = CliRunner().invoke(app, ["simulate", "morana", "--games", "1", "--seed", "3", "--out", str(tmp_path), "-q"])
    assert made.exit_code == 0, made.output
    (log,) = tmp_path.glob("*.log")
    return log


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_review_tells_its_progress_up_to_every_decision_with_one_process_or_two(tmp_path: Path, jobs: int) -> None:
    game = read_log(_game(tmp_path))
    told: list[tuple[int, int]] = []
    reviews = review_game(game, iterations=3, jobs=jobs, on_progress=lambda done, total: told.append((done, total)))
    total = told[0][1]
    assert total == len(reviews) > 8 and told[0] == (0, total) and told[-1] == (total, total), told
    done = [d for d, _ in told]
    assert done == sorted(done) and len(set(done)) > 2  # it moves as it goes, never back
    assert {t for _, t in told} == {total}


def test_at_a_terminal_the_bar_says_decisions_done_of_all_and_in_a_pipe_nothing() -> None:
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100)
    with review_progress("review game.log", terminal) as step:
        step(0, 40)
        step(12, 40)
    drawn = screen.getvalue()
    assert "review game.log" in drawn and "12/40" in drawn and "decisions" in drawn and "left" in drawn
    pipe = io.StringIO()
    with review_progress("review game.log", Console(file=pipe, force_terminal=False)) as step:
        step(12, 40)
    assert pipe.getvalue() == ""
