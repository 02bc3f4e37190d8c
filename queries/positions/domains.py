"""The domain of every field of a position file's state: what values a position may hold, checked before it is used.

Two passes. The first walks the decoded state by its type (``msgspec.inspect``): every integer anywhere must fit
the 32-bit columns the database and the log's readers use (so no overflow reaches the engine). The second checks
each ruleset's fields against their domains: players are 0 or 1 (or -1 where "nobody" is allowed), card instances
are cards of the position (of its decks, or a token it lists), card ids are in the card pool, phases and steps are
the engine's, counters are within the rules' bounds, and the flags that say a game is over agree with its winner.

Every problem is an ``InvalidPositionError`` that names the field path (``state.players[1].echo``), the bad value
and what would be accepted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import msgspec

from annals.schemas.errors import AnnalsError
from annals.schemas.header import DeckList
from annals.schemas.records import CARDS_PER_PLAYER, LEADER_INDEX, TOKEN_BASE, instance_id

INT_LIMIT = 1 << 31
COUNTER_MAX = 10_000  # no counter of either game comes near this (Slava wins at 13, Echo and Embers stay small)
TURN_MAX = 100_000


class InvalidPositionError(AnnalsError, ValueError):
    """A position file describes an impossible position, or is not a position file."""


def bad(path: str, value: Any, expected: str) -> InvalidPositionError:
    shown = repr(value)
    shown = shown if len(shown) <= 60 else f"{shown[:60]}..."
    return InvalidPositionError(f"state.{path} = {shown} is not allowed: {expected}; edit it in the position file")


def check_ints(value: Any, path: str = "") -> None:
    """Every integer in the state within the signed 32-bit range (the first pass)."""
    if type(value) is int:
        if not -INT_LIMIT <= value < INT_LIMIT:
            raise bad(path, value, f"numbers in a position are within -{INT_LIMIT} .. {INT_LIMIT - 1}")
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            check_ints(getattr(value, name), f"{path}.{name}" if path else name)
    elif dataclasses.is_dataclass(value):  # a Miras 9 card (``miras9.cardstate``)
        for field in dataclasses.fields(value):
            check_ints(getattr(value, field.name), f"{path}.{field.name}" if path else field.name)
    elif isinstance(value, list | tuple):
        for i, v in enumerate(value):
            check_ints(v, f"{path}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            check_ints(k, f"{path} key")
            check_ints(v, f"{path}[{k!r}]")


class Fields:
    """Checks of one state's fields, with what a position knows: its card instances and the card pool."""

    def __init__(self, decks: Sequence[DeckList], pool: Collection[str], fresh: Any = None):
        self.decks = decks
        self.fresh = fresh  # the state a new game with these decks starts from: fields the decks alone decide
        self.cards: dict[int, str] = {}  # instance -> card id, of the decks and their leaders
        for seat, deck in enumerate(decks):
            self.cards.update((instance_id(seat, i), card) for i, card in enumerate(deck.cards))
            if deck.leader:
                self.cards[instance_id(seat, LEADER_INDEX)] = deck.leader
        self.pool = pool
        self.players = len(decks)

    def cards_of(self, seat: int) -> list[str]:
        return list(self.decks[seat].cards)

    def leader_of(self, seat: int) -> str:
        return self.decks[seat].leader

    def range(self, path: str, value: Any, lo: int, hi: int, what: str = "") -> None:
        if type(value) is not int or not lo <= value <= hi:
            raise bad(path, value, f"{what or 'it'} is a whole number from {lo} to {hi}")

    def player(self, path: str, value: Any, *, nobody: bool = False) -> None:
        lo = -1 if nobody else 0
        self.range(path, value, lo, self.players - 1, "a player (0 or 1" + (", -1 for nobody)" if nobody else ")"))

    def one_of(self, path: str, value: Any, allowed: Iterable[str]) -> None:
        options = list(allowed)
        if value not in options:
            raise bad(path, value, f"one of {', '.join(repr(o) for o in options)}")

    def length(self, path: str, value: list[Any], n: int) -> None:
        if len(value) != n:
            raise bad(path, value, f"a list of {n} entries (one per player or place)")

    def card(self, path: str, value: Any, known: Callable[[int], bool] | None = None) -> None:
        ok = known(value) if known is not None else value in self.cards
        if type(value) is not int or not ok:
            seats = ", ".join(f"seat {p}: {instance_id(p, 0)}..{instance_id(p, 0) + 998}" for p in range(self.players))
            raise bad(path, value, f"a card instance of this position ({seats}, leaders x999, tokens listed)")

    def cards_in(self, path: str, values: list[Any], known: Callable[[int], bool] | None = None) -> None:
        for i, v in enumerate(values):
            self.card(f"{path}[{i}]", v, known)

    def as_dealt(self, state: Any, name: str) -> None:
        """A field the decks alone decide (the ruleset's ``new_state`` sets it, no event changes it)."""
        if getattr(state, name) != getattr(self.fresh, name):
            raise bad(name, getattr(state, name), f"{getattr(self.fresh, name)!r}, as the decks give it")

    def card_id(self, path: str, value: Any) -> None:
        if value not in self.pool:
            raise bad(path, value, "a card id of this card pool (see the decks and the `cards` legend)")

    def game_end(self, state: Any) -> None:
        """``over``, ``winner`` and ``end_reason`` agree: a winner only once over; an end reason exactly when over."""
        self.player("winner", state.winner, nobody=True)
        if not state.over and state.winner != -1:
            raise bad("winner", state.winner, "-1 while the game is not over (set over to true, or winner to -1)")
        if state.over != bool(state.end_reason):
            raise bad("end_reason", state.end_reason, "set exactly when the game is over (with over: true)")
        self.range("turn", state.turn, 0, TURN_MAX, "the turn")
        self.range("n", state.n, 0, INT_LIMIT - 1, "the event count")


def seat_of(card: int) -> int:
    return card // CARDS_PER_PLAYER - 1


def is_leader(card: int) -> bool:
    return card % CARDS_PER_PLAYER == LEADER_INDEX and card < TOKEN_BASE
