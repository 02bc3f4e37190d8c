"""Card toy ruleset: draw, play a card to score its power, first to 10 wins; an empty deck at a draw loses.

Decks are 12 cards from ``c1``..``c5`` (power = the digit), at most 4 copies each. Set-up shuffles both decks,
chooses the first player and deals 3 cards each (the opening hand). Hands and deck order are hidden: ``redact``
replaces them by ``-1``, and the reducer folds such a stream (an unknown card is -1 in its pile). It exists so
the analysis layer has cards, zones, counters and hidden information to test on; ``new_state`` also shows how a
ruleset starts from ``header.start_position``.

After set-up (one step), every advance emits one event and the state's ``step`` says what comes next, so a game
continues from any position after set-up: ``draw`` → CardDrawn (to ``main``) → the play decision → CardPlayed (to
``score``) → ScoreChanged (to ``scored``) → GameOver or the next TurnBegan (to ``draw``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from annals.engine.agents import RandomAgent
from annals.engine.core import AgentFactory, CardInfo, DecisionPoint, Emit, GameState, Position, Reducer
from annals.engine.rng import Rng
from annals.schemas.errors import InvalidDeckError
from annals.schemas.header import DeckList, LogHeader
from annals.schemas.records import NO_PLAYER, instance_id
from tests.toyrules.cardtoy_schema import (
    SCHEMA,
    CardDrawn,
    CardPlayed,
    DeckShuffled,
    FirstPlayerChosen,
    GameOver,
    Pass,
    Play,
    ScoreChanged,
    TurnBegan,
)

POWER = {"c1": 1, "c2": 2, "c3": 3, "c4": 4, "c5": 5}
DECK_SIZE, MAX_COPIES, OPENING_HAND, GOAL = 12, 4, 3, 10


class CardToyState(GameState, kw_only=True):
    active: int = 0
    power: dict[int, int] = {}
    decks: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])
    hands: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])
    boards: list[list[int]] = msgspec.field(default_factory=lambda: [[], []])
    score: list[int] = msgspec.field(default_factory=lambda: [0, 0])


def _shuffled(s: CardToyState, e: DeckShuffled) -> None:
    s.decks[e.player] = list(e.cards)


def _first(s: CardToyState, e: FirstPlayerChosen) -> None:
    s.active = e.first


def _turn(s: CardToyState, e: TurnBegan) -> None:
    s.turn, s.step, s.active = e.turn, e.step, e.player


def _take(pile: list[int], card: int) -> None:
    """Remove ``card``, or an unknown card (-1) when a redacted stream never showed it."""
    pile.remove(card if card in pile else -1)


def _drawn(s: CardToyState, e: CardDrawn) -> None:
    _take(s.decks[e.player], e.card)  # the drawer is the owner; a redacted draw has card -1
    s.hands[e.player].append(e.card)
    s.step = e.step


def _played(s: CardToyState, e: CardPlayed) -> None:
    _take(s.hands[e.player], e.card)
    s.boards[e.player].append(e.card)
    s.step = e.step


def _score(s: CardToyState, e: ScoreChanged) -> None:
    s.score[e.holder] = e.value
    s.step = e.step


def _over(s: CardToyState, e: GameOver) -> None:
    s.over, s.winner, s.end_reason, s.step = True, e.winner, e.reason, e.step


def check_deck(deck: DeckList, seat: int) -> None:
    """Deck construction: exactly 12 cards, known ids, at most 4 copies of each."""
    if len(deck.cards) != DECK_SIZE:
        raise InvalidDeckError(f"deck {deck.name!r} of seat {seat} has {len(deck.cards)} cards; it needs {DECK_SIZE}")
    for card in sorted(set(deck.cards)):
        if card not in POWER:
            raise InvalidDeckError(f"deck {deck.name!r} of seat {seat} names unknown card {card!r}; use c1..c5")
        if deck.cards.count(card) > MAX_COPIES:
            raise InvalidDeckError(
                f"deck {deck.name!r} of seat {seat} has {deck.cards.count(card)} copies of {card!r}; "
                f"at most {MAX_COPIES} are allowed"
            )


class CardToyRuleset:
    schema = SCHEMA
    state_type = CardToyState
    default_max_turns = 0  # every turn draws, so an empty deck ends the game
    apply = Reducer[CardToyState](
        {
            DeckShuffled: _shuffled,
            FirstPlayerChosen: _first,
            TurnBegan: _turn,
            CardDrawn: _drawn,
            CardPlayed: _played,
            ScoreChanged: _score,
            GameOver: _over,
        }
    )

    def check_position(self, state: Any, fields: Any) -> None:
        """A position file's state against its domains (``tests/toyrules/position_checks.py``)."""
        from tests.toyrules.position_checks import cardtoy

        cardtoy(state, fields)

    def card_pool_hash(self) -> str:
        return "cardtoy-1"

    def new_state(self, header: LogHeader) -> CardToyState:
        for seat, deck in enumerate(header.decks):
            check_deck(deck, seat)
        if header.start_position:
            return msgspec.msgpack.decode(header.start_position, type=CardToyState)
        power = {instance_id(p, i): POWER[c] for p, d in enumerate(header.decks) for i, c in enumerate(d.cards)}
        return CardToyState(power=power)

    def pending(self, s: CardToyState) -> DecisionPoint[Play | Pass] | None:
        if s.step != "main" or s.over:
            return None
        options: list[Play | Pass] = [Play(c) for c in s.hands[s.active]]
        options.append(Pass())
        return DecisionPoint(s.active, "play", options)

    def advance(self, s: CardToyState, choice: Any, emit: Emit, rng: Rng) -> None:
        p = s.active
        if s.step == "setup":
            for seat in (0, 1):
                order = [instance_id(seat, i) for i in range(DECK_SIZE)]
                rng.shuffle(order)
                emit(DeckShuffled(s.n, 0, "setup", seat, order, "deck"))
                emit(ScoreChanged(s.n, 0, "setup", seat, "score", seat, 0, 0, "setup"))
            emit(FirstPlayerChosen(s.n, 0, "setup", NO_PLAYER, rng.below(2)))
            for seat in (0, 1):
                for _ in range(OPENING_HAND):
                    emit(CardDrawn(s.n, 0, "setup", seat, s.decks[seat][0], "deck", "hand"))
            emit(TurnBegan(s.n, 1, "draw", s.active))
        elif s.step == "draw":
            if not s.decks[p]:
                emit(GameOver(s.n, s.turn, "end", NO_PLAYER, 1 - p, "deck_out"))
            else:
                emit(CardDrawn(s.n, s.turn, "main", p, s.decks[p][0], "deck", "hand"))
        elif s.step == "main":
            if type(choice) is Play:
                emit(CardPlayed(s.n, s.turn, "score", p, choice.card, "hand", "board"))
            else:
                emit(TurnBegan(s.n, s.turn + 1, "draw", 1 - p))
        elif s.step == "score":
            card = s.boards[p][-1]
            gain = s.power[card]
            emit(ScoreChanged(s.n, s.turn, "scored", p, "score", p, s.score[p] + gain, gain, "card"))
        elif s.score[p] >= GOAL:
            emit(GameOver(s.n, s.turn, "end", NO_PLAYER, p, "score"))
        else:
            emit(TurnBegan(s.n, s.turn + 1, "draw", 1 - p))

    def redact(self, event: Any, viewer: int) -> Any:
        if type(event) is DeckShuffled:
            return msgspec.structs.replace(event, cards=[-1] * len(event.cards))
        if type(event) is CardDrawn and event.player != viewer:
            return msgspec.structs.replace(event, card=-1)
        return event

    def card_places(self, s: CardToyState) -> list[tuple[int, str]]:
        """Every card with the zone holding it, duplicates included (position files use it to refuse a card in
        two places)."""
        return [
            (card, f"{zone}:{seat}")
            for zone, piles in (("deck", s.decks), ("hand", s.hands), ("board", s.boards))
            for seat, pile in enumerate(piles)
            for card in pile
        ]

    def set_card_id(self, s: CardToyState, card: int, card_id: str) -> None:
        pass  # the state holds no card ids (a card's power is public once drawn)

    def position(self, s: CardToyState) -> Position:
        cards: dict[int, str] = {}
        for zone, piles in (("deck", s.decks), ("hand", s.hands), ("board", s.boards)):
            for pile in piles:
                for card in pile:
                    cards[card] = zone
        counters = {f"{p}:score": s.score[p] for p in (0, 1) if s.score[p]}  # a counter at 0 is no counter
        return Position(cards, counters)

    def agents(self) -> Mapping[str, AgentFactory]:
        return {"random": RandomAgent}

    def cards(self) -> Mapping[str, CardInfo]:
        return {c: CardInfo(c, f"Card {p}", "card", None, {"Power": p}, f"Scores {p}.") for c, p in POWER.items()}

    def decks(self) -> Mapping[str, DeckList]:
        low = ["c1"] * 4 + ["c2"] * 4 + ["c3"] * 4
        high = ["c1"] * 2 + ["c2"] * 2 + ["c3"] * 2 + ["c4"] * 3 + ["c5"] * 3
        mixed = ["c1", "c2", "c3", "c4", "c5"] * 2 + ["c3", "c3"]
        return {"low": DeckList("low", low), "high": DeckList("high", high), "mixed": DeckList("mixed", mixed)}

    def default_decks(self) -> tuple[str, str]:
        return ("low", "high")


RULESET = CardToyRuleset()
