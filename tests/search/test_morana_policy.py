"""The MORANA heuristic's look-ahead copy is the board it always read; the search's world pool hands out copies."""

from __future__ import annotations

from typing import Any

import msgspec

from annals.engine.botgames import seat_rngs
from annals.engine.core import DecisionPoint
from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import MoranaState
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.runner import play
from annals.engine.search.morana import WorldPool
from annals.engine.simulate import make_header

RULESET = get_ruleset("morana")


class _Checked:
    """The heuristic, checking at each real decision that its look-ahead copy (made by ``clone``) equals the one
    made from a msgpack round trip of the same board, the copy it once made, with the same cards hidden."""

    reads_view = True

    def __init__(self, player: int, rng: Rng, checked: list[bool]):
        self.agent, self.checked = HeuristicAgent(player, rng), checked

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        if len(point.options) > 1:
            copied = self.agent._open_copy(view)
            round_trip = msgspec.msgpack.decode(msgspec.msgpack.encode(view), type=MoranaState)
            self.checked.append(copied == self.agent._open_copy(round_trip) and copied is not view)
        return self.agent.choose(view, point)


def test_the_heuristics_look_ahead_copy_equals_a_msgpack_round_trip() -> None:
    checked: list[bool] = []
    for seed in (3, 4):
        header = make_header(RULESET, seed, ["clash", "glory"], ["heuristic", "heuristic"])
        play(RULESET, header, [_Checked(p, rng, checked) for p, rng in enumerate(seat_rngs(header))], None)
    assert len(checked) > 20 and all(checked)


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
