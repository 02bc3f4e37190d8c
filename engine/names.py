"""The engine's names and defaults that the command line shows in its help: who a view is for, and how long an
external program has per decision. Here, importing nothing, so that building ``annals --help`` (typer evaluates
every option's help text and default) loads no rules; ``engine.views`` and ``engine.players`` import them from
here."""

from __future__ import annotations

from typing import Final

VIEWERS: Final = {"omniscient": None, "player0": 0, "player1": 1, "spectator": -1}
VIEW_ALIASES: Final = {"p0": "player0", "p1": "player1"}  # the seats as every other place numbers them


def plural(n: int, thing: str) -> str:
    """``1 card``, ``0 cards``, ``3 tables``: the one helper for a count in words (the board, reviews, the event's
    lines); here, light, for the command line, and ``engine.words`` gives it to the sentences."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


# what turn 0 is to a person: what is done before turn 1 [M9-019]-[M9-022], [MOR-33], in the rules' word ("setup",
# [M9-020]) as the steps say it ("Setup: site phase")
SET_UP: Final = "setup"


def turn_said(turn: int) -> str:
    """``turn 5`` as a person reads it, ``setup`` for turn 0 (mulligans, starting Sites, Wardens: before turn 1).
    Machine outputs (CSV, JSON, the database, ``show --format records``, coordinates) keep the number."""
    return f"turn {turn}" if turn > 0 else SET_UP


def view_named(view: str) -> str:
    """A view's name as ``VIEWERS`` has it: ``p0`` and ``p1`` stand for ``player0`` and ``player1``."""
    return VIEW_ALIASES.get(view, view)


VIEW_HELP: Final = "omniscient, player0 (or p0), player1 (or p1), spectator"
DECISION_TIMEOUT: Final = 30.0  # seconds an external program has to answer one decision
MAX_CLOCK_S: Final = 24 * 3600  # a seat's time bank: a day per seat is more than any game people play
# ``annals join``: how long a connection lost after the table was reached is tried again (clients.reconnect says why)
RECONNECT_S: Final = 120.0
ROUND_MINUTES: Final = 50  # an event round's clock (``annals event round start``) unless the organiser says otherwise
SEARCH_ITERATIONS: Final = 200  # the search bot's budget a decision (``annals review``): under a second on a core
MAX_SEARCH_ITERATIONS: Final = 100_000  # minutes a decision already: a budget past it is a slip of the keyboard
BOTS: Final = ("random", "heuristic", "search")  # every ruleset's bots (``Ruleset.agents``), named in --bots' help
# what the bots cost in time, said wherever one is chosen (help and docs/player.md; bench.search measures it)
BOTS_COST: Final = "search plays best and thinks up to about a second a decision; the others answer at once"
BOTS_HELP: Final = f"Two bot names, comma-separated, from: {', '.join(BOTS)} ({BOTS_COST})."
SEAT_BOTS: Final = f"human or a bot: {', '.join(BOTS)} ({BOTS_COST})"  # a seat of play, serve, an event
