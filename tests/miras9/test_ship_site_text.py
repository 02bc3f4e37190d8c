"""Ship-Site card text: the permission to contest an enemy Interior [M9-064], a Ship-Site's activated abilities
[M9-043], [M9-065], and the distinct action a card may grant its crew [M9-099]; rulings R-M9-58, R-M9-59, R-M9-60.
No shipped card has them: the cards are defined here (and in tests/scenarios/miras9/ship-site-*.toml)."""

from __future__ import annotations

from typing import Any

from annals.engine.miras9.builder import Table
from annals.engine.miras9.state import LOC_NAMES
from annals.schemas import miras9 as ev
from annals.schemas.carddefs import definition

SHIP = {"type": "ship_site", "cost": 3, "gen": 1, "atk": 1, "grit": 4, "crew": 2, "lanes": [0, 2]}
BOARDER = {"id": "ss-boarder", "name": "Boarding Hulk", **SHIP, "keywords": ["contest_interior"]}


def cards(t: Table, *tables: dict[str, Any]) -> None:
    """Play ``t`` with these card definitions added to the shipped pool (as a scenario's ``[[cards]]``)."""
    t.s.card_defs = [definition("cards", table) for table in tables]
    t.s.__post_init__()


def ship(t: Table, p: int, cid: str, lane: int, side: int | None = None) -> int:
    return t.add(p, cid, "board", lane=lane, side=side)


def ship_moves(t: Table) -> list[tuple[int, int]]:
    return [(o.card, o.loc) for o in t.options() if type(o) is ev.MoveShipSite]


def test_only_a_ship_site_whose_text_permits_it_contests_an_enemy_interior_M9_064_M9_063() -> None:
    """[M9-064] an enemy Interior is never offered to a Ship-Site that prints no permission; one whose text permits
    it (``contest_interior``, ruling R-M9-58) contests it for 2, as any contest, and returns from it for 2
    [M9-063]; its own Interior stays closed (not one of its lanes), and two Ship-Sites never share the Site."""
    t = Table(phase="move", resource=4)
    cards(t, BOARDER, {**BOARDER, "id": "ss-keep", "name": "Keep", "lanes": [1], "keywords": []})
    plain = ship(t, 0, "ss-bastion", 0)
    boarder = ship(t, 0, "ss-boarder", 2)
    moves = ship_moves(t)
    assert (boarder, 4) in moves and (plain, 4) not in moves
    assert (boarder, 1) not in moves and (plain, 1) not in moves
    t.act(ev.MoveShipSite(boarder, 4))
    (moved,) = t.of(ev.ShipSiteMoved)
    assert (moved.dst, moved.cost, moved.kind) == ("lane:1:interior", 2, "contest")
    assert len(t.s.players[0].resource) == 2 and t.c(boarder).zone == LOC_NAMES[4]
    t.c(boarder).tapped = 0
    assert sorted(loc for card, loc in ship_moves(t) if card == boarder) == [2, 3, 5]  # 0: the plain one is there
    t.act(ev.MoveShipSite(boarder, 2))
    assert (t.of(ev.ShipSiteMoved)[-1].kind, t.of(ev.ShipSiteMoved)[-1].cost) == ("return", 2)
    held = Table(phase="move", resource=4)
    cards(held, BOARDER, {**BOARDER, "id": "ss-keep", "name": "Keep", "lanes": [1], "keywords": []})
    boarder = ship(held, 0, "ss-boarder", 0)
    ship(held, 1, "ss-keep", 1)  # the enemy's own Ship-Site holds its Interior
    assert (boarder, 4) not in ship_moves(held) and (boarder, 3) in ship_moves(held)
