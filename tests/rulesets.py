"""Helpers to play any registered ruleset in tests: seeded bot games, state snapshots at every event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from annals.engine.core import Ruleset
from annals.engine.registry import get_ruleset, ruleset_names
from annals.engine.runner import Game, GameResult
from annals.engine.simulate import bots_for, make_header, play_one
from annals.schemas.header import LogHeader

ALL_RULESETS = ruleset_names()  # the real rulesets and the toys (registered by tests/conftest.py)
TEST_TURN_CAP = 60
_encode = msgspec.msgpack.encode


def seeded_header(name: str, seed: int, bots: tuple[str, str] = ("random", "random")) -> LogHeader:
    ruleset = get_ruleset(name)
    decks = sorted(ruleset.decks())
    pair = [decks[seed % len(decks)], decks[(seed + 1) % len(decks)]]
    return make_header(ruleset, seed, pair, list(bots), max_turns=TEST_TURN_CAP)


def play_to_file(name: str, seed: int, path: Path) -> GameResult:
    return play_one(get_ruleset(name), seeded_header(name, seed), path)


def states_at_every_event(name: str, seed: int) -> tuple[LogHeader, list[Any], list[bytes]]:
    """Play a game without a log; return its header, events, and the encoded state after each event."""
    ruleset: Ruleset[Any] = get_ruleset(name)
    header = seeded_header(name, seed)
    agents = bots_for(ruleset, header)
    snapshots: list[bytes] = []
    game = Game(ruleset, header, agents, on_event=lambda _e: snapshots.append(_encode(game.state)))
    while not game.state.over and game.state.turn <= TEST_TURN_CAP:
        game.step()
    return game.header, game.events, snapshots
