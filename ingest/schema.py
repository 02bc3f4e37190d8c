"""The database schema: DDL, views and the ``position()`` macro loaded by name from ``ingest/sql/``, a stored
version, and migration or refusal.

``open_database`` creates a new database from ``schema_v1.sql`` and the migrations; an older one is migrated with
the scripts ``migrate_to_vN.sql`` in order when they exist, otherwise refused with ``SchemaVersionError`` saying
what to do; a newer one is always refused (an older annals must not write into it). So a new database and a
migrated one are built by the same DDL. Version 2 added the tournament tables (``migrate_to_v2.sql``); version 3
stores a real target of 0 as 0 and "no target" as NULL (``migrate_to_v3.sql``); version 4 counts a capped game's
turns as played (``migrate_to_v4.sql``); version 5 adds ``decision_reviews``, the reviews saved beside the logs
(``migrate_to_v5.sql``, ``ingest.reviews``).
"""

from __future__ import annotations

import os
import typing
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import msgspec

from annals.ingest.connect import NotAnnalsDatabaseError, classify, connect, lock_down
from annals.ingest.sqlfiles import SqlFolder
from annals.ingest.summary import refresh_card_summary
from annals.schemas.archive import ref_stat
from annals.schemas.commandline import quoted
from annals.schemas.errors import AnnalsError
from annals.schemas.rulesets import ruleset_names, schema_for

SCHEMA_VERSION = 5
SQL_DIR = Path(__file__).with_name("sql")
DEFAULT_DB = "annals.duckdb"


class DatabaseNotFoundError(AnnalsError, FileNotFoundError):
    """A read-only command was pointed at a database file that does not exist."""


class SchemaVersionError(AnnalsError, ValueError):
    """The database was made by another schema version and cannot be used as it is."""


ddl = SqlFolder(SQL_DIR).load  # the text of ``ingest/sql/NAME.sql``

CARD_TABLES = ("card_facts", "card_games")  # derived by SQL from a batch's events and deck cards


def derive_card_tables(con: duckdb.DuckDBPyConnection, lo: int, hi: int, tables: Sequence[str] = CARD_TABLES) -> None:
    """Insert the rows of ``tables`` (card_facts, card_games) for the games numbered ``lo..hi``: what happened to
    each deck card is found in one pass over their events (``card_moves.sql``, a temporary table), then summed
    by card id for each table."""
    con.execute(ddl("card_moves"), {"lo": lo, "hi": hi})
    for table in tables:
        con.execute(ddl(table))
    con.execute("DROP TABLE card_moves")


def stored_version(con: duckdb.DuckDBPyConnection) -> int | None:
    """The schema version stored in the database, or None for an empty database."""
    found = con.execute(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'schema_version'"
    ).fetchall()[0][0]
    if not found:
        return None
    rows = con.execute("SELECT max(version) FROM schema_version").fetchall()
    return None if rows[0][0] is None else int(rows[0][0])


def ensure_schema(con: duckdb.DuckDBPyConnection, path: str = "") -> None:
    """Create, migrate or refuse; then (re)create the views."""
    version = stored_version(con)
    if version is None:  # a new database: version 1, then every migration
        con.execute(ddl("schema_v1"))
        con.execute("INSERT INTO schema_version VALUES (?)", [1])
        version = 1
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(
            f"database {path!r} has schema version {version}, newer than this annals' {SCHEMA_VERSION}; "
            "upgrade annals, or ingest into a new file with --db"
        )
    elif version < SCHEMA_VERSION:
        for target in range(version + 1, SCHEMA_VERSION + 1):
            script = SQL_DIR / f"migrate_to_v{target}.sql"
            if not script.exists():
                raise SchemaVersionError(
                    f"database {path!r} has schema version {version} and no migration to {target} exists; "
                    "re-ingest the logs into a new file with --db"
                )
            con.execute("BEGIN")
            con.execute(script.read_text())
            con.execute("UPDATE schema_version SET version = ?", [target])
            con.execute("COMMIT")
    _analytics_tables(con)
    # One transaction for the views, macros and the hundreds of comments: each statement on its own was a commit
    # of its own, written and flushed to the WAL (1.5-2 s on every writable open, before ingest read a log)
    con.execute("BEGIN")
    try:
        _option_kinds(con)
        con.execute(ddl("views"))
        con.execute(ddl("position"))
        comment_everything(con)
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def _option_kinds(con: duckdb.DuckDBPyConnection) -> None:
    """Every known ruleset's option types with their field names, for the ``decision_options`` view."""
    rows = option_kind_rows()
    if rows:
        con.executemany("INSERT INTO option_kinds VALUES (?, ?, ?, ?)", rows)


def option_kind_rows() -> list[tuple[str, str, str, list[str]]]:
    """The ``option_kinds`` table's rows: (ruleset, tag, option class name, field names) of every known ruleset
    (the lake's reports on Spark make the table from them too: it is the code's, not the games')."""
    rows: list[tuple[str, str, str, list[str]]] = []
    for name in ruleset_names():
        try:
            schema = schema_for(name)
        except (ImportError, AttributeError):
            continue  # a registered plugin that cannot be imported here: its options stay undecoded
        for option in typing.get_args(schema.option_type) or (schema.option_type,):
            info = msgspec.inspect.type_info(option)
            if isinstance(info, msgspec.inspect.StructType):
                rows.append((name, str(info.tag), option.__name__, [f.encode_name for f in info.fields]))
    return rows


