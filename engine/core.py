"""The contracts every ruleset fulfils, and the pieces of them all rulesets share.

* **State** is a msgspec Struct deriving from ``GameState`` (or, compiled, a native class with its fields:
  ``structs.State``, Miras 9's and MORANA's); only the reducer changes it.
* **Reducer**: ``apply(state, event)``, one per ruleset, built from a table of handlers by ``Reducer``. Unknown
  events raise ``UnknownEventError``. Folding the reducer over a log rebuilds any position.
* **Rules**: ``pending(state)`` names the next decision (who, which point, the legal options) or None when the
  engine proceeds on its own; ``advance(state, choice, emit, rng)`` decides what happens next and reports it only
  by calling ``emit(event)``, which applies the event and records it. All control state (phase, step, stack,
  priority, damage still owed) lives in the state, so a game can continue from any saved position.
* **Agents** are given their player's view (``engine.views.SeatView``: the state folded from the events as
  ``redact`` shows them to that player, with the card ids of cards they have not seen blanked) and a
  ``DecisionPoint``, and return one of its options. They are never handed the game's state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from annals.engine.errors import EventOrderError as EventOrderError
from annals.engine.errors import UnknownEventError as UnknownEventError
from annals.engine.rng import Rng
from annals.engine.structs import CardInfo as CardInfo
from annals.engine.structs import DecisionPoint as DecisionPoint
from annals.engine.structs import GameState as GameState
from annals.engine.structs import Position as Position
from annals.engine.structs import State as State
from annals.schemas.header import DeckList, LogHeader
from annals.schemas.records import ClockCharged, Event, Forfeited
from annals.schemas.rulesets import RulesetSchema

E = TypeVar("E", bound=Event)
Opt = TypeVar("Opt")
S = TypeVar("S", bound="State")
S_contra = TypeVar("S_contra", bound="State", contravariant=True)

Emit = Callable[[Any], None]


def from_event_zero(state: S) -> S:
    """``state`` numbered from event 0 (a continued game numbers its events afresh): ``n`` is 0, and a field of
    ``HELD_AT`` that held the position just after its last event still does."""
    held = {name: 0 if getattr(state, name) == state.n else -1 for name in type(state).HELD_AT}
    return replaced(state, n=0, **held)


def replaced(state: S, **changes: Any) -> S:
    """A shallow copy of ``state`` with ``changes``: ``msgspec.structs.replace`` for a Struct state, and for a
    native one (``structs.State``: a dataclass) ``dataclasses.replace``."""
    if isinstance(state, msgspec.Struct):
        return msgspec.structs.replace(state, **changes)
    return dataclasses.replace(state, **changes)  # type: ignore[type-var]


def _clock(state: State, event: ClockCharged) -> None:
    pass  # the time bank is the table's, not the rules'


def _forfeited(state: State, event: Forfeited) -> None:
    state.over, state.winner, state.end_reason = True, event.winner, event.reason


class Reducer(Generic[S]):
    """``apply(state, event)`` by dispatch on the event's exact type (a dict lookup, not ``match``).

    Every reducer also handles the table's events of ``schemas.records`` (``ClockCharged``, ``Forfeited``). A
    ruleset exports the bound method ``Reducer(...).apply`` as its ``apply``: called once per event, it costs half
    what calling the instance costs (``__call__``, the same function).
    """

    def __init__(self, handlers: Mapping[type[Any], Callable[[S, Any], None]]):
        self._handlers: dict[type[Any], Callable[[S, Any], None]] = {ClockCharged: _clock, Forfeited: _forfeited}
        self._handlers.update(handlers)

    def apply(self, state: S, event: Event) -> None:
        handler = self._handlers.get(type(event))
        if handler is None:
            raise UnknownEventError(f"no reducer handler for event {event!r}")
        n = state.n
        if event.n != n:
            raise EventOrderError(f"event {event!r} applied to a state that expects event number {n}")
        handler(state, event)
        state.n = n + 1

    def __call__(self, state: S, event: Event) -> None:  # ``apply`` itself is what rulesets export: no extra call
        self.apply(state, event)

    def recorder(self, state: S, events: list[Any]) -> Callable[[Event], None]:
        """``apply(state, event)`` then ``events.append(event)``, as one call: a game's ``emit`` when nothing else
        folds its events (``runner.Game``). The same checks as ``apply``; one call less per event."""
        handlers = self._handlers  # (``events.append`` called on the list itself: compiled, a direct append)

        def record(event: Event) -> None:
            try:
                handler = handlers[type(event)]
            except KeyError:
                raise UnknownEventError(f"no reducer handler for event {event!r}") from None
            n = state.n  # read once: a field of a msgspec Struct is a generic attribute read even when compiled
            if event.n != n:
                raise EventOrderError(f"event {event!r} applied to a state that expects event number {n}")
            handler(state, event)
            state.n = n + 1
            events.append(event)

        return record

    def handles(self) -> frozenset[type[Any]]:
        return frozenset(self._handlers)


class Agent(Protocol):
    """Chooses among legal options, given its player's view (never the game's state)."""

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any: ...


AgentFactory = Callable[[int, Rng], Agent]  # (player index, the agent's own generator) -> agent


class Ruleset(Protocol[S]):
    """What the shared runner, replay, views and tools need of a game."""

    schema: RulesetSchema
    state_type: type[S]
    default_max_turns: int  # the turn cap bot games get unless told otherwise (0: the rules always end the game)

    def card_pool_hash(self) -> str: ...

    def new_state(self, header: LogHeader) -> S:
        """The state before any event: a fresh set-up, or ``header.start_position`` decoded when present.

        Validates the decks, raising ``InvalidDeckError`` that names the rule broken.
        """
        ...

    def apply(self, state: S, event: Any) -> None: ...

    def pending(self, state: S) -> DecisionPoint[Any] | None: ...

    def advance(self, state: S, choice: Any, emit: Emit, rng: Rng) -> None: ...

    def redact(self, event: Any, viewer: int) -> Any:
        """The event as ``viewer`` sees it (-1 for a spectator): hidden cards replaced by unknowns."""
        ...

    def set_card_id(self, state: S, card: int, card_id: str) -> None:
        """Name (or with ``""`` blank) the card definition of instance ``card`` in a view's state: a view holds
        only the card ids of the cards its viewer has seen."""
        ...

    def position(self, state: S) -> Position:
        """Cards and counters of the state, by the conventions in ``schemas.records``."""
        ...

    def agents(self) -> Mapping[str, AgentFactory]:
        """Bots by name (``random``, ``heuristic``, ...)."""
        ...

    def decks(self) -> Mapping[str, DeckList]:
        """The ruleset's shipped decks by name."""
        ...

    def default_decks(self) -> tuple[str, str]:
        """The two decks ``simulate`` and ``play`` use when none are named (kept with the decks' data)."""
        ...

    def cards(self) -> Mapping[str, CardInfo]:
        """The card pool by card id, as players read it (empty for a game without cards)."""
        ...
