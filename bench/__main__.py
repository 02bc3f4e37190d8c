"""``make bench``: every benchmark in turn, each with its own ceiling measured in the same run.

``python -m bench --quick`` runs each at the tiny sizes of its ``QUICK`` arguments (what the test suite runs, so a
change that breaks a benchmark fails there); ``python -m bench NAME...`` runs only those. A benchmark that fails
does not stop the others: its error is printed, and the run exits 1 at the end, naming it.
"""

from __future__ import annotations

import argparse
import importlib
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
]


def run(name: str, quick: bool) -> None:
    """One benchmark, with its quick arguments or its defaults."""
    module = importlib.import_module(name)
    module.main(list(module.QUICK) if quick else [])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="benchmarks to run (default: all), as bench.NAME or NAME")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: checks that each runs, measures nothing")
    args = parser.parse_args(argv)
    names = [n if n.startswith("bench.") else f"bench.{n}" for n in args.names] or BENCHMARKS
    failed = []
    for name in names:
        print(f"\n== {name}", flush=True)
        try:
            run(name, args.quick)
        except Exception:
            traceback.print_exc()
            failed.append(name)
    if failed:
        print(f"\n{len(failed)} benchmark(s) failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