def comment_everything(con: duckdb.DuckDBPyConnection) -> None:
    """``comments.sql`` (and ``comments_tournaments.sql``) on every table, view and column; a view column not named
    there takes the comment of the ``events`` column (or the first table column) of the same name it is read from."""
    con.execute(ddl("comments"))
    con.execute(ddl("comments_tournaments"))
    inherited = con.execute(ddl("comments_inherited")).fetchall()
    for view, column, text in inherited:
        con.execute(f'COMMENT ON COLUMN "{view}"."{column}" IS ' + "'" + text.replace("'", "''") + "'")


ANALYTICS_TABLES = ("game_dates", "card_games", "option_kinds")
CARD_GAMES_ADDED = ("placed_at_setup", "other_seat")  # columns card_games gained: a table without one is derived again


def _analytics_tables(con: duckdb.DuckDBPyConnection) -> None:
    """The additive tables of ``analytics.sql``; a database made before them is backfilled from what it holds."""
    missing = set(ANALYTICS_TABLES) - set(_table_names(con))
    if "card_games" not in missing and not all(_has_column(con, "card_games", c) for c in CARD_GAMES_ADDED):
        con.execute("DROP TABLE card_games")  # made before the starting Site or the other seat: derived again
        missing.add("card_games")
    con.execute(ddl("analytics"))
    if missing:
        _backfill(con, missing)
    # missing or stale: derived again; all of them after card_games was (card_metrics_summary is made from it)
    refresh_card_summary(con, unless_fresh="card_games" not in missing)


def _backfill(con: duckdb.DuckDBPyConnection, missing: set[str]) -> None:
    con.execute("BEGIN")
    if "game_dates" in missing:  # the files' times when they are still there, else the epoch
        files = con.execute("SELECT game, file FROM games").fetchall()
        if files:
            con.executemany("INSERT INTO game_dates VALUES (?, ?)", [(g, file_time(f)) for g, f in files])
    if "card_games" in missing:
        bounds = con.execute("SELECT min(game), max(game) FROM games").fetchall()[0]
        if bounds[0] is not None:
            derive_card_tables(con, bounds[0], bounds[1], ["card_games"])
    con.execute("COMMIT")


def file_time(path: str) -> datetime:
    """When the log at ``path`` was written (its archive's time, for an ``ARCHIVE#GAME_ID``)."""
    try:
        member = ref_stat(path)
        st = member[2] if member is not None else os.stat(path)
        return recorded_at(st.st_mtime)
    except OSError:
        return datetime(1970, 1, 1)


def recorded_at(modified: float) -> datetime:
    """A file's modification time (``os.stat``'s ``st_mtime``) as ``game_dates.recorded_at``: UTC, no zone."""
    return datetime.fromtimestamp(modified, UTC).replace(tzinfo=None)


def _has_column(con: duckdb.DuckDBPyConnection, table: str, column: str) -> bool:
    query = "SELECT count(*) FROM information_schema.columns WHERE table_name = ? AND column_name = ?"
    return bool(con.execute(query, [table, column]).fetchall()[0][0])


def _table_names(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()]


def _tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    rows = con.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_catalog = current_database() "
        "AND table_schema = 'main' ORDER BY 1"
    ).fetchall()
    return [str(r[0]) for r in rows]


def _not_annals(name: str, tables: list[str]) -> NotAnnalsDatabaseError:
    shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
    return NotAnnalsDatabaseError(
        f"{name} is a DuckDB database of another program (tables: {shown}), not an annals database; annals does "
        "not write into it: give a new file name with --db"
    )


def open_database(
    path: str | Path = DEFAULT_DB, *, read_only: bool = False, lockdown: Sequence[str | Path] | None = None
) -> duckdb.DuckDBPyConnection:
    """A connection to the annals database at ``path``, with the schema checked (and created when writable).

    Every failure to open is a named error (``ingest.connect``); a DuckDB database of another program is refused
    before anything is written to it. ``lockdown`` (read-only connections): the connection reaches no file but the
    database, except under the folders given (``connect.lock_down``)."""
    name = str(path)
    if read_only:
        if not Path(name).exists():
            raise DatabaseNotFoundError(
                f"no annals database at {name!r}: create it with `annals ingest LOGS --db {quoted(name)}`, or pass --db"
            ).about(name)
        con = connect(name, read_only=True)
        try:
            con.execute("SET enable_progress_bar = false")
            version = stored_version(con)
            if version is None:
                raise (
                    _not_annals(name, _tables(con))
                    if _tables(con)
                    else SchemaVersionError(
                        f"database {name!r} is empty: ingest logs into it first "
                        f"(`annals ingest LOGS --db {quoted(name)}`)"
                    )
                )
            if version != SCHEMA_VERSION:
                raise SchemaVersionError(
                    f"database {name!r} has schema version {version}, this annals reads {SCHEMA_VERSION}; "
                    "open it once with `annals ingest --db` to migrate it, or re-ingest"
                )
            if lockdown is not None:
                lock_down(con, lockdown)
        except BaseException:
            con.close()
            raise
        if set(ANALYTICS_TABLES) - set(_table_names(con)):
            con.close()
            raise SchemaVersionError(
                f"database {name!r} predates the analytics tables ({', '.join(ANALYTICS_TABLES)}); "
                f"open it once with `annals ingest --db {quoted(name)}` (with no logs) to add them"
            )
        return con
    con = connect(name)
    try:
        con.execute("SET enable_progress_bar = false")
        if stored_version(con) is None and _tables(con):
            raise _not_annals(name, _tables(con))
        ensure_schema(con, name)
    except duckdb.Error as exc:
        con.close()
        named = classify(exc, name)
        if named is None:
            raise
        raise named from None
    except BaseException:
        con.close()
        raise
    return con
