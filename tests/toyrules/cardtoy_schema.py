"""Events and options of the card toy ruleset: a tiny card game that uses every field-name convention.

Like the toy (Nim) it is not a game anyone records; it gives the analysis layer (ingest, the position fold, the
SQL ``position()`` macro, per-card reports, hidden-information views) cards, zones and counters to work on before
and beside the real rulesets.
"""

from __future__ import annotations

import msgspec

from annals.schemas.records import ClockCharged, Event, Forfeited
from annals.schemas.rulesets import RulesetSchema


class DeckShuffled(Event, tag=1):
    """The owner's whole deck in its new order (chance is an event)."""

    cards: list[int]
    dst: str


class FirstPlayerChosen(Event, tag=2):
    first: int


class TurnBegan(Event, tag=3):
    pass


class CardDrawn(Event, tag=4):
    card: int
    src: str
    dst: str


class CardPlayed(Event, tag=5):
    card: int
    src: str
    dst: str


class ScoreChanged(Event, tag=6):
    counter: str
    holder: int
    value: int
    amount: int
    source: str


class GameOver(Event, tag=7):
    winner: int
    reason: str


CardToyEvent = (
    DeckShuffled
    | FirstPlayerChosen
    | TurnBegan
    | CardDrawn
    | CardPlayed
    | ScoreChanged
    | GameOver
    | ClockCharged
    | Forfeited
)


class Play(msgspec.Struct, array_like=True, gc=False, frozen=True, forbid_unknown_fields=True, tag=1):
    card: int


class Pass(msgspec.Struct, array_like=True, gc=False, frozen=True, forbid_unknown_fields=True, tag=2):
    pass


CardToyOption = Play | Pass

SCHEMA = RulesetSchema(
    "cardtoy", "1", CardToyEvent, CardToyOption, {"play": "CardPlayed", "draw": "CardDrawn"}, end_event=GameOver
)
