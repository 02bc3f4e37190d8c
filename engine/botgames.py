"""A bot game from its header: each seat's generator, its bots, its log's name, the game played (for
``engine.simulate`` and the tasks of ``engine.shards``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from annals.engine.core import Agent, Ruleset
from annals.engine.rng import Rng
from annals.engine.runner import GameResult, play
from annals.schemas.header import LogHeader

SEAT_STREAMS = 0x5EA7  # agents' generators derive from the game seed, apart from the engine's own stream


def seat_rngs(header: LogHeader) -> list[Rng]:
    """One generator per seat, derived from the header's seed: the same game always gets the same bot choices."""
    seats = Rng(header.seed ^ SEAT_STREAMS)
    return [seats.fork(i) for i in range(len(header.players))]


def bots_for(ruleset: Ruleset[Any], header: LogHeader) -> list[Agent]:
    """The header's bots, each with its seat's generator."""
    factories = ruleset.agents()
    return [
        factories[p.agent](i, rng) for i, (p, rng) in enumerate(zip(header.players, seat_rngs(header), strict=True))
    ]


def log_name(header: LogHeader) -> str:
    """``RULESET-SEED-GAMEID.log``: how annals names a game's log file (seed zero-padded, so names sort by it)."""
    return f"{header.ruleset}-{header.seed:08d}-{header.game_id}.log"


def play_one(ruleset: Ruleset[Any], header: LogHeader, out: Path | None) -> GameResult:
    """A bot game; its log replaces a file of the same name, which holds the same game (bot games are a function
    of their header, and simulated logs are named by game id)."""
    return play(ruleset, header, bots_for(ruleset, header), out, overwrite=True)
