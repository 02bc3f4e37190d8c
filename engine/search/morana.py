"""MORANA's search bot: ISMCTS from the seat's view, rollouts by the heuristic bot cut off after a few turns."""

from __future__ import annotations

from typing import Any

from annals.engine.core import DecisionPoint
from annals.engine.forward import ForwardModel
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import SLAVA_TO_WIN, MoranaState
from annals.engine.names import SEARCH_ITERATIONS
from annals.engine.rng import Rng
from annals.engine.search.ismcts import Search, option_key
from annals.engine.search.morana_worlds import sample_world

ITERATIONS = SEARCH_ITERATIONS  # the default budget, named where the command line's help reads it
ROLLOUT_TURNS = 3  # turns a rollout plays before the cut-off evaluation


def evaluate(s: MoranaState) -> tuple[float, float]:
    """Each seat's winning chance at a cut-off: its share of the Slava race (13 wins [MOR-03])."""
    lead = (s.slava[0] - s.slava[1]) / (2 * SLAVA_TO_WIN)
    first = min(1.0, max(0.0, 0.5 + lead))
    return first, 1.0 - first


class MoranaSearchAgent:
    """Information-set MCTS (``engine.search.ismcts``) over worlds sampled from the seat's view state."""

    def __init__(self, player: int, rng: Rng, *, iterations: int = ITERATIONS):
        self.player = player
        self.rng = rng
        self.iterations = iterations
        self._rollout_bots = [HeuristicAgent(0, rng.fork(0)), HeuristicAgent(1, rng.fork(1))]
        self.last: Search | None = None  # the last decision's search (its tree, for review)

    def rollout(self, model: ForwardModel[Any], rng: Rng) -> tuple[float, float]:
        state: MoranaState = model.state
        stop = state.turn + ROLLOUT_TURNS
        while not model.is_over() and state.turn < stop:
            point = model.decision()
            assert point is not None
            model.step(self._rollout_bots[point.player].choose(state, point))
        if model.is_over():
            winner = model.winner()
            return (0.5, 0.5) if winner < 0 else ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
        return evaluate(state)

    def _opponent(self, model: ForwardModel[Any]) -> Any:
        point = model.decision()
        assert point is not None
        return self._rollout_bots[point.player].choose(model.state, point)

    def search(self, view: Any, point: DecisionPoint[Any]) -> Search:
        """The search of one decision from the view state ``view`` (a ``MoranaState`` with hidden cards blanked)."""
        from annals.engine.registry import get_ruleset  # the registry imports the rulesets, which register this bot

        seat = self.player
        ruleset = get_ruleset("morana")
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
        if len(point.options) == 1:
            return point.options[0]
        ranked = self.search(state, point).ranked()
        if not ranked:
            return self._rollout_bots[self.player].choose(state, point)
        best = ranked[0][0]
        return next(o for o in point.options if option_key(o) == best)
