"""The board as the rules see it: effective values, who can act, Battle Presence, where a Unit may enter, legal
targets, and the basic state changes (counters, moves, draws, spending, leaving a wave, tokens) every rules module
builds on. Nothing here resolves an effect or defeats a card, so any rules module may import it.

* [M9-007] values never below 0; [M9-110] current effective values: printed value + static modifiers of sources on
  the board + temporary modifiers (until end of turn).
* [M9-053], [M9-056], [M9-057], [M9-120] who can act and who establishes Battle Presence.
* [M9-040], [M9-059] where a Unit may enter; [M9-004] ``cannot`` prevails over a permission (see ``may_enter``).
* [M9-054], [M9-055] an En Route card (zone ``route:...``) is no Unit on the board unless Spotted, and even then
  never acts; [M9-057], [M9-061] a host is manned by eligible crew; [M9-056] crew give presence through the host.
* [M9-030], [M9-065] a Ship-Site on the board (zone ``lane:...`` of its position) is no Unit; any Ship-Site at a
  position takes the abilities of the Site under it (``ship_at``), so their statics and entry bans are not in force.
* [M9-081] leaving the wave; [M9-013] tokens; [M9-046], [M9-047], [M9-050] paying resources, Echo never below 0.
"""

from __future__ import annotations

from typing import Final

from annals.engine.core import Emit
from annals.engine.miras9.events import CardMoved, CounterChanged, LeftWave, TokenCreated
from annals.engine.miras9.state import (
    LOC_NAMES,
    LOC_SIDE_LANE,
    ZONE_LOC,
    ZONE_ROUTE,
    CardState,
    M9State,
    combatants,
    lane_of,
    side_of,
)
from annals.schemas.miras9 import CardDef
from annals.schemas.records import TOKEN_BASE

UNIT_TYPES: Final = frozenset({"unit", "token"})


def defn(s: M9State, cs: CardState) -> CardDef:
    """The definition a card has now: its Spirit face once awakened, else its card, from the game's pool."""
    return s.pool.spirit[cs.cid] if cs.face else s.pool[cs.cid]


def on_board(cs: CardState) -> bool:
    return cs.zone in ZONE_LOC


def is_unit(s: M9State, cs: CardState) -> bool:
    """A Unit on the board: at a board position, or En Route and Spotted (active and attackable [M9-055])."""
    return (cs.zone in ZONE_LOC or (cs.spotted == 1 and cs.zone in ZONE_ROUTE)) and (
        cs.face == 1 or s.pool[cs.cid].type in UNIT_TYPES
    )


SHIP_SITE: Final = "ship_site"


def ship_at(s: M9State, loc: int) -> int:
    """The Ship-Site at board position ``loc``, or 0 (two never share one [M9-064])."""
    cards = s.cards
    ships = s.pool.ship_cids  # the Ship-Site card ids
    for c in s.board:
        cs = cards[c]
        if cs.loc == loc and cs.cid in ships and cs.zone in ZONE_LOC:
            return c
    return 0


def site_in_force(s: M9State, side: int, lane: int) -> int:
    """The Site card at ``side``'s half of ``lane`` whose abilities are in force: 0 for the basic lane token or
    when a Ship-Site there covers it (friendly) or contests it (enemy) [M9-065]."""
    site = s.players[side].sites[lane]
    if site and s.pool.ship_cids and ship_at(s, side * 3 + lane):
        return 0
    return site


def manned(d: CardDef, cs: CardState | None = None) -> bool:
    """[M9-057] a Vehicle or Ship with Crew 1+ is manned while an eligible Unit of its controller is aboard
    (ruling R-M9-49); Crew 0 is always manned."""
    return d.crew <= 0 or (cs is not None and cs.crew > 0)


