"""The log header: everything needed to re-run a game, written once at the start of its log.

A game is a pure function of (engine version, card-pool hash, decks, seed, decisions); the header holds all of
those but the decisions, plus who played and where (tournament metadata).
"""

from __future__ import annotations

import hashlib

import msgspec


class PlayerInfo(msgspec.Struct, frozen=True):
    name: str
    agent: str  # "random", "heuristic", "human", "external", "scripted", ...


class DeckList(msgspec.Struct, frozen=True):
    name: str
    cards: list[str]  # card ids of the main deck, one entry per copy
    leader: str = ""  # Miras 9: the paired Planet/Spirit; MORANA: the Warden


class TournamentInfo(msgspec.Struct, frozen=True):
    event: str = ""
    round: int = 0
    table: int = 0
    match: str = ""
    game: int = 1


class Branch(msgspec.Struct, frozen=True):
    """Where a continued game came from: the source game id and the event number it branched at."""

    game_id: str
    at_event: int
    position_digest: str


class LogHeader(msgspec.Struct, frozen=True):
    format_version: int
    engine_version: str
    ruleset: str
    ruleset_version: str
    card_pool_hash: str
    seed: int
    players: list[PlayerInfo]
    decks: list[DeckList]
    tournament: TournamentInfo | None = None
    max_turns: int = 0  # 0: no cap; otherwise the game ends with reason "turn_cap"
    game_id: str = ""
    branched_from: Branch | None = None
    start_position: bytes = b""  # a msgpack-encoded state to start from instead of a fresh set-up


def derive_game_id(header: LogHeader) -> str:
    """A stable id from the inputs that define a game (not the wall clock): same inputs, same id.

    The reader derives it again from every header it reads (``schemas.validate``). A field added to ``LogHeader``
    later must leave the ids of older logs alone: leave it out of the encoding here while it has its default."""
    fields = msgspec.structs.replace(header, game_id="")
    return hashlib.blake2b(msgspec.msgpack.encode(fields), digest_size=8).hexdigest()


TURN_CAP_REASON = "turn_cap"  # the end reason of a game stopped at the header's turn cap: no winner, no end event


class LogClose(msgspec.Struct, frozen=True):
    """The closing record: how the game ended and how much the log holds, to check against the frames."""

    winner: int  # player index, or -1 for a draw or no result
    end_reason: str
    events: int
    decisions: int
    turns: int
