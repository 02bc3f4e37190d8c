"""How much the MORANA search bot's belief knows of the opponent's hand: a diagnostic for issue 32, not a bot.

Run: ``python -m bench.morana_belief [--games N] [--seed S] [--search-deck NAME] [--fresh K] [--jobs J]``. Plays the
first N games of ``bench.search``'s schedule where the search bot has ``--search-deck`` (default clash) against
``heuristic``, and at the first decision of each turn's Commit once the belief has a turn explained, compares with
the opponent's true hand (read from the game, never by the bot):

* the hands of the hypotheses the belief keeps (what the worlds are dealt): the share of the true hand they hold,
  on average and the best of them; how often the best explains every flipped Commit (mismatch 0) and how many of
  those kept do;
* ``--fresh`` draw orders dealt afresh (each card shown drawn before it was played: the rules' logic alone, no
  opponent model), their share of the true hand, and the share of those that explain every play (a sample of the
  hypotheses the plays allow, even over them).

The gap between the fresh orders' share and the kept ones' is what replaying the opponent's Commits adds. Prints one
line of figures.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from functools import partial
from typing import NamedTuple

from annals.engine.morana.state import MoranaState
from annals.engine.rng import Rng
from annals.engine.runner import Game
from annals.engine.search.morana import MoranaSearchAgent
from annals.engine.search.morana_belief import KEEP, drawn, shown
from annals.schemas.records import CARDS_PER_PLAYER
from bench.morana_hidden import against_heuristic, games_arguments, games_chosen

QUICK = ["--games", "1", "--iterations", "20", "--fresh", "4"]  # that it runs, for tests: the figures mean nothing


class Reading(NamedTuple):
    """One turn's comparison (shares are of the true hand's cards)."""

    kept_share: float  # the hypotheses kept, on average
    best_share: float  # the best of them
    explained: bool  # the best-scored hypothesis explains every flipped Commit
    kept_explaining: int  # how many of those kept do
    fresh_share: float  # orders dealt afresh by the rules' logic alone, on average
    fresh_explaining: float  # the share of those that explain every flipped Commit
    allowed_share: float | None  # the share of the true hand held by those that do (None: none did)


def _share(order: list[str], n: int, seen: Counter[str], truth: Counter[str]) -> float:
    return ((Counter(order[:n]) - seen) & truth).total() / max(1, truth.total())


class Watched(MoranaSearchAgent):
    """The search bot, its belief compared with the true hand at each turn's first Commit decision."""

    def __init__(self, player: int, rng: Rng, game: list[Game], iterations: int, fresh: int):
        super().__init__(player, rng, iterations=iterations)
        self.game, self.fresh = game, fresh
        self.readings: list[Reading] = []
        self.read_turns: set[int] = set()

    def observe(self, view: MoranaState) -> None:
        super().observe(view)
        belief = self.belief
        if belief is None or not belief.explained or view.step != "commit" or view.turn in self.read_turns:
            return
        self.read_turns.add(view.turn)
        truth_state = self.game[0].state
        assert isinstance(truth_state, MoranaState)
        foe = 1 - self.player
        truth = Counter(truth_state.ids[foe][c % CARDS_PER_PLAYER] for c in truth_state.hand[foe])
        n, seen = drawn(view, foe), shown(view, foe)
        kept = [_share(order, n, seen, truth) for _, order in belief.kept]
        best = belief.kept[0][0] if belief.kept else -1
        deck = belief._deck(view)
        fresh: list[float] = []
        allowed: list[float] = []
        for _ in range(self.fresh if deck is not None else 0):
            order = belief._deal_order(deck or [])
            if order is None:
                continue
            fresh.append(_share(order, n, seen, truth))
            if belief._mismatch(order, self._world_of) == 0:
                allowed.append(fresh[-1])
        self.readings.append(
            Reading(
                statistics.mean(kept) if kept else 0.0,
                max(kept, default=0.0),
                best == 0,
                sum(score == 0 for score, _ in belief.kept),
                statistics.mean(fresh) if fresh else 0.0,
                len(allowed) / len(fresh) if fresh else 0.0,
                statistics.mean(allowed) if allowed else None,
            )
        )


def game(seed: int, iterations: int, fresh: int, decks: Sequence[str], i: int) -> list[Reading]:
    """The readings of game ``i`` of the schedule."""
    _, watched = against_heuristic(seed, decks, i, lambda p, rng, holder: Watched(p, rng, holder, iterations, fresh))
    readings: list[Reading] = watched.readings
    return readings


def main(argv: Sequence[str] | None = None) -> None:
    parser = games_arguments(__doc__)
    parser.add_argument("--fresh", type=int, default=60, help="orders dealt afresh per turn to compare with")
    args = parser.parse_args(argv)
    decks, indices, iterations = games_chosen(args)
    play_one = partial(game, args.seed, iterations, args.fresh, decks)
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        readings = [r for rs in (pool.map(play_one, indices) if pool else map(play_one, indices)) for r in rs]
    if not readings:
        print("morana belief: no turn explained in these games")
        return
    allowed = [r.allowed_share for r in readings if r.allowed_share is not None]

    def mean(values: Sequence[float], digits: int = 3) -> str:
        return f"{statistics.mean(values):.{digits}f}" if values else "-"

    print(
        f"morana belief, {len(readings)} turns of {len(indices)} games (search with {args.search_deck}, seeds"
        f" {args.seed} on): share of the true hand held by the hypotheses kept {mean([r.kept_share for r in readings])}"
        f" (the best of them {mean([r.best_share for r in readings])}), by fresh orders"
        f" {mean([r.fresh_share for r in readings])}, by fresh orders explaining every play {mean(allowed)};"
        f" the best kept explains every play in {sum(r.explained for r in readings) / len(readings):.1%} of turns,"
        f" {mean([r.kept_explaining for r in readings], 1)} of {KEEP} kept do;"
        f" fresh orders explaining every play {mean([r.fresh_explaining for r in readings])}"
    )


if __name__ == "__main__":
    main()
