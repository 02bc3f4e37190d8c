"""MORANA's cut-off evaluation for the search bot: a winning chance fitted on the outcomes of games.

At a rollout's cut-off (the start of a turn's Commit, after Dawn) the position is described by a few margins of
player 0 over player 1 (``features``): Slava [MOR-05], Sites held now (each scores again at the next Rites while it
is held [MOR-17]), Power at each Site (what holds a Site next turn; per Site capped, since piling on is wasted),
cards in hand, and Spirits in Nav (each can come back [MOR-21]), each margin of the board also multiplied by the
Rites still to come; all divided by the square root of those Rites, so the same margin decides more as the game
runs out. A logistic regression of the winner on them gives the weights below (``bench.morana_eval``, which plays
the games and refits them).
"""

from __future__ import annotations

import math

from annals.engine.morana.state import LAST_TURN, SITES, SLAVA_TO_WIN, MoranaState
from annals.engine.morana.turn import site_power
from annals.schemas.records import CARDS_PER_PLAYER

POWER_CAP = 6  # a Site's Power margin counted up to this much either way

NAMES = ("seat", "slava", "held", "held_left", "power", "power_left", "hand", "hand_left", "nav")

# Fitted by ``python -m bench.morana_eval --games 6000 --decks clash glory`` (heuristic against heuristic, the
# benchmark's pair both ways round, seeds 1..6000): held-out log-loss 0.402 (79.5% right) against the hand-set
# evaluation's 0.462 (77.9%).
WEIGHTS = (-0.0031, 1.6055, 0.0186, 0.0363, 0.0666, 0.1206, -0.2635, 0.1026, 0.6605)


def features(s: MoranaState) -> list[float]:
    """The margins of player 0 over player 1 at ``s`` (see the module's docstring), in the order of ``NAMES``."""
    left = max(1, LAST_TURN - s.turn + (s.step == "commit"))  # Rites still to come (1 at worst: no division by 0)
    held = 0
    power = 0
    for k in range(SITES):
        mine, theirs = site_power(s, 0, k), site_power(s, 1, k)
        held += (mine > theirs) - (theirs > mine)
        power += max(-POWER_CAP, min(POWER_CAP, mine - theirs))
    pool, ids = s.pool.cards, s.ids
    nav = [sum(pool[ids[p][c % CARDS_PER_PLAYER]].kind == "spirit" for c in s.nav[p]) for p in (0, 1)]
    hand = len(s.hand[0]) - len(s.hand[1])
    shrink = 1.0 / math.sqrt(left)
    return [
        1.0,
        (s.slava[0] - s.slava[1]) * shrink,
        held * shrink,
        held * left * shrink,
        power * shrink,
        power * left * shrink,
        hand * shrink,
        hand * left * shrink,
        (nav[0] - nav[1]) * shrink,
    ]


def chance(weights: tuple[float, ...] | list[float], x: list[float]) -> float:
    """The logistic curve of the weighted features: player 0's winning chance."""
    z = sum(w * f for w, f in zip(weights, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def evaluate(s: MoranaState) -> tuple[float, float]:
    """Each seat's winning chance at a cut-off (certain once a seat has 13 Slava)."""
    ahead = (s.slava[0] >= SLAVA_TO_WIN) - (s.slava[1] >= SLAVA_TO_WIN)
    if ahead:
        return (1.0, 0.0) if ahead > 0 else (0.0, 1.0)
    first = chance(WEIGHTS, features(s))
    return first, 1.0 - first
