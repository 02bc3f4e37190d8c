"""Taking one game out of the database by hand (``annals db remove``), for the rare case an organiser needs it.

The game's rows go (games, players, deck cards, events, decisions, the derived card tables, its judges' records),
in one transaction, and a row of ``games_removed`` says which log it was, its result, when and why. The log file is
not touched: ingesting it again stores the game again.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from annals.ingest.loader import WITHDRAW_FROM
from annals.ingest.schema import ddl, open_database
from annals.ingest.summary import refresh_card_summary
from annals.schemas.errors import AnnalsError, BadArgumentError


class GameNotStoredError(AnnalsError, LookupError):
    """The game id named is not in the database."""


class Removed(msgspec.Struct, frozen=True):
    game_id: str
    file: str
    events: int


def remove_game(db: Path, game_id: str, reason: str) -> Removed:
    """Remove stored game ``game_id`` from the database at ``db``, recording it with ``reason`` in
    ``games_removed``."""
    if not reason.strip():
        raise BadArgumentError("say why the game is removed: give --reason TEXT (it is recorded)")
    con = open_database(db)
    try:
        rows = con.execute("SELECT game, file, events FROM games WHERE game_id = ?", [game_id]).fetchall()
        if not rows:
            raise GameNotStoredError(
                f"no game {game_id!r} in {db}; list the stored ones: annals sql 'SELECT game_id, file FROM games' "
                f"--db {db}"
            )
        game, file, events = rows[0]
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(ddl("game_removed"), {"game": game, "reason": reason})
            con.execute("DELETE FROM interventions WHERE game_id = ?", [game_id])
            for table in WITHDRAW_FROM:
                con.execute(f"DELETE FROM {table} WHERE game = ?", [game])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        refresh_card_summary(con)
    finally:
        con.close()
    return Removed(game_id, str(file), int(events))
