"""Miras 9's search bot: ISMCTS from the seat's view, rollouts by the heuristic bot cut off after a few turns.

A player loses when Battle Damage is owed and nothing pays it [M9-024], or at the start of their turn with Main Deck,
Resource and Used all empty [M9-023]; each point of Battle Damage is paid with 1 Echo or a card from Hand, Main Deck,
Resource or Used [M9-086]. So a seat's reserve (``reserve``) is what it has left to pay with, and the cut-off
evaluation (``evaluate``) is the race of the two reserves, with the Units on the board (their ATK and GRIT: the
Battle Damage to come, and what stops it) as a smaller term.
"""

from __future__ import annotations

import math
from typing import Any

from annals.engine.core import DecisionPoint
from annals.engine.forward import ForwardModel
from annals.engine.miras9.board import atk, grit
from annals.engine.miras9.bots import TAKE_BACK_POINTS, HeuristicAgent
from annals.engine.miras9.state import M9State
from annals.engine.names import SEARCH_ITERATIONS
from annals.engine.rng import Rng
from annals.engine.search.ismcts import Search, bot_choice, option_key, play_out
from annals.engine.search.miras9_worlds import sample_world
from annals.schemas.miras9 import TakeBack

ITERATIONS = SEARCH_ITERATIONS  # the default budget, named where the command line's help reads it
ROLLOUT_TURNS = 3  # turns a rollout plays before the cut-off evaluation
BOARD_WEIGHT = 0.5  # a point of ATK or GRIT on the board against a point of reserve
SCALE = 8.0  # the lead (in reserve points) at which a seat's winning chance is about 73%


def reserve(s: M9State, p: int) -> int:
    """What player ``p`` can still pay Battle Damage with [M9-086]: Echo and the cards of Hand, Main Deck,
    Resource and Used."""
    pl = s.players[p]
    return pl.echo + len(pl.hand) + len(pl.deck) + len(pl.resource) + len(pl.used)


def board(s: M9State, p: int) -> int:
    """The ATK and GRIT of the Units player ``p`` controls on the board."""
    total = 0
    for c in s.board:
        cs = s.cards[c]
        if cs.ctrl == p and s.pool[cs.cid].type == "unit":
            total += atk(s, cs) + grit(s, cs)
    return total


def evaluate(s: M9State) -> tuple[float, float]:
    """Each seat's winning chance at a cut-off: a logistic of the lead in reserve and board."""
    lead = (reserve(s, 0) - reserve(s, 1)) + BOARD_WEIGHT * (board(s, 0) - board(s, 1))
    first = 1.0 / (1.0 + math.exp(-lead / SCALE))
    return first, 1.0 - first


class Miras9SearchAgent:
    """Information-set MCTS (``engine.search.ismcts``) over worlds sampled from the seat's view state."""

    def __init__(self, player: int, rng: Rng, *, iterations: int = ITERATIONS):
        self.player = player
        self.rng = rng
        self.iterations = iterations
        self._rollout_bots = [HeuristicAgent(0, rng.fork(0)), HeuristicAgent(1, rng.fork(1))]
        self.last: Search | None = None  # the last decision's search (its tree, for review)

    def rollout(self, model: ForwardModel[Any], rng: Rng) -> tuple[float, float]:
        return play_out(model, self._rollout_bots, ROLLOUT_TURNS, evaluate)

    def _opponent(self, model: ForwardModel[Any]) -> Any:
        return bot_choice(model, self._rollout_bots)

    def observe(self, view: Any) -> None:
        """A view the seat decides from: nothing is kept (the worlds are dealt from each view alone)."""

    def knowledge(self) -> None:
        """What it has learned of the game so far: nothing (see ``observe``)."""

    def learn_from(self, knowledge: None) -> None:
        """Another bot's ``knowledge`` of this seat: nothing to take."""

    def search(self, view: Any, point: DecisionPoint[Any]) -> Search:
        """The search of one decision from the view state ``view`` (an ``M9State`` with hidden cards blanked)."""
        from annals.engine.registry import get_ruleset  # the registry imports the rulesets, which register this bot

        seat = self.player
        ruleset = get_ruleset("miras9")  # the rules read each state's own pool (``M9State.pool``)
        decks = [deck for _, deck in sorted(ruleset.decks().items())]
        search = Search(
            ruleset,
            seat,
            lambda rng: sample_world(view, seat, rng, decks),
            self.rollout,
            self.rng.fork(view.n),
            opponent=self._opponent,
        )
        search.run(point.options, self.iterations)
        self.last = search
        return search

    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        if point.point in TAKE_BACK_POINTS:  # a take-back undoes a pick [M9-074], [M9-076]: a bot that took one
            kept = [o for o in point.options if type(o) is not TakeBack]  # back could pick it again, for ever
            point = DecisionPoint(point.player, point.point, kept or point.options)
        if len(point.options) == 1:
            return point.options[0]
        ranked = self.search(state, point).ranked()
        if not ranked:
            return self._rollout_bots[self.player].choose(state, point)
        best = ranked[0][0]
        return next(o for o in point.options if option_key(o) == best)
