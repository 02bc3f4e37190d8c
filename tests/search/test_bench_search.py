"""bench/search.py's quick run: the match it plays counts the search bot's wins from the seat it sat in."""

from __future__ import annotations

from annals.engine.registry import get_ruleset
from bench.search import Clock, match


def test_a_short_match_is_counted_and_timed() -> None:
    clock = Clock()
    wins = match("morana", "random", 2, 5, ["clash", "glory"], clock, iterations=10)
    assert 0 <= wins <= 2
    assert clock.spent["search"][1] > 0 and clock.spent["random"][1] > 0  # both bots' real decisions were timed
    assert clock.mean("search") > 0
    assert "search" in get_ruleset("morana").agents()
