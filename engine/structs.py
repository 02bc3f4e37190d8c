"""The engine's msgspec Structs shared by every ruleset: the state's common fields (and ``State``, what the shared
code reads of any state), a decision point, a position, a card as players read it, a game's result. Kept out of the
modules the compiled build compiles (``engine.compiled``): mypyc's checks of a Struct class defined in a compiled
module reject its instances; ``engine.core`` and ``engine.runner`` re-export them, which is where the rest of the
code imports them from."""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import ClassVar, Generic, Protocol, TypeVar

import msgspec

Opt = TypeVar("Opt")
T = TypeVar("T")


class GameState(msgspec.Struct, kw_only=True):
    """Fields every game state has; rulesets subclass and add theirs (with defaults, or kw_only)."""

    n: int = 0  # events applied so far: the next event's number
    turn: int = 0
    step: str = "setup"
    over: bool = False
    winner: int = -1  # -1: none yet, or a draw once ``over``
    end_reason: str = ""

    # the fields that hold "just after event n": a position is held there while the field equals ``n``
    HELD_AT: ClassVar[tuple[str, ...]] = ()


class State(Protocol):
    """What the engine's shared code (runner, views, replay) reads and writes of any ruleset's state: the fields of
    ``GameState``. A ruleset's state is a ``GameState`` Struct, or a class with the same common fields (Miras 9's
    and MORANA's compiled states, native classes: ``miras9.gamestate``, ``morana.gamestate``)."""

    n: int
    turn: int
    step: str
    over: bool
    winner: int
    end_reason: str
    HELD_AT: ClassVar[tuple[str, ...]]


def typed_like(native: type[T], struct: type[msgspec.Struct]) -> type[T]:
    """``native`` (a compiled ruleset's native dataclass) with its fields declared as its Struct twin ``struct``
    declares them: mypyc leaves a native dataclass only their erased types (``list`` for ``list[int]``, ``dict``
    for ``dict[int, int]``), with which msgspec would decode a pile's items unchecked and a dict's int keys as
    text. (Still unlike the Struct: a missing int field of a native class decodes as 0, not as its default or an
    error, for msgspec sets only the fields the object lacks and mypyc's int fields are never lacking; every file
    annals writes holds every field, and a saved state is checked against the Struct first.)"""
    native.__annotations__ = typing.get_type_hints(struct)
    return native


class DecisionPoint(msgspec.Struct, Generic[Opt], frozen=True, gc=False):
    """A question the engine asks one player: the point's name and the typed legal options."""

    player: int
    point: str
    options: Sequence[Opt]


class Position(msgspec.Struct, frozen=True):
    """Where every card is and every counter's value: what a log fold and the SQL ``position()`` macro agree on.

    ``cards`` maps card instance to zone (the ``dst`` convention in ``schemas.records``); ``counters`` maps
    ``"holder:counter"`` to its value.
    """

    cards: dict[int, str]
    counters: dict[str, int]


class CardInfo(msgspec.Struct, frozen=True):
    """A card of a ruleset's pool as a player reads it (``annals card NAME``, ``annals cards RULESET``).

    ``cost`` is what playing it costs in the ruleset's currency, None for a card that is never paid for (a
    Miras 9 Planet or token, a MORANA Warden); ``stats`` are its printed numbers in printed order
    (``{"ATK": 3, "GRIT": 2, "ECHO": 1}``); ``text`` its rules text.
    """

    id: str
    name: str
    type: str
    cost: int | None
    stats: dict[str, int]
    text: str


class GameResult(msgspec.Struct, frozen=True):
    game_id: str
    winner: int
    end_reason: str
    events: int
    decisions: int
    turns: int
    digest: str  # the log's final chain digest ("" when no log was written)
    seats: list[str] = []  # who sat where: "bot/deck" for each seat, so results can be counted per side
    path: str = ""  # the log written ("" when none was)
    note: str = ""  # why a game ended outside the rules (a forfeit's message)

    @property
    def winner_seat(self) -> str:
        return self.seats[self.winner] if self.winner >= 0 else ""
