"""CLI start-up: ``annals --version``, ``--help``, a usage error (a command's first output) and a command that loads
the rulesets, each run ``--runs`` times in a fresh process, against issue 31's goals (0.3 s, 0.5 s).

Run: ``python -m bench.startup [--runs N]``. Each process's CPU time (user + system, from the operating system:
waiting for a core on a shared machine does not stretch it) and its wall clock, lowest and median. The ceiling,
measured in the same run and interleaved with the commands, is the same interpreter started bare (``python -c
pass``): what no command can go under, so ``median - ceiling`` is what annals' own imports and work cost.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

QUICK = ["--runs", "1"]  # that it runs, for tests: the figures mean nothing

# (what is run, its arguments, the goal in seconds, the exit status it must end with)
COMMANDS = [
    ("annals --version", ["--version"], 0.3, 0),
    ("annals --help", ["--help"], 0.3, 0),
    ("annals show (a usage error: the first output)", ["show"], 0.5, 2),
    ("annals card Ember (loads the rulesets)", ["card", "Ember"], 0.5, 0),
]


def annals_command() -> list[str]:
    """The ``annals`` script installed beside this interpreter (what a person runs), else ``python -m``'s way."""
    script = Path(sys.executable).with_name("annals")
    if script.exists():
        return [str(script)]
    found = shutil.which("annals")
    if found is None:
        raise SystemExit("bench.startup: no `annals` command beside this Python or on PATH; run `make fast` first")
    return [found]


def timed(argv: list[str], status: int, output: bool = True) -> tuple[float, float]:
    """One fresh process: its CPU time (the children's rusage before and after) and its wall time; it must end
    with ``status``, having printed something where ``output``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != status or (output and not (done.stdout or done.stderr)):
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode} (expected {status}): {done.stderr[-300:]!r}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10, help="fresh processes of each command")
    args = parser.parse_args(argv)
    annals = annals_command()
    bare = ("python -c pass (the ceiling)", [sys.executable, "-c", "pass"], 0)
    runs: list[tuple[str, list[str], int]] = [bare] + [(n, annals + a, s) for n, a, _, s in COMMANDS]
    cpu: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    wall: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    for _ in range(args.runs):  # interleaved: a burst of other work slows each command, not only one
        for name, command, status in runs:
            c, w = timed(command, status, output=command[0] != sys.executable)
            cpu[name].append(c)
            wall[name].append(w)
    print(f"start-up, {args.runs} fresh processes each, load {os.getloadavg()[0]:.1f} ({' '.join(annals)}):")
    floor = statistics.median(cpu[bare[0]])
    print(f"  {bare[0]}: CPU min / median {min(cpu[bare[0]]):.3f} / {floor:.3f} s, wall median "
          f"{statistics.median(wall[bare[0]]):.3f} s")  # fmt: skip
    for name, _, goal, _ in COMMANDS:
        median = statistics.median(cpu[name])
        met = "met" if median < goal else "NOT met"
        print(f"  {name}: CPU min / median {min(cpu[name]):.3f} / {median:.3f} s ({median / floor:.1f}x the "
              f"ceiling, +{median - floor:.3f} s), wall median {statistics.median(wall[name]):.3f} s; goal < "
              f"{goal} s: {met}")  # fmt: skip
    print("start-up measured")


if __name__ == "__main__":
    main()
