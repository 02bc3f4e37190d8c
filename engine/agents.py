"""Agents every ruleset can use: uniformly random, and scripted (replaying recorded choices)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from annals.engine.core import DecisionPoint
from annals.engine.rng import Rng
from annals.schemas.errors import ReplayMismatchError
from annals.schemas.records import Decision


class RandomAgent:
    """Picks uniformly among the legal options with its own seeded generator (it reads no view, so none is
    folded for it)."""

    reads_view = False

    def __init__(self, player: int, rng: Rng):
        self.player = player
        self.rng = rng

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        return point.options[self.rng.below(len(point.options))]


class ScriptedAgent:
    """Answers with recorded decisions in order, checking that the same question is being asked."""

    def __init__(self, decisions: list[Decision[Any]]):
        self._next: Iterator[Decision[Any]] = iter(decisions)

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        recorded = next(self._next, None)
        if recorded is None:
            raise ReplayMismatchError(f"the game asks {point.point!r} of player {point.player} but no decision is left")
        if (recorded.player, recorded.point, recorded.offered) != (
            point.player,
            point.point,
            list(point.options),
        ):
            raise ReplayMismatchError(
                f"decision {recorded.n} differs: recorded player {recorded.player} at {recorded.point!r} with "
                f"{len(recorded.offered)} options, engine asks player {point.player} at {point.point!r} with "
                f"{len(point.options)} options"
            )
        return recorded.offered[recorded.chosen]
