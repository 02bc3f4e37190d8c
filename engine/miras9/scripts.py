"""Named hooks for cards the effect vocabulary cannot express (Showdown-style): one function per unique card.

A hook receives the state, ``emit``, the source card, its controller, the chosen target (0: none) and the
``effects`` module (the primitives, passed in so this module imports no rules code). Hooks change the game only
through those primitives, so every change is still an event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annals.engine.miras9.choices import Bounce

Hook = Callable[[Any, Any, int, int, int, Any], None]
BOUNCE = Bounce()


def tidal_recall(s: Any, emit: Any, src: int, ctrl: int, target: int, fx: Any) -> None:
    """Tidal Recall: return each tapped enemy Unit with GRIT 2 or less to its owner's Hand."""
    for cs in fx.units(s):
        if cs.ctrl != ctrl and cs.tapped and fx.grit(s, cs) <= 2:
            fx.resolve(s, emit, [BOUNCE], src, ctrl, cs.iid)


def echo_siphon(s: Any, emit: Any, src: int, ctrl: int, target: int, fx: Any) -> None:
    """Echo Siphon: the opponent loses 1 Echo per friendly Unit in the current wave; you gain what they lost."""
    w = s.wave
    if w is None:
        return
    mine = sum(1 for c in fx.combatants(w) if s.cards[c].ctrl == ctrl)
    foe = s.players[1 - ctrl]
    taken = min(mine, foe.echo)
    if taken:
        fx.set_echo(s, emit, 1 - ctrl, foe.echo - taken, "script")
        fx.set_echo(s, emit, ctrl, s.players[ctrl].echo + taken, "script")


def last_stand(s: Any, emit: Any, src: int, ctrl: int, target: int, fx: Any) -> None:
    """Last Stand: each friendly combatant gets +1 ATK this turn for each enemy combatant."""
    w = s.wave
    if w is None:
        return
    members = [s.cards[c] for c in fx.combatants(w)]
    enemies = sum(1 for cs in members if cs.ctrl != ctrl)
    for cs in members:
        if cs.ctrl == ctrl and enemies:
            fx.counter(s, emit, cs, "atk_mod", cs.atk_mod + enemies, "script")


HOOKS: dict[str, Hook] = {
    "tidal_recall": tidal_recall,
    "echo_siphon": echo_siphon,
    "last_stand": last_stand,
}
