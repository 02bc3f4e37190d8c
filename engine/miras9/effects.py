"""The closed vocabulary of effect primitives, their resolution, triggered abilities, and defeat.

* [M9-006] instructions resolve in written order.
* [M9-112] "self" is the source, "you" its controller, "opponent" the other player.
* [M9-111] an effect whose target became illegal resolves without affecting it.
* [M9-108] triggered abilities fire when their event occurs and resolve at once, in written order.
* [M9-084] a Unit is defeated when its wounds reach its effective GRIT; [M9-109] replacement: a card's "instead"
  replaces its defeat (once per turn, tracked per card [M9-044]). Defeat lives here, not in ``damage``, because it
  fires the "defeated" triggers and the DefeatEff primitive defeats: the two call each other.

Card scripts receive this module as ``fx``: the names in ``__all__`` are what they may use.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Final

from annals.engine.core import Emit
from annals.engine.miras9 import scripts
from annals.engine.miras9.board import (
    counter,
    defn,
    draw,
    grit,
    grit_reached,
    is_unit,
    leave_wave,
    make_token,
    set_echo,
    unit_lanes,
    units,
)
from annals.engine.miras9.choices import (
    Boost,
    Bounce,
    DefeatEff,
    Draw,
    Escape,
    GainEcho,
    GenerateEff,
    Heal,
    MakeToken,
    Mill,
    NoEffect,
    ReadyEff,
    Script,
    Shield,
    Spot,
    TapEff,
    Withdraw,
    Wound,
)
from annals.engine.miras9.damage import deal, leave_board
from annals.engine.miras9.escape import destinations
from annals.engine.miras9.events import CardMoved, ReplacementApplied, TriggerFired
from annals.engine.miras9.movement import spot
from annals.engine.miras9.shipsites import is_ship_site
from annals.engine.miras9.state import (
    LOC_NAMES,
    REPLACEMENT,
    ZONE_LOC,
    CardState,
    M9State,
    Spent,
    combatants,
    lane_of,
    loc_of,
    side_of,
)
from annals.schemas import miras9 as sm


def _card_of(s: M9State, to: str, src: int, target: int) -> CardState | None:
    if to == "target":
        c = target
    elif to == "self":
        c = src
    elif to == "host":
        c = s.cards[src].host if src in s.cards else 0
    else:
        return None
    cs = s.cards.get(c) if c else None
    if cs is not None and to == "self" and is_ship_site(s, cs):  # a Ship-Site's ability on itself (R-M9-59)
        return cs
    return cs if cs is not None and is_unit(s, cs) else None


def _player_of(s: M9State, to: str, ctrl: int, target: int) -> int | None:
    """The player an effect applies to; None for "target" when there is no legal target left [M9-111]."""
    if to == "opponent":
        return 1 - ctrl
    if to == "target":
        return s.cards[target].ctrl if target in s.cards else None
    return ctrl


Prim = Callable[[M9State, Emit, Any, int, int, int], None]


def _wound(s: M9State, emit: Emit, e: sm.Wound, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        deal(s, emit, src, cs, e.amount, "effect")


def _heal(s: M9State, emit: Emit, e: sm.Heal, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        counter(s, emit, cs, "wounds", max(0, cs.wounds - e.amount))


def _shield(s: M9State, emit: Emit, e: sm.Shield, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        counter(s, emit, cs, "shield", cs.shield + e.amount)


def _boost(s: M9State, emit: Emit, e: sm.Boost, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        if e.atk:
            counter(s, emit, cs, "atk_mod", cs.atk_mod + e.atk)
        if e.grit:
            counter(s, emit, cs, "grit_mod", cs.grit_mod + e.grit)


def _gain_echo(s: M9State, emit: Emit, e: sm.GainEcho, src: int, ctrl: int, target: int) -> None:
    p = _player_of(s, e.to, ctrl, target)
    if p is not None:
        set_echo(s, emit, p, s.players[p].echo + e.amount, "effect")


def _draw(s: M9State, emit: Emit, e: sm.Draw, src: int, ctrl: int, target: int) -> None:
    p = _player_of(s, e.to, ctrl, target)
    if p is not None:
        draw(s, emit, p, e.amount)


def _generate(s: M9State, emit: Emit, e: sm.GenerateEff, src: int, ctrl: int, target: int) -> None:
    p = _player_of(s, e.to, ctrl, target)
    if p is not None:
        draw(s, emit, p, e.amount, "resource", "generate")


def _ready(s: M9State, emit: Emit, e: sm.ReadyEff, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        counter(s, emit, cs, "tapped", 0)


def _tap(s: M9State, emit: Emit, e: sm.TapEff, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        counter(s, emit, cs, "tapped", 1)


def _defeat(s: M9State, emit: Emit, e: sm.DefeatEff, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        defeat(s, emit, cs)


def _bounce(s: M9State, emit: Emit, e: sm.Bounce, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        leave_board(s, emit, cs, "hand", "bounce")


def _withdraw(s: M9State, emit: Emit, e: sm.Withdraw, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        leave_wave(s, emit, cs)


def _escape(s: M9State, emit: Emit, e: sm.Escape, src: int, ctrl: int, target: int) -> None:
    """[M9-117] out of the wave to the announced destination, still legal now; its Equipment goes with it."""
    cs = _card_of(s, e.to, src, target)
    if s.edition == 1 and cs is not None:  # Escape Route's edition-1 text: it leaves the wave (ruling R-M9-45)
        leave_wave(s, emit, cs)
        return
    dest = s.stack[-1].dest if s.stack else -1
    if cs is None or dest not in destinations(s, cs, list(e.traits), ctrl):
        return
    leave_wave(s, emit, cs)
    old, new = cs.zone, LOC_NAMES[dest]
    emit(CardMoved(s.n, s.turn, s.step, cs.ctrl, cs.iid, old, new, "escape", 0))
    cards = s.cards
    for c in list(s.board):
        if cards[c].host == cs.iid:
            emit(CardMoved(s.n, s.turn, s.step, cards[c].ctrl, c, old, new, "escape", cs.iid))


def _token(s: M9State, emit: Emit, e: sm.MakeToken, src: int, ctrl: int, target: int) -> None:
    # beside its source when that stands on its controller's half, else at the controller's Exterior; then moved to
    # the first lane its trait may use [M9-059] (a Drone made in the Interior appears in the Exterior)
    cs = s.cards.get(src)
    loc = cs.loc if cs is not None and cs.loc >= 0 and side_of(cs.loc) == ctrl else loc_of(ctrl, 0)
    lanes = unit_lanes(s.pool[e.card_id])
    if lane_of(loc) not in lanes:
        loc = loc_of(ctrl, lanes[0])
    make_token(s, emit, e.card_id, ctrl, loc)


def _mill(s: M9State, emit: Emit, e: sm.Mill, src: int, ctrl: int, target: int) -> None:
    p = _player_of(s, e.to, ctrl, target)
    if p is not None:
        draw(s, emit, p, e.amount, "discard", "mill")


def _nothing(s: M9State, emit: Emit, e: sm.NoEffect, src: int, ctrl: int, target: int) -> None:
    pass  # an explicit "no effect": the slot is filled, nothing happens


def _script(s: M9State, emit: Emit, e: sm.Script, src: int, ctrl: int, target: int) -> None:
    scripts.HOOKS[e.name](s, emit, src, ctrl, target, sys.modules[__name__])


def _spot(s: M9State, emit: Emit, e: sm.Spot, src: int, ctrl: int, target: int) -> None:
    spot(s, emit, src, ctrl, target if e.to == "target" else src)


PRIMITIVES: Final[dict[type[Any], Prim]] = {
    Wound: _wound,
    Heal: _heal,
    Shield: _shield,
    Boost: _boost,
    GainEcho: _gain_echo,
    Draw: _draw,
    GenerateEff: _generate,
    ReadyEff: _ready,
    TapEff: _tap,
    DefeatEff: _defeat,
    Bounce: _bounce,
    Withdraw: _withdraw,
    MakeToken: _token,
    Escape: _escape,
    Script: _script,
    Spot: _spot,
    Mill: _mill,
    NoEffect: _nothing,
}


def resolve(s: M9State, emit: Emit, effects: list[Any], src: int, ctrl: int, target: int) -> None:
    """[M9-006] each instruction in written order; an illegal target (0) is simply not affected [M9-111]."""
    for eff in effects:
        if s.over:
            return
        PRIMITIVES[type(eff)](s, emit, eff, src, ctrl, target)


def fire(s: M9State, emit: Emit, cs: CardState, when: str) -> None:
    """[M9-108] triggered abilities of ``cs`` whose condition is ``when``."""
    d = defn(s, cs)
    if not d.triggers:
        return
    for t in d.triggers:
        if t.when == when:
            emit(TriggerFired(s.n, s.turn, s.step, cs.ctrl, cs.iid, when))
            resolve(s, emit, list(t.effects), cs.iid, cs.ctrl, 0)


def defeat(s: M9State, emit: Emit, cs: CardState) -> bool:
    """Defeat ``cs``, unless its replacement effect applies instead [M9-109]; True when it was defeated."""
    d = defn(s, cs)
    rep = d.replacement
    if rep is not None and not (rep.once_per_turn and Spent(cs.iid, REPLACEMENT) in s.once):
        emit(ReplacementApplied(s.n, s.turn, s.step, cs.ctrl, cs.iid, "defeat", rep.instead))
        if rep.instead == "bounce":
            leave_board(s, emit, cs, "hand", "replaced")
        else:
            counter(s, emit, cs, "wounds", 0, "replaced")
            counter(s, emit, cs, "tapped", 1, "replaced")
        return False
    leave_board(s, emit, cs, "discard", "defeated")
    fire(s, emit, cs, "defeated")
    return True


def check_defeats(s: M9State, emit: Emit) -> None:
    """[M9-084] defeat every Unit whose wounds reach its effective GRIT (GRIT 0 needs no wound), again and again
    while defeats shift static modifiers. A Unit its replacement saved is not checked again in the same call, so a
    replacement that cannot cure GRIT 0 does not loop."""
    saved: list[int] = []
    cards = s.cards
    while not s.over:
        # the Units, then the Ship-Sites (``units``, ``ship_sites``): a Ship-Site is defeated by its wounds too
        # [M9-030] (R-M9-55); one pass over the board
        doomed: list[CardState] = []
        ships: list[CardState] = []
        pool = s.pool
        ship_cids, shortcut = pool.ship_cids, not pool.lowers_grit
        for c in s.board:
            cs = cards[c]
            # ``grit_reached``'s shortcut first, with ``defn`` written out: most cards on the board are unwounded, and
            # this check runs after every action, so one test here saves three calls per card
            if shortcut and cs.wounds < (pool.spirit[cs.cid] if cs.face else pool[cs.cid]).grit + cs.grit_mod:
                continue
            if is_unit(s, cs):
                if cs.iid not in saved and grit_reached(s, cs):
                    doomed.append(cs)
            elif cs.cid in ship_cids and cs.zone in ZONE_LOC and cs.iid not in saved and grit_reached(s, cs):
                ships.append(cs)
        doomed += ships
        if not doomed:
            return
        for cs in doomed:
            if (is_unit(s, cs) or is_ship_site(s, cs)) and not defeat(s, emit, cs):  # an earlier defeat may have
                saved.append(cs.iid)  # moved it already


__all__ = ["check_defeats", "combatants", "counter", "defeat", "fire", "grit", "resolve", "set_echo", "units"]
