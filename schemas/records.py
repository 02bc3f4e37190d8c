"""The records every game shares: the event envelope and the decision record.

Every ruleset's events subclass ``Event``: array-like, integer-tagged, no GC tracking (they hold only ints,
strings and lists of ints, so they cannot form cycles). The envelope is the first four fields of every event:

* ``n``      event number in the game, from 0, contiguous;
* ``turn``   the turn it happened in (0 during set-up);
* ``step``   phase/step coordinate, dotted: ``"attack.declare"``, ``"dusk.site2"``;
* ``player`` the acting player (0 or 1), or -1 for the game itself.

Each ruleset's own fields follow. Tags are unique within a ruleset and never reused.

Field-name conventions, which ``ingest/`` and the SQL position macro read by name, so both games share one events
table and one ``position()`` macro:

* ``card: int``       the card instance the event is about (see ``instance_id``); ``cards: list[int]`` for many;
* ``src: str``, ``dst: str``  zones before and after a move. An event with ``card``/``cards`` and ``dst`` is a
  zone move; ``dst`` names the zone the card is in afterwards (``"deck"``, ``"hand"``, ``"discard"``,
  ``"lane:1:exterior"``, ``"site:2"``, ...). A shuffle lists the whole pile in its new order in ``cards``;
* ``counter: str``, ``holder: int``, ``value: int``, ``amount: int``  a counter change: which counter (``"echo"``,
  ``"wounds"``, ``"slava"``), who holds it (a player index, or a card instance), the value afterwards, and the
  change. ``value`` is what positions read, ``amount`` what analytics sum;
* ``target: int``      a card instance targeted; ``source: str`` where a payment or gain came from;
* ``card_id: str``    on the event that creates a token: the card definition it is an instance of.
"""

from __future__ import annotations

from typing import Final, Generic, TypeVar

import msgspec

# Final: the compiled engine (mypyc) then reads them as constants, not from this module's namespace per use
NO_PLAYER: Final = -1
CARDS_PER_PLAYER: Final = 1000
LEADER_INDEX: Final = 999  # the Miras 9 Planet/Spirit or the MORANA Warden
TOKEN_BASE: Final = 10_000  # tokens created in play are numbered from here


def instance_id(player: int, index: int) -> int:
    """Card instance of ``header.decks[player].cards[index]`` (or ``LEADER_INDEX`` for the leader).

    Instances start at 1000 so that a ``holder`` below 1000 is a player and one above is a card.
    """
    return (player + 1) * CARDS_PER_PLAYER + index


def instance_owner(instance: int) -> int:
    return instance // CARDS_PER_PLAYER - 1


class Event(msgspec.Struct, array_like=True, gc=False, tag=True, forbid_unknown_fields=True):
    n: int
    turn: int
    step: str
    player: int


class ClockCharged(Event, tag=240):
    """A live game's chess clock: ``player`` took ``spent_ms`` over one decision and has ``left_ms`` in their time
    bank. Written by the table (``engine.live``), not by the rules, so a re-run takes it from the log; every
    ruleset's event union holds it and its reducer ignores it."""

    spent_ms: int
    left_ms: int


class Forfeited(Event, tag=241):
    """A seat lost outside the rules: ``player`` forfeits to ``winner`` for ``reason`` (``"time"``: its time bank
    ran out, or it stayed away past it; ``"concession"``: it left; ``"no-show"``: it never sat down, and when
    neither seat did, ``player`` and ``winner`` are both -1: the game ends without a winner). Ends the game like
    the ruleset's own end (``GameState.over``, ``winner``, ``end_reason``). Written by the table; a re-run takes
    it from the log."""

    winner: int
    reason: str


TABLE_EVENTS: tuple[type[Event], ...] = (ClockCharged, Forfeited)
TIME_REASON = "time"
CONCESSION_REASON = "concession"
TIMEOUT_REASON = "timeout"  # an external program did not answer in time (ruling R-CORE-4)
NO_SHOW_REASON = "no-show"  # a person's seat still empty when the table's grace period ran out (ruling R-CORE-8)

Opt = TypeVar("Opt")


class Decision(msgspec.Struct, Generic[Opt], array_like=True, gc=False, forbid_unknown_fields=True):
    """One choice: who decided, at which decision point, what was offered and which one was chosen.

    ``at`` is the number of events emitted before the choice, so a decision sits between events ``at - 1`` and
    ``at``. ``offered`` holds the ruleset's typed options; ``chosen`` indexes into it. ``automatic``: the table
    answered a question with one answer for the seat, as its settings asked (``engine.forced``); a log holds it
    only when true (``LogWriter.write_batch`` writes the other decisions as their six values), so logs without
    automatic answers are byte for byte what they were, and older logs read as before.
    """

    n: int
    at: int
    player: int
    point: str
    offered: list[Opt]
    chosen: int
    automatic: bool = False
