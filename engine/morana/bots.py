"""The heuristic MORANA bot (the uniformly random one is ``engine.agents.RandomAgent``).

It reads only what its player may know: its own hand and sealed cards, and the open board (face-up Power, Nav,
Slava). Each Commit action is scored as the card's worth plus how much it changes a Site's outcome: taking a Site
it is losing or tying is worth most, piling onto a Site it already holds by a wide margin is worth little. It takes
the best action while one scores above zero, then seals.
"""

from __future__ import annotations

from typing import Any

from engine.core import DecisionPoint
from engine.morana.resolution import definition, targets, vigil_amount
from engine.morana.state import MoranaState
from engine.rng import Rng
from schemas.morana import Card, Done, Effect, Invoke, Place, Rebirth

_WORTH = {"slava": 2.0, "initiative": 0.5, "draw": 0.7, "script": 2.0}


class HeuristicAgent:
    def __init__(self, player: int, rng: Rng):
        self.player = player
        self.rng = rng

    def _site_power(self, s: MoranaState) -> tuple[list[int], list[int]]:
        me = self.player
        mine = [0, 0, 0]
        theirs = [0, 0, 0]
        for k in range(3):
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
                    worth += min(e.amount, s.power[t]) + (2.0 if e.amount >= s.power[t] else 0.0)
            elif e.op == "boost":
                n = len(targets(s, me, card, site, e.target)) if e.target != "self" else 1
                worth += e.amount * max(1, n)
            elif e.op == "slava":
                worth += _WORTH["slava"] * min(e.amount, max(0, 4 - s.offboard[me]))
            else:
                worth += _WORTH[e.op] * max(1, e.amount)
        return worth

    def _card_worth(self, s: MoranaState, d: Card, effects: list[Effect], site: int, card: int) -> float:
        worth = self._effects_worth(s, effects, site, card)
        worth += 1.5 * d.keywords.get("clash", 0) + 0.8 * d.keywords.get("ward", 0) + 1.2 * d.keywords.get("bloom", 0)
        return worth

    def _site_bonus(self, before: int, gain: int) -> float:
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
        me = self.player
        mine, theirs = self._site_power(s)
        best: Any = None
        best_score = 0.0
        for opt in point.options:
            t = type(opt)
            if t is Place or t is Rebirth:
                d = definition(s, opt.card)
                k = opt.site - 1
                if d.kind == "spirit":
                    gain = d.power + vigil_amount(s, me, "reveal_boost")
                    band = d.reborn if t is Rebirth else d.omen
                    score = gain + self._card_worth(s, d, band, opt.site, opt.card)
                    score += self._site_bonus(mine[k] - theirs[k], gain)
                else:
                    score = self._card_worth(s, d, d.omen, opt.site, opt.card)
                    if any(e.op == "boost" and e.target.startswith("allies_here") for e in d.omen) and not mine[k]:
                        score = 0.0
                cost = d.cost if t is Place else d.reborn_cost
                score -= 0.15 * cost
            elif t is Invoke:
                from engine.morana.cards import pool

                score = self._effects_worth(s, pool().wardens[s.wardens[me]].invocation, 0, -1) - 0.5
            else:
                continue
            if score > best_score:
                best, best_score = opt, score
        return best if best is not None else Done()
