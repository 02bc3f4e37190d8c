"""Toy ruleset (Nim): players alternately take 1-3 counters from one pile; who takes the last one wins.

Not a game anyone records: it is the smallest ruleset that uses every part of the shared core (chance events,
turns, decision points, the reducer, the log), so the core's tests do not depend on a real ruleset, and it shows
a new ruleset's shape in fifty lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from annals.engine.agents import RandomAgent
from annals.engine.core import AgentFactory, CardInfo, DecisionPoint, Emit, GameState, Position, Reducer
from annals.engine.rng import Rng
from annals.schemas.header import DeckList, LogHeader
from tests.toyrules.toy_schema import SCHEMA, FirstPlayerChosen, GameOver, PileShuffled, Take, Took, TurnBegan

NO_PLAYER = -1


class NimState(GameState, kw_only=True):
    pile: int = 0
    active: int = 0
    taken: list[int] = []


def _shuffled(s: NimState, e: PileShuffled) -> None:
    s.pile = e.size
    s.taken = [0, 0]


def _first(s: NimState, e: FirstPlayerChosen) -> None:
    s.active = e.first


def _turn(s: NimState, e: TurnBegan) -> None:
    s.turn, s.step, s.active = e.turn, e.step, e.player


def _took(s: NimState, e: Took) -> None:
    s.pile = e.left
    s.taken[e.player] += e.amount


def _over(s: NimState, e: GameOver) -> None:
    s.over, s.winner, s.end_reason = True, e.winner, e.reason


class NimRuleset:
    schema = SCHEMA
    state_type = NimState
    default_max_turns = 0  # every take shrinks the pile
    apply = Reducer[NimState](
        {PileShuffled: _shuffled, FirstPlayerChosen: _first, TurnBegan: _turn, Took: _took, GameOver: _over}
    )

    def check_position(self, state: Any, fields: Any) -> None:
        """A position file's state against its domains (``tests/toyrules/position_checks.py``)."""
        from tests.toyrules.position_checks import toy

        toy(state, fields)

    def card_pool_hash(self) -> str:
        return "none"

    def new_state(self, header: LogHeader) -> NimState:
        if header.start_position:  # a game continued from a position file
            return msgspec.msgpack.decode(header.start_position, type=NimState)
        return NimState()

    def pending(self, s: NimState) -> DecisionPoint[Take] | None:
        if s.step != "take" or s.over:
            return None
        return DecisionPoint(s.active, "take", [Take(k) for k in range(1, min(3, s.pile) + 1)])

    def advance(self, s: NimState, choice: Any, emit: Emit, rng: Rng) -> None:
        if s.step == "setup" and s.n == 0:
            emit(PileShuffled(s.n, 0, "setup", NO_PLAYER, 10 + rng.below(11)))
            emit(FirstPlayerChosen(s.n, 0, "setup", NO_PLAYER, rng.below(2)))
            emit(TurnBegan(s.n, 1, "take", s.active))
            return
        assert isinstance(choice, Take)
        emit(Took(s.n, s.turn, s.step, s.active, choice.amount, s.pile - choice.amount))
        if s.pile == 0:
            emit(GameOver(s.n, s.turn, "end", NO_PLAYER, s.active, "took_last"))
        else:
            emit(TurnBegan(s.n, s.turn + 1, "take", 1 - s.active))

    def redact(self, event: Any, viewer: int) -> Any:
        return event  # Nim has no hidden information

    def set_card_id(self, s: NimState, card: int, card_id: str) -> None:
        pass  # a pile of tokens: no card definitions

    def position(self, s: NimState) -> Position:
        return Position({}, {"-1:pile": s.pile})

    def agents(self) -> Mapping[str, AgentFactory]:
        return {"random": RandomAgent}

    def cards(self) -> Mapping[str, CardInfo]:
        return {}  # Nim has no cards

    def decks(self) -> Mapping[str, DeckList]:
        return {"pile": DeckList("pile", [])}

    def default_decks(self) -> tuple[str, str]:
        return ("pile", "pile")


RULESET = NimRuleset()
