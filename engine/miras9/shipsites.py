"""Ship-Sites: mobile locations that carry crew [M9-030], [M9-063]-[M9-065], [M9-072], [M9-099], [M9-100].

A Ship-Site in play is in ``M9State.board`` at a board position (zone ``lane:<side>:<lane>``), like a Unit but never
one: it does not attack, block, Manifest, Pressure or make normal moves, and effects that choose Units never
choose it. Its Crew N is its Crew Limit; Characters and Spirits embark on it as on any host (``crews``).

* Ruling R-M9-53 (A-17): a Ship-Site moves in its controller's Move phase, at once (it is never En Route, so never
  Spotted [M9-055]); the tap is the cost of the move, as for a Unit (R-M9-46), so it moves once a turn and is
  readied in its controller's Awaken; it needs no crew. It may go to any other position of its lanes on either half
  but enemy Interior [M9-064], where no other Ship-Site is [M9-064]: between its controller's positions for 1,
  onto an enemy position (contest) or from one (return) for 2 [M9-063]. Crew and Equipment go with it [M9-062].
  A Ship-Site is played (or starts, [M9-020]) at one of its lanes on its controller's half where none is.
* Ruling R-M9-54 (A-27): a Ship-Site takes the abilities of the Site under it, friendly or enemy [M9-065]; its
  generation replaces the Site's when it covers a friendly one, and it generates nothing while contesting (the
  enemy keeps theirs). An enemy Ship-Site in the wave's column may be attacked; a defender's Ship-Site covering the
  defender's Site position shields it: that Site position cannot be attacked while it is there ("covers and
  replaces"), while a Site the attacker's own Ship-Site contests may still be.
* Ruling R-M9-55 (A-09): an unblocked attack on a Ship-Site deals no Battle Damage; the attacker wounds it by its
  ATK and at once takes its retaliation: the Ship-Site's printed ATK (with statics) while manned, 0 unmanned
  [M9-072]. Wounds reaching its GRIT defeat it (to Discard, crew as for any host, R-M9-51) [M9-030].
* Ruling R-M9-56: enemy Units aboard a Ship-Site in a column prevent Pressure in that column, whatever their
  status [M9-100].
* Ruling R-M9-58: a Ship-Site whose own text permits it (``contest_interior``) may contest an enemy Interior,
  whatever its lanes, for 2 as any contest [M9-064], [M9-063].
"""

from __future__ import annotations

from typing import Final

from annals.engine.core import Emit
from annals.engine.miras9.board import SHIP_SITE, atk, counter, defn, manned, ship_at, spend
from annals.engine.miras9.choices import MoveShipSite
from annals.engine.miras9.events import ShipSiteMoved
from annals.engine.miras9.movement import companions
from annals.engine.miras9.state import ALL_LOCS, LOC_NAMES, ZONE_LOC, CardState, M9State, lane_of, loc_of, side_of
from annals.schemas import miras9 as sm
from annals.schemas.miras9 import CardDef

INTERIOR: Final = 1
MOVE_COST: Final = 1  # [M9-063] between friendly Exterior and Space
CONTEST_COST: Final = 2  # [M9-063] contesting an enemy position, or returning from it
CONTEST_INTERIOR: Final = "contest_interior"  # the card text that permits contesting an enemy Interior [M9-064]


def is_ship_site(s: M9State, cs: CardState) -> bool:
    """A Ship-Site in play (at a board position)."""
    return cs.zone in ZONE_LOC and s.pool[cs.cid].type == SHIP_SITE


def ship_sites(s: M9State) -> list[CardState]:
    """The Ship-Sites in play, in board order (``is_ship_site``: a Ship-Site card at a board position)."""
    cards = s.cards
    ships = s.pool.ship_cids
    if not ships:
        return []
    out = []
    for c in s.board:  # a plain loop: on Python 3.11 a comprehension is a function call of its own
        cs = cards[c]
        if cs.cid in ships and cs.zone in ZONE_LOC:
            out.append(cs)
    return out


def cost_to(cs: CardState, loc: int) -> int:
    """[M9-063] 1 between its controller's positions; 2 to contest an enemy position or to return from one."""
    return MOVE_COST if side_of(cs.loc) == cs.ctrl == side_of(loc) else CONTEST_COST


