"""Judge interventions: the structured records a judge adds to a game's log, each with the judge's name.

A judge frame (kind ``J`` in ``schemas.logfile``) holds one ``Intervention``. Its ``kind`` is one of ``KINDS``:

* ``warning``, ``game_loss``: given to ``player`` for ``reason`` (a game loss ends the game: ``player`` loses);
* ``note``: free text in ``note``, for the record;
* ``extra_time``: ``minutes`` added to the match's clock;
* ``override``: the game's result set to ``winner`` (-1: a draw) for ``reason``, whatever the closing record says;
* ``backup``: the game rolled back to where decision ``to_decision`` was asked (``events`` events and
  ``to_decision`` decisions kept). The frames from ``from_frame`` on belong to the abandoned branch, which stays in
  the log; the kept part of frame ``from_frame`` follows the judge frame as a new batch frame, then the game goes
  on from there.

``at_event`` is how many events the game had when the judge acted (for a backup: before it), ``time`` the UTC
time given by whoever recorded it (informative; a log is otherwise free of the wall clock). The record is a map,
so fields are only ever added at the end with a default.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Final

import msgspec

KINDS: Final = ("warning", "game_loss", "note", "extra_time", "override", "backup")
RESULT_KINDS: Final = ("game_loss", "override")  # the interventions that change a game's result
DRAW: Final = -1


def utc_now() -> str:
    """The time a judge's record is written, as its ``time`` field holds it."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Intervention(msgspec.Struct, frozen=True):
    kind: str
    judge: str
    player: int = -1  # whom a warning or game loss is given to
    reason: str = ""
    note: str = ""
    minutes: int = 0  # extra_time
    winner: int = DRAW  # override: the result (a player index, or -1 for a draw)
    to_decision: int = -1  # backup: the first decision undone
    events: int = -1  # backup: events kept
    from_frame: int = -1  # backup: the first frame of the abandoned branch
    at_event: int = -1
    time: str = ""

    def result(self) -> int | None:
        """The winner this record gives the game, or None when it does not change the result."""
        if self.kind == "game_loss":
            return 1 - self.player
        if self.kind == "override":
            return self.winner
        return None

    def describe(self, people: Sequence[str] = ()) -> str:
        """The record in words; ``people``: each seat's player as it should be named (``p0``, ``p1`` without)."""

        def named(seat: int) -> str:
            return people[seat] if 0 <= seat < len(people) else f"p{seat}"

        who = f" to {named(self.player)}" if self.player >= 0 else ""
        detail = {
            "extra_time": f" +{self.minutes} min",
            "override": f" result set to {'a draw' if self.winner == DRAW else f'{named(self.winner)} wins'}",
            "backup": f" to decision {self.to_decision} (at event {self.events}; what was played after it stays in "
            "the log as an abandoned branch)",
        }.get(self.kind, "")
        text = f"{self.kind.replace('_', ' ')}{who}{detail} by judge {self.judge}"  # it read "extra_time +5 min"
        if self.reason:
            text += f": {self.reason}"
        if self.note:
            text += f" ({self.note})" if self.reason else f": {self.note}"
        return text
