"""Best-of-N timing: the least disturbed run is the best estimate on a noisy machine."""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple


def best_of(runs: int, fn: Callable[[], object], clock: Callable[[], float] = time.perf_counter) -> float:
    """The shortest of ``runs`` runs of ``fn`` on ``clock`` (``time.process_time``: the CPU time, which waiting for
    a core on a shared machine does not stretch)."""
    best = float("inf")
    for _ in range(runs):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def cpu_best(runs: int, fn: Callable[[], object]) -> float:
    """``best_of`` on the CPU clock (``time.process_time``): what a loaded machine changes least."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def best_of_each(
    runs: int, fns: Sequence[Callable[[], object]], clock: Callable[[], float] = time.perf_counter
) -> list[float]:
    """``best_of`` for several functions whose times are compared, run in turn (the first, the second, ..., then
    again): a burst of other work on the machine then slows each of them, not only the one it fell on."""
    best = [float("inf")] * len(fns)
    for _ in range(runs):
        for i, fn in enumerate(fns):
            start = clock()
            fn()
            best[i] = min(best[i], clock() - start)
    return best


class BenchFolderError(Exception):
    """``--dir`` names a folder holding files that no benchmark run made: it is neither reused nor cleared."""


class Work(NamedTuple):
    """A benchmark over generated logs: its work folder, how many events, ingest workers, how many real games per
    ruleset and deck pair the logs are copied from, and how many timed samples of each latency."""

    folder: Path
    events: int
    workers: int
    seed_games: int
    samples: int


def run_in_work_folder(doc: str | None, run: Callable[[Work], object], argv: Sequence[str] | None = None) -> None:
    """The command line of a benchmark over generated logs: ``--events``, ``--workers``, ``--seed-games``,
    ``--samples``, ``--dir`` (default: a temporary folder, removed afterwards); calls ``run(work)``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed-games", type=int, default=24, help="real games per ruleset and deck pair")
    parser.add_argument("--samples", type=int, default=2_000, help="timed samples of each latency")
    parser.add_argument("--dir", type=Path, default=None, help="Work folder (default: a temporary one, removed).")
    args = parser.parse_args(argv)
    folder = args.dir or Path(tempfile.mkdtemp(prefix="annals-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        run(Work(folder, args.events, args.workers, args.seed_games, args.samples))
    except BenchFolderError as e:
        parser.error(str(e))
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)
