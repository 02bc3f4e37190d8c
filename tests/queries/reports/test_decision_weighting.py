"""decision_choices' weighted_chosen/weighted_declined win rates on a constructed set of games where the choice has
no effect on who wins but long games are lost: the per-seat-game columns (chosen at least once) lean towards the
long games, the weighted ones (each seat-game counts once, split by its share of choices) do not."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from annals.queries.reports.filters import Filters
from annals.queries.reports.run import run_report, wilson

SHORT, LONG = 20, 20  # games of each kind; seat 0 wins every short game and loses every long one


def constructed(db: Path, tmp_path: Path) -> Path:
    """The toy database's cardtoy games, their decisions replaced: seat 0 decides at point 'turn' between Play (tag
    1) and Pass (tag 2): once in a short game (half of them choose Play), ten times in a long one (choosing Play
    on 5 of the 10): the same share of Play in both, so choosing Play says nothing about winning."""
    path = tmp_path / "constructed.duckdb"
    shutil.copy(db, path)
    con = duckdb.connect(str(path))
    games = [r[0] for r in con.execute("SELECT game FROM games WHERE ruleset = 'cardtoy' ORDER BY game").fetchall()]
    assert len(games) >= SHORT + LONG
    con.execute("DELETE FROM decisions")
    offered = json.dumps([[1, 7], [2]])
    rows = []
    for i, game in enumerate(games[: SHORT + LONG]):
        long = i >= SHORT
        con.execute("UPDATE games SET turns = ?, winner = ? WHERE game = ?", [20 if long else 2, int(long), game])
        picks = ["Play", "Pass"] * 5 if long else ["Play" if i % 2 == 0 else "Pass"]
        rows += [(game, n, n, 0, "turn", 2, int(k == "Pass"), k, json.dumps([1, 7] if k == "Play" else [2]), offered)
                 for n, k in enumerate(picks)]  # fmt: skip
    con.executemany("INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    con.execute("DELETE FROM games WHERE ruleset = 'cardtoy' AND game NOT IN (SELECT game FROM decisions)")
    con.close()
    return path


def test_weighting_per_seat_game_removes_the_lean_to_long_games(db: Path, tmp_path: Path) -> None:
    con = duckdb.connect(str(constructed(db, tmp_path)), read_only=True)
    frame = run_report(
        con, "decision_choices", min_games=0, filters=Filters(pool=True, ruleset="cardtoy", seat=0)
    ).frame
    con.close()
    play = frame.filter(frame["option_kind"] == "Play").row(0, named=True)
    # chosen at least once: every long game (lost) and half the short ones (won); declined: only short ones (won)
    assert (play["chosen_games"], play["chosen_wins"]) == (LONG + SHORT // 2, SHORT // 2)
    assert (play["declined_games"], play["declined_wins"]) == (SHORT // 2, SHORT // 2)
    assert play["chosen_win_rate"] == pytest.approx(1 / 3, abs=1e-4) and play["declined_win_rate"] == 1.0
    # weighted: a short game weighs 1 to the side it chose, a long one 0.5 to each side
    half = SHORT // 2 + LONG / 2
    assert (play["weighted_chosen_games"], play["weighted_chosen_wins"]) == (half, SHORT // 2)
    assert (play["weighted_declined_games"], play["weighted_declined_wins"]) == (half, SHORT // 2)
    overall = SHORT / (SHORT + LONG)  # seat 0's win rate over every game offered Play: what no effect looks like
    assert play["weighted_chosen_win_rate"] == play["weighted_declined_win_rate"] == pytest.approx(overall)
    lo, hi = wilson(SHORT // 2, int(half))
    assert play["weighted_chosen_ci_low"] == pytest.approx(lo, abs=1e-4)
    assert play["weighted_chosen_ci_high"] == pytest.approx(hi, abs=1e-4)
    pass_ = frame.filter(frame["option_kind"] == "Pass").row(0, named=True)  # the mirror image
    assert pass_["weighted_chosen_win_rate"] == pass_["weighted_declined_win_rate"] == pytest.approx(overall)
    assert pass_["chosen_win_rate"] == pytest.approx(1 / 3, abs=1e-4)
