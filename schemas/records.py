"""The records every game shares: the event envelope and the decision record.

Every ruleset's events subclass ``Event``: array-like, integer-tagged, no GC tracking (they hold only ints,
strings and lists of ints, so they cannot form cycles). The envelope is the first four fields of every event:

* ``n``      event number in the game, from 0, contiguous;
* ``turn``   the turn it happened in (0 during set-up);
* ``step``   phase/step coordinate, dotted: ``"attack.declare"``, ``"dusk.site2"``;
* ``player`` the acting player (0 or 1), or -1 for the game itself.

Each ruleset's own fields follow. Tags are unique within a ruleset and never reused.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import msgspec

NO_PLAYER = -1


class Event(msgspec.Struct, array_like=True, gc=False, tag=True):
    n: int
    turn: int
    step: str
    player: int


Opt = TypeVar("Opt")


class Decision(msgspec.Struct, Generic[Opt], array_like=True, gc=False):
    """One choice: who decided, at which decision point, what was offered and which one was chosen.

    ``at`` is the number of events emitted before the choice, so a decision sits between events ``at - 1`` and
    ``at``. ``offered`` holds the ruleset's typed options; ``chosen`` indexes into it.
    """

    n: int
    at: int
    player: int
    point: str
    offered: list[Opt]
    chosen: int
