"""The Miras 9 state: players, their piles, the board, and all control state of turns, waves and the stack.

Board [M9-025]-[M9-029] (ruling R-M9-01): each lane (Exterior, Interior, Space) is one board column holding both
players' Site positions. A board position is ``loc = side * 3 + lane`` (``zones``, whose positions and zone names
this module re-exports): the half of ``lane`` that belongs to player ``side``. A Unit stands at a position;
attacks, Battle Presence, Manifest and Pressure look at the column (``lane``), "friendly" and "enemy" Site at the
position's side. ``sites[side][lane]`` is the Site card there, or 0
for the basic lane token. Piles are lists with the top card last.

Movement and crews (``movement``, ``crews``): an En Route card stays in ``board`` with zone ``route:<side>:<lane>``
(``ZONE_ROUTE``), ``loc`` its destination and ``origin`` the position it left [M9-054]; an embarked Unit stands at
its host's position with ``aboard`` = the host, and a host counts its eligible crew in ``crew`` [M9-061].
``edition`` is 1 for a game played with the first card pool (before movement existed; its logs replay as played).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import msgspec

from annals.engine import compiled
from annals.engine.core import GameState
from annals.engine.miras9 import cardstate, gamestate, playerstate
from annals.engine.miras9.gamestate import EDITION as EDITION
from annals.engine.miras9.pool import Pool, with_cards
from annals.engine.miras9.stackitem import REPLACEMENT as REPLACEMENT
from annals.engine.miras9.stackitem import Spent as Spent
from annals.engine.miras9.stackitem import StackItem as StackItem
from annals.engine.miras9.zones import ALL_LOCS as ALL_LOCS
from annals.engine.miras9.zones import BOARD as BOARD
from annals.engine.miras9.zones import CARD_COUNTERS as CARD_COUNTERS
from annals.engine.miras9.zones import LOC_NAMES as LOC_NAMES
from annals.engine.miras9.zones import LOC_SIDE_LANE as LOC_SIDE_LANE
from annals.engine.miras9.zones import PILES as PILES
from annals.engine.miras9.zones import ROUTE_NAMES as ROUTE_NAMES
from annals.engine.miras9.zones import SITE_NAMES as SITE_NAMES
from annals.engine.miras9.zones import ZONE_BOARD as ZONE_BOARD
from annals.engine.miras9.zones import ZONE_LOC as ZONE_LOC
from annals.engine.miras9.zones import ZONE_ROUTE as ZONE_ROUTE
from annals.engine.miras9.zones import ZONE_SITE as ZONE_SITE
from annals.engine.miras9.zones import lane_of as lane_of
from annals.engine.miras9.zones import loc_name as loc_name
from annals.engine.miras9.zones import loc_of as loc_of
from annals.engine.miras9.zones import route_name as route_name
from annals.engine.miras9.zones import side_of as side_of
from annals.engine.miras9.zones import site_name as site_name
from annals.engine.structs import typed_like
from annals.schemas.carddefs import CardDefinition


class StructCard(msgspec.Struct, kw_only=True):
    """``cardstate.CardState`` as a msgspec Struct: the same fields, defaults and encoding (tests/miras9/
    test_cardstate.py holds the two to it)."""

    iid: int
    cid: str
    owner: int
    ctrl: int
    zone: str
    loc: int = -1
    host: int = 0
    tapped: int = 0
    attuned: int = 0
    wounds: int = 0
    atk_mod: int = 0
    grit_mod: int = 0
    shield: int = 0
    token: bool = False
    face: int = 0
    spotted: int = 0
    origin: int = -1
    aboard: int = 0
    crew: int = 0


# A card: compiled, the native dataclass (the rules read its fields as C struct members); interpreted, this Struct,
# which C builds and copies (an interpreted dataclass is built field by field in Python: playouts ran 14% slower)
if TYPE_CHECKING:
    from annals.engine.miras9.cardstate import CardState as CardState
else:
    CardState = cardstate.CardState if compiled.is_compiled() else StructCard


class StructPlayer(msgspec.Struct, kw_only=True):
    """``playerstate.PlayerState`` as a msgspec Struct: the same fields, defaults and encoding (tests/miras9/
    test_playerstate.py holds the two to it)."""

    deck: list[int] = []
    hand: list[int] = []
    resource: list[int] = []
    used: list[int] = []
    discard: list[int] = []
    exile: list[int] = []
    echo: int = 0
    leader: int = 0
    sites: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0])
    mulligan_done: bool = False


class StructWave(msgspec.Struct, kw_only=True):
    """The attack wave in progress [M9-073]-[M9-082]: ``playerstate.Wave`` as a msgspec Struct (the same fields,
    defaults and encoding)."""

    number: int
    lane: int
    attacker: int  # the attacking player
    attackers: list[int] = []  # the attacking Units still in the wave
    targets: list[int] = []  # per attacker: the Unit it attacks, or 0 for the defender's Site position
    blockers: list[int] = []
    blocked: list[int] = []  # per blocker, the attacker it blocks
    step: int = 1  # 1..7
    was_blocked: list[int] = []  # attackers with committed blockers: they stay blocked [M9-082]
    left: list[int] = []  # Units removed from the wave, in any role; they never rejoin it [M9-081]
    extra: int = 0  # a card-granted extra attack: the one Unit that may attack in it [M9-073]
    # (source, target) of every combat wound placed in the damage step [M9-078] (``CombatDamage``): what the
    # consequences step reads for Killing Machine [M9-083], so a position held at its start goes on as the game did
    wounded: list[tuple[int, int]] = []


# A player and the wave, as a card (``CardState``): compiled, the native dataclasses; interpreted, these Structs
if TYPE_CHECKING:
    from annals.engine.miras9.playerstate import PlayerState as PlayerState
    from annals.engine.miras9.playerstate import Wave as Wave
elif compiled.is_compiled():
    PlayerState = typed_like(playerstate.PlayerState, StructPlayer)
    Wave = typed_like(playerstate.Wave, StructWave)
else:
    PlayerState, Wave = StructPlayer, StructWave


def combatants(w: Wave) -> list[int]:
    """The Units in the wave's combat (ruling R-M9-32): its attackers, its blockers and the Units it attacks, minus
    any that left the wave [M9-081]. The one definition used by targeting, leaving and card scripts."""
    members = w.attackers + w.blockers + [t for t in w.targets if t and t not in w.left]
    return list(dict.fromkeys(members))


class StructM9State(GameState, kw_only=True, dict=True):
    """The whole game. ``pool`` (not a field: set from ``card_defs`` whenever a state is made or decoded) is the
    game's card pool, which every rule reads (``s.pool[cid]``); ``card_defs`` are the definitions the game adds
    to the shipped pool, so a saved position carries them. (EDITION: the rules edition new games are played by;
    earlier shipped pools: ``pool.EARLIER_POOLS``, R-M9-45.) ``gamestate.M9State`` as a msgspec Struct: the same
    fields, defaults and encoding (tests/miras9/test_gamestate.py holds the two to it)."""

    pool: ClassVar[Pool]  # in fact each instance's own (its ``__dict__``), set by ``__post_init__``

    cards: dict[int, CardState] = {}
    players: list[PlayerState] = []
    board: list[int] = []  # Units and Equipment on the board, in order of arrival
    active: int = 0
    first: int = -1
    phase: str = "setup"  # setup | awaken | action | attack | move | attune
    # reaction window and stack [M9-114], [M9-115]
    window: str = ""
    priority: int = -1
    passes: int = 0
    stack: list[StackItem] = []
    # the cards in the "stack" zone: announced Reactions waiting on the stack, and any Event while it resolves
    stack_cards: list[int] = []
    # attack
    wave: Wave | None = None
    waves: int = 0  # waves made so far in the game (numbering)
    attacked: list[int] = []  # lanes with a wave this turn [M9-073]
    # Battle Damage owed [M9-086]: per point, the attacker it came from
    bd_player: int = -1
    bd_sources: list[int] = []
    bd_paid: int = 0
    bw_card: int = 0  # the card a Battle Damage point revealed, waiting on its Blackwake choice [M9-089]
    # card-granted extra attacks waiting after the wave [M9-073], [M9-083]: the Units, and the lane of their Site
    extra: list[int] = []
    extra_lane: int = -1
    # once-per-turn and once-per-Site trackers, cleared by TurnBegan
    once: list[Spent] = []
    manifested: list[int] = []  # positions (loc) with a Manifest this turn [M9-097]
    pressured: list[int] = []
    next_token: int = 0
    # ``n`` just after the opening event of a turn (TurnBegan), the Awaken phase (PhaseBegan awaken) or a wave
    # step that runs automatically or opens a window (WaveStep 2, 4, 5, 6, 7): the position is held there while
    # ``boundary == n``, so the next event (whatever it is) ends it. ``turn.resume`` goes on from it [M9-031],
    # [M9-032], [M9-078], [M9-079], [M9-114]
    boundary: int = -1
    HELD_AT: ClassVar[tuple[str, ...]] = ("boundary",)
    edition: int = EDITION  # 1: the first shipped pool's rules (no movement, crews, Blackwake); 2: no Ship-Sites
    card_defs: list[CardDefinition] = []

    def __post_init__(self) -> None:
        self.__dict__["pool"] = with_cards(tuple(self.card_defs))


# The state, as a card (``CardState``): compiled, the native dataclass (the rules read and the reducer writes its
# fields as C struct members); interpreted, this Struct
if TYPE_CHECKING:
    from annals.engine.miras9.gamestate import M9State as M9State
elif compiled.is_compiled():
    M9State = typed_like(gamestate.M9State, StructM9State)
else:
    M9State = StructM9State


def card_zone_ok(s: M9State) -> list[str]:
    """Problems with 'every card in exactly one place' (empty when consistent): used by property tests."""
    problems: list[str] = []
    seen: dict[int, str] = {}
    for p, pl in enumerate(s.players):
        for name in PILES:
            for c in getattr(pl, name):
                if c in seen:
                    problems.append(f"card {c} in {name} of player {p} and in {seen[c]}")
                seen[c] = name
                if s.cards[c].zone != name:
                    problems.append(f"card {c} listed in {name} but its zone is {s.cards[c].zone!r}")
        for lane, site in enumerate(pl.sites):
            if site:
                if site in seen:
                    problems.append(f"site {site} twice")
                seen[site] = "site"
                if s.cards[site].zone != SITE_NAMES[p][lane]:
                    problems.append(f"site {site} zone {s.cards[site].zone!r}")
    for c in s.board:
        if c in seen:
            problems.append(f"card {c} on the board and in {seen[c]}")
        seen[c] = BOARD
        if s.cards[c].zone not in ZONE_BOARD:
            problems.append(f"card {c} on the board with zone {s.cards[c].zone!r}")
        host = s.cards[c].aboard
        if host and (host not in s.cards or s.cards[host].zone != s.cards[c].zone):
            problems.append(f"card {c} aboard {host}, which is not where it is")
    for c in s.stack_cards:
        if c in seen:
            problems.append(f"card {c} on the stack and in {seen[c]}")
        seen[c] = "stack"
        if s.cards[c].zone != "stack":
            problems.append(f"card {c} listed on the stack but its zone is {s.cards[c].zone!r}")
    for c in s.board:
        cs = s.cards[c]
        if cs.crew != sum(1 for o in s.board if s.cards[o].aboard == c and s.cards[o].owner == cs.ctrl):
            problems.append(f"host {c} counts {cs.crew} crew, not the eligible Units aboard it")
    for c, cs in s.cards.items():
        if c in seen or cs.zone == "gone":  # a token that left play no longer exists [M9-013]
            continue
        if cs.zone == "planet":
            if s.players[cs.owner].leader != c:
                problems.append(f"card {c} in the Planet zone is not its owner's paired card")
        elif not (cs.zone == "" and s.phase == "setup"):  # before set-up places it, a card has no zone yet
            problems.append(f"card {c} (zone {cs.zone!r}) is nowhere")
    return problems
