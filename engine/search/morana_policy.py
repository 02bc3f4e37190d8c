"""The heuristic MORANA bot as the search's opponent model and rollout policy, copying its boards by ``clone``.

``HeuristicAgent`` looks ahead on a copy of the open board made by a msgpack round trip (it must stand alone,
outside any search); inside a search it chooses tens of thousands of times a decision, and ``statecopy.clone``
copies the same board for a fraction of that. The choices are the heuristic's own: the copy it reads is equal
field for field (its card pool is the same object rather than a rebuilt equal one), and what it hides is hidden
the same way.
"""

from __future__ import annotations

from annals.engine.morana.bots import HeuristicAgent
from annals.engine.morana.state import MoranaState
from annals.engine.statecopy import clone
from annals.schemas.records import instance_owner


class CloningHeuristic(HeuristicAgent):
    def _open_copy(self, s: MoranaState) -> MoranaState:
        """``HeuristicAgent._open_copy``, by ``clone``: the opponent's sealed cards back to its hand, its
        Invocation unknown."""
        board = clone(s)
        foe = 1 - self.player
        hidden = [c for c in board.sealed if instance_owner(c) == foe]
        if hidden:
            for cards in board.sites[foe]:
                cards[:] = [c for c in cards if c not in hidden]
            kept = [i for i, c in enumerate(board.sealed) if c not in hidden]
            board.sealed = [board.sealed[i] for i in kept]
            board.sealed_sites = [board.sealed_sites[i] for i in kept]
            board.reborning = [c for c in board.reborning if c not in hidden]
            board.hand[foe].extend(hidden)
        board.invoking = [p for p in board.invoking if p == self.player]
        return board
