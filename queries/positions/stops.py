"""Where a real game stops: the event counts a position may be taken at and started from (issue 13, "stop
anywhere").

A game stops between two moves of the rules (``Game.step``: a decision and its consequences, or one automatic
advance) and, inside an automatic advance, at the boundaries a ruleset's state holds: just after a MORANA Dusk,
Rite or Dawn began (``MoranaState.boundary``), just after a Miras 9 turn, its Awaken phase or a wave step whose
window opens next began (``M9State.boundary``). Anywhere else the game is inside one action of the rules (a card
played but not yet paid for, Embers paid for a Commit not yet sealed, a Site half resolved): a position there
would go on from a state no rule ever leaves the game in, so it is refused with ``NotAStopError`` naming the stops
on either side.

The stops are found by playing the log's game again with its own decisions (``engine.runner.Game``), so they are
exact for the game as the rules run it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from annals.engine.core import DecisionPoint
from annals.engine.registry import ruleset_for
from annals.engine.runner import Game
from annals.schemas.errors import AnnalsError
from annals.schemas.logfile import GameLog
from annals.schemas.records import TABLE_EVENTS


class NotAStopError(AnnalsError, ValueError):
    """A coordinate inside one action of the rules: no position is held there."""


def _morana_held(s: Any) -> bool:
    return (bool(s.boundary) or s.site_begun == s.n) and not s.over


def _miras9_held(s: Any) -> bool:
    from annals.engine.miras9.turn import at_boundary

    return at_boundary(s)


HELD: dict[str, Callable[[Any], bool]] = {"morana": _morana_held, "miras9": _miras9_held}


class _Recorded:
    """Every seat's agent: the log's decisions, in order."""

    def __init__(self, log: GameLog):
        self.decisions = log.decisions
        self.i = 0

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        d = self.decisions[self.i]
        self.i += 1
        return d.offered[d.chosen]


def stops(log: GameLog) -> list[int]:
    """The event counts (0 .. len(events)) at which the log's game stops, in order (see the module docstring)."""
    ruleset = ruleset_for(log.header)
    held = HELD.get(log.header.ruleset, lambda s: False)
    agent = _Recorded(log)
    at: set[int] = set()
    game: Game | None = None

    def seen(event: Any) -> None:
        if game is not None and held(game.state):
            at.add(game.state.n)

    game = Game(ruleset, log.header, [agent] * len(log.header.players), on_event=seen, views=False)
    s = game.state
    events = log.events
    at.add(s.n)
    while not s.over and s.n < len(events):
        if type(events[s.n]) in TABLE_EVENTS:
            game.emit(events[s.n])  # the clock and forfeits come from the table, not the rules
        elif agent.i == len(log.decisions) and ruleset.pending(s) is not None:
            break  # a game stopped at a decision (a judge's, a scenario's)
        else:
            game.step()
        at.add(s.n)
        game.take_batch()
    return sorted(n for n in at if n <= len(events))


def check_stop(log: GameLog, count: int, known: list[int] | None = None) -> None:
    """``NotAStopError`` unless the game stops after ``count`` events, naming the nearest stops around it."""
    at = known if known is not None else stops(log)
    i = bisect_right(at, count)
    if at[i - 1] == count:
        return

    def coordinate(n: int) -> str:
        return "start" if n == 0 else f"event:{n - 1}"

    after = f" or {coordinate(at[i])} (after it)" if i < len(at) else ""
    event = log.events[count - 1]
    raise NotAStopError(
        f"after event {count - 1} ({type(event).__name__}) the game is inside one action of the rules, where no "
        f"position holds; choose {coordinate(at[i - 1])} (before it){after}"
    )
