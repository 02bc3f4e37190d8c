"""bench/search.py's quick run: the match it plays counts the search bot's wins from the seat it sat in."""

from __future__ import annotations

import pytest

from annals.engine.registry import get_ruleset
from bench.search import Clock, match, schedule, seats_and_decks


def test_a_short_match_is_counted_and_timed() -> None:
    clock = Clock()
    wins = match("morana", "random", 2, 5, ["clash", "glory"], clock, iterations=10)
    assert 0 <= wins <= 2
    assert clock.spent["search"][1] > 0 and clock.spent["random"][1] > 0  # both bots' real decisions were timed
    assert clock.mean("search") > 0
    assert "search" in get_ruleset("morana").agents()


def test_games_played_in_two_processes_are_the_same_games() -> None:
    one, two = Clock(), Clock()
    wins_one = match("morana", "random", 4, 9, ["clash", "glory"], one, iterations=5)
    wins_two = match("morana", "random", 4, 9, ["clash", "glory"], two, iterations=5, jobs=2)
    assert wins_one == wins_two
    assert one.spent["search"][1] == two.spent["search"][1]  # the same decisions, timed in the workers and merged


def test_one_sides_games_are_those_of_the_full_schedule_where_the_search_bot_has_that_deck() -> None:
    decks = ["clash", "glory"]
    clash = schedule(6, decks, "clash")
    assert clash == [0, 3, 4, 7, 8, 11]  # the indices (so the seeds) they have in the full schedule
    for i in clash:
        seat, pair = seats_and_decks(i, decks)
        assert pair[seat] == "clash"
    assert sorted(clash + schedule(6, decks, "glory")) == schedule(12, decks)  # the two sides make the whole
    with pytest.raises(SystemExit, match="not one of the match's decks"):
        schedule(2, decks, "winter")
