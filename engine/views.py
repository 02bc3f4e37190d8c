"""Hidden information is a view: a whole log as one player, or a spectator, may see it.

Logs are omniscient. A view passes every event through the ruleset's ``redact`` (the opponent's hand, deck order
and face-down cards become unknown) and keeps only the viewer's own decisions in full: of anyone else's it keeps
who decided and at which point, not the options offered (they can list hidden cards) nor the choice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from annals.engine.core import GameState, Position, Ruleset
from annals.engine.registry import get_ruleset
from annals.schemas.errors import AnnalsError
from annals.schemas.header import LogHeader
from annals.schemas.logfile import GameLog
from annals.schemas.records import Decision

VIEWERS = {"omniscient": None, "player0": 0, "player1": 1, "spectator": -1}


class UnknownViewError(AnnalsError, ValueError):
    """A view name that is not one of ``VIEWERS``."""


def viewer_of(view: str) -> int | None:
    if view not in VIEWERS:
        raise UnknownViewError(f"unknown view {view!r}; choose one of: {', '.join(VIEWERS)}")
    return VIEWERS[view]


def hidden_decision(decision: Decision[Any]) -> Decision[Any]:
    return Decision(decision.n, decision.at, decision.player, decision.point, [], -1)


def view_log(game: GameLog, viewer: int | None) -> GameLog:
    """The log as ``viewer`` sees it (``None``: omniscient, ``-1``: a spectator, else a player index)."""
    if viewer is None:
        return game
    redact = get_ruleset(game.header.ruleset).redact
    events = [redact(event, viewer) for event in game.events]
    decisions = [d if d.player == viewer else hidden_decision(d) for d in game.decisions]
    return GameLog(game.header, events, decisions, game.close, game.digest)


def view_state(ruleset: Ruleset[Any], header: LogHeader, events: Iterable[Any], viewer: int) -> GameState:
    """The state as ``viewer`` knows it: the reducer folded over the events as ``redact`` shows them (hidden cards
    are placeholders, below 1000). This is all a player's client or bot is given."""
    state: GameState = ruleset.new_state(header)
    redact, apply = ruleset.redact, ruleset.apply
    for event in events:
        apply(state, redact(event, viewer))
    return state


def visible_position(ruleset: Ruleset[Any], state: GameState) -> Position:
    """``Ruleset.position`` of a view's state without its placeholders (cards the viewer cannot identify) and
    without counters at 0."""
    position = ruleset.position(state)
    cards = {c: zone for c, zone in position.cards.items() if c > 0}
    return Position(cards, {k: v for k, v in position.counters.items() if v})
