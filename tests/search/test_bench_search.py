"""bench/search.py's quick run: the match it plays counts the search bot's wins from the seat it sat in."""

from __future__ import annotations

import pytest

from annals.engine.botgames import seat_rngs
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.registry import get_ruleset
from annals.engine.runner import play
from annals.engine.simulate import make_header
from bench.search import BALANCED, Clock, Tally, match, pairs, schedule, seats_and_decks

RULESET = get_ruleset("morana")


def test_a_short_match_is_counted_and_timed() -> None:
    clock = Clock()
    tally = match("morana", "random", 2, 5, ["clash", "glory"], clock, iterations=10)
    assert 0 <= tally.won <= tally.played == 2
    assert tally.by_deck == {"clash": [tally.by_deck["clash"][0], 1], "glory": [tally.by_deck["glory"][0], 1]}
    assert clock.spent["search"][1] > 0 and clock.spent["random"][1] > 0  # both bots' real decisions were timed
    assert clock.mean("search") > 0
    assert "search" in get_ruleset("morana").agents()


def test_games_played_in_two_processes_are_the_same_games() -> None:
    one, two = Clock(), Clock()
    wins_one = match("morana", "random", 4, 9, ["clash", "glory"], one, iterations=5)
    wins_two = match("morana", "random", 4, 9, ["clash", "glory"], two, iterations=5, jobs=2)
    assert wins_one.by_deck == wins_two.by_deck
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


def test_the_baseline_plays_the_same_games_with_the_heuristic_in_the_search_bots_seat() -> None:
    # heuristic against heuristic is deterministic per seed: its record, game by game, is the mirror's on those seeds
    decks = ["clash", "glory"]
    base = match("morana", "heuristic", 8, 40, decks, Clock(), bot="heuristic")
    mirror = Tally()
    for i in range(8):
        seat, pair = seats_and_decks(i, decks)
        header = make_header(RULESET, 40 + i, pair, ["heuristic", "heuristic"], max_turns=RULESET.default_max_turns)
        agents = [HeuristicAgent(p, rng) for p, rng in enumerate(seat_rngs(header))]
        mirror.add(pair[seat], play(RULESET, header, agents, None).winner == seat)
    assert base == mirror
    # the schedule gives the search bot's seat each deck in half the games
    assert base.by_deck["clash"][1] == base.by_deck["glory"][1] == 4


def test_a_run_plays_the_default_pair_and_the_balanced_one_unless_a_pair_is_named() -> None:
    assert pairs("morana", None) == [list(RULESET.default_decks()), list(BALANCED["morana"])]
    assert pairs("morana", ["glory", "starter-sun"]) == [["glory", "starter-sun"]]
    assert pairs("morana", None, "clash") == [list(RULESET.default_decks())]  # one side's games: the pairs holding it
    assert pairs("miras9", None) == [list(get_ruleset("miras9").default_decks())]
    tally = Tally()
    tally.add("clash", True)
    tally.add("glory", False)
    assert tally.line() == "1/2 (50.0%, 95% 9.5%-90.5%; with clash 1/1, with glory 0/1)"
