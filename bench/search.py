"""Search bot strength: ``search`` against ``heuristic`` and ``random``, sides and decks alternated.

Run: ``python -m bench.search [--ruleset miras9|morana] [--opponent heuristic|random] [--games N] [--iterations K]
[--jobs J] [--decks A B] [--search-deck NAME] [--progress] [--quick]`` (both rulesets and both opponents unless one
is named; each ruleset with its turn cap; ``--jobs`` plays the games in that many processes: the same games, the
same wins). Each ruleset plays its default deck pair and, where it has one, a balanced pair (``BALANCED``: MORANA's
starters, whose heuristic mirror is about even), unless ``--decks`` names one pair.
Game i puts the search bot in seat i % 2 and swaps the two decks every other pair of games, so each bot plays each
deck from each seat equally often when N is a multiple of 4. Prints each win rate with its 95% Wilson interval
(draws and capped games count as not won) and by the search bot's deck, and beside it the baseline: the same games
(same seeds, seats and decks) with ``heuristic`` in the search bot's seat, so a reader sees how much of a record is
the matchup (against ``heuristic`` that is the heuristic mirror). Then the search bot's mean time per searched
decision (those with more than one option; wall clock and the CPU time of the process that played it), and as a
ceiling measured in the same run the heuristic bot's mean time per decision in the same games. ``--progress``
writes each game's result to standard error as it ends. ``--search-deck NAME`` plays only the games of that schedule
where the search bot has deck NAME (the first N of them, each with the seed it has in the full schedule, so a side's
games are the same games as in a full run: the way to iterate on one pairing's weak side; only the pairs holding
NAME). Goal (issue 32): >= 75% against heuristic at <= 1 s per
decision on one core.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from annals.engine.botgames import seat_rngs
from annals.engine.core import Agent, DecisionPoint
from annals.engine.registry import get_ruleset
from annals.engine.runner import play
from annals.engine.simulate import make_header
from bench.bots import wilson

RULESETS = ("miras9", "morana")
OPPONENTS = ("heuristic", "random")
QUICK = ["--quick"]  # that it runs, for tests: the figures mean nothing
BALANCED = {"morana": ("starter-winter", "starter-sun")}  # a pair besides the default whose mirror is about even
BASELINE = "heuristic"  # the bot put in the search bot's seat for the baseline


@dataclass
class Tally:
    """A match's record: games won of games played, in all and by the deck of the bot measured."""

    won: int = 0
    played: int = 0
    by_deck: dict[str, list[int]] = field(default_factory=dict)

    def add(self, deck: str, won: bool) -> None:
        self.won += won
        self.played += 1
        entry = self.by_deck.setdefault(deck, [0, 0])
        entry[0] += won
        entry[1] += 1

    def line(self) -> str:
        lo, hi = wilson(self.won, self.played)
        decks = ", ".join(f"with {deck} {w}/{n}" for deck, (w, n) in sorted(self.by_deck.items()))
        return f"{self.won}/{self.played} ({self.won / self.played:.1%}, 95% {lo:.1%}-{hi:.1%}; {decks})"


@dataclass
class Clock:
    """Time spent deciding, by bot name: (seconds, decisions with more than one option); and the CPU seconds of this
    process in them (what one core spends, however many other processes share the machine)."""

    spent: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)

    def add(self, bot: str, seconds: float, cpu: float = 0.0) -> None:
        entry = self.spent.setdefault(bot, [0.0, 0.0])
        entry[0] += seconds
        entry[1] += 1
        self.cpu[bot] = self.cpu.get(bot, 0.0) + cpu

    def cpu_mean(self, bot: str) -> float:
        count = self.spent.get(bot, [0.0, 0.0])[1]
        return self.cpu.get(bot, 0.0) / count if count else 0.0

    def merge(self, other: Clock) -> None:
        for bot, (seconds, count) in other.spent.items():
            entry = self.spent.setdefault(bot, [0.0, 0.0])
            entry[0] += seconds
            entry[1] += count
        for bot, cpu in other.cpu.items():
            self.cpu[bot] = self.cpu.get(bot, 0.0) + cpu

    def mean(self, bot: str) -> float:
        seconds, count = self.spent.get(bot, [0.0, 0.0])
        return seconds / count if count else 0.0


class Timed:
    """An agent whose real decisions (more than one option) are timed into a ``Clock``."""

    reads_view = True

    def __init__(self, agent: Agent, bot: str, clock: Clock):
        self.agent, self.bot, self.clock = agent, bot, clock

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        if len(point.options) == 1:
            return self.agent.choose(view, point)
        start, cpu = time.perf_counter(), time.process_time()
        choice = self.agent.choose(view, point)
        self.clock.add(self.bot, time.perf_counter() - start, time.process_time() - cpu)
        return choice