def _static_sum(s: M9State, cs: CardState, field: str) -> int:
    """The static modifiers of ``field`` on ``cs`` [M9-110]: only the cards whose statics change ``field`` are
    looked at (``Pool.modifying``; the others add 0)."""
    total = 0
    cards = s.cards
    pool = s.pool
    cids, spirit_cids = pool.modifying[field], pool.spirit_modifying[field]
    iid, lane, ctrl = cs.iid, lane_of(cs.loc), cs.ctrl
    for other in s.board:
        o = cards[other]
        cid = o.cid  # in neither set (most cards): no need to read the face
        if (cid not in cids and cid not in spirit_cids) or cid not in (spirit_cids if o.face else cids):
            continue
        if o.zone in ZONE_ROUTE and other != iid and o.host != iid:  # En Route: at no Site (ruling R-M9-47)
            continue
        for st in defn(s, o).statics:
            scope = st.scope
            if (
                (scope == "host" and o.host == iid)
                or (scope == "self" and other == iid)
                or (scope == "friendly_here" and other != iid and lane_of(o.loc) == lane and o.ctrl == ctrl)
                or (scope == "enemy_here" and lane_of(o.loc) == lane and o.ctrl != ctrl)
            ):
                total += getattr(st, field)
    players = s.players
    for side in (0, 1):
        site = players[side].sites[lane]
        if site and cards[site].cid in cids and site_in_force(s, side, lane):  # [M9-065]
            for st in pool[cards[site].cid].statics:
                if (st.scope == "friendly_here" and side == ctrl) or (st.scope == "enemy_here" and side != ctrl):
                    total += getattr(st, field)
    return total


def atk(s: M9State, cs: CardState) -> int:
    v = defn(s, cs).atk + cs.atk_mod + _static_sum(s, cs, "atk")
    return v if v > 0 else 0


def grit(s: M9State, cs: CardState) -> int:
    v = defn(s, cs).grit + cs.grit_mod + _static_sum(s, cs, "grit")
    return v if v > 0 else 0


def grit_reached(s: M9State, cs: CardState) -> bool:
    """[M9-084] do ``cs``'s wounds reach its effective GRIT (GRIT 0 needs none)? Where no static of the pool lowers
    GRIT, effective GRIT is at least printed GRIT plus modifiers, so wounds below that never reach it and the statics
    need not be summed (most Units, most of the time)."""
    if not s.pool.lowers_grit and cs.wounds < defn(s, cs).grit + cs.grit_mod:
        return False
    return cs.wounds >= grit(s, cs)


def echo_of(s: M9State, cs: CardState) -> int:
    v = defn(s, cs).echo + _static_sum(s, cs, "echo")
    return v if v > 0 else 0


def ward(s: M9State, cs: CardState) -> int:
    return _static_sum(s, cs, "ward")


def can_act(s: M9State, cs: CardState) -> bool:
    """Ready, Attuned, at a board position (not En Route [M9-054]), not aboard a host, manned: may attack, block,
    move, Manifest, Pressure [M9-053], [M9-057], [M9-066], [M9-068]."""
    if cs.tapped or cs.attuned != 1 or cs.aboard or cs.zone not in ZONE_LOC:
        return False
    if cs.face:  # ``defn`` and ``manned``, written out (a hot path)
        d = s.pool.spirit[cs.cid]
        return d.crew <= 0 or cs.crew > 0
    d = s.pool[cs.cid]
    return d.type in UNIT_TYPES and (d.crew <= 0 or cs.crew > 0)  # a Unit (``is_unit``), manned


def presence(s: M9State, lane: int, player: int) -> bool:
    """[M9-056], [M9-120] does ``player`` establish Battle Presence in the lane column? Ready, Attuned embarked
    crew establish it through their host (ruling R-M9-50)."""
    cards = s.cards
    for c in s.board:
        cs = cards[c]
        if cs.ctrl == player and lane_of(cs.loc) == lane:
            if can_act(s, cs):
                return True
            if cs.aboard and cs.tapped == 0 and cs.attuned == 1 and cs.zone in ZONE_LOC:
                return True
    return False


def units(s: M9State) -> list[CardState]:
    cards = s.cards
    out = []
    for c in s.board:  # a plain loop: on Python 3.11 a comprehension is a function call of its own
        cs = cards[c]
        if is_unit(s, cs):
            out.append(cs)
    return out


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


def entry_barred(s: M9State, loc: int) -> bool:
    """Does the Site at board position ``loc`` say enemy Units cannot enter? Not while a Ship-Site there takes its
    abilities [M9-065]."""
    site = site_in_force(s, side_of(loc), lane_of(loc))
    return bool(site) and "no_enemy_entry" in s.pool[s.cards[site].cid].keywords


