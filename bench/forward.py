"""The forward model's costs: a copy of a mid-game state, and a random playout, against applying one event.

Run: ``python -m bench.forward [--ruleset NAME] [--games N] [--runs N]``. For each ruleset, ``--games`` random games
are played out with ``engine.forward.ForwardModel`` (uniform choices, take-backs too), then again copying the model
at every tenth decision (``copy()``: the state by ``engine.statecopy.clone``, and the generator). The ceiling,
measured in the same run on the same games, is the reducer alone folding their events (``apply``), so a copy is
reported as a number of events' worth of applying, and a random playout's rate as a share of the fold's. Times are
CPU time (``time.process_time``): other load on a shared machine slows both sides alike. A search bot (issue 32)
pays a copy per simulation and a step per move of each playout.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from annals.engine.forward import ForwardModel
from annals.engine.registry import get_ruleset, ruleset_names
from annals.engine.rng import Rng
from annals.engine.simulate import make_header
from bench.timing import cpu_best
from tests import toyrules

toyrules.register()  # the toy rulesets are benchmarked beside the real ones

QUICK = ["--games", "2", "--runs", "1"]  # that it runs, for tests: the figures mean nothing
SAMPLE_EVERY = 10  # decisions between two sampled positions


def measure(name: str, games: int, runs: int) -> None:
    ruleset = get_ruleset(name)
    decks = sorted(ruleset.decks())
    starts: list[ForwardModel[Any]] = []
    for seed in range(games):
        pair = [decks[seed % len(decks)], decks[(seed + 1) % len(decks)]]
        header = make_header(ruleset, seed, pair, ["random", "random"], max_turns=ruleset.default_max_turns)
        starts.append(ForwardModel.start(ruleset, header))
    openings = [m.state.n for m in starts]
    samples: list[ForwardModel[Any]] = []
    logs: list[list[Any]] = []

    def playouts(sample: bool) -> None:
        samples.clear()
        logs.clear()
        for seed, start in enumerate(starts):
            model, chooser, events, decisions = start.copy(), Rng(seed), [], 0
            while not model.is_over():
                if sample and decisions % SAMPLE_EVERY == 0:
                    samples.append(model.copy())
                options = model.legal_options()
                events += model.step(options[chooser.below(len(options))])
                decisions += 1
            logs.append(events)

    played = cpu_best(runs, lambda: playouts(False))
    playouts(True)  # the same games again, keeping a copy of every tenth position
    stepped = sum(len(events) for events in logs)  # the events after each game's first decision

    def copies() -> None:
        for model in samples:
            model.copy()

    copied = cpu_best(runs, copies)

    folded = float("inf")
    for _ in range(runs):  # the ceiling: the reducer alone over the same events, from each game's first decision
        states = [start.copy().state for start in starts]
        apply = ruleset.apply
        begin = time.process_time()
        for state, events in zip(states, logs, strict=True):
            for event in events:
                apply(state, event)
        folded = min(folded, time.process_time() - begin)
    per_event = folded / stepped
    per_copy = copied / len(samples)
    print(
        f"{name:>8}: {games} games, {stepped:,} events, {len(samples):,} positions copied (mean opening "
        f"{sum(openings) / len(openings):.0f} events) | copy {per_copy * 1e6:.1f} us = {per_copy / per_event:.0f} "
        f"events applied | random playout {stepped / played:,.0f} events/s, {folded / played:.1%} of the reducer's "
        f"fold ({stepped / folded:,.0f} events/s)"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", action="append", help="repeatable; default: every ruleset")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    print("forward model benchmark (one process, CPU time, random choices)")
    for name in args.ruleset or ruleset_names():
        measure(name, args.games, args.runs)


if __name__ == "__main__":
    main()
