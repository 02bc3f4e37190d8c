"""Named hooks for cards too unusual for the effect vocabulary (a card's ``{ op = "script", hook = ... }``).

The engine core never names a card: a hook is looked up by the name in the card data, and it acts only through
``emit``, like every other rule. Each hook's docstring is its rules text. This module imports no rules code (the
card data imports it, to check hook names): what a hook needs to read, such as a card's definition, comes in its
``ScriptContext``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annals.schemas import morana as ev
from annals.schemas.morana import Card

# The state is a ``MoranaState``, typed Any here: the state module imports the card pool, which imports these hooks.
MoranaState = Any
Definition = Callable[[MoranaState, int], Card]  # (state, card instance) -> the card's definition


class ScriptContext:
    """What a hook may read and do: the state, the emitter, who is resolving what, where, and the card definitions."""

    __slots__ = ("card", "definition", "emit", "player", "site", "state", "step")

    def __init__(
        self,
        state: MoranaState,
        emit: Callable[[Any], None],
        step: str,
        player: int,
        card: int,
        site: int,
        definition: Definition,
    ):
        self.state, self.emit, self.step, self.player, self.card, self.site = state, emit, step, player, card, site
        self.definition = definition


def deathless(ctx: ScriptContext) -> None:
    """The card gains +1 Power for each Spirit in its owner's Nav (its Reborn band)."""
    s = ctx.state
    if ctx.card not in s.power:
        return
    amount = sum(1 for c in s.nav[ctx.player] if ctx.definition(s, c).kind == "spirit")
    if amount:
        current = s.power[ctx.card]
        ctx.emit(
            ev.PowerChanged(
                s.n, s.turn, ctx.step, ctx.player, "power", ctx.card, current + amount, amount, "boost", ctx.card
            )
        )


HOOKS: dict[str, Callable[[ScriptContext], None]] = {"deathless": deathless}