def may_enter(s: M9State, d: CardDef, player: int, loc: int) -> bool:
    """[M9-040] own positions by lane; an enemy position only with Infiltrate, and never where the Site there says
    enemy Units cannot enter: the prohibition prevails over the permission [M9-004]."""
    return loc in entries(s, d, player)


def entries(s: M9State, d: CardDef, player: int) -> list[int]:
    """The board positions a Unit of card ``d`` played by ``player`` may enter (``may_enter``), in ``loc`` order."""
    lanes = unit_lanes(d)
    infiltrate = "infiltrate" in d.keywords
    out = []
    for loc, side, lane in LOC_SIDE_LANE:
        if lane in lanes and (side == player or (infiltrate and not entry_barred(s, loc))):
            out.append(loc)
    return out


# ---------------------------------------------------------------- targets


def spottable(s: M9State, ctrl: int) -> list[int]:
    """Enemy En Route Units not yet Spotted, and not aboard a host [M9-055]: the ``enemy_en_route`` targets."""
    cards = s.cards
    out = []
    for c in s.board:
        cs = cards[c]
        if (cs.ctrl != ctrl and cs.zone in ZONE_ROUTE and not cs.spotted and cs.aboard == 0) and (
            cs.face == 1 or s.pool[cs.cid].type in UNIT_TYPES
        ):
            out.append(c)
    return out


def legal_targets(s: M9State, kind: str, ctrl: int) -> list[int]:
    if not kind:
        return [0]
    if kind == "enemy_en_route":
        return spottable(s, ctrl)
    cards = s.cards
    if kind.endswith("combatant"):
        w = s.wave
        if w is None:
            return []
        among = combatants(w)
    else:
        among = s.board
    friendly, enemy = kind.startswith("friendly"), kind.startswith("enemy")
    out = []
    for c in among:  # a plain loop: on Python 3.11 a comprehension is a function call of its own
        cs = cards.get(c)  # a combatant may have left play
        if cs is not None and is_unit(s, cs) and not (friendly and cs.ctrl != ctrl) and not (enemy and cs.ctrl == ctrl):
            out.append(c)
    return out


# ---------------------------------------------------------------- basic state changes


def counter(s: M9State, emit: Emit, cs: CardState, name: str, value: int, source: str = "") -> None:
    old = getattr(cs, name)
    if old != value:
        emit(CounterChanged(s.n, s.turn, s.step, cs.ctrl, name, cs.iid, value, value - old, source))


def set_echo(s: M9State, emit: Emit, player: int, value: int, source: str) -> None:
    value = value if value > 0 else 0  # [M9-050]
    old = s.players[player].echo
    if old != value:
        emit(CounterChanged(s.n, s.turn, s.step, player, "echo", player, value, value - old, source))


def move(s: M9State, emit: Emit, card: int, dst: str, reason: str, host: int = 0) -> None:
    cs = s.cards[card]
    emit(CardMoved(s.n, s.turn, s.step, cs.ctrl, card, cs.zone, dst, reason, host))


def draw(s: M9State, emit: Emit, player: int, n: int, dst: str = "hand", reason: str = "draw") -> None:
    deck = s.players[player].deck
    for _ in range(n):
        if not deck:
            return
        emit(CardMoved(s.n, s.turn, s.step, player, deck[-1], "deck", dst, reason, 0))


def spend(s: M9State, emit: Emit, player: int, n: int) -> None:
    """[M9-046], [M9-047] pay n resources: the top card of Resource to Used, n times (affordability checked before)."""
    res = s.players[player].resource
    for _ in range(n):
        emit(CardMoved(s.n, s.turn, s.step, player, res[-1], "resource", "used", "spend", 0))


def leave_wave(s: M9State, emit: Emit, cs: CardState) -> None:
    """[M9-081] remove a combatant (attacker, blocker or attacked Unit) from the current wave, if it is in one."""
    w = s.wave
    if w is not None and cs.iid in combatants(w):
        emit(LeftWave(s.n, s.turn, s.step, cs.ctrl, cs.iid, w.number))


def make_token(s: M9State, emit: Emit, card_id: str, ctrl: int, loc: int) -> None:
    iid = TOKEN_BASE + s.next_token
    emit(TokenCreated(s.n, s.turn, s.step, ctrl, iid, card_id, LOC_NAMES[loc]))
