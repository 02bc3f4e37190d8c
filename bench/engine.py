"""Engine speed: games/s and events/s on one core with random bots and log writing on, and the log's share.

Run: ``python -m bench.engine [--ruleset NAME] [--games N]``. The log's share is the time spent inside the log
writer (opening the file, framing, encoding, writing, closing) over the whole time, measured in the same run by a
timing subclass of ``LogWriter``, so other load on the machine does not skew it the way subtracting two separate
runs would. Goals: Miras 9 >= 100,000 events/s per core with the log under 10% of the time; MORANA >= 1,000 games/s.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import annals.engine.runner
from annals.engine.registry import get_ruleset, ruleset_names
from annals.engine.simulate import make_header, play_one
from annals.schemas.logfile import LogWriter
from bench.timing import best_of
from tests import toyrules

QUICK = ["--games", "2", "--runs", "1"]  # every stage at tiny sizes, for tests

toyrules.register()  # the toy rulesets are benchmarked beside the real ones


class TimedLogWriter(LogWriter):
    spent = 0.0

    def __init__(self, *args: Any, **kwargs: Any):
        start = time.perf_counter()
        super().__init__(*args, **kwargs)
        TimedLogWriter.spent += time.perf_counter() - start

    def write_batch(self, events: list[Any], decisions: list[Any]) -> None:
        start = time.perf_counter()
        super().write_batch(events, decisions)
        TimedLogWriter.spent += time.perf_counter() - start

    def close(self, record: Any) -> None:
        start = time.perf_counter()
        super().close(record)
        TimedLogWriter.spent += time.perf_counter() - start


def measure(name: str, games: int, runs: int) -> None:
    ruleset = get_ruleset(name)
    decks = sorted(ruleset.decks())
    headers = [
        make_header(
            ruleset,
            seed,
            [decks[seed % len(decks)], decks[(seed + 1) % len(decks)]],
            ["random", "random"],
            max_turns=ruleset.default_max_turns,
        )
        for seed in range(games)
    ]
    events = sum(play_one(ruleset, h, None).events for h in headers)
    shares = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)

        def run() -> None:
            TimedLogWriter.spent = 0.0
            start = time.perf_counter()
            for i, header in enumerate(headers):
                play_one(ruleset, header, out / f"{i}.log")
            shares.append(TimedLogWriter.spent / (time.perf_counter() - start))

        annals.engine.runner.LogWriter = TimedLogWriter  # type: ignore[attr-defined]  # time the real runner's writer
        try:
            with_log = best_of(runs, run)
        finally:
            annals.engine.runner.LogWriter = LogWriter  # type: ignore[attr-defined]
    print(
        f"{name:>8}: {games} games, {events:,} events | {games / with_log:,.0f} games/s, "
        f"{events / with_log:,.0f} events/s per core with the log on | log writer {min(shares):.1%} of the time"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", action="append", help="repeatable; default: every ruleset")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print("engine benchmark (one process, one core, random bots)")
    for name in args.ruleset or ruleset_names():
        measure(name, args.games, args.runs)


if __name__ == "__main__":
    main()
