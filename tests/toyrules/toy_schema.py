"""Events and options of the toy ruleset (Nim): the smallest complete ruleset, used to test the shared core."""

from __future__ import annotations

import msgspec

from annals.schemas.records import ClockCharged, Event, Forfeited
from annals.schemas.rulesets import RulesetSchema


class PileShuffled(Event, tag=1):
    """The starting pile size, drawn by the seeded generator (chance is an event)."""

    size: int


class FirstPlayerChosen(Event, tag=2):
    first: int


class TurnBegan(Event, tag=3):
    pass


class Took(Event, tag=4):
    amount: int
    left: int


class GameOver(Event, tag=5):
    winner: int
    reason: str


ToyEvent = PileShuffled | FirstPlayerChosen | TurnBegan | Took | GameOver | ClockCharged | Forfeited


class Take(msgspec.Struct, array_like=True, gc=False, frozen=True, forbid_unknown_fields=True, tag=1):
    amount: int


ToyOption = Take

SCHEMA = RulesetSchema("toy", "1", ToyEvent, ToyOption, {"take": "Took"}, end_event=GameOver)
