"""``make bench``: every benchmark in turn, each with its own ceiling measured in the same run.

``python -m bench`` (what ``make bench`` runs) gives each benchmark its ``MAKE_BENCH`` arguments (in this
file): sizes at which the whole run ends within about 50 minutes on the project's 2 shared cores and still prints
every figure beside its ceiling. ``--full`` runs each at its own defaults instead (the full-size figures: hours,
mostly ``bench.search``); ``--quick`` at the tiny sizes of its ``QUICK`` arguments (what the test suite runs, so a
change that breaks a benchmark fails there). ``python -m bench NAME...`` runs only those, at the same sizes. Each
benchmark's wall time and the load average are printed as it ends, so its figures can be quoted with their load. A
benchmark that fails does not stop the others: its error is printed, and the run exits 1 at the end, naming it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import time
import traceback
from collections.abc import Sequence

BENCHMARKS = [
    "bench.logs",
    "bench.engine",
    "bench.forward",
    "bench.bots",
    "bench.ingest",
    "bench.signing",
    "bench.viewer",
    "bench.reports",
    "bench.tournament",
    "bench.pairing",
    "bench.server",
    "bench.event_record",
    "bench.scale",
    "bench.clicks",
    "bench.search",
    "bench.startup",
]

# ``make bench``'s arguments for each benchmark (empty: the module's own defaults), with its wall time in the whole
# run recorded in docs/benchmarks.md (1,226 s at a load average of 10-16 on 2 cores): size a new one to fit.
MAKE_BENCH: dict[str, list[str]] = {
    "bench.logs": [],  # 33 s
    "bench.engine": [],  # 12 s
    "bench.forward": [],  # 9 s
    "bench.bots": [],  # 9 s
    "bench.ingest": [],  # 227 s
    "bench.signing": [],  # 5 s
    "bench.viewer": [],  # 82 s
    "bench.reports": [],  # 247 s
    "bench.tournament": [],  # 2 s
    "bench.pairing": ["--peer-limit", "10"],  # 81 s; the peer stopped on the same rounds at 60 s
    "bench.server": [],  # 21 s
    "bench.event_record": [],  # 109 s
    "bench.scale": [],  # 193 s
    "bench.clicks": [],  # 5 s
    "bench.search": ["--games", "4"],  # 170 s; 200 games a match is hours: the time per decision, not the win rates
    "bench.startup": [],  # 22 s
}


def arguments(name: str, sizes: str) -> list[str]:
    """The arguments ``name`` runs with at ``sizes``: "quick", "make" (``MAKE_BENCH``) or "full" (its defaults)."""
    module = importlib.import_module(name)
    if sizes == "quick":
        return list(module.QUICK)
    return [] if sizes == "full" else list(MAKE_BENCH.get(name, []))


def run(name: str, quick: bool = False, sizes: str = "make") -> None:
    """One benchmark, with its quick arguments, its ``make bench`` ones, or its defaults."""
    args = arguments(name, "quick" if quick else sizes)
    importlib.import_module(name).main(args)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all), as bench.NAME or NAME")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="tiny sizes: checks that each runs, measures nothing")
    size.add_argument("--full", action="store_true", help="each benchmark's own defaults (hours)")
    args = parser.parse_args(argv)
    sizes = "quick" if args.quick else "full" if args.full else "make"
    names = [n if n.startswith("bench.") else f"bench.{n}" for n in args.names] or BENCHMARKS
    failed = []
    walls: list[tuple[str, float]] = []
    began = time.perf_counter()
    print(f"bench: {len(names)} benchmark(s), {sizes} sizes; load average at start {load()}", flush=True)
    for name in names:
        print(f"\n== {name}", flush=True)
        start = time.perf_counter()
        try:
            print(f"arguments: {' '.join(arguments(name, sizes)) or '(its defaults)'}", flush=True)
            run(name, sizes=sizes)
        except Exception:
            traceback.print_exc()
            failed.append(name)
        walls.append((name, time.perf_counter() - start))
        print(f"-- {name}: {walls[-1][1]:.1f} s wall; load average {load()}", flush=True)
    print(f"\nbench: {time.perf_counter() - began:.0f} s wall in all; load average at end {load()}")
    for name, seconds in walls:
        print(f"  {name:<20} {seconds:8.1f} s")
    if failed:
        print(f"\n{len(failed)} benchmark(s) failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
