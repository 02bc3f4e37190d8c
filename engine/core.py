"""The contracts every ruleset fulfils, and the pieces of them all rulesets share.

* **State** is a msgspec Struct deriving from ``GameState``; only the reducer changes it.
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

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import msgspec

from annals.engine.errors import EventOrderError as EventOrderError
from annals.engine.errors import UnknownEventError as UnknownEventError
from annals.engine.rng import Rng
from annals.schemas.header import DeckList, LogHeader
from annals.schemas.records import ClockCharged, Event, Forfeited
from annals.schemas.rulesets import RulesetSchema

E = TypeVar("E", bound=Event)
Opt = TypeVar("Opt")
S = TypeVar("S", bound="GameState")
S_contra = TypeVar("S_contra", bound="GameState", contravariant=True)

Emit = Callable[[Any], None]


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


def from_event_zero(state: S) -> S:
    """``state`` numbered from event 0 (a continued game numbers its events afresh): ``n`` is 0, and a field of
    ``HELD_AT`` that held the position just after its last event still does."""
    held = {name: 0 if getattr(state, name) == state.n else -1 for name in type(state).HELD_AT}
    return msgspec.structs.replace(state, n=0, **held)


class DecisionPoint(msgspec.Struct, Generic[Opt], frozen=True, gc=False):
    """A question the engine asks one player: the point's name and the typed legal options."""

    player: int
    point: str
    options: Sequence[Opt]


def _clock(state: GameState, event: ClockCharged) -> None:
    pass  # the time bank is the table's, not the rules'


def _forfeited(state: GameState, event: Forfeited) -> None:
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
        if event.n != state.n:
            raise EventOrderError(f"event {event!r} applied to a state that expects event number {state.n}")
        handler(state, event)
        state.n += 1

    __call__ = apply

    def recorder(self, state: S, events: list[Any]) -> Callable[[Event], None]:
        """``apply(state, event)`` then ``events.append(event)``, as one call: a game's ``emit`` when nothing else
        folds its events (``runner.Game``). The same checks as ``apply``; one call less per event."""
        handlers, append = self._handlers, events.append

        def record(event: Event) -> None:
            try:
                handler = handlers[type(event)]
            except KeyError:
                raise UnknownEventError(f"no reducer handler for event {event!r}") from None
            if event.n != state.n:
                raise EventOrderError(f"event {event!r} applied to a state that expects event number {state.n}")
            handler(state, event)
            state.n += 1
            append(event)

        return record

    def handles(self) -> frozenset[type[Any]]:
        return frozenset(self._handlers)


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
