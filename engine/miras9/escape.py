"""Escape Route and its requirements [M9-117], [M9-116], [M9-081].

Escape Route moves an eligible Unit out of the wave to an adjacent friendly Site. Its requirements stay in force in
every window, the after-wave one included (where, after damage, only a survivor is still a combatant [M9-116]):

* the eligible Unit: a friendly combatant of a trait the card prints (``Escape.traits``);
* the Battleground Site (ruling R-M9-43): the Site the wave is made at; the Unit must stand in that lane column;
* the adjacent friendly destination (ruling R-M9-43): its controller's own Site position in a lane next to the
  Battleground's (Exterior is next to Interior and to Space; Interior and Space are not next to each other) that
  the Unit's trait may use [M9-059].

The destination is announced with the card, like its target [M9-114], and checked again when it resolves: if
either has become illegal the card resolves without effect [M9-111].
"""

from __future__ import annotations

from annals.engine.miras9.board import defn, is_unit, unit_lanes
from annals.engine.miras9.state import CardState, M9State, combatants, lane_of, loc_of

ADJACENT: dict[int, tuple[int, ...]] = {0: (1, 2), 1: (0,), 2: (0,)}  # lane -> the lanes next to it


def destinations(s: M9State, cs: CardState, traits: list[str], ctrl: int) -> list[int]:
    """The board positions ``cs`` may escape to for ``ctrl``'s Escape effect, or [] when it is not eligible."""
    w = s.wave
    if w is None or not is_unit(s, cs) or cs.ctrl != ctrl or cs.iid not in combatants(w):
        return []
    d = defn(s, cs)
    if not any(t in traits for t in d.traits) or lane_of(cs.loc) != w.lane:
        return []
    lanes = unit_lanes(d)
    return [loc_of(ctrl, lane) for lane in ADJACENT[w.lane] if lane in lanes]


__all__ = ["ADJACENT", "destinations"]
