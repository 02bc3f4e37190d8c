"""A forward model for search: a game that can be copied and stepped, thousands of times per decision.

A search bot (Monte Carlo tree search, say) asks of a position: whose decision is it, what are the options, what
happens after each, who wins a playout. ``ForwardModel`` answers with the same rules code the runner drives, so
what a search sees is what the game would do:

>>> from annals.engine.registry import get_ruleset
>>> from annals.engine.simulate import make_header
>>> ruleset = get_ruleset("morana")
>>> game = ForwardModel.start(ruleset, make_header(ruleset, 7, ["clash", "glory"], ["random", "random"]))
>>> game.to_move(), len(game.legal_options()) > 0
(0, True)
>>> trial = game.copy()                        # copied: stepping the trial never touches the game
>>> events = trial.step(trial.legal_options()[0])
>>> trial.state.n > game.state.n, game.copy().step(game.legal_options()[0]) == events
(True, True)

* ``legal_options()`` are the options of the decision now pending, in the order the runner offers them (a choice
  is one of them); the automatic steps between decisions are run as soon as they are reached, so a model is always
  at a decision or at the end.
* ``step(choice)`` applies a choice and every automatic step after it, and returns the events they made, exactly
  those the runner would log (chance is drawn from the model's own copy of the engine's generator).
* ``copy()`` clones the state (``engine.statecopy.clone``: only what the reducer can change is copied) and the
  generator; the ruleset and the options already offered are shared (both are read, never changed).
* ``is_over()`` once the rules end the game or the header's turn cap is passed; ``winner()`` is then the winner's
  seat, -1 for a draw or a capped game.

The model holds the omniscient state: a search bot must build it from a world consistent with its seat's view
(issue 32), never from the real game's state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic

from annals.engine.core import DecisionPoint, Reducer, Ruleset, S
from annals.engine.rng import Rng
from annals.engine.runner import finalize_header, stalled_error
from annals.engine.statecopy import clone
from annals.schemas.errors import IllegalDecisionError
from annals.schemas.header import LogHeader

Recorder = Callable[[S, list[Any]], Callable[[Any], None]]


class ForwardModel(Generic[S]):
    """A game's state and generator under its ruleset, stepped by choices; see the module's docstring."""

    __slots__ = ("_point", "_record", "max_turns", "rng", "ruleset", "state")

    def __init__(self, ruleset: Ruleset[S], state: S, rng: Rng, *, max_turns: int = 0):
        self.ruleset = ruleset
        self.state = state
        self.rng = rng
        self.max_turns = max_turns  # 0: no cap
        reducer = getattr(ruleset.apply, "__self__", None)
        self._record: Recorder[S] = reducer.recorder if isinstance(reducer, Reducer) else _recorder(ruleset)
        self._point: DecisionPoint[Any] | None = None
        self._settle([])

    @classmethod
    def start(cls, ruleset: Ruleset[S], header: LogHeader) -> ForwardModel[S]:
        """A new game of ``header`` (its seed, decks, start position and turn cap), at its first decision."""
        header = finalize_header(header)
        return cls(ruleset, ruleset.new_state(header), Rng(header.seed), max_turns=header.max_turns)

    def copy(self) -> ForwardModel[S]:
        twin = ForwardModel.__new__(ForwardModel)
        twin.ruleset, twin.max_turns, twin._record = self.ruleset, self.max_turns, self._record
        twin.state = clone(self.state)
        twin.rng = Rng(self.rng.state)
        twin._point = self._point
        return twin

    def is_over(self) -> bool:
        return self._point is None

    def winner(self) -> int:
        """The winning seat once the rules have ended the game; -1 for a draw, a capped game, or one still on."""
        return self.state.winner if self.state.over else -1

    def to_move(self) -> int:
        """The seat whose decision is pending (-1 once the game is over)."""
        return -1 if self._point is None else self._point.player

    def decision(self) -> DecisionPoint[Any] | None:
        """The decision pending (its point's name, its player and options), None once the game is over."""
        return self._point

    def legal_options(self) -> Sequence[Any]:
        return () if self._point is None else self._point.options

    def step(self, choice: Any) -> list[Any]:
        """Apply ``choice`` (one of ``legal_options()``, else ``IllegalDecisionError`` with nothing changed) and the
        automatic steps after it, up to the next decision or the end; returns the events they made."""
        point = self._point
        if point is None or choice not in point.options:
            where = "the game is over" if point is None else f"the options at {point.point!r} are {point.options!r}"
            raise IllegalDecisionError(f"{choice!r} is not a legal option: {where}")
        events: list[Any] = []
        self.ruleset.advance(self.state, choice, self._record(self.state, events), self.rng)
        self._settle(events)
        return events

    def _settle(self, events: list[Any]) -> None:
        """Run the automatic steps (into ``events``) until a decision is pending or the game is over."""
        s, pending, advance = self.state, self.ruleset.pending, self.ruleset.advance
        cap = self.max_turns
        emit = self._record(s, events)
        while not s.over and not (cap and s.turn > cap):
            point = pending(s)
            if point is not None:
                self._point = point
                return
            before = s.n
            advance(s, None, emit, self.rng)
            if s.n == before:
                raise stalled_error(s)
        self._point = None


def _recorder(ruleset: Ruleset[S]) -> Recorder[S]:
    """``Reducer.recorder`` for a ruleset whose ``apply`` is a plain function."""
    apply = ruleset.apply

    def recorder(state: S, events: list[Any]) -> Callable[[Any], None]:
        def record(event: Any) -> None:
            apply(state, event)
            events.append(event)

        return record

    return recorder
