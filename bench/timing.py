"""Best-of-N timing: the least disturbed run is the best estimate on a noisy machine."""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def best_of(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def cpu_best(runs: int, fn: Callable[[], object]) -> float:
    """``best_of`` on the CPU clock (``time.process_time``): what a loaded machine changes least."""
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def run_in_work_folder(doc: str | None, run: Callable[[Path, int, int], object]) -> None:
    """The command line of a benchmark over generated logs: ``--events``, ``--workers``, ``--dir`` (default: a
    temporary folder, removed afterwards); calls ``run(folder, events, workers)``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dir", type=Path, default=None, help="Work folder (default: a temporary one, removed).")
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="annals-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        run(folder, args.events, args.workers)
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)
