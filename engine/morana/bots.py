"""The heuristic MORANA bot (the uniformly random one is ``engine.agents.RandomAgent``).

It reads only what its player may know: its own hand and sealed cards, and the open board (face-up Power, Nav,
Slava). Each Commit action is scored as the card's worth plus how much it changes a Site's outcome: taking a Site
it is losing or tying is worth most, piling onto a Site it already holds by a wide margin is worth little. It takes
the best action while one scores above zero, then seals.
"""

from __future__ import annotations

from typing import Any

from engine.core import DecisionPoint
from engine.morana.cards import pool
from engine.morana.resolution import definition, targets, vigil_amount
from engine.morana.state import OFFBOARD_CAP, SITES, MoranaState
from engine.rng import Rng
from schemas.morana import Card, Done, Effect, Invoke, Place, Rebirth

_WORTH = {"slava": 2.0, "initiative": 0.5, "draw": 0.7, "script": 2.0}  # per unit, in Power-at-a-Site terms
_KILL = 2.0  # defeating a Spirit, on top of the Power its damage removes
_KEYWORD_WORTH = {"clash": 1.5, "ward": 0.8, "bloom": 1.2}  # per point of X
_EMBER = 0.15  # a nudge towards the cheaper of two equal plays
_INVOKE = 0.5  # the Invocation is once a game: keep it for a play worth more than this


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
                    worth += min(e.amount, s.power[t]) + (_KILL if e.amount >= s.power[t] else 0.0)
            elif e.op == "boost":
                n = len(targets(s, me, card, site, e.target)) if e.target != "self" else 1
                worth += e.amount * max(1, n)
            elif e.op == "slava":
                worth += _WORTH["slava"] * min(e.amount, max(0, OFFBOARD_CAP - s.offboard[me]))
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
        best: Any = Done()
        best_score = 0.0
        for option in point.options:
            score = self.score(s, option, mine, theirs)
            if score > best_score:
                best, best_score = option, score
        return best

    def score(self, s: MoranaState, option: Any, mine: list[int], theirs: list[int]) -> float:
        """What one Commit action is worth now (``Done`` is worth 0); ``mine``/``theirs`` from ``_site_power``."""
        t = type(option)
        if t is Invoke:
            return self._effects_worth(s, pool().wardens[s.wardens[self.player]].invocation, 0, -1) - _INVOKE
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
