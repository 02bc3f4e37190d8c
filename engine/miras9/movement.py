"""Normal movement, En Route, arrival and Spot [M9-032], [M9-037], [M9-045], [M9-054], [M9-055], [M9-058],
[M9-059], [M9-121].

* Ruling R-M9-46: one move reaches any other board position whose lane the mover's trait may use [M9-059], on
  either half (A-18, Reading 1: a Unit-Ship's Exterior and Space are never adjacent); an enemy half whose Site
  forbids enemy entry is closed [M9-004]. The tap is a cost, as for Manifest and Pressure (R-M9-07, A-07): the mover
  must be ready, Attuned, manned and not aboard a host. The cost is 1 resource plus the ``move_cost`` statics in
  scope (never below 0); a ``rapid`` card arrives at once [M9-058] ("card text may change the cost or arrival").
* Ruling R-M9-47: an En Route card is in zone ``route:<side>:<lane>`` of its destination; crew and Equipment
  travel with it. It gives no Battle Presence, cannot attack, block, move or be chosen [M9-054], and its statics
  reach no Site. It arrives in its controller's Awaken, before the ready step readies it [M9-032].
* Ruling R-M9-48: a Spot effect makes an enemy En Route Unit active and attackable until the end of the turn
  [M9-055]: it can be chosen by effects and attacked in its destination's column; it stays tapped and En Route, so
  it still gives no presence and cannot block. Ship-Sites are not Units and are never Spotted.
"""

from __future__ import annotations

from typing import Final

from annals.engine.core import Emit
from annals.engine.miras9.board import (
    _static_sum,
    can_act,
    counter,
    defn,
    entry_barred,
    is_unit,
    spend,
    spottable,
    unit_lanes,
)
from annals.engine.miras9.choices import MoveUnit
from annals.engine.miras9.events import Arrived, Spotted, UnitMoved
from annals.engine.miras9.state import (
    LOC_NAMES,
    LOC_SIDE_LANE,
    ROUTE_NAMES,
    ZONE_ROUTE,
    CardState,
    M9State,
)
from annals.schemas import miras9 as sm

MOVE_COST: Final = 1  # [M9-058]


def move_cost(s: M9State, cs: CardState) -> int:
    v = MOVE_COST + _static_sum(s, cs, "move_cost")
    return v if v > 0 else 0


def reachable(s: M9State, cs: CardState) -> list[int]:
    """Ruling R-M9-46: the positions one move reaches: a lane the trait may use [M9-059], on either half, but an
    enemy half only where its Site allows entry."""
    lanes = unit_lanes(defn(s, cs))
    out = []
    for loc, side, lane in LOC_SIDE_LANE:
        if loc != cs.loc and lane in lanes and (side == cs.ctrl or not entry_barred(s, loc)):
            out.append(loc)
    return out


def move_options(s: M9State, p: int) -> list[sm.MoveUnit]:
    """[M9-058] every legal normal move of player ``p``'s Units this Move phase."""
    budget = len(s.players[p].resource)
    cards = s.cards
    opts: list[sm.MoveUnit] = []
    for c in s.board:
        cs = cards[c]
        if cs.ctrl != p or not can_act(s, cs) or move_cost(s, cs) > budget:  # [M9-053], [M9-057], R-M9-46
            continue
        for loc in reachable(s, cs):
            opts.append(MoveUnit(c, loc))
    return opts


def companions(s: M9State, host: int) -> list[CardState]:
    """The crew aboard ``host`` and the Equipment attached to it: they travel with it [M9-062]."""
    cards = s.cards
    return [cards[c] for c in s.board if cards[c].aboard == host or cards[c].host == host]


def move_unit(s: M9State, emit: Emit, p: int, opt: sm.MoveUnit) -> None:
    """[M9-058] pay, tap (the cost, R-M9-46), leave: En Route until the next Awaken, crew and Equipment along."""
    cs = s.cards[opt.card]
    cost = move_cost(s, cs)
    spend(s, emit, p, cost)
    counter(s, emit, cs, "tapped", 1, "move")
    rapid = "rapid" in defn(s, cs).keywords
    dst = LOC_NAMES[opt.loc] if rapid else ROUTE_NAMES[opt.loc]
    riders = [o.iid for o in companions(s, cs.iid)]  # crew keep their own status (ruling R-M9-51, A-19)
    emit(UnitMoved(s.n, s.turn, s.step, p, [cs.iid, *riders], cs.zone, dst, cost))


def arrive_all(s: M9State, emit: Emit, p: int) -> None:
    """[M9-032] in ``p``'s Awaken their En Route cards arrive (the ready step that follows readies them)."""
    cards = s.cards
    groups: dict[str, list[int]] = {}
    for c in s.board:
        cs = cards[c]
        if cs.ctrl == p and cs.zone in ZONE_ROUTE:
            groups.setdefault(cs.zone, []).append(c)
    for zone, group in groups.items():
        emit(Arrived(s.n, s.turn, s.step, p, group, zone, LOC_NAMES[ZONE_ROUTE[zone]]))


def spot(s: M9State, emit: Emit, src: int, ctrl: int, target: int) -> None:
    """The Spot primitive [M9-055]: ruling R-M9-48 (until the end of the turn)."""
    cs = s.cards.get(target)
    if cs is None or target not in spottable(s, ctrl):  # no longer En Route: nothing to Spot [M9-111]
        return
    emit(Spotted(s.n, s.turn, s.step, ctrl, target, src))
    counter(s, emit, cs, "spotted", 1, "spot")


def end_spots(s: M9State, emit: Emit) -> None:
    """Spotted lasts until the end of the turn (ruling R-M9-48)."""
    cards = s.cards
    for c in s.board:
        cs = cards[c]
        if cs.spotted:
            counter(s, emit, cs, "spotted", 0, "turn_end")


__all__ = ["arrive_all", "end_spots", "is_unit", "move_options", "move_unit", "spot"]
