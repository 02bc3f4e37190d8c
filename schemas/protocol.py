"""The one protocol every seat speaks: the messages between a table and a player's client, bot or program.

The same messages go over a WebSocket (``annals serve``) and over JSON lines on a local program's stdin/stdout
(``annals play --players external:COMMAND``, one JSON object per line). On a WebSocket a text frame from the table
holds one or more messages, one per line (JSON lines again, so ``split_frame`` reads both): what a seat is sent for
one decision (its events, the board, the next question) goes out as one frame. A seat sends one message per frame.
Every message is an object whose ``type`` names it. ``schemas/protocol.schema.json`` is the JSON Schema of them
all, generated from these types (``python -m annals.schemas.protocol`` prints it; a test holds the file equal to it
and checks real games' messages against it).

Table → seat:

* ``hello``      first: the protocol version, the seat (``-1``: a spectator), the game header as the seat may see
  it (players' names, deck names and leaders, its own deck list, never the opponent's or the seed), the cards it
  can identify at the start, the time banks;
* ``event``      each event of the seat's view (``Ruleset.redact``) as an object with its ``kind``, in words, and
  the cards it shows the seat for the first time;
* ``board``      the seat's view of the position (cards by zone with names, counters), after each decision, and
  (protocol 4) which seat the table now waits for, ``deciding``: a client says so while a bot thinks;
* ``decide``     a decision point of the seat's: its question in words, every option with its index, kind, fields,
  text with card names, the board elements it names and whether to confirm it (a choice that ends the seat's part
  of the step, where another answer was offered);
* ``error``      a message the table could not take (``code`` below); after an error about an answer the same
  ``decide`` is sent again, the game unchanged;
* ``game_over``  the result; then ``close``.

Seat → table: ``answer`` (``choose``: the option's index; ``decision``: the number of the ``decide`` it answers,
optional), ``concede`` and ``settings`` (protocol 3: which questions with a single answer the table may answer for
the seat, and its stops; a program that never sends it is asked every question). A bare ``{"choose": N}`` (the
protocol before version 1) is read as an answer.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

PROTOCOL_VERSION: Final = 4  # 2: a table's frame holds one or more messages, one per line; 3: options name the board
# elements they refer to (``card``, ``target``, ``where``), ``settings`` lets a seat have lone answers given for it;
# 4: the board says which seat the table is waiting for (``deciding``)
# Messages are made by the thousand a second and never hold themselves: ``gc=False`` keeps them out of the
# collector's passes (a full pass over a busy server's heap stalled every table).
JSON_SCHEMA_DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
MAX_MESSAGE_BYTES: Final = 64 * 1024  # a seat's message longer than this is refused (``too_long``)

# error codes
MALFORMED: Final = "malformed"  # not JSON, or not an object
UNKNOWN_MESSAGE: Final = "unknown_message"  # no such ``type``, or fields that do not fit it
BAD_ANSWER: Final = "bad_answer"  # an option index that is not offered
NOT_YOUR_DECISION: Final = "not_your_decision"  # an answer when the seat is not being asked, or to an old decide
TOO_LONG: Final = "too_long"
SPECTATOR: Final = "spectator"  # a spectator tried to act
ERROR_CODES: Final = (MALFORMED, UNKNOWN_MESSAGE, BAD_ANSWER, NOT_YOUR_DECISION, TOO_LONG, SPECTATOR)


class Card(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """A card instance the seat can identify, with its definition's id, name and printed text."""

    instance: int
    id: str
    name: str
    text: str = ""


