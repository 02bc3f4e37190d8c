"""The search's copy of the MORANA heuristic chooses as the heuristic does; the world pool hands out copies."""

from __future__ import annotations

from typing import Any

from annals.engine.botgames import seat_rngs
from annals.engine.core import DecisionPoint
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import MoranaState
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import play
from annals.engine.search.morana import WorldPool
from annals.engine.search.morana_policy import CloningHeuristic
from annals.engine.simulate import make_header

RULESET = get_ruleset("morana")


class _Both:
    """Plays the heuristic and records, at each real decision, whether the cloning copy chose the same."""

    reads_view = True

    def __init__(self, player: int, rng: Rng, agreed: list[bool]):
        self.plain, self.cloning, self.agreed = HeuristicAgent(player, rng), CloningHeuristic(player, rng), agreed

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        choice = self.plain.choose(view, point)
        if len(point.options) > 1:
            self.agreed.append(self.cloning.choose(view, point) == choice)
        return choice


def test_the_cloning_heuristic_chooses_as_the_heuristic() -> None:
    agreed: list[bool] = []
    for seed in (3, 4):
        header = make_header(RULESET, seed, ["clash", "glory"], ["heuristic", "heuristic"])
        play(RULESET, header, [_Both(p, rng, agreed) for p, rng in enumerate(seat_rngs(header))], None)
    assert len(agreed) > 20 and all(agreed)


def test_the_world_pool_samples_its_size_then_hands_out_copies_in_turn() -> None:
    sampled: list[MoranaState] = []

    def sample(rng: Rng) -> MoranaState:
        sampled.append(MoranaState(slava=[len(sampled), 0]))
        return sampled[-1]

    pool = WorldPool(sample, 3)
    worlds = [pool(Rng(1)) for _ in range(7)]
    assert len(sampled) == 3
    assert [w.slava[0] for w in worlds] == [0, 1, 2, 0, 1, 2, 0]
    assert all(w is not s for w in worlds for s in sampled)
    worlds[4].slava[0] = 99  # a copy searched changes nothing in the pool
    assert sampled[1].slava[0] == 1
