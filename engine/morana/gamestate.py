"""The MORANA game state (``MoranaState``) as a dataclass, as Miras 9's is (``miras9.gamestate``): compiled
(``engine.compiled``), a native class whose fields the rules read and the reducer writes as C struct members, where
a msgspec Struct's field is a generic attribute read even compiled (``n``, ``pool``, ``sites``, ``power``,
``embers``, ... some 15 reads and writes an event). msgspec encodes and decodes a dataclass as it does a Struct:
the same fields in the same order, the same bytes in a saved state or a position file. Interpreted, the state stays
the Struct it was (``state.StructMoranaState``, its twin: what ``state.MoranaState`` names there;
tests/morana/test_gamestate.py holds the two to the same encoding and copies).

Not a ``core.GameState`` (a Struct): it has the same six common fields, which is what the engine's shared code
reads (``core.State``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from annals.engine.morana.cards import Pool, with_cards
from annals.schemas.carddefs import CardDefinition


class Derived:
    """What a state derives from its fields and never encodes: the game's card pool (``with_cards`` of its
    ``card_defs``), which every rule reads (``s.pool.cards[cid]``). A base class that is not a dataclass, so that
    its attribute is no dataclass field. ``HELD_AT`` (``core.State``) here too: compiled, a ``ClassVar`` of the
    dataclass itself would be a field (mypyc erases the annotation)."""

    pool: Pool
    HELD_AT: ClassVar[tuple[str, ...]] = ("site_begun",)


@dataclass(init=False)  # the __init__ below: mypyc compiles it (see ``miras9.cardstate``)
class MoranaState(Derived):
    """The game: the fields of ``state.StructMoranaState`` (the common ones of ``core.GameState`` first), in its
    order and with its defaults; what each holds is said there."""

    n: int = 0
    turn: int = 0
    step: str = "setup"
    over: bool = False
    winner: int = -1
    end_reason: str = ""
    ids: list[list[str]] = field(default_factory=list)
    wardens: list[str] = field(default_factory=list)
    wardens_seated: list[bool] = field(default_factory=lambda: [False, False])
    deck: list[list[int]] = field(default_factory=lambda: [[], []])
    hand: list[list[int]] = field(default_factory=lambda: [[], []])
    nav: list[list[int]] = field(default_factory=lambda: [[], []])
    sites: list[list[list[int]]] = field(default_factory=lambda: [[[], [], []], [[], [], []]])
    power: dict[int, int] = field(default_factory=dict)
    sealed: list[int] = field(default_factory=list)
    sealed_sites: list[int] = field(default_factory=list)
    reborning: list[int] = field(default_factory=list)
    revealed: list[int] = field(default_factory=list)
    invoking: list[int] = field(default_factory=list)
    invoked: list[bool] = field(default_factory=lambda: [False, False])
    slava: list[int] = field(default_factory=lambda: [0, 0])
    embers: list[int] = field(default_factory=lambda: [0, 0])
    offboard: list[int] = field(default_factory=lambda: [0, 0])
    reborns: list[int] = field(default_factory=lambda: [0, 0])
    initiative: int = -1
    initiative_next: list[bool] = field(default_factory=lambda: [False, False])
    committing: int = 0
    boundary: bool = False
    site_begun: int = -1
    paying: bool = False
    card_defs: list[CardDefinition] = field(default_factory=list)

    def __init__(
        self,
        *,
        n: int = 0,
        turn: int = 0,
        step: str = "setup",
        over: bool = False,
        winner: int = -1,
        end_reason: str = "",
        ids: list[list[str]] | None = None,
        wardens: list[str] | None = None,
        wardens_seated: list[bool] | None = None,
        deck: list[list[int]] | None = None,
        hand: list[list[int]] | None = None,
        nav: list[list[int]] | None = None,
        sites: list[list[list[int]]] | None = None,
        power: dict[int, int] | None = None,
        sealed: list[int] | None = None,
        sealed_sites: list[int] | None = None,
        reborning: list[int] | None = None,
        revealed: list[int] | None = None,
        invoking: list[int] | None = None,
        invoked: list[bool] | None = None,
        slava: list[int] | None = None,
        embers: list[int] | None = None,
        offboard: list[int] | None = None,
        reborns: list[int] | None = None,
        initiative: int = -1,
        initiative_next: list[bool] | None = None,
        committing: int = 0,
        boundary: bool = False,
        site_begun: int = -1,
        paying: bool = False,
        card_defs: list[CardDefinition] | None = None,
        pool: Pool | None = None,  # not a field: a copy passes its original's, else it is made from ``card_defs``
    ) -> None:
        self.n, self.turn, self.step, self.over, self.winner, self.end_reason = n, turn, step, over, winner, end_reason
        self.ids = [] if ids is None else ids
        self.wardens = [] if wardens is None else wardens
        self.wardens_seated = [False, False] if wardens_seated is None else wardens_seated
        self.deck = [[], []] if deck is None else deck
        self.hand = [[], []] if hand is None else hand
        self.nav = [[], []] if nav is None else nav
        self.sites = [[[], [], []], [[], [], []]] if sites is None else sites
        self.power = {} if power is None else power
        self.sealed = [] if sealed is None else sealed
        self.sealed_sites = [] if sealed_sites is None else sealed_sites
        self.reborning = [] if reborning is None else reborning
        self.revealed = [] if revealed is None else revealed
        self.invoking = [] if invoking is None else invoking
        self.invoked = [False, False] if invoked is None else invoked
        self.slava = [0, 0] if slava is None else slava
        self.embers = [0, 0] if embers is None else embers
        self.offboard = [0, 0] if offboard is None else offboard
        self.reborns = [0, 0] if reborns is None else reborns
        self.initiative = initiative
        self.initiative_next = [False, False] if initiative_next is None else initiative_next
        self.committing, self.boundary, self.site_begun, self.paying = committing, boundary, site_begun, paying
        self.card_defs = [] if card_defs is None else card_defs
        self.pool = with_cards(tuple(self.card_defs)) if pool is None else pool

    def __post_init__(self) -> None:
        """After msgspec decoded the fields (it calls no ``__init__``): the pool, as ``StructMoranaState`` makes it.

        Set by name: msgspec allocates the object bare, and compiled, ``self.pool = ...`` would release the old
        value unchecked (see ``miras9.gamestate``). For the same reason an int or bool field a decoded document
        lacks reads 0 or False, not its default: a saved state is checked against the Struct first
        (``ruleset.decode_state``), and every state annals writes holds every field."""
        setattr(self, "pool", with_cards(tuple(self.card_defs)))  # noqa: B010

    def __copy__(self) -> MoranaState:
        """A copy sharing nothing the reducer changes (``statecopy.clone`` copies a state by this): each list and
        the Power dict its own, down to each Site's pile; the pool and the card definitions (frozen) shared."""
        return MoranaState(
            n=self.n, turn=self.turn, step=self.step, over=self.over, winner=self.winner, end_reason=self.end_reason,
            ids=[p.copy() for p in self.ids], wardens=self.wardens.copy(), wardens_seated=self.wardens_seated.copy(),
            deck=[p.copy() for p in self.deck], hand=[p.copy() for p in self.hand], nav=[p.copy() for p in self.nav],
            sites=[[k.copy() for k in side] for side in self.sites], power=self.power.copy(),
            sealed=self.sealed.copy(), sealed_sites=self.sealed_sites.copy(), reborning=self.reborning.copy(),
            revealed=self.revealed.copy(), invoking=self.invoking.copy(), invoked=self.invoked.copy(),
            slava=self.slava.copy(), embers=self.embers.copy(), offboard=self.offboard.copy(),
            reborns=self.reborns.copy(), initiative=self.initiative, initiative_next=self.initiative_next.copy(),
            committing=self.committing, boundary=self.boundary, site_begun=self.site_begun, paying=self.paying,
            card_defs=self.card_defs.copy(), pool=self.pool,
        )  # fmt: skip