class Player(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    seat: int
    name: str
    agent: str  # "human", "external", or a bot's name
    deck: str  # the deck's name
    leader: str  # the leader's card id (Miras 9 Planet, MORANA Warden), public from the start
    size: int  # cards in the deck


class Hello(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="hello", tag_field="type"):
    protocol: int
    game_id: str
    ruleset: str
    ruleset_version: str
    seat: int  # -1: a spectator
    players: list[Player]
    deck: list[str]  # the seat's own deck list (card ids, instance order); [] for a spectator
    cards: list[Card]  # the instances the seat can identify at the start
    clock_ms: list[int]  # each seat's time bank (0: no clock)
    max_turns: int  # 0: no cap
    delay: int = 0  # a spectator's delay, in decisions
    resumed_at: int = 0  # events of the seat's view already played when it (re)joined; they follow as events


class EventMessage(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="event", tag_field="type"):
    event: dict[str, Any]  # {"kind": "Drew", "n": 12, "turn": 2, "step": "dawn", "player": 0, ...}
    text: str
    cards: list[Card] = []  # instances this event shows the seat for the first time


class Zone(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    zone: str  # "hand", "site:2", "lane:0:exterior", ...
    side: str  # "p0", "p1", or "token"
    cards: list[Card]


class Board(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="board", tag_field="type"):
    """The seat's view of the position now (sent after each decision): every card it can identify by zone,
    the counters (``"p0:slava"``, ``"1004:power"``), how many cards it cannot see, and the board drawn as SVG
    when the server can draw it."""

    turn: int
    step: str
    zones: list[Zone]
    counters: dict[str, int]
    hidden: int
    svg: str = ""
    piles: dict[str, int] = {}  # each player's piles by size, hidden cards counted (``"p1:hand": 5``)
    # the seat whose answer the table now waits for (-1: none, a spectator's board, the game over): a client says
    # "Bo is thinking" while a bot searches, instead of nothing. Its lone answers given for it after a cover delay
    # show the same, so it tells no more than the wait itself does
    deciding: int = -1
    clock_ms: list[int] = []  # each seat's time bank as the board is sent (protocol 4): the deciding seat's runs


class Option(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """One answer: its index, kind and fields, its text in words, and the board elements it names, so that a
    client can map a click on the board to it: ``card`` the instance it acts with (a card in hand, an attacker, a
    blocker), ``target`` the instance it aims at, ``where`` the place it goes as the board's zone names
    (``lane:0:exterior`` a Miras 9 board position, ``lane:space`` a whole lane, ``site:2`` a MORANA Site; ``echo``,
    ``deck``, ``resource``, ``used`` where a Battle Damage point is paid from); 0 and "" name nothing. ``same_as``
    (-1: none) is the index of an earlier option that does the same for the seat, a copy of the same card in the
    same place with the same marks (ruling R-CORE-10): a client offers that one and hides this."""

    index: int
    kind: str
    fields: dict[str, Any]
    text: str
    confirm: bool = False  # cannot be taken back (the ruleset says which) and another answer was offered: ask first
    card: int = 0
    target: int = 0
    where: str = ""
    same_as: int = -1  # the earlier option this one is the same as for the seat (a copy of a card): show one


class Decide(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="decide", tag_field="type"):
    decision: int  # the game's decision number
    player: int
    point: str
    options: list[Option]
    clock_ms: list[int]  # each seat's time bank now
    question: str = ""  # the point's question in words
    stop: str = ""  # the seat's stop that kept this question although it had one answer ("" : none)


class Error(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="error", tag_field="type"):
    code: str  # one of ERROR_CODES
    message: str
    decision: int = -1  # the decide asked again, or -1


class GameOver(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="game_over", tag_field="type"):
    winner: int  # -1: a draw or no result
    reason: str
    text: str
    events: int
    decisions: int


class Close(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="close", tag_field="type"):
    reason: str


class Answer(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="answer", tag_field="type"):
    choose: int
    decision: int = -1  # the decide answered (-1: the one being asked)


class Settings(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="settings", tag_field="type"):
    """What the table may answer for the seat (ruling R-CORE-8). Nothing unless the seat sends this: a program
    that never does is asked every question, as before protocol 3.

    * ``automatic``  a question with one legal answer that anyone can see is the only one (a lone Battle Damage
      payment, a lone confirmation) is answered by the table, recorded as automatic in the log;
    * ``auto_pass``  also a lone pass forced only by what the seat's own hidden cards hold (no Reaction it could
      play): the table answers it after a short cover delay charged to the seat's clock like a quick pass by hand,
      and the opponent's view of it is the same as of a pass by hand (no automatic mark, no telltale timing);
    * ``stops``      the points where a lone answer is still asked (``STOPS``: ``opponent_reaction``, when the
      opponent has put something on the stack; ``my_attack``, the reaction windows of the seat's own attack).
    """

    automatic: bool = False
    auto_pass: bool = False
    stops: list[str] = []


STOPS: Final = ("opponent_reaction", "my_attack")


class Concede(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True, tag="concede", tag_field="type"):
    pass


class _BareAnswer(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    choose: int


ServerMessage = Hello | EventMessage | Board | Decide | Error | GameOver | Close
ClientMessage = Answer | Concede | Settings


class ProtocolError(ValueError):
    """A seat's message the table cannot take; ``code`` is one of ``ERROR_CODES``."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


_encoder = msgspec.json.Encoder()
_server_decoder = msgspec.json.Decoder(ServerMessage)
_client_decoder = msgspec.json.Decoder(ClientMessage)
_bare_decoder = msgspec.json.Decoder(_BareAnswer)
_any_decoder = msgspec.json.Decoder()


def encode(message: ServerMessage | ClientMessage) -> bytes:
    return _encoder.encode(message)


def decode_server(data: bytes | str) -> ServerMessage:
    return _server_decoder.decode(data)


def join_frame(messages: list[bytes]) -> bytes:
    """Encoded messages as one frame, one per line (JSON never holds a raw newline: msgspec escapes it)."""
    return b"\n".join(messages)


def split_frame(data: bytes | str) -> list[Any]:
    """A table's frame as its messages, each decoded to a plain JSON object (``decode_frame`` for the types).

    >>> split_frame('{"type":"event","event":{},"text":"a"}\n{"type":"close","reason":"game over"}')[1]
    {'type': 'close', 'reason': 'game over'}
    """
    lines = data.splitlines() if isinstance(data, bytes) else data.split("\n")
    return [_any_decoder.decode(line) for line in lines if line]


def decode_frame(data: bytes | str) -> list[ServerMessage]:
    """A table's frame as its messages (``ServerMessage``), in order."""
    lines = data.splitlines() if isinstance(data, bytes) else data.split("\n")
    return [_server_decoder.decode(line) for line in lines if line]


def decode_client(data: bytes | str) -> ClientMessage:
    """A seat's message, or ``ProtocolError`` saying what is wrong with it."""
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError(TOO_LONG, f"a message of {len(data)} bytes; the limit is {MAX_MESSAGE_BYTES}")
    try:
        raw = _any_decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise ProtocolError(MALFORMED, f"not JSON ({exc}); send one JSON object per message") from None
    if not isinstance(raw, dict):
        raise ProtocolError(MALFORMED, f"a JSON {type(raw).__name__}, not an object; send an object with a type")
    try:
        if "type" not in raw and "choose" in raw:
            return Answer(_bare_decoder.decode(data).choose)
        return _client_decoder.decode(data)
    except msgspec.ValidationError as exc:
        raise ProtocolError(
            UNKNOWN_MESSAGE, f"{exc}; send {{'type': 'answer', 'choose': N}} or {{'type': 'concede'}}"
        ) from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message, both ways (``anyOf`` the server's and the client's messages), declaring
    the draft it is written in (msgspec writes 2020-12: ``$defs``)."""
    return {"$schema": JSON_SCHEMA_DRAFT, **msgspec.json.schema(ServerMessage | ClientMessage)}


if __name__ == "__main__":
    import json

    print(json.dumps(json_schema(), indent=2, sort_keys=True))
