"""The heuristic MORANA bot (the uniformly random one is ``engine.agents.RandomAgent``).

It reads only what its player may know: its own hand and sealed cards, and the open board (face-up Power, Nav,
Slava); the opponent's face-down cards have no Power yet, and the look-ahead below removes them first. Each Commit
action is scored as the card's worth plus how much it changes a Site's outcome: taking a Site it is losing or tying
is worth most, piling onto a Site it already holds by a wide margin is worth little. The few best-scored actions
(and sealing now) are then played out through this turn's Dusk on a copy of the open board, as if the opponent
committed nothing more, and the bot takes the one that leaves it furthest ahead after the Rite's scoring (the score
breaking near-ties, since it also counts later turns). It stops when sealing now looks best.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from annals.engine.core import DecisionPoint
from annals.engine.morana.keywords import ward_after
from annals.engine.morana.reducer import apply
from annals.engine.morana.resolution import definition, targets, vigil_amount, ward_of
from annals.engine.morana.state import COMMIT_DONE, OFFBOARD_CAP, SITES, SLAVA_TO_WIN, MoranaState
from annals.engine.morana.turn import commit, dusk, site_power
from annals.engine.rng import Rng
from annals.engine.statecopy import clone
from annals.schemas.morana import Card, Done, Effect, Invoke, Place, Rebirth
from annals.schemas.records import instance_owner

_WORTH = {
    "slava": 2.0,
    "initiative": 0.5,
    "draw": 0.7,
    "script": 2.0,
    "none": 0.0,
}  # per unit, in Power-at-a-Site terms
_KILL = 2.0  # defeating a Spirit, on top of the Power its damage removes
_KEYWORD_WORTH = {"clash": 1.5, "ward": 0.8, "bloom": 1.2}  # per point of X
_EMBER = 0.15  # a nudge towards the cheaper of two equal plays
_INVOKE = 0.5  # the Invocation is once a game: keep it for a play worth more than this
_LOOKAHEAD = 4  # how many of the best-scored actions are played out through Dusk
_SCORE_WEIGHT = 0.05  # the score's share in the look-ahead's verdict
_POWER_WEIGHT = 0.15  # Power left on the board after Dusk, per point, against Slava
_NAV_WEIGHT = 0.1  # each of my Spirits sent to Nav


class HeuristicAgent:
    def __init__(self, player: int, rng: Rng):
        self.player = player
        self.rng = rng

    def _site_power(self, s: MoranaState) -> tuple[list[int], list[int]]:
        me = self.player
        mine = [0] * SITES
        theirs = [0] * SITES
        for k in range(SITES):
            for c in s.sites[me][k]:
                if c in s.power:
                    mine[k] += s.power[c]
                else:  # my own face-down card: I know it
                    mine[k] += definition(s, c).power
            theirs[k] = sum(s.power[c] for c in s.sites[1 - me][k] if c in s.power)
        return mine, theirs

    def _effects_worth(self, s: MoranaState, effects: list[Effect], site: int, card: int) -> float:
        me = self.player
        worth = 0.0
        for e in effects:
            if e.op == "damage":
                for t in targets(s, me, card, site, e.target):
                    dealt, _ = ward_after(e.amount, ward_of(s, t))
                    worth += min(dealt, s.power[t]) + (_KILL if dealt >= s.power[t] else 0.0)
            elif e.op == "boost":
                n = len(targets(s, me, card, site, e.target)) if e.target != "self" else 1
                worth += e.amount * max(1, n)
            elif e.op == "slava":
                worth += _WORTH["slava"] * min(
                    e.amount, max(0, OFFBOARD_CAP - s.offboard[me]), max(0, SLAVA_TO_WIN - s.slava[me])
                )
            else:
                worth += _WORTH[e.op] * max(1, e.amount)
        return worth

    def _card_worth(self, s: MoranaState, d: Card, effects: list[Effect], site: int, card: int) -> float:
        worth = self._effects_worth(s, effects, site, card)
        return worth + sum(w * d.keywords.get(k, 0) for k, w in _KEYWORD_WORTH.items())

    def _site_bonus(self, before: int, gain: int) -> float:
        """Taking a Site I lose or tie is worth most; a thin lead is worth making safe; piling onto a wide lead
        (more than 4) wastes the card."""
        after = before + gain
        if before <= 0 < after:
            return 5.0
        if before <= 0:
            return 1.5
        if before <= 2:
            return 2.0
        return -1.0 if before > 4 else 0.5

    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        s: MoranaState = state
        mine, theirs = self._site_power(s)
        options = point.options
        ranked = sorted(
            ((self.score(s, option, mine, theirs), i) for i, option in enumerate(options) if type(option) is not Done),
            key=lambda scored: (-scored[0], scored[1]),
        )
        best: Any = Done()
        if not ranked:
            return best
        best_value = self._after_dusk(s, None)
        for score, i in ranked[:_LOOKAHEAD]:
            option = options[i]
            value = self._after_dusk(s, option) + _SCORE_WEIGHT * score
            if value > best_value:
                best, best_value = option, value
        return best

    def _after_dusk(self, s: MoranaState, option: Any) -> float:
        """How far ahead I am after this turn's Dusk and Rite if I take ``option`` (None: seal now) and the
        opponent adds nothing: Slava, then Power on the board, less my Spirits lost to Nav."""
        board = self._open_copy(s)
        emit = partial(apply, board)
        if option is not None:
            commit(board, emit, option)
        board.committing = COMMIT_DONE
        dusk(board, emit)
        me, foe = self.player, 1 - self.player
        lead = float(board.slava[me] - board.slava[foe])
        for k in range(SITES):
            mine, theirs = site_power(board, me, k), site_power(board, foe, k)
            lead += (mine > theirs) - (theirs > mine)
            lead += _POWER_WEIGHT * (mine - theirs)
        return lead - _NAV_WEIGHT * len(board.nav[me])

    def _open_copy(self, s: MoranaState) -> MoranaState:
        """A copy of the state without what I cannot know: the opponent's sealed cards and Invocation. Copied by
        ``clone`` (equal field for field to a msgpack round trip, at a fraction of its cost: inside a search the
        heuristic chooses tens of thousands of times a decision)."""
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
            board.hand[foe].extend(hidden)  # back to a hand, so every card stays in one place
        board.invoking = [p for p in board.invoking if p == self.player]
        return board

    def score(self, s: MoranaState, option: Any, mine: list[int], theirs: list[int]) -> float:
        """What one Commit action is worth now (``Done`` is worth 0); ``mine``/``theirs`` from ``_site_power``."""
        t = type(option)
        if t is Invoke:
            return self._effects_worth(s, s.pool.wardens[s.wardens[self.player]].invocation, 0, -1) - _INVOKE
        if t is not Place and t is not Rebirth:
            return 0.0
        d = definition(s, option.card)
        k = option.site - 1
        if d.kind == "spirit":
            gain = d.power + vigil_amount(s, self.player, "reveal_boost")
            band = d.reborn if t is Rebirth else d.omen
            score = gain + self._card_worth(s, d, band, option.site, option.card)
            score += self._site_bonus(mine[k] - theirs[k], gain)
        elif any(e.op == "boost" and e.target == "allies_here" for e in d.omen) and not mine[k]:
            score = 0.0  # a boost for allies where I have none
        else:
            score = self._card_worth(s, d, d.omen, option.site, option.card)
        return score - _EMBER * (d.cost if t is Place else d.reborn_cost)
