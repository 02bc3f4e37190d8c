"""What MORANA's hidden cards are worth to the search bot: a diagnostic for issue 32, not a benchmark of a bot.

Run: ``python -m bench.morana_hidden [--games N] [--seed S] [--search-deck NAME] [--modes M ...] [--jobs J]``. Plays
``bench.search``'s schedule against ``heuristic`` (the default pair; the first N games where the search bot has
``--search-deck``, default clash, each with its seed in the full schedule) once per mode, the search bot's worlds
dealt differently in each:

* ``random``: from the view, the opponent's hand dealt at random (the bot before its belief);
* ``belief``: from the view and the belief about the opponent's hand (the bot as it plays);
* ``sealed``: the true state with the opponent's hand and deck dealt again at random from its unseen cards, except
  the Commit it has sealed (which it keeps): what knowing only the sealed Commit is worth;
* ``hands``: the true state with both decks' order shuffled: what knowing the hands is worth;
* ``truth``: the true state.

Every mode but the first two reads the true state, which no player sees: they are upper bounds to aim a change at,
never a way to play. Prints each mode's wins, paired against ``random`` (games won by one and not the other).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from functools import partial
from typing import Any

from annals.engine.botgames import seat_rngs
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import MoranaState
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import Game, drive
from annals.engine.search.morana import PLAY_ITERATIONS, MoranaSearchAgent
from annals.engine.simulate import make_header
from annals.engine.statecopy import clone
from bench.search import schedule, seats_and_decks

MODES = ("random", "belief", "sealed", "hands", "truth")
QUICK = ["--games", "1", "--iterations", "20"]  # that it runs, for tests: the figures mean nothing


class Dealt(MoranaSearchAgent):
    """The search bot with its worlds dealt by ``mode`` (see the module's docstring); ``game`` is the game it plays,
    read by the modes that deal from the true state."""

    def __init__(self, player: int, rng: Rng, mode: str, game: list[Game], iterations: int):
        super().__init__(player, rng, iterations=iterations)
        self.mode, self.game = mode, game

    def observe(self, view: MoranaState) -> None:
        if self.mode != "random":
            super().observe(view)

    def _sample(self, view: MoranaState, decks: list[Any], rng: Rng) -> MoranaState:
        if self.mode in ("random", "belief"):
            return super()._sample(view, decks, rng)
        truth = clone(self.game[0].state)
        assert isinstance(truth, MoranaState)
        foe = 1 - self.player
        if self.mode in ("sealed", "hands"):
            mine = truth.deck[self.player]
            rng.shuffle(mine)
        if self.mode == "sealed":  # the opponent's unsealed cards dealt again between its hand and deck
            pool = truth.hand[foe] + truth.deck[foe]
            rng.shuffle(pool)
            size = len(truth.hand[foe])
            truth.hand[foe][:], truth.deck[foe][:] = pool[:size], pool[size:]
        elif self.mode == "hands":
            rng.shuffle(truth.deck[foe])
        return truth


def against_heuristic(
    seed: int, decks: Sequence[str], i: int, search: Callable[[int, Rng, list[Game]], Any]
) -> tuple[bool, Any]:
    """Game ``i`` of ``bench.search``'s schedule played against ``heuristic``, the search bot's seat taken by
    ``search(player, rng, holder)`` (``holder`` holds the game once it is made: what reads the true state reads it
    there): whether that seat won, and its agent."""
    ruleset = get_ruleset("morana")
    seat, pair = seats_and_decks(i, decks)
    bots = ["search", "heuristic"] if seat == 0 else ["heuristic", "search"]
    header = make_header(ruleset, seed + i, pair, bots, max_turns=ruleset.default_max_turns)
    holder: list[Game] = []
    agents: list[Any] = [
        search(p, rng, holder) if bot == "search" else HeuristicAgent(p, rng)
        for p, (bot, rng) in enumerate(zip(bots, seat_rngs(header), strict=True))
    ]
    holder.append(Game(ruleset, header, agents))
    return drive(holder[0], None).winner == seat, agents[seat]


def game(mode: str, seed: int, iterations: int, decks: Sequence[str], i: int) -> bool:
    """Whether the search bot, its worlds dealt by ``mode``, won game ``i`` of the schedule."""
    return against_heuristic(seed, decks, i, lambda p, rng, holder: Dealt(p, rng, mode, holder, iterations))[0]


def games_arguments(doc: str | None) -> argparse.ArgumentParser:
    """The options of the MORANA hidden-cards diagnostics: which games of the schedule, the search's budget and how
    many processes play them."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1001)
    parser.add_argument("--search-deck", default="clash")
    parser.add_argument("--iterations", type=int, default=0, help="the search's budget (0: the bot's own)")
    parser.add_argument("--jobs", type=int, default=1)
    return parser


def games_chosen(args: argparse.Namespace) -> tuple[list[str], list[int], int]:
    """The default pair of decks, the indices of the games to play and the search's budget, as ``args`` say."""
    decks = list(get_ruleset("morana").default_decks())
    return decks, schedule(args.games, decks, args.search_deck), args.iterations or PLAY_ITERATIONS


def main(argv: Sequence[str] | None = None) -> None:
    parser = games_arguments(__doc__)
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    args = parser.parse_args(argv)
    decks, indices, iterations = games_chosen(args)
    won: dict[str, list[bool]] = {}
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        for mode in args.modes:
            play_one = partial(game, mode, args.seed, iterations, decks)
            won[mode] = list(pool.map(play_one, indices) if pool else map(play_one, indices))
            base = won.get("random")
            paired = ""
            if base is not None and mode != "random":
                gained = sum(w and not b for w, b in zip(won[mode], base, strict=True))
                lost = sum(b and not w for w, b in zip(won[mode], base, strict=True))
                paired = f"; against random: {gained} won that it lost, {lost} lost that it won"
            print(
                f"morana hidden cards, {mode}: search with {args.search_deck} won {sum(won[mode])}/{len(indices)}"
                f" (seeds {args.seed} on){paired}",
                flush=True,
            )


if __name__ == "__main__":
    main()
