"""Hidden information is a view: a whole log as one player, or a spectator, may see it.

Logs are omniscient. A view passes every event through the ruleset's ``redact`` (the opponent's hand, deck order
and face-down cards become unknown) and keeps only the viewer's own decisions in full: of anyone else's it keeps
who decided and at which point, not the options offered (they can list hidden cards) nor the choice.
"""

from __future__ import annotations

from typing import Any

from annals.engine.registry import get_ruleset
from annals.schemas.errors import UnknownNameError
from annals.schemas.logfile import GameLog
from annals.schemas.records import Decision

VIEWERS = {"omniscient": None, "player0": 0, "player1": 1, "spectator": -1}


class UnknownViewError(UnknownNameError, ValueError):
    """A view name that is not one of ``VIEWERS``."""


def viewer_of(view: str) -> int | None:
    if view not in VIEWERS:
        raise UnknownViewError("view", view, VIEWERS)
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
    # Judges' records are public; abandoned branches hold hidden cards like the game does, and are left out.
    return GameLog(game.header, events, decisions, game.close, game.digest, game.judged)
