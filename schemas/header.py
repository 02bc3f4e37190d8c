"""The log header: everything needed to re-run a game, written once at the start of its log.

A game is a pure function of (engine version, card-pool hash, decks, seed, decisions); the header holds all of
those but the decisions, plus who played and where (tournament metadata).
"""

from __future__ import annotations

import hashlib
import types
import typing
from functools import cache

import msgspec

from annals.schemas.carddefs import CardDefinition


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
    player_ids: tuple[str, ...] = ()  # the registered players' ids, by seat (their names are in ``players``)
    first_player: int = -1  # the seat chosen to play first (R-EVT-02); -1: the engine draws it [M9-022]


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
    # A creation nonce (hex from ``secrets``) for a game people play, so two of their games never share an id even
    # with the same decks, names and seed; empty for simulations, whose ids stay a function of their inputs.
    nonce: str = ""
    # Card definitions the game was played with that are not the shipped pool's (new cards, or shipped cards
    # changed): embedded so any annals replays the game without the card file (``schemas.carddefs``).
    cards: tuple[CardDefinition, ...] = ()
    # A judge's sandbox game (a scenario): started from a position that need not obey the deck-building rules.
    sandbox: bool = False


# The fields each header Struct had when game ids were first derived (format 1). A field added since counts in the
# id only when it differs from its default, so adding a field never changes the id of a game already recorded.
_FIELDS_OF_FORMAT_1: dict[type[msgspec.Struct], frozenset[str]] = {
    PlayerInfo: frozenset({"name", "agent"}),
    DeckList: frozenset({"name", "cards", "leader"}),
    TournamentInfo: frozenset({"event", "round", "table", "match", "game"}),
    Branch: frozenset({"game_id", "at_event", "position_digest"}),
    LogHeader: frozenset(
        [
            "format_version",
            "engine_version",
            "ruleset",
            "ruleset_version",
            "card_pool_hash",
            "seed",
            "players",
            "decks",
            "tournament",
            "max_turns",
            "game_id",
            "branched_from",
            "start_position",
        ]
    ),
}


_LATER_FIELDS = ("cards", "sandbox")  # header fields written only when set, so the logs of games without them
# keep the very bytes (and digests) they had before the fields existed


def header_record(header: LogHeader) -> object:
    """The header as its log frame holds it: every field, but those added later only when they are set.

    A shallow dict of the fields: a nested Struct encodes as the map of all its fields that ``to_builtins`` would
    have made of it, so the bytes are the same, and a bot game's header costs a third (written once per log)."""
    for name, default in _LATER_DEFAULTS:
        if getattr(header, name) != default:
            return header
    record = msgspec.structs.asdict(header)
    for name in _LATER_FIELDS:
        del record[name]
    return record


def _default(field: msgspec.structs.FieldInfo) -> object:
    if field.default_factory is not msgspec.NODEFAULT:
        return field.default_factory()
    return field.default


def _walked(kind: object) -> bool:
    """Whether a value of the annotated type ``kind`` can hold a Struct that ``_canonical`` must take apart (a
    Struct, or a list of them; a tuple is encoded as it is, as ``_canonical`` leaves it)."""
    if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
        return True
    if typing.get_origin(kind) is list:
        return any(_walked(arg) or typing.get_origin(arg) is list for arg in typing.get_args(kind))
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return any(_walked(arg) for arg in typing.get_args(kind))
    return False


@cache
def _fields_of(kind: type[msgspec.Struct]) -> tuple[tuple[str, bool, object, bool], ...]:
    """A struct type's fields as ``_canonical`` reads them: name, whether it is a field of format 1, its default,
    and whether its value must be walked (``_walked``); worked out once per type (``msgspec.structs.fields``
    evaluates the annotations each call: most of the cost of a game id, which ingest derives for every log)."""
    known = _FIELDS_OF_FORMAT_1.get(kind, frozenset())
    return tuple((f.name, f.name in known, _default(f), _walked(f.type)) for f in msgspec.structs.fields(kind))


def _canonical(value: object) -> object:
    """``value`` as plain msgpack-able data, fields in declaration order, later fields left out at their default."""
    if isinstance(value, msgspec.Struct):
        fields: dict[str, object] = {}
        for name, known, default, walked in _fields_of(type(value)):
            item = getattr(value, name)
            if known or item != default:
                fields[name] = _canonical(item) if walked else item
        return fields
    if isinstance(value, list):  # a deck's card ids are most of a header: plain items are taken as they are
        return [_canonical(item) if isinstance(item, (msgspec.Struct, list)) else item for item in value]
    return value


_FIELD = {f.name: f for f in msgspec.structs.fields(LogHeader)}
_LATER_DEFAULTS = tuple((name, _default(_FIELD[name])) for name in _LATER_FIELDS)


def game_id_of(header: LogHeader) -> str:
    """The game id of a header: a BLAKE2b-64 of every field but ``game_id`` itself (not the wall clock).

    The one definition of a game id: the runner stamps it on a new header, ``verify`` and ingest re-derive it to
    catch an edited header. It covers the seed, decks, players and tournament metadata and the header's ``nonce``,
    so a simulation (no nonce) gets the same id from the same inputs while games people play (a fresh nonce and a
    seed from ``secrets``) never share one. Encoded as format 1 encoded it, so every id ever written re-derives.
    """
    fields = _canonical(msgspec.structs.replace(header, game_id=""))
    return hashlib.blake2b(msgspec.msgpack.encode(fields), digest_size=8).hexdigest()


JUDGE_REASON_PREFIX = "judge_"  # the end reason of a game a judge ended (judge_game_loss): no end event
TURN_CAP_REASON = "turn_cap"  # the end reason of a game stopped at the header's turn cap: no winner, no end event


def played_turns(turns: int, end_reason: str, max_turns: int) -> int:
    """The turns a game was played: a game stopped at its turn cap had begun the turn after the cap (its closing
    record's ``turns``) but not played it, so it counts ``max_turns``."""
    return min(turns, max_turns) if end_reason == TURN_CAP_REASON and max_turns > 0 else turns


# The end reason of a scenario's game (a sandbox header) stopped after its scripted decisions: no winner, no end
# event; ``verify`` re-runs it as far as its decisions go (``queries.workbench.scenario``).
SCENARIO_REASON = "scenario_end"


class LogClose(msgspec.Struct, frozen=True):
    """The closing record: how the game ended and how much the log holds, to check against the frames."""

    winner: int  # player index, or -1 for a draw or no result
    end_reason: str
    events: int
    decisions: int
    turns: int


def placement_problems(header: LogHeader, expected: dict[str, str]) -> list[str]:
    """How the header's tournament metadata differs from where the log is expected to belong (``expected`` maps
    a ``TournamentInfo`` field name to its value as text, e.g. ``{"match": "r2-t5", "game": "2"}``): one line per
    field, empty when it belongs there. A log of another match put in a match's place is caught this way."""
    t = header.tournament
    problems = []
    for name, want in expected.items():
        if t is None:
            problems.append(f"the log has no tournament metadata, but {name} {want!r} was expected")
            continue
        if name not in t.__struct_fields__:
            known = ", ".join(t.__struct_fields__)
            problems.append(f"{name!r} is not a tournament field (the fields are: {known})")
            continue
        have = str(getattr(t, name))
        if have != want:
            problems.append(f"the log belongs to {name} {have!r}, not {want!r}")
    return problems
