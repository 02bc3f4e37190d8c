"""MORANA heuristic-vs-random win rate per ordered deck pairing (not the formal benchmark).

Seats alternate within each pairing (``simulate`` swaps them on odd games), so every deck plays both seats.

Example: .venv/bin/python -m bench.morana_bots --games 500 --seed 200000
"""

from __future__ import annotations

import argparse
import time
from itertools import product

from engine.morana.ruleset import RULESET
from engine.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per ordered pairing (even)")
    parser.add_argument("--seed", type=int, default=200000)
    args = parser.parse_args()
    decks = sorted(RULESET.decks())
    started = time.perf_counter()
    wins = games = 0
    for mine, theirs in product(decks, decks):
        won = 0
        for i, result in enumerate(
            simulate("morana", args.games, args.seed, [mine, theirs], ["heuristic", "random"], None)
        ):
            won += result.winner == i % 2  # the heuristic is in seat 0 on even games, seat 1 on odd ones
        print(f"heuristic with {mine:>15} vs random with {theirs:<15} {won / args.games:6.1%}")
        wins, games = wins + won, games + args.games
    elapsed = time.perf_counter() - started
    print(f"overall {wins / games:.1%} of {games} games in {elapsed:.1f}s ({games / elapsed:.0f} games/s)")


if __name__ == "__main__":
    main()
