"""Engine speed: games/s and events/s on one core with random bots and log writing on, and the log's share.

Run: ``python -m bench.engine [--ruleset NAME] [--games N]``. Times are CPU time (``time.process_time``), so other
load on a shared machine does not count. The ceiling, measured in the same run, is the reducer alone folding the
same games' events (``apply``, what a replay pays): the engine's rate is printed as a share of it. The log's share
is the time spent inside the log writer (opening the file, framing, encoding, writing, closing) over the whole
time, measured by a timing subclass of ``LogWriter``, so other load does not skew it the way subtracting two
separate runs would. Goals (issue 31): Miras 9 >= 500,000 events/s per core, MORANA >= 2,500 games/s.
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
from annals.schemas.logfile import LogWriter, read_log
from bench.timing import cpu_best
from tests import toyrules

QUICK = ["--games", "2", "--runs", "1"]  # every stage at tiny sizes, for tests

toyrules.register()  # the toy rulesets are benchmarked beside the real ones


class TimedLogWriter(LogWriter):
    spent = 0.0

    def __init__(self, *args: Any, **kwargs: Any):
        start = time.process_time()
        super().__init__(*args, **kwargs)
        TimedLogWriter.spent += time.process_time() - start

    def write_batch(self, events: list[Any], decisions: list[Any]) -> None:
        start = time.process_time()
        super().write_batch(events, decisions)
        TimedLogWriter.spent += time.process_time() - start

    def close(self, record: Any) -> None:
        start = time.process_time()
        super().close(record)
        TimedLogWriter.spent += time.process_time() - start


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
    shares = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)

        def run() -> None:
            TimedLogWriter.spent = 0.0
            start = time.process_time()
            for i, header in enumerate(headers):
                play_one(ruleset, header, out / f"{i}.log")
            shares.append(TimedLogWriter.spent / (time.process_time() - start))

        annals.engine.runner.LogWriter = TimedLogWriter  # type: ignore[attr-defined]  # time the real runner's writer
        try:
            with_log = cpu_best(runs, run)
        finally:
            annals.engine.runner.LogWriter = LogWriter  # type: ignore[attr-defined]
        logs = [read_log(out / f"{i}.log") for i in range(games)]
    events = sum(len(log.events) for log in logs)

    def fold() -> None:  # the ceiling: the reducer alone over the same events
        apply = ruleset.apply
        for log in logs:
            state = ruleset.new_state(log.header)
            for event in log.events:
                apply(state, event)

    folded = cpu_best(runs, fold)
    print(
        f"{name:>8}: {games} games, {events:,} events | {games / with_log:,.0f} games/s, "
        f"{events / with_log:,.0f} events/s per core with the log on, {folded / with_log:.1%} of the reducer's fold "
        f"({events / folded:,.0f} events/s) | log writer {min(shares):.1%} of the time"
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
