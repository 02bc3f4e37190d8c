"""Effective values, presence, targets, and the closed vocabulary of effect primitives.

* [M9-006] instructions resolve in written order; [M9-007] values never below 0; [M9-110] current effective values:
  printed value + static modifiers of sources on the board + temporary modifiers (until end of turn).
* [M9-112] "self" is the source, "you" its controller, "opponent" the other player.
* [M9-111] an effect whose target became illegal resolves without affecting it.
* [M9-108] triggered abilities fire when their event occurs and resolve at once, in written order.
* [M9-053], [M9-056], [M9-057], [M9-120] who can act and who establishes Battle Presence.
* [M9-013] tokens; [M9-004] ``cannot`` prevails over a permission (see ``may_enter``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Emit
from engine.miras9.pool import POOL, SPIRIT, SPIRIT_STATIC, STATIC_CIDS
from engine.miras9.state import LOC_NAMES, ZONE_LOC, CardState, M9State, combatants, lane_of, loc_of, side_of
from schemas import miras9 as ev
from schemas.miras9 import CardDef
from schemas.records import TOKEN_BASE

UNIT_TYPES = frozenset({"unit", "token"})


def defn(cs: CardState) -> CardDef:
    return SPIRIT[cs.cid] if cs.face else POOL[cs.cid]


def on_board(cs: CardState) -> bool:
    return cs.zone in ZONE_LOC


def is_unit(cs: CardState) -> bool:
    return cs.zone in ZONE_LOC and (cs.face == 1 or POOL[cs.cid].type in UNIT_TYPES)


def manned(d: CardDef) -> bool:
    """[M9-057] a Vehicle or Ship needs crew; Crew 0 is always manned (crews come with movement)."""
    return d.crew <= 0


def _static_sum(s: M9State, cs: CardState, field: str) -> int:
    total = 0
    cards = s.cards
    iid, lane, ctrl = cs.iid, lane_of(cs.loc), cs.ctrl
    for other in s.board:
        o = cards[other]
        if (o.cid not in SPIRIT_STATIC) if o.face else (o.cid not in STATIC_CIDS):
            continue
        for st in defn(o).statics:
            scope = st.scope
            if (
                (scope == "host" and o.host == iid)
                or (scope == "self" and other == iid)
                or (scope == "friendly_here" and other != iid and lane_of(o.loc) == lane and o.ctrl == ctrl)
                or (scope == "enemy_here" and lane_of(o.loc) == lane and o.ctrl != ctrl)
            ):
                total += getattr(st, field)
    for side in (0, 1):
        site = s.players[side].sites[lane]
        if site and cards[site].cid in STATIC_CIDS:
            for st in POOL[cards[site].cid].statics:
                if (st.scope == "friendly_here" and side == ctrl) or (st.scope == "enemy_here" and side != ctrl):
                    total += getattr(st, field)
    return total


def atk(s: M9State, cs: CardState) -> int:
    v = defn(cs).atk + cs.atk_mod + _static_sum(s, cs, "atk")
    return v if v > 0 else 0


def grit(s: M9State, cs: CardState) -> int:
    v = defn(cs).grit + cs.grit_mod + _static_sum(s, cs, "grit")
    return v if v > 0 else 0


def echo_of(s: M9State, cs: CardState) -> int:
    v = defn(cs).echo + _static_sum(s, cs, "echo")
    return v if v > 0 else 0


def ward(s: M9State, cs: CardState) -> int:
    return _static_sum(s, cs, "ward")


def can_act(cs: CardState) -> bool:
    """Ready, Attuned, on the board, manned: may attack, block, Manifest, Pressure [M9-053], [M9-066], [M9-068]."""
    return cs.tapped == 0 and cs.attuned == 1 and is_unit(cs) and manned(defn(cs))


def presence(s: M9State, lane: int, player: int) -> bool:
    """[M9-056], [M9-120] does ``player`` establish Battle Presence in the lane column?"""
    cards = s.cards
    for c in s.board:
        cs = cards[c]
        if cs.ctrl == player and lane_of(cs.loc) == lane and can_act(cs):
            return True
    return False


def units(s: M9State) -> list[CardState]:
    cards = s.cards
    return [cards[c] for c in s.board if is_unit(cards[c])]


# ---------------------------------------------------------------- deployment


def unit_lanes(d: CardDef) -> tuple[int, ...]:
    """[M9-059] Characters Exterior/Interior, Spirits anywhere, Vehicles Exterior, Ships Exterior and Space."""
    traits = d.traits
    if "spirit" in traits:
        return (0, 1, 2)
    if "ship" in traits:
        return (0, 2)
    if "vehicle" in traits:
        return (0,)
    return (0, 1)


def may_enter(s: M9State, d: CardDef, player: int, loc: int) -> bool:
    """[M9-040] own positions by lane; an enemy position only with Infiltrate, and never where the Site there says
    enemy Units cannot enter: the prohibition prevails over the permission [M9-004]."""
    side, lane = side_of(loc), lane_of(loc)
    if lane not in unit_lanes(d):
        return False
    if side == player:
        return True
    if "infiltrate" not in d.keywords:
        return False
    site = s.players[side].sites[lane]
    return not (site and "no_enemy_entry" in POOL[s.cards[site].cid].keywords)


# ---------------------------------------------------------------- targets


def legal_targets(s: M9State, kind: str, ctrl: int) -> list[int]:
    if not kind:
        return [0]
    cards = s.cards
    if kind.endswith("combatant"):
        w = s.wave
        if w is None:
            return []
        pool = [c for c in combatants(w) if c in cards and is_unit(cards[c])]
    else:
        pool = [c for c in s.board if is_unit(cards[c])]
    if kind.startswith("friendly"):
        return [c for c in pool if cards[c].ctrl == ctrl]
    if kind.startswith("enemy"):
        return [c for c in pool if cards[c].ctrl != ctrl]
    return pool


# ---------------------------------------------------------------- primitives


def counter(s: M9State, emit: Emit, cs: CardState, name: str, value: int, source: str = "") -> None:
    old = getattr(cs, name)
    if old != value:
        emit(ev.CounterChanged(s.n, s.turn, s.step, cs.ctrl, name, cs.iid, value, value - old, source))


def set_echo(s: M9State, emit: Emit, player: int, value: int, source: str) -> None:
    value = value if value > 0 else 0  # [M9-050]
    old = s.players[player].echo
    if old != value:
        emit(ev.CounterChanged(s.n, s.turn, s.step, player, "echo", player, value, value - old, source))


def move(s: M9State, emit: Emit, card: int, dst: str, reason: str, host: int = 0) -> None:
    cs = s.cards[card]
    emit(ev.CardMoved(s.n, s.turn, s.step, cs.ctrl, card, cs.zone, dst, reason, host))


def draw(s: M9State, emit: Emit, player: int, n: int, dst: str = "hand", reason: str = "draw") -> None:
    deck = s.players[player].deck
    for _ in range(n):
        if not deck:
            return
        emit(ev.CardMoved(s.n, s.turn, s.step, player, deck[-1], "deck", dst, reason, 0))


def spend(s: M9State, emit: Emit, player: int, n: int) -> None:
    """[M9-046], [M9-047] pay n resources: the top card of Resource to Used, n times (affordability checked before)."""
    res = s.players[player].resource
    for _ in range(n):
        emit(ev.CardMoved(s.n, s.turn, s.step, player, res[-1], "resource", "used", "spend", 0))


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
    return cs if cs is not None and is_unit(cs) else None


def _player_of(s: M9State, to: str, ctrl: int, target: int) -> int | None:
    """The player an effect applies to; None for "target" when there is no legal target left [M9-111]."""
    if to == "opponent":
        return 1 - ctrl
    if to == "target":
        return s.cards[target].ctrl if target in s.cards else None
    return ctrl


Prim = Callable[[M9State, Emit, Any, int, int, int], None]


def _wound(s: M9State, emit: Emit, e: ev.Wound, src: int, ctrl: int, target: int) -> None:
    from engine.miras9.damage import deal  # damage builds on this module: imported late to avoid a cycle

    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        deal(s, emit, src, cs, e.amount, "effect")


def _heal(s: M9State, emit: Emit, e: ev.Heal, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        counter(s, emit, cs, "wounds", max(0, cs.wounds - e.amount))


def _shield(s: M9State, emit: Emit, e: ev.Shield, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        counter(s, emit, cs, "shield", cs.shield + e.amount)


def _boost(s: M9State, emit: Emit, e: ev.Boost, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        if e.atk:
            counter(s, emit, cs, "atk_mod", cs.atk_mod + e.atk)
        if e.grit:
            counter(s, emit, cs, "grit_mod", cs.grit_mod + e.grit)


def _echo(s: M9State, emit: Emit, e: ev.GainEcho, src: int, ctrl: int, target: int) -> None:
    p = _player_of(s, e.to, ctrl, target)
    if p is not None:
        set_echo(s, emit, p, s.players[p].echo + e.amount, "effect")


def _draw(s: M9State, emit: Emit, e: ev.Draw, src: int, ctrl: int, target: int) -> None:
    p = _player_of(s, e.to, ctrl, target)
    if p is not None:
        draw(s, emit, p, e.amount)


def _generate(s: M9State, emit: Emit, e: ev.GenerateEff, src: int, ctrl: int, target: int) -> None:
    p = _player_of(s, e.to, ctrl, target)
    if p is not None:
        draw(s, emit, p, e.amount, "resource", "generate")


def _ready(s: M9State, emit: Emit, e: ev.ReadyEff, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        counter(s, emit, cs, "tapped", 0)


def _tap(s: M9State, emit: Emit, e: ev.TapEff, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        counter(s, emit, cs, "tapped", 1)


def _defeat(s: M9State, emit: Emit, e: ev.DefeatEff, src: int, ctrl: int, target: int) -> None:
    from engine.miras9.damage import defeat

    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        defeat(s, emit, cs)


def _bounce(s: M9State, emit: Emit, e: ev.Bounce, src: int, ctrl: int, target: int) -> None:
    from engine.miras9.damage import leave_board

    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        leave_board(s, emit, cs, "hand", "bounce")


def _withdraw(s: M9State, emit: Emit, e: ev.Withdraw, src: int, ctrl: int, target: int) -> None:
    cs = _card_of(s, e.to, src, target)
    if cs is not None:
        leave_wave(s, emit, cs)


def leave_wave(s: M9State, emit: Emit, cs: CardState) -> None:
    """[M9-081] remove a combatant (attacker, blocker or attacked Unit) from the current wave, if it is in one."""
    w = s.wave
    if w is not None and cs.iid in combatants(w):
        emit(ev.LeftWave(s.n, s.turn, s.step, cs.ctrl, cs.iid, w.number))


def make_token(s: M9State, emit: Emit, card_id: str, ctrl: int, loc: int) -> None:
    iid = TOKEN_BASE + s.next_token
    emit(ev.TokenCreated(s.n, s.turn, s.step, ctrl, iid, card_id, LOC_NAMES[loc]))


def _token(s: M9State, emit: Emit, e: ev.MakeToken, src: int, ctrl: int, target: int) -> None:
    # beside its source when that stands on its controller's half, else at the controller's Exterior; then moved to
    # the first lane its trait may use [M9-059] (a Drone made in the Interior appears in the Exterior)
    cs = s.cards.get(src)
    loc = cs.loc if cs is not None and cs.loc >= 0 and side_of(cs.loc) == ctrl else loc_of(ctrl, 0)
    lanes = unit_lanes(POOL[e.card_id])
    if lane_of(loc) not in lanes:
        loc = loc_of(ctrl, lanes[0])
    make_token(s, emit, e.card_id, ctrl, loc)


def _script(s: M9State, emit: Emit, e: ev.Script, src: int, ctrl: int, target: int) -> None:
    import sys

    from engine.miras9 import scripts  # scripts import nothing of the rules: they get this module as ``fx``

    scripts.HOOKS[e.name](s, emit, src, ctrl, target, sys.modules[__name__])


PRIMITIVES: dict[type[Any], Prim] = {
    ev.Wound: _wound,
    ev.Heal: _heal,
    ev.Shield: _shield,
    ev.Boost: _boost,
    ev.GainEcho: _echo,
    ev.Draw: _draw,
    ev.GenerateEff: _generate,
    ev.ReadyEff: _ready,
    ev.TapEff: _tap,
    ev.DefeatEff: _defeat,
    ev.Bounce: _bounce,
    ev.Withdraw: _withdraw,
    ev.MakeToken: _token,
    ev.Script: _script,
}


def resolve(s: M9State, emit: Emit, effects: list[Any], src: int, ctrl: int, target: int) -> None:
    """[M9-006] each instruction in written order; an illegal target (0) is simply not affected [M9-111]."""
    for eff in effects:
        if s.over:
            return
        PRIMITIVES[type(eff)](s, emit, eff, src, ctrl, target)


def fire(s: M9State, emit: Emit, cs: CardState, when: str) -> None:
    """[M9-108] triggered abilities of ``cs`` whose condition is ``when``."""
    d = defn(cs)
    if not d.triggers:
        return
    for t in d.triggers:
        if t.when == when:
            emit(ev.TriggerFired(s.n, s.turn, s.step, cs.ctrl, cs.iid, when))
            resolve(s, emit, list(t.effects), cs.iid, cs.ctrl, 0)
