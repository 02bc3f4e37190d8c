"""``make bench``: every benchmark in turn, each with its own ceiling measured in the same run."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = [
    "bench.logs",
    "bench.engine",
    "bench.bots",
    "bench.ingest",
    "bench.signing",
    "bench.viewer",
    "bench.reports",
    "bench.tournament",
    "bench.event_record",
    "bench.scale",
]


def main() -> None:
    for name in BENCHMARKS:
        print(f"\n== {name}")
        sys.argv = [name]
        importlib.import_module(name).main()


if __name__ == "__main__":
    main()
