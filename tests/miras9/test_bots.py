"""The Miras 9 heuristic bot beats the uniformly random one in at least 80% of games, over every ordered pairing of
shipped decks (the windrunner deck's movement, crews and Spot included)."""

from __future__ import annotations

from annals.engine.miras9.pool import DECKS
from annals.engine.simulate import simulate


def test_heuristic_beats_random_in_80_percent() -> None:
    """A bot-strength test (it cites no rule): 4 games per ordered deck pairing (100), seats alternating; the
    heuristic wins >= 80% overall and at least half of every pairing."""
    wins = games = 0
    worst = 1.0
    for a in sorted(DECKS):
        for b in sorted(DECKS):
            results = list(simulate("miras9", 4, 7000, [a, b], ["heuristic", "random"], None))
            won = sum(r.winner == i % 2 for i, r in enumerate(results))  # heuristic: seat 0 on even games
            worst = min(worst, won / len(results))
            wins += won
            games += len(results)
    assert wins / games >= 0.8, f"heuristic won {wins} of {games}"
    assert worst >= 0.5, worst
