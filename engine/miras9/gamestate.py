"""The whole Miras 9 game state (``M9State``) as a dataclass, as a card and a player are (``cardstate``,
``playerstate``): compiled (``engine.compiled``), a native class whose fields the rules read and the reducer writes
as C struct members, where a msgspec Struct's field is a generic attribute read even compiled (some 20 reads of
the state an event: ``n``, ``pool``, ``cards``, ``turn``, ``wave``, ``players``). msgspec encodes and decodes a
dataclass as it does a Struct: the same fields in the same order, the same bytes in a saved state or a position
file. Interpreted, the state stays the Struct it was (``state.StructM9State``, its twin: what ``state.M9State``
names there; tests/miras9/test_gamestate.py holds the two to the same encoding and copies).

Not a ``core.GameState`` (a Struct): it has the same six common fields, which is what the engine's shared code
reads (``core.State``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from annals.engine.miras9.cardstate import CardState
from annals.engine.miras9.playerstate import PlayerState, Wave
from annals.engine.miras9.pool import Pool, with_cards
from annals.engine.miras9.stackitem import Spent, StackItem
from annals.schemas.carddefs import CardDefinition

EDITION = 3  # the rules edition new games are played by (``state.EDITION`` re-exports it)


class Derived:
    """What a state derives from its fields and never encodes: the game's card pool (``with_cards`` of its
    ``card_defs``), which every rule reads (``s.pool[cid]``). A base class that is not a dataclass, so that its
    attribute is no dataclass field (msgspec encodes and decodes the fields only). ``HELD_AT`` (``core.State``)
    here too: compiled, a ``ClassVar`` of the dataclass itself would be a field (mypyc erases the annotation)."""

    pool: Pool
    HELD_AT: ClassVar[tuple[str, ...]] = ("boundary",)


@dataclass(init=False)  # the __init__ below: mypyc compiles it (see ``cardstate``)
class M9State(Derived):
    """The game: the fields of ``state.StructM9State`` (the common ones of ``core.GameState`` first), in its order."""

    n: int = 0
    turn: int = 0
    step: str = "setup"
    over: bool = False
    winner: int = -1
    end_reason: str = ""
    cards: dict[int, CardState] = field(default_factory=dict)
    players: list[PlayerState] = field(default_factory=list)
    board: list[int] = field(default_factory=list)
    active: int = 0
    first: int = -1
    phase: str = "setup"
    window: str = ""
    priority: int = -1
    passes: int = 0
    stack: list[StackItem] = field(default_factory=list)
    stack_cards: list[int] = field(default_factory=list)
    wave: Wave | None = None
    waves: int = 0
    attacked: list[int] = field(default_factory=list)
    bd_player: int = -1
    bd_sources: list[int] = field(default_factory=list)
    bd_paid: int = 0
    bw_card: int = 0
    extra: list[int] = field(default_factory=list)
    extra_lane: int = -1
    once: list[Spent] = field(default_factory=list)
    manifested: list[int] = field(default_factory=list)
    pressured: list[int] = field(default_factory=list)
    next_token: int = 0
    boundary: int = -1
    edition: int = EDITION
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
        cards: dict[int, CardState] | None = None,
        players: list[PlayerState] | None = None,
        board: list[int] | None = None,
        active: int = 0,
        first: int = -1,
        phase: str = "setup",
        window: str = "",
        priority: int = -1,
        passes: int = 0,
        stack: list[StackItem] | None = None,
        stack_cards: list[int] | None = None,
        wave: Wave | None = None,
        waves: int = 0,
        attacked: list[int] | None = None,
        bd_player: int = -1,
        bd_sources: list[int] | None = None,
        bd_paid: int = 0,
        bw_card: int = 0,
        extra: list[int] | None = None,
        extra_lane: int = -1,
        once: list[Spent] | None = None,
        manifested: list[int] | None = None,
        pressured: list[int] | None = None,
        next_token: int = 0,
        boundary: int = -1,
        edition: int = EDITION,
        card_defs: list[CardDefinition] | None = None,
        pool: Pool | None = None,  # not a field: a copy passes its original's, else it is made from ``card_defs``
    ) -> None:
        self.n, self.turn, self.step, self.over, self.winner, self.end_reason = n, turn, step, over, winner, end_reason
        self.cards = {} if cards is None else cards
        self.players = [] if players is None else players
        self.board = [] if board is None else board
        self.active, self.first, self.phase, self.window, self.priority = active, first, phase, window, priority
        self.passes, self.wave, self.waves = passes, wave, waves
        self.stack = [] if stack is None else stack
        self.stack_cards = [] if stack_cards is None else stack_cards
        self.attacked = [] if attacked is None else attacked
        self.bd_player, self.bd_paid, self.bw_card, self.extra_lane = bd_player, bd_paid, bw_card, extra_lane
        self.bd_sources = [] if bd_sources is None else bd_sources
        self.extra = [] if extra is None else extra
        self.once = [] if once is None else once
        self.manifested = [] if manifested is None else manifested
        self.pressured = [] if pressured is None else pressured
        self.next_token, self.boundary, self.edition = next_token, boundary, edition
        self.card_defs = [] if card_defs is None else card_defs
        self.pool = with_cards(tuple(self.card_defs)) if pool is None else pool

    def __post_init__(self) -> None:
        """After msgspec decoded the fields (it calls no ``__init__``): the pool, as ``StructM9State`` makes it.

        Set by name: msgspec allocates the object bare, and compiled, ``self.pool = ...`` would release the old
        value unchecked (mypyc takes a field ``__init__`` always sets for always set), which here is none. For the
        same reason an int field a decoded document lacks reads 0, not its default (as for a card or a player:
        ``state._typed``); every state annals writes holds every field."""
        setattr(self, "pool", with_cards(tuple(self.card_defs)))  # noqa: B010

    def __copy__(self) -> M9State:
        """A copy sharing nothing the reducer changes (``statecopy.clone`` copies a state by this): each card,
        player, list, stack item and the wave its own; the pool, the card definitions and the once-per-turn marks
        (frozen) shared."""
        w = self.wave
        return M9State(
            n=self.n, turn=self.turn, step=self.step, over=self.over, winner=self.winner, end_reason=self.end_reason,
            cards={c: cs.__copy__() for c, cs in self.cards.items()},
            players=[pl.__copy__() for pl in self.players], board=self.board.copy(), active=self.active,
            first=self.first, phase=self.phase, window=self.window, priority=self.priority, passes=self.passes,
            stack=[StackItem(i.card, i.ability, i.target, i.controller, i.dest) for i in self.stack],
            stack_cards=self.stack_cards.copy(), wave=None if w is None else w.__copy__(), waves=self.waves,
            attacked=self.attacked.copy(), bd_player=self.bd_player, bd_sources=self.bd_sources.copy(),
            bd_paid=self.bd_paid, bw_card=self.bw_card, extra=self.extra.copy(), extra_lane=self.extra_lane,
            once=self.once.copy(), manifested=self.manifested.copy(), pressured=self.pressured.copy(),
            next_token=self.next_token, boundary=self.boundary, edition=self.edition,
            card_defs=self.card_defs.copy(), pool=self.pool,
        )  # fmt: skip
