"""Hosts and crews: embarking, disembarking, manning, and crew when the host leaves the board [M9-056], [M9-057],
[M9-060]-[M9-062], [M9-091], [M9-093], [M9-098].

* Ruling R-M9-49: a Vehicle or Unit-Ship's Crew N is its Crew Limit [M9-062]; it is manned while at least one
  eligible Unit owned by its controller is aboard [M9-061] (Crew 0: always manned, carries no one). Only
  Characters and Spirits embark [M9-061], on a friendly host at the same board position, neither En Route; in
  the Action or Move phase, free, without tapping, whatever the boarding Unit's status, as often as it stays legal
  [M9-060]. A Unit disembarks at its host's position only where its own trait may stand (a Character cannot step
  out in Space) [M9-059].
* Ruling R-M9-50 (A-20): ready, Attuned crew establish Battle Presence through the host, automatically [M9-056];
  crew do not attack, block, move, Manifest or Pressure themselves: the host does, with its own ECHO [M9-098],
  [M9-099].
* Ruling R-M9-60: a host whose text grants it (``crew_manifest``) lets its embarked Characters and Spirits
  Manifest, the distinct action [M9-099] names: each as a Unit would [M9-094], [M9-097] (ready and Attuned, the
  tap its cost; at a friendly Site with no active enemy Battle Presence; one Manifest a Site a turn), with its own
  ECHO; never Pressure.
* Ruling R-M9-51 (A-11, A-19): crew travel with a moving host, En Route with it and keeping their own status
  [M9-062]. A host defeated in Space: its crew are discarded (put into Discard, not defeated: no "defeated"
  trigger or replacement; an awakened Spirit returns to its Planet zone as any departing paired card does); defeated
  anywhere else (Exterior, or En Route to a non-Space position): its crew survive there, tapped [M9-091]. A host
  leaving the board otherwise (returned to Hand): its crew stay at its position with their status, or are
  discarded where their trait may not stand. A crew member that leaves the board first disembarks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from annals.engine.core import Emit
from annals.engine.miras9.board import counter, defn, unit_lanes
from annals.engine.miras9.choices import Disembark, Embark
from annals.engine.miras9.events import Disembarked, Embarked
from annals.engine.miras9.state import ZONE_LOC, CardState, M9State, lane_of
from annals.schemas import miras9 as sm

SPACE: Final = 2
BOARDERS: Final = frozenset({"character", "spirit"})  # [M9-061]: Vehicles and Ships never embark
CREW_MANIFEST: Final = "crew_manifest"  # a host's text that grants its crew the Manifest action [M9-099]


def may_board(s: M9State, cs: CardState) -> bool:
    d = defn(s, cs)
    return cs.aboard == 0 and d.crew < 0 and (cs.face == 1 or bool(BOARDERS.intersection(d.traits)))


def crew_may_manifest(s: M9State, cs: CardState) -> bool:
    """Ruling R-M9-60: ``cs`` is crew of a host of its controller whose text grants it Manifest [M9-099], and ready
    and Attuned (the tap is the cost, R-M9-07); where and how often are Manifest's own rules [M9-094], [M9-097]."""
    host = s.cards.get(cs.aboard) if cs.aboard else None
    return (
        host is not None
        and host.ctrl == cs.ctrl
        and cs.tapped == 0
        and cs.attuned == 1
        and cs.zone in ZONE_LOC
        and CREW_MANIFEST in defn(s, host).keywords
    )


def crew_options(s: M9State, p: int) -> list[sm.Embark | sm.Disembark]:
    """[M9-060] every legal embark and disembark of player ``p`` right now."""
    cards = s.cards
    opts: list[sm.Embark | sm.Disembark] = []
    host_cids = s.pool.host_cids  # Crew 1+ (an awakened Spirit, ``face`` 1, is no host)
    hosts = []
    board = s.board
    for c in board:  # a plain loop: on Python 3.11 a comprehension is a function call of its own
        cs = cards[c]
        if cs.cid in host_cids and cs.ctrl == p and not cs.face and cs.zone in ZONE_LOC:
            hosts.append(cs)
    if not hosts:  # most of the time: no need to count who is aboard
        return opts
    aboard: dict[int, int] = {}  # per host, the Units aboard it
    for c in board:
        host = cards[c].aboard
        if host:
            aboard[host] = aboard.get(host, 0) + 1
    for c in board:
        cs = cards[c]
        if cs.ctrl != p or cs.zone not in ZONE_LOC:
            continue
        if cs.aboard:
            if lane_of(cs.loc) in unit_lanes(defn(s, cs)):
                opts.append(Disembark(c))
        elif may_board(s, cs):
            for h in hosts:
                if h.loc == cs.loc and aboard.get(h.iid, 0) < defn(s, h).crew:  # [M9-062] the Crew Limit
                    opts.append(Embark(c, h.iid))
    return opts


def crew_act(s: M9State, emit: Emit, p: int, choice: sm.Embark | sm.Disembark) -> None:
    if type(choice) is Embark:
        emit(Embarked(s.n, s.turn, s.step, p, choice.card, choice.host))
    else:
        emit(Disembarked(s.n, s.turn, s.step, p, choice.card, s.cards[choice.card].aboard))


Leave = Callable[[M9State, Emit, CardState, str, str], None]


def unload(s: M9State, emit: Emit, cs: CardState, reason: str, leave: Leave) -> None:
    """Before ``cs`` leaves the board: if it is crew, it disembarks; if it is a host, its crew get off and meet the
    fate of ruling R-M9-51 (``leave`` is ``damage.leave_board``, passed in to keep the imports one way)."""
    if cs.aboard:
        emit(Disembarked(s.n, s.turn, s.step, cs.ctrl, cs.iid, cs.aboard, reason))
        return
    cards = s.cards
    crew = [cards[c] for c in s.board if cards[c].aboard == cs.iid]
    if not crew:
        return
    space = lane_of(cs.loc) == SPACE
    for o in crew:
        emit(Disembarked(s.n, s.turn, s.step, o.ctrl, o.iid, cs.iid, "host_" + reason))
    for o in crew:
        if reason == "defeated" and not space:  # [M9-091] survive tapped at that Site
            counter(s, emit, o, "tapped", 1, "host_defeated")
        elif (reason == "defeated" and space) or lane_of(o.loc) not in unit_lanes(defn(s, o)):
            leave(s, emit, o, "discard", "host_lost")  # [M9-091] discarded at Space


__all__ = ["crew_act", "crew_may_manifest", "crew_options", "may_board", "unload"]
