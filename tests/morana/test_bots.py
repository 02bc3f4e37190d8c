"""The heuristic bot beats the uniformly random one in at least 80% of games, over every pairing of shipped decks."""

from __future__ import annotations

from engine.simulate import simulate

DECKS = ["starter-winter", "starter-sun", "clash", "glory"]


def test_heuristic_beats_random_in_80_percent() -> None:
    """[MOR-05] [MOR-15] 10 games per ordered deck pairing (160), seats alternating; the heuristic wins >= 80%."""
    wins = games = 0
    for a in DECKS:
        for b in DECKS:
            for i, result in enumerate(simulate("morana", 10, 7000, [a, b], ["heuristic", "random"], None)):
                wins += result.winner == i % 2  # the heuristic sits in seat 0 on even games, seat 1 on odd ones
                games += 1
    assert wins / games >= 0.8, f"heuristic won {wins} of {games}"
