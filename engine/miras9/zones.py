"""The board's positions and the names of zones (ruling R-M9-01): where the encoding of a position lives.

Each lane (Exterior, Interior, Space) is one board column holding both players' Site positions. A board position
is ``loc = side * 3 + lane``: the half of ``lane`` that belongs to player ``side``. The tables are ``Final`` and
this module is compiled (``engine.compiled``): a compiled rule reads each table from a C static and calls these
functions directly, where a table or function of an interpreted module costs a lookup by name or a Python call per
use. ``state`` re-exports them.
"""

from __future__ import annotations

from typing import Final

from annals.schemas.miras9 import LANES

PILES: Final = ("deck", "hand", "resource", "used", "discard", "exile")
# The per-card counters (``CardState`` fields): cleared when a card leaves the board, listed by positions.
CARD_COUNTERS: Final = ("wounds", "tapped", "attuned", "atk_mod", "grit_mod", "shield", "spotted")
BOARD: Final = "board"


def loc_of(side: int, lane: int) -> int:
    """The board position of ``lane``'s half that belongs to player ``side``: the one place the encoding lives."""
    return side * 3 + lane


def side_of(loc: int) -> int:
    """The player whose half of the lane board position ``loc`` is."""
    return loc // 3


def lane_of(loc: int) -> int:
    """The lane (board column) of board position ``loc``."""
    return loc % 3


def loc_name(loc: int) -> str:
    return f"lane:{side_of(loc)}:{LANES[lane_of(loc)]}"


def route_name(loc: int) -> str:
    """The zone of a card En Route to board position ``loc`` [M9-054]."""
    return f"route:{side_of(loc)}:{LANES[lane_of(loc)]}"


def site_name(side: int, lane: int) -> str:
    return f"site:{side}:{LANES[lane]}"


ALL_LOCS: Final = range(6)  # every board position, in ``loc`` order: both sides of each of the three lanes
# every board position with its side and lane, for the option loops that test both (no call per position)
LOC_SIDE_LANE: Final = [(loc, side_of(loc), lane_of(loc)) for loc in ALL_LOCS]
LOC_NAMES: Final = [loc_name(loc) for loc in ALL_LOCS]
SITE_NAMES: Final = [[site_name(s, i) for i in range(3)] for s in range(2)]
ZONE_LOC: Final = {name: i for i, name in enumerate(LOC_NAMES)}
ZONE_SITE: Final = {SITE_NAMES[s][i]: (s, i) for s in range(2) for i in range(3)}
ROUTE_NAMES: Final = [route_name(loc) for loc in ALL_LOCS]
ZONE_ROUTE: Final = {name: i for i, name in enumerate(ROUTE_NAMES)}
ZONE_BOARD: Final = {**ZONE_LOC, **ZONE_ROUTE}  # every zone of a card in ``M9State.board``
