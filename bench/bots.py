"""Bot strength: the heuristic bot against the uniformly random one, over every ordered pair of shipped decks.

Run: ``python -m bench.bots [--ruleset NAME] [--games-per-pair N]``. Seats alternate within each pairing (the
simulator swaps them on odd games), so first-player advantage cancels out. Goals: >= 80% overall (issues 3 and 4),
and in every pairing (issue 14). Each pairing's record comes with its 95% Wilson score interval, so a pairing is
known to meet the goal only when the interval's lower end is at 80% or more (``--games-per-pair 400``: about +-4
points at 85%).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from itertools import product

from annals.engine.registry import get_ruleset, ruleset_names
from annals.engine.simulate import simulate

QUICK = ["--ruleset", "morana", "--games-per-pair", "1"]  # every stage at tiny sizes, for tests


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (``z`` 1.96): good near 0% and 100%, unlike the normal one."""
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games), (centre + spread) / (1 + z * z / games)


def heuristic_record(name: str, games_per_pair: int, seed: int) -> dict[tuple[str, str], tuple[int, int]]:
    """(heuristic's deck, random's deck) -> (heuristic wins, games)."""
    decks = sorted(get_ruleset(name).decks())
    record: dict[tuple[str, str], tuple[int, int]] = {}
    for k, (a, b) in enumerate(product(decks, decks)):
        wins = 0
        for i, result in enumerate(
            simulate(name, games_per_pair, seed + 1000 * k, [a, b], ["heuristic", "random"], None)
        ):
            wins += result.winner == i % 2  # the heuristic sits in seat 0 on even games, seat 1 on odd ones
        record[(a, b)] = (wins, games_per_pair)
    return record


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", action="append", help="repeatable; default: every ruleset with a heuristic bot")
    parser.add_argument("--games-per-pair", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--per-pair", action="store_true", help="also print every pairing's record")
    args = parser.parse_args(argv)
    names = args.ruleset or [n for n in ruleset_names() if "heuristic" in get_ruleset(n).agents()]
    for name in names:
        record = heuristic_record(name, args.games_per_pair, args.seed)
        if args.per_pair:
            for (a, b), (w, g) in record.items():
                lo, hi = wilson(w, g)
                print(f"{name:>8}: heuristic with {a} vs random with {b}: {w}/{g} ({w / g:.1%}, 95% {lo:.1%}-{hi:.1%})")
        wins = sum(w for w, _ in record.values())
        games = sum(g for _, g in record.values())
        weakest = min(record.items(), key=lambda item: item[1][0] / item[1][1])
        (a, b), (w, g) = weakest
        lo, hi = wilson(w, g)
        print(
            f"{name:>8}: heuristic beat random in {wins}/{games} games ({wins / games:.1%}; goal >= 80%); "
            f"weakest pairing {a} vs {b}: {w}/{g} ({w / g:.1%}, 95% {lo:.1%}-{hi:.1%}; goal >= 80%)"
        )


if __name__ == "__main__":
    main()
