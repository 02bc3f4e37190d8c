"""The records of an event (a tournament) as stored in its folder: JSON files, each written whole and atomically.

``event.json`` (the configuration), ``players.json`` (registrations and drops), ``rounds/round-NN.json`` (a
round's pairings, written before any of its matches is played) and ``matches/round-NN/table-NNN.json`` (one
finished match, written once, with every game's result as read from its log's closing record). Schema evolution
follows ``schemas/__init__``: new fields go last and have defaults.
"""

from __future__ import annotations

import msgspec

from annals.schemas.header import DeckList

EVENT_FORMAT = 1
SWISS, TOP = "swiss", "top"


class EventConfig(msgspec.Struct, frozen=True):
    name: str
    event_id: str  # the name and a random suffix drawn at creation: unique, and in every game's header
    ruleset: str
    rounds: int  # Swiss rounds; 0 until round 1 is paired when not given (then recommended from the field)
    best_of: int
    top: int  # the single-elimination cut: 0 (none), 2, 4, 8, ...
    seed: int  # every random draw of the event (pairings, first players, game seeds) derives from it
    max_turns: int  # each game's turn cap, the match's time limit: a game reaching it is drawn
    agent: str = "heuristic"  # the bot that plays a seat whose player has no agent of their own
    format: int = EVENT_FORMAT


class Player(msgspec.Struct, frozen=True):
    id: str
    name: str
    deck: DeckList
    deck_file: str  # the list as registered, copied into the event folder (relative path)
    agent: str = ""  # the bot playing this seat in ``event run``; "" takes the event's agent
    dropped_after: int = -1  # -1: active; N: dropped after round N (0: withdrew before round 1)


class Pairing(msgspec.Struct, frozen=True):
    table: int
    a: str
    b: str  # "" for a bye


class Round(msgspec.Struct, frozen=True):
    number: int
    stage: str  # "swiss" or "top"
    pairings: list[Pairing]
    seed: int  # the generator seed that ordered the point groups (swiss) or 0 (top)


class GameRecord(msgspec.Struct, frozen=True):
    number: int
    log: str  # relative to the event folder
    game_id: str
    seats: list[str]  # player ids by seat
    first: str  # the player who played first ("" for MORANA, which has no first player [MOR-13])
    decider: str  # who chose the first player ("" for MORANA): the lot's winner in game 1, then the loser
    # "lot" (game 1), "loser" (the previous game's loser chose), "drawn" (the same decider after a drawn game),
    # "seats" (MORANA: seats by lot, then swapped each game)
    method: str
    winner: str  # player id, "" for a drawn game
    end_reason: str
    turns: int
    digest: str  # the log's final chain digest


class Override(msgspec.Struct, frozen=True):
    """A judge's result entered by hand: it replaces what the games say, and says so."""

    judge: str
    reason: str
    wins_a: int
    wins_b: int
    draws: int


class MatchRecord(msgspec.Struct, frozen=True):
    round: int
    stage: str
    table: int
    a: str
    b: str  # "" for a bye
    games: list[GameRecord]
    wins_a: int
    wins_b: int
    draws: int
    winner: str  # player id, "" for a drawn match
    # "games" (a player won the majority), "time" (the games ran out, a drawn game among them), "bye",
    # "seed" (a level cut match: the higher seed advances)
    ended: str
    turn_cap: int
    override: Override | None = None
