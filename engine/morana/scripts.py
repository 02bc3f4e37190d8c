"""Named hooks for cards too unusual for the effect vocabulary (a card's ``{ op = "script", hook = ... }``).

The engine core never names a card: a hook is looked up by the name in the card data, and it acts only through
``emit``, like every other rule. Each hook's docstring is its rules text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from annals.schemas import morana as ev

if TYPE_CHECKING:
    from annals.engine.morana.state import MoranaState


class ScriptContext:
    """What a hook may read and do: the state, the emitter, and who is resolving what, where."""

    __slots__ = ("card", "emit", "player", "site", "state", "step")

    def __init__(self, state: MoranaState, emit: Callable[[Any], None], step: str, player: int, card: int, site: int):
        self.state, self.emit, self.step, self.player, self.card, self.site = state, emit, step, player, card, site


def deathless(ctx: ScriptContext) -> None:
    """The card gains +1 Power for each Spirit in its owner's Nav (its Reborn band)."""
    s = ctx.state
    if ctx.card not in s.power:
        return
    amount = _spirits_in_nav(s, ctx.player)
    if amount:
        current = s.power[ctx.card]
        ctx.emit(
            ev.PowerChanged(
                s.n, s.turn, ctx.step, ctx.player, "power", ctx.card, current + amount, amount, "boost", ctx.card
            )
        )


def _spirits_in_nav(s: MoranaState, player: int) -> int:
    from annals.engine.morana.resolution import definition

    return sum(1 for c in s.nav[player] if definition(s, c).kind == "spirit")


HOOKS: dict[str, Callable[[ScriptContext], None]] = {"deathless": deathless}
