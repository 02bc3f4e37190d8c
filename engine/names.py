"""The engine's names and defaults that the command line shows in its help: who a view is for, and how long an
external program has per decision. Here, importing nothing, so that building ``annals --help`` (typer evaluates
every option's help text and default) loads no rules; ``engine.views`` and ``engine.players`` import them from
here."""

from __future__ import annotations

from typing import Final

VIEWERS: Final = {"omniscient": None, "player0": 0, "player1": 1, "spectator": -1}
DECISION_TIMEOUT: Final = 30.0  # seconds an external program has to answer one decision
ROUND_MINUTES: Final = 50  # an event round's clock (``annals event round start``) unless the organiser says otherwise
SEARCH_ITERATIONS: Final = 200  # the search bot's budget a decision (``annals review``): under a second on a core