def seats_and_decks(i: int, decks: Sequence[str]) -> tuple[int, list[str]]:
    """Game ``i``'s seat for the search bot and its deck pair (seat 0's first): the seat alternates every game,
    the pair every other pair of games."""
    return i % 2, list(decks) if (i // 2) % 2 == 0 else list(decks)[::-1]


def schedule(games: int, decks: Sequence[str], search_deck: str | None = None) -> list[int]:
    """The indices of the games a match plays: the first ``games``, or the first ``games`` of those in which the
    search bot has ``search_deck``."""
    if search_deck is None:
        return list(range(games))
    if search_deck not in decks:
        raise SystemExit(
            f"bench.search: --search-deck {search_deck!r} is not one of the match's decks {list(decks)}; "
            "name one of them (or the pair with --decks)"
        )
    picked: list[int] = []
    i = 0
    while len(picked) < games:
        seat, pair = seats_and_decks(i, decks)
        if pair[seat] == search_deck:
            picked.append(i)
        i += 1
    return picked


def game(
    ruleset_name: str, opponent: str, i: int, seed: int, decks: Sequence[str], iterations: int = 0, bot: str = "search"
) -> tuple[bool, Clock]:
    """Game ``i`` of a match: whether the search bot (or ``bot`` in its seat: the baseline) won it, and the bots'
    decision times."""
    ruleset = get_ruleset(ruleset_name)
    factories: dict[str, Any] = dict(ruleset.agents())
    if iterations:
        factories["search"] = partial(factories["search"], iterations=iterations)
    clock = Clock()
    seat, pair = seats_and_decks(i, decks)
    bots = [bot, opponent] if seat == 0 else [opponent, bot]
    header = make_header(ruleset, seed + i, pair, bots, max_turns=ruleset.default_max_turns)
    agents = [
        Timed(factories[bot](p, rng), bot, clock)
        for p, (bot, rng) in enumerate(zip(bots, seat_rngs(header), strict=True))
    ]
    return play(ruleset, header, agents, None).winner == seat, clock


def match(
    ruleset_name: str,
    opponent: str,
    games: int,
    seed: int,
    decks: Sequence[str],
    clock: Clock,
    iterations: int = 0,
    jobs: int = 1,
    progress: bool = False,
    search_deck: str | None = None,
    bot: str = "search",
) -> Tally:
    """The search bot's record in ``games`` games against ``opponent`` (``iterations`` > 0: its budget, else its
    default), played in ``jobs`` processes (``search_deck``: only games where the search bot has that deck; ``bot``:
    another bot in its seat, the baseline); each game's decision times are added to ``clock``."""
    play_one = partial(game, ruleset_name, opponent, seed=seed, decks=list(decks), iterations=iterations, bot=bot)
    tally = Tally()
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        indices = schedule(games, decks, search_deck)
        results = pool.map(play_one, indices) if pool else map(play_one, indices)
        for n, (i, (won, game_clock)) in enumerate(zip(indices, results, strict=True), 1):
            seat, pair = seats_and_decks(i, decks)
            tally.add(pair[seat], won)
            clock.merge(game_clock)
            if progress:
                result = "won" if won else "lost"
                print(
                    f"{ruleset_name} {bot} vs {opponent}: game {n}/{games} (#{i} {result}), {bot} won {tally.won}",
                    file=sys.stderr,
                    flush=True,
                )
    return tally


def pairs(ruleset_name: str, decks: Sequence[str] | None, search_deck: str | None = None) -> list[list[str]]:
    """The deck pairs a run plays: ``decks`` if named, else the ruleset's default pair and its balanced one (with
    ``search_deck``, those of them that hold it)."""
    if decks:
        return [list(decks)]
    default = list(get_ruleset(ruleset_name).default_decks())
    balanced = BALANCED.get(ruleset_name)
    found = [default] if balanced is None else [default, list(balanced)]
    return [pair for pair in found if search_deck in pair] or found if search_deck else found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--ruleset", choices=RULESETS, default=None, help="one ruleset; default: both")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--decks", nargs=2, default=None, help="one pair of deck names; default: the default pair and a balanced one"
    )
    parser.add_argument("--iterations", type=int, default=0, help="the search budget; default: the bot's own")
    parser.add_argument("--opponent", choices=OPPONENTS, default=None, help="one opponent; default: both")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once (default 1)")
    parser.add_argument(
        "--search-deck", default=None, help="only the games where the search bot has this deck (one side's games)"
    )
    parser.add_argument("--progress", action="store_true", help="each game's result to standard error as it ends")
    parser.add_argument("--quick", action="store_true", help="2 games per opponent at 10 iterations (a smoke run)")
    args = parser.parse_args(argv)
    games = 2 if args.quick else args.games
    iterations = 10 if args.quick else args.iterations
    for name in [args.ruleset] if args.ruleset else RULESETS:
        clock = Clock()
        for decks in pairs(name, args.decks, args.search_deck):
            for opponent in [args.opponent] if args.opponent else OPPONENTS:
                run = partial(match, name, opponent, games, args.seed, decks, jobs=args.jobs, progress=args.progress)
                side = f" with {args.search_deck}" if args.search_deck else ""
                tally = run(clock=clock, iterations=iterations, search_deck=args.search_deck)
                print(f"{name}: search{side} vs {opponent} ({' / '.join(decks)}): {tally.line()}", flush=True)
                base = run(clock=Clock(), search_deck=args.search_deck, bot=BASELINE)
                print(f"{name}:   baseline, {BASELINE}{side} vs {opponent}, same games: {base.line()}", flush=True)
        search, cpu, ceiling = clock.mean("search"), clock.cpu_mean("search"), clock.mean("heuristic")
        ratio = search / ceiling if ceiling else float("inf")
        print(
            f"{name}: time per searched decision: search {search * 1000:.1f} ms (CPU {cpu * 1000:.1f} ms); "
            f"heuristic {ceiling * 1000:.3f} ms (search / heuristic: {ratio:.0f}x)",
            flush=True,
        )


if __name__ == "__main__":
    main()
