"""The MORANA game state and the numbers at a glance [MOR-03] (R-MOR-16).

Everything the rules need to continue from a saved position lives here: zones per player (deck top last, hand,
Nav, the three Sites in arrival order), Power of face-up Spirits, the sealed cards of this turn's Commit, the
counters (Slava [MOR-10], Embers [MOR-12]), the per-turn limits (Reborns [MOR-23], off-board Slava [MOR-31]),
Initiative [MOR-29], the Invocation used [MOR-33], and whose Commit is being taken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

import msgspec

from annals.engine import compiled
from annals.engine.core import GameState
from annals.engine.morana import gamestate
from annals.engine.morana.cards import Pool, with_cards
from annals.engine.structs import typed_like
from annals.schemas.carddefs import CardDefinition
from annals.schemas.records import CARDS_PER_PLAYER, LEADER_INDEX, instance_id

PLAYERS: Final = 2
SITES: Final = 3
OPENING_HAND: Final = 4
HAND_LIMIT: Final = 10
LAST_TURN: Final = 8
SLAVA_TO_WIN: Final = 13
OFFBOARD_CAP: Final = 4
REBORN_LIMIT: Final = 2
NOBODY: Final = -1
COMMIT_DONE: Final = 2  # ``committing`` once both players have sealed


class StructMoranaState(GameState, kw_only=True, dict=True):
    """``pool`` (not a field: set from ``card_defs`` whenever a state is made or decoded) is the game's card pool,
    which every rule reads (``s.pool.cards[cid]``); ``card_defs`` are the definitions the game adds to the
    shipped pool, so a saved position carries them. ``gamestate.MoranaState`` as a msgspec Struct: the same
    fields, defaults and encoding (tests/morana/test_gamestate.py holds the two to it)."""

    pool: ClassVar[Pool]  # in fact each instance's own (its ``__dict__``), set by ``__post_init__``

    ids: list[list[str]] = []  # card id of each deck instance, by player and index
    wardens: list[str] = []
    wardens_seated: list[bool] = msgspec.field(default_factory=lambda: [False, False])  # WardenChosen applied
    deck: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])
    hand: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])
    nav: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])
    sites: list[list[list[int]]] = msgspec.field(default_factory=lambda: [[[], [], []], [[], [], []]])
    power: dict[int, int] = {}
    sealed: list[int] = []  # face-down this turn, in commit order
    sealed_sites: list[int] = []
    reborning: list[int] = []  # sealed from Nav, then revealed until their Reborn band fires
    revealed: list[int] = []  # flipped this Dusk, band not yet fired
    invoking: list[int] = []  # players whose sealed Invocation has not yet resolved
    invoked: list[bool] = msgspec.field(default_factory=lambda: [False, False])
    slava: list[int] = msgspec.field(default_factory=lambda: [0, 0])
    embers: list[int] = msgspec.field(default_factory=lambda: [0, 0])
    offboard: list[int] = msgspec.field(default_factory=lambda: [0, 0])  # off-board Slava gained this turn
    reborns: list[int] = msgspec.field(default_factory=lambda: [0, 0])  # Reborns this turn
    initiative: int = NOBODY  # holder this turn
    initiative_next: list[bool] = msgspec.field(
        default_factory=lambda: [False, False]
    )  # granted this turn, for the next
    committing: int = 0  # the player taking Commit now (0, then 1), or COMMIT_DONE
    # at the start of Dusk, the Rite or a Dawn: its opening event applied, none of its actions yet (``turn.resume``)
    boundary: bool = False
    # ``n`` just after a Site's ``SiteResolutionBegan`` at Dusk: held there (none of its effects yet) while
    # ``site_begun == n``; the next event, whatever it is, ends it [MOR-16], [MOR-19] (``turn.resume``)
    site_begun: int = -1
    HELD_AT: ClassVar[tuple[str, ...]] = ("site_begun",)
    # between a Commit action's payment (``EmbersChanged`` commit, reborn, invocation) and its sealing: no stop
    paying: bool = False
    card_defs: list[CardDefinition] = []

    def __post_init__(self) -> None:
        self.__dict__["pool"] = with_cards(tuple(self.card_defs))


# The state: compiled, the native dataclass (the rules read and the reducer writes its fields as C struct members);
# interpreted, this Struct
if TYPE_CHECKING:
    from annals.engine.morana.gamestate import MoranaState as MoranaState
elif compiled.is_compiled():
    MoranaState = typed_like(gamestate.MoranaState, StructMoranaState)
else:
    MoranaState = StructMoranaState


def warden_instance(player: int) -> int:
    return instance_id(player, LEADER_INDEX)


def deck_index(card: int) -> int:
    """The index of a (non-Warden) card instance in its owner's deck list ``ids``."""
    return card % CARDS_PER_PLAYER
