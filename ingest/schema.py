"""The database schema: DDL loaded by name from ``ingest/sql/``, a stored version, and migration or refusal.

``open_database`` creates a new database at ``SCHEMA_VERSION``; an older one is migrated with the scripts
``migrate_to_vN.sql`` in order when they exist, otherwise refused with ``SchemaVersionError`` saying what to do;
a newer one is always refused (an older annals must not write into it).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import duckdb

from annals.ingest.connect import NotAnnalsDatabaseError, classify, connect, lock_down
from annals.schemas.errors import AnnalsError

SCHEMA_VERSION = 1
SQL_DIR = Path(__file__).with_name("sql")
DEFAULT_DB = "annals.duckdb"


class DatabaseNotFoundError(AnnalsError, FileNotFoundError):
    """A read-only command was pointed at a database file that does not exist."""


class SchemaVersionError(AnnalsError, ValueError):
    """The database was made by another schema version and cannot be used as it is."""


@cache
def ddl(name: str) -> str:
    """The text of ``ingest/sql/NAME.sql``."""
    path = SQL_DIR / f"{name}.sql"
    if not path.exists():
        raise FileNotFoundError(path)
    return path.read_text()


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
    if version is None:
        con.execute(ddl(f"schema_v{SCHEMA_VERSION}"))
        con.execute("INSERT INTO schema_version VALUES (?)", [SCHEMA_VERSION])
    elif version > SCHEMA_VERSION:
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
    con.execute(ddl("views"))
    from annals.queries import sqlfiles

    for macro in sqlfiles.MACROS:
        con.execute(sqlfiles.load(macro))


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
                f"no annals database at {name!r}: create it with `annals ingest LOGS --db {name}`, or pass --db"
            )
        con = connect(name, read_only=True)
        try:
            con.execute("SET enable_progress_bar = false")
            version = stored_version(con)
            if version is None:
                raise (
                    _not_annals(name, _tables(con))
                    if _tables(con)
                    else SchemaVersionError(
                        f"database {name!r} is empty: ingest logs into it first (`annals ingest LOGS --db {name}`)"
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