def may_go(s: M9State, cs: CardState, loc: int) -> bool:
    """Ruling R-M9-53: a lane of the card, never enemy Interior, never where another Ship-Site is [M9-064]; ruling
    R-M9-58: a Ship-Site whose text permits it (``contest_interior``) may contest an enemy Interior, whatever its
    lanes."""
    lane = lane_of(loc)
    if loc == cs.loc:
        return False
    if side_of(loc) != cs.ctrl and lane == INTERIOR:
        if not interior_permitted(s.pool[cs.cid]):
            return False
    elif lane not in s.pool[cs.cid].lanes:
        return False
    return not ship_at(s, loc)


def interior_permitted(d: CardDef) -> bool:
    """[M9-064] "unless card text permits it": the Ship-Site's own ``contest_interior`` (ruling R-M9-58)."""
    return CONTEST_INTERIOR in d.keywords


def ship_options(s: M9State, p: int) -> list[sm.MoveShipSite]:
    """Every legal Ship-Site move of player ``p`` this Move phase."""
    budget = len(s.players[p].resource)
    opts: list[sm.MoveShipSite] = []
    for cs in ship_sites(s):
        if cs.ctrl != p or cs.tapped:
            continue
        for loc in ALL_LOCS:
            if may_go(s, cs, loc) and cost_to(cs, loc) <= budget:
                opts.append(MoveShipSite(cs.iid, loc))
    return opts


def move_ship(s: M9State, emit: Emit, p: int, opt: sm.MoveShipSite) -> None:
    """Pay, tap (the cost), and go at once with the crew and Equipment aboard (ruling R-M9-53)."""
    cs = s.cards[opt.card]
    cost = cost_to(cs, opt.loc)
    kind = "move" if cost == MOVE_COST else ("contest" if side_of(opt.loc) != p else "return")
    spend(s, emit, p, cost)
    counter(s, emit, cs, "tapped", 1, "ship_move")
    riders = [o.iid for o in companions(s, cs.iid)]
    emit(ShipSiteMoved(s.n, s.turn, s.step, p, [cs.iid, *riders], cs.zone, LOC_NAMES[opt.loc], cost, kind))


def place_options(s: M9State, p: int, lanes: list[int]) -> list[int]:
    """The positions a Ship-Site may be played or start at: its lanes on ``p``'s half, where none is."""
    return [loc_of(p, lane) for lane in lanes if not ship_at(s, loc_of(p, lane))]


def generation(s: M9State, p: int) -> int:
    """Ruling R-M9-54 (and R-M9-05): per lane of ``p``'s half, the covering Ship-Site's resource value, else the
    Site's; a Ship-Site contesting elsewhere generates nothing, and a contested Site still generates [M9-065]."""
    cards = s.cards
    ships: dict[int, CardState] = {}  # by position, as ``ship_at`` finds them (two never share one [M9-064])
    for cs in ship_sites(s):
        ships.setdefault(cs.loc, cs)
    total = 0
    for lane, site in enumerate(s.players[p].sites):
        ship = ships.get(loc_of(p, lane))
        if ship is not None and ship.ctrl == p:
            total += s.pool[ship.cid].gen
        elif site:
            total += s.pool[cards[site].cid].gen
    return total


def covers_site(s: M9State, defender: int, lane: int) -> bool:
    """Does a Ship-Site of ``defender`` cover their own Site position in ``lane`` (ruling R-M9-54)?"""
    ship = ship_at(s, loc_of(defender, lane)) if s.pool.ship_cids else 0
    return bool(ship) and s.cards[ship].ctrl == defender


def target_ok(s: M9State, attacker: int, lane: int, t: int) -> bool:
    """An enemy Ship-Site in the wave's column [M9-066]."""
    cs = s.cards.get(t)
    return cs is not None and is_ship_site(s, cs) and cs.ctrl != attacker and lane_of(cs.loc) == lane


def retaliation(s: M9State, cs: CardState) -> int:
    """Ruling R-M9-55: its ATK while manned, 0 unmanned [M9-072]."""
    return atk(s, cs) if manned(defn(s, cs), cs) else 0


def pressure_barred(s: M9State, p: int, lane: int) -> bool:
    """[M9-100] an enemy Unit of ``p`` aboard a Ship-Site in the column prevents ``p``'s Pressure there."""
    if not s.pool.ship_cids:
        return False
    cards = s.cards
    for c in s.board:
        cs = cards[c]
        if cs.aboard and cs.ctrl != p and lane_of(cs.loc) == lane and is_ship_site(s, cards[cs.aboard]):
            return True
    return False


__all__ = [
    "covers_site",
    "generation",
    "interior_permitted",
    "is_ship_site",
    "move_ship",
    "place_options",
    "pressure_barred",
    "retaliation",
    "ship_options",
    "ship_sites",
    "target_ok",
]
