"""Tournament speed: pairing one Swiss round of 2,000 players, and the standings of 2,000 players after 10 rounds.

Run: ``python -m bench.tournament [--players N] [--rounds R]``. Results are drawn at random (seeded: the same
figures every run, bar the machine's noise), so only the pairing and standings code is timed, not games. Each
round's pairing time includes the standings it pairs from (the bye goes by them) and the point totals; the
figures are the best of 3 runs, printed with the ratio to the issue's ceiling of 1 s (below 1 is within it).
networkx, which the pairing imports when it first needs it, is imported before the rounds and timed apart.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from annals.engine.rng import Rng
from annals.engine.tournament.pairing import pair_swiss
from annals.engine.tournament.standings import Result, byes, match_points, opponents, standings
from bench.timing import best_of

CEILING = 1.0  # seconds, from issue 11
QUICK = ["--players", "20", "--rounds", "3"]  # every stage at tiny sizes, for tests


def simulate(players: int, rounds: int, seed: int = 11) -> tuple[list[str], list[Result], list[float], int]:
    """Pair and "play" ``rounds`` rounds; returns the results, each round's pairing time and rematches seen."""
    ids = [f"p{i:05d}" for i in range(players)]
    rng = Rng(seed)
    results: list[Result] = []
    times: list[float] = []
    rematches = 0
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        ranked = [s.player for s in standings(ids, results, seed)]
        met = opponents(results)
        pairings = pair_swiss(ranked, match_points(ranked, results), met, byes(results), Rng(seed + number))
        times.append(time.perf_counter() - start)
        for p in pairings:
            if not p.b:
                results.append(Result(p.a, "", 2, 0, 0, p.a))
                continue
            rematches += p.b in met.get(p.a, set())
            outcome = rng.below(10)  # 45% a, 45% b, 10% a drawn match
            if outcome < 9:
                wa, wb = (2, rng.below(2)) if outcome < 5 else (rng.below(2), 2)
                results.append(Result(p.a, p.b, wa, wb, 0, p.a if wa > wb else p.b))
            else:
                results.append(Result(p.a, p.b, 1, 1, 1, ""))
    return ids, results, times, rematches


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    import networkx  # noqa: F401 - the pairing's blossom: imported once per process, timed apart from the rounds

    print(f"importing networkx (once per process): {(time.perf_counter() - start) * 1000:.0f} ms")
    ids, results, times, rematches = simulate(args.players, args.rounds)
    worst = max(times)
    print(f"{args.players} players, {args.rounds} Swiss rounds, {len(results)} matches, {rematches} rematches")
    print(f"pairing a round:      worst {worst * 1000:8.1f} ms (round {times.index(worst) + 1}), "
          f"last {times[-1] * 1000:8.1f} ms; ratio to the {CEILING:.0f} s ceiling {worst / CEILING:.3f}")  # fmt: skip
    seconds = best_of(3, lambda: standings(ids, results, 11))
    print(f"standings after {args.rounds}: {seconds * 1000:8.1f} ms; ratio to the {CEILING:.0f} s ceiling "
          f"{seconds / CEILING:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
