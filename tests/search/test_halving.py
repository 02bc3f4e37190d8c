"""The search bot's root (sequential halving over paired worlds) keeps the option that wins and compares options in
the same worlds: a MORANA Commit decision [MOR-15] with a rollout that knows which placement wins."""

from __future__ import annotations

from typing import Any

from annals.engine.botgames import seat_rngs
from annals.engine.forward import ForwardModel
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import MoranaState
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import Game
from annals.engine.search.ismcts import Search, option_key
from annals.engine.simulate import make_header
from annals.schemas.morana import Done, Place

RULESET = get_ruleset("morana")


def _commit_of_seat0() -> tuple[MoranaState, list[Any]]:
    """A heuristic game's state at a Commit decision of seat 0 with several placements offered."""
    header = make_header(RULESET, 7, ["clash", "glory"], ["heuristic", "heuristic"])
    game = Game(RULESET, header, [HeuristicAgent(p, rng) for p, rng in enumerate(seat_rngs(header))])
    while True:
        point = RULESET.pending(game.state)
        if point is not None and point.player == 0 and sum(type(o) is Place for o in point.options) >= 5:
            assert isinstance(game.state, MoranaState)
            return game.state, list(point.options)
        game.step()


def test_halving_keeps_the_winning_option_and_searches_the_options_in_the_same_worlds() -> None:
    state, options = _commit_of_seat0()
    target = [o for o in options if type(o) is Place][3]  # not the first offered: the order does not pick it
    worlds: list[int] = []

    def sample(rng: Rng) -> MoranaState:
        worlds.append(rng.below(1000))  # each world's own noise, drawn when it is sampled
        return state

    def rollout(model: ForwardModel[Any], rng: Rng) -> tuple[float, float]:
        s = model.state
        # the target placed (that card at that Site): a sure win; anything else: a coin the world decides
        won = (target.card, target.site) in zip(s.sealed, s.sealed_sites, strict=True)
        noise = (worlds[-1] % 100) / 100
        first = 1.0 if won else noise * 0.9
        return first, 1.0 - first

    search = Search(RULESET, 0, sample, rollout, Rng(3))
    kept = [*[o for o in options if type(o) is Place][:6], Done()]  # the target among them
    search.run_halving(kept, 120)
    assert search.best == option_key(target)
    assert search.ranked()[0][0] == option_key(target)
    # 7 options, 3 rounds of 40 iterations: 5 + 10 + 20 worlds, each searched once per option still in
    assert len(worlds) == 40 // 7 + 40 // 4 + 40 // 2
    visits = {key: node.visits for key, node in search.root.children.items()}
    assert visits[option_key(target)] == len(worlds)  # in every round, in every world
    assert sorted(visits.values())[:3] == [40 // 7] * 3  # three out after the first round
