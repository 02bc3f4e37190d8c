"""Engine speed: games/s and events/s on one core with random bots and log writing on, and the log's share.

Run: ``python -m bench.engine [--ruleset NAME] [--games N]``. The share of time spent writing the log is the
difference between playing with and without a log file, over the time with it.
Goals: Miras 9 >= 100,000 events/s per core with the log under 10% of the time; MORANA >= 1,000 games/s.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.timing import best_of
from engine.registry import get_ruleset, ruleset_names
from engine.simulate import make_header, play_one


def measure(name: str, games: int, runs: int, max_turns: int) -> None:
    ruleset = get_ruleset(name)
    decks = sorted(ruleset.decks())
    headers = [
        make_header(
            ruleset,
            seed,
            [decks[seed % len(decks)], decks[(seed + 1) % len(decks)]],
            ["random", "random"],
            max_turns=max_turns,
        )
        for seed in range(games)
    ]
    events = sum(play_one(ruleset, h, None).events for h in headers)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        with_log = best_of(runs, lambda: [play_one(ruleset, h, out / f"{i}.log") for i, h in enumerate(headers)])
    without_log = best_of(runs, lambda: [play_one(ruleset, h, None) for h in headers])
    share = max(0.0, (with_log - without_log) / with_log)
    print(
        f"{name:>8}: {games} games, {events:,} events | with log: {games / with_log:,.0f} games/s, "
        f"{events / with_log:,.0f} events/s | without: {events / without_log:,.0f} events/s | "
        f"log writing {share:.1%} of the time"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", action="append", help="repeatable; default: every ruleset")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-turns", type=int, default=60)
    args = parser.parse_args()
    print("engine benchmark (one process, one core, random bots)")
    for name in args.ruleset or ruleset_names(include_toy=True):
        measure(name, args.games, args.runs, args.max_turns)


if __name__ == "__main__":
    main()
