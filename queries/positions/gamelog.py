"""A game's log by log path or by game id: from its file, or, when the file it was ingested from is gone, rebuilt
from the database (``queries.positions.storedlog``: its stored decisions re-run, every event checked against the stored
one). Every command that takes a game id and needs the log (``annals position``, ``annals view``) reads it here,
so a rebuilt log gives every view (a player's, the spectator's, the omniscient one) exactly as the file would:
each view is the ruleset's redaction of the same events.

A game the database cannot give back (``stored_log`` names why: continued from a position, cards not shipped, a
table's clock or forfeit, a stored row that differs) is ``LogGoneError``, which names where the log was ingested
from, the reason, and the fix: pass the log's path.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import duckdb

from annals.ingest.schema import open_database
from annals.queries.positions.storedlog import StoredReplayError, stored_log
from annals.queries.positions.timeline import CoordinateError, LogNotFoundError
from annals.schemas.archive import log_exists
from annals.schemas.commandline import quoted
from annals.schemas.errors import BadArgumentError
from annals.schemas.files import NoMatchError
from annals.schemas.logfile import GameLog, read_log


class LogGoneError(LogNotFoundError):
    """A game's log is not where it was ingested from, and the database cannot rebuild it (``why``, as ``stored_log``
    says it); ``what`` is the message less its fix, for a caller whose fix is another."""

    def __init__(self, game_id: str, path: Path, reason: StoredReplayError):
        self.game_id, self.path = game_id, path
        why = str(reason).removeprefix(f"game {game_id!r}: ")
        self.why = why.rpartition("; pass the log's path")[0] or why  # stored_log's reason, less its fix
        self.what = (f"the log of game {game_id!r} is not at {str(path)!r} (where it was ingested from) and the "
                     f"database cannot rebuild it: {self.why}")  # fmt: skip
        super().__init__(f"{self.what}; pass the log's path instead of the game id")


class FoundLog(NamedTuple):
    """A game's log, where it is (or was ingested from), and whether it was rebuilt from the database."""

    log: GameLog
    path: Path
    rebuilt: bool

    def note(self, db: Path) -> str:
        """What to tell the user when the log was rebuilt from ``db`` (``""`` when it was read from its file)."""
        if not self.rebuilt:
            return ""
        return (f"note: the log at {self.path} was not found, so the game was rebuilt from the database {db} "
                "(its stored decisions re-run, every event checked against the stored one)")  # fmt: skip


class UnknownGameError(CoordinateError, BadArgumentError):
    """A value typed on the command line that is no log file and no game id in the database: a usage error (exit
    2), as every name typed that names nothing."""


def log_path(source: str, db: Path) -> Path:
    """A log path (or ``ARCHIVE#GAME_ID``), or the file game id ``source`` was ingested from (which may since have
    moved)."""
    path = Path(source)
    if log_exists(path):  # a log file (a link loop or a FIFO too: reading it says what is wrong), or ARCHIVE#GAME_ID
        return path
    if source.endswith(".log") or "/" in source:
        raise NoMatchError(f"no such file or folder: {source}; check the path").about(source)
    con = open_database(db, read_only=True)
    try:
        rows = con.execute("SELECT file FROM games WHERE game_id = ?", [source]).fetchall()
    finally:
        con.close()
    if not rows:
        listing = f'annals sql "SELECT game_id, ruleset, file FROM games" --db {quoted(db)}'
        raise UnknownGameError(f"{source!r} is neither a log file nor a game id in {db}; list the ids: {listing}")
    return Path(rows[0][0])


def game_log(source: str, db: Path, path: Path | None = None) -> FoundLog:
    """The log of ``source`` (a log path, or a game id in ``db``), read from ``path`` (default: ``log_path``) or,
    when nothing is there, rebuilt from the database; ``LogGoneError`` when it cannot be, saying why."""
    path = path if path is not None else log_path(source, db)
    if log_exists(path):  # the database is not opened for a log at hand
        return FoundLog(read_log(path, backup_pending=True), path, False)
    con = open_database(db, read_only=True)
    try:
        return logged_or_stored(con, source, path)
    finally:
        con.close()


def logged_or_stored(con: duckdb.DuckDBPyConnection, game_id: str, path: Path) -> FoundLog:
    """Stored game ``game_id``'s log from ``path`` (where it was ingested from), or rebuilt from the database open
    as ``con`` when nothing is there; ``LogGoneError`` when it cannot be, saying why."""
    if log_exists(path):
        return FoundLog(read_log(path, backup_pending=True), path, False)
    try:
        log = stored_log(con, game_id)
    except StoredReplayError as exc:
        raise LogGoneError(game_id, path, exc) from None
    return FoundLog(log, path, True)
