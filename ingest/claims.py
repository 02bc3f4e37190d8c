"""Which log holds each game id: copies are skipped, conflicts keep neither log.

A game id is derived from the header (``schemas.validate.game_id_of``), so two logs with the same id claim the
same game: the same header, and so the same seed, decks and players. With the same digest they are copies: one is
stored, the others are skipped. With different digests their events or decisions differ (a game with a person in
a seat re-played from the same seed, or an edited copy that still re-runs legally, since verify proves a game
legal, not who played it), and nothing in the logs says which is genuine. Then neither is kept: both go to
quarantine as ``ConflictingLogsError`` naming each other, a stored one is withdrawn (its rows deleted in the
transaction that records the conflict), and so is any later copy of either, whatever order the files come in or
however many ingests it takes; the game id stays in conflict for the rest of the run, and a rerun reaches the same
end (the first log is stored again, then withdrawn again when the second is read).

Where a signature can tell the genuine log (the tournament's signed logs), a ``Decide`` function given both
files returns the one to keep: the other alone goes to quarantine, naming the one kept. This module makes no
choice of its own; ``ingest(..., decide=...)`` is the hook.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from annals.schemas.errors import AnnalsError

Decide = Callable[[str, str], str | None]  # (file holding the game id, file also claiming it) -> the one to keep


class ConflictingLogsError(AnnalsError, ValueError):
    """Two logs claim the same game id with different contents; neither is kept."""

    def __init__(self, game_id: str, files: list[str], kept: str | None = None):
        self.files = files
        others = ", ".join(repr(f) for f in files)
        if kept is not None:
            why = f"the log kept is {kept!r}, chosen by its signature"
        else:
            why = (
                "nothing in the logs says which is genuine, so neither is stored; keep the genuine one alone "
                "(a signed log proves itself) and ingest again"
            )
        super().__init__(f"game id {game_id!r} is claimed by logs with different contents: {others}; {why}")


class Claim(NamedTuple):
    """A log holding a game id: its digest, file, game number and counts; ``prior`` when stored by an earlier
    ingest."""

    digest: str
    file: str
    game: int
    events: int
    decisions: int
    prior: bool


class Copy(NamedTuple):
    file: str
    events: int


class Claims:
    """The game ids of the database and of this run: who holds each, its skipped copies, and those in conflict."""

    def __init__(self, stored: list[tuple[str, str, str, int, int, int]]):
        self.holder: dict[str, Claim] = {
            gid: Claim(digest, file, game, events, decisions, True)
            for gid, digest, file, game, events, decisions in stored
        }
        self.copies: dict[str, list[Copy]] = {}
        self.conflicted: dict[str, list[str]] = {}  # game id -> every file that claimed it

    def digests(self) -> dict[str, str]:
        return {gid: c.digest for gid, c in self.holder.items()}
